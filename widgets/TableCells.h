#pragma once

#include "NumberFormat.h"
#include "TableExport.h"
#include "Time.h"

#include <QVariant>

#include <algorithm>

namespace at {

// A duration cell of the table models: the raw ns to sort by (sortRole), the exact text the CSV export has
// always written (kExportTextRole), and the display text in the column's unit (Qt::DisplayRole). Any other
// role is empty.
inline QVariant durationCell(TimeNs ns, int role, int sortRole, const DisplayUnit &unit)
{
    if (role == sortRole)
        return QVariant::fromValue<qlonglong>(ns);
    if (role == kExportTextRole)
        return formatDuration(ns);
    if (role == Qt::DisplayRole)
        return formatDurationNs(ns, unit);
    return {};
}

// The same for a position on the time axis (a Start column): at least µs resolution.
inline QVariant timePointCell(TimeNs ns, int role, int sortRole, const DisplayUnit &unit)
{
    if (role == sortRole)
        return QVariant::fromValue<qlonglong>(ns);
    if (role == kExportTextRole)
        return formatDuration(ns);
    if (role == Qt::DisplayRole)
        return formatTimePointNs(ns, unit);
    return {};
}

// The roles a numeric cell answers (display, sort, export): models pass others on to their own handling.
inline bool isValueRole(int role, int sortRole)
{
    return role == Qt::DisplayRole || role == sortRole || role == kExportTextRole;
}

// The largest |value(row)| over `rows`, for durationUnitFor / timePointUnitFor / bytesUnitFor: a column's
// unit is picked once from all its values.
template <class Rows, class Value> auto largestMagnitude(const Rows &rows, Value value)
{
    using T = std::decay_t<decltype(value(*std::begin(rows)))>;
    T largest{};
    for (const auto &row : rows) {
        const T v = value(row);
        largest = std::max(largest, v < T{} ? T{} - v : v);
    }
    return largest;
}

} // namespace at
