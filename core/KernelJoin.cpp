#include "KernelJoin.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace at {
namespace {

constexpr TimeNs kExactTolerance = 2;
constexpr TimeNs kNearTolerance = 1000;

struct GroupSlices
{
    std::map<std::int64_t, int> streamThread; // stream id -> device thread
    std::vector<int> candidateThreads;        // device streams + communication
};

std::vector<GroupSlices> indexGroups(const TraceModel &model)
{
    std::vector<GroupSlices> groups(std::max<std::size_t>(1, model.groups().size()));
    for (const ProcessInfo &p : model.processes()) {
        if (p.layer != Layer::DeviceStreams && p.layer != Layer::Communication && p.layer != Layer::AiCpu)
            continue;
        GroupSlices &g = groups[static_cast<std::size_t>(p.group)];
        for (int t : p.threads) {
            g.candidateThreads.push_back(t);
            const ThreadInfo &thread = model.threads()[static_cast<std::size_t>(t)];
            if (p.layer == Layer::DeviceStreams && thread.tid.text == 0)
                g.streamThread.emplace(thread.tid.number, t);
        }
    }
    // A trace without process names (e.g. sanitised msprof JSON) has no recognised device layer:
    // then any numeric tid of an unnamed / unknown process may be a stream.
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (!groups[g].streamThread.empty())
            continue;
        for (const ProcessInfo &p : model.processes()) {
            if (p.group != static_cast<int>(g) || p.layer != Layer::Other)
                continue;
            for (int t : p.threads) {
                const ThreadInfo &thread = model.threads()[static_cast<std::size_t>(t)];
                groups[g].candidateThreads.push_back(t);
                if (thread.tid.text == 0)
                    groups[g].streamThread.emplace(thread.tid.number, t);
            }
        }
    }
    return groups;
}

// Slices on a thread whose start lies within [t - tolerance, t + tolerance], all depths.
std::vector<SliceRef> slicesStartingNear(const TraceModel &model, int thread, TimeNs t, TimeNs tolerance)
{
    std::vector<SliceRef> result;
    const SliceTable &table = model.threads()[static_cast<std::size_t>(thread)].slices;
    for (int d = 0; d < table.depthCount(); ++d) {
        const auto last = table.depthRange(d).second;
        for (auto i = table.firstStartingAtOrAfter(d, t - tolerance);
             i < last && table.start(i) <= t + tolerance; ++i)
            result.push_back({thread, i});
    }
    return result;
}

// Whether the slice's task ids (as its reader decoded them) name the row's task: task id, and subtask id
// vs Context ID. Ids the reader does not know match any row.
bool idsMatchTask(const TraceModel &model, SliceRef ref, const KernelRecord &row)
{
    const TaskIds ids = model.sliceTaskIds(ref).value_or(TaskIds{});
    if (ids.taskId != TaskIds::kNone && row.taskId != KernelRecord::kNone && ids.taskId != row.taskId)
        return false;
    return row.contextId == KernelRecord::kNone || ids.subtaskId == TaskIds::kNone ||
           ids.subtaskId == row.contextId;
}

} // namespace

KernelJoinStats joinKernels(const TraceModel &model, KernelTable &table)
{
    KernelJoinStats stats;
    const std::vector<GroupSlices> groups = indexGroups(model);
    std::unordered_set<std::uint64_t> used;
    auto take = [&](KernelRecord &row, SliceRef ref) {
        row.thread = ref.thread;
        row.slice = ref.index;
        used.insert(sliceKey(ref));
    };
    auto isFree = [&](SliceRef ref) { return !used.count(sliceKey(ref)); };
    auto sameName = [&](SliceRef ref, const KernelRecord &row) {
        return row.name == 0 ||
               model.threads()[static_cast<std::size_t>(ref.thread)].slices.name(ref.index) == row.name;
    };

    for (std::size_t r = 0; r < table.size(); ++r) {
        KernelRecord &row = table.row(r);
        row.thread = -1;
        if (row.group < 0 || static_cast<std::size_t>(row.group) >= groups.size())
            continue;
        const GroupSlices &g = groups[static_cast<std::size_t>(row.group)];
        const auto stream =
            row.streamId == KernelRecord::kNone ? g.streamThread.end() : g.streamThread.find(row.streamId);
        if (stream != g.streamThread.end()) {
            std::vector<SliceRef> candidates =
                slicesStartingNear(model, stream->second, row.start, kExactTolerance);
            candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                            [&](SliceRef c) { return !isFree(c) || !sameName(c, row); }),
                             candidates.end());
            if (candidates.size() > 1) {
                // (stream, task) repeats and several tasks may share a start: ask the task ids.
                auto match = std::find_if(candidates.begin(), candidates.end(),
                                          [&](SliceRef c) { return idsMatchTask(model, c, row); });
                if (match != candidates.end())
                    candidates = {*match};
            }
            if (!candidates.empty()) {
                take(row, candidates.front());
                ++stats.byTaskKey;
                continue;
            }
        }
        // Rows without ids, and compute rows whose stream has no exact start.
        const std::vector<int> streamOnly = stream != g.streamThread.end() && row.name == 0
                                                ? std::vector<int>{stream->second}
                                                : std::vector<int>{};
        const std::vector<int> &threads = streamOnly.empty() ? g.candidateThreads : streamOnly;
        SliceRef best;
        TimeNs bestDistance = kExactTolerance + 1;
        for (int t : threads)
            for (SliceRef c : slicesStartingNear(model, t, row.start, kExactTolerance)) {
                const TimeNs distance =
                    std::abs(model.threads()[static_cast<std::size_t>(t)].slices.start(c.index) - row.start);
                if (isFree(c) && sameName(c, row) && distance < bestDistance) {
                    best = c;
                    bestDistance = distance;
                }
            }
        if (best.isValid()) {
            take(row, best);
            ++stats.byNameAndTime;
            continue;
        }
        if (stream != g.streamThread.end()) {
            TimeNs nearestDistance = kNearTolerance + 1;
            for (SliceRef c : slicesStartingNear(model, stream->second, row.start, kNearTolerance)) {
                const TimeNs distance = std::abs(
                    model.threads()[static_cast<std::size_t>(c.thread)].slices.start(c.index) - row.start);
                if (isFree(c) && sameName(c, row) && distance < nearestDistance) {
                    best = c;
                    nearestDistance = distance;
                }
            }
            if (best.isValid()) {
                take(row, best);
                ++stats.nearest;
                continue;
            }
        }
        ++stats.unjoined;
    }
    table.rebuildSliceIndex();
    return stats;
}

} // namespace at
