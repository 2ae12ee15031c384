#include "TimelineRulerPass.h"

#include "TimelineToolTip.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cstdlib>

namespace at {

namespace {
// Pixels between labelled ticks, at least: at the narrowest zoom (20 ns) a 1,600-pixel window still
// gets 1 ns ticks.
constexpr double kMinTickSpacing = 64;
constexpr int kLabelGap = 16; // pixels between one label's end and the next tick

std::uint64_t magnitudeOf(TimeNs t)
{
    return t < 0 ? 0 - static_cast<std::uint64_t>(t) : static_cast<std::uint64_t>(t);
}

// The first tick at or before the range start, on a multiple of step counted from origin.
TimeNs firstTick(const TimeAxis &a, TimeNs origin, TimeNs step)
{
    const TimeNs fromOrigin = a.range().start - origin;
    return a.range().start - ((fromOrigin % step) + step) % step;
}
// The power of ten (at most unit) that step is a multiple of, and its number of decimals in unit.
std::pair<TimeNs, int> resolutionOf(TimeNs step, TimeNs unit)
{
    int decimals = 0;
    TimeNs resolution = unit;
    while (resolution > 1 && step % resolution != 0) {
        resolution /= 10;
        ++decimals;
    }
    return {resolution, decimals};
}

int digitsOf(std::uint64_t value)
{
    int digits = 1;
    for (; value >= 10; value /= 10)
        ++digits;
    return digits;
}

} // namespace

TimeNs rulerUnit(TimeNs magnitude)
{
    for (TimeNs unit : {TimeNs{1000000000}, TimeNs{1000000}, TimeNs{1000}})
        if (magnitude >= unit)
            return unit;
    return 1;
}

QString formatRulerTick(TimeNs value, TimeNs step, TimeNs unit)
{
    const auto [resolution, decimals] = resolutionOf(step, unit);
    const std::uint64_t magnitude = magnitudeOf(value);
    const auto u = static_cast<std::uint64_t>(unit);
    QString text = value < 0 ? QStringLiteral("-") : QString();
    text += QString::number(magnitude / u);
    if (decimals > 0)
        text += QLatin1Char('.') +
                QStringLiteral("%1").arg((magnitude % u) / static_cast<std::uint64_t>(resolution), decimals,
                                         10, QLatin1Char('0'));
    const char *name = unit == 1000000000 ? "s" : unit == 1000000 ? "ms" : unit == 1000 ? "µs" : "ns";
    return text + QLatin1Char(' ') + QString::fromUtf8(name);
}

TimelineRulerPass::Ticks TimelineRulerPass::ticks(const TimeAxis &a, TimeNs origin,
                                                  const QFontMetrics &metrics)
{
    Ticks result;
    double minSpacing = kMinTickSpacing;
    // A longer label needs a larger step, which may shorten the label again: a few rounds settle it.
    for (int round = 0; round < 4; ++round) {
        const TimeNs step = rulerStep(a, minSpacing);
        const TimeNs first = firstTick(a, origin, step);
        const auto largest =
            static_cast<TimeNs>(std::max(magnitudeOf(first - origin), magnitudeOf(a.range().end - origin)));
        const TimeNs absoluteUnit = rulerUnit(largest);
        const auto resolution = static_cast<std::uint64_t>(resolutionOf(step, absoluteUnit).first);
        const bool relative = digitsOf(static_cast<std::uint64_t>(largest) / resolution) > kMaxAbsoluteDigits;
        const TimeNs base = relative ? first : origin;
        const TimeNs unit = relative ? rulerUnit(a.range().end - first) : absoluteUnit;
        result.step = step;
        result.ticks.clear();
        result.base = relative ? formatRulerTick(first - origin, 1, rulerUnit(largest)) : QString();
        int widest = 0;
        for (TimeNs t = first; t <= a.range().end; t += step) {
            QString label = formatRulerTick(t - base, step, unit);
            if (relative)
                label.prepend(QLatin1Char('+'));
            widest = std::max(widest, metrics.horizontalAdvance(label));
            result.ticks.push_back({t, std::move(label)});
        }
        const double spacing = static_cast<double>(step) / a.nsPerPixel();
        if (spacing >= widest + kLabelGap)
            break;
        minSpacing = widest + kLabelGap;
    }
    return result;
}

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
    const Ticks frame = ticks(a, c.timeOrigin, p.fontMetrics());
    const QString span = frame.base.isEmpty()
                             ? tr("View: %1").arg(formatDuration(a.range().width()))
                             : tr("View: %1 from %2").arg(formatDuration(a.range().width()), frame.base);
    p.drawText(QRect(6, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(span, Qt::ElideMiddle, kLabelWidth - 12));
    const double minorSpacing = static_cast<double>(frame.step) / a.nsPerPixel() / 5;
    for (const Tick &tick : frame.ticks) {
        const double x = kLabelWidth + a.toPixel(tick.time);
        // Minor ticks also right of a major tick that lies left of the lanes.
        p.setPen(pal.color(QPalette::Mid));
        for (int minor = 1; minor < 5; ++minor) {
            const double mx = x + minor * minorSpacing;
            if (mx >= kLabelWidth)
                p.drawLine(QPointF(mx, kRulerHeight - 4), QPointF(mx, kRulerHeight - 1));
        }
        if (x < kLabelWidth)
            continue;
        p.drawLine(QPointF(x, kRulerHeight - 8), QPointF(x, kRulerHeight - 1));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QPointF(x + 3, kRulerHeight - 10), tick.label);
    }
    paintRangeSelection(p, c);
    paintCursor(p, c);
}

void TimelineRulerPass::paintRangeSelection(QPainter &p, const TimelinePaintContext &c)
{
    if (!c.rangeSelection)
        return;
    constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
    constexpr int kRulerHeight = TimelineGeometry::kRulerHeight;
    const TimelineGeometry &g = c.geometry;
    const double x0 = std::max<double>(kLabelWidth, g.timeX(c.rangeSelection->start));
    const double x1 = std::min<double>(g.width, g.timeX(c.rangeSelection->end));
    if (x1 < kLabelWidth || x0 > g.width)
        return;
    const QColor highlight = c.palette.color(QPalette::Highlight);
    QColor band = highlight;
    band.setAlpha(70);
    p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), kRulerHeight - 1), band);
    // The duration, centred on the visible part of the range and kept inside the time area.
    const QString label = formatDuration(c.rangeSelection->width());
    const double w = p.fontMetrics().horizontalAdvance(label) + 10;
    const double left =
        std::clamp((x0 + x1 - w) / 2, double(kLabelWidth), std::max<double>(kLabelWidth, g.width - w));
    const QRectF box(left, 2, w, kRulerHeight - 5);
    p.fillRect(box, highlight);
    p.setPen(c.palette.color(QPalette::HighlightedText));
    p.drawText(box, Qt::AlignCenter, label);
}

void TimelineRulerPass::paintCursor(QPainter &p, const TimelinePaintContext &c)
{
    if (!c.cursorTime)
        return;
    constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
    constexpr int kRulerHeight = TimelineGeometry::kRulerHeight;
    const TimelineGeometry &g = c.geometry;
    const double x = g.timeX(*c.cursorTime);
    if (x < kLabelWidth || x > g.width)
        return;
    // Inverted colours, so the label stands out from the ticks in both themes.
    const QColor fill = c.palette.color(QPalette::WindowText);
    const QString label = TimelineToolTip::cursorLabel(g.axis, *c.cursorTime, c.timeOrigin);
    const double w = p.fontMetrics().horizontalAdvance(label) + 10;
    const double left =
        std::clamp(x - w / 2, double(kLabelWidth), std::max<double>(kLabelWidth, g.width - w));
    p.setPen(fill);
    p.drawLine(QPointF(x, 0), QPointF(x, kRulerHeight - 1));
    const QRectF box(left, 2, w, kRulerHeight - 5);
    p.fillRect(box, fill);
    p.setPen(c.palette.color(QPalette::Window));
    p.drawText(box, Qt::AlignCenter, label);
}

} // namespace at
