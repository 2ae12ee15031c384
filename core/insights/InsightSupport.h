#pragma once

// Helpers shared by the insight checks (not part of the public API).

#include "InsightChecks.h"

#include <string_view>

#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace at::insights {

using Interval = std::pair<TimeNs, TimeNs>; // [begin, end)

Layer layerOfThread(const TraceModel &model, int thread);
int groupOfThread(const TraceModel &model, int thread);
// Threads of the layers given, in model order.
std::vector<int> threadsOfLayers(const TraceModel &model, std::initializer_list<Layer> layers);
// Those of the source groups the context covers (InsightContext::onlyGroup).
std::vector<int> threadsOfLayers(const InsightContext &context, std::initializer_list<Layer> layers);

// Calls fn(ref) for every slice of the threads whose name satisfies match.
void forEachSlice(const TraceModel &model, const std::vector<int> &threads,
                  const std::function<bool(std::string_view name)> &match,
                  const std::function<void(SliceRef)> &fn);
// The slices of those threads whose name matches and that have no matching ancestor.
std::vector<SliceRef> outermostMatching(const TraceModel &model, const std::vector<int> &threads,
                                        const std::function<bool(std::string_view name)> &match);

// Waiting tasks (EVENT_WAIT, Notify Wait): the stream waits for another stream or an event.
bool isWaitTask(std::string_view name);

// Per source group, the sorted, merged busy intervals of the device: every depth-0 task of the
// Task Scheduler / Ascend Hardware / AI CPU lanes except waiting tasks and the profiler's own
// PROFILING_ENABLE/DISABLE markers.
std::vector<std::vector<Interval>> deviceBusyByGroup(const TraceModel &model);
std::vector<Interval> mergeIntervals(std::vector<Interval> intervals);
// Length of [begin, end) not covered by the sorted, merged busy intervals.
TimeNs uncoveredLength(const std::vector<Interval> &busy, TimeNs begin, TimeNs end);

// A set of disjoint intervals with O(log n) insertion (time already counted, e.g. of one rank's part).
class IntervalSet
{
public:
    TimeNs uncovered(TimeNs begin, TimeNs end) const
    {
        TimeNs covered = 0;
        auto it = m_map.upper_bound(begin);
        if (it != m_map.begin())
            --it;
        for (; it != m_map.end() && it->first < end; ++it)
            covered += std::max<TimeNs>(0, std::min(end, it->second) - std::max(begin, it->first));
        return end - begin - covered;
    }
    void add(TimeNs begin, TimeNs end)
    {
        auto it = m_map.upper_bound(begin);
        if (it != m_map.begin() && std::prev(it)->second >= begin)
            --it;
        while (it != m_map.end() && it->first <= end) {
            begin = std::min(begin, it->first);
            end = std::max(end, it->second);
            it = m_map.erase(it);
        }
        m_map.emplace(begin, end);
    }

private:
    std::map<TimeNs, TimeNs> m_map; // begin → end
};

// The parts of [begin, end) inside the sorted, merged windows (anywhere when windows is empty) that no
// busy interval covers.
std::vector<Interval> idleSegments(const std::vector<Interval> &busy, const std::vector<Interval> &windows,
                                   TimeNs begin, TimeNs end);

// Where a part of a source group's steps lies on the time axis: the Overlap Analysis lane torch_npu
// writes (what step_trace_time.csv sums), else derived from the tasks (computing: the kernel table's
// compute rows; communication not overlapped: the steps' stages outside them; free: the stages outside
// every device task and communication op). nullopt when the data cannot place it.
std::optional<std::vector<Interval>> partRegion(const TraceModel &model, int group, StepPart part);

FindingOccurrence occurrenceOf(const TraceModel &model, SliceRef ref);
// Keeps the n occurrences with the longest duration, longest first.
void keepLongest(std::vector<FindingOccurrence> &occurrences, std::size_t n);

constexpr std::size_t kMaxOccurrences = 50; // listed per finding; the data keeps the full counts

inline double toUs(TimeNs ns)
{
    return static_cast<double>(ns) / 1000.0;
}

} // namespace at::insights

namespace at::insights {
// Case-insensitive (ASCII) substring test; needle in lower case.
bool containsNoCase(std::string_view text, std::string_view lowerNeedle);
} // namespace at::insights
