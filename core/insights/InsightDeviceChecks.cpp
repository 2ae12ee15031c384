// Device-side checks over the kernel table, the device lanes and the AI Core counters
// (FORMATS.md §9.6: AI CPU, dynamic shape, Block Dim, operator no bound, AI Core frequency, byte
// alignment).

#include "InsightChecks.h"
#include "InsightSupport.h"

#include "KernelBound.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace at {

using namespace insights;

namespace {

// §9.6 AI CPU: the check runs when the longest AI CPU op is at least 20 µs.
constexpr TimeNs kAiCpuMinLongestNs = 20'000;
// §9.6 Operator no bound: no ratio above operator_bound_ratio 0.8, and the op longer than 20 µs.
constexpr double kOperatorBoundRatio = 0.8;
constexpr TimeNs kNoBoundMinDurationNs = 20'000;
// §9.6 AI Core frequency: Σ(max − f)/(max·n) at or above 0.05 per op name.
constexpr double kFrequencyDropRatio = 0.05;
// §9.6 Byte alignment: SDMA transfers above 512 B that are not a multiple of 512 B; priority low
// below 0.2 of the checked tasks' time, high from 0.7.
constexpr std::int64_t kAlignmentBytes = 512;
constexpr double kAlignmentLowShare = 0.2;
constexpr double kAlignmentHighShare = 0.7;

QString typeOf(const TraceModel &model, const KernelRecord &row)
{
    return model.strings().qstring(row.type);
}

int intProperty(const TraceModel &model, int group, const char *key)
{
    if (group < 0 || group >= static_cast<int>(model.groups().size()))
        return 0;
    bool ok = false;
    const int value = static_cast<int>(model.groups()[static_cast<std::size_t>(group)]
                                           .collection.property(QString::fromLatin1(key))
                                           .toDouble(&ok));
    return ok ? value : 0;
}

SliceRef sliceOfRow(const KernelRecord &row)
{
    return row.joined() ? SliceRef{row.thread, row.slice} : SliceRef{};
}

FindingOccurrence occurrenceOfRow(const TraceModel &model, const KernelRecord &row)
{
    if (row.joined())
        return occurrenceOf(model, sliceOfRow(row));
    FindingOccurrence o;
    o.group = row.group;
    o.name = model.strings().qstring(row.name);
    o.start = row.start;
    o.duration = row.duration;
    return o;
}

// Per source group: its kernel rows carry an OP State and none is "static" (§9.6 DynamicShapeChecker:
// flagged when no op is static). Groups without the column are not judged.
struct ShapeStates
{
    int dynamicOps = 0, staticOps = 0, otherOps = 0;
    bool isDynamic() const { return staticOps == 0 && dynamicOps > 0; }
};

std::vector<ShapeStates> shapeStatesByGroup(const TraceModel &model)
{
    std::vector<ShapeStates> states(std::max<std::size_t>(model.groups().size(), 1));
    for (const KernelRecord &row : model.kernels().rows()) {
        if (row.opState == 0)
            continue;
        auto &s = states[std::min(states.size() - 1, static_cast<std::size_t>(std::max(row.group, 0)))];
        const std::string_view state = model.strings().view(row.opState);
        if (state == "dynamic")
            ++s.dynamicOps;
        else if (state == "static")
            ++s.staticOps;
        else
            ++s.otherOps; // N/A: communication and other rows without a compiled shape
    }
    return states;
}

bool groupIsDynamic(const std::vector<ShapeStates> &states, int group)
{
    return states[std::min(states.size() - 1, static_cast<std::size_t>(std::max(group, 0)))].isDynamic();
}

} // namespace

void checkDynamicShape(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    const std::vector<ShapeStates> states = shapeStatesByGroup(model);
    ShapeStates total;
    QJsonArray ranks;
    for (std::size_t g = 0; g < states.size(); ++g) {
        if (!states[g].isDynamic() || !context.covers(static_cast<int>(g)))
            continue;
        total.dynamicOps += states[g].dynamicOps;
        total.otherOps += states[g].otherOps;
        ranks.append(context.rankOfGroup(static_cast<int>(g)));
    }
    if (ranks.isEmpty())
        return;
    // What dynamic shapes cost: the online operator compilation of the flagged ranks (aclopCompile*
    // and aclopCompileAndExecute calls on the CANN lanes).
    Finding finding;
    forEachSlice(
        model, threadsOfLayers(context, {Layer::CannApi}),
        [](std::string_view name) { return name.starts_with("AscendCL@aclopCompile"); },
        [&](SliceRef ref) {
            if (!groupIsDynamic(states, groupOfThread(model, ref.thread)))
                return;
            FindingOccurrence o = occurrenceOf(model, ref);
            finding.timeAtStake += o.duration;
            finding.pieces.push_back({o.group, o.start, o.start + o.duration, o.duration});
            finding.occurrences.push_back(o);
        });
    const auto compileCalls = static_cast<int>(finding.occurrences.size());
    if (finding.occurrences.empty()) { // nothing compiled: point at the longest dynamic kernels
        for (const KernelRecord &row : model.kernels().rows()) {
            if (row.opState != 0 && model.strings().view(row.opState) == "dynamic" &&
                groupIsDynamic(states, row.group) && context.covers(row.group))
                finding.occurrences.push_back(occurrenceOfRow(model, row));
        }
    }
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.title = InsightText::tr("Operators run with dynamic shapes");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("All %1 operators with an OP State are dynamic-shape operators (none is static), "
                        "so they are compiled at run time: %2 operator compilation call(s) took %3 ms.")
            .arg(total.dynamicOps)
            .arg(compileCalls)
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix = InsightText::tr("Use the precompiled binary operators: call "
                                  "torch_npu.npu.set_compile_mode(jit_compile=False) (and "
                                  "torch_npu.npu.config.allow_internal_format = False) before the model "
                                  "runs, or keep the input shapes fixed.");
    finding.data = QJsonObject{{QStringLiteral("dynamic_ops"), total.dynamicOps},
                               {QStringLiteral("static_ops"), 0},
                               {QStringLiteral("other_ops"), total.otherOps},
                               {QStringLiteral("compile_calls"), compileCalls},
                               {QStringLiteral("ranks"), ranks}};
    findings.push_back(std::move(finding));
}

void checkAiCpu(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    std::set<std::uint64_t> aicpu;
    std::vector<SliceRef> tasks;
    for (const KernelRecord &row : model.kernels().rows()) {
        if (row.joined() && context.covers(row.group) && typeOf(model, row) == QLatin1String("AI_CPU") &&
            aicpu.insert(sliceKey(sliceOfRow(row))).second)
            tasks.push_back(sliceOfRow(row));
    }
    for (int t : threadsOfLayers(context, {Layer::AiCpu})) {
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        if (slices.depthCount() == 0)
            continue;
        for (std::uint32_t i = slices.depthRange(0).first; i < slices.depthRange(0).second; ++i) {
            if (aicpu.insert(sliceKey(SliceRef{t, i})).second)
                tasks.push_back(SliceRef{t, i});
        }
    }
    TimeNs longest = 0;
    for (const SliceRef &ref : tasks)
        longest = std::max(longest,
                           model.threads()[static_cast<std::size_t>(ref.thread)].slices.duration(ref.index));
    if (tasks.empty() || longest < kAiCpuMinLongestNs)
        return;
    // The other device work of each group: while it runs, the AI CPU op is hidden behind it.
    std::vector<std::vector<Interval>> others(std::max<std::size_t>(model.groups().size(), 1));
    for (int t : threadsOfLayers(context, {Layer::DeviceStreams})) {
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        if (slices.depthCount() == 0)
            continue;
        auto &list = others[std::min(others.size() - 1, static_cast<std::size_t>(groupOfThread(model, t)))];
        for (std::uint32_t i = slices.depthRange(0).first; i < slices.depthRange(0).second; ++i) {
            if (!aicpu.count(sliceKey(SliceRef{t, i})) && !isWaitTask(model.strings().view(slices.name(i))))
                list.push_back({slices.start(i), slices.end(i)});
        }
    }
    for (auto &list : others)
        list = mergeIntervals(std::move(list));
    Finding finding;
    std::vector<std::pair<FindingOccurrence, TimeNs>> exposed;
    for (const SliceRef &ref : tasks) {
        FindingOccurrence o = occurrenceOf(model, ref);
        const auto &busy = others[std::min(others.size() - 1, static_cast<std::size_t>(o.group))];
        const TimeNs alone = uncoveredLength(busy, o.start, o.start + o.duration);
        if (alone > 0)
            exposed.push_back({o, alone});
    }
    std::stable_sort(exposed.begin(), exposed.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    for (const auto &[occurrence, alone] : exposed) {
        finding.timeAtStake += alone;
        finding.pieces.push_back(
            {occurrence.group, occurrence.start, occurrence.start + occurrence.duration, alone});
        if (finding.occurrences.size() < kMaxOccurrences)
            finding.occurrences.push_back(occurrence);
    }
    if (finding.timeAtStake <= 0)
        return;
    finding.title = InsightText::tr("AI CPU operators on the critical path");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("%1 AI CPU operator run(s) kept the device waiting for %2 ms while no other "
                        "device task ran. AI CPU operators are far slower than AI Core ones.")
            .arg(exposed.size())
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Find the operator's AI Core variant: change the input data type (float instead "
                        "of double, int32 instead of int64), move the operation off the step, or replace "
                        "it by an equivalent torch_npu API.");
    finding.data = QJsonObject{{QStringLiteral("aicpu_ops"), static_cast<int>(tasks.size())},
                               {QStringLiteral("on_critical_path"), static_cast<int>(exposed.size())},
                               {QStringLiteral("longest_us"), toUs(longest)},
                               {QStringLiteral("min_longest_us"), toUs(kAiCpuMinLongestNs)}};
    findings.push_back(std::move(finding));
}

void checkBlockDim(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    // §9.6: the Block Dim check is skipped for dynamic-shape profiles (the tiling follows the shape).
    const std::vector<ShapeStates> states = shapeStatesByGroup(model);
    Finding finding;
    std::vector<std::pair<FindingOccurrence, TimeNs>> flagged;
    TimeNs flaggedTime = 0;
    for (const KernelRecord &row : model.kernels().rows()) {
        if (groupIsDynamic(states, row.group) || !context.covers(row.group))
            continue;
        const QString type = typeOf(model, row);
        int cores = 0;
        if (type == QLatin1String("AI_CORE"))
            cores = intProperty(model, row.group, "ai_core_num");
        else if (type == QLatin1String("AI_VECTOR_CORE") || type == QLatin1String("MIX_AIC"))
            cores = intProperty(model, row.group, "aiv_num");
        if (cores <= 0 || row.blockDim <= 0 || row.blockDim % cores == 0)
            continue;
        // §9.6: a MIX_AIC kernel whose Mix Block Dim fills the vector cores passes.
        if (type == QLatin1String("MIX_AIC") && row.mixBlockDim > 0 && row.mixBlockDim % cores == 0)
            continue;
        // The last wave of blocks leaves (cores − blockDim % cores) cores idle.
        const std::int64_t waves = (row.blockDim + cores - 1) / cores;
        const double idleShare =
            static_cast<double>(cores * waves - row.blockDim) / static_cast<double>(cores * waves);
        const auto idle = static_cast<TimeNs>(std::llround(idleShare * static_cast<double>(row.duration)));
        flagged.push_back({occurrenceOfRow(model, row), idle});
        finding.pieces.push_back({row.group, row.start, row.start + row.duration, idle});
        flaggedTime += row.duration;
    }
    if (flagged.empty())
        return;
    std::stable_sort(flagged.begin(), flagged.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    for (const auto &[occurrence, idle] : flagged) {
        finding.timeAtStake += idle;
        if (finding.occurrences.size() < kMaxOccurrences)
            finding.occurrences.push_back(occurrence);
    }
    finding.title = InsightText::tr("Block Dim does not fill the AI cores");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("%1 kernel run(s) (%2 ms) have a Block Dim that is not a multiple of the "
                        "core count, so their last wave leaves cores idle: about %3 ms of core "
                        "time.")
            .arg(flagged.size())
            .arg(toUs(flaggedTime) / 1000.0, 0, 'f', 3)
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Tune the operator's tiling so Block Dim is a multiple of the core count (AOE "
                        "tuning, or a shape the operator tiles evenly).");
    finding.data = QJsonObject{{QStringLiteral("kernels"), static_cast<int>(flagged.size())},
                               {QStringLiteral("kernel_time_us"), toUs(flaggedTime)}};
    findings.push_back(std::move(finding));
}

void checkOperatorNoBound(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    const KernelTable &table = model.kernels();
    static const std::set<QString> kRatios = {QStringLiteral("mac_ratio"),    QStringLiteral("vec_ratio"),
                                              QStringLiteral("scalar_ratio"), QStringLiteral("mte1_ratio"),
                                              QStringLiteral("mte2_ratio"),   QStringLiteral("mte3_ratio")};
    std::vector<std::size_t> columns;
    for (std::size_t c = 0; c < table.columns().size(); ++c) {
        if (kRatios.count(table.columns()[c].name))
            columns.push_back(c);
    }
    if (columns.empty())
        return;
    const KernelBoundClassifier classifier(table);
    // §9.6: skipped for dynamic-shape profiles, like Block Dim.
    const std::vector<ShapeStates> states = shapeStatesByGroup(model);
    std::map<QString, double> boundUs;
    Finding finding;
    for (std::size_t r = 0; r < table.size(); ++r) {
        const KernelRecord &row = table.rows()[r];
        if (groupIsDynamic(states, row.group) || !context.covers(row.group))
            continue;
        boundUs[kernelBoundName(classifier.classify(r))] += toUs(row.duration);
        bool any = false, bound = false;
        for (std::size_t c : columns) {
            const double v = table.metric(r, c);
            if (std::isnan(v))
                continue;
            any = any || v > 0;
            bound = bound || v > kOperatorBoundRatio;
        }
        if (!any || bound || row.duration <= kNoBoundMinDurationNs)
            continue;
        finding.timeAtStake += row.duration;
        finding.pieces.push_back({row.group, row.start, row.start + row.duration, row.duration});
        finding.occurrences.push_back(occurrenceOfRow(model, row));
    }
    if (finding.occurrences.empty())
        return;
    const int count = static_cast<int>(finding.occurrences.size());
    QJsonObject bounds;
    for (const auto &[name, us] : boundUs) {
        if (!name.isEmpty())
            bounds.insert(name, us);
    }
    finding.title = InsightText::tr("Operators bound by no pipe");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("%1 kernel run(s) longer than %2 µs (%3 ms) keep no pipe (cube, vector, "
                        "scalar, MTE) busier than %4 %: they wait on latency, synchronisation or "
                        "poor tiling.")
            .arg(count)
            .arg(toUs(kNoBoundMinDurationNs), 0, 'f', 0)
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3)
            .arg(100.0 * kOperatorBoundRatio, 0, 'f', 0);
    finding.fix =
        InsightText::tr("Tune these operators with AOE, check their tiling and data formats, or fuse them "
                        "with their neighbours.");
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.data = QJsonObject{{QStringLiteral("kernels"), count},
                               {QStringLiteral("bound_ratio"), kOperatorBoundRatio},
                               {QStringLiteral("time_by_bound_us"), bounds}};
    findings.push_back(std::move(finding));
}

void checkAiCoreFrequency(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    for (const CounterSeries &series : model.counters()) {
        if (model.strings().view(series.name) != "AI Core Freq" || series.times.empty())
            continue;
        const int group = model.processes()[static_cast<std::size_t>(series.process)].group;
        if (!context.covers(group))
            continue;
        double maxMHz = intProperty(model, group, "aic_frequency (MHz)");
        if (maxMHz <= 0)
            maxMHz = series.maxValue;
        if (maxMHz <= 0)
            continue;
        // The kernels of the group: AI_CORE / MIX_AIC rows of the kernel table, else every device task.
        std::vector<SliceRef> kernels;
        for (const KernelRecord &row : model.kernels().rows()) {
            const QString type = typeOf(model, row);
            if (row.group == group && row.joined() &&
                (type == QLatin1String("AI_CORE") || type == QLatin1String("MIX_AIC")))
                kernels.push_back(sliceOfRow(row));
        }
        if (kernels.empty()) {
            for (int t : threadsOfLayers(context, {Layer::DeviceStreams})) {
                const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
                if (groupOfThread(model, t) != group || slices.depthCount() == 0)
                    continue;
                for (std::uint32_t i = slices.depthRange(0).first; i < slices.depthRange(0).second; ++i) {
                    if (!isWaitTask(model.strings().view(slices.name(i))))
                        kernels.push_back(SliceRef{t, i});
                }
            }
        }
        // Per op name: each run's lowest frequency (the sample holding at its start and every sample
        // up to its end).
        struct Runs
        {
            std::vector<std::pair<FindingOccurrence, double>> runs;
            double dropSum = 0;
        };
        std::map<QString, Runs> byName;
        for (const SliceRef &ref : kernels) {
            FindingOccurrence o = occurrenceOf(model, ref);
            auto it = std::upper_bound(series.times.begin(), series.times.end(), o.start);
            std::size_t i =
                it == series.times.begin() ? 0 : static_cast<std::size_t>(it - series.times.begin()) - 1;
            double lowest = series.values[i];
            for (++i; i < series.times.size() && series.times[i] <= o.start + o.duration; ++i)
                lowest = std::min(lowest, series.values[i]);
            Runs &runs = byName[o.name];
            runs.dropSum += (maxMHz - lowest) / maxMHz;
            runs.runs.push_back({o, lowest});
        }
        Finding finding;
        QJsonArray ops;
        double lowestSeen = maxMHz;
        for (auto &[name, runs] : byName) {
            const double ratio = runs.dropSum / static_cast<double>(runs.runs.size());
            if (ratio < kFrequencyDropRatio)
                continue;
            double sum = 0, low = maxMHz;
            for (const auto &[occurrence, mhz] : runs.runs) {
                sum += mhz;
                low = std::min(low, mhz);
                if (mhz < maxMHz) {
                    const auto lost = static_cast<TimeNs>(
                        std::llround(static_cast<double>(occurrence.duration) * (maxMHz - mhz) / maxMHz));
                    finding.timeAtStake += lost;
                    finding.pieces.push_back(
                        {occurrence.group, occurrence.start, occurrence.start + occurrence.duration, lost});
                    finding.occurrences.push_back(occurrence);
                }
            }
            lowestSeen = std::min(lowestSeen, low);
            ops.append(QJsonObject{{QStringLiteral("name"), name},
                                   {QStringLiteral("count"), static_cast<int>(runs.runs.size())},
                                   {QStringLiteral("drop_ratio"), ratio},
                                   {QStringLiteral("avg_mhz"), sum / static_cast<double>(runs.runs.size())},
                                   {QStringLiteral("min_mhz"), low}});
        }
        if (finding.occurrences.empty())
            continue;
        finding.title = InsightText::tr("AI Core frequency drops during kernels");
        finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
        finding.explanation =
            InsightText::tr("The AI Core clock fell to %1 MHz (rated %2 MHz) while %3 operator(s) "
                            "ran, slowing them by about %4 ms.")
                .arg(lowestSeen, 0, 'f', 0)
                .arg(maxMHz, 0, 'f', 0)
                .arg(ops.size())
                .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
        finding.fix = InsightText::tr("Check the device's power and temperature (npu-smi info): a power cap, "
                                      "overheating or a power-saving mode lowers the clock.");
        keepLongest(finding.occurrences, kMaxOccurrences);
        finding.data = QJsonObject{{QStringLiteral("rated_mhz"), maxMHz},
                                   {QStringLiteral("drop_ratio_threshold"), kFrequencyDropRatio},
                                   {QStringLiteral("ops"), ops}};
        findings.push_back(std::move(finding));
    }
}

void checkByteAlignment(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    Finding finding;
    TimeNs checkedTime = 0;
    std::int64_t bytes = 0;
    forEachSlice(
        model, threadsOfLayers(context, {Layer::Communication}),
        [](std::string_view name) { return name == "Memcpy" || name == "Reduce_Inline"; },
        [&](SliceRef ref) {
            QString transport, link;
            std::int64_t size = -1;
            for (const auto &[key, value] : model.sliceArgs(ref)) {
                if (key == QLatin1String("transport type"))
                    transport = value;
                else if (key == QLatin1String("link type"))
                    link = value;
                else if (key == QLatin1String("size(Byte)"))
                    size = value.toLongLong();
            }
            if (transport != QLatin1String("SDMA") || link == QLatin1String("ON_CHIP"))
                return;
            FindingOccurrence o = occurrenceOf(model, ref);
            checkedTime += o.duration;
            if (size <= kAlignmentBytes || size % kAlignmentBytes == 0)
                return;
            finding.timeAtStake += o.duration;
            finding.pieces.push_back({o.group, o.start, o.start + o.duration, o.duration});
            bytes += size;
            finding.occurrences.push_back(o);
        });
    if (finding.occurrences.empty())
        return;
    const double share =
        static_cast<double>(finding.timeAtStake) / static_cast<double>(std::max<TimeNs>(checkedTime, 1));
    finding.title = InsightText::tr("SDMA transfers not aligned to 512 bytes");
    finding.severity = share >= kAlignmentHighShare ? Severity::High
                       : share < kAlignmentLowShare ? Severity::Low
                                                    : Severity::Medium;
    finding.explanation =
        InsightText::tr("%1 SDMA transfer(s) across chips (%2 ms, %3 % of the SDMA transfer "
                        "time) move a size that is not a multiple of 512 bytes, which lowers "
                        "their bandwidth.")
            .arg(finding.occurrences.size())
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3)
            .arg(100.0 * share, 0, 'f', 1);
    finding.fix =
        InsightText::tr("Pad the communicated tensors (or the bucket size, e.g. DDP bucket_cap_mb) so each "
                        "transfer is a multiple of 512 bytes.");
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.data = QJsonObject{{QStringLiteral("transfers"), static_cast<int>(finding.occurrences.size())},
                               {QStringLiteral("bytes"), static_cast<double>(bytes)},
                               {QStringLiteral("share_of_sdma_time"), share}};
    findings.push_back(std::move(finding));
}

} // namespace at
