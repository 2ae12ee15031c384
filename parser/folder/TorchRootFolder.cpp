#include "folder/TorchRootFolder.h"

#include "folder/ExportFolder.h"
#include "folder/InputFormat.h"
#include "folder/NamePatterns.h"
#include "folder/ProfFolder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace at {

using namespace profile_names;

namespace {

const QString kOutputDir = QStringLiteral("ASCEND_PROFILER_OUTPUT");

struct EmbeddedProf
{
    DataSource source;
    QList<Diagnostic> diagnostics; // reported only when the embedded export is actually used
};

std::optional<EmbeddedProf> collectEmbeddedProf(const FolderListing &root, const DetectOptions &options)
{
    // Normally a single PROF_*; with several, the last in natural order has the newest start time in its
    // name.
    const auto it = std::find_if(root.dirs.crbegin(), root.dirs.crend(), isProfDirName);
    if (it == root.dirs.crend())
        return std::nullopt;
    const FolderListing prof = FolderListing::read(root.filePath(*it));
    EmbeddedProf out;
    const QList<DataSource> sources =
        collectProfFolder(prof, classifyProfFolder(prof), options, out.diagnostics);
    if (sources.isEmpty())
        return std::nullopt;
    out.source = sources.front();
    return out;
}

void chooseDatabases(DataSource &s, const FolderListing &output)
{
    QStringList profilerDbs;
    for (const QString &name : output.files) {
        if (isTorchDbName(name))
            profilerDbs.append(name);
        else if (name.endsWith(QStringLiteral(".db")))
            s.otherDatabases.append(output.filePath(name));
    }
    if (profilerDbs.isEmpty())
        return;
    QString chosen = profilerDbs.front();
    for (const QString &name : profilerDbs) {
        if (s.rankId && rankFromTorchDbName(name) == s.rankId)
            chosen = name;
    }
    if (!s.rankId)
        s.rankId = rankFromTorchDbName(chosen);
    s.timelineDatabase = output.filePath(chosen);
}

void useTimeline(DataSource &s, const DetectOptions &options, const QStringList &files)
{
    s.format = formatOfFile(*options.formats, files.front());
    s.timelineFiles = files;
}

} // namespace

bool isTorchRootFolder(const FolderListing &folder)
{
    if (isTorchRootName(folder.path.section(QLatin1Char('/'), -1)))
        return true;
    if (!folder.readable)
        return false;
    return folder.hasDir(kOutputDir) ||
           std::any_of(folder.files.cbegin(), folder.files.cend(), isProfilerInfoName);
}

DataSource collectTorchRoot(const FolderListing &root, const DetectOptions &options,
                            QList<Diagnostic> &diagnostics)
{
    DataSource s;
    s.generation = ProfileGeneration::G4;
    s.torchRoot = true;
    s.rootPath = root.path;
    s.configFiles = configFilesIn(root);
    for (const QString &name : root.files) {
        if (!s.rankId)
            s.rankId = rankFromProfilerInfoName(name);
    }

    const FolderListing output = FolderListing::read(root.filePath(kOutputDir));
    if (output.exists && !output.readable)
        diagnostics.append(
            {DiagnosticSeverity::Warning, DiagnosticCode::PermissionDenied, output.path,
             QCoreApplication::translate("Parser", "Cannot read %1: permission denied.").arg(output.path)});
    s.summaryFiles = ExportFolderContents::scan(output).summaries;
    chooseDatabases(s, output);
    const QString traceView = output.hasFile(QStringLiteral("trace_view.json"))
                                  ? output.filePath(QStringLiteral("trace_view.json"))
                                  : QString();

    // Device id, clock files and raw folders come from the embedded PROF_* whichever timeline is chosen.
    std::optional<EmbeddedProf> embedded = collectEmbeddedProf(root, options);
    if (embedded) {
        s.profPath = embedded->source.profPath;
        s.deviceId = embedded->source.deviceId;
        s.configFiles.append(embedded->source.configFiles);
        s.rawDataDirs = embedded->source.rawDataDirs;
        for (const Diagnostic &d : embedded->diagnostics) {
            if (d.code == DiagnosticCode::PermissionDenied)
                diagnostics.append(d);
        }
    }

    const QString name = root.path.section(QLatin1Char('/'), -1);
    const bool preferDb = options.preferDatabase && !s.timelineDatabase.isEmpty();
    if (!traceView.isEmpty() && !preferDb) {
        useTimeline(s, options, {traceView});
    } else if (!s.timelineDatabase.isEmpty()) {
        useTimeline(s, options, {s.timelineDatabase});
    } else if (embedded && embedded->source.hasTimeline()) {
        const DataSource &e = embedded->source;
        s.generation = e.generation;
        s.format = e.format;
        s.timelineFiles = e.timelineFiles;
        s.supplementaryTimelineFiles = e.supplementaryTimelineFiles;
        s.timelineDatabase = e.timelineDatabase;
        diagnostics.append(embedded->diagnostics);
        diagnostics.append({DiagnosticSeverity::Info, DiagnosticCode::EmbeddedProfFallback, root.path,
                            QCoreApplication::translate(
                                "Parser", "%1 has no trace_view.json or profiler database; using the msprof "
                                          "export of the embedded %2 instead (no Python lanes).")
                                .arg(name, e.profPath.section(QLatin1Char('/'), -1))});
    } else if (output.files.isEmpty() && (root.hasDir(QStringLiteral("FRAMEWORK")) || embedded)) {
        s.generation = ProfileGeneration::RawOnly;
        if (!s.rawDataDirs.isEmpty())
            s.format = formatOfDataFolder(*options.formats, s.rawDataDirs.front());
        diagnostics.append(
            {DiagnosticSeverity::Warning, DiagnosticCode::UnparsedTorchProfile, root.path,
             QCoreApplication::translate("Parser", "%1 is an unparsed torch_npu profile (raw data only): run "
                                                   "`torch_npu.profiler.profiler.analyse(\"%2\")` to create "
                                                   "ASCEND_PROFILER_OUTPUT/trace_view.json.")
                 .arg(name, root.path)});
    } else if (const QFileInfo special(QDir(output.path).filePath(QStringLiteral("trace_view.json")));
               special.exists() && !special.isFile() && !special.isDir()) {
        // A FIFO, socket or device named trace_view.json is never opened (a FIFO would block).
        diagnostics.append({DiagnosticSeverity::Warning, DiagnosticCode::NoTimeline, root.path,
                            QCoreApplication::translate(
                                "Parser", "%1 has no timeline: %2 is not a regular file (a FIFO, socket or "
                                          "device) and is not read.")
                                .arg(name, special.filePath())});
    } else {
        // Its device tasks are then drawn from kernel_details.csv (summary/KernelRowTimelineReader).
        const QString rest =
            output.hasFile(QStringLiteral("kernel_details.csv"))
                ? QCoreApplication::translate("Parser", "Its device tasks are drawn from kernel_details.csv.")
                : QCoreApplication::translate("Parser", "Only its summary tables are available.");
        diagnostics.append(
            {DiagnosticSeverity::Warning, DiagnosticCode::NoTimeline, root.path,
             QCoreApplication::translate("Parser", "%1 has no timeline: %2 holds neither trace_view.json nor "
                                                   "ascend_pytorch_profiler*.db. %3")
                 .arg(name, kOutputDir, rest)});
    }

    // kernel_details.csv replaces the embedded op_summary (§1.8); other embedded tables only fill gaps.
    if (embedded) {
        const auto &extra = embedded->source.summaryFiles;
        for (auto it = extra.cbegin(); it != extra.cend(); ++it) {
            const bool replaced = it.key() == QStringLiteral("op_summary") &&
                                  s.summaryFiles.contains(QStringLiteral("kernel_details"));
            if (!replaced && !s.summaryFiles.contains(it.key()))
                s.summaryFiles.insert(it.key(), it.value());
        }
    }
    return s;
}

} // namespace at
