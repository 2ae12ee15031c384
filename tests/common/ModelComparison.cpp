#include "ModelComparison.h"

#include "KernelTable.h"
#include "MemoryProfile.h"
#include "Steps.h"
#include "SummaryTable.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace at::test {
namespace {

using Identity = ModelComparison::Identity;

// Fails with a message naming where (QCOMPARE would only print the values, not which lane or slice).
#define AT_CHECK_EQ(a, b, what)                                                                              \
    do {                                                                                                     \
        if (!((a) == (b)))                                                                                   \
            QFAIL(qPrintable(QStringLiteral("%1 differs").arg(what)));                                       \
    } while (false)

// Stops the caller when a helper it called failed.
#define AT_RETURN_IF_FAILED(call)                                                                            \
    do {                                                                                                     \
        call;                                                                                                \
        if (QTest::currentTestFailed())                                                                      \
            return;                                                                                          \
    } while (false)

bool sameDouble(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

QString laneKeyText(const TraceModel &m, const LaneKey &key)
{
    return key.text != 0 ? QStringLiteral("'%1'").arg(m.strings().qstring(key.text))
                         : QString::number(key.number);
}

// A slice named by where it is, not by the model's indices (they may differ): group, pid, tid, row.
QString refText(const TraceModel &m, SliceRef ref)
{
    if (!ref.isValid())
        return QStringLiteral("-");
    const ThreadInfo &t = m.threads()[static_cast<std::size_t>(ref.thread)];
    const ProcessInfo &p = m.processes()[static_cast<std::size_t>(t.process)];
    return QStringLiteral("%1/%2/%3#%4")
        .arg(p.group)
        .arg(laneKeyText(m, p.pid), laneKeyText(m, t.tid))
        .arg(ref.index);
}

QString sourceText(const TraceModel &m, SourceLocation loc)
{
    if (loc == kNoSource)
        return QStringLiteral("-");
    return QStringLiteral("%1@%2").arg(m.sources()[sourceFile(loc)].path).arg(sourceOffset(loc));
}

void compareTimesAndCounts(const TraceModel &a, const TraceModel &b)
{
    QCOMPARE(b.origin(), a.origin());
    QCOMPARE(b.dataBegin(), a.dataBegin());
    QCOMPARE(b.dataEnd(), a.dataEnd());
    QCOMPARE(b.fullBegin(), a.fullBegin());
    QCOMPARE(b.fullEnd(), a.fullEnd());
    QCOMPARE(b.outlierCount(), a.outlierCount());
    const EventCounts &x = a.eventCounts(), &y = b.eventCounts();
    QCOMPARE(y.total(), x.total());
    QVERIFY(std::tie(y.complete, y.begin, y.end, y.instant, y.counter, y.flowStart, y.flowStep, y.flowEnd,
                     y.metadata, y.other) == std::tie(x.complete, x.begin, x.end, x.instant, x.counter,
                                                      x.flowStart, x.flowStep, x.flowEnd, x.metadata,
                                                      x.other));
    QCOMPARE(b.sliceCount(), a.sliceCount());
}

void compareGroupsAndSources(const TraceModel &a, const TraceModel &b)
{
    QCOMPARE(b.groups().size(), a.groups().size());
    for (std::size_t g = 0; g < a.groups().size(); ++g) {
        const SourceGroup &x = a.groups()[g], &y = b.groups()[g];
        QCOMPARE(y.label, x.label);
        QCOMPARE(y.layout, x.layout);
        QCOMPARE(y.path, x.path);
        QCOMPARE(y.timelineFiles, x.timelineFiles);
        QCOMPARE(y.summaryFiles, x.summaryFiles);
        QCOMPARE(y.collection.sourceLabel, x.collection.sourceLabel);
        QCOMPARE(y.collection.profilerLevel, x.collection.profilerLevel);
        QCOMPARE(y.collection.metricGroup, x.collection.metricGroup);
        QCOMPARE(y.collection.metrics, x.collection.metrics);
        QCOMPARE(y.collection.switchesOn, x.collection.switchesOn);
        QCOMPARE(y.collection.switchesOff, x.collection.switchesOff);
        QVERIFY(y.collection.properties == x.collection.properties);
        QCOMPARE(y.collection.warnings, x.collection.warnings);
        QCOMPARE(y.collection.files, x.collection.files);
        QVERIFY(y.provenance == x.provenance);
        QCOMPARE(b.kernels().metricGroupOf(static_cast<int>(g)),
                 a.kernels().metricGroupOf(static_cast<int>(g)));
    }
    // An args reader each where the other has one; what they read is compared per slice.
    QCOMPARE(b.sources().size(), a.sources().size());
    for (std::size_t s = 0; s < a.sources().size(); ++s) {
        QCOMPARE(b.sources()[s].path, a.sources()[s].path);
        QCOMPARE(!b.sources()[s].argsReader, !a.sources()[s].argsReader);
    }
}

// One thread's lane: its slices by times, names and parents; with the same indices also by ids, depth,
// flows and the args of up to argsLeft slices.
void compareThread(const TraceModel &a, int ta, const TraceModel &b, int tb, const QString &where,
                   Identity identity, std::size_t &argsLeft)
{
    const ThreadInfo &x = a.threads()[static_cast<std::size_t>(ta)];
    const ThreadInfo &y = b.threads()[static_cast<std::size_t>(tb)];
    const QString lane = where + QStringLiteral(" / ") + a.threadDisplayName(ta);
    AT_CHECK_EQ(b.threadDisplayName(tb), a.threadDisplayName(ta), lane);
    AT_CHECK_EQ(laneKeyText(b, y.tid), laneKeyText(a, x.tid), lane);
    AT_CHECK_EQ(y.sortIndex, x.sortIndex, lane);
    const SliceTable &sa = x.slices, &sb = y.slices;
    AT_CHECK_EQ(sb.size(), sa.size(), lane + QStringLiteral(" slice count"));
    AT_CHECK_EQ(sb.depthCount(), sa.depthCount(), lane + QStringLiteral(" depth"));
    for (int d = 0; d < sa.depthCount(); ++d)
        AT_CHECK_EQ(sb.depthRange(d), sa.depthRange(d), lane + QStringLiteral(" depth range"));
    for (std::uint32_t s = 0; s < sa.size(); ++s) {
        const QString slice = lane + QStringLiteral(" slice %1").arg(s);
        AT_CHECK_EQ(sb.start(s), sa.start(s), slice);
        AT_CHECK_EQ(sb.end(s), sa.end(s), slice);
        AT_CHECK_EQ(b.strings().view(sb.name(s)), a.strings().view(sa.name(s)), slice);
        AT_CHECK_EQ(b.strings().view(sb.category(s)), a.strings().view(sa.category(s)), slice);
        AT_CHECK_EQ(sb.parent(s), sa.parent(s), slice);
        AT_CHECK_EQ(sourceText(b, sb.source(s)), sourceText(a, sa.source(s)), slice);
        if (identity != Identity::SameIndices)
            continue;
        AT_CHECK_EQ(sb.name(s), sa.name(s), slice);
        AT_CHECK_EQ(sb.source(s), sa.source(s), slice);
        AT_CHECK_EQ(sb.depthOf(s), sa.depthOf(s), slice);
        const SliceRef ref{ta, s};
        AT_CHECK_EQ(b.flowsFrom(ref), a.flowsFrom(ref), slice + QStringLiteral(" flows from"));
        AT_CHECK_EQ(b.flowsTo(ref), a.flowsTo(ref), slice + QStringLiteral(" flows to"));
        if (argsLeft > 0) {
            --argsLeft;
            AT_CHECK_EQ(b.sliceArgs(ref), a.sliceArgs(ref), slice + QStringLiteral(" args"));
        }
    }
    // Built independently: the args of the lane's first slice, re-read through each model's sources.
    if (identity == Identity::ByPlace && sa.size() > 0)
        AT_CHECK_EQ(b.sliceArgs({tb, 0}), a.sliceArgs({ta, 0}), lane + QStringLiteral(" args"));
}

void compareCounter(const TraceModel &a, int ca, const TraceModel &b, int cb, const QString &where)
{
    const CounterSeries &x = a.counters()[static_cast<std::size_t>(ca)];
    const CounterSeries &y = b.counters()[static_cast<std::size_t>(cb)];
    const QString lane = where + QStringLiteral(" counter ") + a.counterDisplayName(ca);
    AT_CHECK_EQ(b.counterDisplayName(cb), a.counterDisplayName(ca), lane);
    AT_CHECK_EQ(b.strings().view(y.seriesKey), a.strings().view(x.seriesKey), lane);
    AT_CHECK_EQ(y.times, x.times, lane);
    AT_CHECK_EQ(y.values.size(), x.values.size(), lane);
    for (std::size_t v = 0; v < x.values.size(); ++v)
        AT_CHECK_EQ(sameDouble(y.values[v], x.values[v]), true, lane);
    AT_CHECK_EQ(sameDouble(y.minValue, x.minValue) && sameDouble(y.maxValue, x.maxValue), true, lane);
}

// Processes in display order, their threads with their slices, and their counters.
void compareLanes(const TraceModel &a, const TraceModel &b, const ModelComparison &how)
{
    const bool sameIndices = how.identity == Identity::SameIndices;
    if (sameIndices) {
        QCOMPARE(b.strings().size(), a.strings().size());
        for (StringId id = 0; id < a.strings().size(); ++id)
            QVERIFY(a.strings().view(id) == b.strings().view(id));
        QVERIFY(b.processOrder() == a.processOrder());
    }
    QCOMPARE(b.processes().size(), a.processes().size());
    QCOMPARE(b.threads().size(), a.threads().size());
    QCOMPARE(b.counters().size(), a.counters().size());
    QCOMPARE(b.processOrder().size(), a.processOrder().size());
    std::size_t argsLeft = how.maxArgs;
    for (std::size_t o = 0; o < a.processOrder().size(); ++o) {
        const int pa = a.processOrder()[o], pb = b.processOrder()[o];
        const ProcessInfo &p = a.processes()[static_cast<std::size_t>(pa)];
        const ProcessInfo &q = b.processes()[static_cast<std::size_t>(pb)];
        const QString where = QStringLiteral("process %1").arg(a.processDisplayName(pa));
        AT_CHECK_EQ(b.processDisplayName(pb), a.processDisplayName(pa), where);
        AT_CHECK_EQ(q.group, p.group, where);
        AT_CHECK_EQ(laneKeyText(b, q.pid), laneKeyText(a, p.pid), where);
        AT_CHECK_EQ(b.strings().qstring(q.labels), a.strings().qstring(p.labels), where);
        AT_CHECK_EQ(q.sortIndex, p.sortIndex, where);
        AT_CHECK_EQ(q.layer, p.layer, where);
        if (sameIndices)
            AT_CHECK_EQ(std::tie(q.name, q.threads, q.counters), std::tie(p.name, p.threads, p.counters),
                        where);
        AT_CHECK_EQ(q.threads.size(), p.threads.size(), where);
        for (std::size_t i = 0; i < p.threads.size(); ++i)
            AT_RETURN_IF_FAILED(
                compareThread(a, p.threads[i], b, q.threads[i], where, how.identity, argsLeft));
        AT_CHECK_EQ(q.counters.size(), p.counters.size(), where);
        for (std::size_t i = 0; i < p.counters.size(); ++i)
            AT_RETURN_IF_FAILED(compareCounter(a, p.counters[i], b, q.counters[i], where));
    }
}

// Flows as a multiset (independently built models may order them differently), each found again from
// both of its slices; with the same indices also flow by flow.
void compareFlows(const TraceModel &a, const TraceModel &b, Identity identity)
{
    auto flowTexts = [](const TraceModel &m) {
        QStringList texts;
        for (std::uint32_t f = 0; f < m.flows().size(); ++f) {
            const FlowInfo &flow = m.flows()[f];
            texts << QStringLiteral("%1|%2|%3|%4|%5|%6|%7")
                         .arg(m.strings().qstring(flow.category), m.strings().qstring(flow.name),
                              m.strings().qstring(flow.id), refText(m, flow.from), refText(m, flow.to))
                         .arg(flow.fromTime)
                         .arg(flow.toTime);
            if (flow.from.isValid()) {
                const auto out = m.flowsFrom(flow.from);
                if (std::find(out.begin(), out.end(), f) == out.end())
                    texts << QStringLiteral("flow %1 missing from flowsFrom").arg(f);
            }
            if (flow.to.isValid()) {
                const auto in = m.flowsTo(flow.to);
                if (std::find(in.begin(), in.end(), f) == in.end())
                    texts << QStringLiteral("flow %1 missing from flowsTo").arg(f);
            }
        }
        texts.sort();
        return texts;
    };
    const QStringList fa = flowTexts(a), fb = flowTexts(b);
    QCOMPARE(fb.size(), fa.size());
    QCOMPARE(fb, fa);
    if (identity != Identity::SameIndices)
        return;
    QCOMPARE(b.flows().size(), a.flows().size());
    for (std::size_t f = 0; f < a.flows().size(); ++f) {
        const FlowInfo &x = a.flows()[f], &y = b.flows()[f];
        QVERIFY(y.category == x.category && y.name == x.name && y.id == x.id);
        QVERIFY(y.from == x.from && y.to == x.to);
        QVERIFY(y.fromTime == x.fromTime && y.toTime == x.toTime);
    }
}

// Kernel rows, with their joined slices and metrics by column.
void compareKernels(const TraceModel &a, const TraceModel &b, Identity identity)
{
    const KernelTable &ka = a.kernels(), &kb = b.kernels();
    QCOMPARE(kb.size(), ka.size());
    QCOMPARE(kb.columns().size(), ka.columns().size());
    for (std::size_t c = 0; c < ka.columns().size(); ++c) {
        QCOMPARE(kb.columns()[c].header, ka.columns()[c].header);
        QCOMPARE(kb.columns()[c].unit, ka.columns()[c].unit);
    }
    QCOMPARE(kb.metricGroup(), ka.metricGroup());
    QCOMPARE(kb.unjoinedCount(), ka.unjoinedCount());
    for (std::size_t r = 0; r < ka.size(); ++r) {
        const KernelRecord &x = ka.rows()[r], &y = kb.rows()[r];
        const QString row = QStringLiteral("kernel row %1").arg(r);
        AT_CHECK_EQ(y.group, x.group, row);
        AT_CHECK_EQ(refText(b, {y.thread, y.slice}), refText(a, {x.thread, x.slice}), row);
        if (identity == Identity::SameIndices)
            AT_CHECK_EQ(std::tie(y.thread, y.slice), std::tie(x.thread, x.slice), row);
        AT_CHECK_EQ(std::tie(y.start, y.duration, y.wait), std::tie(x.start, x.duration, x.wait), row);
        for (auto [sx, sy] :
             {std::pair{x.name, y.name}, std::pair{x.type, y.type},
              std::pair{x.acceleratorCore, y.acceleratorCore}, std::pair{x.inputShapes, y.inputShapes},
              std::pair{x.inputTypes, y.inputTypes}, std::pair{x.opState, y.opState}})
            AT_CHECK_EQ(b.strings().view(sy), a.strings().view(sx), row);
        AT_CHECK_EQ(std::tie(y.streamId, y.taskId, y.contextId, y.blockDim, y.stepId, y.mixBlockDim),
                    std::tie(x.streamId, x.taskId, x.contextId, x.blockDim, x.stepId, x.mixBlockDim), row);
        for (std::size_t c = 0; c < ka.columns().size(); ++c)
            AT_CHECK_EQ(sameDouble(kb.metric(r, c), ka.metric(r, c)), true, row);
        if (x.joined())
            AT_CHECK_EQ(kb.rowOfSlice(y.thread, y.slice), static_cast<std::int64_t>(r), row);
    }
}

void compareSummaryTables(const TraceModel &a, const TraceModel &b)
{
    QCOMPARE(b.summaryTables().size(), a.summaryTables().size());
    for (std::size_t t = 0; t < a.summaryTables().size(); ++t) {
        const SummaryTable &x = a.summaryTables()[t], &y = b.summaryTables()[t];
        QCOMPARE(y.group, x.group);
        QCOMPARE(y.type, x.type);
        QCOMPARE(y.files, x.files);
        QCOMPARE(y.header, x.header);
        QVERIFY(y.cells == x.cells);
    }
}

void compareMemory(const TraceModel &a, const TraceModel &b)
{
    const MemoryProfile &ma = a.memory(), &mb = b.memory();
    QCOMPARE(mb.curves.size(), ma.curves.size());
    for (std::size_t c = 0; c < ma.curves.size(); ++c) {
        const MemoryCurve &x = ma.curves[c], &y = mb.curves[c];
        QCOMPARE(y.group, x.group);
        QCOMPARE(y.device, x.device);
        QCOMPARE(y.component, x.component);
        QVERIFY(y.kind == x.kind);
        QVERIFY(y.times == x.times);
        QVERIFY(y.allocated == x.allocated && y.reserved == x.reserved && y.active == x.active);
    }
    QCOMPARE(mb.allocations.size(), ma.allocations.size());
    for (std::size_t i = 0; i < ma.allocations.size(); ++i) {
        const MemoryAllocation &x = ma.allocations[i], &y = mb.allocations[i];
        const QString what = QStringLiteral("allocation %1").arg(i);
        AT_CHECK_EQ(y.group, x.group, what);
        AT_CHECK_EQ(b.strings().view(y.name), a.strings().view(x.name), what);
        AT_CHECK_EQ(b.strings().view(y.stream), a.strings().view(x.stream), what);
        AT_CHECK_EQ(std::tie(y.device, y.bytes, y.allocation, y.release, y.activeRelease),
                    std::tie(x.device, x.bytes, x.allocation, x.release, x.activeRelease), what);
        AT_CHECK_EQ(std::tie(y.allocationAllocated, y.allocationReserved, y.allocationActive,
                             y.releaseAllocated, y.releaseReserved, y.releaseActive),
                    std::tie(x.allocationAllocated, x.allocationReserved, x.allocationActive,
                             x.releaseAllocated, x.releaseReserved, x.releaseActive),
                    what);
    }
}

// Declared and detected steps.
void compareSteps(const TraceModel &a, const TraceModel &b)
{
    QCOMPARE(b.declaredSteps().size(), a.declaredSteps().size());
    for (std::size_t s = 0; s < a.declaredSteps().size(); ++s) {
        const DeclaredStep &x = a.declaredSteps()[s], &y = b.declaredSteps()[s];
        QCOMPARE(std::tie(y.group, y.number, y.begin, y.end), std::tie(x.group, x.number, x.begin, x.end));
        QCOMPARE(y.source, x.source);
    }
    QCOMPARE(b.steps().size(), a.steps().size());
    for (std::size_t s = 0; s < a.steps().size(); ++s) {
        const Step &x = a.steps()[s], &y = b.steps()[s];
        QCOMPARE(y.group, x.group);
        QCOMPARE(y.number, x.number);
        QCOMPARE(y.label, x.label);
        QVERIFY(y.source == x.source);
        QCOMPARE(refText(b, y.marker), refText(a, x.marker));
        QCOMPARE(std::tie(y.hostBegin, y.hostEnd, y.deviceBegin, y.deviceEnd, y.stageBegin, y.stageEnd),
                 std::tie(x.hostBegin, x.hostEnd, x.deviceBegin, x.deviceEnd, x.stageBegin, x.stageEnd));
        QCOMPARE(std::tie(y.breakdown.computing, y.breakdown.communication,
                          y.breakdown.communicationNotOverlapped, y.breakdown.free),
                 std::tie(x.breakdown.computing, x.breakdown.communication,
                          x.breakdown.communicationNotOverlapped, x.breakdown.free));
        QCOMPARE(y.breakdown.fromOverlapAnalysis, x.breakdown.fromOverlapAnalysis);
        QCOMPARE(y.flowAttributedTasks, x.flowAttributedTasks);
        QCOMPARE(y.deviceTasks.size(), x.deviceTasks.size());
        for (std::size_t t = 0; t < x.deviceTasks.size(); ++t)
            QCOMPARE(refText(b, y.deviceTasks[t]), refText(a, x.deviceTasks[t]));
    }
}

} // namespace

void compareModels(const TraceModel &a, const TraceModel &b, const ModelComparison &how)
{
    AT_RETURN_IF_FAILED(compareTimesAndCounts(a, b));
    AT_RETURN_IF_FAILED(compareGroupsAndSources(a, b));
    AT_RETURN_IF_FAILED(compareLanes(a, b, how));
    AT_RETURN_IF_FAILED(compareFlows(a, b, how.identity));
    AT_RETURN_IF_FAILED(compareKernels(a, b, how.identity));
    AT_RETURN_IF_FAILED(compareSummaryTables(a, b));
    AT_RETURN_IF_FAILED(compareMemory(a, b));
    AT_RETURN_IF_FAILED(compareSteps(a, b));
    if (how.compareWarnings)
        how.compareWarnings(a.warnings(), b.warnings());
    else
        QCOMPARE(b.warnings(), a.warnings());
}

} // namespace at::test
