#include "folder/SingleFile.h"

#include "folder/FolderListing.h"
#include "folder/NamePatterns.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace at {

using namespace profile_names;

namespace {

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

void notATimeline(QList<Diagnostic> &diagnostics, const QString &path, const QString &why)
{
    diagnostics.append({DiagnosticSeverity::Error, DiagnosticCode::NotATimelineFile, path,
                        QCoreApplication::translate("Parser", "%1 is not a timeline: %2").arg(path, why)});
}

} // namespace

std::optional<DataSource> classifySingleFile(const QString &path, const InputFormats &formats,
                                             QList<Diagnostic> &diagnostics)
{
    const QFileInfo info(path);
    if (!info.isFile()) { // a FIFO or device would block the sniff below
        notATimeline(diagnostics, path, QCoreApplication::translate("Parser", "it is not a regular file."));
        return std::nullopt;
    }
    const FileClaim claim = sniffSingleFile(formats, path);
    if (claim.unreadable) {
        diagnostics.append({DiagnosticSeverity::Error, DiagnosticCode::PermissionDenied, path,
                            QCoreApplication::translate("Parser", "Cannot read %1.").arg(path)});
        return std::nullopt;
    }
    if (!claim.format) {
        notATimeline(diagnostics, path, claim.refusal);
        return std::nullopt;
    }
    return claimedFileSource(path, claim);
}

DataSource claimedFileSource(const QString &path, const FileClaim &claim)
{
    const QFileInfo info(path);
    DataSource s = claim.source;
    s.format = claim.format->formatId();
    s.rootPath = info.absoluteFilePath();
    s.clusterPath = info.absolutePath();
    s.timelineFiles = {s.rootPath};
    if (!s.timelineDatabase.isEmpty())
        s.timelineDatabase = s.rootPath;
    if (!s.rankId)
        s.rankId = rankFromTorchRoot(info);
    return s;
}

} // namespace at
