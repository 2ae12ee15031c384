#pragma once

#include "LoadMemoryGuard.h"
#include "TraceModel.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <memory>

namespace at {

// Which export to load when a result has both a profiler database and the text (JSON/CSV) export, or the
// raw data instead of either.
enum class PreferredSource
{
    Text,     // trace_view.json / msprof*.json and the CSVs (the default, FORMATS.md §1.8)
    Database, // ascend_pytorch_profiler*.db / msprof_<n>.db
    Raw       // the PROF_*/{host,device_N}/data slices decoded by parser/raw, even when an export exists
};

// Shared between the loading thread and the GUI: progress to show, and a flag to stop.
struct LoadControl
{
    PreferredSource preferredSource = PreferredSource::Text; // set before the load starts
    // Compress and write a new snapshot on Qt's thread pool instead of before loadTrace returns
    // (the GUI sets it, so the first frame does not wait for the cache).
    bool writeSnapshotInBackground = false;
    std::atomic<bool> cancel{false};
    std::atomic<std::uint64_t> bytesDone{0};
    std::atomic<std::uint64_t> bytesTotal{0};
    // Reading stops at a share of this (LoadMemoryGuard) and the model is built from what was read,
    // with a warning; 0 turns the guard off.
    std::uint64_t memoryLimitBytes = defaultMemoryLimit();
    std::atomic<bool> memoryLimitReached{false}; // set by the guard, never by the user
};

struct LoadResult
{
    std::unique_ptr<TraceModel> model; // null on failure or cancel
    QString error;                     // names the file and what is wrong
    bool cancelled = false;
    bool fromSnapshot = false; // reopened from the snapshot cache instead of parsed
};

// Opens a trace file (.json, .json.zst, .json.gz, a profiler .db, or a Qt resource path) or a result
// folder and builds the model.
// Safe to call from a worker thread; the GUI and the command line both load through here.
// An unchanged input is reopened from its snapshot (parser/snapshot/SnapshotCache.h) unless
// AT_NO_SNAPSHOT=1; otherwise the model is built and a snapshot written.
LoadResult loadTrace(const QString &path, LoadControl &control);

} // namespace at
