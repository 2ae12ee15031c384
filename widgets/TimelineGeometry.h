#pragma once

#include "LaneLayout.h"
#include "TimeAxis.h"
#include "TraceModel.h"

#include <QPoint>
#include <QRectF>

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
