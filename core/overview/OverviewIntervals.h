#pragma once
// Interval arithmetic of the Overview (docs/OVERVIEW.md): splitting a step's device time among the tasks that
// cover it, the causes of its free time, and fitting items to a part so they sum to it exactly.

#include "Overview.h"

#include <map>
#include <optional>
#include <vector>

namespace at::overview {

struct Interval
{
    TimeNs begin = 0, end = 0;
};

// A task or op interval with the label it is counted under (kernel type, op kind).
struct LabelledInterval
{
    TimeNs begin = 0, end = 0;
    int label = 0; // index into the caller's label list
};

// What the sweep over one step found: each instant of [lo, hi] covered by a compute task is computing and
// goes to the covering task that started first; an instant covered only by communication ops is exposed
// communication and goes to the op that started first; an instant between the first and the last busy instant
// covered by neither is free.
struct SweepResult
{
    std::vector<TimeNs> computingByLabel;                         // per compute label
    std::vector<TimeNs> communicationByLabel;                     // per communication label
    std::vector<std::int64_t> computingCount, communicationCount; // intervals that got some time
    std::vector<Interval> longestComputing, longestCommunication; // per label: its longest interval
    std::vector<Interval> freeGaps;                               // sorted, disjoint
    std::optional<Interval> busySpan; // first to last instant covered by a compute task or an op
};
SweepResult sweepStep(const std::vector<LabelledInterval> &computing, std::size_t computingLabels,
                      const std::vector<LabelledInterval> &communication, std::size_t communicationLabels,
                      TimeNs lo, TimeNs hi);

// Sorted, disjoint union of intervals.
std::vector<Interval> unionOf(std::vector<Interval> intervals);
// Length of the intersection of two sorted, disjoint interval lists.
TimeNs intersectionLength(const std::vector<Interval> &a, const std::vector<Interval> &b);
// Total length of a sorted, disjoint list.
TimeNs totalLength(const std::vector<Interval> &a);

// Makes items sum exactly to `partTime`: when they sum to less, a NotAttributed item holds the rest; when to
// more (the recorded part is smaller than the recomputed one, e.g. by the profiler's rounding), the excess is
// taken from the largest items first. The NotAttributed item is always appended (0 when nothing is left).
void fitItems(std::vector<OverviewItem> &items, TimeNs partTime, const QString &remainderName);

// The mean of per-step item lists whose step parts sum to `partSum` over `steps` steps: items with the same
// (kind, name, rank) are summed, each gets floor(sum / steps), and the ns lost to flooring go one by one to
// the items with the largest remainders, so the items sum exactly to floor(partSum / steps).
std::vector<OverviewItem> meanItems(const std::vector<const std::vector<OverviewItem> *> &perStep,
                                    TimeNs partSum, std::int64_t steps);

} // namespace at::overview
