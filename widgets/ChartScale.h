#pragma once
// Round axis ticks for the charts (issue #28: "850.7 / 638.0" reads worse than "800 / 600"): a step of
// 1, 2 or 5 × 10^k and bounds on multiples of it, so every tick label is a short round number.

class QValueAxis;

namespace at {

// The smallest chart that still reads (title, axis titles and labels, a legend row) without Qt Charts
// eliding its texts to "…": chart views ask for this much (minimumSize), so a small dock grows to it.
inline constexpr int kReadableChartWidth = 320;
inline constexpr int kReadableChartHeight = 240;

struct NiceScale
{
    double min = 0;
    double max = 1;
    double step = 0.2;
    int intervals() const; // (max - min) / step
    int decimals() const;  // the digits after the point a tick label needs (0 for steps ≥ 1)
};

// The smallest 1-2-5 step giving at most maxIntervals intervals over [low, high], the bounds widened to
// multiples of it. An empty or inverted span is widened around its value (0 → [0, 1]); non-finite input
// gives [0, 1].
NiceScale niceScale(double low, double high, int maxIntervals = 5);

// Sets a value axis to niceScale(low, high, maxIntervals): its range, tick count and label format.
void applyNiceScale(QValueAxis *axis, double low, double high, int maxIntervals = 5);

// Round ticks on an axis that shows exactly [min, max] (a time axis following the timeline): ticks at
// multiples of a 1-2-5 step anchored at 0. Sets the range too: the step must change with it (an old,
// small step over a new, wide range would make the axis build millions of ticks).
void setRangeWithRoundTicks(QValueAxis *axis, double min, double max, int maxIntervals = 6);

} // namespace at
