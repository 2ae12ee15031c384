#include "LoadPlan.h"

#include "folder/InputFormat.h"
#include "folder/ProfileLayoutDetector.h"
#include "folder/SingleFile.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>

namespace at {

namespace {

// Some reader draws a timeline of it (its own format's reader, or the kernel rows of a source without one).
bool isLoadable(const DataSource &source)
{
    return std::any_of(inputReaders().begin(), inputReaders().end(), [&](const InputReader *reader) {
        return reader->descriptor().drawsTimeline() && reader->recognises(source);
    });
}

bool readFromDatabase(const DataSource &source)
{
    const InputReader *reader = timelineReaderOf(source);
    return reader && reader->descriptor().provenance == TimelineExport::Database;
}

// The reader that decodes raw data folders (--source raw); null when none is registered.
const InputReader *rawDataDecoder()
{
    for (const InputReader *reader : inputReaders())
        if (reader->descriptor().provenance == TimelineExport::RawData)
            return reader;
    return nullptr;
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
bool switchToRawData(QList<DataSource> &sources, std::map<QString, QString> &exportOf)
{
    const InputReader *decoder = rawDataDecoder();
    if (!decoder)
        return false;
    const QString raw = decoder->descriptor().id;
    bool anyRaw = false;
    for (DataSource &source : sources) {
        if (source.rawDataDirs.isEmpty())
            continue;
        anyRaw = true;
        if (source.format == raw)
            continue;
        exportOf[source.rootPath] = source.format;
        source.format = raw;
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
        if (isLoadable(source) && source.hasTimeline() && readFromDatabase(source) == preferDb)
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
    DetectedProfile profile = ProfileLayoutDetector::detect(path, inputFormats(), detect);
    QStringList problems;
    if (!options.rankFolders.isEmpty())
        keepRankFolders(profile, path, options.rankFolders, problems);
    std::map<QString, QString> exportOf; // rootPath of a source switched to raw -> its export
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

// A file opened on its own: the reader that claims its name or its first bytes (folder/InputFormat.h). A
// name a timeline reader refuses (analysis.db) is an error saying why; any other file goes to the
// Chrome-trace reader, whose parser names what is wrong with it (a summary CSV, a text file).
LoadPlan planFile(const QString &path)
{
    LoadPlan plan;
    plan.input = path;
    plan.singleFile = true;
    DataSource source;
    const FileClaim claim = sniffSingleFile(inputFormats(), path);
    const InputReader *refuser = claim.refusedBy ? inputReaderById(claim.refusedBy->formatId()) : nullptr;
    if (claim.format) {
        source = claimedFileSource(path, claim);
        if (!source.timelineDatabase.isEmpty())
            source.timelineDatabase = path;
    } else if (claim.refusedByName && refuser && refuser->descriptor().drawsTimeline()) {
        plan.error =
            QCoreApplication::translate("Parser", "%1 is not a timeline: %2").arg(path, claim.refusal);
        return plan;
    } else {
        source.format = jsonTimelineReader().formatId(); // its parser judges the file
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
