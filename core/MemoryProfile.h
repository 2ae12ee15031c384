#pragma once

// Device memory over time and per operator (FORMATS.md §3.9, §9.5): the memory_record / npu_module_mem
// curves and the operator_memory allocations of every device, as the readers found them. Bytes are
// int64 (torch_npu's MB and KB are exact binary fractions of a byte count); times are int64 ns,
// absolute while the builder holds the profile and relative to the model origin once built.

#include "StringPool.h"
#include "Time.h"

#include <QString>

#include <cstdint>
#include <limits>
#include <vector>

namespace at {

// An empty cell: a component that does not fill the column (APP has only Reserved, GE no Active).
inline constexpr std::int64_t kNoBytes = std::numeric_limits<std::int64_t>::min();
// An empty time: not released inside the profiled window, or a release without an allocation.
inline constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::min();

enum class MemoryMetric : std::uint8_t
{
    Allocated, // memory handed out to tensors (live blocks)
    Reserved,  // what the allocator holds from the device: allocated + cached free blocks
    Active     // requested by the stream, including blocks freed but still used by other streams
};

enum class MemoryCurveKind : std::uint8_t
{
    Component, // memory_record.csv / MEMORY_RECORD: PTA, GE, PTA+GE, APP, WORKSPACE, ...
    Module     // npu_module_mem.csv / NPU_MODULE_MEM: SLOG, HCCL, RUNTIME, ... (Reserved only)
};

// The totals of one component (or module) of one device, one sample per record, in time order.
struct MemoryCurve
{
    int group = 0;
    std::int64_t device = -1; // -1: the file did not say
    QString component;
    MemoryCurveKind kind = MemoryCurveKind::Component;
    std::vector<TimeNs> times;
    std::vector<std::int64_t> allocated, reserved, active; // bytes or kNoBytes, one per time

    const std::vector<std::int64_t> &values(MemoryMetric metric) const
    {
        return metric == MemoryMetric::Allocated  ? allocated
               : metric == MemoryMetric::Reserved ? reserved
                                                  : active;
    }
    std::vector<std::int64_t> &values(MemoryMetric metric)
    {
        return metric == MemoryMetric::Allocated  ? allocated
               : metric == MemoryMetric::Reserved ? reserved
                                                  : active;
    }
    bool hasValues(MemoryMetric metric) const;
};

// One operator allocation (a row of operator_memory.csv / OP_MEMORY).
struct MemoryAllocation
{
    int group = 0;
    std::int64_t device = -1;
    StringId name = 0;      // "aten::empty_strided" (PTA), "cann::..." (GE); empty for a release-only row
    StringId stream = 0;    // Stream Ptr as written
    std::int64_t bytes = 0; // negative: a release whose allocation was before the window
    TimeNs allocation = kNoTime;
    TimeNs release = kNoTime;       // kNoTime: not released inside the window
    TimeNs activeRelease = kNoTime; // when the block really returned to the pool
    std::int64_t allocationAllocated = kNoBytes, allocationReserved = kNoBytes, allocationActive = kNoBytes;
    std::int64_t releaseAllocated = kNoBytes, releaseReserved = kNoBytes, releaseActive = kNoBytes;

    bool released() const { return release != kNoTime; }
    // Release − Allocation and Active Release − Allocation (§9.5); kNoTime when either is missing.
    TimeNs duration() const
    {
        return allocation == kNoTime || release == kNoTime ? kNoTime : release - allocation;
    }
    TimeNs activeDuration() const
    {
        return allocation == kNoTime || activeRelease == kNoTime ? kNoTime : activeRelease - allocation;
    }
};

struct MemoryProfile
{
    std::vector<MemoryCurve> curves;
    std::vector<MemoryAllocation> allocations;

    bool isEmpty() const { return curves.empty() && allocations.empty(); }
    std::size_t memoryBytes() const;
};

} // namespace at
