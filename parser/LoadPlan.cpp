#include "LoadPlan.h"

#include "folder/ProfileLayoutDetector.h"
#include "folder/SingleFile.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>

namespace at {

namespace {

bool isLoadable(const DataSource &source)
{
    const bool hasKernelTable = !source.summaries(QStringLiteral("kernel_details")).isEmpty() ||
                                !source.summaries(QStringLiteral("op_summary")).isEmpty();
    return source.format == TimelineFormat::ChromeJson ||
           source.format == TimelineFormat::CompressedChromeJson || source.format == TimelineFormat::Sqlite ||
           source.format == TimelineFormat::RawBinary ||
           (source.format == TimelineFormat::None && hasKernelTable);
}

PlannedSource planSource(const DataSource &source)
{
    PlannedSource planned;
    planned.source = source;
    planned.exportFormat = source.format;
    for (const InputReader *reader : inputReaders())
        if (reader->recognises(source))
            planned.readers.push_back(reader);
    return planned;
}

// --source raw: decode the raw slices of every source that has them, instead of its export. False when
// no source has raw data.
bool switchToRawData(QList<DataSource> &sources, std::map<QString, TimelineFormat> &exportOf)
{
    bool anyRaw = false;
    for (DataSource &source : sources) {
        if (source.rawDataDirs.isEmpty())
            continue;
        anyRaw = true;
        if (source.format == TimelineFormat::RawBinary)
            continue;
        exportOf[source.rootPath] = source.format;
        source.format = TimelineFormat::RawBinary;
        source.timelineFiles.clear();
        source.supplementaryTimelineFiles.clear();
        source.summaryFiles.clear(); // the kernel table comes from the raw PMU records
    }
    return anyRaw;
}

// The run to load: the text export is the default (§1.8), also when choosing between runs: a run with a
// JSON timeline wins over a database-only one unless the database is preferred.
QString chooseRun(const QList<DataSource> &sources, PreferredSource preferred)
{
    const bool preferDb = preferred == PreferredSource::Database;
    for (const DataSource &source : sources)
        if (isLoadable(source) && source.hasTimeline() &&
            (source.format == TimelineFormat::Sqlite) == preferDb)
            return source.clusterPath;
    for (const DataSource &source : sources)
        if (isLoadable(source) && source.hasTimeline())
            return source.clusterPath;
    for (const DataSource &source : sources)
        if (isLoadable(source))
            return source.clusterPath;
    return {};
}

// LoadOptions::rankFolders: keep the sources of those rank folders only, as one run (the ranks of one
// cluster are shown together, as the whole folder's ranks are). A folder that is not a source of the
// result is named in a notice. loadTrace() then loads each kept rank from its own folder and merges the
// models (RankSubsetLoad.cpp); loadRanksAsOneRun() still reads this run with one builder.
void keepRankFolders(DetectedProfile &profile, const QString &path, const QStringList &rankFolders,
                     QStringList &notices)
{
    const auto canonicalOf = [](const QString &folder) {
        const QString c = QFileInfo(folder).canonicalFilePath();
        return c.isEmpty() ? QFileInfo(folder).absoluteFilePath() : c;
    };
    QStringList wanted;
    for (const QString &folder : rankFolders)
        wanted << canonicalOf(folder);
    QStringList found;
    QList<DataSource> kept;
    for (DataSource &source : profile.sources) {
        const QString root = canonicalOf(source.rootPath);
        if (!wanted.contains(root))
            continue;
        found << root;
        source.clusterPath = path;
        kept.push_back(std::move(source));
    }
    profile.sources = std::move(kept);
    // What the detector said about ranks that are not loaded is not about this model.
    QList<Diagnostic> diagnostics;
    for (const Diagnostic &d : std::as_const(profile.diagnostics)) {
        const QString where = canonicalOf(d.path);
        if (std::any_of(found.begin(), found.end(), [&](const QString &root) {
                return where == root || where.startsWith(root + QLatin1Char('/'));
            }))
            diagnostics.push_back(d);
    }
    profile.diagnostics = std::move(diagnostics);
    for (qsizetype i = 0; i < wanted.size(); ++i)
        if (!found.contains(wanted[i]))
            notices << QStringLiteral("%1: not a rank folder with a timeline under %2; not loaded")
                           .arg(rankFolders[i], path);
}

LoadPlan planFolder(const QString &path, const LoadOptions &options)
{
    LoadPlan plan;
    plan.input = path;
    DetectOptions detect;
    detect.preferDatabase = options.preferredSource == PreferredSource::Database;
    DetectedProfile profile = ProfileLayoutDetector::detect(path, detect);
    QStringList problems;
    if (!options.rankFolders.isEmpty())
        keepRankFolders(profile, path, options.rankFolders, problems);
    std::map<QString, TimelineFormat> exportOf; // rootPath of a source switched to raw -> its export
    if (options.preferredSource == PreferredSource::Raw && !switchToRawData(profile.sources, exportOf))
        problems << QCoreApplication::translate(
                        "Parser", "%1: raw data was requested but no PROF_*/host|device_N/data folder was "
                                  "found; the export was loaded instead")
                        .arg(path);
    // "raw data only: run msprof" is shown only when the raw data cannot be decoded here either.
    QStringList rawOnlyMessages;
    for (const Diagnostic &d : profile.diagnostics)
        if (d.code == DiagnosticCode::RawDataOnly)
            rawOnlyMessages << d.message;
        else if (d.code != DiagnosticCode::MultipleRuns)
            problems << d.message;

    const QString run = chooseRun(profile.sources, options.preferredSource);
    for (const DataSource &source : profile.sources) {
        auto planned = std::find_if(plan.runs.begin(), plan.runs.end(),
                                    [&](const PlannedRun &r) { return r.path == source.clusterPath; });
        if (planned == plan.runs.end()) {
            plan.runs.push_back({source.clusterPath, {}});
            planned = plan.runs.end() - 1;
        }
        if (!isLoadable(source))
            continue;
        PlannedSource s = planSource(source);
        if (const auto replaced = exportOf.find(source.rootPath); replaced != exportOf.end())
            s.exportFormat = replaced->second;
        for (const QString &m : rawOnlyMessages)
            if (m.contains(source.profPath))
                s.rawDataOnlyMessages << m;
        planned->sources.push_back(std::move(s));
    }
    QStringList otherRuns;
    for (std::size_t i = 0; i < plan.runs.size(); ++i)
        if (plan.runs[i].path == run && !plan.runs[i].sources.empty())
            plan.chosenRun = static_cast<int>(i);
        else
            otherRuns << plan.runs[i].path;
    QStringList skipped;
    if (!otherRuns.isEmpty() && plan.chosenRun >= 0)
        skipped << QCoreApplication::translate(
                       "Parser", "%1 holds results of %2 runs; showing %3. Open the others separately (their "
                                 "clocks are not aligned): %4")
                       .arg(path)
                       .arg(otherRuns.size() + 1)
                       .arg(run, otherRuns.join(QStringLiteral(", ")));
    plan.notices = problems + skipped;
    if (plan.chosenRun < 0) {
        QStringList reasons = rawOnlyMessages + problems + skipped;
        if (reasons.isEmpty())
            reasons << QCoreApplication::translate("Parser", "no profiling result with a timeline was found");
        plan.error = QStringLiteral("%1: %2").arg(path, reasons.join(QStringLiteral("; ")));
    }
    return plan;
}

// A file opened on its own: a profiler database (analysis.db and cluster_analysis.db are refused by name),
// else a Chrome trace (.json, .json.zst, .json.gz, a Qt resource, or any other name: the parser judges it).
LoadPlan planFile(const QString &path)
{
    LoadPlan plan;
    plan.input = path;
    plan.singleFile = true;
    DataSource source;
    if (QFileInfo(path).suffix().compare(QStringLiteral("db"), Qt::CaseInsensitive) == 0) {
        QList<Diagnostic> diagnostics;
        const std::optional<DataSource> database = classifySingleFile(path, diagnostics);
        if (!database || database->format != TimelineFormat::Sqlite) {
            plan.error = diagnostics.isEmpty()
                             ? QCoreApplication::translate("Parser", "%1: not a profiler database").arg(path)
                             : diagnostics.front().message;
            return plan;
        }
        source = *database;
        source.timelineDatabase = path;
    } else {
        source.format = TimelineFormat::ChromeJson; // also for .zst / .gz: the reader detects compression
    }
    source.rootPath = path;
    source.timelineFiles = {path};
    plan.runs.push_back({QFileInfo(path).absolutePath(), {planSource(source)}});
    plan.chosenRun = 0;
    return plan;
}

} // namespace

LoadPlan planLoad(const QString &path, const LoadOptions &options)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        LoadPlan plan;
        plan.input = path;
        plan.error = QCoreApplication::translate("Parser", "%1: no such file or folder").arg(path);
        return plan;
    }
    return info.isDir() ? planFolder(path, options) : planFile(path);
}

} // namespace at
