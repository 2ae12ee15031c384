#include "TimelineState.h"

#include <algorithm>

namespace at {

namespace {
std::vector<int> sortedLanes(std::vector<int> lanes)
{
    std::ranges::sort(lanes);
    lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
    return lanes;
}
} // namespace

void TimelineState::reset()
{
    m_selection = {};
    m_range.reset();
    m_rangeLanes.clear();
    m_offsets.clear();
    m_highlights.clear();
}

void TimelineState::setSelection(SliceRef ref)
{
    m_selection = ref;
    Q_EMIT selectionChanged(ref);
}

void TimelineState::setVisibleRange(TimeRange range)
{
    if (range == m_visible)
        return;
    m_visible = range;
    Q_EMIT visibleRangeChanged(range);
}

void TimelineState::dragRange(TimeRange range, std::vector<int> lanes)
{
    m_range = range;
    m_rangeLanes = std::move(lanes);
}

void TimelineState::selectRange(TimeRange range, std::vector<int> lanes)
{
    dragRange(range, std::move(lanes));
    Q_EMIT rangeSelected(range);
}

void TimelineState::setRangeLanes(std::vector<int> lanes)
{
    m_rangeLanes = sortedLanes(std::move(lanes));
    if (m_range)
        Q_EMIT rangeSelected(*m_range);
}

void TimelineState::clearRange()
{
    const bool had = m_range.has_value();
    m_range.reset();
    m_rangeLanes.clear();
    if (had)
        Q_EMIT rangeCleared();
}

TimeNs TimelineState::groupOffset(int group) const
{
    return group >= 0 && static_cast<std::size_t>(group) < m_offsets.size()
               ? m_offsets[static_cast<std::size_t>(group)]
               : 0;
}

void TimelineState::setGroupOffsets(std::vector<TimeNs> offsets)
{
    if (offsets == m_offsets)
        return;
    m_offsets = std::move(offsets);
    Q_EMIT groupOffsetsChanged();
}

void TimelineState::setHighlights(std::vector<SliceRef> slices)
{
    std::ranges::sort(slices, [](SliceRef a, SliceRef b) { return sliceKey(a) < sliceKey(b); });
    slices.erase(std::unique(slices.begin(), slices.end()), slices.end());
    if (slices == m_highlights)
        return;
    m_highlights = std::move(slices);
    Q_EMIT highlightsChanged();
}

} // namespace at
