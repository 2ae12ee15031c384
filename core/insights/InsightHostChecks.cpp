// Host-side checks: device idle because the host dispatches too slowly, synchronisation, operator
// compilation, and the framework APIs with a faster NPU equivalent (FORMATS.md §9.6).

#include "InsightChecks.h"
#include "InsightSupport.h"
#include "LayerWording.h"

#include "Steps.h"

#include <QJsonArray>

#include <algorithm>
#include <map>

namespace at {

using namespace insights;

namespace {

// Host bound (this viewer's rule, docs/INSIGHTS.md): a step whose device stage is idle (Free of
// FORMATS.md §9.2) for at least this share of the stage.
constexpr double kFreeRatioThreshold = 0.10;
// A kernel counts as "small" when the idle gap before it on its stream exceeds this multiple of its
// own duration: the device waits for the host longer than it works (after HTA's launch analysis).
constexpr double kSmallKernelGapFactor = 1.0;
// §9.6 Operator dispatch: MAX_OP_COMPILE_NUM.
constexpr int kMaxOpCompileCount = 20;
// §9.6 SyncBatchNorm: count threshold.
constexpr int kSyncBatchNormCount = 20;
// §9.6 Slow dataloader: dur >= 10000 µs.
constexpr TimeNs kSlowDataloaderNs = 10'000'000;

std::vector<int> hostThreads(const InsightContext &context)
{
    return threadsOfLayers(context, {Layer::Framework, Layer::CannApi});
}

int stepOf(const TraceModel &model, int group, TimeNs t)
{
    const auto &steps = model.steps();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].group == group && t >= steps[i].hostBegin && t < steps[i].hostEnd)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

namespace {

// Host bound on one source group's steps (see checkHostBound).
struct HostBoundSteps
{
    Finding finding;
    QJsonArray perStep;
    TimeNs stage = 0;
    std::size_t kernels = 0, smallKernels = 0;
};

HostBoundSteps hostBoundOfGroup(const TraceModel &model, int group)
{
    HostBoundSteps out;
    Finding &finding = out.finding;
    for (const Step &step : model.steps()) {
        const TimeNs stepStage = step.stageDuration();
        if (step.group != group || stepStage <= 0)
            continue;
        const double ratio = static_cast<double>(step.breakdown.free) / static_cast<double>(stepStage);
        // Small kernels (stream tasks) and the idle gaps of the stage (every device task and
        // communication op of the step but waiting tasks), from the step's own tasks.
        std::vector<SliceRef> tasks, busyTasks;
        for (const SliceRef &ref : step.deviceTasks) {
            if (isWaitTask(model.strings().view(
                    model.threads()[static_cast<std::size_t>(ref.thread)].slices.name(ref.index))))
                continue;
            busyTasks.push_back(ref);
            if (layerOfThread(model, ref.thread) == Layer::DeviceStreams)
                tasks.push_back(ref);
        }
        std::size_t stepKernels = 0, stepSmall = 0;
        for (std::size_t i = 1; i < tasks.size(); ++i) {
            if (tasks[i].thread != tasks[i - 1].thread)
                continue;
            const SliceTable &slices = model.threads()[static_cast<std::size_t>(tasks[i].thread)].slices;
            const TimeNs gap = slices.start(tasks[i].index) - slices.end(tasks[i - 1].index);
            ++stepKernels;
            if (static_cast<double>(gap) >
                kSmallKernelGapFactor * static_cast<double>(slices.duration(tasks[i].index)))
                ++stepSmall;
        }
        out.kernels += stepKernels;
        out.smallKernels += stepSmall;
        QJsonObject row{
            {QStringLiteral("step"), step.label},
            {QStringLiteral("free_us"), toUs(step.breakdown.free)},
            {QStringLiteral("stage_us"), toUs(stepStage)},
            {QStringLiteral("free_ratio"), ratio},
            {QStringLiteral("small_kernel_ratio"),
             stepKernels ? static_cast<double>(stepSmall) / static_cast<double>(stepKernels) : 0.0}};
        out.perStep.append(row);
        if (ratio < kFreeRatioThreshold)
            continue;
        finding.timeAtStake += step.breakdown.free;
        out.stage += stepStage;
        // Idle gaps of the device between the step's tasks, each shown as the task that ends it.
        std::sort(busyTasks.begin(), busyTasks.end(), [&](SliceRef a, SliceRef b) {
            return model.threads()[static_cast<std::size_t>(a.thread)].slices.start(a.index) <
                   model.threads()[static_cast<std::size_t>(b.thread)].slices.start(b.index);
        });
        TimeNs busyUntil = step.stageBegin;
        for (const SliceRef &ref : busyTasks) {
            const SliceTable &slices = model.threads()[static_cast<std::size_t>(ref.thread)].slices;
            if (slices.start(ref.index) > busyUntil) {
                FindingOccurrence o = occurrenceOf(model, ref);
                o.start = busyUntil;
                o.duration = slices.start(ref.index) - busyUntil;
                finding.occurrences.push_back(o);
                finding.pieces.push_back({group, o.start, o.start + o.duration, o.duration});
            }
            busyUntil = std::max(busyUntil, slices.end(ref.index));
        }
    }
    return out;
}

// The device of a rank without host-side data was idle: say what is missing instead of a verdict.
Finding hostDataMissing(const InsightContext &context, int group, HostBoundSteps &&steps)
{
    Finding finding;
    finding.check = QStringLiteral("host_data_missing");
    finding.part = StepPart::Free;
    finding.rank = context.rankOfGroup(group);
    finding.severity = Severity::Low;
    finding.occurrences = std::move(steps.finding.occurrences);
    keepLongest(finding.occurrences, kMaxOccurrences);
    const TimeNs free = steps.finding.timeAtStake;
    finding.title =
        InsightText::tr("Rank %1: device idle, but its host side was not collected").arg(finding.rank);
    finding.explanation =
        InsightText::tr("The device of rank %1 was idle (Free) for %2 ms of %3 ms of its stage, but the "
                        "loaded data holds no host-side lanes for this rank (no framework or CANN API "
                        "calls), so whether the host dispatched too slowly, synchronised or waited for "
                        "data cannot be shown. No time is claimed for a cause.")
            .arg(finding.rank)
            .arg(toUs(free) / 1000.0, 0, 'f', 3)
            .arg(toUs(steps.stage) / 1000.0, 0, 'f', 3);
    finding.fix = InsightText::tr(
        "Collect the host side of this rank: torch_npu.profiler with activities=[ProfilerActivity.CPU, "
        "ProfilerActivity.NPU] and the text export (trace_view.json), or msprof with --ascendcl=on and "
        "--runtime-api=on; then open the rank folder with that timeline.");
    finding.data = QJsonObject{{QStringLiteral("free_us"), toUs(free)},
                               {QStringLiteral("free_ratio_threshold"), kFreeRatioThreshold},
                               {QStringLiteral("steps"), steps.perStep}};
    return finding;
}

} // namespace

void checkHostBound(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    for (int group = 0; group < static_cast<int>(model.groups().size()); ++group) {
        HostBoundSteps steps = hostBoundOfGroup(model, group);
        if (steps.finding.timeAtStake <= 0)
            continue;
        const RankStepParts *parts = context.partsOfRank(context.rankOfGroup(group));
        if (!parts || !parts->hasHostData) {
            findings.push_back(hostDataMissing(context, group, std::move(steps)));
            continue;
        }
        Finding &finding = steps.finding;
        finding.rank = context.rankOfGroup(group);
        const double ratio = static_cast<double>(finding.timeAtStake) / static_cast<double>(steps.stage);
        const double smallRatio =
            steps.kernels ? static_cast<double>(steps.smallKernels) / static_cast<double>(steps.kernels)
                          : 0.0;
        finding.title = InsightText::tr("Device idle: the host dispatches too slowly");
        finding.severity =
            ratio >= 0.3 ? Severity::High : severityForPercent(context.percentOfSteps(finding.timeAtStake));
        finding.explanation =
            InsightText::tr(
                "The device stage was idle (Free) for %1 ms of %2 ms (%3 %); %4 % of the kernels waited "
                "longer for their launch than they ran. The device is waiting for the host.")
                .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3)
                .arg(toUs(steps.stage) / 1000.0, 0, 'f', 3)
                .arg(100.0 * ratio, 0, 'f', 1)
                .arg(100.0 * smallRatio, 0, 'f', 1);
        finding.fix = InsightText::tr(
            "Enable the task queue (export TASK_QUEUE_ENABLE=2), bind the host threads to cores "
            "(export CPU_AFFINITY_CONF=1), remove host synchronisation (.item(), .cpu(), "
            "printing tensors) from the step, and fuse small operators or raise the batch "
            "size so each launch carries more work.");
        keepLongest(finding.occurrences, kMaxOccurrences);
        finding.data = QJsonObject{{QStringLiteral("free_ratio_threshold"), kFreeRatioThreshold},
                                   {QStringLiteral("free_ratio"), ratio},
                                   {QStringLiteral("small_kernel_ratio"), smallRatio},
                                   {QStringLiteral("small_kernel_gap_factor"), kSmallKernelGapFactor},
                                   {QStringLiteral("steps"), steps.perStep}};
        findings.push_back(std::move(finding));
    }
}

void checkSynchronize(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    const auto busy = deviceBusyByGroup(model);
    std::map<QString, int> counts;
    std::vector<std::pair<FindingOccurrence, TimeNs>> syncs; // occurrence, idle gap it caused
    std::vector<Finding::Piece> pieces;
    int launches = 0;
    forEachSlice(
        model, hostThreads(context),
        [&](std::string_view name) {
            if (name == "Node@launch")
                ++launches;
            return name.starts_with("AscendCL@aclrtSynchronizeDevice") ||
                   name.starts_with("AscendCL@aclrtSynchronizeStream");
        },
        [&](SliceRef ref) {
            FindingOccurrence o = occurrenceOf(model, ref);
            ++counts[o.name];
            // The device's idle gap around the sync's return: from when it drained (not before the
            // call) to the next task the host launched after it.
            const auto &intervals = busy[static_cast<std::size_t>(o.group)];
            const TimeNs end = o.start + o.duration;
            const auto next = std::upper_bound(intervals.begin(), intervals.end(), end,
                                               [](TimeNs t, const Interval &i) { return t < i.second; });
            TimeNs gap = 0;
            if (next != intervals.end() && next->first > end) {
                const TimeNs drained =
                    next == intervals.begin() ? o.start : std::max(o.start, std::prev(next)->second);
                gap = next->first - drained;
            }
            syncs.push_back({o, gap});
            if (gap > 0)
                pieces.push_back({o.group, next->first - gap, next->first, gap});
        });
    if (syncs.empty())
        return;
    Finding finding;
    finding.pieces = std::move(pieces);
    std::stable_sort(syncs.begin(), syncs.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    QJsonObject perApi;
    for (const auto &[name, count] : counts)
        perApi.insert(name, count);
    for (const auto &[occurrence, gap] : syncs) {
        finding.timeAtStake += gap;
        if (finding.occurrences.size() < kMaxOccurrences)
            finding.occurrences.push_back(occurrence);
    }
    if (finding.timeAtStake <= 0)
        return;
    finding.title = InsightText::tr("Host synchronisation leaves the device idle");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("%n synchronisation call(s) (aclrtSynchronizeDevice / aclrtSynchronizeStream) "
                        "block the host until the device drains; the device then stays idle until "
                        "the host launches again: %1 ms in all.",
                        nullptr, static_cast<int>(syncs.size()))
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Remove synchronisation from the training step: avoid .item(), .cpu(), "
                        "torch.npu.synchronize() and printing tensors; make sure ASCEND_LAUNCH_BLOCKING is "
                        "not set to 1.");
    finding.data = QJsonObject{{QStringLiteral("synchronize_calls"), static_cast<int>(syncs.size())},
                               {QStringLiteral("per_api"), perApi},
                               {QStringLiteral("launches"), launches},
                               {QStringLiteral("idle_gap_us"), toUs(finding.timeAtStake)}};
    findings.push_back(std::move(finding));
}

void checkOperatorCompile(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    Finding finding;
    std::map<int, int> perStep;
    forEachSlice(
        model, hostThreads(context),
        [](std::string_view name) { return name == "AscendCL@aclopCompileAndExecute"; },
        [&](SliceRef ref) {
            FindingOccurrence o = occurrenceOf(model, ref);
            finding.timeAtStake += o.duration;
            ++perStep[stepOf(model, o.group, o.start)];
            finding.pieces.push_back({o.group, o.start, o.start + o.duration, o.duration});
            finding.occurrences.push_back(o);
        });
    const int count = static_cast<int>(finding.occurrences.size());
    if (count < kMaxOpCompileCount)
        return;
    QJsonArray steps;
    for (const auto &[step, n] : perStep) {
        steps.append(QJsonObject{
            {QStringLiteral("step"),
             step >= 0 ? model.steps()[static_cast<std::size_t>(step)].label : QStringLiteral("(no step)")},
            {QStringLiteral("count"), n}});
    }
    finding.title = InsightText::tr("Operators are compiled while training (dynamic shape)");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr(
            "AscendCL@aclopCompileAndExecute ran %1 times (%2 ms): operators are compiled online, "
            "usually because their shapes change from step to step.")
            .arg(count)
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Call torch_npu.npu.set_compile_mode(jit_compile=False) and "
                        "torch_npu.npu.config.allow_internal_format = False at the start of the script, "
                        "and keep input shapes fixed (pad to a few bucket sizes).");
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.data = QJsonObject{{QStringLiteral("count"), count},
                               {QStringLiteral("threshold"), kMaxOpCompileCount},
                               {QStringLiteral("total_us"), toUs(finding.timeAtStake)},
                               {QStringLiteral("per_step"), steps}};
    findings.push_back(std::move(finding));
}

void checkAffinityOptimizer(const InsightContext &context, std::vector<Finding> &findings)
{
    // timeline_fusion_ops.yaml (§9.6 Affinity API): Python optimizers with a fused torch_npu one.
    static const std::map<std::string_view, const char *> kFused = {
        {"Adam", "torch_npu.optim.NpuFusedAdam"},         {"AdamW", "torch_npu.optim.NpuFusedAdamW"},
        {"SGD", "torch_npu.optim.NpuFusedSGD"},           {"Adadelta", "torch_npu.optim.NpuFusedAdadelta"},
        {"RMSprop", "torch_npu.optim.NpuFusedRMSprop"},   {"RMSpropTF", "torch_npu.optim.NpuFusedRMSpropTF"},
        {"Lamb", "torch_npu.optim.NpuFusedLamb"},         {"AdamP", "torch_npu.optim.NpuFusedAdamP"},
        {"BertAdam", "torch_npu.optim.NpuFusedBertAdam"},
    };
    const TraceModel &model = context.model;
    std::map<std::string_view, Finding> byOptimizer;
    const auto optimizerOf = [](std::string_view name) -> std::string_view {
        constexpr std::string_view prefix = "Optimizer.step#", suffix = ".step";
        if (!name.starts_with(prefix) || !name.ends_with(suffix) ||
            name.size() <= prefix.size() + suffix.size())
            return {};
        return name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    };
    // NPU advice: the host threads of a PyTorch GPU (Kineto) trace have no torch_npu to switch to.
    std::vector<int> threads = threadsOfLayers(context, {Layer::Framework});
    std::erase_if(threads, [&model](int t) {
        const int group =
            model.processes()[static_cast<std::size_t>(model.threads()[static_cast<std::size_t>(t)].process)]
                .group;
        return model.groups()[static_cast<std::size_t>(group)].layout == kinetoLayoutText();
    });
    forEachSlice(
        model, threads, [&](std::string_view name) { return kFused.count(optimizerOf(name)) > 0; },
        [&](SliceRef ref) {
            const std::string_view optimizer = optimizerOf(model.strings().view(
                model.threads()[static_cast<std::size_t>(ref.thread)].slices.name(ref.index)));
            Finding &f = byOptimizer[optimizer];
            FindingOccurrence o = occurrenceOf(model, ref);
            f.timeAtStake += o.duration;
            f.pieces.push_back({o.group, o.start, o.start + o.duration, o.duration});
            f.occurrences.push_back(o);
        });
    for (auto &[optimizer, finding] : byOptimizer) {
        const QString name = QString::fromUtf8(optimizer.data(), static_cast<qsizetype>(optimizer.size()));
        const QString fused = QString::fromLatin1(kFused.at(optimizer));
        finding.title = InsightText::tr("Python optimizer %1 has a fused NPU equivalent").arg(name);
        finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
        finding.explanation =
            InsightText::tr(
                "Optimizer.step#%1.step ran %n time(s) for %2 ms; it updates each parameter with separate "
                "small operators.",
                nullptr, static_cast<int>(finding.occurrences.size()))
                .arg(name)
                .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
        finding.fix =
            InsightText::tr("Replace torch.optim.%1 by %2 (same arguments), which updates all parameters "
                            "in a few fused kernels.")
                .arg(name, fused);
        finding.data = QJsonObject{{QStringLiteral("optimizer"), name},
                                   {QStringLiteral("fused_api"), fused},
                                   {QStringLiteral("count"), static_cast<int>(finding.occurrences.size())}};
        keepLongest(finding.occurrences, kMaxOccurrences);
        findings.push_back(std::move(finding));
    }
}

void checkSyncBatchNorm(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    Finding finding;
    for (const SliceRef &ref :
         outermostMatching(model, threadsOfLayers(context, {Layer::Framework}),
                           [](std::string_view n) { return containsNoCase(n, "syncbatchnorm"); })) {
        FindingOccurrence o = occurrenceOf(model, ref);
        finding.timeAtStake += o.duration;
        finding.pieces.push_back({o.group, o.start, o.start + o.duration, o.duration});
        finding.occurrences.push_back(o);
    }
    const int count = static_cast<int>(finding.occurrences.size());
    if (count < kSyncBatchNormCount)
        return;
    finding.title = InsightText::tr("SyncBatchNorm synchronises every batch-norm layer");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("SyncBatchNorm ran %1 times (%2 ms); each call gathers statistics from "
                        "every rank.")
            .arg(count)
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Use the efficient SyncBatchNorm of torch_npu (see the msprof-analyze advisor's "
                        "SyncBatchNorm note) or plain BatchNorm when the per-rank batch is large enough.");
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.data =
        QJsonObject{{QStringLiteral("count"), count}, {QStringLiteral("threshold"), kSyncBatchNormCount}};
    findings.push_back(std::move(finding));
}

void checkSlowDataloader(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    Finding finding;
    for (const SliceRef &ref :
         outermostMatching(model, threadsOfLayers(context, {Layer::Framework}),
                           [](std::string_view n) { return containsNoCase(n, "dataloader"); })) {
        FindingOccurrence o = occurrenceOf(model, ref);
        if (o.duration < kSlowDataloaderNs)
            continue;
        finding.timeAtStake += o.duration;
        finding.pieces.push_back({o.group, o.start, o.start + o.duration, o.duration});
        finding.occurrences.push_back(o);
    }
    if (finding.occurrences.empty())
        return;
    finding.title = InsightText::tr("Slow dataloader");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("%1 dataloader call(s) took at least %2 ms each (%3 ms in all); the "
                        "device waits for the input batch.")
            .arg(finding.occurrences.size())
            .arg(toUs(kSlowDataloaderNs) / 1000.0, 0, 'f', 0)
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Raise DataLoader num_workers, set pin_memory=True and persistent_workers=True, "
                        "and move heavy preprocessing out of the training loop.");
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.data = QJsonObject{{QStringLiteral("count"), static_cast<int>(finding.occurrences.size())},
                               {QStringLiteral("threshold_us"), toUs(kSlowDataloaderNs)}};
    findings.push_back(std::move(finding));
}

} // namespace at
