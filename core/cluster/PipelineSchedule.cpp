#include "cluster/PipelineSchedule.h"

#include "cluster/ClusterModel.h"

#include <QCoreApplication>
#include <QDir>

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace at::cluster {

namespace {

QString coreText(const char *text)
{
    return QCoreApplication::translate("Core", text);
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

// Device tasks that are no computation (FORMATS.md §9.2: tasks not in the kernel table never count).
bool isComputeTask(std::string_view name)
{
    static constexpr std::string_view kNotCompute[] = {
        "Notify Wait",  "Notify_Wait",      "EVENT_RECORD",      "EVENT_WAIT",
        "MEMCPY_ASYNC", "PROFILING_ENABLE", "PROFILING_DISABLE", "Write Value"};
    if (name.empty() || startsWith(name, "hcom_"))
        return false;
    return std::none_of(std::begin(kNotCompute), std::end(kNotCompute),
                        [name](std::string_view n) { return startsWith(name, n); });
}

struct Kernel
{
    TimeNs start = 0;
    TimeNs end = 0;
    StringId name = 0;
    SliceRef ref;
};

enum class Mark
{
    None,
    Forward,
    Backward
};

// The rank's compute kernels (device lanes, depth 0) and pipeline send/receive ops (communication lanes),
// each sorted by start, times with the rank's offset.
struct RankTasks
{
    std::vector<Kernel> kernels;
    std::vector<PipelineInterval> sendRecv;
};

RankTasks rankTasks(const TraceModel &model, int group, TimeNs offset)
{
    RankTasks tasks;
    const StringPool &strings = model.strings();
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const ThreadInfo &thread = model.threads()[t];
        const ProcessInfo &process = model.processes()[static_cast<std::size_t>(thread.process)];
        if (process.group != group || thread.slices.depthCount() == 0)
            continue;
        const bool device = process.layer == Layer::DeviceStreams;
        const bool communication = process.layer == Layer::Communication;
        if (!device && !communication)
            continue;
        const auto [begin, end] = thread.slices.depthRange(0);
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::string_view name = strings.view(thread.slices.name(i));
            const TimeNs start = thread.slices.start(i) + offset;
            const TimeNs stop = thread.slices.end(i) + offset;
            if (device && isComputeTask(name))
                tasks.kernels.push_back(
                    {start, stop, thread.slices.name(i), {static_cast<std::int32_t>(t), i}});
            else if (isPipelineSendRecv(name))
                tasks.sendRecv.push_back({start, stop});
        }
    }
    std::sort(tasks.kernels.begin(), tasks.kernels.end(),
              [](const Kernel &a, const Kernel &b) { return a.start < b.start; });
    std::sort(tasks.sendRecv.begin(), tasks.sendRecv.end(),
              [](const PipelineInterval &a, const PipelineInterval &b) { return a.start < b.start; });
    // One interval per overlapping send/receive (a batch's send and receive, or the same op on two lanes).
    std::vector<PipelineInterval> merged;
    for (const PipelineInterval &op : tasks.sendRecv) {
        if (!merged.empty() && op.start <= merged.back().end)
            merged.back().end = std::max(merged.back().end, op.end);
        else
            merged.push_back(op);
    }
    tasks.sendRecv = std::move(merged);
    return tasks;
}

// "RmsNorm" for "RmsNormGrad", "aclnnFlashAttentionScore" for "aclnnFlashAttentionScoreGrad_…": the word run
// before each "Grad" / "Backward", back to the previous '_' or the start.
void addForwardStems(std::string_view name, std::set<std::string> &stems)
{
    for (const std::string_view marker : {std::string_view("Grad"), std::string_view("Backward")}) {
        for (std::size_t at = name.find(marker); at != std::string_view::npos;
             at = name.find(marker, at + marker.size())) {
            const std::size_t underscore = name.rfind('_', at == 0 ? 0 : at - 1);
            const std::size_t from =
                underscore == std::string_view::npos || underscore >= at ? 0 : underscore + 1;
            if (at - from >= 3) // a real op name, not "Grad" alone
                stems.emplace(name.substr(from, at - from));
        }
    }
}

std::vector<Mark> kernelMarks(const TraceModel &model, const std::vector<Kernel> &kernels)
{
    const StringPool &strings = model.strings();
    std::set<std::string> stems;
    for (const Kernel &k : kernels)
        if (isGradientKernel(strings.view(k.name)))
            addForwardStems(strings.view(k.name), stems);
    std::map<StringId, Mark> byName;
    std::vector<Mark> marks;
    marks.reserve(kernels.size());
    for (const Kernel &k : kernels) {
        auto it = byName.find(k.name);
        if (it == byName.end()) {
            const std::string_view name = strings.view(k.name);
            Mark mark = Mark::None;
            if (isGradientKernel(name))
                mark = Mark::Backward;
            else if (std::any_of(stems.begin(), stems.end(), [name](const std::string &s) {
                         return name.find(s) != std::string_view::npos;
                     }))
                mark = Mark::Forward;
            it = byName.emplace(k.name, mark).first;
        }
        marks.push_back(it->second);
    }
    return marks;
}

PipelineBlock makeBlock(PipelinePass pass, const std::vector<Kernel> &kernels, std::size_t first,
                        std::size_t last)
{
    PipelineBlock b;
    b.pass = pass;
    b.start = kernels[first].start;
    b.first = kernels[first].ref;
    for (std::size_t i = first; i <= last; ++i)
        b.end = std::max(b.end, kernels[i].end);
    b.kernels = static_cast<int>(last - first + 1);
    return b;
}

// The blocks of one phase, kernels [begin, end): see the header's rule 3. lastPhase: no send/receive follows.
void phaseBlocks(const std::vector<Kernel> &kernels, const std::vector<Mark> &marks, std::size_t begin,
                 std::size_t end, bool lastPhase, std::vector<PipelineBlock> &blocks)
{
    std::size_t firstBackward = end, lastBackward = end, lastForward = end;
    for (std::size_t i = begin; i < end; ++i) {
        if (marks[i] == Mark::Backward) {
            if (firstBackward == end)
                firstBackward = i;
            lastBackward = i;
        } else if (marks[i] == Mark::Forward && firstBackward == end) {
            lastForward = i;
        }
    }
    if (firstBackward == end) {
        if (lastForward != end)
            blocks.push_back(
                makeBlock(PipelinePass::Forward, kernels, begin, lastPhase ? lastForward : end - 1));
        return;
    }
    std::size_t backwardBegin = begin;
    if (lastForward != end &&
        firstBackward > begin) { // the last stage: a micro-batch's forward, then its backward
        blocks.push_back(makeBlock(PipelinePass::Forward, kernels, begin, firstBackward - 1));
        backwardBegin = firstBackward;
    }
    blocks.push_back(
        makeBlock(PipelinePass::Backward, kernels, backwardBegin, lastPhase ? lastBackward : end - 1));
}

std::vector<PipelineBlock> rankBlocks(const TraceModel &model, const RankTasks &tasks)
{
    std::vector<PipelineBlock> blocks;
    const std::vector<Mark> marks = kernelMarks(model, tasks.kernels);
    std::size_t begin = 0;
    for (std::size_t phase = 0; phase <= tasks.sendRecv.size(); ++phase) {
        const bool last = phase == tasks.sendRecv.size();
        std::size_t end = begin;
        while (end < tasks.kernels.size() && (last || tasks.kernels[end].start < tasks.sendRecv[phase].start))
            ++end;
        if (end > begin)
            phaseBlocks(tasks.kernels, marks, begin, end, last, blocks);
        begin = end;
    }
    int forward = 0, backward = 0;
    for (PipelineBlock &b : blocks)
        b.microBatch = b.pass == PipelinePass::Forward ? forward++ : backward++;
    return blocks;
}

// The span's parts no block covers (blocks in time order, possibly touching).
void fillBubbles(PipelineStage &s, TimeNs spanStart, TimeNs spanEnd)
{
    TimeNs at = spanStart;
    for (const PipelineBlock &b : s.blocks) {
        if (b.start > at)
            s.bubbles.push_back({at, b.start});
        at = std::max(at, b.end);
        s.blockTotal += b.duration();
    }
    if (spanEnd > at)
        s.bubbles.push_back({at, spanEnd});
    for (const PipelineInterval &g : s.bubbles)
        s.bubbleTotal += g.duration();
}

} // namespace

QString pipelinePassKey(PipelinePass pass)
{
    return pass == PipelinePass::Forward ? QStringLiteral("forward") : QStringLiteral("backward");
}

bool isPipelineSendRecv(std::string_view opName)
{
    return startsWith(opName, "hcom_batchSendRecv") || startsWith(opName, "hcom_send") ||
           startsWith(opName, "hcom_receive") || startsWith(opName, "hcom_recv");
}

bool isGradientKernel(std::string_view kernelName)
{
    return kernelName.find("Grad") != std::string_view::npos ||
           kernelName.find("Backward") != std::string_view::npos;
}

PipelineSchedule buildPipelineSchedule(const TraceModel &model, const std::vector<PipelineRank> &ranks)
{
    PipelineSchedule schedule;
    for (const PipelineRank &r : ranks) {
        if (r.group < 0 || static_cast<std::size_t>(r.group) >= model.groups().size()) {
            schedule.notes
                << coreText("stage %1: rank %2 is not on the loaded timeline").arg(r.stage).arg(r.rank);
            continue;
        }
        const RankTasks tasks = rankTasks(model, r.group, r.offset);
        PipelineStage s{r.stage, r.rank, r.group, rankBlocks(model, tasks), {}, tasks.sendRecv, 0, 0};
        if (tasks.kernels.empty())
            schedule.notes << coreText("stage %1: rank %2 has no device kernels").arg(r.stage).arg(r.rank);
        else if (s.blocks.empty())
            schedule.notes << coreText(
                                  "stage %1: no kernel of rank %2 marks a forward or a backward pass (no "
                                  "gradient kernel such as *Grad or *Backward)")
                                  .arg(r.stage)
                                  .arg(r.rank);
        else
            schedule.stages.push_back(std::move(s));
    }
    std::sort(schedule.stages.begin(), schedule.stages.end(),
              [](const PipelineStage &a, const PipelineStage &b) { return a.stage < b.stage; });
    if (schedule.stages.empty()) {
        schedule.reason = ranks.empty() ? coreText("no pipeline stage to show")
                                        : coreText("no stage has forward and backward blocks");
        return schedule;
    }
    schedule.spanStart = schedule.stages.front().blocks.front().start;
    schedule.spanEnd = schedule.spanStart;
    for (const PipelineStage &s : schedule.stages)
        for (const PipelineBlock &b : s.blocks) {
            schedule.spanStart = std::min(schedule.spanStart, b.start);
            schedule.spanEnd = std::max(schedule.spanEnd, b.end);
        }
    for (PipelineStage &s : schedule.stages) {
        fillBubbles(s, schedule.spanStart, schedule.spanEnd);
        const auto forward = std::count_if(s.blocks.begin(), s.blocks.end(), [](const PipelineBlock &b) {
            return b.pass == PipelinePass::Forward;
        });
        schedule.microBatches = std::max(schedule.microBatches, static_cast<int>(forward));
    }
    return schedule;
}

PipelineRankChoice choosePipelineRanks(const ClusterModel &model)
{
    PipelineRankChoice choice;
    std::map<int, int> chosen; // stage → rank
    std::set<int> stages;
    for (const Rank &r : model.ranks) { // ordered by rank id: the lowest rank with a timeline wins
        if (r.stage < 0)
            continue;
        stages.insert(r.stage);
        if (r.hasTimeline && !chosen.count(r.stage))
            chosen[r.stage] = r.rank;
    }
    if (stages.empty()) {
        choice.reason = coreText("no pipeline-parallel (pp) group in the ranks' profiler_metadata.json: the "
                                 "job has no pipeline stages");
        return choice;
    }
    for (const int stage : stages) {
        if (!chosen.count(stage)) {
            choice.reason =
                coreText(
                    "no rank of pipeline stage %1 has a timeline (kernel_details.csv, trace_view.json or a "
                    "profiler database)")
                    .arg(stage);
            choice.stageRanks.clear();
            return choice;
        }
        choice.stageRanks.emplace_back(stage, chosen[stage]);
    }
    if (choice.stageRanks.size() < 2) {
        choice.reason = coreText("the job has one pipeline stage: there is no pipeline to draw");
        choice.stageRanks.clear();
    }
    return choice;
}

std::vector<PipelineRank> pipelineRanksOnModel(const TraceModel &model, const ClusterModel &cluster,
                                               const PipelineRankChoice &choice,
                                               const std::vector<TimeNs> &offsets)
{
    const auto folderName = [](const QString &path) {
        return QDir::cleanPath(path).section(QLatin1Char('/'), -1);
    };
    std::vector<PipelineRank> ranks;
    for (const auto &stageRank : choice.stageRanks) {
        PipelineRank r{stageRank.first, stageRank.second, -1, 0};
        const Rank *info = cluster.rank(r.rank);
        const QString folder = info ? QDir::cleanPath(info->folder) : QString();
        int byName = -1, sameName = 0;
        for (std::size_t g = 0; info && g < model.groups().size() && r.group < 0; ++g) {
            const QString path = QDir::cleanPath(model.groups()[g].path);
            if (path == folder)
                r.group = static_cast<int>(g);
            else if (folderName(path) == folderName(folder) && ++sameName == 1)
                byName = static_cast<int>(g);
        }
        if (r.group < 0 && sameName == 1)
            r.group = byName;
        if (r.group >= 0 && static_cast<std::size_t>(r.group) < offsets.size())
            r.offset = offsets[static_cast<std::size_t>(r.group)];
        ranks.push_back(r);
    }
    return ranks;
}

} // namespace at::cluster
