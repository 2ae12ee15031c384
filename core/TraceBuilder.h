#pragma once

#include "TraceModel.h"

#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace at {

enum class FlowPhase
{
    Start,
    Step,
    End
};

// The one model-building API every parser writes through (JSON today; CSV, raw and DB later).
// Parsers report events in file order with absolute ns times; build() sorts, nests, pairs B/E
// and flow halves, finds outliers and the origin, and hands out the finished TraceModel.
class TraceBuilder
{
public:
    TraceBuilder();
    ~TraceBuilder();

    StringPool &strings() { return m_model->m_strings; }
    std::uint32_t addSource(const QString &path, std::shared_ptr<const EventArgsReader> argsReader);
    std::size_t sourceCount() const { return m_model->m_sources.size(); }

    // Starts a source group (rank/device of a folder); later events belong to it.
    int addGroup(const SourceGroup &group);
    SourceGroup &group(int index) { return m_model->m_groups[static_cast<std::size_t>(index)]; }
    int currentGroup() const { return m_currentGroup; }
    // Kernel rows with *absolute* epoch ns start times; build() makes them relative and joins them.
    KernelTable &kernels() { return m_model->m_kernels; }
    void addSummaryTable(SummaryTable table) { m_model->m_summaryTables.push_back(std::move(table)); }
    // Memory curves and allocations with *absolute* epoch ns times; build() makes them relative.
    MemoryProfile &memory() { return m_model->m_memory; }
    // A step window with *absolute* epoch ns times; build() makes it relative.
    void addDeclaredStep(DeclaredStep step) { m_model->m_declaredSteps.push_back(std::move(step)); }

    LaneKey numberKey(std::int64_t value) const { return LaneKey{value, 0}; }
    LaneKey textKey(std::string_view text);

    int process(LaneKey pid);
    int thread(LaneKey pid, LaneKey tid);

    void addSlice(int thread, TimeNs start, TimeNs duration, StringId name, StringId category,
                  SourceLocation source);
    void addBegin(int thread, TimeNs ts, StringId name, StringId category, SourceLocation source);
    void addEnd(int thread, TimeNs ts);
    void addCounterSample(int process, StringId name, StringId seriesKey, TimeNs ts, double value);
    void addFlowHalf(FlowPhase phase, StringId category, StringId name, StringId id, int thread, TimeNs ts,
                     bool bindEnclosing);
    // A reader's estimate of the slices its input holds (from its size; added up over inputs): a thread
    // whose slices outgrow a few thousand then makes room for the rest of them at once instead of doubling
    // (each doubling copies the slices and faults in fresh pages; room never written costs no memory).
    void expectSlices(std::size_t slices) { m_expectedSlices += slices; }
    // Room for this many more flow halves (a reader that knows how many it will add).
    void reserveFlowHalves(std::size_t halves) { m_flowHalves.reserve(m_flowHalves.size() + halves); }

    void setProcessName(int process, StringId name);
    void setProcessLabels(int process, StringId labels);
    void setProcessSortIndex(int process, std::int64_t index);
    void setThreadName(int thread, StringId name);
    void setThreadSortIndex(int thread, std::int64_t index);

    EventCounts &counts() { return m_model->m_counts; }
    // Drop exact duplicate events (G1 per-iteration files and msprof slices can repeat events):
    // slices by (thread, start, duration, name), counter samples, flow halves.
    void setDeduplicate(bool on) { m_deduplicate = on; }
    // N of every "ProfilerStep#N" slice read so far in a group (for the early-step warning).
    QList<int> profilerSteps(int group) const;
    // Whether a process of the group is named after the layer (legacy or current name).
    bool groupHasLayer(int group, Layer layer) const;
    void addWarning(const QString &warning);

    std::unique_ptr<TraceModel> build();

private:
    struct Mark
    {
        TimeNs ts;
        StringId name;
        StringId category;
        SourceLocation source;
        bool begin;
    };
    struct FlowHalf
    {
        int group; // flow ids are only unique within one source
        FlowPhase phase;
        StringId category;
        StringId name;
        StringId id;
        int thread;
        TimeNs ts;
        bool bindEnclosing;
    };
    struct KeyHash
    {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t> &k) const noexcept
        {
            return std::hash<std::uint64_t>()(k.first * 0x9E3779B97F4A7C15ull ^ k.second);
        }
    };

    static std::uint64_t packKey(const LaneKey &key);
    void growSlices(std::vector<SliceTable::Raw> &slices) const;
    void pairBeginEnd();
    void placeTimes();
    void buildSliceTables();
    void orderLanes();
    void bindFlows();
    void addQueueDepthLanes();
    void sortProcessCounters(ProcessInfo &process);
    void joinKernelRows();
    void removeDuplicates();
    void resolveSourceSpanSteps();
    void labelDevices();

    std::unique_ptr<TraceModel> m_model;
    std::vector<std::vector<SliceTable::Raw>> m_rawSlices; // per thread
    std::vector<std::vector<Mark>> m_marks;                // per thread, B/E in file order
    std::vector<FlowHalf> m_flowHalves;
    std::size_t m_expectedSlices = 0; // expectSlices()
    std::size_t m_slicesAdded = 0;
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, int, KeyHash> m_processByPid;
    int m_currentGroup = -1;
    bool m_deduplicate = false;
    std::size_t m_duplicates = 0;
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, int, KeyHash> m_threadByKey;
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, int, KeyHash> m_counterByKey;
};

} // namespace at
