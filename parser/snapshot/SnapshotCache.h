#pragma once

#include "TraceLoader.h"
#include "snapshot/SnapshotCodec.h"

#include <QByteArrayView>
#include <QLoggingCategory>
#include <QString>

#include <memory>
#include <string>

namespace at::snapshot {

Q_DECLARE_LOGGING_CATEGORY(lcSnapshot)

// The snapshot cache (issue 10): a zstd-compressed binary copy of a built model, so that reopening
// the same unchanged input skips parsing. Files live in <CacheLocation>/snapshots/, never in the
// data folder, named by a hash of (canonical path, preferred source); the file echoes the key and
// the size and mtime of every input file, and anything that does not match is ignored.

// False when AT_NO_SNAPSHOT is set to anything but "0", or when there is no writable cache location.
// The loader does not ask: app/ (and the tests) put it into LoadOptions::useSnapshotCache.
bool enabled();
QString directory();
// Where the snapshot of this input lives (empty for inputs that are never cached, e.g. resources, or when
// the cache folder lies inside the opened folder). cacheDir: a cache folder of the user's choosing
// (LoadOptions::snapshotDirectory, `--cache DIR`, the prepared cluster cache) instead of directory(); a
// folder's snapshot there is named by portableKeyName(), not by its path, so that the same folder seen at
// another path finds it (load() then checks its files under the new path).
// Several ranks of a cluster opened together are loaded rank by rank (parser/RankSubsetLoad), so each
// rank folder has its own snapshot and there is none for a subset.
QString pathFor(const QString &input, PreferredSource preferred, const QString &cacheDir = {});
// True when the real path of cacheDir is the opened folder or inside it, or inside any profile data folder
// (profileDataFolderAbove): the cache is then not used.
bool insideDataFolder(const QString &input, const QString &cacheDir);
// The outermost folder at or above the real path of `dir` that is profile data by its name (a rank folder
// `*_ascend_pt` / `*_ascend_ms`, an msprof `PROF_*` folder), or empty. A cache there would write into a
// user's data folder whichever folder was opened: another rank of the same cluster (issue 29 item 6).
QString profileDataFolderAbove(const QString &dir);
// SHA-1 of the input's canonical path and a tag, as hex: the base name of its cache files.
QString cacheKeyName(const QString &input, QByteArrayView tag);
// The base name of a folder's files in a cache of the user's choosing: SHA-1 of the folder's name, of the
// name, size and content fingerprint of its profiler_info*.json files and of a tag, as hex. Not its path: the
// same rank folder seen at another path (another mount point, a copy that kept the times) has the same name,
// while two ranks of a job never do (their profiler_info_<rank>.json files differ).
QString portableKeyName(const QString &folder, QByteArrayView tag);

// `path` with the folder `from` (or anything under it) moved to `to`; anything else unchanged.
QString rebasedPath(const QString &path, const QString &from, const QString &to);
// Whether the files recorded under the real folder `recordedRoot` are still what they were, now under
// `root`: the path of the first that changed (under root), empty when none did. Under the same real path
// every stamp must match (size, mtime, ctime, fingerprint). Under another path (the same files seen through
// another mount point, or copied with their times) a file must keep its size, mtime and fingerprint and a
// folder its mtime: a copy cannot keep ctime, nor a folder's size on another file system. Stamps of files
// outside recordedRoot are compared in full where they are.
QString firstChangedFile(const std::vector<FileStamp> &recorded, const QString &recordedRoot,
                         const QString &root);

// The reopened model, or null with the reason (missing, stale, corrupt, wrong version). Progress
// reports the cold load's byte total; a cancel returns null with *cancelled set.
std::unique_ptr<TraceModel> load(const QString &input, const LoadOptions &options, LoadControl &control,
                                 QString *reason, bool *cancelled);

// Encodes the model and writes it atomically (QSaveFile). With background set, only the encoding
// runs here and compression and writing run on Qt's global thread pool (waited for when the
// application exits). Returns false with a reason when nothing is written.
// sourceBytes is the cold load's LoadControl::bytesTotal, reported again by a reopen.
// cacheDir as for pathFor(); a folder of the user's choosing is never trimmed (a prepared cluster keeps
// every rank's snapshot), the default one is kept to the most recent 64 snapshots and 4 GiB.
bool write(const TraceModel &model, const QString &input, PreferredSource preferred, bool background,
           std::uint64_t sourceBytes, QString *reason, const QString &cacheDir = {});

// Writes bytes as `path` inside a cache folder with the cache's rules: the folder is created, must be the
// user's own and not a symbolic link; the bytes go to an O_EXCL/O_NOFOLLOW temporary renamed over the name
// (a symlink there is replaced, never followed; a FIFO, socket or device is left alone). Also used for the
// prepared rank summaries (parser/cluster/PreparedSummary.h).
bool saveCacheFile(const std::string &bytes, const QString &path, QString *reason);

// The stamps of every file the model was read from (folders: plus the folders on the way, whose
// mtimes change when files are added or removed).
SnapshotKey keyFor(const TraceModel &model, const QString &input, PreferredSource preferred);
FileStamp stampOf(const QString &path);

} // namespace at::snapshot
