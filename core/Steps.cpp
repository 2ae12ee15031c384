#include "Steps.h"

#include <QRegularExpression>

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace at {

QString stepSourceName(StepSource source)
{
    switch (source) {
    case StepSource::ProfilerStep:
        return QStringLiteral("ProfilerStep slices");
    case StepSource::Iteration:
        return QStringLiteral("Iteration slices (step trace)");
    case StepSource::Declared:
        return QStringLiteral("step windows of the source");
    case StepSource::StepTraceCsv:
        return QStringLiteral("step_trace table");
    case StepSource::KernelStepId:
        return QStringLiteral("Step Id of the kernel table");
    case StepSource::GpuAnnotation:
        return QStringLiteral("ProfilerStep GPU annotations");
    }
    return {};
}

int adjacentStep(const std::vector<Step> &steps, int group, TimeNs t, int direction)
{
    std::vector<int> ofGroup; // detectSteps orders each group's steps by start
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].group == group)
            ofGroup.push_back(static_cast<int>(i));
    int current = -1;
    for (std::size_t k = 0; k < ofGroup.size(); ++k) {
        const Step &s = steps[static_cast<std::size_t>(ofGroup[k])];
        if (s.begin() <= t && t <= s.end())
            current = static_cast<int>(k);
    }
    if (current >= 0) {
        const int next = current + (direction > 0 ? 1 : -1);
        return next >= 0 && next < static_cast<int>(ofGroup.size()) ? ofGroup[static_cast<std::size_t>(next)]
                                                                    : -1;
    }
    if (direction > 0) {
        for (int i : ofGroup)
            if (steps[static_cast<std::size_t>(i)].begin() > t)
                return i;
        return -1;
    }
    for (auto it = ofGroup.rbegin(); it != ofGroup.rend(); ++it)
        if (steps[static_cast<std::size_t>(*it)].end() < t)
            return *it;
    return -1;
}

int findStep(const std::vector<Step> &steps, std::int64_t number, int group)
{
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].number == number && (group < 0 || steps[i].group == group))
            return static_cast<int>(i);
    return -1;
}

namespace {

constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::min();

struct Interval
{
    TimeNs begin;
    TimeNs end;
};

// Total length of the union of intervals clipped to [lo, hi].
TimeNs unionLength(std::vector<Interval> intervals, TimeNs lo, TimeNs hi)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval &a, const Interval &b) { return a.begin < b.begin; });
    TimeNs total = 0, curBegin = kNoTime, curEnd = kNoTime;
    for (const Interval &i : intervals) {
        const TimeNs b = std::max(i.begin, lo), e = std::min(i.end, hi);
        if (e <= b)
            continue;
        if (curEnd == kNoTime || b > curEnd) {
            if (curEnd != kNoTime)
                total += curEnd - curBegin;
            curBegin = b;
            curEnd = e;
        } else {
            curEnd = std::max(curEnd, e);
        }
    }
    if (curEnd != kNoTime)
        total += curEnd - curBegin;
    return total;
}

class StepFinder
{
public:
    StepFinder(const TraceModel &model, int group) : m_model(model), m_group(group) {}

    std::vector<Step> find()
    {
        std::vector<Step> steps =
            fromSlices(Layer::Framework, QStringLiteral("^ProfilerStep#(\\d+)$"), StepSource::ProfilerStep);
        if (steps.empty())
            steps = fromGpuAnnotations();
        if (steps.empty())
            steps = fromSlices(Layer::StepTrace, QStringLiteral("^Iteration (\\d+)$"), StepSource::Iteration);
        if (steps.empty())
            steps = fromDeclared();
        if (steps.empty())
            steps = fromStepTraceTable();
        if (steps.empty())
            steps = fromKernelStepIds();
        std::sort(steps.begin(), steps.end(),
                  [](const Step &a, const Step &b) { return a.hostBegin < b.hostBegin; });
        if (!steps.empty())
            assignDeviceWork(steps);
        return steps;
    }

private:
    Layer layerOf(int thread) const
    {
        const ThreadInfo &t = m_model.threads()[static_cast<std::size_t>(thread)];
        return m_model.processes()[static_cast<std::size_t>(t.process)].layer;
    }
    int groupOf(int thread) const
    {
        const ThreadInfo &t = m_model.threads()[static_cast<std::size_t>(thread)];
        return m_model.processes()[static_cast<std::size_t>(t.process)].group;
    }
    std::vector<int> threadsOf(std::initializer_list<Layer> layers) const
    {
        std::vector<int> out;
        for (int t = 0; t < static_cast<int>(m_model.threads().size()); ++t)
            if (groupOf(t) == m_group && std::find(layers.begin(), layers.end(), layerOf(t)) != layers.end())
                out.push_back(t);
        return out;
    }

    Step makeStep(std::int64_t number, TimeNs begin, TimeNs end, StepSource source, QString label = {}) const
    {
        Step s;
        s.group = m_group;
        s.number = number;
        s.source = source;
        s.label = label.isEmpty() ? QStringLiteral("Step %1").arg(number) : label;
        s.hostBegin = begin;
        s.hostEnd = std::max(begin, end);
        return s;
    }

    // Every slice of the group's lanes of this layer whose name matches `pattern`, with the number its first
    // capture gives: visit(step number, slice). Names are interned: each distinct name is tested once.
    template <class Visit> void forEachNumberedSlice(Layer layer, const QString &pattern, Visit visit) const
    {
        const QRegularExpression re(pattern);
        const StringPool &strings = m_model.strings();
        for (int t : threadsOf({layer})) {
            const SliceTable &table = m_model.threads()[static_cast<std::size_t>(t)].slices;
            std::map<StringId, std::int64_t> numberOfName;
            for (std::uint32_t i = 0; i < table.size(); ++i) {
                auto it = numberOfName.find(table.name(i));
                if (it == numberOfName.end()) {
                    const auto match = re.match(strings.qstring(table.name(i)));
                    it = numberOfName
                             .emplace(table.name(i), match.hasMatch() ? match.captured(1).toLongLong() : -1)
                             .first;
                }
                if (it->second >= 0)
                    visit(it->second, SliceRef{t, i});
            }
        }
    }

    Step stepOfSlice(std::int64_t number, SliceRef slice, StepSource source) const
    {
        const SliceTable &table = m_model.threads()[static_cast<std::size_t>(slice.thread)].slices;
        Step s = makeStep(number, table.start(slice.index), table.end(slice.index), source,
                          m_model.strings().qstring(table.name(slice.index)));
        s.marker = slice;
        return s;
    }

    static std::vector<Step> inNumberOrder(const std::map<std::int64_t, Step> &byNumber)
    {
        std::vector<Step> out;
        for (const auto &entry : byNumber)
            out.push_back(entry.second);
        return out;
    }

    std::vector<Step> fromSlices(Layer layer, const QString &pattern, StepSource source) const
    {
        std::map<std::int64_t, Step> byNumber; // one step per number (the first seen)
        forEachNumberedSlice(layer, pattern, [&](std::int64_t number, SliceRef slice) {
            if (!byNumber.count(number))
                byNumber.emplace(number, stepOfSlice(number, slice, source));
        });
        return inNumberOrder(byNumber);
    }

    // A GPU trace whose host steps are missing (the host thread not captured, or filtered out) can still
    // mark them on the GPU: a gpu_user_annotation "ProfilerStep#N" spans the GPU work launched while step N
    // was the innermost annotation (FORMATS.md §10.8), in pieces on every stream it ran on. Step N is the
    // span of its pieces; the work in it is found by device time (assignDeviceWork), not by launch flows.
    std::vector<Step> fromGpuAnnotations() const
    {
        std::map<std::int64_t, Step> byNumber;
        forEachNumberedSlice(Layer::DeviceStreams, QStringLiteral("^ProfilerStep#(\\d+)$"),
                             [&](std::int64_t number, SliceRef slice) {
                                 const Step piece = stepOfSlice(number, slice, StepSource::GpuAnnotation);
                                 auto [it, added] = byNumber.emplace(number, piece);
                                 Step &s = it->second;
                                 if (piece.hostBegin < s.hostBegin)
                                     s.marker = slice;
                                 s.hostBegin = std::min(s.hostBegin, piece.hostBegin);
                                 s.hostEnd = std::max(s.hostEnd, piece.hostEnd);
                             });
        return inNumberOrder(byNumber);
    }

    std::vector<Step> fromDeclared() const
    {
        std::vector<Step> out;
        for (const DeclaredStep &d : m_model.declaredSteps())
            if (d.group == m_group && findStep(out, d.number) < 0)
                out.push_back(makeStep(d.number, d.begin, d.end, StepSource::Declared));
        return out;
    }

    // msprof step_trace_*.csv: Iteration ID with absolute µs FP Start .. Iteration End.
    std::vector<Step> fromStepTraceTable() const
    {
        std::vector<Step> out;
        for (const SummaryTable &table : m_model.summaryTables()) {
            if (table.group != m_group || table.type != QLatin1String("step_trace"))
                continue;
            auto columnOf = [&table](const char *name) {
                const int c = table.column(QString::fromLatin1(name) + QStringLiteral("(us)"));
                return c >= 0 ? c : table.column(QString::fromLatin1(name));
            };
            const int idCol = table.column(QStringLiteral("Iteration ID"));
            const int startCol = columnOf("FP Start");
            const int endCol = columnOf("Iteration End");
            if (idCol < 0 || startCol < 0 || endCol < 0)
                continue;
            for (std::size_t r = 0; r < table.rowCount(); ++r) {
                const auto id = parseInt64(table.cell(r, idCol).toStdString());
                const auto start = parseMicrosToNs(table.cell(r, startCol).toStdString());
                const auto end = parseMicrosToNs(table.cell(r, endCol).toStdString());
                if (!id || !start || !end || *end < *start || findStep(out, *id) >= 0)
                    continue;
                out.push_back(makeStep(*id, *start - m_model.origin(), *end - m_model.origin(),
                                       StepSource::StepTraceCsv, QStringLiteral("Iteration %1").arg(*id)));
            }
        }
        return out;
    }

    std::vector<Step> fromKernelStepIds() const
    {
        std::map<std::int64_t, Step> byNumber;
        for (const KernelRecord &k : m_model.kernels().rows()) {
            if (k.group != m_group || k.stepId == KernelRecord::kNone || !k.joined())
                continue;
            auto it = byNumber.find(k.stepId);
            if (it == byNumber.end())
                it = byNumber
                         .emplace(k.stepId,
                                  makeStep(k.stepId, k.start, k.start + k.duration, StepSource::KernelStepId))
                         .first;
            it->second.hostBegin = std::min(it->second.hostBegin, k.start);
            it->second.hostEnd = std::max(it->second.hostEnd, k.start + k.duration);
        }
        std::vector<Step> out;
        for (auto &entry : byNumber)
            out.push_back(entry.second);
        return out;
    }

    // Names are interned: each distinct name is converted and tested once, not once per task.
    enum NameKind : std::uint8_t
    {
        Plain = 0,
        ProfilerMarker = 1, // PROFILING_ENABLE / _DISABLE bracket the whole collection (FORMATS.md §7.2)
        Communication = 2   // hcom_* ops
    };
    std::uint8_t nameKind(StringId name) const
    {
        auto it = m_nameKinds.find(name);
        if (it == m_nameKinds.end()) {
            const QString text = m_model.strings().qstring(name);
            std::uint8_t kind = Plain;
            if (text.startsWith(QLatin1String("PROFILING_")))
                kind |= ProfilerMarker;
            if (text.startsWith(QLatin1String("hcom_"), Qt::CaseInsensitive))
                kind |= Communication;
            it = m_nameKinds.emplace(name, kind).first;
        }
        return it->second;
    }
    bool isProfilerMarkerTask(StringId name) const { return nameKind(name) & ProfilerMarker; }

    // Index of the step whose host window holds t (the latest one starting at or before t), or -1.
    static int stepByHostTime(const std::vector<Step> &steps, TimeNs t)
    {
        auto it = std::upper_bound(steps.begin(), steps.end(), t,
                                   [](TimeNs v, const Step &s) { return v < s.hostBegin; });
        if (it == steps.begin())
            return -1;
        const int i = static_cast<int>(it - steps.begin()) - 1;
        return t <= steps[static_cast<std::size_t>(i)].hostEnd ? i : -1;
    }

    void assignDeviceWork(std::vector<Step> &steps) const
    {
        const std::vector<int> deviceThreads =
            threadsOf({Layer::DeviceStreams, Layer::AiCpu, Layer::Communication});
        // Per device thread, per slice: step index or -1.
        std::map<int, std::vector<int>> stepOfSlice;
        for (int t : deviceThreads)
            stepOfSlice[t].assign(m_model.threads()[static_cast<std::size_t>(t)].slices.size(), -1);

        // 1. Flows from host ops of the step to device work (steps with a host window only: a step of
        // GPU annotations is already a device window, which launches made before it do not fall in).
        std::vector<TimeNs> first(steps.size(), kNoTime), last(steps.size(), kNoTime);
        const std::vector<FlowInfo> noFlows;
        const std::vector<FlowInfo> &launches =
            steps.front().source == StepSource::GpuAnnotation ? noFlows : m_model.flows();
        for (const FlowInfo &f : launches) {
            if (!f.from.isValid() || !f.to.isValid() || groupOf(f.from.thread) != m_group)
                continue;
            const Layer fromLayer = layerOf(f.from.thread);
            if (fromLayer != Layer::Framework && fromLayer != Layer::CannApi)
                continue;
            auto slot = stepOfSlice.find(f.to.thread);
            if (slot == stepOfSlice.end())
                continue;
            const SliceTable &table = m_model.threads()[static_cast<std::size_t>(f.to.thread)].slices;
            if (isProfilerMarkerTask(table.name(f.to.index)))
                continue;
            const int s = stepByHostTime(steps, f.fromTime);
            if (s < 0)
                continue;
            slot->second[f.to.index] = s;
            const auto si = static_cast<std::size_t>(s);
            first[si] =
                first[si] == kNoTime ? table.start(f.to.index) : std::min(first[si], table.start(f.to.index));
            last[si] = std::max(last[si], table.end(f.to.index));
        }
        for (std::size_t i = 0; i < steps.size(); ++i) {
            steps[i].deviceBegin = first[i] == kNoTime ? steps[i].hostBegin : first[i];
            steps[i].deviceEnd = std::max(last[i], steps[i].hostEnd);
        }

        // 2. Work without flows: the step whose device window holds its start.
        std::vector<std::size_t> byDeviceBegin(steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i)
            byDeviceBegin[i] = i;
        std::sort(byDeviceBegin.begin(), byDeviceBegin.end(),
                  [&](std::size_t a, std::size_t b) { return steps[a].deviceBegin < steps[b].deviceBegin; });
        auto stepByDeviceTime = [&](TimeNs t) {
            auto it = std::upper_bound(byDeviceBegin.begin(), byDeviceBegin.end(), t,
                                       [&](TimeNs v, std::size_t s) { return v < steps[s].deviceBegin; });
            if (it == byDeviceBegin.begin())
                return -1;
            const std::size_t s = *(it - 1);
            return t <= steps[s].deviceEnd ? static_cast<int>(s) : -1;
        };
        std::vector<TimeNs> stageBegin(steps.size(), kNoTime), stageEnd(steps.size(), kNoTime);
        std::vector<std::vector<Interval>> computing(steps.size()), communication(steps.size());
        const bool hasKernelTable = groupHasKernelRows(deviceThreads);
        for (int t : deviceThreads) {
            const SliceTable &table = m_model.threads()[static_cast<std::size_t>(t)].slices;
            std::vector<int> &assigned = stepOfSlice[t];
            const bool isCommunicationLane = layerOf(t) == Layer::Communication;
            // §9.2: communication is the union of communication *ops*, never their plane tasks.
            const bool isPlaneLane =
                isCommunicationLane && m_model.threadDisplayName(t).startsWith(QLatin1String("Plane"));
            for (std::uint32_t i = 0; i < table.size(); ++i) {
                int s = assigned[i];
                if (s < 0 && !isProfilerMarkerTask(table.name(i)))
                    s = stepByDeviceTime(table.start(i));
                if (s < 0)
                    continue;
                const auto si = static_cast<std::size_t>(s);
                Step &step = steps[si];
                stageBegin[si] =
                    stageBegin[si] == kNoTime ? table.start(i) : std::min(stageBegin[si], table.start(i));
                stageEnd[si] = std::max(stageEnd[si], table.end(i));
                const Interval span{table.start(i), table.end(i)};
                if (isCommunicationLane) {
                    if (!isPlaneLane)
                        communication[si].push_back(span);
                    // Communication ops of the kernel table (hcom_allReduce_...) are compared like
                    // kernels; their plane tasks are not.
                    if (m_model.kernels().rowOfSlice(t, i) >= 0)
                        step.deviceTasks.push_back({t, i});
                    continue;
                }
                step.deviceTasks.push_back({t, i});
                step.flowAttributedTasks += assigned[i] >= 0 ? 1 : 0;
                if (isCommunicationTask({t, i}))
                    communication[si].push_back(span);
                else if (isComputeTask({t, i}, hasKernelTable))
                    computing[si].push_back(span);
            }
        }

        for (std::size_t i = 0; i < steps.size(); ++i) {
            Step &step = steps[i];
            std::sort(step.deviceTasks.begin(), step.deviceTasks.end(), [&](SliceRef a, SliceRef b) {
                if (a.thread != b.thread)
                    return a.thread < b.thread;
                const SliceTable &table = m_model.threads()[static_cast<std::size_t>(a.thread)].slices;
                return table.start(a.index) != table.start(b.index)
                           ? table.start(a.index) < table.start(b.index)
                           : a.index < b.index;
            });
            step.stageBegin = stageBegin[i] == kNoTime ? step.deviceBegin : stageBegin[i];
            step.stageEnd = stageEnd[i] == kNoTime ? step.deviceBegin : stageEnd[i];
            step.breakdown = overlapBreakdown(step.stageBegin, step.stageEnd)
                                 .value_or(derivedBreakdown(computing[i], communication[i], step.stageBegin,
                                                            step.stageEnd));
        }
    }

    bool isCommunicationTask(SliceRef ref) const
    {
        const std::int64_t row = m_model.kernels().rowOfSlice(ref.thread, ref.index);
        if (row >= 0) {
            const QString core = m_model.strings().qstring(
                m_model.kernels().rows()[static_cast<std::size_t>(row)].acceleratorCore);
            if (core.compare(QLatin1String("HCCL"), Qt::CaseInsensitive) == 0 ||
                core.compare(QLatin1String("COMMUNICATION"), Qt::CaseInsensitive) == 0)
                return true;
        }
        const SliceTable &table = m_model.threads()[static_cast<std::size_t>(ref.thread)].slices;
        return nameKind(table.name(ref.index)) & Communication;
    }

    bool groupHasKernelRows(const std::vector<int> &deviceThreads) const
    {
        for (int t : deviceThreads) {
            const SliceTable &table = m_model.threads()[static_cast<std::size_t>(t)].slices;
            for (std::uint32_t i = 0; i < table.size(); ++i)
                if (m_model.kernels().rowOfSlice(t, i) >= 0)
                    return true;
        }
        return false;
    }

    // FORMATS.md §9.2 compute tasks: the tasks the kernel table lists (COMPUTE_TASK_INFO, kernel_details,
    // op_summary) except HCCL's own AicpuKernel/AivKernel; without a kernel table every task except the
    // ones that table never lists (Notify Wait, Write Value, SDMA, EVENT_RECORD/WAIT, MEMCPY_ASYNC,
    // PLACE_HOLDER, the profiler markers).
    bool isComputeTask(SliceRef ref, bool hasKernelTable) const
    {
        const SliceTable &table = m_model.threads()[static_cast<std::size_t>(ref.thread)].slices;
        const StringId name = table.name(ref.index);
        auto it = m_computeNames.find(name);
        if (it == m_computeNames.end()) {
            const QString text = m_model.strings().qstring(name);
            const bool hcclKernel =
                text.endsWith(QLatin1String("AicpuKernel")) || text.endsWith(QLatin1String("AivKernel"));
            static const QRegularExpression notCompute(
                QStringLiteral(
                    "^(Notify[ _]?Wait|Notify[ _]?Record|Write[ _]?Value|SDMA|EVENT_RECORD|EVENT_WAIT|"
                    "MEMCPY_ASYNC|PCIE_DMA|PLACE_HOLDER|PROFILING_|Memcpy|Reduce_Inline|"
                    "RDMA_SEND|CAPTURE_)"),
                QRegularExpression::CaseInsensitiveOption);
            it = m_computeNames
                     .emplace(name,
                              std::make_pair(!hcclKernel, !hcclKernel && !notCompute.match(text).hasMatch()))
                     .first;
        }
        if (hasKernelTable)
            return it->second.first && m_model.kernels().rowOfSlice(ref.thread, ref.index) >= 0;
        return it->second.second;
    }

    // From the Overlap Analysis lanes (what torch_npu itself sums for step_trace_time.csv).
    std::optional<StepBreakdown> overlapBreakdown(TimeNs lo, TimeNs hi) const
    {
        StepBreakdown b;
        bool any = false;
        for (int t : threadsOf({Layer::OverlapAnalysis})) {
            const QString name = m_model.threadDisplayName(t);
            TimeNs *target = nullptr;
            if (name == QLatin1String("Computing"))
                target = &b.computing;
            else if (name == QLatin1String("Communication"))
                target = &b.communication;
            else if (name == QLatin1String("Communication(Not Overlapped)"))
                target = &b.communicationNotOverlapped;
            else if (name == QLatin1String("Free"))
                target = &b.free;
            if (!target)
                continue;
            const SliceTable &table = m_model.threads()[static_cast<std::size_t>(t)].slices;
            if (table.depthCount() == 0)
                continue;
            any = true;
            table.forEachOverlapping(0, lo, hi, [&](std::uint32_t i) {
                *target += std::max<TimeNs>(0, std::min(table.end(i), hi) - std::max(table.start(i), lo));
            });
        }
        if (!any)
            return std::nullopt;
        b.fromOverlapAnalysis = true;
        return b;
    }

    static StepBreakdown derivedBreakdown(const std::vector<Interval> &computing,
                                          const std::vector<Interval> &communication, TimeNs lo, TimeNs hi)
    {
        StepBreakdown b;
        b.computing = unionLength(computing, lo, hi);
        b.communication = unionLength(communication, lo, hi);
        std::vector<Interval> all = computing;
        all.insert(all.end(), communication.begin(), communication.end());
        const TimeNs busy = unionLength(all, lo, hi);
        b.communicationNotOverlapped = busy - b.computing;
        // Free: the gaps between busy intervals, over [first busy start, last busy end] (§9.2).
        TimeNs first = hi, last = lo;
        for (const Interval &i : all) {
            first = std::min(first, std::max(i.begin, lo));
            last = std::max(last, std::min(i.end, hi));
        }
        b.free = last > first ? (last - first) - busy : 0;
        return b;
    }

    const TraceModel &m_model;
    int m_group;
    mutable std::unordered_map<StringId, std::uint8_t> m_nameKinds;
    // name → (may be a compute task with a kernel table, is one without)
    mutable std::unordered_map<StringId, std::pair<bool, bool>> m_computeNames;
};

} // namespace

std::vector<Step> detectSteps(const TraceModel &model)
{
    std::vector<Step> steps;
    for (int g = 0; g < static_cast<int>(model.groups().size()); ++g) {
        std::vector<Step> found = StepFinder(model, g).find();
        steps.insert(steps.end(), std::make_move_iterator(found.begin()),
                     std::make_move_iterator(found.end()));
    }
    return steps;
}

} // namespace at
