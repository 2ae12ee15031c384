#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringList>

namespace at {

class TraceModel;

// Where results are written (issue 21): every writer of a user-chosen output (exports, CSVs, PNGs,
// sessions) and of snapshots goes through here, so that an output never replaces a device, FIFO or
// socket, never overwrites a file that is being read, and appears whole or not at all.

// Why PATH must not be written (a reason without the path, for "cannot write PATH: …"), or empty: it must be
// missing or a regular file (a symlink is replaced, never followed: its target stays untouched unless that is
// a device, FIFO or socket, which is refused), and it must not be one of `inputs` (same device and inode).
QString outputPathProblem(const QString &path, const QStringList &inputs = {});

// Writes bytes to PATH atomically: a new temporary file next to it (created with O_EXCL and
// O_NOFOLLOW, so nothing planted there is followed), flushed, then renamed over PATH. Checks
// outputPathProblem first. False with *error (the reason, without the path) when nothing was written.
bool writeOutputFile(const QString &path, QByteArrayView bytes, QString *error,
                     const QStringList &inputs = {});

// The files and folders a model was read from (its sources, timeline, summary and collection files).
QStringList inputFilesOf(const TraceModel &model);

} // namespace at
