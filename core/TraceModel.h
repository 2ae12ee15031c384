#pragma once

#include "CollectionInfo.h"
#include "KernelTable.h"
#include "Layer.h"
#include "MemoryProfile.h"
#include "SliceLod.h"
#include "SliceTable.h"
#include "SourceProvenance.h"
#include "StringPool.h"
#include "SummaryTable.h"
#include "Time.h"

#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace at {

struct Step; // Steps.h

// Identifies a slice: thread track index and row in that track's SliceTable.
struct SliceRef
{
    std::int32_t thread = -1;
    std::uint32_t index = 0;
    bool isValid() const { return thread >= 0; }
    friend bool operator==(const SliceRef &, const SliceRef &) = default;
};

// pid/tid as written: int64 numbers, or strings ("123 aclGraph", "stream5") kept as text.
struct LaneKey
{
    std::int64_t number = 0;
    StringId text = 0; // non-zero for string keys
    friend bool operator==(const LaneKey &, const LaneKey &) = default;
};

// One loaded source: a rank/device of a result folder, or the single file that was opened.
struct SourceGroup
{
    QString label;  // "Rank 1 / Device 1"; empty for a single opened file
    QString layout; // "G4 (torch_npu *_ascend_pt)", "G3", ..., or "file"
    QString path;   // the recognised folder or the file
    QStringList timelineFiles;
    QStringList summaryFiles;
    CollectionInfo collection;
    SourceProvenance provenance; // typed: which export was read, which others exist, what was read
};

// A step whose window a source states outright (torch_npu DB STEP_TIME, G1 per-iteration export
// files, msprof step_trace tables), as opposed to steps found from ProfilerStep#N slices.
struct DeclaredStep
{
    int group = 0;
    std::int64_t number = 0;
    TimeNs begin = 0; // relative to the model origin once built
    TimeNs end = 0;
    QString source; // what stated it, e.g. "STEP_TIME in ascend_pytorch_profiler_0.db"
    // When >= 0, begin/end are filled by build() with the span of the events read from this
    // source file (G1 exports one timeline file per iteration).
    std::int64_t spanOfSource = -1;
};

struct ProcessInfo
{
    int group = 0; // index into TraceModel::groups()
    LaneKey pid;
    StringId name = 0; // 0 when no process_name metadata was seen
    StringId labels = 0;
    std::optional<std::int64_t> sortIndex;
    Layer layer = Layer::Other;
    std::vector<int> threads;  // indices into TraceModel::threads(), display order
    std::vector<int> counters; // indices into TraceModel::counters(), display order
};

struct ThreadInfo
{
    int process = -1;
    LaneKey tid;
    StringId name = 0;
    std::optional<std::int64_t> sortIndex;
    SliceTable slices;
};

// One counter series (pid, counter name, args key). A value holds until the next sample.
struct CounterSeries
{
    int process = -1;
    StringId name = 0;
    StringId seriesKey = 0;
    std::vector<TimeNs> times;
    std::vector<double> values;
    double minValue = 0;
    double maxValue = 0;
};

struct FlowInfo
{
    StringId category = 0;
    StringId name = 0;
    StringId id = 0; // exact id text: integer ids above 2^53 are never rounded
    SliceRef from;
    SliceRef to;
    TimeNs fromTime = 0;
    TimeNs toTime = 0;
};

// How many events of each phase were read.
struct EventCounts
{
    std::size_t complete = 0, begin = 0, end = 0, instant = 0, counter = 0, flowStart = 0, flowStep = 0,
                flowEnd = 0, metadata = 0, other = 0;
    std::size_t total() const
    {
        return complete + begin + end + instant + counter + flowStart + flowStep + flowEnd + metadata + other;
    }
    // The counts of two models read into one (core/TraceMerge).
    EventCounts &operator+=(const EventCounts &o)
    {
        complete += o.complete, begin += o.begin, end += o.end, instant += o.instant, counter += o.counter;
        flowStart += o.flowStart, flowStep += o.flowStep, flowEnd += o.flowEnd, metadata += o.metadata;
        other += o.other;
        return *this;
    }
};

// A device task's ids as its reader decoded them (FORMATS.md §3.11): the kernel join's tie-break.
struct TaskIds
{
    static constexpr std::int64_t kNone = -1;
    std::int64_t taskId = kNone;
    std::int64_t subtaskId = kNone; // kNone also for the 4294967295 "no subtask" sentinel
};

// Re-reads an event's args from its source file on demand (implemented by the parsers).
class EventArgsReader
{
public:
    virtual ~EventArgsReader() = default;
    virtual std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const = 0;
    // The typed task ids of the event at offset, when the reader knows them; nullopt otherwise.
    virtual std::optional<TaskIds> taskIds(std::uint64_t offset) const
    {
        (void)offset;
        return std::nullopt;
    }
};

struct SourceFile
{
    QString path; // what the user opened
    std::shared_ptr<const EventArgsReader> argsReader;
};

// The loaded profile: one owner of all trace data with read-only accessors, shared by the GUI and
// the command line. Times are int64 ns relative to origin() (the first real moment of the trace).
class TraceModel
{
public:
    TraceModel();
    ~TraceModel();
    TraceModel(const TraceModel &) = delete;
    TraceModel &operator=(const TraceModel &) = delete;

    const StringPool &strings() const { return m_strings; }
    const std::vector<ProcessInfo> &processes() const { return m_processes; }
    const std::vector<ThreadInfo> &threads() const { return m_threads; }
    const std::vector<CounterSeries> &counters() const { return m_counters; }
    const std::vector<FlowInfo> &flows() const { return m_flows; }
    const std::vector<SourceFile> &sources() const { return m_sources; }
    const std::vector<SourceGroup> &groups() const { return m_groups; }
    // Per-kernel AI Core metrics from the summary CSVs, joined to device slices.
    const KernelTable &kernels() const { return m_kernels; }
    // The other summary CSVs of each source (statistics, step trace, ...).
    const std::vector<SummaryTable> &summaryTables() const { return m_summaryTables; }
    // Device memory curves and operator allocations (MemoryProfile.h), times relative to origin().
    const MemoryProfile &memory() const { return m_memory; }
    const EventCounts &eventCounts() const { return m_counts; }
    // Step windows stated by the sources, in the order they were read.
    const std::vector<DeclaredStep> &declaredSteps() const { return m_declaredSteps; }
    // Training steps found in the data, with their device work (Steps.h), by group then time.
    const std::vector<Step> &steps() const { return m_steps; }
    // Non-fatal problems found while loading, each naming the file and what was wrong.
    const QStringList &warnings() const { return m_warnings; }

    // Absolute epoch ns of relative time 0.
    TimeNs origin() const { return m_origin; }
    // Span of the data without far outliers (what "show everything" fits).
    TimeNs dataBegin() const { return m_dataBegin; }
    TimeNs dataEnd() const { return m_dataEnd; }
    // Span including outliers such as stray ts=0 events.
    TimeNs fullBegin() const { return m_fullBegin; }
    TimeNs fullEnd() const { return m_fullEnd; }
    std::size_t outlierCount() const { return m_outliers; }

    // Processes top to bottom: source group, canonical layer, then process_sort_index, then pid.
    const std::vector<int> &processOrder() const { return m_processOrder; }
    QString processDisplayName(int process) const;
    QString threadDisplayName(int thread) const;
    QString counterDisplayName(int counter) const;

    std::size_t sliceCount() const;
    QString sliceName(SliceRef ref) const;
    TimeNs selfTime(SliceRef ref) const;
    std::vector<std::pair<QString, QString>> sliceArgs(SliceRef ref) const;
    // The slice's task ids as its reader decoded them; nullopt when the reader does not know them.
    std::optional<TaskIds> sliceTaskIds(SliceRef ref) const;
    // Flows leaving / entering a slice (indices into flows()).
    std::vector<std::uint32_t> flowsFrom(SliceRef ref) const;
    std::vector<std::uint32_t> flowsTo(SliceRef ref) const;

    // Deepest slice on a thread that starts exactly at t, else the deepest one enclosing t.
    SliceRef enclosingSlice(int thread, TimeNs t) const;
    // The earliest slice starting at or after t on a thread (shallowest on ties).
    SliceRef nextSliceAtOrAfter(int thread, TimeNs t) const;

    // Level of detail of a thread's slices (SliceLod.h), built on first use and kept with the
    // model; safe to call from several threads.
    const SliceLod &sliceLod(int thread) const;
    // Builds the summaries of every thread now (a loading worker calls it: the first full view
    // draws every lane zoomed out, and building there would stall the GUI thread).
    void buildSliceLods() const;
    // Bytes of the summaries built so far (also counted in memoryBytes()).
    std::size_t lodMemoryBytes() const;

    std::size_t memoryBytes() const;

private:
    friend class TraceBuilder;
    friend class SnapshotAccess; // parser/snapshot saves and restores the built state
    StringPool m_strings;
    std::vector<ProcessInfo> m_processes;
    std::vector<ThreadInfo> m_threads;
    std::vector<CounterSeries> m_counters;
    std::vector<FlowInfo> m_flows;
    std::vector<SourceFile> m_sources;
    std::vector<SourceGroup> m_groups;
    KernelTable m_kernels;
    std::vector<SummaryTable> m_summaryTables;
    MemoryProfile m_memory;
    std::vector<DeclaredStep> m_declaredSteps;
    std::vector<Step> m_steps;
    std::vector<int> m_processOrder;
    // (slice key, flow index) sorted by key, for flowsFrom/flowsTo.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> m_flowsBySource;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> m_flowsByTarget;
    EventCounts m_counts;
    QStringList m_warnings;
    TimeNs m_origin = 0;
    TimeNs m_dataBegin = 0, m_dataEnd = 0, m_fullBegin = 0, m_fullEnd = 0;
    std::size_t m_outliers = 0;
    // Built by buildSliceLods() in the GUI's loading worker, else on first use (headless commands
    // never draw, so they never pay for them).
    mutable std::mutex m_lodMutex;
    mutable std::vector<std::unique_ptr<const SliceLod>> m_lods;
};

inline std::uint64_t sliceKey(SliceRef ref)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(ref.thread)) << 32) | ref.index;
}

} // namespace at
