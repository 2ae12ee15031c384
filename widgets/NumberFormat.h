#pragma once

#include "Time.h"

#include <QString>

namespace at {

// The one number formatter of the window (tables, details, charts' labels, tooltips; exports keep raw
// values and do not use it). Every text it makes has the locale's thousands separators, never an exponent
// and never a float artefact, and ends in its unit after a space ("%" sticks to the number).
//
// A column (or a chart axis) reads in one unit: pick it once from the column's largest magnitude
// (durationUnitFor, bytesUnitFor, ...) and format every cell in it (formatDurationNs(ns, unit), ...).
// A single value (Details, a tooltip) uses the overloads without a unit: the unit of its own magnitude,
// which is the unit a column whose largest value it is would pick, so both read the same.

enum class Quantity
{
    Plain,    // a count, a ratio, a metric in its own unit: not scaled
    Duration, // base unit: ns
    Bytes     // base unit: byte; KB/MB/GB/TB are powers of 1,024 (as the profiler's "MB" columns are)
};

// The unit values are shown in. Copy and change `decimals` for coarser labels (a chart's round ticks).
struct DisplayUnit
{
    Quantity quantity = Quantity::Plain;
    QString symbol;         // "ms", "MB", "GB/s", "%" or empty
    double basePerUnit = 1; // ns or bytes in one shown unit (1 for Plain)
    // Digits after the decimal point: always written for durations and sizes (a column's digits align); for
    // Plain the most written, trailing zeros dropped (a count stays "32", a ratio reads "0.5").
    int decimals = 0;
    bool operator==(const DisplayUnit &) const = default;
};

// Durations: ns (0 decimals), µs, ms or s (3 decimals), the largest unit in which the largest |value| still
// reads at least 1 (after rounding: 999,999,999 ns reads "1.000 s").
DisplayUnit durationUnitFor(TimeNs largestAbsNs);
// Positions on the time axis (a Start column): the same units with at least µs resolution (s has 6 decimals).
DisplayUnit timePointUnitFor(TimeNs largestAbsNs);
// Sizes: B (0 decimals), KB, MB, GB or TB (2 decimals), as durationUnitFor with powers of 1,024.
DisplayUnit bytesUnitFor(double largestAbsBytes);
// A column of values written in `rawUnit` ("us", "ms", "MB", "KB", "B", "GB/s", "%", "" ...): durations and
// sizes are scaled as above, any other unit is kept with up to three decimals.
DisplayUnit columnUnitFor(const QString &rawUnit, double largestAbsRaw);

// What one `rawUnit` is in its base unit: "us" → {Duration, 1000}, "MB" → {Bytes, 1048576}, "%" → {Plain, 1}.
struct RawUnit
{
    Quantity quantity = Quantity::Plain;
    double toBase = 1;
};
RawUnit rawUnitOf(const QString &rawUnit);

// int64 ns, exact: the digits shown are the value rounded half away from zero, never through a double.
QString formatDurationNs(TimeNs ns, const DisplayUnit &unit);
QString formatDurationNs(TimeNs ns); // in durationUnitFor(|ns|)
QString formatTimePointNs(TimeNs ns, const DisplayUnit &unit);
QString formatTimePointNs(TimeNs ns); // in timePointUnitFor(|ns|)
QString formatBytes(double bytes, const DisplayUnit &unit);
QString formatBytes(double bytes); // in bytesUnitFor(|bytes|)
// A cell of a columnUnitFor(rawUnit, ...) column; NaN reads as an empty text.
QString formatInUnit(double raw, const QString &rawUnit, const DisplayUnit &unit);

// A metric or counter value: a duration or size unit scales it as formatDurationNs / formatBytes of its own
// magnitude; any other unit ("GB/s", "%") keeps it, with at most three decimals, trailing zeros dropped
// ("3,238,200", not "3.2382e+06"; "0.123%"). NaN reads as an empty text.
QString formatNumber(double value, const QString &unit = {});
// Integers: "12,221,997".
QString formatCount(qint64 count);
// A share already in percent: "35.6%" (fixed decimals).
QString formatPercent(double percent, int decimals = 1);
// A column header or axis title with its unit: "Duration (ms)".
QString titleWithUnit(const QString &title, const DisplayUnit &unit);

} // namespace at
