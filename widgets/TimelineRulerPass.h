#pragma once

#include "TimelineRenderPass.h"

#include <QCoreApplication>
#include <QString>

#include <vector>

class QFontMetrics;

namespace at {

// The ruler on top: the visible span in the label column, ticks on multiples of a 1/2/5 step counted
// from the view's time origin, four minor ticks between labelled ones. Every label states its tick
// exactly to the step (issue 17: zoomed in, "152 ms" at every tick said nothing), in one unit per
// frame, and the step grows until the widest label fits between two ticks. Where absolute labels
// would need more than kMaxAbsoluteDigits digits (nanoseconds seconds into a trace), the first tick
// becomes the base, shown in full in the label column, and ticks read "+N" from it. Over the ticks:
// the range selection with its duration and the time under the mouse.
class TimelineRulerPass : public TimelineRenderPass
{
    Q_DECLARE_TR_FUNCTIONS(at::TimelineView)
public:
    struct Tick
    {
        TimeNs time = 0; // view time (relative to the model origin)
        QString label;   // relative to the time origin
    };
    struct Ticks
    {
        TimeNs step = 0;
        std::vector<Tick> ticks;
        QString base; // relative mode: the first tick in full; empty when the labels are absolute
    };
    static constexpr int kMaxAbsoluteDigits = 7;
    // The labelled ticks of a frame (pure: tests read them without painting).
    static Ticks ticks(const TimeAxis &axis, TimeNs origin, const QFontMetrics &metrics);

    Clip clip() const override { return Clip::Viewport; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;

private:
    // The range selection as a band on the ruler with its duration; the mouse's time in a label.
    static void paintRangeSelection(QPainter &p, const TimelinePaintContext &c);
    static void paintCursor(QPainter &p, const TimelinePaintContext &c);
};

// A tick at `value` ns in `unit` (1, 1e3, 1e6 or 1e9 ns) with as many decimals as `step` needs:
// exact integer arithmetic, so 5 000 000 001 ns at a 1 ns step reads "5.000000001 s".
QString formatRulerTick(TimeNs value, TimeNs step, TimeNs unit);
// The unit for ticks up to `magnitude` ns: the largest of s, ms, µs and ns not above it (ns for 0).
TimeNs rulerUnit(TimeNs magnitude);

} // namespace at
