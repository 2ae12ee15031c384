#pragma once
// The one place that turns exact int64 ns into µs text (the command line's JSON and text, the cluster
// page, the Insights findings, the memory tables). Never goes through a double, so epoch ns
// (1736408883573957920) keep every digit.

#include "Time.h"

#include <QString>

#include <array>
#include <string_view>

namespace at {

enum class MicrosDecimals
{
    Trimmed, // "231290.1", "0.25", "-3", "1736408883573957.92": up to 3 decimals, trailing zeros dropped
    Three    // "231290.100", "0.250", "-3.000": always 3 decimals (the profiler's own timestamps)
};

// ns as exact µs text, negative with a leading minus; every int64 (INT64_MIN included) is exact.
QString microsText(TimeNs ns, MicrosDecimals decimals = MicrosDecimals::Trimmed);
// The same characters written into buffer (the view points into it), for a writer that appends them
// without a QString of its own (core/JsonWriter).
std::string_view microsChars(TimeNs ns, std::array<char, 32> &buffer,
                             MicrosDecimals decimals = MicrosDecimals::Trimmed);

// ns as a duration for people to read (core's findings and overview texts): the unit of its magnitude (ns
// with no decimals; µs, ms or s with 3, chosen after rounding so 999,999,999 ns reads "1.000 s"), the
// locale's thousands separators, rounded half away from zero in integers. The same text as the window's
// formatDurationNs(ns) (widgets/NumberFormat; tests/insights/tst_finding_text checks they agree).
QString durationText(TimeNs ns);

} // namespace at
