#pragma once

#include "TimeAxis.h"
#include "TraceModel.h"

#include <QObject>

#include <optional>
#include <vector>

namespace at {

// What the timeline shows and what the user chose on it, in one place: the selected slice, the visible
// range, the range selection and the lanes it is restricted to, the per-rank offsets and the highlighted
// slices. The timeline writes it; the panels observe it (its signals) instead of each getting a copy from
// the window. Every setter stores first and then announces, so an observer reads the whole new state.
// A change is announced once; setting what is already there announces nothing (no feedback loop between
// a panel that follows the state and the state), except the selection: choosing the selected slice again
// is announced again (the Details panel comes forward once more).
class TimelineState : public QObject
{
    Q_OBJECT
public:
    explicit TimelineState(QObject *parent = nullptr) : QObject(parent) {}

    // A new model: everything back to nothing, silently (the observers get the model itself).
    void reset();

    SliceRef selection() const { return m_selection; }
    void setSelection(SliceRef ref);

    TimeRange visibleRange() const { return m_visible; }
    void setVisibleRange(TimeRange range);

    // The range selection, on the timeline's reference clock (rank offsets applied), and the lanes (thread
    // indices) it is restricted to: empty = every lane.
    const std::optional<TimeRange> &rangeSelection() const { return m_range; }
    const std::vector<int> &rangeLanes() const { return m_rangeLanes; }
    // While a range is dragged it is drawn but not yet announced; selectRange announces it.
    void dragRange(TimeRange range, std::vector<int> lanes);
    void selectRange(TimeRange range, std::vector<int> lanes);
    // Restricts the current range to these lanes (sorted, unique) and announces the range again (when there
    // is one).
    void setRangeLanes(std::vector<int> lanes);
    void clearRange();

    // Group g's slices are drawn at model time + groupOffsets()[g] (docs/CLUSTER.md).
    const std::vector<TimeNs> &groupOffsets() const { return m_offsets; }
    TimeNs groupOffset(int group) const;
    void setGroupOffsets(std::vector<TimeNs> offsets);

    // Sorted by thread, then index, unique.
    const std::vector<SliceRef> &highlights() const { return m_highlights; }
    void setHighlights(std::vector<SliceRef> slices);

Q_SIGNALS:
    void selectionChanged(at::SliceRef ref);
    void visibleRangeChanged(at::TimeRange range);
    void rangeSelected(at::TimeRange range);
    void rangeCleared();
    void groupOffsetsChanged();
    void highlightsChanged();

private:
    SliceRef m_selection;
    TimeRange m_visible{0, 0};
    std::optional<TimeRange> m_range;
    std::vector<int> m_rangeLanes;
    std::vector<TimeNs> m_offsets;
    std::vector<SliceRef> m_highlights;
};

} // namespace at
