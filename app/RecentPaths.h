#pragma once

#include <QStringList>

namespace at {

// The ten most recently opened files and folders, most recent first, kept in QSettings.
QStringList recentPaths();
// Moves (or adds) the path's absolute form to the front.
void rememberRecentPath(const QString &path);

} // namespace at
