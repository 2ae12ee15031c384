#pragma once

#include "Time.h"

#include <QVariant>

namespace at {

// A duration cell of the table models: formatted text to show, the raw ns to sort by.
inline QVariant durationCell(TimeNs ns, bool forSorting)
{
    return forSorting ? QVariant::fromValue<qlonglong>(ns) : QVariant(formatDuration(ns));
}

} // namespace at
