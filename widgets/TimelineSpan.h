#pragma once

// A time span marked over some lanes of the timeline (a memory allocation's lifetime): a translucent
// band across the rows of the given processes and threads with a label (SpanPass).

#include "Time.h"
#include "TraceModel.h"

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

// The rank (source group) whose times the span is in: its first process's, else its first thread's (-1 when
// it names none). With ranks aligned the span is drawn with that rank's offset, like its lanes.
inline int groupOfSpan(const TraceModel &model, const TimelineSpan &span)
{
    const auto &processes = model.processes();
    int process = span.processes.empty() ? -1 : span.processes.front();
    if (process < 0 && !span.threads.empty() && span.threads.front() >= 0 &&
        static_cast<std::size_t>(span.threads.front()) < model.threads().size())
        process = model.threads()[static_cast<std::size_t>(span.threads.front())].process;
    return process >= 0 && static_cast<std::size_t>(process) < processes.size()
               ? processes[static_cast<std::size_t>(process)].group
               : -1;
}

} // namespace at
