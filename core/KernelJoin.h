#pragma once

#include "KernelTable.h"
#include "TraceModel.h"

namespace at {

struct KernelJoinStats
{
    std::size_t byTaskKey = 0;     // stream + start (+ task id when ambiguous)
    std::size_t byNameAndTime = 0; // communication rows, Level0 rows without ids
    std::size_t nearest = 0;       // same stream and name within 1 µs
    std::size_t unjoined = 0;
};

// Joins each summary row to its device task slice (FORMATS.md §3.11): compute rows by
// (stream, start ± 2 ns), disambiguated by the task / subtask ids the slice's reader decoded
// (EventArgsReader::taskIds);
// rows without ids (communication, Level0) by (name, start ± 2 ns) among the group's device
// stream and communication slices; else the nearest slice of the same name on the stream within
// 1 µs. A slice is joined to at most one row. Row times must already be relative to the origin.
KernelJoinStats joinKernels(const TraceModel &model, KernelTable &table);

} // namespace at
