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

// How one load runs, fixed before it starts. The CLI and the GUI fill it (app/ reads --no-cache,
// --memory-limit and their environment variables); the loader reads nothing else.
struct LoadOptions
{
    PreferredSource preferredSource = PreferredSource::Text;
    // Reopen an unchanged input from its snapshot, and write one after a cold load.
    bool useSnapshotCache = false;
    // The snapshot cache folder (`--cache DIR`, e.g. a cluster prepared with `--prepare`); empty: the
    // user's cache location (snapshot::directory()).
    QString snapshotDirectory;
    // Compress and write a new snapshot on Qt's thread pool instead of before loadTrace returns
    // (the GUI sets it, so the first frame does not wait for the cache).
    bool writeSnapshotInBackground = false;
    // Reading stops at a share of this (LoadMemoryGuard) and the model is built from what was read,
    // with a warning; 0 turns the guard off.
    std::uint64_t memoryLimitBytes = 0;
    // Problems with the options themselves (an AT_MEMORY_LIMIT that is not a size): every load adds
    // them to its warnings, and the command line prints them.
    QStringList notices;
    // A subset of a cluster's ranks (docs/CLUSTER.md): when not empty, only the sources whose folder is one
    // of these rank folders (absolute paths) are loaded, as one timeline with a group per rank. Each rank
    // is loaded from its own folder (reusing or writing that folder's own snapshot, the one `--prepare`
    // writes and opening the rank alone uses) and the ranks' models are merged (core/TraceMerge.h).
    QStringList rankFolders;
};

// The user's cancel flag. Setting it also raises LoadControl::stopReading, the one flag every reader
// polls, so the guard's stop and the user's cancel stop readers alike and stay told apart.
class CancelFlag
{
public:
    explicit CancelFlag(std::atomic<bool> &stopReading) : m_stopReading(stopReading) {}
    CancelFlag(const CancelFlag &) = delete;
    CancelFlag &operator=(const CancelFlag &) = delete;
    CancelFlag &operator=(bool cancel)
    {
        m_cancel = cancel;
        if (cancel)
            m_stopReading = true;
        return *this;
    }
    operator bool() const { return m_cancel.load(); }

private:
    std::atomic<bool> m_cancel{false};
    std::atomic<bool> &m_stopReading;
};

// The options the environment asks for: AT_NO_SNAPSHOT=1 turns the snapshot cache off, AT_MEMORY_LIMIT
// sets the memory limit (else 80 % of the RAM). The command line, the window and the tests start from
// these and pass them in; loadTrace itself never reads the environment.
LoadOptions environmentLoadOptions();

// Shared between the loading thread and the GUI while a load runs: progress to show, and the stops.
struct LoadControl
{
    std::atomic<bool> stopReading{false};        // what readers poll: set by a cancel or by the guard
    CancelFlag cancel{stopReading};              // the user's Cancel
    std::atomic<bool> memoryLimitReached{false}; // the guard's stop: set by the guard, never by the user
    std::atomic<std::uint64_t> bytesDone{0};
    std::atomic<std::uint64_t> bytesTotal{0};
};

// Why a load ended without reading everything.
enum class LoadStop
{
    None,        // everything was read
    UserCancel,  // the user cancelled: no model
    MemoryLimit, // the memory guard stopped reading: the model holds what was read, with a warning
    Error        // nothing could be loaded: `error` says why
};

struct LoadResult
{
    std::unique_ptr<TraceModel> model; // null on failure or cancel
    QString error;                     // names the file and what is wrong
    LoadStop stop = LoadStop::None;
    bool fromSnapshot =
        false; // reopened from the snapshot cache instead of parsed (a rank subset: every rank)
    // A rank subset (LoadOptions::rankFolders): the rank folders that were reopened from their snapshots.
    QStringList ranksFromSnapshot;
    bool cancelled() const { return stop == LoadStop::UserCancel; }
};

// Opens a trace file (.json, .json.zst, .json.gz, a profiler .db, or a Qt resource path) or a result
// folder and builds the model.
// Safe to call from a worker thread; the GUI and the command line both load through here.
// With options.useSnapshotCache an unchanged input is reopened from its snapshot
// (parser/snapshot/SnapshotCache.h); otherwise the model is built (and then a snapshot written).
LoadResult loadTrace(const QString &path, const LoadOptions &options, LoadControl &control);

// The former rank-subset load, kept as the oracle of the merge (tests/loader/tst_rank_merge): every rank
// folder of options.rankFolders read by ONE plan into one builder, on one clock, never cached. loadTrace
// loads each rank on its own and merges the models; the two must give the same model.
LoadResult loadRanksAsOneRun(const QString &path, const LoadOptions &options, LoadControl &control);

} // namespace at
