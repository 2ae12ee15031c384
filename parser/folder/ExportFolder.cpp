#include "folder/ExportFolder.h"

#include "folder/NamePatterns.h"

namespace at {

using namespace profile_names;

ExportFolderContents ExportFolderContents::scan(const FolderListing &folder)
{
    QList<ExportFile> candidates;
    for (const QString &name : folder.files) {
        if (auto parsed = parseExportFileName(name))
            candidates.append({folder.filePath(name), std::move(*parsed)});
    }

    ExportFolderContents out;
    for (const ExportFile &f : selectNewestExports(candidates)) {
        const QString fileName = f.path.section(QLatin1Char('/'), -1);
        if (f.name.extension == QStringLiteral("csv")) {
            out.summaries[f.name.type].append(f.path);
        } else if (f.name.type == QStringLiteral("msprof") && isMasterTimelineName(fileName)) {
            out.masterTimeline.append(f.path);
        } else if (f.name.type == QStringLiteral("hccl") || f.name.type == QStringLiteral("ai_cpu") ||
                   f.name.type == QStringLiteral("aicpu")) {
            out.supplementaryTimeline.append(f.path);
        }
    }
    return out;
}

void appendSummaries(QMap<QString, QStringList> &into, const QMap<QString, QStringList> &from)
{
    for (auto it = from.cbegin(); it != from.cend(); ++it)
        into[it.key()].append(it.value());
}

QStringList configFilesIn(const FolderListing &folder)
{
    QStringList out;
    for (const QString &name : folder.files) {
        if (isConfigFileName(name))
            out.append(folder.filePath(name));
    }
    return out;
}

} // namespace at
