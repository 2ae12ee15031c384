#include "TimelineView.h"

#include "TraceQueries.h"

#include <QScrollBar>

// Keyboard lane navigation of the timeline: ↑/↓ between lanes, ./, along a lane, n / Shift+N through the
// occurrences of a name (the keys are bound in Commands.cpp).
namespace at {

namespace {

// Occurrences are ordered by start, then lane, then index (a total order, so stepping never loops).
struct Occurrence
{
    TimeNs start = 0;
    SliceRef ref;
    auto key() const { return std::tuple(start, ref.thread, ref.index); }
};

} // namespace

SliceRef TimelineView::laneSliceNear(int thread, TimeNs t) const
{
    const SliceTable &slices = m_model->threads()[static_cast<std::size_t>(thread)].slices;
    if (slices.depthCount() == 0)
        return {};
    if (const std::int64_t hit = slices.sliceAt(0, t); hit >= 0)
        return {thread, static_cast<std::uint32_t>(hit)};
    const auto [begin, end] = slices.depthRange(0);
    const std::uint32_t after = slices.firstStartingAtOrAfter(0, t);
    if (after == begin)
        return begin < end ? SliceRef{thread, begin} : SliceRef{};
    if (after >= end)
        return {thread, end - 1};
    // Between two slices: the nearer one.
    return t - slices.end(after - 1) <= slices.start(after) - t ? SliceRef{thread, after - 1}
                                                                : SliceRef{thread, after};
}

void TimelineView::selectAndReveal(SliceRef ref)
{
    const SliceTable &t = m_model->threads()[static_cast<std::size_t>(ref.thread)].slices;
    const TimeRange view = m_zoom.range();
    const TimeNs offset = groupOffset(timelineGeometry().groupOfThread(ref.thread)); // an aligned rank
    const bool inView = t.start(ref.index) + offset >= view.start && t.end(ref.index) + offset <= view.end;
    selectSlice(ref, !inView);
    ensureRowVisible(m_layout.rowOfThread(ref.thread));
}

bool TimelineView::selectAdjacentLane(int direction)
{
    if (!m_model)
        return false;
    const auto &rows = m_layout.rows();
    int current = m_currentLane >= 0 ? m_layout.rowOfThread(m_currentLane) : -1;
    if (current >= 0 && rows[static_cast<std::size_t>(current)].kind != LaneRow::Kind::Thread)
        current = -1; // its process is collapsed
    int row = -1;
    if (current < 0) {
        // No lane yet: the first (or last) lane in sight.
        const int top = verticalScrollBar()->value(), bottom = top + viewport()->height() - kRulerHeight;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const std::size_t k = direction > 0 ? i : rows.size() - 1 - i;
            if (rows[k].kind == LaneRow::Kind::Thread && rows[k].y + rows[k].height > top &&
                rows[k].y < bottom) {
                row = static_cast<int>(k);
                break;
            }
        }
    } else {
        // ↑/↓ into a collapsed process opens it (a deep host stack starts collapsed): its first lane going
        // down, its last going up.
        const auto openedLane = [this, direction](int process) {
            setCollapsed(process, false);
            const auto &opened = m_layout.rows();
            int lane = -1;
            for (std::size_t k = 0; k < opened.size(); ++k)
                if (opened[k].kind == LaneRow::Kind::Thread && opened[k].process == process &&
                    (lane < 0 || direction < 0))
                    lane = static_cast<int>(k);
            if (lane < 0)
                setCollapsed(process, true); // nothing to select in it: left as it was
            return lane;
        };
        for (int k = current + direction; k >= 0 && k < static_cast<int>(rows.size()); k += direction) {
            const LaneRow &r = rows[static_cast<std::size_t>(k)];
            if (r.kind == LaneRow::Kind::Thread) {
                row = k;
                break;
            }
            if (r.kind == LaneRow::Kind::ProcessHeader && m_collapsed.contains(r.process)) {
                if (const int lane = openedLane(r.process); lane >= 0) {
                    row = lane; // rows were laid out again: r is gone
                    break;
                }
            }
        }
    }
    if (row < 0)
        return false;
    const int thread = rows[static_cast<std::size_t>(row)].index;
    // On the view's clock: an aligned rank's times are moved by its offset.
    const TimelineGeometry g = timelineGeometry();
    const TimeNs t = (selectedSlice().isValid()
                          ? m_model->threads()[static_cast<std::size_t>(selectedSlice().thread)].slices.start(
                                selectedSlice().index) +
                                groupOffset(g.groupOfThread(selectedSlice().thread))
                          : m_zoom.range().center()) -
                     groupOffset(g.groupOfThread(thread));
    m_currentLane = thread;
    if (const SliceRef ref = laneSliceNear(thread, t); ref.isValid())
        selectAndReveal(ref);
    ensureRowVisible(m_layout.rowOfThread(thread));
    viewport()->update();
    return true;
}

bool TimelineView::selectAdjacentSlice(int direction)
{
    if (!m_model || m_currentLane < 0)
        return false;
    const SliceTable &slices = m_model->threads()[static_cast<std::size_t>(m_currentLane)].slices;
    if (slices.depthCount() == 0)
        return false;
    SliceRef next;
    if (selectedSlice().isValid() && selectedSlice().thread == m_currentLane) {
        const auto [begin, end] = slices.depthRange(slices.depthOf(selectedSlice().index));
        const std::int64_t i = static_cast<std::int64_t>(selectedSlice().index) + direction;
        if (i < begin || i >= end)
            return false;
        next = {m_currentLane, static_cast<std::uint32_t>(i)};
    } else {
        const auto [begin, end] = slices.depthRange(0);
        // The view's centre in the lane's own times (an aligned rank is drawn shifted by its offset).
        const TimeNs centre =
            m_zoom.range().center() - groupOffset(timelineGeometry().groupOfThread(m_currentLane));
        const std::uint32_t after = slices.firstStartingAtOrAfter(0, centre);
        if (direction > 0 && after < end)
            next = {m_currentLane, after};
        else if (direction < 0 && after > begin)
            next = {m_currentLane, after - 1};
        else
            return false;
    }
    selectAndReveal(next);
    return true;
}

bool TimelineView::selectOccurrence(int direction)
{
    if (!m_model || !selectedSlice().isValid())
        return false;
    const StringId name = m_model->threads()[static_cast<std::size_t>(selectedSlice().thread)].slices.name(
        selectedSlice().index);
    // In the order they are drawn: an aligned rank's occurrences at their time + its offset.
    const Occurrence current{drawnStart(*m_model, selectedSlice(), groupOffsets()), selectedSlice()};
    // One pass over the names: the nearest occurrence after (before) the current one, and the first
    // (last) of all for wrapping around.
    std::optional<Occurrence> nearest, wrap;
    for (std::size_t t = 0; t < m_model->threads().size(); ++t) {
        const SliceTable &slices = m_model->threads()[t].slices;
        const std::vector<StringId> &names = slices.names();
        const TimeNs offset = offsetOfGroup(groupOffsets(), groupOfThread(*m_model, static_cast<int>(t)));
        for (std::uint32_t i = 0; i < names.size(); ++i) {
            if (names[i] != name)
                continue;
            const Occurrence o{slices.start(i) + offset, {static_cast<int>(t), i}};
            const bool beyond = direction > 0 ? o.key() > current.key() : o.key() < current.key();
            if (beyond && (!nearest || (direction > 0 ? o.key() < nearest->key() : o.key() > nearest->key())))
                nearest = o;
            if (!wrap || (direction > 0 ? o.key() < wrap->key() : o.key() > wrap->key()))
                wrap = o;
        }
    }
    const std::optional<Occurrence> target = nearest ? nearest : wrap;
    if (!target || target->ref == selectedSlice())
        return false;
    selectAndReveal(target->ref);
    return true;
}

} // namespace at
