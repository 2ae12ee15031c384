#pragma once
// Checked and saturating arithmetic on nanosecond times, shared by every reader and analysis.
//
// A profile's times fit in ±2^62 ns (±146 years around 1970): the timeline builder drops events beyond
// that, because times are subtracted from each other (origin, median, spans) and a wider value overflows
// int64. Sums of durations read from files (an op's elapse, a stage's compute time) are checked against
// the same limit, so a file holding 4e12 ms per op is rejected with a warning instead of wrapping to a
// negative total.

#include "Time.h"

#include <limits>
#include <optional>

namespace at {

// The largest magnitude a time or a sum of times may have in a profile.
inline constexpr TimeNs kProfileTimeLimit = TimeNs(1) << 62;

constexpr bool withinProfileRange(TimeNs t)
{
    return t > -kProfileTimeLimit && t < kProfileTimeLimit;
}

// a + b, or nullopt when it overflows int64 or leaves the profile's range.
constexpr std::optional<TimeNs> checkedAdd(TimeNs a, TimeNs b)
{
    TimeNs sum = 0;
    if (__builtin_add_overflow(a, b, &sum) || !withinProfileRange(sum))
        return std::nullopt;
    return sum;
}

// a + b, clamped at the int64 ends instead of overflowing (totals that may legitimately run out of range,
// e.g. slices from an outlier ts = 0 to the end of an epoch-clock trace).
constexpr TimeNs saturatingAdd(TimeNs a, TimeNs b)
{
    TimeNs sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return b > 0 ? std::numeric_limits<TimeNs>::max() : std::numeric_limits<TimeNs>::min();
    return sum;
}

constexpr TimeNs saturatingSubtract(TimeNs a, TimeNs b)
{
    TimeNs difference = 0;
    if (__builtin_sub_overflow(a, b, &difference))
        return b > 0 ? std::numeric_limits<TimeNs>::min() : std::numeric_limits<TimeNs>::max();
    return difference;
}

} // namespace at
