#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <string_view>

namespace at {

// Every timestamp and duration in the model is int64 nanoseconds. Absolute epoch microseconds
// (~1.7e15) do not fit a double with ns precision, so times are parsed from their decimal text.
using TimeNs = std::int64_t;

enum class FractionRounding
{
    Truncate, // timestamps: digits beyond ns are dropped (as torch_npu does)
    HalfUp    // durations: round on the 4th fractional digit
};

// Parses a decimal microsecond text ("1736408883694795.840", "145.57", "-3", "1.5e3", " 12.0\t")
// into nanoseconds. Surrounding quotes/whitespace/TABs are ignored. Returns nullopt for text
// that is not a finite number or overflows int64 ns.
std::optional<TimeNs> parseMicrosToNs(std::string_view text,
                                      FractionRounding rounding = FractionRounding::Truncate);

// Parses an integer text (optionally signed, optionally quoted). Fractions are truncated.
std::optional<std::int64_t> parseInt64(std::string_view text);

// "1.234 ms", "15 ns", "2.500 s": the unit adapts to the magnitude.
QString formatDuration(TimeNs ns, int precision = 3);
// Absolute epoch ns as the microsecond text the profiler writes: "1736408883694795.840".
QString formatAbsoluteMicros(TimeNs absoluteNs);

} // namespace at
