#include "SliceTable.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace at {

int SliceTable::depthOf(std::uint32_t index) const
{
    auto it = std::upper_bound(m_depthBegin.begin(), m_depthBegin.end(), index);
    return static_cast<int>(it - m_depthBegin.begin()) - 1;
}

std::uint32_t SliceTable::firstEndingAtOrAfter(int d, TimeNs t) const
{
    auto [lo, hi] = depthRange(d);
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (end(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

std::uint32_t SliceTable::firstStartingAtOrAfter(int d, TimeNs t) const
{
    auto [lo, hi] = depthRange(d);
    auto it = std::lower_bound(m_start.begin() + lo, m_start.begin() + hi, t);
    return static_cast<std::uint32_t>(it - m_start.begin());
}

std::int64_t SliceTable::sliceAt(int d, TimeNs t) const
{
    if (d < 0 || d >= depthCount())
        return -1;
    const auto last = depthRange(d).second;
    std::int64_t best = -1;
    // Touching slices share a boundary; prefer the one that starts at t.
    for (auto i = firstEndingAtOrAfter(d, t); i < last && m_start[i] <= t; ++i)
        best = i;
    return best;
}

std::size_t SliceTable::memoryBytes() const
{
    return m_start.capacity() * sizeof(TimeNs) + m_duration.capacity() * sizeof(TimeNs) +
           m_name.capacity() * sizeof(StringId) + m_category.capacity() * sizeof(StringId) +
           m_parent.capacity() * sizeof(std::int32_t) + m_source.capacity() * sizeof(SourceLocation) +
           m_depthBegin.capacity() * sizeof(std::uint32_t);
}

SliceTable SliceTable::build(std::vector<Raw> raw)
{
    SliceTable table;
    const std::size_t n = raw.size();
    if (n == 0)
        return table;
    // Parents before children: earlier start first, and for equal starts the longer one.
    std::stable_sort(raw.begin(), raw.end(), [](const Raw &a, const Raw &b) {
        return a.start != b.start ? a.start < b.start : a.duration > b.duration;
    });

    std::vector<std::uint16_t> depth(n);
    std::vector<std::int32_t> parentInSorted(n, -1);
    std::vector<std::uint32_t> stack;     // open slices that contain the current one
    std::vector<TimeNs> lastEnd;          // per depth: end of the slice placed there last
    std::vector<std::uint32_t> lastIndex; // per depth: that slice
    std::size_t maxDepth = 0;
    constexpr std::size_t kDepthLimit = 0xFFFF;
    for (std::uint32_t i = 0; i < n; ++i) {
        const TimeNs s = raw[i].start;
        const TimeNs e = s + raw[i].duration;
        // Close every open slice that this one does not fit into: those that ended by s, and
        // (improperly nested input) those that end before this one does, so that a slice such
        // as ProfilerStep#N is not pushed under Python frames that merely overlap its start.
        while (!stack.empty()) {
            const TimeNs topEnd = raw[stack.back()].start + raw[stack.back()].duration;
            if (topEnd > s && topEnd >= e)
                break;
            stack.pop_back();
        }
        // Keep the ends sorted at every depth (what the interval queries rely on): go deeper
        // while the last slice at this depth still covers this one's end. For properly nested
        // input this never moves, and depth equals the number of enclosing slices.
        std::size_t d = std::min(stack.size(), kDepthLimit);
        while (d < lastEnd.size() && d < kDepthLimit &&
               (lastEnd[d] > e || (lastEnd[d] == e && lastEnd[d] > s)))
            ++d;
        if (d >= lastEnd.size()) {
            lastEnd.resize(d + 1, std::numeric_limits<TimeNs>::min());
            lastIndex.resize(d + 1, 0);
        }
        depth[i] = static_cast<std::uint16_t>(d);
        // The parent is the slice one level up that is still open at s.
        if (d > 0 && lastEnd[d - 1] > s)
            parentInSorted[i] = static_cast<std::int32_t>(lastIndex[d - 1]);
        lastEnd[d] = e;
        lastIndex[d] = i;
        maxDepth = std::max(maxDepth, d);
        stack.push_back(i);
    }

    // Bucket by depth, keeping start order inside each depth.
    table.m_depthBegin.assign(maxDepth + 2, 0);
    for (std::uint32_t i = 0; i < n; ++i)
        ++table.m_depthBegin[depth[i] + 1u];
    std::partial_sum(table.m_depthBegin.begin(), table.m_depthBegin.end(), table.m_depthBegin.begin());
    std::vector<std::uint32_t> fill(table.m_depthBegin.begin(), table.m_depthBegin.end() - 1);
    std::vector<std::uint32_t> finalIndex(n);
    for (std::uint32_t i = 0; i < n; ++i)
        finalIndex[i] = fill[depth[i]]++;

    table.m_start.resize(n);
    table.m_duration.resize(n);
    table.m_name.resize(n);
    table.m_category.resize(n);
    table.m_parent.resize(n);
    table.m_source.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t f = finalIndex[i];
        table.m_start[f] = raw[i].start;
        table.m_duration[f] = raw[i].duration;
        table.m_name[f] = raw[i].name;
        table.m_category[f] = raw[i].category;
        table.m_source[f] = raw[i].source;
        table.m_parent[f] =
            parentInSorted[i] < 0
                ? -1
                : static_cast<std::int32_t>(finalIndex[static_cast<std::size_t>(parentInSorted[i])]);
    }
    return table;
}

} // namespace at
