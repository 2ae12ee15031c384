#include "OverviewIntervals.h"

#include <algorithm>
#include <queue>
#include <tuple>

namespace at::overview {

namespace {

// The intervals of one kind, clipped to [lo, hi], sorted by begin, with the earliest-started active one
// found through a min-heap (lazy removal of the ended ones).
class ActiveIntervals
{
public:
    ActiveIntervals(const std::vector<LabelledInterval> &intervals, TimeNs lo, TimeNs hi)
    {
        for (const LabelledInterval &i : intervals) {
            const TimeNs b = std::max(i.begin, lo), e = std::min(i.end, hi);
            if (e > b)
                m_sorted.push_back({b, e, i.label});
        }
        std::sort(m_sorted.begin(), m_sorted.end(), [](const LabelledInterval &a, const LabelledInterval &b) {
            return std::tie(a.begin, a.end, a.label) < std::tie(b.begin, b.end, b.label);
        });
        m_used.assign(m_sorted.size(), false);
    }
    const std::vector<LabelledInterval> &sorted() const { return m_sorted; }

    // The interval that started first among those covering t (boundaries are visited in order), or -1.
    std::ptrdiff_t firstCovering(TimeNs t)
    {
        while (m_next < m_sorted.size() && m_sorted[m_next].begin <= t)
            m_heap.push(m_next++);
        while (!m_heap.empty() && m_sorted[m_heap.top()].end <= t)
            m_heap.pop();
        return m_heap.empty() ? -1 : static_cast<std::ptrdiff_t>(m_heap.top());
    }
    void markUsed(std::size_t index) { m_used[index] = true; }
    bool used(std::size_t index) const { return m_used[index]; }

private:
    std::vector<LabelledInterval> m_sorted;
    std::vector<bool> m_used;
    std::size_t m_next = 0;
    // Index order is begin order, so the smallest index is the earliest start.
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> m_heap;
};

void countAndLongest(const ActiveIntervals &active, std::vector<std::int64_t> &count,
                     std::vector<Interval> &longest)
{
    for (std::size_t i = 0; i < active.sorted().size(); ++i) {
        const LabelledInterval &li = active.sorted()[i];
        const auto label = static_cast<std::size_t>(li.label);
        if (active.used(i))
            ++count[label];
        Interval &best = longest[label];
        if (li.end - li.begin > best.end - best.begin)
            best = {li.begin, li.end};
    }
}

} // namespace

SweepResult sweepStep(const std::vector<LabelledInterval> &computing, std::size_t computingLabels,
                      const std::vector<LabelledInterval> &communication, std::size_t communicationLabels,
                      TimeNs lo, TimeNs hi)
{
    SweepResult r;
    r.computingByLabel.assign(computingLabels, 0);
    r.communicationByLabel.assign(communicationLabels, 0);
    r.computingCount.assign(computingLabels, 0);
    r.communicationCount.assign(communicationLabels, 0);
    r.longestComputing.assign(computingLabels, {});
    r.longestCommunication.assign(communicationLabels, {});
    ActiveIntervals compute(computing, lo, hi), comm(communication, lo, hi);

    std::vector<TimeNs> bounds;
    bounds.reserve(2 * (compute.sorted().size() + comm.sorted().size()));
    for (const auto *list : {&compute.sorted(), &comm.sorted()})
        for (const LabelledInterval &i : *list) {
            bounds.push_back(i.begin);
            bounds.push_back(i.end);
        }
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());

    std::vector<Interval> idle; // uncovered segments between the first and the last boundary
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        const TimeNs b = bounds[k], e = bounds[k + 1];
        const std::ptrdiff_t c = compute.firstCovering(b);
        const std::ptrdiff_t m = comm.firstCovering(b);
        if (c >= 0) {
            const auto ci = static_cast<std::size_t>(c);
            r.computingByLabel[static_cast<std::size_t>(compute.sorted()[ci].label)] += e - b;
            compute.markUsed(ci);
        } else if (m >= 0) {
            const auto mi = static_cast<std::size_t>(m);
            r.communicationByLabel[static_cast<std::size_t>(comm.sorted()[mi].label)] += e - b;
            comm.markUsed(mi);
        } else if (!idle.empty() && idle.back().end == b) {
            idle.back().end = e;
        } else {
            idle.push_back({b, e});
        }
    }
    // Boundaries are those of busy intervals, so the first and last segments are busy: every idle segment
    // lies between two busy ones.
    r.freeGaps = std::move(idle);
    if (bounds.size() >= 2)
        r.busySpan = Interval{bounds.front(), bounds.back()};
    countAndLongest(compute, r.computingCount, r.longestComputing);
    countAndLongest(comm, r.communicationCount, r.longestCommunication);
    return r;
}

std::vector<Interval> unionOf(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval &a, const Interval &b) { return a.begin < b.begin; });
    std::vector<Interval> merged;
    for (const Interval &i : intervals) {
        if (i.end <= i.begin)
            continue;
        if (!merged.empty() && i.begin <= merged.back().end)
            merged.back().end = std::max(merged.back().end, i.end);
        else
            merged.push_back(i);
    }
    return merged;
}

TimeNs intersectionLength(const std::vector<Interval> &a, const std::vector<Interval> &b)
{
    TimeNs total = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs lo = std::max(a[i].begin, b[j].begin), hi = std::min(a[i].end, b[j].end);
        if (hi > lo)
            total += hi - lo;
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return total;
}

TimeNs totalLength(const std::vector<Interval> &a)
{
    TimeNs total = 0;
    for (const Interval &i : a)
        total += i.end - i.begin;
    return total;
}

void fitItems(std::vector<OverviewItem> &items, TimeNs partTime, const QString &remainderName)
{
    TimeNs attributed = 0;
    for (const OverviewItem &i : items)
        attributed += i.time;
    TimeNs excess = attributed - partTime;
    if (excess > 0) {
        std::vector<std::size_t> order(items.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return items[a].time > items[b].time; });
        for (std::size_t i : order) {
            const TimeNs cut = std::min(excess, items[i].time);
            items[i].time -= cut;
            excess -= cut;
            if (excess == 0)
                break;
        }
    }
    OverviewItem rest;
    rest.kind = OverviewItemKind::NotAttributed;
    rest.name = remainderName;
    rest.time = std::max<TimeNs>(0, partTime - std::min(attributed, partTime));
    items.push_back(rest);
}

std::vector<OverviewItem> meanItems(const std::vector<const std::vector<OverviewItem> *> &perStep,
                                    TimeNs partSum, std::int64_t steps)
{
    std::vector<OverviewItem> merged;
    std::map<std::tuple<int, QString, int>, std::size_t> index;
    for (const std::vector<OverviewItem> *items : perStep) {
        if (!items)
            continue;
        for (const OverviewItem &item : *items) {
            const auto key = std::make_tuple(static_cast<int>(item.kind), item.name, item.rank);
            auto [it, added] = index.emplace(key, merged.size());
            if (added) {
                merged.push_back(item);
                continue;
            }
            OverviewItem &m = merged[it->second];
            m.time += item.time;
            m.count += item.count;
        }
    }
    if (steps <= 0)
        return merged;
    std::vector<TimeNs> remainder(merged.size());
    TimeNs floors = 0;
    for (std::size_t i = 0; i < merged.size(); ++i) {
        remainder[i] = merged[i].time % steps;
        merged[i].time /= steps;
        floors += merged[i].time;
    }
    TimeNs left = partSum / steps - floors;
    std::vector<std::size_t> order(merged.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; i < order.size() && left > 0; ++i, --left)
        ++merged[order[i]].time;
    return merged;
}

} // namespace at::overview
