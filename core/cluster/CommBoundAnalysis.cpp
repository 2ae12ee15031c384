#include "cluster/CommBoundAnalysis.h"

#include "Layer.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

namespace at::cluster {

namespace {

QString msText(TimeNs ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
}

// One op instance: (step, p2p, name, group) → the ranks' ops.
using InstanceKey = std::tuple<std::int64_t, bool, QString, QString>;

std::map<InstanceKey, std::vector<std::pair<int, const CommOp *>>> opInstances(const ClusterModel &model)
{
    std::map<InstanceKey, std::vector<std::pair<int, const CommOp *>>> instances;
    for (const Rank &r : model.ranks)
        for (const CommOp &op : r.ops)
            if (!op.total)
                instances[{op.step, op.p2p, op.name, op.group}].push_back({r.rank, &op});
    return instances;
}

// The instance's fast (longest op time) and slow (shortest) rank; the lower rank on a tie.
std::optional<CommBoundCandidate> candidateOf(const InstanceKey &key,
                                              const std::vector<std::pair<int, const CommOp *>> &ranks)
{
    if (ranks.size() < 2)
        return std::nullopt;
    const auto *fast = &ranks.front();
    const auto *slow = &ranks.front();
    for (const auto &entry : ranks) {
        if (entry.second->elapse > fast->second->elapse ||
            (entry.second->elapse == fast->second->elapse && entry.first < fast->first))
            fast = &entry;
        if (entry.second->elapse < slow->second->elapse ||
            (entry.second->elapse == slow->second->elapse && entry.first < slow->first))
            slow = &entry;
    }
    CommBoundCandidate c;
    std::tie(c.step, c.p2p, c.op, c.group) = key;
    c.fastRank = fast->first;
    c.slowRank = slow->first;
    c.fastElapse = fast->second->elapse;
    c.slowElapse = slow->second->elapse;
    c.fastWait = fast->second->wait;
    c.fastStart = fast->second->startAbsolute;
    c.slowStart = slow->second->startAbsolute;
    if (c.fastRank == c.slowRank ||
        static_cast<double>(c.gap()) <= kCommBoundGapShare * static_cast<double>(c.fastElapse))
        return std::nullopt;
    return c;
}

Layer layerOfThread(const TraceModel &model, int thread)
{
    const int process = model.threads()[static_cast<std::size_t>(thread)].process;
    return model.processes()[static_cast<std::size_t>(process)].layer;
}

bool inGroup(const TraceModel &model, int thread, int group)
{
    if (group < 0)
        return true;
    const int process = model.threads()[static_cast<std::size_t>(thread)].process;
    return model.processes()[static_cast<std::size_t>(process)].group == group;
}

bool isHostLayer(Layer layer)
{
    return layer == Layer::CannApi || layer == Layer::Framework;
}

bool hasHostSlices(const TraceModel &model, int group)
{
    for (std::size_t t = 0; t < model.threads().size(); ++t)
        if (inGroup(model, static_cast<int>(t), group) &&
            isHostLayer(layerOfThread(model, static_cast<int>(t))) && !model.threads()[t].slices.empty())
            return true;
    return false;
}

// The slice named `name` on a communication or device-stream lane whose start is nearest `start` (absolute).
SliceRef findOpSlice(const TraceModel &model, int group, const QString &name, TimeNs start)
{
    const StringId id = model.strings().find(name.toStdString());
    if (id == StringPool::kNotFound)
        return {};
    SliceRef best;
    TimeNs bestDistance = 0;
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const int thread = static_cast<int>(t);
        const Layer layer = layerOfThread(model, thread);
        if (!inGroup(model, thread, group) ||
            (layer != Layer::Communication && layer != Layer::DeviceStreams))
            continue;
        const SliceTable &slices = model.threads()[t].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices.name(i) != id)
                continue;
            const TimeNs distance = std::abs(model.origin() + slices.start(i) - start);
            if (!best.isValid() || distance < bestDistance) {
                best = SliceRef{thread, i};
                bestDistance = distance;
            }
        }
    }
    return best;
}

// The device stream the op's first task ran on: the op's own lane when it is a stream, else the stream lane
// of the group whose first task at or after the op's start starts earliest, within the op.
int opStream(const TraceModel &model, int group, SliceRef op)
{
    if (layerOfThread(model, op.thread) == Layer::DeviceStreams)
        return op.thread;
    const SliceTable &opLane = model.threads()[static_cast<std::size_t>(op.thread)].slices;
    const TimeNs start = opLane.start(op.index);
    const TimeNs end = opLane.end(op.index);
    int best = -1;
    TimeNs bestStart = end;
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const int thread = static_cast<int>(t);
        if (!inGroup(model, thread, group) || layerOfThread(model, thread) != Layer::DeviceStreams)
            continue;
        const SliceTable &slices = model.threads()[t].slices;
        if (slices.empty())
            continue;
        const std::uint32_t i = slices.firstStartingAtOrAfter(0, start);
        if (i < slices.depthRange(0).second && slices.start(i) <= bestStart &&
            (best < 0 || slices.start(i) < bestStart)) {
            best = thread;
            bestStart = slices.start(i);
        }
    }
    return best;
}

// When no stream runs a task of the op (kernel rows write no stream for HCCL ops): the stream of the group
// whose last task before the op ended latest, the one the op most plausibly followed.
int streamBusyLastBefore(const TraceModel &model, int group, TimeNs opStart)
{
    int best = -1;
    TimeNs bestEnd = 0;
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const int thread = static_cast<int>(t);
        if (!inGroup(model, thread, group) || layerOfThread(model, thread) != Layer::DeviceStreams)
            continue;
        const SliceTable &slices = model.threads()[t].slices;
        const std::uint32_t first = slices.depthRange(0).first;
        for (std::uint32_t i = slices.firstStartingAtOrAfter(0, opStart); i > first;) {
            --i;
            if (slices.end(i) > opStart)
                continue;
            if (best < 0 || slices.end(i) > bestEnd) {
                best = thread;
                bestEnd = slices.end(i);
            }
            break;
        }
    }
    return best;
}

// The last tasks on `stream` (depth 0) that ended by the op's start, earliest first.
std::vector<PrecedingTask> precedingTasks(const TraceModel &model, int stream, TimeNs opStart)
{
    std::vector<PrecedingTask> tasks;
    const SliceTable &slices = model.threads()[static_cast<std::size_t>(stream)].slices;
    const std::uint32_t first = slices.depthRange(0).first;
    for (std::uint32_t i = slices.firstStartingAtOrAfter(0, opStart); i > first;) {
        --i;
        if (slices.end(i) > opStart)
            continue; // the op itself, or a task still running when it started
        tasks.push_back(PrecedingTask{model.strings().qstring(slices.name(i)),
                                      model.origin() + slices.start(i), model.origin() + slices.end(i)});
        if (tasks.size() == kCommBoundPrecedingTasks)
            break;
    }
    std::reverse(tasks.begin(), tasks.end());
    return tasks;
}

// The host launch of the op: the latest source of a flow into it from a CANN API lane, else from a framework
// lane (the CANN launch is the later, closer one).
void findLaunch(const TraceModel &model, SliceRef op, RankOpEvidence &evidence)
{
    for (const Layer wanted : {Layer::CannApi, Layer::Framework}) {
        for (const std::uint32_t f : model.flowsTo(op)) {
            const FlowInfo &flow = model.flows()[f];
            if (!flow.from.isValid() || layerOfThread(model, flow.from.thread) != wanted)
                continue;
            const TimeNs launch = model.origin() + flow.fromTime;
            if (evidence.launch && *evidence.launch >= launch)
                continue;
            evidence.launch = launch;
            evidence.launchApi = model.sliceName(flow.from);
        }
        if (evidence.launch)
            return;
    }
}

// The verdict's reason when the slow rank's timeline cannot answer.
std::optional<QString> missingEvidence(const RankOpEvidence &e, const QString &op)
{
    if (!e.hasTimeline && !e.problem.isEmpty())
        return QCoreApplication::translate("Core", "rank %1's timeline could not be loaded: %2")
            .arg(e.rank)
            .arg(e.problem);
    if (!e.hasTimeline)
        return QCoreApplication::translate(
                   "Core",
                   "rank %1 has no timeline loaded (no trace_view.json or profiler database in its folder)")
            .arg(e.rank);
    if (!e.found)
        return QCoreApplication::translate("Core", "rank %1's timeline has no slice of %2")
            .arg(e.rank)
            .arg(op);
    return std::nullopt;
}

QString noHostReason(const RankOpEvidence &slow, const QString &op)
{
    if (!slow.hasHostData)
        return QCoreApplication::translate(
                   "Core",
                   "rank %1 has no host data: collect with the CPU activity (torch_npu "
                   "ProfilerActivity.CPU, MindSpeed --profile-with-cpu) to see when its host launched %2")
            .arg(slow.rank)
            .arg(op);
    return QCoreApplication::translate(
               "Core",
               "rank %1's timeline links no host launch to %2 (no HostToDevice or async_npu flow ends on it)")
        .arg(slow.rank)
        .arg(op);
}

void judgeHost(CommBoundResult &r, TimeNs hostLate)
{
    r.verdict = CommBoundVerdict::HostBound;
    r.latency = std::min(hostLate, r.op.gap());
    r.reason =
        QCoreApplication::translate(
            "Core", "host-bound: rank %1's host launched %2 (%3) %4 ms after rank %5 had arrived at the op, "
                    "while its device stream was free")
            .arg(r.slow.rank)
            .arg(r.op.op, r.slow.launchApi, msText(hostLate))
            .arg(r.fast.rank);
}

void judgeDevice(CommBoundResult &r, TimeNs deviceLate, TimeNs needed)
{
    r.verdict = CommBoundVerdict::DeviceBound;
    r.latency = std::min(deviceLate, r.op.gap());
    const PrecedingTask &task = r.slow.preceding.back();
    r.reason =
        QCoreApplication::translate(
            "Core",
            "device-bound: on rank %1 the last task before the op on %2, %3, ended %4 ms after rank %5 had "
            "arrived at the op")
            .arg(r.slow.rank)
            .arg(r.slow.stream, task.name, msText(deviceLate))
            .arg(r.fast.rank);
    if (r.slow.launch)
        r.reason +=
            QCoreApplication::translate("Core", "; the host had launched it %1 ms before that task ended")
                .arg(msText(task.end - *r.slow.launch));
    // A launch that was itself late: both sides were behind, the device the later one.
    if (r.launchAfterFastArrival && *r.launchAfterFastArrival >= needed)
        r.reason += QCoreApplication::translate(
                        "Core", ", itself %1 ms after rank %2 had arrived (the host was behind too)")
                        .arg(msText(*r.launchAfterFastArrival))
                        .arg(r.fast.rank);
    if (r.slow.streamInferred)
        r.reason +=
            QCoreApplication::translate(
                "Core", " (the op's own stream is not recorded: %1 is the stream busy last before it)")
                .arg(r.slow.stream);
}

} // namespace

TimeNs CommBoundResult::claimed() const
{
    return op.fastWait > 0 ? std::min(latency, op.fastWait) : 0;
}

QString commBoundVerdictKey(CommBoundVerdict verdict)
{
    switch (verdict) {
    case CommBoundVerdict::HostBound:
        return QStringLiteral("host_bound");
    case CommBoundVerdict::DeviceBound:
        return QStringLiteral("device_bound");
    case CommBoundVerdict::Undetermined:
        break;
    }
    return QStringLiteral("undetermined");
}

QString commBoundVerdictText(CommBoundVerdict verdict)
{
    switch (verdict) {
    case CommBoundVerdict::HostBound:
        return QCoreApplication::translate("Core", "host-bound");
    case CommBoundVerdict::DeviceBound:
        return QCoreApplication::translate("Core", "device-bound");
    case CommBoundVerdict::Undetermined:
        break;
    }
    return QCoreApplication::translate("Core", "undetermined");
}

std::vector<CommBoundCandidate> commBoundCandidates(const ClusterModel &model, int maxOps, int *withGap)
{
    std::vector<CommBoundCandidate> out;
    for (const auto &[key, ranks] : opInstances(model))
        if (std::optional<CommBoundCandidate> c = candidateOf(key, ranks))
            out.push_back(std::move(*c));
    std::stable_sort(out.begin(), out.end(), [](const CommBoundCandidate &a, const CommBoundCandidate &b) {
        return a.fastElapse > b.fastElapse;
    });
    if (withGap)
        *withGap = static_cast<int>(out.size());
    if (maxOps >= 0 && out.size() > static_cast<std::size_t>(maxOps))
        out.resize(static_cast<std::size_t>(maxOps));
    return out;
}

RankOpEvidence rankOpEvidence(const RankTimeline &timeline, int rank, const QString &op, TimeNs summaryStart)
{
    RankOpEvidence e;
    e.rank = rank;
    e.problem = timeline.problem;
    if (!timeline.model)
        return e;
    const TraceModel &model = *timeline.model;
    e.hasTimeline = true;
    e.hasHostData = hasHostSlices(model, timeline.group);
    const SliceRef slice = findOpSlice(model, timeline.group, op, summaryStart);
    if (!slice.isValid())
        return e;
    e.found = true;
    const SliceTable &lane = model.threads()[static_cast<std::size_t>(slice.thread)].slices;
    e.opStart = model.origin() + lane.start(slice.index);
    e.opEnd = model.origin() + lane.end(slice.index);
    findLaunch(model, slice, e);
    int stream = opStream(model, timeline.group, slice);
    if (stream < 0) {
        stream = streamBusyLastBefore(model, timeline.group, lane.start(slice.index));
        e.streamInferred = stream >= 0;
    }
    if (stream >= 0) {
        e.stream = model.threadDisplayName(stream);
        e.preceding = precedingTasks(model, stream, lane.start(slice.index));
    }
    return e;
}

CommBoundResult judgeCommBound(const CommBoundCandidate &op, const RankOpEvidence &fast,
                               const RankOpEvidence &slow)
{
    CommBoundResult r;
    r.op = op;
    r.fast = fast;
    r.slow = slow;
    if (std::optional<QString> missing = missingEvidence(slow, op.op)) {
        r.reason = *missing;
        return r;
    }
    if (std::optional<QString> missing = missingEvidence(fast, op.op)) {
        r.reason = *missing + QCoreApplication::translate("Core", ": its arrival is the reference");
        return r;
    }
    // The common frame: each rank's times relative to the op's end on that rank.
    const TimeNs fastArrival = fast.relative(fast.opStart);
    if (slow.launch) {
        r.launchAfterFastArrival = slow.relative(*slow.launch) - fastArrival;
        if (fast.launch)
            r.launchDifference = slow.relative(*slow.launch) - fast.relative(*fast.launch);
    }
    if (!slow.preceding.empty())
        r.deviceAfterFastArrival = slow.relative(slow.preceding.back().end) - fastArrival;
    const auto needed = static_cast<TimeNs>(kCommBoundExplainedShare * static_cast<double>(op.gap()));
    const bool launchAfterStream =
        slow.launch && (slow.preceding.empty() || *slow.launch >= slow.preceding.back().end);
    if (r.launchAfterFastArrival && *r.launchAfterFastArrival >= needed && launchAfterStream) {
        judgeHost(r, *r.launchAfterFastArrival);
        return r;
    }
    if (r.deviceAfterFastArrival && *r.deviceAfterFastArrival >= needed && !launchAfterStream) {
        judgeDevice(r, *r.deviceAfterFastArrival, needed);
        return r;
    }
    if (!slow.launch) {
        r.reason = noHostReason(slow, op.op);
        return r;
    }
    r.reason =
        QCoreApplication::translate(
            "Core",
            "neither: rank %1's host launched %2 %3 ms before rank %4 arrived and its stream %5 was free "
            "%6 ms before; the op waited on something else (e.g. an event of another stream)")
            .arg(slow.rank)
            .arg(op.op, msText(-*r.launchAfterFastArrival))
            .arg(fast.rank)
            .arg(slow.stream.isEmpty() ? QCoreApplication::translate("Core", "(none found)") : slow.stream,
                 r.deviceAfterFastArrival ? msText(-*r.deviceAfterFastArrival) : QStringLiteral("-"));
    return r;
}

CommBoundAnalysis analyseCommBound(const ClusterModel &model,
                                   const std::function<RankTimeline(int)> &timelineOf, int maxOps)
{
    CommBoundAnalysis analysis;
    analysis.maxOps = maxOps;
    const std::vector<CommBoundCandidate> candidates =
        commBoundCandidates(model, maxOps, &analysis.opsWithGap);
    // Rank by rank: each timeline is asked for once and released (when it owns its model) before the next,
    // so at most one rank's model is held at a time.
    std::map<int, std::vector<std::pair<std::size_t, bool>>> needs; // rank → (candidate, is the fast rank)
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        needs[candidates[i].fastRank].push_back({i, true});
        needs[candidates[i].slowRank].push_back({i, false});
    }
    std::vector<RankOpEvidence> fast(candidates.size()), slow(candidates.size());
    for (const auto &[rank, list] : needs) {
        const RankTimeline timeline = timelineOf(rank);
        for (const auto &need : list) {
            const CommBoundCandidate &c = candidates[need.first];
            if (need.second)
                fast[need.first] = rankOpEvidence(timeline, rank, c.op, c.fastStart);
            else
                slow[need.first] = rankOpEvidence(timeline, rank, c.op, c.slowStart);
        }
    }
    for (std::size_t i = 0; i < candidates.size(); ++i)
        analysis.ops.push_back(judgeCommBound(candidates[i], fast[i], slow[i]));
    return analysis;
}

} // namespace at::cluster
