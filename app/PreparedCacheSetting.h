#pragma once
// File ▸ Prepared Cache Folder… / Stop Using the Prepared Cache Folder: the folder of a prepared cluster
// (`--prepare RANK_DIR --cache DIR`, docs/CLUSTER.md) chosen in the window instead of with `--cache DIR`.
// Kept in QSettings ("cache/preparedFolder"); every following load of a window uses it like `--cache DIR`
// (the snapshot cache of that folder, and the cluster page's prepared summaries), unless the command line
// chose for its run (`--cache`, `--no-cache`): MainWindow::loadOptions().

#include <QString>

#include <functional>

class QWidget;

namespace at {

// The chosen folder, empty when none.
QString savedPreparedCacheFolder();
// Empty: none. A symbolic link is resolved (the cache writer refuses links), as `--cache` does.
void setSavedPreparedCacheFolder(const QString &folder);
// A folder dialog starting at the current folder; empty when cancelled.
QString choosePreparedCacheFolder(QWidget *parent);

// Tests: the folder dialog replaced by a function returning the folder (empty: cancelled); {} restores it.
void setPreparedCacheChooserForTesting(std::function<QString()> chooser);

} // namespace at
