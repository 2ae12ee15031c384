#pragma once
// The one place that turns exact int64 ns into µs text (the command line's JSON and text, the cluster
// page, the Insights findings, the memory tables). Never goes through a double, so epoch ns
// (1736408883573957920) keep every digit.

#include "Time.h"

#include <QString>

namespace at {

enum class MicrosDecimals
{
    Trimmed, // "231290.1", "0.25", "-3", "1736408883573957.92": up to 3 decimals, trailing zeros dropped
    Three    // "231290.100", "0.250", "-3.000": always 3 decimals (the profiler's own timestamps)
};

// ns as exact µs text, negative with a leading minus; every int64 (INT64_MIN included) is exact.
QString microsText(TimeNs ns, MicrosDecimals decimals = MicrosDecimals::Trimmed);

} // namespace at
