#pragma once
// The prepared cluster cache (`ascend-timeline --prepare RANK_DIR --cache DIR`, docs/CLUSTER.md). Beside each
// rank's snapshot, DIR holds a small JSON file with what readRankSummary() read from the rank folder. It is
// named like the snapshot (snapshot::portableKeyName: the rank folder's name and the identity of its
// profiler_info files, not its path) and stamped like it: the size, mtime, ctime and fingerprint of every
// file the summary was read from and of the folders holding them (a file added or removed changes a
// folder's mtime), recorded relative to the rank folder. A summary whose stamps all still match, at the
// path it was prepared at or under another one (snapshot::firstChangedFile says what must match then),
// stands in for the rank's files; anything else is ignored with the reason and the files are read.

#include "cluster/ClusterReader.h"

#include <QString>

#include <optional>

namespace at::cluster {

// Bumped whenever the summary's fields or the reader's definitions change: an older file is re-read.
// 2: named by the folder's name and identity, stamps relative to the rank folder (another mount path).
constexpr int kPreparedSummaryFormat = 2;

// DIR/<portableKeyName(rank folder)>.atrank.json; empty when the folder does not exist or DIR lies inside
// it (the data folder is never written).
QString preparedSummaryPath(const QString &rankFolder, const QString &cacheDir);

// Writes the summary atomically with the cache's rules (snapshot::saveCacheFile). snapshotPath names the
// rank's prepared snapshot (empty: the rank has no timeline, or it could not be loaded).
bool writePreparedSummary(const RankSummary &summary, const QString &cacheDir, const QString &snapshotPath,
                          QString *reason);

// The summary prepared for this rank folder when it is current (Rank::preparedSummary then names the file).
// nullopt when there is none (*why empty) or when it is not used (*why says why: stale, another folder,
// unreadable, another format).
std::optional<RankSummary> readPreparedSummary(const QString &rankFolder, const QString &cacheDir,
                                               QString *why);

} // namespace at::cluster
