#pragma once

// What every memory reader does once it added its curves to the builder's MemoryProfile.

#include "TraceBuilder.h"

namespace at {

// Sorts each curve from firstCurve on by time (stable: same-time records keep file order).
void sortMemoryCurves(MemoryProfile &profile, std::size_t firstCurve);

// Counter lanes for the curves from index firstCurve on (what one source added), values in MB, drawn by
// the timeline's counter tracks: component curves under "Memory (NPU n)", module curves with memory
// under "Memory modules (NPU n)"; one series per metric the curve has ("PTA+GE [Allocated(MB)]").
void addMemoryCounterLanes(TraceBuilder &builder, std::size_t firstCurve);

// The name of those processes: "Memory (NPU 0)", "Memory modules (NPU 0)", "Memory" (device unknown).
QString memoryLaneProcessName(bool modules, std::int64_t device);

// The "Memory (NPU n)" process of a group and device in a model, -1 when it has none.
int memoryLaneProcess(const TraceModel &model, int group, std::int64_t device);

} // namespace at
