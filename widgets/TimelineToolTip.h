#pragma once

#include "TimelineGeometry.h"

#include <QCoreApplication>
#include <QString>

namespace at {

// What the timeline says about the point under the mouse: a hover tooltip for a slice (name, start,
// duration, self time, its first arguments) or a counter (series, value held at the cursor's time), and
// the cursor's time as the ruler shows it.
class TimelineToolTip
{
    Q_DECLARE_TR_FUNCTIONS(at::TimelineView)
public:
    static constexpr int kMaxArgs = 6;        // more would make the tooltip a Details panel
    static constexpr int kMaxValueChars = 80; // long values (shapes, stacks) are cut with "…"

    // Rich text for the tooltip at a viewport position; empty where there is nothing to tell.
    // Times are counted from origin (the ruler's origin), exactly to the nanosecond, on the ruler's clock (an
    // aligned rank's slice: its own time + the rank's offset, and its own start on a line of its own). area:
    // where the text stays true (the slice's rectangle, a few pixels around a counter's point).
    static QString text(const TimelineGeometry &geometry, QPoint pos, TimeNs origin, QRect *area = nullptr);
    // The cursor's time as the ruler labels it: from origin, as precise as one pixel is wide.
    static QString cursorLabel(const TimeAxis &axis, TimeNs time, TimeNs origin);
    // A time from origin to the nanosecond, in the unit of its magnitude ("152.100042 ms").
    static QString exactTime(TimeNs time, TimeNs origin);

private:
    // offset: the slice's (counter's) rank offset; its times are told on the ruler's clock (own time +
    // offset).
    static QString sliceText(const TraceModel &model, SliceRef ref, TimeNs origin, TimeNs offset);
    static QString counterText(const TraceModel &model, int counter, TimeNs time, TimeNs origin,
                               TimeNs offset);
};

} // namespace at
