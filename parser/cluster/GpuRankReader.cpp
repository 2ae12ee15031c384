#include "cluster/GpuRankReader.h"

#include "Time.h"
#include "cluster/JsonTree.h"
#include "common/Decompress.h"
#include "folder/KinetoTraces.h"
#include "folder/NamePatterns.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <atomic>
#include <climits>
#include <limits>
#include <map>
#include <thread>
#include <unordered_map>
#include <vector>

namespace at::cluster {

namespace {

struct Interval
{
    TimeNs start = 0, end = 0;
};

// A host step: ProfilerStep#N (a user_annotation, a cpu_op in old traces; FORMATS.md §10.8).
struct HostStep
{
    std::int64_t number = kNoStep;
    TimeNs start = 0, end = 0;
    TimeNs deviceStart = 0, deviceEnd = 0; // widened to the device work it launched
};

enum class GpuKind
{
    Compute,       // kernels other than NCCL's
    Communication, // NCCL kernels
    Memory         // gpu_memcpy, gpu_memset: neither (as MEMCPY_ASYNC on Ascend, FORMATS.md §9.2)
};

struct GpuEvent
{
    GpuKind kind = GpuKind::Compute;
    TimeNs start = 0, end = 0;
    std::int64_t correlation = -1;
    std::string name;
    std::string processGroup; // NCCL kernels' "Process Group Name", when libkineto copied it
};

// HTA's communication kernels (FORMATS.md §10.9, §10.11): ^nccl, .*ncclKernel, ^hccl.
bool isCommunicationKernel(const std::string &name)
{
    return name.rfind("nccl", 0) == 0 || name.rfind("hccl", 0) == 0 ||
           name.find("ncclKernel") != std::string::npos;
}

std::optional<TimeNs> micros(const JsonNode &node)
{
    if (node.type != JsonNode::Type::Number && node.type != JsonNode::Type::String)
        return std::nullopt;
    return parseMicrosToNs(node.text);
}

std::int64_t integer(const JsonNode &node, std::int64_t fallback = -1)
{
    if (node.type != JsonNode::Type::Number && node.type != JsonNode::Type::String)
        return fallback;
    return parseInt64(node.text).value_or(fallback);
}

// Sorted, disjoint intervals covering the same time as `intervals`.
std::vector<Interval> unionOf(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval &a, const Interval &b) { return a.start < b.start; });
    std::vector<Interval> merged;
    for (const Interval &i : intervals) {
        if (i.end <= i.start)
            continue;
        if (!merged.empty() && i.start <= merged.back().end)
            merged.back().end = std::max(merged.back().end, i.end);
        else
            merged.push_back(i);
    }
    return merged;
}

// The parts of a union inside [from, to).
std::vector<Interval> clip(const std::vector<Interval> &merged, TimeNs from, TimeNs to)
{
    std::vector<Interval> out;
    auto it = std::lower_bound(merged.begin(), merged.end(), from,
                               [](const Interval &i, TimeNs t) { return i.end <= t; });
    for (; it != merged.end() && it->start < to; ++it)
        out.push_back({std::max(it->start, from), std::min(it->end, to)});
    return out;
}

TimeNs length(const std::vector<Interval> &merged)
{
    TimeNs total = 0;
    for (const Interval &i : merged)
        total += i.end - i.start;
    return total;
}

// |a ∩ b| of two unions.
TimeNs overlap(const std::vector<Interval> &a, const std::vector<Interval> &b)
{
    TimeNs total = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        const TimeNs from = std::max(a[i].start, b[j].start), to = std::min(a[i].end, b[j].end);
        if (to > from)
            total += to - from;
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return total;
}

// What one pass over a trace keeps.
class TraceScan
{
public:
    bool read(const QString &tracePath, const QString &readablePath, QString *error)
    {
        JsonWalk walk;
        walk.walkInto = [](const std::vector<std::string> &keys) {
            return keys.size() == 1 && keys.front() == "traceEvents";
        };
        walk.member = [this](const std::vector<std::string> &keys, const JsonNode &value) {
            if (keys.size() == 1 && keys.front() == "distributedInfo")
                m_distributed = value;
            else if (keys.size() == 1 && keys.front() == "baseTimeNanoseconds")
                m_base = integer(value, 0);
            return true;
        };
        walk.element = [this](const std::vector<std::string> &, const JsonNode &event) {
            addEvent(event);
            return true;
        };
        if (walkJsonFile(readablePath, walk, error))
            return true;
        if (readablePath != tracePath)
            error->replace(readablePath, tracePath);
        return false;
    }

    const JsonNode &distributedInfo() const { return m_distributed; }
    TimeNs base() const { return m_base; }
    std::vector<HostStep> &steps() { return m_steps; }
    const std::vector<HostStep> &gpuSteps() const { return m_gpuSteps; }
    const std::vector<GpuEvent> &gpuEvents() const { return m_gpu; }
    int device() const { return m_device; }
    std::optional<TimeNs> launchTime(std::int64_t correlation) const
    {
        const auto it = m_launches.find(correlation);
        return it == m_launches.end() ? std::nullopt : std::optional<TimeNs>(it->second);
    }

private:
    void addEvent(const JsonNode &event)
    {
        if (event["ph"].text != "X")
            return;
        const std::string &cat = event["cat"].text;
        const std::string &name = event["name"].text;
        const std::optional<TimeNs> ts = micros(event["ts"]);
        const std::optional<TimeNs> dur = micros(event["dur"]);
        if (!ts || !dur || *dur < 0)
            return;
        const JsonNode &args = event["args"];
        if ((cat == "user_annotation" || cat == "cpu_op") && name.rfind("ProfilerStep#", 0) == 0) {
            HostStep s;
            s.number = parseInt64(std::string_view(name).substr(13)).value_or(kNoStep);
            s.start = *ts;
            s.end = *ts + *dur;
            m_steps.push_back(s);
        } else if (cat == "gpu_user_annotation" && name.rfind("ProfilerStep#", 0) == 0) {
            addGpuStepPiece(parseInt64(std::string_view(name).substr(13)).value_or(kNoStep), *ts, *ts + *dur);
        } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
            if (const std::int64_t c = integer(args["correlation"]); c >= 0)
                m_launches.emplace(c, *ts);
        } else if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
            GpuEvent e;
            e.kind = cat != "kernel"               ? GpuKind::Memory
                     : isCommunicationKernel(name) ? GpuKind::Communication
                                                   : GpuKind::Compute;
            e.start = *ts;
            e.end = *ts + *dur;
            e.correlation = integer(args["correlation"]);
            if (e.kind == GpuKind::Communication) {
                e.name = name;
                e.processGroup = args["Process Group Name"].text;
            }
            if (m_device < 0)
                m_device = static_cast<int>(integer(args["device"], integer(event["pid"])));
            m_gpu.push_back(std::move(e));
        }
    }

    // A step marked on the GPU spans its pieces on every stream (FORMATS.md §10.8).
    void addGpuStepPiece(std::int64_t number, TimeNs start, TimeNs end)
    {
        auto it = std::find_if(m_gpuSteps.begin(), m_gpuSteps.end(),
                               [number](const HostStep &s) { return s.number == number; });
        if (it == m_gpuSteps.end()) {
            HostStep s;
            s.number = number;
            s.start = s.deviceStart = start;
            s.end = s.deviceEnd = end;
            m_gpuSteps.push_back(s);
            return;
        }
        it->start = it->deviceStart = std::min(it->start, start);
        it->end = it->deviceEnd = std::max(it->end, end);
    }

    JsonNode m_distributed;
    TimeNs m_base = 0;
    std::vector<HostStep> m_steps;
    std::vector<HostStep>
        m_gpuSteps; // from gpu_user_annotation ProfilerStep#N, used when no host step exists
    std::unordered_map<std::int64_t, TimeNs> m_launches; // correlation → the runtime call's start
    std::vector<GpuEvent> m_gpu;
    int m_device = -1;
};

// Each host step widened to its device work (FORMATS.md §10.8, the TensorBoard plugin's rule):
// [max(previous step's end, host start), max(host end, last end of the GPU work launched by runtime calls
// inside the host step)]. Without a host ProfilerStep, the steps the GPU marks (already device spans), else
// one step (no number) over all GPU work.
void widenSteps(TraceScan &scan)
{
    std::vector<HostStep> &steps = scan.steps();
    if (steps.empty() && !scan.gpuSteps().empty()) {
        steps = scan.gpuSteps();
        std::sort(steps.begin(), steps.end(),
                  [](const HostStep &a, const HostStep &b) { return a.start < b.start; });
        return;
    }
    if (steps.empty()) {
        if (scan.gpuEvents().empty())
            return;
        HostStep all;
        all.start = all.deviceStart =
            std::min_element(scan.gpuEvents().begin(), scan.gpuEvents().end(),
                             [](const GpuEvent &a, const GpuEvent &b) { return a.start < b.start; })
                ->start;
        all.end = all.deviceEnd =
            std::max_element(scan.gpuEvents().begin(), scan.gpuEvents().end(),
                             [](const GpuEvent &a, const GpuEvent &b) { return a.end < b.end; })
                ->end;
        steps.push_back(all);
        return;
    }
    std::sort(steps.begin(), steps.end(),
              [](const HostStep &a, const HostStep &b) { return a.start < b.start; });
    for (HostStep &s : steps)
        s.deviceEnd = s.end;
    for (const GpuEvent &e : scan.gpuEvents()) {
        const std::optional<TimeNs> launch = scan.launchTime(e.correlation);
        if (!launch)
            continue;
        auto it = std::upper_bound(steps.begin(), steps.end(), *launch,
                                   [](TimeNs t, const HostStep &s) { return t < s.start; });
        if (it == steps.begin())
            continue;
        --it;
        if (*launch < it->end)
            it->deviceEnd = std::max(it->deviceEnd, e.end);
    }
    TimeNs previousEnd = std::numeric_limits<TimeNs>::min();
    for (HostStep &s : steps) {
        s.deviceStart = std::max(previousEnd, s.start);
        s.deviceEnd = std::max(s.deviceEnd, s.deviceStart);
        previousEnd = s.deviceEnd;
    }
}

// The breakdown of each step (FORMATS.md §9.2 with kernels for tasks): computing = |∪ compute kernels|,
// communication = |∪ NCCL kernels|, not overlapped = |∪ NCCL \ ∪ compute|, free = the step − the two, all
// inside the widened step.
std::vector<RankStep> breakdown(const TraceScan &scan, const std::vector<HostStep> &steps)
{
    std::vector<Interval> compute, communication;
    for (const GpuEvent &e : scan.gpuEvents()) {
        if (e.kind == GpuKind::Compute)
            compute.push_back({e.start, e.end});
        else if (e.kind == GpuKind::Communication)
            communication.push_back({e.start, e.end});
    }
    const std::vector<Interval> computeUnion = unionOf(std::move(compute));
    const std::vector<Interval> communicationUnion = unionOf(std::move(communication));
    std::vector<RankStep> out;
    for (const HostStep &h : steps) {
        const std::vector<Interval> c = clip(computeUnion, h.deviceStart, h.deviceEnd);
        const std::vector<Interval> m = clip(communicationUnion, h.deviceStart, h.deviceEnd);
        RankStep s;
        s.source = BreakdownSource::Timeline;
        s.step = h.number;
        s.computing = length(c);
        s.communication = length(m);
        s.overlapped = overlap(c, m);
        s.communicationNotOverlapped = s.communication - s.overlapped;
        s.communicationNotOverlappedExcludeReceive = s.communicationNotOverlapped;
        s.stage = h.deviceEnd - h.deviceStart;
        s.free = s.stage - s.computing - s.communicationNotOverlapped;
        const TimeNs firstBusy =
            std::min(c.empty() ? h.deviceEnd : c.front().start, m.empty() ? h.deviceEnd : m.front().start);
        s.hasPreparing = !c.empty() || !m.empty();
        s.preparing = s.hasPreparing ? std::max<TimeNs>(0, firstBusy - h.start) : 0;
        out.push_back(s);
    }
    return out;
}

// "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, …)" → "ncclKernel_AllReduce_RING_LL_Sum_float".
QString kernelShortName(const std::string &name)
{
    const std::size_t paren = name.find('(');
    return QString::fromStdString(name.substr(0, paren)).trimmed();
}

// The NCCL kernels as communication ops, named "<kernel>#<k>" (the k-th of that kernel in the trace) so
// that the same collective matches across ranks, which issue them in the same order; in the step that
// launched them; their process group when libkineto copied it (FORMATS.md §10.9).
std::vector<CommOp> communicationOps(const TraceScan &scan, const std::vector<HostStep> &steps)
{
    std::vector<const GpuEvent *> kernels;
    for (const GpuEvent &e : scan.gpuEvents())
        if (e.kind == GpuKind::Communication)
            kernels.push_back(&e);
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const GpuEvent *a, const GpuEvent *b) { return a->start < b->start; });
    QHash<QString, int> seen;
    std::vector<CommOp> ops;
    for (const GpuEvent *e : kernels) {
        CommOp op;
        const QString kernel = kernelShortName(e->name);
        op.name = QStringLiteral("%1#%2").arg(kernel).arg(++seen[kernel]);
        op.group = QString::fromStdString(e->processGroup);
        op.startAbsolute = scan.base() + e->start;
        op.elapse = e->end - e->start;
        for (const HostStep &s : steps)
            if (e->start >= s.deviceStart && e->start < s.deviceEnd) {
                op.step = s.number;
                break;
            }
        ops.push_back(std::move(op));
    }
    return ops;
}

// distributedInfo.pg_config as parallel groups: key and hash the pg_name (what NCCL kernels carry as
// "Process Group Name"), name the pg_desc.
std::vector<ParallelGroup> processGroups(const JsonNode &distributed)
{
    std::vector<ParallelGroup> groups;
    for (const JsonNode &pg : distributed["pg_config"].items) {
        ParallelGroup g;
        g.key = g.hash = pg["pg_name"].string();
        g.name = pg["pg_desc"].string();
        if (g.name.isEmpty())
            g.name = g.key;
        for (const JsonNode &r : pg["ranks"].items)
            g.globalRanks.push_back(static_cast<int>(integer(r)));
        std::sort(g.globalRanks.begin(), g.globalRanks.end());
        if (!g.key.isEmpty())
            groups.push_back(std::move(g));
    }
    return groups;
}

} // namespace

namespace {

// Each trace read on its own thread, up to one per core: a trace's pass is independent of the others'.
std::vector<RankSummary> readTracesInParallel(const QStringList &traces)
{
    std::vector<RankSummary> summaries(static_cast<std::size_t>(traces.size()));
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < summaries.size(); i = next++)
            summaries[i] = readGpuRankTrace(traces[static_cast<qsizetype>(i)]);
    };
    const std::size_t workers =
        std::min<std::size_t>(summaries.size(), std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> threads;
    for (std::size_t w = 1; w < workers; ++w)
        threads.emplace_back(work);
    work();
    for (std::thread &t : threads)
        t.join();
    return summaries;
}

} // namespace

QStringList findGpuRankTraces(const QString &path)
{
    return findKinetoTraces(path);
}

RankSummary readGpuRankTrace(const QString &tracePath)
{
    RankSummary summary;
    Rank &rank = summary.rank;
    const QFileInfo info(tracePath);
    rank.folder = info.absoluteFilePath();
    rank.name = info.fileName();
    rank.hasTimeline = true;
    QString error;
    std::unique_ptr<QTemporaryFile> unpacked;
    QString readable = rank.folder;
    if (const Compression compression = detectCompression(rank.folder); compression != Compression::None) {
        unpacked = decompressToTemporaryFile(rank.folder, compression, {}, &error);
        if (!unpacked) {
            summary.warnings << error;
            return summary;
        }
        readable = unpacked->fileName();
    }
    TraceScan scan;
    if (!scan.read(rank.folder, readable, &error)) {
        summary.warnings << QCoreApplication::translate("Parser", "%1; its steps were not read").arg(error);
        return summary;
    }
    rank.filesRead << rank.folder;
    const JsonNode &distributed = scan.distributedInfo();
    if (const std::int64_t id = integer(distributed["rank"]); id >= 0 && id <= INT_MAX)
        rank.rank = static_cast<int>(id);
    rank.device = scan.device();
    summary.groups = processGroups(distributed);
    widenSteps(scan);
    rank.steps = breakdown(scan, scan.steps());
    rank.ops = communicationOps(scan, scan.steps());
    if (rank.steps.empty())
        summary.warnings << QCoreApplication::translate("Parser", "%1: no GPU kernels; no step breakdown")
                                .arg(rank.folder);
    return summary;
}

bool readGpuCluster(const QString &path, ClusterModel &model)
{
    const QStringList traces = findGpuRankTraces(path);
    if (traces.isEmpty())
        return false;
    std::vector<RankSummary> summaries = readTracesInParallel(traces);
    QHash<int, QString> claimed; // rank → the trace that has it
    for (qsizetype i = 0; i < traces.size(); ++i) {
        const QString &trace = traces[i];
        RankSummary &s = summaries[static_cast<std::size_t>(i)];
        model.warnings << s.warnings;
        if (s.rank.rank < 0)
            continue;
        if (claimed.contains(s.rank.rank)) {
            model.warnings << QCoreApplication::translate(
                                  "Parser", "%1: distributedInfo.rank %2 is already the rank of %3")
                                  .arg(trace)
                                  .arg(s.rank.rank)
                                  .arg(claimed.value(s.rank.rank));
            s.rank.rank = -1;
            continue;
        }
        claimed.insert(s.rank.rank, trace);
    }
    // Fallbacks in file order: the rank-N folder holding only this trace, else the lowest free rank.
    for (qsizetype i = 0; i < traces.size(); ++i) {
        Rank &rank = summaries[static_cast<std::size_t>(i)].rank;
        if (rank.rank >= 0)
            continue;
        const QFileInfo trace(traces[i]);
        const QString folder = trace.absolutePath();
        const bool ownFolder = std::count_if(traces.begin(), traces.end(), [&](const QString &t) {
                                   return QFileInfo(t).absolutePath() == folder;
                               }) == 1;
        const std::optional<int> named =
            ownFolder ? profile_names::rankFromFolderName(QFileInfo(folder).fileName()) : std::nullopt;
        if (named && !claimed.contains(*named)) {
            rank.rank = *named;
            model.warnings << QCoreApplication::translate(
                                  "Parser",
                                  "%1: no usable distributedInfo.rank; rank %2 taken from its folder name")
                                  .arg(traces[i])
                                  .arg(rank.rank);
        } else {
            int free = 0;
            while (claimed.contains(free))
                ++free;
            rank.rank = free;
            model.warnings << QCoreApplication::translate(
                                  "Parser",
                                  "%1: no usable distributedInfo.rank; read as rank %2 (file order)")
                                  .arg(traces[i])
                                  .arg(rank.rank);
        }
        claimed.insert(rank.rank, traces[i]);
    }
    QSet<QString> groupKeys;
    for (ParallelGroup &g : model.groups)
        groupKeys.insert(g.key);
    for (RankSummary &s : summaries) {
        for (ParallelGroup &g : s.groups)
            if (!groupKeys.contains(g.key)) {
                groupKeys.insert(g.key);
                model.groups.push_back(std::move(g));
            }
        model.ranks.push_back(std::move(s.rank));
    }
    model.warnings << QCoreApplication::translate(
        "Parser", "GPU traces do not record the links between ranks: the link matrix is empty");
    return true;
}

} // namespace at::cluster
