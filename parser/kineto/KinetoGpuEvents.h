#pragma once

// The events of a PyTorch profiler (Kineto) trace that the kernel table and the memory profile need
// (FORMATS.md §10.4, §10.5): GPU kernels with their launch figures, the allocator's `[memory]` instants
// and the CPU operators that enclose them. The JSON reader keeps no args of slices, so the Kineto dialect
// (KinetoTrace) reads them from each chunk's text on the parse's worker thread that parsed the chunk
// (prepareGpuEvents: a key walk over kernel and `[memory]` events), and the merge on the loading thread
// hands the results to a GpuEventCollector: CPU operators as the reader parsed them, kernels and
// `[memory]` instants as the worker read them; an event not written the plain way is read there from its
// text while the chunk is still mapped (parsed by simdjson's DOM parser). The file is read once.

#include "StringPool.h"
#include "Time.h"
#include "json/ChromeTraceParser.h"

#include <QString>

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace at {

class TraceBuilder;

namespace kineto {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// A (pid, tid) as written: numbers, or interned text marked by kTextLane (string pids such as "Spans").
struct LaneId
{
    static constexpr std::int64_t kTextLane = std::int64_t(1) << 62;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    bool operator==(const LaneId &) const = default;
};

struct LaneIdHash
{
    std::size_t operator()(const LaneId &lane) const noexcept
    {
        return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(lane.pid) * 0x9E3779B97F4A7C15ull ^
                                          static_cast<std::uint64_t>(lane.tid));
    }
};

// One `kernel` slice whose args carry grid / block. Times as the file gives them (no base added).
struct KernelEvent
{
    StringId name = 0;
    TimeNs start = 0;
    TimeNs duration = 0;
    std::int64_t device = -1; // args.device, else the pid
    std::int64_t stream = -1; // args.stream, else the tid
    std::int64_t correlation = -1;
    double registersPerThread = kNoValue;
    double sharedMemory = kNoValue; // bytes per block (static + dynamic)
    double blocksPerSm = kNoValue;
    double warpsPerSm = kNoValue;
    double occupancyPercent = kNoValue; // est. achieved occupancy %
    // grid x × y × z and block x × y × z (0 when not given): what the rows show of the launch dimensions.
    std::int64_t gridVolume = 0;
    std::int64_t blockVolume = 0;
};

// One allocator event (`[memory]`): Bytes > 0 an allocation, < 0 a release; totals after the event.
struct AllocatorEvent
{
    LaneId lane;
    TimeNs time = 0;
    std::int64_t deviceType = -1; // c10::DeviceType: 0 CPU, 1 CUDA
    std::int64_t deviceId = -1;
    std::int64_t address = 0;
    std::int64_t bytes = 0;
    std::int64_t totalAllocated = 0;
    std::int64_t totalReserved = 0;
};

// One `cpu_op` slice: the operators allocations are attributed to. Its lane is an index into
// GpuEvents::cpuOpLanes (a trace has a few CPU threads and ~4 operators per KB: 24 bytes each, not 40).
struct CpuOpEvent
{
    TimeNs start = 0;
    TimeNs end = 0;
    StringId name = 0;
    std::uint32_t lane = 0;
};

struct GpuEvents
{
    std::vector<KernelEvent> kernels;
    std::vector<AllocatorEvent> allocatorEvents;
    std::vector<CpuOpEvent> cpuOps;
    std::vector<LaneId> cpuOpLanes; // each CPU operator lane once, in order of first appearance
    TimeNs baseTime = 0;            // baseTimeNanoseconds (§10.2), 0 when the file has none
    std::size_t unreadable = 0;
    std::size_t firstUnreadableOffset = 0;
};

// What a parse worker read of one chunk's kernel, `cpu_op` and `[memory]` events (prepareGpuEvents), for
// the merge on the loading thread (KinetoTrace), which then only appends: kernels and `[memory]` instants
// read from their text there (the key walk), their names left for the loading thread to intern (the pool
// is its own). Reused from chunk to chunk.
struct PreparedGpuEvents : PreparedChunk
{
    enum class Step : std::uint8_t
    {
        Kernel,        // the next of `kernels`
        Allocator,     // the next of `allocators`
        CpuOp,         // a timed `cpu_op` slice: its parsed record
        KernelText,    // a kernel not written the plain way: GpuEventCollector::addKernel
        AllocatorText, // a `[memory]` event likewise: addAllocatorEvent
        CpuOpText      // a `cpu_op` slice the reader could not time: addCpuOpText
    };
    // One wanted event, in file order; `event` indexes the chunk's events.
    struct Item
    {
        std::uint32_t event = 0;
        Step step = Step::Kernel;
    };
    struct Kernel
    {
        KernelEvent row;             // row.name unset
        std::uint32_t localName = 0; // the chunk's local string equal to the name's text, else 0:
        std::string_view rawName;    // then this text (in the file, mapped until the chunk's merge)
    };
    std::vector<Item> items;
    std::vector<Kernel> kernels;
    std::vector<AllocatorEvent> allocators;

    void clear();
};

// Reads the kernel and `[memory]` events of a parsed chunk from its text and lists the `cpu_op` slices
// (what GpuEventCollector would make of them, without its string pool): safe on any thread.
void prepareGpuEvents(const jsonkernel::ChunkResult &chunk, const ChunkText &text, PreparedGpuEvents &out);

// Gathers GpuEvents from the events of a trace as the JSON reader meets them, in file order. Names are
// interned in the pool given.
class GpuEventCollector
{
public:
    explicit GpuEventCollector(StringPool &strings);
    ~GpuEventCollector();
    GpuEventCollector(const GpuEventCollector &) = delete;
    GpuEventCollector &operator=(const GpuEventCollector &) = delete;

    // Makes room for the events of a trace of this many bytes.
    void reserveFor(std::size_t traceBytes);
    // A `kernel` slice's text (at byte `offset` of the file): a row when its args carry grid / block.
    void addKernel(std::string_view eventText, std::size_t offset);
    // A `[memory]` instant's text.
    void addAllocatorEvent(std::string_view eventText, std::size_t offset);
    // A `cpu_op` slice as the reader parsed it; cpuOpText for one the reader could not time.
    void addCpuOp(const LaneId &lane, TimeNs start, TimeNs end, StringId name);
    void addCpuOpText(std::string_view eventText, std::size_t offset);
    // What prepareGpuEvents read (its name interned by the caller).
    void addKernelRow(const KernelEvent &kernel) { m_events.kernels.push_back(kernel); }
    void addAllocatorRow(const AllocatorEvent &event) { m_events.allocatorEvents.push_back(event); }

    // What was gathered, with the trace's base time; CPU operators only when there are `[memory]`
    // events to name (so are their unreadable ones counted). The collector is empty after.
    GpuEvents take(TimeNs baseTime);

private:
    void unreadable(std::size_t offset, std::size_t *count);

    class EventParser;
    StringPool &m_strings;
    std::unique_ptr<EventParser> m_parser;
    GpuEvents m_events;
    std::unordered_map<LaneId, std::uint32_t, LaneIdHash> m_cpuOpLaneIndex;
    std::uint32_t m_lastCpuOpLane = std::numeric_limits<std::uint32_t>::max();
    std::size_t m_unreadableOps = 0, m_firstUnreadableOp = 0;
};

// The events of a whole trace text, read on their own (tests: the reader gathers them with a
// GpuEventCollector while it parses). Names are interned in strings. Stops early (with what was found)
// when stop is raised.
GpuEvents scanGpuEvents(const char *data, std::size_t size, StringPool &strings,
                        const std::atomic<bool> *stop = nullptr);

// Adds the GPU kernel rows (KinetoKernelRows.h) and the memory profile of the `[memory]` events
// (KinetoMemory.h) of the trace `path` to the builder, for its group `group`, and says what could not be
// read.
void addKinetoGpuData(TraceBuilder &builder, int group, const GpuEvents &events, const QString &path);

} // namespace kineto
} // namespace at
