#pragma once

#include "TraceModel.h"

#include <QString>

#include <vector>

namespace at {

// Where a step's boundaries came from (FORMATS.md §7.1), best first.
enum class StepSource
{
    ProfilerStep, // "ProfilerStep#N" host slices (torch_npu with a schedule)
    Iteration,    // "Iteration N" slices of the Step Trace / Training Trace layer (graph mode)
    Declared,     // a window the source states: DB STEP_TIME, G1 per-iteration files
    StepTraceCsv, // msprof step_trace_*.csv rows (FP Start .. Iteration End)
    KernelStepId, // only the "Step Id" column of the kernel table
    GpuAnnotation // "ProfilerStep#N" gpu_user_annotation spans of a GPU trace without host steps (§10.8)
};
QString stepSourceName(StepSource source);

// Device time of a step split as torch_npu's step_trace_time.csv does (FORMATS.md §9.2): from the
// Overlap Analysis lanes when the data has them, else computing = union of the compute tasks (the
// kernel table's tasks; never Notify Wait, SDMA, EVENT_WAIT, memcpy), communication = union of the
// communication ops (not their plane tasks), free = the gaps between busy intervals.
struct StepBreakdown
{
    TimeNs computing = 0;
    TimeNs communication = 0;
    TimeNs communicationNotOverlapped = 0;
    TimeNs free = 0;
    bool fromOverlapAnalysis = false; // false: derived from the device tasks themselves
};

// One training step of one source group. All times relative to the model origin.
struct Step
{
    int group = 0;
    std::int64_t number = 0;
    QString label; // "ProfilerStep#50", "Iteration 3", "Step 3"
    StepSource source = StepSource::ProfilerStep;
    SliceRef marker; // the ProfilerStep / Iteration slice, when there is one
    TimeNs hostBegin = 0, hostEnd = 0;
    // Device step: first task launched from the step's host ops (host begin when none) to the
    // later of the last such task's end and the host end (torch_npu's rule, FORMATS.md §7.2).
    TimeNs deviceBegin = 0, deviceEnd = 0;
    // First and last device task actually assigned to the step.
    TimeNs stageBegin = 0, stageEnd = 0;
    StepBreakdown breakdown;
    // Device stream tasks (Task Scheduler / Ascend Hardware / AI CPU) of the step and the
    // communication ops of the kernel table, ordered by thread then start. Other communication
    // lane slices (plane tasks) are counted in the breakdown only.
    std::vector<SliceRef> deviceTasks;
    std::size_t flowAttributedTasks = 0; // how many of deviceTasks were reached through flows

    TimeNs begin() const { return std::min(hostBegin, deviceBegin); }
    TimeNs end() const { return std::max(hostEnd, deviceEnd); }
    TimeNs duration() const { return end() - begin(); }
    TimeNs stageDuration() const { return stageEnd - stageBegin; }
};

// Finds the steps of every source group from whatever the data has (FORMATS.md §7), and assigns
// device work to them: through flows (host op → device task) where present, else by the device
// step window. Profiler on/off marker tasks never belong to a step. Ordered by group, then time.
std::vector<Step> detectSteps(const TraceModel &model);

// The step to show after pressing ] (direction +1) or [ (-1) while the view is centred on t: the
// next/previous step of the group by start time, counted from the step holding t (or from t).
// -1 when there is none in that direction.
int adjacentStep(const std::vector<Step> &steps, int group, TimeNs t, int direction);

// Index into steps of the step of a group with this number, or -1.
int findStep(const std::vector<Step> &steps, std::int64_t number, int group = -1);

} // namespace at
