// The Overview's ranks from a loaded model: one per source group, its steps' parts from the group's
// step_trace_time.csv (else the cluster data's breakdown of that rank, else the timeline's StepBreakdown) and
// what fills each part from the timeline (docs/OVERVIEW.md).

#include "InsightChecks.h"
#include "MemoryAnalysis.h"
#include "OverviewInternal.h"
#include "OverviewIntervals.h"
#include "Steps.h"
#include "TraceModel.h"
#include "cluster/ClusterNumbers.h"

#include <QRegularExpression>

#include <algorithm>
#include <unordered_map>

namespace at::overview {

namespace {

// What a host slice says about the device being idle under it (docs/OVERVIEW.md, "Free by cause").
enum HostCause : std::uint8_t
{
    NoCause = 0,
    DataLoading = 1,
    Synchronisation = 2,
    Dispatch = 3
};

// Labels of one kind of item (kernel types, op kinds), in first-seen order.
class Labels
{
public:
    int of(const QString &name)
    {
        auto [it, added] = m_index.emplace(name, static_cast<int>(m_names.size()));
        if (added)
            m_names.push_back(name);
        return it->second;
    }
    const std::vector<QString> &names() const { return m_names; }

private:
    std::map<QString, int> m_index;
    std::vector<QString> m_names;
};

class GroupOverview
{
public:
    GroupOverview(const TraceModel &model, int group, const cluster::ClusterModel *cluster,
                  const CollectiveWaits &waits)
        : m_model(model), m_group(group), m_waits(waits), m_context(model, cluster)
    {
        for (std::size_t t = 0; t < model.threads().size(); ++t) {
            const ThreadInfo &thread = model.threads()[t];
            const ProcessInfo &process = model.processes()[static_cast<std::size_t>(thread.process)];
            if (process.group != group)
                continue;
            if (process.layer == Layer::Framework || process.layer == Layer::CannApi)
                m_hostThreads.push_back({static_cast<int>(t), process.layer});
            else if (process.layer == Layer::Communication &&
                     !model.threadDisplayName(static_cast<int>(t)).startsWith(QLatin1String("Plane")))
                m_commThreads.push_back(static_cast<int>(t));
        }
        for (const KernelRecord &row : model.kernels().rows())
            m_hasKernels = m_hasKernels || row.group == group;
        for (const SummaryTable &table : model.summaryTables())
            if (table.group == group && table.type == QLatin1String("step_trace_time"))
                m_stepTrace = &table;
        m_rank = m_context.rankOfGroup(group);
        if (cluster)
            m_clusterRank = cluster->rank(m_rank);
    }

    OverviewRank build(const std::vector<Step> &allSteps)
    {
        OverviewRank r;
        r.rank = m_rank;
        r.group = m_group;
        const SourceGroup &source = m_model.groups()[static_cast<std::size_t>(m_group)];
        r.label = source.label.isEmpty() ? rankName(m_rank) : source.label;
        r.target.kind = OverviewTarget::Kind::Rank;
        r.target.group = m_group;
        r.target.rank = m_rank;
        r.warnings = source.collection.warnings;
        std::vector<const Step *> steps;
        for (const Step &s : allSteps)
            if (s.group == m_group)
                steps.push_back(&s);
        for (const Step *s : steps)
            r.steps.push_back(stepOverview(*s, steps.size()));
        r.mean = meanStep(r.steps);
        r.memoryPeak = memoryPeak();
        r.missing << m_notes;
        if (steps.empty())
            r.missing << OverviewText::tr(
                "No steps: no ProfilerStep#, Iteration or declared step was found, so "
                "the step cannot be split into parts.");
        if (!m_hasKernels)
            r.missing << OverviewText::tr(
                "No kernel table (kernel_details.csv / op_summary): computing is not "
                "split by kernel type.");
        if (m_hostThreads.empty())
            r.missing << OverviewText::tr("No host data: free time is not split by cause.");
        if (!r.memoryPeak)
            r.missing << OverviewText::tr("No memory data: no memory peak.");
        return r;
    }

private:
    OverviewStep stepOverview(const Step &s, std::size_t stepsOfGroup)
    {
        OverviewStep o;
        o.number = s.number;
        o.label = s.label;
        o.begin = s.begin();
        o.end = s.end();
        o.target = timeRange(o.begin, o.end);
        for (std::size_t i = 0; i < o.parts.size(); ++i)
            o.parts[i].part = static_cast<OverviewPart>(i);
        setParts(o, s, stepsOfGroup);
        fillContents(o, s);
        completeParts(o);
        return o;
    }

    OverviewTarget timeRange(TimeNs begin, TimeNs end, const QString &name = {}) const
    {
        OverviewTarget t;
        t.kind = OverviewTarget::Kind::TimeRange;
        t.group = m_group;
        t.rank = m_rank;
        t.begin = begin;
        t.end = end;
        t.name = name;
        return t;
    }

    // The row of step_trace_time.csv for this step: the one with its number, or the only row when the
    // file has no step numbers and the group one step.
    std::optional<std::size_t> stepTraceRow(const Step &s, std::size_t stepsOfGroup) const
    {
        if (!m_stepTrace)
            return std::nullopt;
        const int stepColumn = m_stepTrace->column(QStringLiteral("Step"));
        for (std::size_t row = 0; row < m_stepTrace->rowCount(); ++row) {
            const QString text = stepColumn >= 0 ? m_stepTrace->cell(row, stepColumn).trimmed() : QString();
            if (text.isEmpty() ? stepsOfGroup == 1 && m_stepTrace->rowCount() == 1
                               : text.toLongLong() == s.number)
                return row;
        }
        return std::nullopt;
    }

    // The parts from the file's row. A cell that is not a time (or is negative) leaves Preparing / Bubble
    // out; in Computing, Communication(Not Overlapped) or Free it makes the whole row unusable (false, with a
    // note).
    bool partsFromStepTrace(OverviewStep &o, std::size_t row, const Step &s)
    {
        o.source = OverviewPartsSource::StepTraceCsv;
        static const std::pair<OverviewPart, const char *> kColumns[] = {
            {OverviewPart::Computing, "Computing"},
            {OverviewPart::CommunicationNotOverlapped, "Communication(Not Overlapped)"},
            {OverviewPart::Free, "Free"},
            {OverviewPart::Bubble, "Bubble"},
            {OverviewPart::Preparing, "Preparing"}};
        for (const auto &[part, name] : kColumns) {
            const int column = m_stepTrace->column(QLatin1String(name));
            const QString text = column >= 0 ? m_stepTrace->cell(row, column).trimmed() : QString();
            const QByteArray utf8 = text.toUtf8();
            const std::optional<TimeNs> ns = cluster::parseDecimalToNs(
                std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())),
                cluster::TimeUnit::Microseconds);
            OverviewPartValue &v = o.part(part);
            v.present = ns.has_value() && *ns >= 0;
            v.time = v.present ? *ns : 0;
            if (!v.present && isAdditivePart(part) && part != OverviewPart::Preparing) {
                m_notes << OverviewText::tr(
                               "%1: step %2 has no time in column %3 ('%4'); its parts are recomputed "
                               "from the timeline.")
                               .arg(m_stepTrace->files.value(0, QStringLiteral("step_trace_time.csv")))
                               .arg(s.number)
                               .arg(QLatin1String(name), text.left(40));
                return false;
            }
        }
        return true;
    }

    void setParts(OverviewStep &o, const Step &s, std::size_t stepsOfGroup)
    {
        if (const auto row = stepTraceRow(s, stepsOfGroup)) {
            if (partsFromStepTrace(o, *row, s))
                return;
            for (OverviewPartValue &p : o.parts)
                p = {p.part, false, 0, {}, {}};
        }
        if (m_clusterRank)
            for (const cluster::RankStep &row : m_clusterRank->steps)
                if (row.step == s.number ||
                    (row.step == cluster::kNoStep && stepsOfGroup == 1 && m_clusterRank->steps.size() == 1)) {
                    o.source = OverviewPartsSource::Cluster;
                    setPartsFromRankStep(o, row);
                    return;
                }
        o.source = OverviewPartsSource::Timeline;
        o.part(OverviewPart::Computing) = {OverviewPart::Computing, true, s.breakdown.computing, {}, {}};
        o.part(OverviewPart::CommunicationNotOverlapped) = {
            OverviewPart::CommunicationNotOverlapped, true, s.breakdown.communicationNotOverlapped, {}, {}};
        o.part(OverviewPart::Free) = {OverviewPart::Free, true, s.breakdown.free, {}, {}};
        // Preparing (§9.2): the first device task's start − the host step's start, for a host step marker.
        if (s.source == StepSource::ProfilerStep && s.stageBegin >= s.hostBegin)
            o.part(OverviewPart::Preparing) = {
                OverviewPart::Preparing, true, s.stageBegin - s.hostBegin, {}, {}};
    }

    // A pooled string as QString, converted once per id (a step has up to millions of tasks, few names).
    const QString &text(StringId id)
    {
        auto it = m_texts.find(id);
        if (it == m_texts.end())
            it = m_texts.emplace(id, m_model.strings().qstring(id)).first;
        return it->second;
    }

    bool isCommunicationRow(const KernelRecord &row)
    {
        const QString &core = text(row.acceleratorCore);
        return core.compare(QLatin1String("HCCL"), Qt::CaseInsensitive) == 0 ||
               core.compare(QLatin1String("COMMUNICATION"), Qt::CaseInsensitive) == 0;
    }

    void fillContents(OverviewStep &o, const Step &s)
    {
        const TimeNs lo = s.stageBegin, hi = s.stageEnd;
        if (hi <= lo)
            return;
        Labels kernelTypes, opKinds;
        std::vector<LabelledInterval> computing, communication;
        std::map<StringId, OverviewKernel> kernels;
        const KernelTable &table = m_model.kernels();
        for (const SliceRef ref : s.deviceTasks) {
            const std::int64_t rowIndex = table.rowOfSlice(ref.thread, ref.index);
            if (rowIndex < 0) {
                // Without a kernel table the compute tasks are known by name only (FORMATS.md §9.2): they
                // still hide communication and fill no free gap, but no kernel type claims them.
                if (!m_hasKernels && isComputeTaskByName(ref))
                    computing.push_back(
                        {m_model.threads()[static_cast<std::size_t>(ref.thread)].slices.start(ref.index),
                         m_model.threads()[static_cast<std::size_t>(ref.thread)].slices.end(ref.index), -1});
                continue;
            }
            const KernelRecord &row = table.rows()[static_cast<std::size_t>(rowIndex)];
            const SliceTable &slices = m_model.threads()[static_cast<std::size_t>(ref.thread)].slices;
            const TimeNs b = slices.start(ref.index), e = slices.end(ref.index);
            const QString &name = text(row.name);
            if (isCommunicationRow(row)) {
                communication.push_back({b, e, opKinds.of(opKind(name))});
                continue;
            }
            // HCCL's own kernels are not compute tasks (FORMATS.md §9.2).
            if (name.endsWith(QLatin1String("AicpuKernel")) || name.endsWith(QLatin1String("AivKernel")))
                continue;
            QString type = text(row.acceleratorCore);
            if (type.isEmpty())
                type = OverviewText::tr("Unknown core");
            computing.push_back({b, e, kernelTypes.of(type)});
            OverviewKernel &k = kernels[row.name];
            if (k.count == 0) {
                k.name = name;
                k.type = type;
                k.target.kind = OverviewTarget::Kind::Kernel;
                k.target.group = m_group;
                k.target.rank = m_rank;
                k.target.name = name;
                k.target.begin = b;
                k.target.end = e;
            }
            ++k.count;
            k.total += row.duration;
        }
        for (int t : m_commThreads) {
            const SliceTable &slices = m_model.threads()[static_cast<std::size_t>(t)].slices;
            if (slices.depthCount() == 0)
                continue;
            slices.forEachOverlapping(0, lo, hi, [&](std::uint32_t i) {
                communication.push_back(
                    {slices.start(i), slices.end(i), opKinds.of(opKind(text(slices.name(i))))});
            });
        }

        const SweepResult sweep =
            sweepStep(computing, kernelTypes.names().size(), communication, opKinds.names().size(), lo, hi);
        OverviewPartValue &comp = o.part(OverviewPart::Computing);
        for (std::size_t i = 0; i < kernelTypes.names().size(); ++i)
            comp.items.push_back({OverviewItemKind::KernelType, kernelTypes.names()[i], -1,
                                  sweep.computingByLabel[i], sweep.computingCount[i],
                                  timeRange(sweep.longestComputing[i].begin, sweep.longestComputing[i].end)});
        sortByTime(comp.items);
        OverviewPartValue &comm = o.part(OverviewPart::CommunicationNotOverlapped);
        for (std::size_t i = 0; i < opKinds.names().size(); ++i)
            comm.items.push_back({OverviewItemKind::CommunicationOp, opKinds.names()[i], -1,
                                  sweep.communicationByLabel[i], sweep.communicationCount[i],
                                  timeRange(sweep.longestCommunication[i].begin,
                                            sweep.longestCommunication[i].end, opKinds.names()[i])});
        sortByTime(comm.items);
        if (comm.present)
            comm.byRank = waitingItems(m_waits.of(m_rank, s.number), comm.time, m_group);
        fillFreeCauses(o.part(OverviewPart::Free), sweep.freeGaps, lo, hi);
        // Recomputed Preparing (§9.2): the first computing or communication instant − the host step's start
        // (not the first task: a head MEMCPY_ASYNC is neither).
        OverviewPartValue &preparing = o.part(OverviewPart::Preparing);
        if (o.source == OverviewPartsSource::Timeline && preparing.present && sweep.busySpan)
            preparing.time = std::max<TimeNs>(0, sweep.busySpan->begin - s.hostBegin);
        // Preparing by the same causes as free time, over [host step start, + Preparing].
        if (preparing.present && preparing.time > 0 && s.source == StepSource::ProfilerStep)
            fillFreeCauses(preparing, {{s.hostBegin, s.hostBegin + preparing.time}}, s.hostBegin,
                           s.hostBegin + preparing.time);

        for (auto &[id, k] : kernels)
            o.topKernels.push_back(k);
        std::sort(o.topKernels.begin(), o.topKernels.end(),
                  [](const OverviewKernel &a, const OverviewKernel &b) {
                      return a.total != b.total ? a.total > b.total : a.name < b.name;
                  });
        if (o.topKernels.size() > kOverviewTopKernels)
            o.topKernels.resize(kOverviewTopKernels);
    }

    // A device task that is computing when the group has no kernel table: not on a communication lane, not
    // HCCL's own kernel, and none of the tasks a kernel table never lists (core/Steps' rule).
    bool isComputeTaskByName(SliceRef ref)
    {
        const ThreadInfo &thread = m_model.threads()[static_cast<std::size_t>(ref.thread)];
        if (m_model.processes()[static_cast<std::size_t>(thread.process)].layer == Layer::Communication)
            return false;
        const StringId id = thread.slices.name(ref.index);
        auto it = m_computeByName.find(id);
        if (it == m_computeByName.end()) {
            static const QRegularExpression notCompute(
                QStringLiteral(
                    "^(Notify[ _]?Wait|Notify[ _]?Record|Write[ _]?Value|SDMA|EVENT_RECORD|EVENT_WAIT|"
                    "MEMCPY_ASYNC|PCIE_DMA|PLACE_HOLDER|PROFILING_|Memcpy|Reduce_Inline|RDMA_SEND|"
                    "CAPTURE_|hcom_)"),
                QRegularExpression::CaseInsensitiveOption);
            const QString &name = text(id);
            const bool compute = !name.endsWith(QLatin1String("AicpuKernel")) &&
                                 !name.endsWith(QLatin1String("AivKernel")) &&
                                 !notCompute.match(name).hasMatch();
            it = m_computeByName.emplace(id, compute).first;
        }
        return it->second;
    }

    static void sortByTime(std::vector<OverviewItem> &items)
    {
        std::stable_sort(items.begin(), items.end(),
                         [](const OverviewItem &a, const OverviewItem &b) { return a.time > b.time; });
    }

    HostCause causeOf(int thread, Layer layer, std::uint32_t slice)
    {
        const SliceTable &slices = m_model.threads()[static_cast<std::size_t>(thread)].slices;
        const StringId name = slices.name(slice);
        const auto key = (static_cast<std::uint64_t>(slices.category(slice)) << 33) |
                         (static_cast<std::uint64_t>(layer == Layer::CannApi) << 32) | name;
        auto it = m_causes.find(key);
        if (it != m_causes.end())
            return it->second;
        const QString text = m_model.strings().qstring(name);
        const QString category = m_model.strings().qstring(slices.category(slice));
        HostCause cause = NoCause;
        if (layer == Layer::Framework && text.contains(QLatin1String("dataloader"), Qt::CaseInsensitive))
            cause = DataLoading;
        else if (text.contains(QLatin1String("synchroni"), Qt::CaseInsensitive))
            cause = Synchronisation;
        else if (layer == Layer::CannApi)
            cause = Dispatch;
        else if ((category == QLatin1String("cpu_op") || category == QLatin1String("enqueue") ||
                  category == QLatin1String("dequeue")) &&
                 !text.startsWith(QLatin1String("ProfilerStep#")))
            cause = Dispatch;
        m_causes.emplace(key, cause);
        return cause;
    }

    // Free gaps (or the Preparing interval) by cause: data loading first, then synchronisation, then host
    // dispatch; the rest of the gaps had no such host span over them.
    void fillFreeCauses(OverviewPartValue &free, const std::vector<Interval> &gaps, TimeNs lo, TimeNs hi)
    {
        if (!free.present || gaps.empty() || m_hostThreads.empty())
            return;
        std::vector<Interval> byCause[4];
        for (const auto &hostThread : m_hostThreads) {
            const int t = hostThread.first; // not a structured binding: the lambda below captures it
            const Layer layer = hostThread.second;
            const SliceTable &slices = m_model.threads()[static_cast<std::size_t>(t)].slices;
            for (int d = 0; d < slices.depthCount(); ++d)
                slices.forEachOverlapping(d, lo, hi, [&](std::uint32_t i) {
                    const HostCause c = causeOf(t, layer, i);
                    if (c != NoCause)
                        byCause[c].push_back({std::max(slices.start(i), lo), std::min(slices.end(i), hi)});
                });
        }
        // Cumulative unions: U1 = data loading, U2 = U1 ∪ sync, U3 = U2 ∪ dispatch.
        std::vector<Interval> cumulative;
        TimeNs previous = 0;
        const std::pair<OverviewItemKind, QString> kinds[] = {
            {OverviewItemKind::DataLoading, OverviewText::tr("Data loading")},
            {OverviewItemKind::Synchronisation, OverviewText::tr("Synchronisation")},
            {OverviewItemKind::HostDispatch, OverviewText::tr("Host dispatch")}};
        for (int c = DataLoading; c <= Dispatch; ++c) {
            cumulative.insert(cumulative.end(), byCause[c].begin(), byCause[c].end());
            cumulative = unionOf(std::move(cumulative));
            const TimeNs covered = intersectionLength(gaps, cumulative);
            const auto [count, target] = touching(gaps, unionOf(byCause[c]));
            free.items.push_back(
                {kinds[c - 1].first, kinds[c - 1].second, -1, covered - previous, count, target});
            previous = covered;
        }
        const TimeNs all = totalLength(gaps);
        const auto [count, target] = uncovered(gaps, cumulative);
        free.items.push_back({OverviewItemKind::NothingRecorded, OverviewText::tr("Nothing recorded"), -1,
                              all - previous, count, target});
    }

    // How many gaps the spans touch, and the longest of them (both lists sorted and disjoint): one merge
    // pass.
    std::pair<std::int64_t, OverviewTarget> touching(const std::vector<Interval> &gaps,
                                                     const std::vector<Interval> &spans) const
    {
        std::int64_t n = 0;
        Interval best;
        std::size_t j = 0;
        for (const Interval &g : gaps) {
            while (j < spans.size() && spans[j].end <= g.begin)
                ++j;
            if (j < spans.size() && spans[j].begin < g.end) {
                ++n;
                if (g.end - g.begin > best.end - best.begin)
                    best = g;
            }
        }
        return {n, best.end > best.begin ? timeRange(best.begin, best.end) : OverviewTarget{}};
    }
    // How many gaps the spans leave partly uncovered, and the longest of them (both lists sorted, disjoint).
    std::pair<std::int64_t, OverviewTarget> uncovered(const std::vector<Interval> &gaps,
                                                      const std::vector<Interval> &spans) const
    {
        std::int64_t n = 0;
        Interval best;
        std::size_t j = 0;
        for (const Interval &g : gaps) {
            while (j < spans.size() && spans[j].end <= g.begin)
                ++j;
            TimeNs covered = 0;
            for (std::size_t k = j; k < spans.size() && spans[k].begin < g.end; ++k)
                covered += std::min(spans[k].end, g.end) - std::max(spans[k].begin, g.begin);
            if (covered < g.end - g.begin) {
                ++n;
                if (g.end - g.begin > best.end - best.begin)
                    best = g;
            }
        }
        return {n, best.end > best.begin ? timeRange(best.begin, best.end) : OverviewTarget{}};
    }

    // The operators' memory peak (the overall curve's Allocated, what the Steps dock shows), else the largest
    // Reserved of any component.
    std::optional<OverviewMemoryPeak> memoryPeak() const
    {
        const MemoryProfile &profile = m_model.memory();
        std::optional<OverviewMemoryPeak> best;
        for (const DeviceMemory &d : deviceMemory(profile)) {
            if (d.group != m_group)
                continue;
            if (d.overall >= 0 && d.overallPeak) {
                OverviewMemoryPeak p;
                p.bytes = d.overallPeak->bytes;
                p.time = d.overallPeak->time;
                p.component = curveLabel(profile.curves[static_cast<std::size_t>(d.overall)]);
                p.metric = QStringLiteral("allocated");
                if (!best || p.bytes > best->bytes)
                    best = p;
                continue;
            }
            for (const ComponentPeaks &c : d.components)
                if (c.reserved && (!best || c.reserved->bytes > best->bytes)) {
                    OverviewMemoryPeak p;
                    p.bytes = c.reserved->bytes;
                    p.time = c.reserved->time;
                    p.component = curveLabel(profile.curves[c.curve]);
                    p.metric = QStringLiteral("reserved");
                    best = p;
                }
        }
        if (best) {
            best->source = OverviewText::tr("memory files of the rank");
            best->target = timeRange(best->time, best->time, best->component);
        }
        return best;
    }

    const TraceModel &m_model;
    int m_group;
    const CollectiveWaits &m_waits;
    InsightContext m_context;
    int m_rank = -1;
    const cluster::Rank *m_clusterRank = nullptr;
    const SummaryTable *m_stepTrace = nullptr;
    bool m_hasKernels = false;
    std::vector<std::pair<int, Layer>> m_hostThreads;
    std::vector<int> m_commThreads;
    std::unordered_map<std::uint64_t, HostCause> m_causes;
    std::unordered_map<StringId, QString> m_texts;
    QStringList m_notes; // what was wrong in the files read for this rank
    std::unordered_map<StringId, bool> m_computeByName;
};

} // namespace

std::vector<OverviewRank> modelRanks(const TraceModel &model, const std::vector<Step> &steps,
                                     const cluster::ClusterModel *cluster)
{
    const CollectiveWaits waits(cluster);
    std::vector<OverviewRank> ranks;
    for (std::size_t g = 0; g < model.groups().size(); ++g)
        ranks.push_back(GroupOverview(model, static_cast<int>(g), cluster, waits).build(steps));
    return ranks;
}

} // namespace at::overview
