#pragma once
// A rank's peak reserved memory as the cluster page needs it (FORMATS.md §9.5): the memory readers' "peaks
// only" mode (memory/MemoryTablesReader.h for the CSVs, sqlite/DbMemoryReader.h for a database) finds it
// without building any curve.

#include "Time.h"

#include <QString>

#include <cstdint>

namespace at {

struct ReservedPeak
{
    std::int64_t bytes = 0;
    TimeNs time = 0;   // absolute, as the file wrote it
    QString component; // the component (or module) of the peak row
};

} // namespace at
