#include "RecentPaths.h"

#include <QFileInfo>
#include <QSettings>

namespace at {

namespace {
constexpr int kKept = 10;
const QString kKey = QStringLiteral("recent/paths");
} // namespace

QStringList recentPaths()
{
    return QSettings().value(kKey).toStringList();
}

void rememberRecentPath(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList paths = recentPaths();
    paths.removeAll(absolute);
    paths.prepend(absolute);
    while (paths.size() > kKept)
        paths.removeLast();
    QSettings().setValue(kKey, paths);
}

} // namespace at
