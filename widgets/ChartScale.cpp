#include "ChartScale.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace at {

namespace {

// The digits after the point that a 1-2-5 × 10^k step needs: 0 for k ≥ 0, -k below.
int decimalsOf(double step)
{
    if (!(step > 0) || !std::isfinite(step))
        return 0;
    const double exponent = std::floor(std::log10(step) + 1e-9);
    return static_cast<int>(std::clamp(-exponent, 0.0, 15.0));
}

// low / step, with the floating-point noise of the division removed (relative to its size: 1.7e18 / 5e6
// is off by more than any fixed epsilon).
double stepsIn(double value, double step)
{
    const double n = value / step;
    const double whole = std::round(n);
    return std::abs(n - whole) <= std::max(1e-9, 64 * std::numeric_limits<double>::epsilon() * std::abs(n))
               ? whole
               : n;
}

// Bounds on multiples of step.
double snapDown(double value, double step)
{
    return std::floor(stepsIn(value, step)) * step;
}

double snapUp(double value, double step)
{
    return std::ceil(stepsIn(value, step)) * step;
}

} // namespace

int NiceScale::intervals() const
{
    return step > 0 ? static_cast<int>(std::lround((max - min) / step)) : 0;
}

int NiceScale::decimals() const
{
    return decimalsOf(step);
}

NiceScale niceScale(double low, double high, int maxIntervals)
{
    if (!std::isfinite(low) || !std::isfinite(high))
        return {};
    if (low > high)
        std::swap(low, high);
    // Keep high - low and the snapped bounds finite.
    constexpr double kLargest = std::numeric_limits<double>::max() / 8;
    low = std::max(low, -kLargest);
    high = std::min(high, kLargest);
    if (high - low <= std::abs(high) * 1e-12) { // one value: a span around it
        const double pad = low == 0 ? 0.5 : std::abs(low) * 0.1;
        low = low == 0 ? 0 : low - pad;
        high = high == 0 ? 1 : high + pad;
    }
    maxIntervals = std::max(1, maxIntervals);
    const double raw = (high - low) / maxIntervals;
    double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    // Walk the 1-2-5 steps up from the magnitude until the snapped bounds need at most maxIntervals.
    for (int guard = 0; guard < 40; ++guard) {
        for (double mantissa : {1.0, 2.0, 5.0}) {
            const double step = mantissa * magnitude; // a step below raw needs too many intervals
            NiceScale scale{snapDown(low, step), snapUp(high, step), step};
            if (scale.intervals() <= maxIntervals && std::isfinite(scale.max) && std::isfinite(scale.min))
                return scale;
        }
        magnitude *= 10;
    }
    return {low, high, high - low};
}

void applyNiceScale(QValueAxis *axis, double low, double high, int maxIntervals)
{
    const NiceScale scale = niceScale(low, high, maxIntervals);
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(scale.min, scale.max);
    axis->setTickCount(scale.intervals() + 1);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(scale.decimals()));
}

void setRangeWithRoundTicks(QValueAxis *axis, double min, double max, int maxIntervals)
{
    const NiceScale scale = niceScale(min, max, maxIntervals);
    // Fixed ticks while the range changes, then the new step.
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(min, max);
    axis->setTickAnchor(0);
    axis->setTickInterval(scale.step);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(scale.decimals()));
    axis->setTickType(QValueAxis::TicksDynamic);
}

} // namespace at
