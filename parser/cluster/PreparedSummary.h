#pragma once
// The prepared cluster cache (`ascend-timeline --prepare RANK_DIR --cache DIR`, docs/CLUSTER.md). Beside each
// rank's snapshot, DIR holds a small JSON file with what readRankSummary() read from the rank folder. It is
// named like the snapshot (snapshot::portableKeyName: the rank folder's name and the identity of its
// profiler_info files, not its path) and stamped like it: the size, mtime, ctime and fingerprint of every
// file the cluster reader reads in the rank folder (present or not) and of the folders holding them (a file
// added or removed changes a folder's mtime), recorded relative to the rank folder, and a SHA-256 of the
// whole body beside it. A summary that proves it describes the folder as it is now (readPreparedSummary)
// stands in for the rank's files; anything else is ignored with the reason and the files are read.

#include "cluster/ClusterReader.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace at::cluster {

// Bumped whenever the summary's fields or the reader's definitions change: an older file is re-read.
// 2: named by the folder's name and identity, stamps relative to the rank folder (another mount path).
// 3: a SHA-256 of the body beside it; the stamps cover what the reader reads there (rankInputs), absent
//    files included; the rank is the folder's (issue 29 item 4). An older summary is named in a warning.
constexpr int kPreparedSummaryFormat = 3;

// DIR/<portableKeyName(rank folder)>.atrank.json; empty when the folder does not exist or DIR lies inside
// it (the data folder is never written).
QString preparedSummaryPath(const QString &rankFolder, const QString &cacheDir);

// Writes the summary atomically with the cache's rules (snapshot::saveCacheFile). snapshotPath names the
// rank's prepared snapshot (empty: the rank has no timeline, or it could not be loaded).
bool writePreparedSummary(const RankSummary &summary, const QString &cacheDir, const QString &snapshotPath,
                          QString *reason);

// The summary prepared for this rank folder when it proves it describes the folder as it is now
// (Rank::preparedSummary then names the file): written by this format, its checksum matching its body, made
// for this folder, claiming the rank the folder's file names give, and every file and folder the reader
// reads there (rankInputs, decided by the folder, not by the summary) recorded and unchanged. nullopt when
// there is none (*why empty) or when it is not used (*why names the summary file and says why).
// The file is read once, streamed (its ops and links decoded one by one, hashed in the same pass): about
// the size of what it holds, not a tree of it. Under memoryLimitBytes (--memory-limit; 0: none) a summary
// that would take the process past the cluster's reading share of the limit (kClusterReadingShareOfLimit)
// is not read, or not used once reading it reaches that share: *why names the file and the limit, and the
// caller reads the rank's files instead (under the same limit).
std::optional<RankSummary> readPreparedSummary(const QString &rankFolder, const QString &cacheDir,
                                               QString *why, std::uint64_t memoryLimitBytes = 0);

} // namespace at::cluster
