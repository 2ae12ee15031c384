#pragma once

// A time span marked over some lanes of the timeline (a memory allocation's lifetime): a translucent
// band across the rows of the given processes and threads with a label (SpanPass).

#include "Time.h"

#include <QString>

#include <vector>

namespace at {

struct TimelineSpan
{
    TimeNs begin = 0, end = 0;  // relative to the model origin, like every timeline time
    std::vector<int> processes; // every row of these processes (header, threads, counters)
    std::vector<int> threads;   // these thread rows (their process header when it is collapsed)
    QString label;              // "aten::mm · 147456.5 KB · 10.923 ms"
};

} // namespace at
