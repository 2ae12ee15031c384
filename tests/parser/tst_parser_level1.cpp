// The level1 rank0 torch_npu trace (FORMATS.md §8.2), loaded through at::loadTrace and checked
// number by number. Every expected value was computed independently with python3:
//   ev = json.load(open(path), parse_float=str, parse_int=str)
// (so no number goes through a double), times converted with the §2.3 text rule
//   ns = int(whole) * 1000 + int((frac[:3] + '000')[:3])   (+1 for dur when frac[3] >= '5'),
// lanes keyed by int(pid)/int(tid), flows grouped by (cat, id text), and the result hard-coded.

#include "ParserTestUtil.h"
#include "TraceQueries.h"

#include <QTest>

#include <map>

using at::SliceRef;
using at::TimeNs;

namespace {
// python: min over X ts, C ts, s/f ts (no outliers in this file) = the first AI Core Freq sample
// "1736408883573887.920".
constexpr TimeNs kOrigin = 1736408883573887920;
constexpr std::int64_t kPythonPid = 3096504;
constexpr std::int64_t kCannPid = 3170820320;
constexpr std::int64_t kHardwarePid = 3170820512;
} // namespace

class TestParserLevel1 : public QObject
{
    Q_OBJECT

    std::unique_ptr<at::TraceModel> m;
    QString path;

private slots:
    void initTestCase()
    {
        path = pt::samplePath(pt::kLevel1Rank0);
        m = pt::loadOk(path);
        QVERIFY(m);
    }

    void eventCountsByPhase()
    {
        // python: collections.Counter(e['ph'] for e in ev)
        //   {'C': 4431, 'X': 4384, 'f': 611, 's': 606, 'M': 80}, len(ev) == 10112
        const auto &c = m->eventCounts();
        QCOMPARE(c.total(), std::size_t(10112));
        QCOMPARE(c.counter, std::size_t(4431));
        QCOMPARE(c.complete, std::size_t(4384));
        QCOMPARE(c.flowStart, std::size_t(606));
        QCOMPARE(c.flowEnd, std::size_t(611));
        QCOMPARE(c.metadata, std::size_t(80));
        QCOMPARE(c.begin + c.end + c.instant + c.flowStep + c.other, std::size_t(0));
        QCOMPARE(m->sliceCount(), std::size_t(4384));
        QVERIFY2(m->warnings().isEmpty(), qPrintable(pt::warningsText(*m)));
        QCOMPARE(m->sources().size(), std::size_t(1));
        QCOMPARE(m->sources()[0].path, path);
    }

    void timeSpan()
    {
        QCOMPARE(m->origin(), kOrigin);
        QCOMPARE(m->dataBegin(), TimeNs(0));
        // python: max(end of every X, every C ts, every flow ts) - origin = 399922080 (the last
        // AI Core Freq sample "1736408883973810", a ts without a fraction).
        QCOMPARE(m->dataEnd(), TimeNs(399922080));
        QCOMPARE(m->fullBegin(), TimeNs(0));
        QCOMPARE(m->fullEnd(), TimeNs(399922080));
        QCOMPARE(m->outlierCount(), std::size_t(0));
    }

    void processesInOrder()
    {
        // python: process_name M events; order = canonical layer (§2.6), then sort_index, then pid.
        QStringList names;
        for (int p : m->processOrder())
            names << m->processDisplayName(p);
        QCOMPARE(names,
                 (QStringList{"Python", "CANN", "Ascend Hardware", "HCCL", "Overlap Analysis", "AI Core Freq",
                              "HBM", "LLC", "NPU MEM", "Stars Soc Info", "Acc PMU", "QoS"}));
        // pids > 2^31 are kept exactly.
        const std::map<QString, std::int64_t> pids{{"Python", 3096504},
                                                   {"CANN", 3170820320},
                                                   {"Ascend Hardware", 3170820512},
                                                   {"HCCL", 3170820576},
                                                   {"Overlap Analysis", 3170820832},
                                                   {"AI Core Freq", 3170820544},
                                                   {"HBM", 3170820640},
                                                   {"LLC", 3170820672},
                                                   {"NPU MEM", 3170820704},
                                                   {"Stars Soc Info", 3170820736},
                                                   {"Acc PMU", 3170820768},
                                                   {"QoS", 3170820800}};
        for (const auto &[name, pid] : pids) {
            const int p = pt::processNamed(*m, name);
            QVERIFY2(p >= 0, qPrintable(name));
            QCOMPARE(m->processes()[static_cast<std::size_t>(p)].pid.number, pid);
        }
        const auto &python = m->processes()[static_cast<std::size_t>(pt::processNamed(*m, "Python"))];
        QCOMPARE(m->strings().qstring(python.labels), QStringLiteral("CPU"));
        QCOMPARE(python.sortIndex.value_or(-1), std::int64_t(0));
        QCOMPARE(python.layer, at::Layer::Framework);
        const auto &hw = m->processes()[static_cast<std::size_t>(pt::processNamed(*m, "Ascend Hardware"))];
        QCOMPARE(m->strings().qstring(hw.labels), QStringLiteral("NPU"));
        QCOMPARE(hw.sortIndex.value_or(-1), std::int64_t(13));
        QCOMPARE(hw.layer, at::Layer::DeviceStreams);
    }

    void threadsPerProcess()
    {
        // python: distinct (pid, tid) over X/s/f events and thread_* M events, ordered by
        // thread_sort_index then tid; (tid, thread_name, number of X events).
        struct T
        {
            std::int64_t tid;
            const char *name;
            std::size_t slices;
        };
        const std::map<QString, std::vector<T>> expected{
            {"Python",
             {{3096504, "Thread 3096504", 1651},
              {3105075, "Thread 3105075", 650},
              {3099702, "Thread 3099702", 159}}},
            {"CANN",
             {{3096504, "Thread 3096504", 69},
              {3099702, "Thread 3099702", 395},
              {3099703, "Thread 3099703", 90},
              {3105075, "Thread 3105075", 153}}},
            {"Ascend Hardware",
             {{0, "Stream 0", 2}, {2, "Stream 2", 219}, {3, "Stream 3", 6}, {4, "Stream 4", 308}}},
            {"HCCL",
             {{0, "Group 0 Communication", 4},
              {1, "Plane 0", 16},
              {2, "Plane 1", 40},
              {3, "Plane 2", 40},
              {4, "Plane 3", 40},
              {5, "Plane 4", 40},
              {6, "Plane 5", 40},
              {7, "Plane 6", 40},
              {8, "Plane 7", 40}}},
            {"Overlap Analysis",
             {{0, "Computing", 187},
              {1, "Communication", 4},
              {2, "Communication(Not Overlapped)", 101},
              {3, "Free", 90}}},
            {"AI Core Freq", {}},
            {"Acc PMU", {}},
        };
        for (const auto &[process, threads] : expected) {
            const int p = pt::processNamed(*m, process);
            QVERIFY2(p >= 0, qPrintable(process));
            const auto &ids = m->processes()[static_cast<std::size_t>(p)].threads;
            QCOMPARE(ids.size(), threads.size());
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const auto &info = m->threads()[static_cast<std::size_t>(ids[i])];
                QCOMPARE(info.tid.number, threads[i].tid);
                QCOMPARE(m->threadDisplayName(ids[i]), QString::fromUtf8(threads[i].name));
                QCOMPARE(info.slices.size(), threads[i].slices);
                QCOMPARE(info.process, p);
            }
        }
        QCOMPARE(m->threads().size(), std::size_t(3 + 4 + 4 + 9 + 4));
    }

    // FORMATS.md §2.3: "1736408883704643.212" must be ...643212 ns, not the ...643250 a double gives.
    void deviceKernelExactTime()
    {
        const int hw = pt::processWithPid(*m, kHardwarePid);
        const int stream2 = pt::threadWithTid(*m, hw, 2);
        QVERIFY(stream2 >= 0);
        // python: the X "trans_TransData_0" on (3170820512, 2), ts "1736408883704643.212",
        // dur 53.7410625 -> 53741 ns (4th fractional digit 0).
        const SliceRef k = pt::sliceAtAbsolute(*m, stream2, "trans_TransData_0", 1736408883704643212);
        QVERIFY(k.isValid());
        QCOMPARE(pt::table(*m, k).start(k.index), TimeNs(130755292));
        QCOMPARE(m->origin() + pt::table(*m, k).start(k.index), TimeNs(1736408883704643212));
        QCOMPARE(pt::table(*m, k).duration(k.index), TimeNs(53741));
        QCOMPARE(at::formatAbsoluteMicros(m->origin() + pt::table(*m, k).start(k.index)),
                 QStringLiteral("1736408883704643.212"));
        // The Overlap Analysis "Computing" slice starting at the same ns: dur "53.742" -> 53742.
        const int overlap = pt::processWithPid(*m, 3170820832);
        const SliceRef c =
            pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, overlap, 0), "Computing", 1736408883704643212);
        QVERIFY(c.isValid());
        QCOMPARE(pt::table(*m, c).duration(c.index), TimeNs(53742));
        // MEMCPY_ASYNC: ts "1736408883700059.821", dur 840.07675 -> 840077 (half-up on the 4th digit 7).
        const SliceRef mc = pt::sliceAtAbsolute(*m, stream2, "MEMCPY_ASYNC", 1736408883700059821);
        QVERIFY(mc.isValid());
        QCOMPARE(pt::table(*m, mc).duration(mc.index), TimeNs(840077));
    }

    void pythonSlice()
    {
        const int py = pt::processWithPid(*m, kPythonPid);
        const int main = pt::threadWithTid(*m, py, kPythonPid);
        // python: 16 X events named aten::empty in the file; the first one ("ts":
        // "1736408883688177.930", dur 145.57) is on (3096504, 3096504).
        std::size_t empties = 0;
        for (int t : m->processes()[static_cast<std::size_t>(py)].threads)
            empties += pt::slicesNamed(*m, t, "aten::empty").size();
        QCOMPARE(empties, std::size_t(16));
        const SliceRef s = pt::sliceAtAbsolute(*m, main, "aten::empty", 1736408883688177930);
        QVERIFY(s.isValid());
        QCOMPARE(pt::table(*m, s).start(s.index), TimeNs(114290010));
        QCOMPARE(pt::table(*m, s).duration(s.index), TimeNs(145570));
        QCOMPARE(m->strings().qstring(pt::table(*m, s).category(s.index)), QStringLiteral("cpu_op"));
    }

    // Args are re-read from the file on demand (§2.7, §2.11 item 8: ';\r\n' separators).
    void argsReReadFromFile()
    {
        const int py = pt::processWithPid(*m, kPythonPid);
        const SliceRef s = pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, py, kPythonPid), "aten::empty",
                                               1736408883688177930);
        QVERIFY(s.isValid());
        const auto args = m->sliceArgs(s);
        // python: list(ev[0]['args'].items()) -- five keys in file order.
        QCOMPARE(args.size(), std::size_t(5));
        QCOMPARE(args[0].first, QStringLiteral("Sequence number"));
        QCOMPARE(args[0].second, QStringLiteral("-1"));
        QCOMPARE(args[1].first, QStringLiteral("Fwd thread id"));
        QCOMPARE(args[1].second, QStringLiteral("0"));
        QCOMPARE(args[2].first, QStringLiteral("Input Dims"));
        // Regression test for a bug found in review (parser/json/JsonArgsReader.cpp readArgs): the
        // trailing-whitespace trim meant for raw number tokens is applied to string values too, so the final
        // "\r\n" of this string is lost (reads ";\r\n;\r\n;\r\n;\r\n;").
        QCOMPARE(args[2].second, QStringLiteral(";\r\n;\r\n;\r\n;\r\n;\r\n"));
        QCOMPARE(args[3].first, QStringLiteral("Input type"));
        QCOMPARE(args[3].second,
                 QStringLiteral("ScalarList;\r\nScalar;\r\nScalar;\r\nNone;\r\nScalar;\r\nNone"));
        QCOMPARE(args[4].first, QStringLiteral("Call stack"));
        QVERIFY(args[4].second.startsWith(QStringLiteral("/home/z30057886/.local/lib/python3.9/site-packages/"
                                                         "torch/_utils.py(180): _rebuild_tensor;\r\n")));
        QVERIFY(args[4].second.endsWith(QStringLiteral(";\r\n<string>(1): <module>")));
        QCOMPARE(args[4].second.count(QStringLiteral(";\r\n")), 14);

        // A device task: integer args come back as their exact text.
        const int stream2 = pt::threadWithTid(*m, pt::processWithPid(*m, kHardwarePid), 2);
        const SliceRef mc = pt::sliceAtAbsolute(*m, stream2, "MEMCPY_ASYNC", 1736408883700059821);
        const auto dargs = m->sliceArgs(mc);
        QCOMPARE(dargs.size(), std::size_t(7));
        QCOMPARE(pt::argValue(dargs, "Model Id"), QStringLiteral("4294967295"));
        QCOMPARE(pt::argValue(dargs, "Task Type"), QStringLiteral("PCIE_DMA_SQE"));
        QCOMPARE(pt::argValue(dargs, "Task Id"), QStringLiteral("11049"));
        QCOMPARE(pt::argValue(dargs, "connection_id"), QStringLiteral("936"));
    }

    void flowCountsPerCategory()
    {
        // python: groups by (cat, id); every f has an s in its group, every s at least one f:
        // HostToDevice 210 s / 215 f (5 ids fan out to 2 tasks), async_npu 210/210,
        // async_task_queue 159/159, fwdbwd 27/27 -> 611 links, all bound to slices.
        std::map<QString, int> perCategory;
        int unbound = 0;
        std::map<QString, int> perHostToDeviceId;
        for (const auto &f : m->flows()) {
            const QString cat = m->strings().qstring(f.category);
            ++perCategory[cat];
            unbound += f.from.isValid() && f.to.isValid() ? 0 : 1;
            if (cat == QLatin1String("HostToDevice"))
                ++perHostToDeviceId[m->strings().qstring(f.id)];
        }
        QCOMPARE(m->flows().size(), std::size_t(611));
        QCOMPARE(perCategory["HostToDevice"], 215);
        QCOMPARE(perCategory["async_npu"], 210);
        QCOMPARE(perCategory["async_task_queue"], 159);
        QCOMPARE(perCategory["fwdbwd"], 27);
        QCOMPARE(perCategory.size(), std::size_t(4));
        QCOMPARE(unbound, 0);
        QStringList fanOut;
        for (const auto &[id, n] : perHostToDeviceId)
            if (n > 1)
                fanOut << QStringLiteral("%1x%2").arg(id).arg(n);
        QCOMPARE(fanOut, (QStringList{"1404x2", "1449x2", "1491x2", "1538x2", "1574x2"}));
        QCOMPARE(perHostToDeviceId.size(), std::size_t(210));
    }

    // async_npu ids are kernel start ns (> 2^53): they must match by exact text and bind the torch
    // op to its kernel (§2.9).
    void torchToNpuFlowWithHugeId()
    {
        const at::FlowInfo *flow = nullptr;
        for (const auto &f : m->flows())
            if (m->strings().view(f.id) == "1736408883704643212")
                flow = &f;
        QVERIFY(flow);
        QCOMPARE(m->strings().qstring(flow->category), QStringLiteral("async_npu"));
        QCOMPARE(m->strings().qstring(flow->name), QStringLiteral("torch_to_npu"));
        // python: s on (3096504, 3096504) at "1736408883702792.080", which is where the Python X
        // "Conv2D" starts; f on (3170820512, 2) at "1736408883704643.212" = trans_TransData_0.
        const int py = pt::processWithPid(*m, kPythonPid);
        const int stream2 = pt::threadWithTid(*m, pt::processWithPid(*m, kHardwarePid), 2);
        const SliceRef conv =
            pt::sliceAtAbsolute(*m, pt::threadWithTid(*m, py, kPythonPid), "Conv2D", 1736408883702792080);
        const SliceRef kernel = pt::sliceAtAbsolute(*m, stream2, "trans_TransData_0", 1736408883704643212);
        QVERIFY(conv.isValid() && kernel.isValid());
        QVERIFY(flow->from == conv);
        QVERIFY(flow->to == kernel);
        QCOMPARE(flow->fromTime, TimeNs(1736408883702792080 - kOrigin));
        QCOMPARE(flow->toTime, TimeNs(130755292));
        // python: that Conv2D launches four kernels (four async_npu ids), and the kernel is the target
        // of one async_npu and one HostToDevice link (id "40004068119343529983", > 2^64).
        QStringList fromConv;
        for (auto i : m->flowsFrom(conv))
            fromConv << m->strings().qstring(m->flows()[i].id);
        fromConv.sort();
        QCOMPARE(fromConv, (QStringList{"1736408883704643212", "1736408883704801156", "1736408883704903918",
                                        "1736408883705309026"}));
        QStringList toKernel;
        for (auto i : m->flowsTo(kernel))
            toKernel << m->strings().qstring(m->flows()[i].category) + QLatin1Char('/') +
                            m->strings().qstring(m->flows()[i].id);
        toKernel.sort();
        QCOMPARE(toKernel,
                 (QStringList{"HostToDevice/40004068119343529983", "async_npu/1736408883704643212"}));
        for (auto i : m->flowsTo(kernel))
            if (m->strings().view(m->flows()[i].category) == "HostToDevice") {
                const SliceRef from = m->flows()[i].from;
                QCOMPARE(m->sliceName(from), QStringLiteral("Node@launch"));
                // python: the s is at "1736408883704625.030" on a CANN thread.
                QCOMPARE(m->origin() + pt::table(*m, from).start(from.index), TimeNs(1736408883704625030));
                QCOMPARE(m->threads()[static_cast<std::size_t>(from.thread)].process,
                         pt::processWithPid(*m, kCannPid));
            }
    }

    void counters()
    {
        // python: one series per (pid, name, args key [+ acc_id]) -> 134 series, 4431 samples in all. The
        // builder adds 2 more: the "Queue depth (Stream N)" lanes of the 2 device streams with
        // HostToDevice launch flows (core/QueueDepth.h, asserted in tst_queue_depth); 136 in all.
        QCOMPARE(m->counters().size(), std::size_t(136));
        std::size_t samples = 0, queueLanes = 0;
        for (const auto &c : m->counters()) {
            if (m->strings().qstring(c.name).startsWith(QLatin1String("Queue depth ("))) {
                ++queueLanes;
                QCOMPARE(m->processes()[static_cast<std::size_t>(c.process)].layer, at::Layer::DeviceStreams);
                continue;
            }
            samples += c.times.size();
        }
        QCOMPARE(queueLanes, std::size_t(2));
        QCOMPARE(samples, std::size_t(4431));
        const int freq = pt::processNamed(*m, "AI Core Freq");
        const auto &ids = m->processes()[static_cast<std::size_t>(freq)].counters;
        QCOMPARE(ids.size(), std::size_t(1));
        const auto &c = m->counters()[static_cast<std::size_t>(ids[0])];
        QCOMPARE(m->counterDisplayName(ids[0]), QStringLiteral("AI Core Freq [MHz]"));
        // "ts": "1736408883573887.920" and "1736408883973810", both {"MHz": "1800"}.
        QCOMPARE(c.times, (std::vector<TimeNs>{0, 399922080}));
        QCOMPARE(c.values, (std::vector<double>{1800, 1800}));
        // Acc PMU: series keyed by acc_id as well (python: 112 series for that pid).
        QCOMPARE(m->processes()[static_cast<std::size_t>(pt::processNamed(*m, "Acc PMU"))].counters.size(),
                 std::size_t(112));
    }

    void summaryMatches()
    {
        const at::TraceSummary s = at::summarize(*m);
        QCOMPARE(s.slices, std::size_t(4384));
        QCOMPARE(s.flows, std::size_t(611));
        QCOMPARE(s.counts.total(), std::size_t(10112));
        QCOMPARE(s.processes.size(), std::size_t(12));
        QCOMPARE(s.processes[0].name, QStringLiteral("Python"));
        QCOMPARE(s.span, TimeNs(399922080));
    }
};

QTEST_GUILESS_MAIN(TestParserLevel1)
#include "tst_parser_level1.moc"
