#pragma once

#include "TraceModel.h"

#include <map>
#include <utility>
#include <vector>

namespace at {

// Queue depth of a device stream over time: tasks the host has launched (the HostToDevice / async flow's
// source time, from a CANN API or framework slice) that have not started yet. A step series (time, depth
// from that time on, 0 before the first point), one point per change, sorted by time; a task launched
// and started at the same time is never queued.
using QueueDepthSeries = std::vector<std::pair<TimeNs, int>>;

// The series of every device stream (thread index → series) that has at least one launch flow: one pass
// over the flows and a sort per stream. TraceBuilder::build() draws them as counter lanes; the
// idle_attribution insight reports their maximum.
std::map<int, QueueDepthSeries> streamQueueDepths(const TraceModel &model);

// One stream's series (empty when it has no launch flow).
QueueDepthSeries streamQueueDepth(const TraceModel &model, int thread);

} // namespace at
