#pragma once

// Questions asked of a MemoryProfile (FORMATS.md §9.5): the peak of a curve, what is live at a moment,
// and how a step moved memory. All times relative to the model origin.

#include "MemoryProfile.h"
#include "Steps.h"
#include "TraceModel.h"

#include <QString>

#include <optional>
#include <vector>

namespace at {

struct MemoryPeak
{
    std::int64_t bytes = 0;
    TimeNs time = 0;       // the first sample reaching the peak
    std::size_t index = 0; // that sample
};

// The largest value of a curve's metric and the first time it is reached; nullopt when the curve
// has no value of that metric (empty cells only).
std::optional<MemoryPeak> peakOf(const MemoryCurve &curve, MemoryMetric metric);

// The value holding at t: the last sample at or before t that has one; nullopt before the first.
std::optional<std::int64_t> valueAt(const MemoryCurve &curve, MemoryMetric metric, TimeNs t);

// Allocations of a device live at t (allocated at or before t, not released at or before t), largest
// first, then earliest. Release-only rows (negative size) are never live. Indices into allocations.
std::vector<std::size_t> liveAllocationsAt(const MemoryProfile &profile, int group, std::int64_t device,
                                           TimeNs t);

// The curve of a device that stands for "the operators' memory" (MsInsight's overall view, §9.5):
// PTA+GE, else MindSpore+GE, else PTA, else GE. -1 when the device has none of them.
int overallCurve(const MemoryProfile &profile, int group, std::int64_t device);

// One step's effect on a curve: the peak inside [begin, end] (the value holding at begin counts) and
// the net growth, value at end − value at begin (the step's first value when nothing holds at begin).
struct StepMemory
{
    std::int64_t peakBytes = 0;
    TimeNs peakTime = 0;
    std::int64_t growthBytes = 0;
};
std::optional<StepMemory> stepMemory(const MemoryCurve &curve, MemoryMetric metric, TimeNs begin, TimeNs end);

// The overall curve of a source group: that of its first device that has one (what the Steps dock
// and the compare view use). -1 when the group has none.
int groupOverallCurve(const MemoryProfile &profile, int group);

// A step of a source group on its overall curve's Allocated values (groupOverallCurve): what the
// Steps dock shows as peak and net growth.
std::optional<StepMemory> groupStepMemory(const MemoryProfile &profile, int group, TimeNs begin, TimeNs end);

// A curve's values inside a step window on step-relative time (0 = begin): the value holding at begin
// at time 0, then every sample in (begin, end] that has a value. These are the points stepMemory's
// peak is taken over, so the peak of the points is the step's peak.
struct MemoryPoint
{
    TimeNs time = 0;
    std::int64_t bytes = 0;
};
std::vector<MemoryPoint> stepCurve(const MemoryCurve &curve, MemoryMetric metric, TimeNs begin, TimeNs end);

// Two steps (of one run or of two) on their groups' overall Allocated curves: what the compare window
// overlays and the difference of their peaks. A side without memory data has no curve (-1).
struct StepMemorySide
{
    int curve = -1; // index into its model's MemoryProfile::curves
    std::vector<MemoryPoint> points;
    std::optional<StepMemory> step; // peakTime relative to the step's start
};
struct StepMemoryComparison
{
    StepMemorySide base, comparison;
    bool isEmpty() const { return base.curve < 0 && comparison.curve < 0; }
    // comparison peak − base peak; nullopt unless both sides have one.
    std::optional<std::int64_t> peakDiffBytes() const
    {
        if (!base.step || !comparison.step)
            return std::nullopt;
        return comparison.step->peakBytes - base.step->peakBytes;
    }
};
StepMemoryComparison compareStepMemory(const MemoryProfile &base, const Step &baseStep,
                                       const MemoryProfile &comparison, const Step &comparisonStep);

// (group, device) pairs of the profile in first-seen order (curves, then allocations).
std::vector<std::pair<int, std::int64_t>> memoryDevices(const MemoryProfile &profile);

// What --memory prints and the Memory panel summarises, per (group, device): every component curve
// (and every module curve with memory) with its peaks, and the allocations live at the overall peak.
struct ComponentPeaks
{
    std::size_t curve = 0; // index into MemoryProfile::curves
    std::optional<MemoryPeak> allocated, reserved, active;
    // Allocated's time when the curve has Allocated values, else Reserved's.
    TimeNs time() const { return allocated ? allocated->time : reserved ? reserved->time : 0; }
};
struct DeviceMemory
{
    int group = 0;
    std::int64_t device = -1;
    std::vector<ComponentPeaks> components;
    int overall = -1;                      // overallCurve()
    std::optional<MemoryPeak> overallPeak; // its Allocated peak
    std::vector<std::size_t> liveAtPeak;   // liveAllocationsAt(overall peak time), largest first
};
std::vector<DeviceMemory> deviceMemory(const MemoryProfile &profile);

// The host slice of an allocation (FORMATS.md §9.5: operator rows join to host slices by name and
// time): the innermost slice named like the operator that encloses the allocation time, on any thread
// of the allocation's group. Invalid when there is none.
SliceRef hostSliceOf(const TraceModel &model, const MemoryAllocation &allocation);

// Static graph memory (static_op_mem_*.csv, MindSpore / static graph, FORMATS.md §9.5): operators hold
// memory over node-index ranges of a graph (logical time, not ns). The files are kept as the
// "static_op_mem" summary table; this reads it per (group, device, model, graph): how many operators,
// the TOTAL row's size, and the peak of the summed sizes over node indices (ranges inclusive; an end of
// 4294967295 means until the graph's last node index).
struct StaticGraphMemory
{
    int group = 0;
    std::int64_t device = -1;
    QString model, graph; // Model Name ("0": no subgraph) and Graph ID as written
    std::size_t ops = 0;
    std::int64_t totalBytes = kNoBytes; // the TOTAL row, when the file has one
    std::int64_t peakBytes = 0;
    std::int64_t peakNode = 0; // the first node index reaching the peak
};
inline constexpr std::int64_t kStaticNodeUntilEnd = 4294967295;
std::vector<StaticGraphMemory> staticGraphMemory(const TraceModel &model);

// A curve's name as lists show it: the component, or "<module> (module)" for npu_module_mem curves
// (modules share names with components: APP, GE).
QString curveLabel(const MemoryCurve &curve);

// Exact decimal text of bytes / 2^20 (MB) or bytes / 2^10 (KB): "954.3701171875".
QString bytesAsMegabytes(std::int64_t bytes);
QString bytesAsKilobytes(std::int64_t bytes);
// Exact decimal microseconds of ns: "1736408883573957.92".
QString nanosAsMicros(TimeNs ns);

} // namespace at
