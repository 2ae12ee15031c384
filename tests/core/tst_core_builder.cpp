// core/TraceBuilder + TraceModel: B/E pairing, outliers and the time origin, flow binding, lane
// ordering, self time, counters and display names. Inputs are small hand-built traces; every
// expected value is worked out in the comment next to it.

#include "TraceBuilder.h"
#include "TraceModel.h"

#include <QTest>

#include <algorithm>
#include <memory>

using at::FlowPhase;
using at::LaneKey;
using at::SliceRef;
using at::TimeNs;
using at::TraceBuilder;
using at::TraceModel;

namespace {

// An epoch-like absolute base (the parsers hand the builder absolute ns).
constexpr TimeNs kBase = 1'736'408'883'000'000'000;
constexpr TimeNs kDay = 24LL * 3600 * 1'000'000'000;

struct Fixture
{
    TraceBuilder b;
    at::StringId s(const char *text) { return b.strings().intern(text); }
    int thread(std::int64_t pid, std::int64_t tid) { return b.thread(b.numberKey(pid), b.numberKey(tid)); }
    void slice(int t, TimeNs start, TimeNs dur, const char *name)
    {
        b.addSlice(t, kBase + start, dur, s(name), 0, at::kNoSource);
    }
    void begin(int t, TimeNs ts, const char *name) { b.addBegin(t, kBase + ts, s(name), 0, at::kNoSource); }
    void end(int t, TimeNs ts) { b.addEnd(t, kBase + ts); }
    void flow(FlowPhase phase, const char *cat, const char *id, int t, TimeNs ts, bool enclosing)
    {
        b.addFlowHalf(phase, s(cat), s(cat), s(id), t, kBase + ts, enclosing);
    }
    int process(std::int64_t pid, const char *name, std::optional<std::int64_t> sort = std::nullopt)
    {
        const int p = b.process(b.numberKey(pid));
        if (name)
            b.setProcessName(p, s(name));
        if (sort)
            b.setProcessSortIndex(p, *sort);
        return p;
    }
};

struct Found
{
    SliceRef ref;
    TimeNs start = 0, duration = 0;
    int depth = -1;
    std::int32_t parent = -1;
};

// The single slice called `name` on `thread` (fails the test if there is not exactly one).
Found findSlice(const TraceModel &m, int thread, const char *name)
{
    Found f;
    int hits = 0;
    const at::SliceTable &t = m.threads()[static_cast<std::size_t>(thread)].slices;
    for (std::uint32_t i = 0; i < t.size(); ++i)
        if (m.strings().view(t.name(i)) == name) {
            ++hits;
            f = {SliceRef{thread, i}, t.start(i), t.duration(i), t.depthOf(i), t.parent(i)};
        }
    if (hits != 1)
        QTest::qFail(qPrintable(QStringLiteral("slice %1: %2 hits").arg(QLatin1String(name)).arg(hits)),
                     __FILE__, __LINE__);
    return f;
}

QString refName(const TraceModel &m, SliceRef ref)
{
    return ref.isValid() ? m.sliceName(ref) : QStringLiteral("<none>");
}

bool hasWarning(const TraceModel &m, const QString &part)
{
    return std::any_of(m.warnings().begin(), m.warnings().end(),
                       [&](const QString &w) { return w.contains(part); });
}

QStringList orderedNames(const TraceModel &m)
{
    QStringList names;
    for (int p : m.processOrder())
        names << m.processDisplayName(p);
    return names;
}

} // namespace

class TestCoreBuilder : public QObject
{
    Q_OBJECT

private slots:
    void beginEndNested()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        f.begin(t, 100, "outer");
        f.begin(t, 200, "inner");
        f.end(t, 300);
        f.end(t, 400);
        const auto m = f.b.build();
        QCOMPARE(m->origin(), kBase + 100);
        QCOMPARE(m->sliceCount(), std::size_t(2));
        const Found outer = findSlice(*m, t, "outer");
        const Found inner = findSlice(*m, t, "inner");
        QCOMPARE(outer.start, TimeNs(0));
        QCOMPARE(outer.duration, TimeNs(300));
        QCOMPARE(outer.depth, 0);
        QCOMPARE(inner.start, TimeNs(100));
        QCOMPARE(inner.duration, TimeNs(100));
        QCOMPARE(inner.depth, 1);
        QCOMPARE(inner.parent, static_cast<std::int32_t>(outer.ref.index));
        QVERIFY2(m->warnings().isEmpty(), qPrintable(m->warnings().join(QLatin1Char('\n'))));
    }

    // Marks are paired in time order, not file order: B100 E400 then B200 E300 in the file is
    // still outer [100, 400] around inner [200, 300]. B/E mix with X slices on the same thread.
    void beginEndOutOfFileOrderAndMixedWithX()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        f.begin(t, 100, "outer");
        f.end(t, 400);
        f.begin(t, 200, "inner");
        f.end(t, 300);
        f.slice(t, 250, 10, "x"); // inside inner
        const auto m = f.b.build();
        const Found outer = findSlice(*m, t, "outer");
        const Found inner = findSlice(*m, t, "inner");
        const Found x = findSlice(*m, t, "x");
        QCOMPARE(std::make_pair(outer.start, outer.duration), std::make_pair(TimeNs(0), TimeNs(300)));
        QCOMPARE(std::make_pair(inner.start, inner.duration), std::make_pair(TimeNs(100), TimeNs(100)));
        QCOMPARE(x.depth, 2);
        QCOMPARE(x.parent, static_cast<std::int32_t>(inner.ref.index));
    }

    // A B without E runs to the end of the whole trace (the latest end on any thread) and is
    // reported; the inner pair still matches.
    void unmatchedBeginRunsToTraceEnd()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        const int other = f.thread(1, 2);
        f.begin(t, 100, "open");
        f.begin(t, 200, "closed");
        f.end(t, 300);
        f.slice(other, 50, 1000, "long"); // ends at 1050: the trace end
        const auto m = f.b.build();
        QCOMPARE(m->origin(), kBase + 50);
        const Found open = findSlice(*m, t, "open");
        const Found closed = findSlice(*m, t, "closed");
        QCOMPARE(open.start, TimeNs(50));
        QCOMPARE(open.duration, TimeNs(950)); // 1050 - 100
        QCOMPARE(closed.duration, TimeNs(100));
        QCOMPARE(closed.depth, 1);
        QVERIFY2(hasWarning(*m, QStringLiteral("1 B (begin) events have no matching E")),
                 qPrintable(m->warnings().join(QLatin1Char('\n'))));
    }

    void unmatchedEndIgnored()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        f.end(t, 50); // before any B
        f.begin(t, 100, "a");
        f.end(t, 200);
        f.end(t, 300); // one too many
        const auto m = f.b.build();
        QCOMPARE(m->sliceCount(), std::size_t(1));
        const Found a = findSlice(*m, t, "a");
        QCOMPARE(a.duration, TimeNs(100));
        QVERIFY2(hasWarning(*m, QStringLiteral("2 E (end) events have no matching B and were ignored")),
                 qPrintable(m->warnings().join(QLatin1Char('\n'))));
        QVERIFY(!hasWarning(*m, QStringLiteral("B (begin)")));
    }

    // B and E pair per (pid, tid): a B on one thread and an E on another never match.
    void beginEndDoNotCrossThreads()
    {
        Fixture f;
        const int t1 = f.thread(1, 1);
        const int t2 = f.thread(1, 2);
        const int t3 = f.thread(2, 1); // same tid, other pid
        f.begin(t1, 100, "b1");
        f.end(t2, 200);
        f.end(t3, 150);
        f.slice(t2, 0, 500, "frame");
        const auto m = f.b.build();
        const Found b1 = findSlice(*m, t1, "b1");
        QCOMPARE(b1.duration, TimeNs(400)); // runs to 500, the trace end
        QVERIFY(hasWarning(*m, QStringLiteral("1 B (begin)")));
        QVERIFY(hasWarning(*m, QStringLiteral("2 E (end)")));
    }

    // FORMATS.md §2.3: a stray ts=0 event is kept, but origin / dataBegin / dataEnd ignore it;
    // fullBegin includes it. Same for an event days in the future; 20 hours away is not an outlier.
    void outliers()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        const int t2 = f.thread(1, 2);
        for (int i = 0; i < 10; ++i)
            f.slice(t, i * 1000, 500, "k");
        f.b.addSlice(t2, 0, 5, f.s("zero"), 0, at::kNoSource); // absolute ts = 0
        const auto m = f.b.build();
        QCOMPARE(m->sliceCount(), std::size_t(11));
        QCOMPARE(m->origin(), kBase);
        QCOMPARE(m->dataBegin(), TimeNs(0));
        QCOMPARE(m->dataEnd(), TimeNs(9500));
        QCOMPARE(m->fullBegin(), -kBase);
        QCOMPARE(m->fullEnd(), TimeNs(9500));
        QCOMPARE(m->outlierCount(), std::size_t(1));
        const Found zero = findSlice(*m, t2, "zero");
        QCOMPARE(zero.start, -kBase); // kept, at its true time
        QCOMPARE(zero.duration, TimeNs(5));
        QVERIFY2(hasWarning(*m, QStringLiteral("1 events lie more than a day away")),
                 qPrintable(m->warnings().join(QLatin1Char('\n'))));

        Fixture g;
        const int u = g.thread(1, 1);
        for (int i = 0; i < 10; ++i)
            g.slice(u, i * 1000, 500, "k");
        g.slice(u, 20 * 3600 * 1'000'000'000LL, 7, "late but fine");                     // 20 h after
        g.slice(u, 3 * kDay, 9, "far future");                                           // 3 days after
        g.b.addCounterSample(g.b.process(g.b.numberKey(1)), g.s("c"), g.s("v"), 0, 1.0); // counter at ts 0
        const auto n = g.b.build();
        QCOMPARE(n->origin(), kBase);
        QCOMPARE(n->dataEnd(), 20 * 3600 * 1'000'000'000LL + 7);
        QCOMPARE(n->fullEnd(), 3 * kDay + 9);
        QCOMPARE(n->fullBegin(), -kBase);
        QCOMPARE(n->outlierCount(), std::size_t(2));
        QCOMPARE(n->counters().at(0).times.at(0), -kBase);
    }

    // Without slices, counters and flows decide the origin.
    void originFromCountersOnly()
    {
        Fixture f;
        const int p = f.b.process(f.b.numberKey(9));
        f.b.addCounterSample(p, f.s("AI Core Freq"), f.s("MHz"), kBase + 700, 1800);
        f.b.addCounterSample(p, f.s("AI Core Freq"), f.s("MHz"), kBase + 300, 1500);
        f.b.addCounterSample(p, f.s("AI Core Freq"), f.s("MHz"), kBase + 500, 1650);
        const auto m = f.b.build();
        QCOMPARE(m->origin(), kBase + 300);
        QCOMPARE(m->dataEnd(), TimeNs(400));
        const at::CounterSeries &c = m->counters().at(0);
        // Sorted by time, values moved with their times.
        QCOMPARE(c.times, (std::vector<TimeNs>{0, 200, 400}));
        QCOMPARE(c.values, (std::vector<double>{1500, 1650, 1800}));
        QCOMPARE(c.minValue, 1500.0);
        QCOMPARE(c.maxValue, 1800.0);
        QCOMPARE(m->counterDisplayName(0), QStringLiteral("AI Core Freq [MHz]"));
    }

    void flowBinding()
    {
        Fixture f;
        const int host = f.thread(100, 1);
        const int dev = f.thread(200, 2);
        f.slice(host, 1000, 1000, "P"); // [1000, 2000]
        f.slice(host, 1200, 300, "Q");  // [1200, 1500], child of P
        f.slice(dev, 3000, 100, "K1");  // [3000, 3100]
        f.slice(dev, 3200, 100, "K2");  // [3200, 3300]
        f.slice(dev, 3300, 100, "K3");  // [3300, 3400], touches K2
        f.slice(dev, 3500, 0, "K4");    // zero duration

        // enclosing at both ends; the device end matches K2's start exactly.
        f.flow(FlowPhase::Start, "c1", "1", host, 1300, true);
        f.flow(FlowPhase::End, "c1", "1", dev, 3200, true);
        // start after Q ended -> P; end without bp -> the next slice starting at/after 3050 = K2.
        f.flow(FlowPhase::Start, "c1", "2", host, 1800, true);
        f.flow(FlowPhase::End, "c1", "2", dev, 3050, false);
        // end exactly at the K2/K3 boundary binds to K3 (the slice starting there).
        f.flow(FlowPhase::Start, "c1", "3", host, 1000, true);
        f.flow(FlowPhase::End, "c1", "3", dev, 3300, true);
        // fan-out: one s, two f (a memcpy split in two, §2.9).
        f.flow(FlowPhase::Start, "HostToDevice", "936", host, 1200, true);
        f.flow(FlowPhase::End, "HostToDevice", "936", dev, 3000, true);
        f.flow(FlowPhase::End, "HostToDevice", "936", dev, 3500, true);
        // ids above 2^53 that are equal as doubles must stay distinct flows.
        f.flow(FlowPhase::Start, "async_npu", "1736408883839797773", host, 1100, true);
        f.flow(FlowPhase::Start, "async_npu", "1736408883839797760", host, 1300, true);
        f.flow(FlowPhase::End, "async_npu", "1736408883839797773", dev, 3000, true);
        f.flow(FlowPhase::End, "async_npu", "1736408883839797760", dev, 3300, true);
        // orphans: an s without f, an f without s, and the same id in two categories.
        f.flow(FlowPhase::Start, "c1", "99", host, 1100, true);
        f.flow(FlowPhase::End, "c1", "98", dev, 3000, true);
        f.flow(FlowPhase::Start, "a", "5", host, 1100, true);
        f.flow(FlowPhase::End, "b", "5", dev, 3000, true);
        // an end that binds to nothing: no slice starts at/after 9000 on dev.
        f.flow(FlowPhase::Start, "c1", "7", host, 1100, true);
        f.flow(FlowPhase::End, "c1", "7", dev, 9000, false);
        // s -> t -> f makes two links: P -> K1 and K1 -> K2.
        f.flow(FlowPhase::Start, "st", "1", host, 1100, true);
        f.flow(FlowPhase::Step, "st", "1", dev, 3050, true);
        f.flow(FlowPhase::End, "st", "1", dev, 3250, true);
        // finish earlier than its start (clock skew) still pairs.
        f.flow(FlowPhase::Start, "sk", "1", dev, 3200, true);
        f.flow(FlowPhase::End, "sk", "1", host, 1300, true);

        const auto m = f.b.build();
        QCOMPARE(m->origin(), kBase + 1000);
        // 1 + 1 + 1 + 2 (fan-out) + 2 (big ids) + 1 (unbound) + 2 (step) + 1 (skew) = 11
        QCOMPARE(m->flows().size(), std::size_t(11));

        auto describe = [&](const at::FlowInfo &fl) {
            return QStringLiteral("%1/%2: %3 -> %4")
                .arg(m->strings().qstring(fl.category), m->strings().qstring(fl.id), refName(*m, fl.from),
                     refName(*m, fl.to));
        };
        QStringList got;
        for (const auto &fl : m->flows())
            got << describe(fl);
        got.sort();
        QStringList expected{
            QStringLiteral("HostToDevice/936: Q -> K1"),
            QStringLiteral("HostToDevice/936: Q -> K4"),
            QStringLiteral("async_npu/1736408883839797760: Q -> K3"),
            QStringLiteral("async_npu/1736408883839797773: P -> K1"),
            QStringLiteral("c1/1: Q -> K2"),
            QStringLiteral("c1/2: P -> K2"),
            QStringLiteral("c1/3: P -> K3"),
            QStringLiteral("c1/7: P -> <none>"),
            QStringLiteral("sk/1: K2 -> Q"),
            QStringLiteral("st/1: K1 -> K2"),
            QStringLiteral("st/1: P -> K1"),
        };
        expected.sort();
        QCOMPARE(got, expected);

        // Times of one flow are relative to the origin.
        for (const auto &fl : m->flows())
            if (m->strings().view(fl.id) == "1") {
                if (m->strings().view(fl.category) == "c1") {
                    QCOMPARE(fl.fromTime, TimeNs(300));
                    QCOMPARE(fl.toTime, TimeNs(2200));
                }
            }

        // flowsFrom / flowsTo agree with the flow list.
        const Found q = findSlice(*m, host, "Q");
        const Found k1 = findSlice(*m, dev, "K1");
        QStringList fromQ;
        for (auto i : m->flowsFrom(q.ref))
            fromQ << describe(m->flows()[i]);
        fromQ.sort();
        QCOMPARE(fromQ, (QStringList{QStringLiteral("HostToDevice/936: Q -> K1"),
                                     QStringLiteral("HostToDevice/936: Q -> K4"),
                                     QStringLiteral("async_npu/1736408883839797760: Q -> K3"),
                                     QStringLiteral("c1/1: Q -> K2")}));
        QCOMPARE(m->flowsTo(k1.ref).size(), std::size_t(3));   // 936, ...773, st step
        QCOMPARE(m->flowsFrom(k1.ref).size(), std::size_t(1)); // st step -> K2

        const QString all = m->warnings().join(QLatin1Char('\n'));
        QVERIFY2(hasWarning(*m, QStringLiteral("2 flow starts have no finish")), qPrintable(all));
        QVERIFY2(hasWarning(*m, QStringLiteral("2 flow finishes have no start")), qPrintable(all));
        QVERIFY2(hasWarning(*m, QStringLiteral("1 flow ends could not be bound")), qPrintable(all));
    }

    void enclosingAndNextSlice()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        f.slice(t, 0, 100, "A");
        f.slice(t, 10, 30, "B");
        f.slice(t, 40, 30, "C"); // touches B at 40
        f.slice(t, 20, 5, "D");  // inside B
        f.slice(t, 200, 10, "E");
        const auto m = f.b.build();
        auto enc = [&](TimeNs ts) { return refName(*m, m->enclosingSlice(t, ts)); };
        auto nxt = [&](TimeNs ts) { return refName(*m, m->nextSliceAtOrAfter(t, ts)); };
        QCOMPARE(enc(22), QStringLiteral("D")); // deepest enclosing
        QCOMPARE(enc(30), QStringLiteral("B")); // D ended at 25
        QCOMPARE(enc(40), QStringLiteral("C")); // starts exactly at 40, beats B that ends there
        QCOMPARE(enc(0), QStringLiteral("A"));
        QCOMPARE(enc(150), QStringLiteral("<none>"));
        QCOMPARE(enc(205), QStringLiteral("E"));
        QCOMPARE(nxt(5), QStringLiteral("B"));
        QCOMPARE(nxt(10), QStringLiteral("B"));
        QCOMPARE(nxt(0), QStringLiteral("A")); // shallowest on ties
        QCOMPARE(nxt(71), QStringLiteral("E"));
        QCOMPARE(nxt(201), QStringLiteral("<none>"));
        QCOMPARE(refName(*m, m->enclosingSlice(99, 10)), QStringLiteral("<none>")); // no such thread
        QCOMPARE(refName(*m, m->nextSliceAtOrAfter(-1, 10)), QStringLiteral("<none>"));
    }

    // FORMATS.md §2.5/§2.6: processes ordered by canonical layer first (sort_index only breaks ties),
    // whatever the creation order, pids and sort indices say.
    void processOrderCurrentNames()
    {
        Fixture f;
        f.process(10, "QoS", 0);
        f.process(20, "Overlap Analysis", 1);
        f.process(30, "HCCL", 2);
        f.process(40, "Ascend Hardware", 3);
        f.process(50, "CANN", 4);
        f.process(60, "Python", 99);
        f.process(5, "AI Core Freq", 14);
        f.process(7, "Communication", 1); // current name of HCCL
        // Give every process some content so nothing is "empty".
        for (std::int64_t pid : {10, 20, 30, 40, 50, 60, 5, 7})
            f.slice(f.thread(pid, 0), 0, 10, "x");
        const auto m = f.b.build();
        QCOMPARE(orderedNames(*m), (QStringList{"Python", "CANN", "Ascend Hardware", "Communication", "HCCL",
                                                "Overlap Analysis", "QoS", "AI Core Freq"}));
    }

    void processOrderLegacyNames()
    {
        Fixture f;
        // The G1 stack top to bottom: MsprofTx, AscendCL, Task Scheduler, AI CPU (§2.6).
        f.process(1, "AI CPU");
        f.process(2, "Task Scheduler");
        f.process(3, "AscendCL");
        f.process(4, "MsprofTx");
        f.process(5, "AI Core Utilization"); // legacy counter layer
        f.process(6, "Step Trace");
        const auto m = f.b.build();
        const QStringList names = orderedNames(*m);
        QCOMPARE(names.mid(0, 4), (QStringList{"MsprofTx", "AscendCL", "Task Scheduler", "AI CPU"}));
        QCOMPARE(names.last(), QStringLiteral("AI Core Utilization"));
        QCOMPARE(names.size(), 6);
    }

    void processOrderMixedGenerations()
    {
        Fixture f;
        f.process(1, "Ascend Hardware");
        f.process(2, "Task Scheduler");
        f.process(3, "CANN");
        f.process(4, "AscendCL");
        f.process(5, "Python");
        f.process(6, "MsprofTx");
        const auto m = f.b.build();
        const QStringList names = orderedNames(*m);
        // Same layer: by pid (no sort index) — framework, CANN API, device streams in pairs.
        QCOMPARE(names, (QStringList{"Python", "MsprofTx", "CANN", "AscendCL", "Ascend Hardware",
                                     "Task Scheduler"}));
    }

    // Within one layer: process_sort_index, then pid.
    void processOrderTieBreaks()
    {
        Fixture f;
        const int a = f.process(3170822369, "Ascend Hardware", 13);
        const int b = f.process(3170820512, "Ascend Hardware", 13);
        const int c = f.process(4000000000, "Ascend Hardware", 8);
        const int py = f.process(3096504, "Python", 0);
        const auto m = f.b.build();
        QCOMPARE(m->processOrder(), (std::vector<int>{py, c, b, a}));
        QCOMPARE(m->processes()[static_cast<std::size_t>(a)].pid.number, std::int64_t(3170822369));
        QCOMPARE(m->processes()[static_cast<std::size_t>(a)].layer, at::Layer::DeviceStreams);
    }

    // Threads inside a process: thread_sort_index, then tid (the level1 dequeue thread has
    // sort index max(tid)+1 and so comes last although its tid is smaller).
    void threadOrder()
    {
        Fixture f;
        const int p = f.process(3096504, "Python", 0);
        const int t1 = f.thread(3096504, 3099702);
        const int t2 = f.thread(3096504, 3105075);
        const int t3 = f.thread(3096504, 3096504);
        const int t4 = f.thread(3096504, 5); // no sort index: after those that have one
        f.b.setThreadSortIndex(t1, 3105076);
        f.b.setThreadSortIndex(t2, 3105075);
        f.b.setThreadSortIndex(t3, 3096504);
        f.b.setThreadName(t3, f.s("Thread 3096504"));
        const auto m = f.b.build();
        QCOMPARE(m->processes()[static_cast<std::size_t>(p)].threads, (std::vector<int>{t3, t2, t1, t4}));
        QCOMPARE(m->threadDisplayName(t3), QStringLiteral("Thread 3096504"));
        QCOMPARE(m->threadDisplayName(t4), QStringLiteral("Thread 5")); // unnamed: from the tid
    }

    // String pids/tids (aclGraph debug traces) are their own lanes, distinct from numbers.
    void stringLaneKeys()
    {
        Fixture f;
        const LaneKey sp = f.b.textKey("123 aclGraph");
        const LaneKey np = f.b.numberKey(123);
        QVERIFY(!(sp == np));
        QCOMPARE(f.b.textKey("123 aclGraph"), sp);
        const int ta = f.b.thread(sp, f.b.textKey("stream5"));
        const int tb = f.b.thread(sp, f.b.textKey("stream10"));
        const int tc = f.b.thread(np, f.b.numberKey(5));
        QVERIFY(ta != tb && ta != tc);
        QCOMPARE(f.b.thread(sp, f.b.textKey("stream5")), ta);
        f.slice(ta, 0, 10, "a");
        f.slice(tb, 0, 10, "b");
        f.slice(tc, 0, 10, "c");
        const auto m = f.b.build();
        QCOMPARE(m->processes().size(), std::size_t(2));
        const auto &pa = m->threads()[static_cast<std::size_t>(ta)];
        QCOMPARE(pa.process, m->threads()[static_cast<std::size_t>(tb)].process);
        QVERIFY(pa.process != m->threads()[static_cast<std::size_t>(tc)].process);
        QCOMPARE(m->threadDisplayName(ta), QStringLiteral("Thread stream5"));
        QVERIFY(m->processDisplayName(pa.process).contains(QStringLiteral("123 aclGraph")));
    }

    // Level0 CANN: labels and sort index but no process_name (§2.5).
    void unnamedProcessDisplayName()
    {
        Fixture f;
        const int p = f.b.process(f.b.numberKey(3170820320));
        f.b.setProcessLabels(p, f.s("CPU"));
        f.b.setProcessSortIndex(p, 7);
        const int q = f.b.process(f.b.numberKey(42)); // nothing at all
        const auto m = f.b.build();
        const QString name = m->processDisplayName(p);
        QVERIFY2(name.startsWith(QStringLiteral("(unnamed")), qPrintable(name));
        QVERIFY2(name.contains(QStringLiteral("label CPU")), qPrintable(name));
        QVERIFY2(name.contains(QStringLiteral("sort 7")), qPrintable(name));
        QVERIFY2(name.endsWith(QLatin1Char(')')), qPrintable(name));
        QVERIFY2(m->processDisplayName(q).startsWith(QStringLiteral("(unnamed")),
                 qPrintable(m->processDisplayName(q)));
        QCOMPARE(m->processes()[static_cast<std::size_t>(p)].layer, at::Layer::Other);
    }

    void selfTime()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        f.slice(t, 0, 100, "P");  // children C1 (20) + C2 (10); X is not a child (see below)
        f.slice(t, 10, 20, "C1"); // [10, 30], grandchild G [12, 20]
        f.slice(t, 12, 8, "G");
        f.slice(t, 40, 10, "C2"); // [40, 50]
        f.slice(t, 90, 30, "X");  // [90, 120] starts in P, runs past it: beside P (SliceTable.h)
        f.slice(t, 200, 0, "Z");  // zero duration
        f.slice(t, 300, 50, "L"); // leaf
        const auto m = f.b.build();
        auto self = [&](const char *name) { return m->selfTime(findSlice(*m, t, name).ref); };
        QCOMPARE(self("P"), TimeNs(100 - 20 - 10));
        QCOMPARE(findSlice(*m, t, "X").depth, 0);
        QCOMPARE(self("C1"), TimeNs(20 - 8));
        QCOMPARE(self("G"), TimeNs(8));
        QCOMPARE(self("X"), TimeNs(30));
        QCOMPARE(self("Z"), TimeNs(0));
        QCOMPARE(self("L"), TimeNs(50));
    }

    void negativeDurationClamped()
    {
        Fixture f;
        const int t = f.thread(1, 1);
        f.slice(t, 0, -50, "neg");
        const auto m = f.b.build();
        QCOMPARE(findSlice(*m, t, "neg").duration, TimeNs(0));
    }

    void countersPerSeries()
    {
        Fixture f;
        const int p = f.process(3170820768, "Acc PMU", 21);
        f.b.addCounterSample(p, f.s("read_bandwidth"), f.s("value acc_id 0"), kBase + 10, 5);
        f.b.addCounterSample(p, f.s("read_bandwidth"), f.s("value acc_id 1"), kBase + 10, 7);
        f.b.addCounterSample(p, f.s("read_bandwidth"), f.s("value acc_id 0"), kBase + 20, 6);
        f.b.addCounterSample(p, f.s("write_band_width"), f.s("value acc_id 0"), kBase + 20, 1);
        const auto m = f.b.build();
        QCOMPARE(m->counters().size(), std::size_t(3));
        const auto &info = m->processes()[static_cast<std::size_t>(p)];
        QCOMPARE(info.counters.size(), std::size_t(3));
        // Display order: by (name, series key).
        QCOMPARE(m->counterDisplayName(info.counters[0]), QStringLiteral("read_bandwidth [value acc_id 0]"));
        QCOMPARE(m->counterDisplayName(info.counters[1]), QStringLiteral("read_bandwidth [value acc_id 1]"));
        QCOMPARE(m->counterDisplayName(info.counters[2]),
                 QStringLiteral("write_band_width [value acc_id 0]"));
        QCOMPARE(m->counters()[static_cast<std::size_t>(info.counters[0])].times.size(), std::size_t(2));
        QCOMPARE(info.layer, at::Layer::Counters);
    }

    void emptyBuild()
    {
        TraceBuilder b;
        const auto m = b.build();
        QVERIFY(m);
        QCOMPARE(m->sliceCount(), std::size_t(0));
        QVERIFY(m->processOrder().empty());
        QCOMPARE(m->flows().size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestCoreBuilder)
#include "tst_core_builder.moc"
