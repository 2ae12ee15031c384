#pragma once
// Helpers shared by the diff's sources (not part of the API).

#include "Time.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace at::diff {

using Interval = std::pair<TimeNs, TimeNs>; // [begin, end)

// Sorts and merges intervals in place; returns the length of their union.
inline TimeNs mergeIntervals(std::vector<Interval> &intervals)
{
    std::sort(intervals.begin(), intervals.end());
    std::size_t out = 0;
    for (const Interval &interval : intervals) {
        if (interval.second <= interval.first)
            continue;
        if (out > 0 && interval.first <= intervals[out - 1].second)
            intervals[out - 1].second = std::max(intervals[out - 1].second, interval.second);
        else
            intervals[out++] = interval;
    }
    intervals.resize(out);
    TimeNs total = 0;
    for (const Interval &interval : intervals)
        total += interval.second - interval.first;
    return total;
}

// Length of `merged` (sorted, disjoint) minus what `cover` (sorted, disjoint) covers of it.
inline TimeNs uncoveredLength(const std::vector<Interval> &merged, const std::vector<Interval> &cover)
{
    TimeNs total = 0;
    std::size_t c = 0;
    for (const Interval &interval : merged) {
        TimeNs at = interval.first;
        while (c < cover.size() && cover[c].second <= at)
            ++c;
        for (std::size_t k = c; k < cover.size() && cover[k].first < interval.second; ++k) {
            if (cover[k].first > at)
                total += cover[k].first - at;
            at = std::max(at, cover[k].second);
            if (at >= interval.second)
                break;
        }
        if (at < interval.second)
            total += interval.second - at;
    }
    return total;
}

} // namespace at::diff
