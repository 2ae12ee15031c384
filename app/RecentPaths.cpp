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

RecentMenu::RecentMenu(QWidget *parent) : QMenu(parent)
{
    retranslate();
}

void RecentMenu::refill()
{
    clear();
    const QStringList paths = recentPaths();
    for (const QString &path : paths)
        addAction(path, this, [this, path] { Q_EMIT pathChosen(path); });
    setEnabled(!paths.isEmpty());
    Q_EMIT pathsChanged(paths);
}

void RecentMenu::retranslate()
{
    setTitle(tr("Open &Recent"));
}

} // namespace at
