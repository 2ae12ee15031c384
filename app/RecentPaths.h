#pragma once

#include <QMenu>
#include <QStringList>

namespace at {

// The ten most recently opened files and folders, most recent first, kept in QSettings.
QStringList recentPaths();
// Moves (or adds) the path's absolute form to the front.
void rememberRecentPath(const QString &path);

// File ▸ Open Recent: recentPaths() as actions; choosing one emits pathChosen.
class RecentMenu : public QMenu
{
    Q_OBJECT
public:
    explicit RecentMenu(QWidget *parent = nullptr);
    // The actions of recentPaths() again (disabled when there is none); emits pathsChanged.
    void refill();
    void retranslate();

Q_SIGNALS:
    void pathChosen(const QString &path);
    void pathsChanged(const QStringList &paths);
};

} // namespace at
