#pragma once

#include "Time.h"

#include <algorithm>
#include <cmath>

namespace at {

// A visible time range in ns (relative to the model origin).
struct TimeRange
{
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs width() const { return end - start; }
    TimeNs center() const { return start + width() / 2; }
    friend bool operator==(const TimeRange &, const TimeRange &) = default;
};

// Maps between time and pixels for a view of a given width. A copyable value type (as hotspot's
// TimeLineDelegate mapping) so it can be unit-tested without painting.
class TimeAxis
{
public:
    TimeAxis() = default;
    TimeAxis(TimeRange range, double pixelWidth) : m_range(range), m_width(std::max(1.0, pixelWidth)) {}

    const TimeRange &range() const { return m_range; }
    double pixelWidth() const { return m_width; }
    double nsPerPixel() const { return static_cast<double>(std::max<TimeNs>(1, m_range.width())) / m_width; }

    double toPixel(TimeNs t) const { return static_cast<double>(t - m_range.start) / nsPerPixel(); }
    TimeNs toTime(double x) const
    {
        return m_range.start + static_cast<TimeNs>(std::llround(x * nsPerPixel()));
    }

private:
    TimeRange m_range;
    double m_width = 1;
};

// Ruler ticks: a 1/2/5 x 10^k ns step giving at least minPixels between labelled ticks.
TimeNs rulerStep(const TimeAxis &axis, double minPixels);

} // namespace at
