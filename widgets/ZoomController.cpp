#include "ZoomController.h"

#include <cmath>

namespace at {

namespace {
// Key auto-repeat zooms many times a second; one history entry per burst is what users expect.
constexpr qint64 kHistoryCoalesceMs = 600;
} // namespace

ZoomController::ZoomController(QObject *parent) : QObject(parent) {}

void ZoomController::setDataRange(TimeRange range)
{
    if (range.width() <= 0)
        range.end = range.start + 1000;
    m_data = range;
    m_history.clear();
    setRange(range, false);
}

TimeRange ZoomController::clamp(TimeRange r) const
{
    // Allow some slack around the data, but never lose it off-screen entirely.
    const TimeNs slack = std::max<TimeNs>(m_data.width(), 1000);
    const TimeNs maxWidth = m_data.width() + 2 * slack;
    TimeNs width = std::clamp(r.width(), kMinimumWidth, maxWidth);
    TimeNs start = r.start;
    start = std::clamp(start, m_data.start - slack, m_data.end + slack - width);
    return {start, start + width};
}

void ZoomController::setRange(TimeRange range, bool recordHistory)
{
    apply(range, recordHistory, false);
}

void ZoomController::apply(TimeRange range, bool recordHistory, bool isStep)
{
    const TimeRange clamped = clamp(range);
    if (clamped == m_range)
        return;
    if (recordHistory)
        remember(isStep);
    m_range = clamped;
    Q_EMIT rangeChanged(m_range);
}

void ZoomController::remember(bool isStep)
{
    // Consecutive zoom steps (key auto-repeat, wheel) form one history entry.
    const bool continuesBurst = isStep && m_lastStep.isValid() && m_lastStep.elapsed() < kHistoryCoalesceMs;
    if (isStep)
        m_lastStep.restart();
    else
        m_lastStep.invalidate();
    if (!continuesBurst)
        m_history.push_back(m_range);
}

void ZoomController::zoom(double factor, TimeNs anchor)
{
    if (factor <= 0)
        return;
    const double width = static_cast<double>(m_range.width());
    const double newWidth = std::max<double>(kMinimumWidth, width / factor);
    const double anchorFraction = width > 0 ? static_cast<double>(anchor - m_range.start) / width : 0.5;
    const TimeNs start = anchor - static_cast<TimeNs>(std::llround(anchorFraction * newWidth));
    apply({start, start + static_cast<TimeNs>(std::llround(newWidth))}, true, true);
}

void ZoomController::pan(double fraction)
{
    panBy(static_cast<TimeNs>(std::llround(fraction * static_cast<double>(m_range.width()))));
}

void ZoomController::panBy(TimeNs delta)
{
    setRange({m_range.start + delta, m_range.end + delta}, false);
}

void ZoomController::showAll()
{
    setRange(m_data, true);
}

void ZoomController::fit(TimeRange range)
{
    const TimeNs margin = std::max<TimeNs>(range.width() / 10, 10);
    setRange({range.start - margin, range.end + margin}, true);
}

void ZoomController::undo()
{
    if (m_history.empty())
        return;
    const TimeRange previous = m_history.back();
    m_history.pop_back();
    m_lastStep.invalidate();
    const TimeRange clamped = clamp(previous);
    if (clamped != m_range) {
        m_range = clamped;
        Q_EMIT rangeChanged(m_range);
    }
}

} // namespace at
