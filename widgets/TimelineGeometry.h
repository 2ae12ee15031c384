#pragma once

#include "LaneLayout.h"
#include "TimeAxis.h"
#include "TraceModel.h"

#include <QPoint>
#include <QRectF>

#include <vector>

namespace at {

// Where things are on the timeline's viewport for one frame: the label column on the left, the ruler on
// top, lanes scrolled vertically. A value made per paint or hit test (the view owns model and layout).
struct TimelineGeometry
{
    static constexpr int kLabelWidth = 220;
    static constexpr int kRulerHeight = 24;

    const TraceModel *model = nullptr;
    const LaneLayout *layout = nullptr;
    TimeAxis axis;
    int scroll = 0; // vertical scroll position, in content pixels
    int width = 0;  // viewport size
    int height = 0;
    // Per-group time offsets (ranks aligned on a collective, docs/CLUSTER.md): a slice of group g at model
    // time t is drawn at t + offset[g]; the axis is the reference clock. Null or short: no offsets.
    const std::vector<TimeNs> *groupOffsets = nullptr;

    TimeNs groupOffset(int group) const
    {
        return groupOffsets && group >= 0 && static_cast<std::size_t>(group) < groupOffsets->size()
                   ? (*groupOffsets)[static_cast<std::size_t>(group)]
                   : 0;
    }
    // The group of a thread, process or layout row (-1 when there is none).
    int groupOfThread(int thread) const;
    int groupOfProcess(int process) const;
    int groupOfRow(const LaneRow &row) const;
    // The axis a group's own times are drawn with (the view's axis shifted back by its offset).
    TimeAxis axisOfGroup(int group) const
    {
        const TimeNs offset = groupOffset(group);
        if (offset == 0)
            return axis;
        return TimeAxis({axis.range().start - offset, axis.range().end - offset}, axis.pixelWidth());
    }

    int contentY(int viewportY) const { return viewportY - kRulerHeight + scroll; }
    int viewportY(int contentY) const { return contentY + kRulerHeight - scroll; }
    double timeX(TimeNs t) const { return kLabelWidth + axis.toPixel(t); }

    // The slice's rectangle, or a null rectangle when its lane is not laid out as a thread row.
    QRectF sliceRect(SliceRef ref) const;
    // The slice under a viewport position (within two pixels for tiny ones), or an invalid ref.
    SliceRef sliceAt(QPoint pos) const;
    // The headers kept on top of the lanes while scrolled into them: the group (rank) header, then the
    // process header, each shown only when its own row has scrolled above the lanes' top.
    struct Sticky
    {
        int groupRow = -1;
        int processRow = -1;
        int bottom = kRulerHeight; // viewport y below them
    };
    Sticky sticky() const;
    // The row under a viewport y, a sticky header first; -1 when none.
    int rowAtViewportY(int viewportY) const;
    // Where a flow arrow meets a slice at time t: its middle, or its collapsed lane's header.
    QPointF flowEndpoint(SliceRef ref, TimeNs t) const;
};

} // namespace at
