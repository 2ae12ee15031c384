#include "KinetoMemory.h"

#include "KinetoGpuEvents.h"
#include "MemoryLanes.h"
#include "TraceBuilder.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace at::kineto {
namespace {

// For each allocation time (in `queries`, indices into events.allocatorEvents), the name of the innermost
// cpu_op of the same thread whose [start, end] holds it (0 when none). One sweep per thread: operators by
// start (longer first), a stack of the open ones that contain each other.
std::vector<StringId> enclosingOperators(const GpuEvents &events, const std::vector<std::size_t> &queries)
{
    std::unordered_map<LaneId, std::vector<std::size_t>, LaneIdHash> opsByLane, queriesByLane;
    for (std::size_t i = 0; i < events.cpuOps.size(); ++i)
        opsByLane[events.cpuOpLanes[events.cpuOps[i].lane]].push_back(i);
    for (std::size_t q = 0; q < queries.size(); ++q)
        queriesByLane[events.allocatorEvents[queries[q]].lane].push_back(q);
    std::vector<StringId> names(queries.size(), 0);
    for (auto &entry : queriesByLane) {
        std::vector<std::size_t> &laneQueries = entry.second;
        const auto ops = opsByLane.find(entry.first);
        if (ops == opsByLane.end())
            continue;
        std::vector<std::size_t> &laneOps = ops->second;
        std::sort(laneOps.begin(), laneOps.end(), [&](std::size_t a, std::size_t b) {
            const CpuOpEvent &x = events.cpuOps[a], &y = events.cpuOps[b];
            return x.start != y.start ? x.start < y.start : x.end > y.end;
        });
        auto timeOf = [&](std::size_t q) { return events.allocatorEvents[queries[q]].time; };
        std::stable_sort(laneQueries.begin(), laneQueries.end(),
                         [&](std::size_t a, std::size_t b) { return timeOf(a) < timeOf(b); });
        std::vector<const CpuOpEvent *> open;
        std::size_t next = 0;
        for (std::size_t q : laneQueries) {
            const TimeNs t = timeOf(q);
            for (; next < laneOps.size() && events.cpuOps[laneOps[next]].start <= t; ++next) {
                const CpuOpEvent &op = events.cpuOps[laneOps[next]];
                // An open operator that does not contain this one has ended before anything later can
                // need it (it ends before this one does).
                while (!open.empty() && open.back()->end < op.end)
                    open.pop_back();
                open.push_back(&op);
            }
            while (!open.empty() && open.back()->end < t)
                open.pop_back();
            if (!open.empty())
                names[q] = open.back()->name;
        }
    }
    return names;
}

} // namespace

QString cudaMemoryComponent()
{
    return QStringLiteral("CUDA");
}

KinetoMemoryCounts addKinetoMemory(TraceBuilder &builder, int group, const GpuEvents &events)
{
    KinetoMemoryCounts counts;
    std::vector<std::size_t> order; // the device events in time order (file order among equal times)
    for (std::size_t i = 0; i < events.allocatorEvents.size(); ++i) {
        if (events.allocatorEvents[i].deviceType == kCudaDeviceType)
            order.push_back(i);
        else
            ++counts.hostEventsLeftOut;
    }
    if (order.empty())
        return counts;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return events.allocatorEvents[a].time < events.allocatorEvents[b].time;
    });
    std::vector<std::size_t> allocationEvents;
    for (std::size_t i : order)
        if (events.allocatorEvents[i].bytes > 0)
            allocationEvents.push_back(i);
    const std::vector<StringId> operators = enclosingOperators(events, allocationEvents);

    MemoryProfile &profile = builder.memory();
    const std::size_t firstCurve = profile.curves.size();
    std::map<std::int64_t, std::size_t> curveOfDevice;
    // Open allocations by (device, address).
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> openAt;
    std::size_t nextAllocation = 0;
    for (std::size_t i : order) {
        const AllocatorEvent &e = events.allocatorEvents[i];
        const TimeNs t = events.baseTime + e.time;
        auto curve = curveOfDevice.find(e.deviceId);
        if (curve == curveOfDevice.end()) {
            MemoryCurve c;
            c.group = group;
            c.device = e.deviceId;
            c.component = cudaMemoryComponent();
            c.kind = MemoryCurveKind::Component;
            curve = curveOfDevice.emplace(e.deviceId, profile.curves.size()).first;
            profile.curves.push_back(std::move(c));
        }
        MemoryCurve &c = profile.curves[curve->second];
        c.times.push_back(t);
        c.allocated.push_back(e.totalAllocated);
        c.reserved.push_back(e.totalReserved);
        c.active.push_back(kNoBytes);
        const std::pair<std::int64_t, std::int64_t> key{e.deviceId, e.address};
        if (e.bytes > 0) {
            MemoryAllocation a;
            a.group = group;
            a.device = e.deviceId;
            a.name = operators[nextAllocation++];
            a.bytes = e.bytes;
            a.allocation = t;
            a.allocationAllocated = e.totalAllocated;
            a.allocationReserved = e.totalReserved;
            openAt[key] = profile.allocations.size(); // a block allocated twice keeps the first unreleased
            profile.allocations.push_back(a);
            ++counts.allocations;
            continue;
        }
        if (e.bytes == 0)
            continue;
        const auto open = openAt.find(key);
        if (open != openAt.end() && profile.allocations[open->second].bytes == -e.bytes) {
            MemoryAllocation &a = profile.allocations[open->second];
            a.release = t;
            a.releaseAllocated = e.totalAllocated;
            a.releaseReserved = e.totalReserved;
            openAt.erase(open);
            ++counts.paired;
            continue;
        }
        // A release whose allocation was before the trace (or of another size): never live.
        MemoryAllocation a;
        a.group = group;
        a.device = e.deviceId;
        a.bytes = e.bytes;
        a.release = t;
        a.releaseAllocated = e.totalAllocated;
        a.releaseReserved = e.totalReserved;
        profile.allocations.push_back(a);
        ++counts.releasesOnly;
    }
    counts.curves = profile.curves.size() - firstCurve;
    sortMemoryCurves(profile, firstCurve);
    addMemoryCounterLanes(builder, firstCurve);
    return counts;
}

} // namespace at::kineto
