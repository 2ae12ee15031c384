#include "OpDiffCurve.h"

#include "ChangeColors.h"
#include "ChartScale.h"
#include "NumberFormat.h"
#include "Theme.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace at {

namespace {

constexpr int kGap = 6;               // between a label and what it labels
constexpr TimeNs kFlatCurveNs = 1000; // the y extent of a curve that never leaves 0

// Room for the tick labels of both axes and their titles, from the widget's font.
struct Margins
{
    int left, top, right, bottom;
};

TimeNs largestDelta(const std::vector<OpDiffCurve::Point> &points)
{
    TimeNs largest = 0;
    for (const OpDiffCurve::Point &p : points)
        largest = std::max(largest, p.delta < 0 ? -p.delta : p.delta);
    return largest;
}

DisplayUnit tickUnit(const DisplayUnit &unit, int decimals)
{
    DisplayUnit u = unit;
    u.decimals = unit.quantity == Quantity::Duration && unit.basePerUnit == 1 ? 0 : decimals;
    return u;
}

} // namespace

OpDiffCurve::OpDiffCurve(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void OpDiffCurve::setCurve(std::vector<Point> points, TimeNs span)
{
    m_points = std::move(points);
    m_span = std::max<TimeNs>(span, m_points.empty() ? 1 : m_points.back().time);
    update();
}

void OpDiffCurve::setMarkedTime(std::optional<TimeNs> time)
{
    m_marked = time;
    update();
}

OpDiffCurve::Scale OpDiffCurve::xScale() const
{
    const DisplayUnit unit = durationUnitFor(std::max<TimeNs>(m_span, 1));
    const int intervals = std::clamp(width() / 110, 2, 10);
    const NiceScale s = niceScale(0, static_cast<double>(m_span) / unit.basePerUnit, intervals);
    return {s.min * unit.basePerUnit, s.max * unit.basePerUnit, s.step * unit.basePerUnit, s.decimals()};
}

OpDiffCurve::Scale OpDiffCurve::yScale() const
{
    TimeNs low = 0, high = 0;
    for (const Point &p : m_points) {
        low = std::min(low, p.delta);
        high = std::max(high, p.delta);
    }
    const DisplayUnit unit = yUnit();
    const int intervals = std::clamp(height() / 45, 2, 8);
    // A flat curve still gets a readable axis (0 … 1 µs), and ticks never fall between two ns.
    if (low == 0 && high == 0)
        high = kFlatCurveNs;
    if (unit.basePerUnit == 1)
        high = std::max<TimeNs>(high, low + intervals);
    const NiceScale s = niceScale(static_cast<double>(low) / unit.basePerUnit,
                                  static_cast<double>(high) / unit.basePerUnit, intervals);
    return {s.min * unit.basePerUnit, s.max * unit.basePerUnit, s.step * unit.basePerUnit, s.decimals()};
}

DisplayUnit OpDiffCurve::yUnit() const
{
    const TimeNs largest = largestDelta(m_points);
    return durationUnitFor(largest == 0 ? kFlatCurveNs : largest);
}

QRect OpDiffCurve::plotRect() const
{
    const QFontMetrics fm(font());
    const Scale y = yScale();
    const DisplayUnit yTicks = tickUnit(yUnit(), y.decimals);
    int labelWidth = 0;
    for (double v = y.min; v <= y.max + y.step / 2; v += y.step)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(formatDurationNs(std::llround(v), yTicks)));
    const int left = fm.height() + kGap + labelWidth + kGap;
    const int bottom = 2 * fm.height() + 2 * kGap;
    const int top = fm.height() + kGap;
    const int right = fm.horizontalAdvance(QStringLiteral("000.000 ms")) / 2 + kGap;
    return QRect(left, top, std::max(1, width() - left - right), std::max(1, height() - top - bottom));
}

QStringList OpDiffCurve::tickLabels(Qt::Orientation axis) const
{
    const Scale s = axis == Qt::Horizontal ? xScale() : yScale();
    const DisplayUnit unit =
        tickUnit(axis == Qt::Horizontal ? durationUnitFor(std::max<TimeNs>(m_span, 1)) : yUnit(), s.decimals);
    QStringList labels;
    for (double v = s.min; v <= s.max + s.step / 2; v += s.step)
        labels << formatDurationNs(std::llround(v), unit);
    return labels;
}

TimeNs OpDiffCurve::timeAt(int x) const
{
    const QRect plot = plotRect();
    const Scale s = xScale();
    const double f = std::clamp(static_cast<double>(x - plot.left()) / std::max(1, plot.width()), 0.0, 1.0);
    return std::llround(s.min + f * (s.max - s.min));
}

void OpDiffCurve::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette &pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm(font());
    const QRect plot = plotRect();
    const Scale xs = xScale(), ys = yScale();
    const DisplayUnit xUnit = tickUnit(durationUnitFor(std::max<TimeNs>(m_span, 1)), xs.decimals);
    const DisplayUnit yTicks = tickUnit(yUnit(), ys.decimals);
    const auto px = [&](double ns) {
        return plot.left() + (ns - xs.min) / std::max(1.0, xs.max - xs.min) * plot.width();
    };
    const auto py = [&](double ns) {
        return plot.bottom() - (ns - ys.min) / std::max(1.0, ys.max - ys.min) * plot.height();
    };
    const QColor text = pal.color(QPalette::Text);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(90);

    // Grid and tick labels.
    p.setPen(text);
    for (double v = xs.min; v <= xs.max + xs.step / 2; v += xs.step) {
        const int x = static_cast<int>(std::lround(px(v)));
        p.setPen(grid);
        p.drawLine(x, plot.top(), x, plot.bottom());
        p.setPen(text);
        const QString label = formatDurationNs(std::llround(v), xUnit);
        const int w = fm.horizontalAdvance(label);
        p.drawText(QRect(x - w / 2 - 2, plot.bottom() + kGap / 2, w + 4, fm.height()), Qt::AlignCenter,
                   label);
    }
    for (double v = ys.min; v <= ys.max + ys.step / 2; v += ys.step) {
        const int y = static_cast<int>(std::lround(py(v)));
        p.setPen(grid);
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text);
        p.drawText(QRect(0, y - fm.height() / 2, plot.left() - kGap, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, formatDurationNs(std::llround(v), yTicks));
    }
    // Axis titles.
    p.drawText(QRect(plot.left(), height() - fm.height() - kGap / 2, plot.width(), fm.height()),
               Qt::AlignCenter, tr("Base time from step start"));
    p.save();
    p.translate(kGap / 2.0, plot.center().y());
    p.rotate(-90);
    p.drawText(QRect(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignCenter,
               fm.elidedText(tr("Accumulated delta"), Qt::ElideRight, plot.height()));
    p.restore();
    p.drawText(QRect(plot.left(), 0, plot.width(), fm.height() + kGap / 2), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("Accumulated delta (comparison − base) over the base step: above zero, the "
                                "comparison is behind by that much"),
                             Qt::ElideRight, plot.width()));
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(plot.adjusted(0, 0, -1, -1));

    // Zero line.
    const int zero = static_cast<int>(std::lround(py(0)));
    p.setPen(QPen(text, 1));
    p.drawLine(plot.left(), zero, plot.right(), zero);

    if (m_points.empty()) {
        p.drawText(plot, Qt::AlignCenter, tr("No matched ops"));
        return;
    }
    // The running sum holds between ops: a step line. Per pixel column only its extremes and last value
    // are drawn, so 100,000 ops cost as much as the widget is wide.
    QPainterPath path;
    path.moveTo(px(0), py(0));
    double lastY = py(0);
    int column = std::numeric_limits<int>::min();
    double low = 0, high = 0;
    const auto flush = [&] {
        if (column == std::numeric_limits<int>::min())
            return;
        path.lineTo(column, low);
        path.lineTo(column, high);
        path.lineTo(column, lastY);
    };
    for (const Point &pt : m_points) {
        const int x = static_cast<int>(std::lround(px(static_cast<double>(pt.time))));
        const double y = py(static_cast<double>(pt.delta));
        if (x != column) {
            flush();
            path.lineTo(x, lastY);
            column = x;
            low = high = lastY;
        }
        low = std::min(low, y);
        high = std::max(high, y);
        lastY = y;
    }
    flush();
    path.lineTo(px(static_cast<double>(m_span)), lastY);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setClipRect(plot);
    const TimeNs final = m_points.back().delta;
    p.setPen(QPen(final > 0 ? durationChangeScale(0.8) : final < 0 ? durationChangeScale(-0.8) : text, 2));
    p.drawPath(path);
    if (m_marked) {
        const int x = static_cast<int>(std::lround(px(static_cast<double>(*m_marked))));
        p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DashLine));
        p.drawLine(x, plot.top(), x, plot.bottom());
    }
}

void OpDiffCurve::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && plotRect().contains(event->position().toPoint()))
        Q_EMIT timeClicked(timeAt(event->position().toPoint().x()));
    QWidget::mousePressEvent(event);
}

void OpDiffCurve::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        update();
    QWidget::changeEvent(event);
}

} // namespace at
