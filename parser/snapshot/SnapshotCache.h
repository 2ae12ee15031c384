#pragma once

#include "TraceLoader.h"
#include "snapshot/SnapshotCodec.h"

#include <QLoggingCategory>
#include <QString>

#include <memory>

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
// Where the snapshot of this input lives (empty for inputs that are never cached, e.g. resources).
// rankFolders: the LoadOptions::rankFolders of a subset of a cluster's ranks (another file per subset).
QString pathFor(const QString &input, PreferredSource preferred, const QStringList &rankFolders = {});

// The reopened model, or null with the reason (missing, stale, corrupt, wrong version). Progress
// reports the cold load's byte total; a cancel returns null with *cancelled set.
std::unique_ptr<TraceModel> load(const QString &input, const LoadOptions &options, LoadControl &control,
                                 QString *reason, bool *cancelled);

// Encodes the model and writes it atomically (QSaveFile). With background set, only the encoding
// runs here and compression and writing run on Qt's global thread pool (waited for when the
// application exits). Returns false with a reason when nothing is written.
// sourceBytes is the cold load's LoadControl::bytesTotal, reported again by a reopen.
bool write(const TraceModel &model, const QString &input, PreferredSource preferred, bool background,
           std::uint64_t sourceBytes, QString *reason, const QStringList &rankFolders = {});

// The stamps of every file the model was read from (folders: plus the folders on the way, whose
// mtimes change when files are added or removed).
SnapshotKey keyFor(const TraceModel &model, const QString &input, PreferredSource preferred);
FileStamp stampOf(const QString &path);

} // namespace at::snapshot
