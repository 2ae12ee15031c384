#include "folder/SingleFile.h"

#include "folder/FolderListing.h"
#include "folder/NamePatterns.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

namespace at {

using namespace profile_names;

namespace {

enum class Sniff
{
    Trace,
    NotTrace,
    Unreadable
};

// '[' = array trace; '{' with a "traceEvents" key = object trace. The key may follow other metadata, so
// a generous prefix is searched.
Sniff sniffTrace(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Sniff::Unreadable;
    const QByteArray head = file.read(1 << 20);
    qsizetype i = head.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        ++i;
    if (i >= head.size())
        return Sniff::NotTrace;
    if (head[i] == '[')
        return Sniff::Trace;
    if (head[i] == '{' && head.indexOf("\"traceEvents\"", i) >= 0)
        return Sniff::Trace;
    return Sniff::NotTrace;
}

// trace_view.json / ascend_pytorch_profiler_<n>.db inside <root>/ASCEND_PROFILER_OUTPUT: the rank is in
// the root's profiler_info_<rank>.json or folder name.
std::optional<int> rankFromTorchRoot(const QFileInfo &file)
{
    const QFileInfo parent(file.absolutePath());
    if (parent.fileName() != QStringLiteral("ASCEND_PROFILER_OUTPUT"))
        return std::nullopt;
    const FolderListing root = FolderListing::read(parent.absolutePath());
    for (const QString &name : root.files) {
        if (const auto rank = rankFromProfilerInfoName(name))
            return rank;
    }
    return rankFromFolderName(root.path.section(QLatin1Char('/'), -1));
}

ProfileGeneration generationOfJsonName(const QFileInfo &file, const QString &name)
{
    if (isTraceViewName(name))
        return ProfileGeneration::G4;
    if (!isMasterTimelineName(name))
        return ProfileGeneration::Unknown;
    // G2 keeps its merged copy in PROF_*/timeline; G1 per-iteration files live in device_<id>/timeline.
    const QFileInfo parent(file.absolutePath());
    if (parent.fileName() == QStringLiteral("timeline") &&
        isProfDirName(QFileInfo(parent.absolutePath()).fileName()))
        return ProfileGeneration::G2;
    const auto parsed = parseExportFileName(name);
    return parsed && parsed->iteration ? ProfileGeneration::G1 : ProfileGeneration::G3;
}

void notATimeline(QList<Diagnostic> &diagnostics, const QString &path, const QString &why)
{
    diagnostics.append({DiagnosticSeverity::Error, DiagnosticCode::NotATimelineFile, path,
                        QCoreApplication::translate("Parser", "%1 is not a timeline: %2").arg(path, why)});
}

} // namespace

std::optional<DataSource> classifySingleFile(const QString &path, QList<Diagnostic> &diagnostics)
{
    const QFileInfo info(path);
    const QString name = info.fileName();
    DataSource s;
    s.rootPath = info.absoluteFilePath();
    s.clusterPath = info.absolutePath();
    s.timelineFiles = {s.rootPath};

    if (!info.isFile()) { // a FIFO or device would block the sniff below
        notATimeline(diagnostics, path, QCoreApplication::translate("Parser", "it is not a regular file."));
        return std::nullopt;
    }
    if (name.endsWith(QStringLiteral(".json.zst")) || name.endsWith(QStringLiteral(".json.gz"))) {
        s.format = TimelineFormat::CompressedChromeJson;
        s.generation = generationOfJsonName(info, name.left(name.lastIndexOf(QLatin1Char('.'))));
    } else if (isTraceViewName(name) || isMasterTimelineName(name)) {
        s.format = TimelineFormat::ChromeJson;
        s.generation = generationOfJsonName(info, name);
    } else if (isMsprofDbName(name) || isTorchDbName(name)) {
        s.format = TimelineFormat::Sqlite;
        s.generation = isMsprofDbName(name) ? ProfileGeneration::G3 : ProfileGeneration::G4;
        s.timelineDatabase = s.rootPath;
        s.rankId = rankFromTorchDbName(name);
    } else if (name.endsWith(QStringLiteral(".db"))) {
        notATimeline(diagnostics, path,
                     QCoreApplication::translate(
                         "Parser",
                         "only msprof_<n>.db and ascend_pytorch_profiler[_<rank>].db databases hold "
                         "a timeline (analysis.db and cluster_analysis.db are summaries)."));
        return std::nullopt;
    } else if (name.endsWith(QStringLiteral(".csv"))) {
        notATimeline(diagnostics, path,
                     QCoreApplication::translate(
                         "Parser", "CSV files are summary tables; open the result folder that contains it."));
        return std::nullopt;
    } else {
        switch (sniffTrace(path)) {
        case Sniff::Unreadable:
            diagnostics.append({DiagnosticSeverity::Error, DiagnosticCode::PermissionDenied, path,
                                QCoreApplication::translate("Parser", "Cannot read %1.").arg(path)});
            return std::nullopt;
        case Sniff::NotTrace:
            notATimeline(diagnostics, path,
                         QCoreApplication::translate(
                             "Parser", "it is neither a JSON array nor an object with \"traceEvents\"."));
            return std::nullopt;
        case Sniff::Trace:
            s.format = TimelineFormat::ChromeJson;
            s.generation = ProfileGeneration::Unknown;
            break;
        }
    }
    if (!s.rankId)
        s.rankId = rankFromTorchRoot(info);
    return s;
}

} // namespace at
