#pragma once

// The events of a PyTorch profiler (Kineto) trace that the kernel table and the memory profile need
// (FORMATS.md §10.4, §10.5): GPU kernels with their launch figures, the allocator's `[memory]` instants
// and the CPU operators that enclose them. The JSON reader keeps no args, so they are found here in one
// pass over the file's events after the reader parsed it: a text test on each event's "cat" / "name"
// picks the few kinds wanted, and only those are parsed (simdjson's DOM parser, which chooses its SIMD
// kernel at run time).

#include "StringPool.h"
#include "Time.h"

#include <QString>

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
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
    std::array<std::int64_t, 3> grid{0, 0, 0};
    std::array<std::int64_t, 3> block{0, 0, 0};
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

// One `cpu_op` slice: the operators allocations are attributed to.
struct CpuOpEvent
{
    LaneId lane;
    TimeNs start = 0;
    TimeNs end = 0;
    StringId name = 0;
};

struct GpuEvents
{
    std::vector<KernelEvent> kernels;
    std::vector<AllocatorEvent> allocatorEvents;
    std::vector<CpuOpEvent> cpuOps;
    TimeNs baseTime = 0; // baseTimeNanoseconds (§10.2), 0 when the file has none
    std::size_t unreadable = 0;
    std::size_t firstUnreadableOffset = 0;
};

// Whether the builder's strings (categories and names interned by the JSON parser) show kernel or
// allocator events: false for any other trace, which then costs nothing more.
bool mayHoldGpuEvents(const StringPool &strings);

// The one pass over the events of the trace text (the whole file). Names are interned in strings.
// Stops early (with what was found) when stop is raised. releasePages: data is a read-only file mapping
// whose pages are mapped ahead of the pass and dropped behind it (never for heap buffers).
GpuEvents scanGpuEvents(const char *data, std::size_t size, StringPool &strings,
                        const std::atomic<bool> *stop = nullptr, bool releasePages = false);

// The hook of the JSON timeline reader: after it parsed a file into the builder, adds the file's GPU
// kernel rows (KinetoKernelRows.h) and the memory profile of its `[memory]` events (KinetoMemory.h), for
// the builder's group `group`. Does nothing for a trace without such events.
void addKinetoGpuData(TraceBuilder &builder, int group, const char *data, std::size_t size,
                      const QString &path, const std::atomic<bool> *stop);

} // namespace kineto
} // namespace at
