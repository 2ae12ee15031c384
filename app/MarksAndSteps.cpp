#include "MarksAndSteps.h"

#include "MarkerList.h"
#include "Steps.h"
#include "TimelineView.h"
#include "TraceQueries.h"

namespace at {

std::optional<Marker> markerOfSelection(const TimelineView &timeline)
{
    const TraceModel *model = timeline.model();
    if (!model)
        return std::nullopt;
    Marker m;
    if (const auto range = timeline.selectedRange()) {
        m.begin = range->start;
        m.end = range->end;
    } else if (const SliceRef s = timeline.selectedSlice(); s.isValid()) {
        const SliceTable &t = model->threads()[static_cast<std::size_t>(s.thread)].slices;
        const TimeNs offset = timeline.groupOffset(groupOfThread(*model, s.thread));
        m.begin = t.start(s.index) + offset;
        m.end = t.end(s.index) + offset;
        m.name = model->sliceName(s);
    } else {
        return std::nullopt;
    }
    if (m.end == m.begin)
        ++m.end; // a zero-length slice is still a range, not a flag
    return m;
}

Marker flagAtMouse(TimelineView &timeline)
{
    Marker m;
    m.begin = m.end = timeline.mouseTime().value_or(timeline.zoom()->range().center());
    return m;
}

void addInNextColour(MarkerList &markers, Marker m)
{
    m.rgb = markerPalette()[static_cast<std::size_t>(markers.size()) % markerPalette().size()];
    markers.add(m);
}

bool fitStep(TimelineView &timeline, int step)
{
    const TraceModel *model = timeline.model();
    if (!model || step < 0 || step >= static_cast<int>(model->steps().size()))
        return false;
    const Step &s = model->steps()[static_cast<std::size_t>(step)];
    const TimeNs offset = timeline.groupOffset(s.group); // an aligned rank's step is drawn moved
    timeline.zoom()->fit({s.begin() + offset, s.end() + offset});
    return true;
}

int adjacentStepOf(TimelineView &timeline, const std::vector<int> &selectedSteps, int direction)
{
    const TraceModel *model = timeline.model();
    if (!model || model->steps().empty())
        return -1;
    int group = model->steps().front().group;
    if (const SliceRef selected = timeline.selectedSlice(); selected.isValid())
        group = model
                    ->processes()[static_cast<std::size_t>(
                        model->threads()[static_cast<std::size_t>(selected.thread)].process)]
                    .group;
    else if (!selectedSteps.empty())
        group = model->steps()[static_cast<std::size_t>(selectedSteps.front())].group;
    return adjacentStep(model->steps(), group, timeline.zoom()->range().center(), direction);
}

} // namespace at
