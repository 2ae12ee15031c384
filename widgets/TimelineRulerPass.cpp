#include "TimelineRulerPass.h"

#include <QPainter>

namespace at {

void TimelineRulerPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
    constexpr int kRulerHeight = TimelineGeometry::kRulerHeight;
    const QPalette &pal = c.palette;
    const TimeAxis &a = c.geometry.axis;
    const QRect ruler(0, 0, c.geometry.width, kRulerHeight);
    p.fillRect(ruler, pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, c.geometry.width, kRulerHeight - 1);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("View: %1").arg(formatDuration(a.range().width())));
    const TimeNs step = rulerStep(a, 110);
    // Ticks sit on multiples of the step counted from the time origin.
    const TimeNs fromOrigin = a.range().start - c.timeOrigin;
    TimeNs t = a.range().start - ((fromOrigin % step) + step) % step;
    const int precision = step >= 1000000000 ? 1 : (step % 1000 == 0 ? 0 : 3);
    for (; t <= a.range().end; t += step) {
        const double x = kLabelWidth + a.toPixel(t);
        if (x < kLabelWidth)
            continue;
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(QPointF(x, kRulerHeight - 8), QPointF(x, kRulerHeight - 1));
        for (int minor = 1; minor < 5; ++minor) {
            const double mx = x + minor * (a.toPixel(t + step) - a.toPixel(t)) / 5;
            p.drawLine(QPointF(mx, kRulerHeight - 4), QPointF(mx, kRulerHeight - 1));
        }
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QPointF(x + 3, kRulerHeight - 10), formatDuration(t - c.timeOrigin, precision));
    }
}

} // namespace at
