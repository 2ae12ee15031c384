// The other real sample traces of FORMATS.md §8.2: level0 (CANN process without process_name),
// level2 (Runtime@ CANN events), rank1 (device 1 pids), the tiny heatMap trace (M events after the
// X events) and the pretty-printed sanitised msprof_001.json. Expected numbers were computed with
// python3 (json.load(..., parse_float=str, parse_int=str), the §2.3 text rule for ts/dur, lanes
// keyed by int(pid)/int(tid), flows grouped by (cat, id text)) and hard-coded.

#include "ParserTestUtil.h"

#include <QTest>

#include <map>

using at::SliceRef;
using at::TimeNs;

namespace {

QStringList orderedNames(const at::TraceModel &m)
{
    QStringList names;
    for (int p : m.processOrder())
        names << m.processDisplayName(p);
    return names;
}

std::vector<std::size_t> sliceCounts(const at::TraceModel &m, int process)
{
    std::vector<std::size_t> out;
    for (int t : m.processes()[static_cast<std::size_t>(process)].threads)
        out.push_back(m.threads()[static_cast<std::size_t>(t)].slices.size());
    return out;
}

} // namespace

class TestParserSamples : public QObject
{
    Q_OBJECT

private slots:
    void level0UnnamedCann()
    {
        const auto m = pt::loadOk(pt::samplePath(pt::kLevel0Rank0));
        QVERIFY(m);
        // python: len(ev) == 8375; Counter(ph) == {'X': 3379, 's': 606, 'f': 611, 'M': 63, 'C': 3716}
        const auto &c = m->eventCounts();
        QCOMPARE(c.total(), std::size_t(8375));
        QCOMPARE(c.complete, std::size_t(3379));
        QCOMPARE(c.flowStart, std::size_t(606));
        QCOMPARE(c.flowEnd, std::size_t(611));
        QCOMPARE(c.metadata, std::size_t(63));
        QCOMPARE(c.counter, std::size_t(3716));
        // python: min ts over X/C/s/f = "1736405443756311.100"
        QCOMPARE(m->origin(), TimeNs(1736405443756311100));
        QCOMPARE(m->dataEnd(), TimeNs(335935900));

        // pid 3089232096 has process_labels "CPU" and process_sort_index "7" but no process_name.
        const int cann = pt::processWithPid(*m, 3089232096);
        QVERIFY(cann >= 0);
        const auto &info = m->processes()[static_cast<std::size_t>(cann)];
        QCOMPARE(info.name, at::StringId(0));
        const QString display = m->processDisplayName(cann);
        QVERIFY2(display.startsWith(QStringLiteral("(unnamed")), qPrintable(display));
        QVERIFY2(display.contains(QStringLiteral("label CPU")), qPrintable(display));
        QVERIFY2(display.contains(QStringLiteral("sort 7")), qPrintable(display));
        // Its four threads come from thread_name/thread_sort_index and the HostToDevice starts only.
        QCOMPARE(info.threads.size(), std::size_t(4));
        QCOMPARE(sliceCounts(*m, cann), (std::vector<std::size_t>{0, 0, 0, 0}));
        QCOMPARE(m->threadDisplayName(info.threads[0]), QStringLiteral("Thread 3016828"));

        // The named processes keep the canonical order (no CANN API process at level0).
        QStringList named = orderedNames(*m);
        named.removeAll(display);
        QCOMPARE(named, (QStringList{"Python", "Ascend Hardware", "HCCL", "Overlap Analysis", "AI Core Freq",
                                     "HBM", "LLC", "NPU MEM", "Stars Soc Info", "Acc PMU", "QoS"}));
        QCOMPARE(m->processes().size(), std::size_t(12));
        // HCCL "Plane 0" is named by metadata but has no slices.
        const int hccl = pt::processNamed(*m, "HCCL");
        QCOMPARE(sliceCounts(*m, hccl), (std::vector<std::size_t>{4, 0}));
        QCOMPARE(sliceCounts(*m, pt::processNamed(*m, "Ascend Hardware")),
                 (std::vector<std::size_t>{219, 6, 308}));

        // Flows: the 210 HostToDevice starts sit on threads without slices, so those 215 links
        // cannot be bound at the host end; the other categories bind as at level1.
        std::map<QString, int> perCategory;
        int unboundHostToDevice = 0;
        for (const auto &f : m->flows()) {
            const QString cat = m->strings().qstring(f.category);
            ++perCategory[cat];
            if (!f.from.isValid() || !f.to.isValid()) {
                QCOMPARE(cat, QStringLiteral("HostToDevice"));
                QVERIFY(!f.from.isValid() && f.to.isValid());
                ++unboundHostToDevice;
            }
        }
        QCOMPARE(m->flows().size(), std::size_t(611));
        QCOMPARE(perCategory["HostToDevice"], 215);
        QCOMPARE(perCategory["async_npu"], 210);
        QCOMPARE(perCategory["async_task_queue"], 159);
        QCOMPARE(perCategory["fwdbwd"], 27);
        QCOMPARE(unboundHostToDevice, 215);
        QVERIFY2(pt::hasWarning(*m, {QStringLiteral("215"), QStringLiteral("bound")}),
                 qPrintable(pt::warningsText(*m)));
    }

    void level2RuntimeEvents()
    {
        const auto m = pt::loadOk(pt::samplePath(pt::kLevel2Rank0));
        QVERIFY(m);
        // python: len(ev) == 10476; {'X': 4811, 's': 606, 'f': 611, 'M': 80, 'C': 4368}
        const auto &c = m->eventCounts();
        QCOMPARE(c.total(), std::size_t(10476));
        QCOMPARE(c.complete, std::size_t(4811));
        QCOMPARE(c.counter, std::size_t(4368));
        QCOMPARE(c.metadata, std::size_t(80));
        QCOMPARE(m->origin(), TimeNs(1736412474607917240));
        QCOMPARE(m->dataEnd(), TimeNs(386682760));
        QCOMPARE(orderedNames(*m),
                 (QStringList{"Python", "CANN", "Ascend Hardware", "HCCL", "Overlap Analysis", "AI Core Freq",
                              "HBM", "LLC", "NPU MEM", "Stars Soc Info", "Acc PMU", "QoS"}));
        const int cann = pt::processWithPid(*m, 3254508768);
        QCOMPARE(m->processDisplayName(cann), QStringLiteral("CANN"));
        // python: CANN X per thread (sorted by thread_sort_index = tid): 109, 767, 90, 168
        QCOMPARE(sliceCounts(*m, cann), (std::vector<std::size_t>{109, 767, 90, 168}));
        // python: CANN X names by prefix: AscendCL 513, Runtime 426, Node 191, Hccl 4
        std::map<QString, int> prefixes;
        for (int t : m->processes()[static_cast<std::size_t>(cann)].threads) {
            const at::SliceTable &s = m->threads()[static_cast<std::size_t>(t)].slices;
            for (std::uint32_t i = 0; i < s.size(); ++i)
                ++prefixes[m->strings().qstring(s.name(i)).section(QLatin1Char('@'), 0, 0)];
        }
        QCOMPARE(prefixes["AscendCL"], 513);
        QCOMPARE(prefixes["Runtime"], 426);
        QCOMPARE(prefixes["Node"], 191);
        QCOMPARE(prefixes["Hccl"], 4);
        // python: the earliest Runtime@ event: "Runtime@ContextGetCurrent" on tid 3181770,
        // ts "1736412474721174.080", dur 3.6500000000000004 -> 3650 ns (4th digit 0).
        const SliceRef r = pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, cann, 3181770),
                                               "Runtime@ContextGetCurrent", 1736412474721174080);
        QVERIFY(r.isValid());
        QCOMPARE(pt::table(*m, r).duration(r.index), TimeNs(3650));
        const auto args = m->sliceArgs(r);
        QCOMPARE(pt::argValue(args, "level"), QStringLiteral("runtime"));
        QCOMPARE(pt::argValue(args, "connection_id"), QStringLiteral("966"));
        QCOMPARE(m->flows().size(), std::size_t(611));
        for (const auto &f : m->flows())
            QVERIFY(f.from.isValid() && f.to.isValid());
    }

    // Rank 1 of the same run: device 1 in the low pid bits, rank 1's OS pid in the high bits (§2.4).
    void rank1DevicePids()
    {
        const auto m = pt::loadOk(pt::samplePath(pt::kLevel1Rank1));
        QVERIFY(m);
        // python: len(ev) == 9969; {'X': 4385, 'C': 4287, 's': 606, 'f': 611, 'M': 80}
        const auto &c = m->eventCounts();
        QCOMPARE(c.total(), std::size_t(9969));
        QCOMPARE(c.complete, std::size_t(4385));
        QCOMPARE(c.counter, std::size_t(4287));
        QCOMPARE(m->origin(), TimeNs(1736408883576173350));
        QCOMPARE(m->dataEnd(), TimeNs(390274650));
        QCOMPARE(orderedNames(*m),
                 (QStringList{"Python", "CANN", "Ascend Hardware", "HCCL", "Overlap Analysis", "AI Core Freq",
                              "HBM", "LLC", "NPU MEM", "Stars Soc Info", "Acc PMU", "QoS"}));
        const std::int64_t osPid = 3096506;
        QCOMPARE(m->processes()[static_cast<std::size_t>(pt::processNamed(*m, "Python"))].pid.number, osPid);
        // CANN 3170822369 = (3096506 << 10) | (7 << 5) | 1; Ascend Hardware 3170822561 = ... | (13 << 5) | 1.
        QCOMPARE(m->processes()[static_cast<std::size_t>(pt::processNamed(*m, "CANN"))].pid.number,
                 std::int64_t(3170822369));
        QCOMPARE(m->processes()[static_cast<std::size_t>(pt::processNamed(*m, "Ascend Hardware"))].pid.number,
                 std::int64_t(3170822561));
        for (int p : m->processOrder()) {
            const auto &info = m->processes()[static_cast<std::size_t>(p)];
            if (info.pid.number == osPid)
                continue;
            QCOMPARE(info.pid.number >> 10, osPid);
            QCOMPARE(info.pid.number & 31, std::int64_t(1));
        }
        QCOMPARE(sliceCounts(*m, pt::processNamed(*m, "CANN")), (std::vector<std::size_t>{69, 395, 90, 154}));
        QCOMPARE(m->flows().size(), std::size_t(611));
        QVERIFY2(m->warnings().isEmpty(), qPrintable(pt::warningsText(*m)));
    }

    // All M events come after the X events they name (§2.1 "Order").
    void heatMapLateMetadata()
    {
        const auto m = pt::loadOk(pt::samplePath(pt::kHeatMap));
        QVERIFY(m);
        const auto &c = m->eventCounts();
        QCOMPARE(c.total(), std::size_t(6));
        QCOMPARE(c.complete, std::size_t(4));
        QCOMPARE(c.metadata, std::size_t(2));
        QCOMPARE(orderedNames(*m), (QStringList{"CANN", "Ascend Hardware"}));
        const int cann = pt::processWithPid(*m, 392889599);
        const int hw = pt::processWithPid(*m, 392889760);
        QCOMPARE(m->processDisplayName(cann), QStringLiteral("CANN"));
        QCOMPARE(m->processDisplayName(hw), QStringLiteral("Ascend Hardware"));
        QCOMPARE(sliceCounts(*m, cann), (std::vector<std::size_t>{1, 1, 1}));
        QCOMPARE(sliceCounts(*m, hw), (std::vector<std::size_t>{1}));
        // python: origin = "1742490378358140.950"; last end = ...161.950 + 28.19 -> 49190 ns later.
        QCOMPARE(m->origin(), TimeNs(1742490378358140950));
        QCOMPARE(m->dataEnd(), TimeNs(49190));
        // Numeric dur 28.19 -> 28190 ns.
        const SliceRef s = pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, cann, 383681),
                                               "Prefill_layer::Execute", 1742490378358140950);
        QVERIFY(s.isValid());
        QCOMPARE(pt::table(*m, s).duration(s.index), TimeNs(28190));
        QCOMPARE(pt::argValue(m->sliceArgs(s), "Input type"),
                 QStringLiteral("ScalarList;\r\nScalar;\r\nScalar;\r\nNone;\r\nNone;\r\nNone"));
        // Regression test for a bug found in review (parser/json/JsonArgsReader.cpp readArgs): string values
        // lose trailing "\r\n".
        QCOMPARE(pt::argValue(m->sliceArgs(s), "Input Dims"), QStringLiteral(";\r\n;\r\n;\r\n;\r\n;\r\n"));
        // Same tid under two pids: two lanes.
        QVERIFY(pt::threadWithTid(*m, cann, 383683) >= 0);
        QVERIFY(pt::threadWithTid(*m, hw, 383683) >= 0);
        QVERIFY(pt::threadWithTid(*m, cann, 383683) != pt::threadWithTid(*m, hw, 383683));
    }

    // Pretty-printed (multi-line) file with no M events at all.
    void msprofPrettyPrinted()
    {
        const auto m = pt::loadOk(pt::samplePath(pt::kMsprof001));
        QVERIFY(m);
        QCOMPARE(m->eventCounts().total(), std::size_t(3));
        QCOMPARE(m->eventCounts().complete, std::size_t(3));
        QVERIFY2(m->warnings().isEmpty(), qPrintable(pt::warningsText(*m)));
        // python: ts "1000000.000" -> 1000000000 ns (the earliest).
        QCOMPARE(m->origin(), TimeNs(1000000000));
        QCOMPARE(m->dataEnd(), TimeNs(42399120));
        // No process_name anywhere: unnamed processes, ordered by pid.
        std::vector<std::int64_t> pids;
        for (int p : m->processOrder()) {
            pids.push_back(m->processes()[static_cast<std::size_t>(p)].pid.number);
            QVERIFY(m->processDisplayName(p).startsWith(QStringLiteral("(unnamed")));
        }
        QCOMPARE(pids, (std::vector<std::int64_t>{1000, 1001, 1002}));
        const SliceRef k = pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, pt::processWithPid(*m, 1000), 1716),
                                               "sanitized_kernel", 1000000000);
        QVERIFY(k.isValid());
        QCOMPARE(pt::table(*m, k).duration(k.index), TimeNs(42399120));
        const SliceRef r = pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, pt::processWithPid(*m, 1001), 2000),
                                               "Runtime@DeviceSynchronize", 1000100000);
        QVERIFY(r.isValid());
        QCOMPARE(pt::table(*m, r).start(r.index), TimeNs(100000));
        QCOMPARE(pt::table(*m, r).duration(r.index), TimeNs(42001360));
        // Args of a pretty-printed event: numbers come back without the line break after them.
        const auto args = m->sliceArgs(k);
        QCOMPARE(args.size(), std::size_t(3));
        QCOMPARE(pt::argValue(args, "Task Type"), QStringLiteral("MIX_AIC"));
        QCOMPARE(pt::argValue(args, "Physic Stream Id"), QStringLiteral("1716"));
        QCOMPARE(pt::argValue(args, "Task Id"), QStringLiteral("0"));
        const SliceRef comp = pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, pt::processWithPid(*m, 1002), 2),
                                                  "Computing", 1000000000);
        QVERIFY(comp.isValid());
        QVERIFY(m->sliceArgs(comp).empty());
    }
};

QTEST_GUILESS_MAIN(TestParserSamples)
#include "tst_parser_samples.moc"
