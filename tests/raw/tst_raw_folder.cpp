// Raw PROF_* folders generated from the documented layouts (FORMATS.md §5) with known tasks, frequencies and
// sync points, loaded through loadTrace() like any folder; the decoded timeline is asserted exactly.

#include "RawRecordWriter.h"
#include "Steps.h"
#include "TraceLoader.h"
#include "export/ChromeTraceWriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

using namespace at;
using at::test::writeFile;

namespace {

constexpr const char *kProf = "PROF_000001_20240101000000000_ABCDEFGHIJKLMNOP";
// Clock of every generated folder: dev cntvct 1,000,000 at host monotonic 5 s; start_info says monotonic 4 s
// is epoch 1,700,000,000 s. So local = 1.7e18 + 1e9 + (ticks − 1e6) × 1000 / f.
constexpr std::int64_t kEpochNs = 1700000001000000000;
constexpr std::uint64_t kSyncTicks = 1000000;

struct Task
{
    std::uint32_t stream;
    std::uint16_t task;
    std::uint64_t start;
    std::uint64_t end;
};

QString devDir(const QTemporaryDir &d)
{
    return d.filePath(QStringLiteral("%1/device_0/data").arg(kProf));
}
QString hostDir(const QTemporaryDir &d)
{
    return d.filePath(QStringLiteral("%1/host/data").arg(kProf));
}

void writeConfig(const QTemporaryDir &d, const QString &platform, const QString &hwtsFrequency,
                 bool deviceInfo = true)
{
    const QString host = hostDir(d), dev = devDir(d);
    writeFile(host + "/info.json",
              R"({"CPU":[{"Id":0,"Frequency":""}],"DeviceInfo":[],"platform_version":")" + platform.toUtf8() +
                  R"("})");
    writeFile(host + "/start_info",
              R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
    writeFile(host + "/host_start.log",
              "[Host]\nclock_monotonic_raw: 5000000000\ncntvct: 0\ncntvct_diff: 0\n");
    if (deviceInfo)
        writeFile(dev + "/info.json.0", R"({"platform_version":")" + platform.toUtf8() +
                                            R"(","DeviceInfo":[{"id":0,"ai_core_num":8,"hwts_frequency":")" +
                                            hwtsFrequency.toUtf8() + R"(","aic_frequency":"1000"}]})");
    writeFile(dev + "/start_info.0",
              R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
    writeFile(dev + "/dev_start.log.0", "[Device]\nclock_monotonic_raw: 5000000000\ncntvct: 1000000\n");
    writeFile(dev + "/sample.json", R"({"ai_core_profiling":"on","ai_core_metrics":"PipeUtilization",)"
                                    R"("ai_core_profiling_events":"0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55"})");
}

// HWTS logs of the tasks in time order, cnt rolling; `skipCnt` drops one cnt value (a lost record).
QByteArray hwtsLog(const std::vector<Task> &tasks, int skipCnt = -1)
{
    std::multimap<std::uint64_t, QByteArray> byTime;
    std::vector<std::tuple<std::uint64_t, int, const Task *>> marks;
    for (const Task &t : tasks) {
        marks.emplace_back(t.start, 0, &t);
        marks.emplace_back(t.end, 1, &t);
    }
    std::sort(marks.begin(), marks.end(),
              [](const auto &a, const auto &b) { return std::get<0>(a) < std::get<0>(b); });
    QByteArray out;
    int cnt = 0;
    for (const auto &[ts, type, t] : marks) {
        if (cnt == skipCnt)
            ++cnt;
        out += test::hwtsRecord(type, cnt++ & 15, 0, t->task, ts, t->stream);
    }
    return out;
}

TimeNs at50MHz(std::uint64_t ticks)
{
    return kEpochNs + (static_cast<std::int64_t>(ticks) - static_cast<std::int64_t>(kSyncTicks)) * 20;
}

int processNamed(const TraceModel &m, const QString &name)
{
    for (std::size_t p = 0; p < m.processes().size(); ++p)
        if (m.processDisplayName(static_cast<int>(p)) == name ||
            m.strings().qstring(m.processes()[p].name) == name)
            return static_cast<int>(p);
    return -1;
}

int threadNamed(const TraceModel &m, int process, const QString &name)
{
    for (const int t : m.processes()[static_cast<std::size_t>(process)].threads)
        if (m.strings().qstring(m.threads()[static_cast<std::size_t>(t)].name) == name)
            return t;
    return -1;
}

struct Slice
{
    TimeNs start; // absolute
    TimeNs duration;
    QString name;
    friend bool operator<(const Slice &a, const Slice &b) { return a.start < b.start; }
};

std::vector<Slice> slicesOf(const TraceModel &m, int thread)
{
    std::vector<Slice> out;
    const SliceTable &s = m.threads()[static_cast<std::size_t>(thread)].slices;
    for (std::uint32_t i = 0; i < s.size(); ++i)
        out.push_back({m.origin() + s.start(i), s.duration(i), m.strings().qstring(s.name(i))});
    std::sort(out.begin(), out.end());
    return out;
}

bool hasWarning(const TraceModel &m, const QString &part)
{
    for (const QString &w : m.warnings())
        if (w.contains(part))
            return true;
    return false;
}

QString warnings(const TraceModel &m)
{
    return m.warnings().join(QStringLiteral("\n"));
}

std::unique_ptr<TraceModel> load(const QString &path)
{
    LoadControl control;
    LoadResult r = loadTrace(path, at::environmentLoadOptions(), control);
    if (!r.model)
        qWarning("load failed: %s", qPrintable(r.error));
    return std::move(r.model);
}

const std::vector<Task> kHwtsTasks = {
    {3, 10, 1050000, 1050100},
    {7, 10, 1055000, 1055500},    // same task id on another stream
    {3, 65535, 1060000, 1060050}, // task ids wrap: 65535, then 0 on the same stream
    {3, 0, 1060100, 1060150},
};

} // namespace

class TestRawFolder : public QObject
{
    Q_OBJECT
private slots:
    void hwtsChipFolderDecodesExactly()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        // Two slices cut in the middle of a record, the last one truncated by 20 bytes, one lost record.
        QByteArray log = hwtsLog(kHwtsTasks, 3);
        const int cut = 64 * 3 + 17;
        writeFile(devDir(d) + "/hwts.data.0.slice_0", log.left(cut));
        writeFile(devDir(d) + "/hwts.data.0.slice_1", log.mid(cut) + QByteArray(20, '\x01'));
        writeFile(devDir(d) + "/hwts.data.0.slice_0.done", "");
        // PMU records in arrival (end) order: (3,10), (7,10), (3,65535); the task (3,0) has none.
        QByteArray pmu;
        pmu += test::aicoreRecord(10, 3, 1000, {500, 250, 125, 100, 50, 10, 400, 100});
        pmu += test::aicoreRecord(10, 7, 2000, {200, 0, 0, 0, 0, 0, 0, 0});
        pmu +=
            test::aicoreRecord(65535, 3 + 2048, 400, {100, 100, 100, 100, 100, 100, 10, 5}); // stream % 2048
        writeFile(devDir(d) + "/aicore.data.0.slice_0", pmu);
        writeFile(hostDir(d) + "/AclModule.acl_op.0.slice_0",
                  test::aclModuleRecord(1, 5000040000, 5000090000, 8, 100, "aclopCompileAndExecute") +
                      test::aclModuleRecord(1, 5000100000, 5000200000, 8, 101, "aclrtSynchronizeStream"));
        writeFile(devDir(d) + "/l2_cache.data.0.slice_0", QByteArray(72, '\0'));

        const auto m = load(d.path());
        QVERIFY(m);
        const int ts = processNamed(*m, QStringLiteral("Task Scheduler"));
        QVERIFY2(ts >= 0, qPrintable(warnings(*m)));
        const int s3 = threadNamed(*m, ts, QStringLiteral("Stream 3"));
        const int s7 = threadNamed(*m, ts, QStringLiteral("Stream 7"));
        QVERIFY(s3 >= 0 && s7 >= 0);
        QCOMPARE(m->processes()[static_cast<std::size_t>(ts)].threads.size(), std::size_t(2));
        const auto slices3 = slicesOf(*m, s3);
        QCOMPARE(slices3.size(), std::size_t(3));
        QCOMPARE(slices3[0].start, at50MHz(1050000));
        QCOMPARE(slices3[0].start, TimeNs(1700000001001000000)); // 50,000 ticks × 20 ns after the sync point
        QCOMPARE(slices3[0].duration, TimeNs(2000));
        QCOMPARE(slices3[0].name, QStringLiteral("AI_CORE"));
        QCOMPARE(slices3[1].start, at50MHz(1060000));
        QCOMPARE(slices3[1].duration, TimeNs(1000));
        QCOMPARE(slices3[2].start, at50MHz(1060100));
        const auto slices7 = slicesOf(*m, s7);
        QCOMPARE(slices7.size(), std::size_t(1));
        QCOMPARE(slices7[0].start, at50MHz(1055000));
        QCOMPARE(slices7[0].duration, TimeNs(10000));
        // Args name the task (the kernel join's tie-break reads them).
        const SliceTable &t3 = m->threads()[static_cast<std::size_t>(s3)].slices;
        std::map<QString, QString> args;
        for (std::uint32_t i = 0; i < t3.size(); ++i)
            if (m->origin() + t3.start(i) == at50MHz(1060100))
                for (const auto &[k, v] : m->sliceArgs(SliceRef{s3, i}))
                    args[k] = v;
        QCOMPARE(args[QStringLiteral("Task Id")], QStringLiteral("0"));
        QCOMPARE(args[QStringLiteral("Stream Id")], QStringLiteral("3"));

        // Host AscendCL lane: legacy records in monotonic ns, + start_info offset.
        const int acl = processNamed(*m, QStringLiteral("AscendCL"));
        QVERIFY(acl >= 0);
        const int t100 = threadNamed(*m, acl, QStringLiteral("Thread 100"));
        QVERIFY(t100 >= 0);
        const auto host = slicesOf(*m, t100);
        QCOMPARE(host.size(), std::size_t(1));
        QCOMPARE(host[0].name, QStringLiteral("aclopCompileAndExecute"));
        QCOMPARE(host[0].start, TimeNs(1700000001000040000));
        QCOMPARE(host[0].duration, TimeNs(50000));

        // PMU rows joined FIFO per (stream, task) to the tasks, with PipeUtilization ratios.
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(), std::size_t(3));
        const int vec = k.columnIndex(QStringLiteral("vec_ratio"));
        const int miss = k.columnIndex(QStringLiteral("icache_miss_rate"));
        QVERIFY(vec >= 0 && miss >= 0);
        std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> rowOf;
        for (std::size_t r = 0; r < k.size(); ++r) {
            QVERIFY2(k.rows()[r].joined(), "every PMU row joins its task slice");
            rowOf[{k.rows()[r].streamId, k.rows()[r].taskId}] = r;
        }
        QCOMPARE(k.metric(rowOf.at({3, 10}), static_cast<std::size_t>(vec)), 0.5);
        QCOMPARE(k.metric(rowOf.at({7, 10}), static_cast<std::size_t>(vec)), 0.1);
        QCOMPARE(k.metric(rowOf.at({3, 65535}), static_cast<std::size_t>(vec)), 0.25);
        QCOMPARE(k.metric(rowOf.at({3, 65535}), static_cast<std::size_t>(miss)), 0.5);
        QCOMPARE(k.metricGroupOf(0), QStringLiteral("PipeUtilization"));

        // Problems are counted, never fatal.
        QVERIFY2(hasWarning(
                     *m, QStringLiteral("lost records: the rolling cnt skipped 1 times (1 record missing)")),
                 qPrintable(warnings(*m)));
        QVERIFY2(hasWarning(*m, QStringLiteral("truncated: the last 20 bytes")), qPrintable(warnings(*m)));
        QVERIFY2(hasWarning(*m, QStringLiteral("l2_cache.data.0: 1 slice, 72 bytes")),
                 qPrintable(warnings(*m)));
        QVERIFY(!hasWarning(*m, QStringLiteral("msprof --export=on")));
        bool rawSource = false;
        for (const auto &[key, value] : provenanceRows(m->groups().front().provenance))
            rawSource =
                rawSource || (key == QStringLiteral("timeline source") && value.startsWith("raw data"));
        QVERIFY(rawSource);
    }

    // ts_track step trace → Step Trace iterations and declared steps; AI CPU records → the AI CPU layer;
    // msproftx records and api_event level 20500 → MsprofTx. Bad records are counted in warnings.
    void stepTraceAiCpuAndTxDecode()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        QByteArray track;
        track += test::tsTrackStepRecord(1040000, 1, 5, 60000);
        track += test::tsTrackStepRecord(1052000, 1, 5, 4);
        track += test::tsTrackFlipRecord(1052500, 3, 1, 0);
        track += test::tsTrackStepRecord(1061000, 2, 5, 4);
        track += test::tsTrackStepRecord(1062000, 3, 5, 60000); // never ends
        // Cut inside a record across two slices.
        writeFile(devDir(d) + "/ts_track.data.0.slice_0", track.left(100));
        writeFile(devDir(d) + "/ts_track.data.0.slice_1", track.mid(100));
        QByteArray aicpu;
        aicpu += test::aiCpuRecord(4, 1, 1045000, 1046000, 10, 30, 35);
        aicpu += test::aiCpuRecord(4, 2, 1047000, 1046000); // reversed: dropped
        aicpu += test::aiCpuRecord(6, 3, 1048000, 1048100, 0, 0, 0, 0x1111);
        writeFile(devDir(d) + "/DATA_PREPROCESS.AICPU.0.slice_0", aicpu + QByteArray(5, '\0'));
        QByteArray txLog;
        txLog += test::msprofTxRecord(9, 2, 5000100000, 5000300000, 42, "forward");
        txLog += test::msprofTxRecord(9, 0, 5000150000, 5000150000, 43, "checkpoint");
        writeFile(hostDir(d) + "/unaging.additional.msproftx.slice_0", txLog);
        writeFile(hostDir(d) + "/unaging.api_event.data.slice_0",
                  test::apiEventRecord(20500, 1, 9, 5000400000, 5000500000, 777) +
                      test::apiEventRecord(20000, 1, 9, 5000410000, 5000420000, 0));
        writeFile(hostDir(d) + "/unaging.additional.hash_dic.slice_0", "777:range: push\n");
        writeFile(hostDir(d) + "/unaging.additional.type_info_dic.slice_0", "20000_1:aclmdlExecute\n");

        const auto m = load(d.path());
        QVERIFY(m);
        // Step Trace: Iteration 1 [1,040,000, 1,052,000], Iteration 2 from there to 1,061,000.
        const int st = processNamed(*m, QStringLiteral("Step Trace"));
        QVERIFY2(st >= 0, qPrintable(warnings(*m)));
        const auto iters = slicesOf(*m, threadNamed(*m, st, QStringLiteral("Model 5")));
        QCOMPARE(iters.size(), std::size_t(2));
        QCOMPARE(iters[0].name, QStringLiteral("Iteration 1"));
        QCOMPARE(iters[0].start, at50MHz(1040000));
        QCOMPARE(iters[0].duration, TimeNs(12000 * 20));
        QCOMPARE(iters[1].name, QStringLiteral("Iteration 2"));
        QCOMPARE(iters[1].start, at50MHz(1052000));
        QCOMPARE(iters[1].duration, TimeNs(9000 * 20));
        QCOMPARE(m->declaredSteps().size(), std::size_t(2));
        QCOMPARE(m->declaredSteps()[0].number, std::int64_t(1));
        QCOMPARE(m->origin() + m->declaredSteps()[1].end, at50MHz(1061000));
        QCOMPARE(m->steps().size(), std::size_t(2));
        QVERIFY2(hasWarning(*m, QStringLiteral("1 iteration without an end mark dropped")),
                 qPrintable(warnings(*m)));
        // The flip of stream 3 at 1,052,500 starts batch 1 (FORMATS.md §5.8): task 10 before it is batch 0,
        // tasks 65535 and 0 after it are batch 1; stream 7 has no flip.
        std::map<std::pair<QString, QString>, QString> batchOf; // (stream, task) → Batch Id
        const int sched = processNamed(*m, QStringLiteral("Task Scheduler"));
        for (const int t : m->processes()[std::size_t(sched)].threads)
            for (std::uint32_t i = 0; i < m->threads()[std::size_t(t)].slices.size(); ++i) {
                std::map<QString, QString> a;
                for (const auto &[k, v] : m->sliceArgs(SliceRef{t, i}))
                    a[k] = v;
                batchOf[std::make_pair(a[QStringLiteral("Stream Id")], a[QStringLiteral("Task Id")])] =
                    a[QStringLiteral("Batch Id")];
            }
        QCOMPARE(batchOf[std::make_pair(QStringLiteral("3"), QStringLiteral("10"))], QStringLiteral("0"));
        QCOMPARE(batchOf[std::make_pair(QStringLiteral("3"), QStringLiteral("65535"))], QStringLiteral("1"));
        QCOMPARE(batchOf[std::make_pair(QStringLiteral("3"), QStringLiteral("0"))], QStringLiteral("1"));
        QCOMPARE(batchOf[std::make_pair(QStringLiteral("7"), QStringLiteral("10"))], QStringLiteral("0"));

        // AI CPU: one task on stream 4, exact ticks; the reversed and bad-magic records are counted.
        const int ac = processNamed(*m, QStringLiteral("AI CPU"));
        QVERIFY2(ac >= 0, qPrintable(warnings(*m)));
        QCOMPARE(m->processes()[static_cast<std::size_t>(ac)].layer, Layer::AiCpu);
        const int s4 = threadNamed(*m, ac, QStringLiteral("Stream 4"));
        const auto cpu = slicesOf(*m, s4);
        QCOMPARE(cpu.size(), std::size_t(1));
        QCOMPARE(cpu[0].name, QStringLiteral("AI_CPU"));
        QCOMPARE(cpu[0].start, at50MHz(1045000));
        QCOMPARE(cpu[0].duration, TimeNs(1000 * 20));
        std::map<QString, QString> args;
        for (const auto &[k, v] : m->sliceArgs(SliceRef{s4, 0}))
            args[k] = v;
        QCOMPARE(args[QStringLiteral("Task Id")], QStringLiteral("1"));
        QCOMPARE(args[QStringLiteral("Compute Time")], QStringLiteral("20"));
        QCOMPARE(args[QStringLiteral("Memcpy Time")], QStringLiteral("5"));
        QVERIFY2(
            hasWarning(*m, QStringLiteral("1 record with a wrong magic skipped; 1 record ending before it "
                                          "starts dropped")),
            qPrintable(warnings(*m)));
        QVERIFY2(hasWarning(*m, QStringLiteral("DATA_PREPROCESS.AICPU.0: truncated: the last 5 bytes")),
                 qPrintable(warnings(*m)));
        // The AI CPU task is a row of the kernel table (AI_CPU, no PMU metrics), joined to its slice.
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(), std::size_t(1));
        QCOMPARE(m->strings().qstring(k.rows()[0].acceleratorCore), QStringLiteral("AI_CPU"));
        QCOMPARE(k.rows()[0].streamId, std::int64_t(4));
        QCOMPARE(k.rows()[0].taskId, std::int64_t(1));
        QCOMPARE(m->origin() + k.rows()[0].start, at50MHz(1045000));
        QVERIFY(k.rows()[0].joined());

        // MsprofTx: the range, the mark and the level-20500 API named through hash_dic.
        const int tx = processNamed(*m, QStringLiteral("MsprofTx"));
        QVERIFY2(tx >= 0, qPrintable(warnings(*m)));
        const auto txs = slicesOf(*m, threadNamed(*m, tx, QStringLiteral("Thread 9")));
        QCOMPARE(txs.size(), std::size_t(3));
        QCOMPARE(txs[0].name, QStringLiteral("forward"));
        QCOMPARE(txs[0].start, TimeNs(1700000001000100000));
        QCOMPARE(txs[0].duration, TimeNs(200000));
        QCOMPARE(txs[1].name, QStringLiteral("checkpoint"));
        QCOMPARE(txs[1].duration, TimeNs(0));
        QCOMPARE(txs[2].name, QStringLiteral("range: push"));
        QCOMPARE(txs[2].duration, TimeNs(100000));
        const int cann = processNamed(*m, QStringLiteral("CANN"));
        QVERIFY(cann >= 0);
        QCOMPARE(slicesOf(*m, threadNamed(*m, cann, QStringLiteral("Thread 9")))[0].name,
                 QStringLiteral("AscendCL@aclmdlExecute"));
    }

    // An exported result (G3 msprof JSON) with its raw data: the export is the default; PreferredSource::Raw
    // (--source raw) decodes the slices instead, and the collection info says which was used.
    // The raw args reader gives core's kernel join the ids its args show: every device task (HWTS, STARS
    // FFTS+ subtask, AI CPU) has the "Task Id" / "Subtask Id" of its args, host APIs and step windows none.
    void argsReaderTaskIdsMatchTheArgs()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        writeFile(devDir(d) + "/ts_track.data.0.slice_0",
                  test::tsTrackStepRecord(1040000, 1, 5, 60000) + test::tsTrackStepRecord(1052000, 1, 5, 4));
        writeFile(devDir(d) + "/DATA_PREPROCESS.AICPU.0.slice_0",
                  test::aiCpuRecord(4, 1, 1045000, 1046000, 10, 30, 35));
        writeFile(hostDir(d) + "/AclModule.acl_op.0.slice_0",
                  test::aclModuleRecord(1, 5000040000, 5000090000, 8, 100, "aclopCompileAndExecute"));
        QTemporaryDir s;
        writeConfig(s, QStringLiteral("5"), QStringLiteral("25"));
        writeFile(devDir(s) + "/stars_soc.data.0.slice_0",
                  test::acsqRecord(false, 0, 0, 0x1005, 77, 1100000) +
                      test::acsqRecord(true, 2, 0, 0x1005, 77, 1100250));
        std::size_t tasks = 0, others = 0;
        for (const QTemporaryDir *folder : {&d, &s}) {
            const auto m = load(folder->path());
            QVERIFY(m);
            for (std::size_t t = 0; t < m->threads().size(); ++t) {
                const SliceTable &slices = m->threads()[t].slices;
                for (std::uint32_t i = 0; i < slices.size(); ++i) {
                    const SourceLocation loc = slices.source(i);
                    QVERIFY(loc != kNoSource);
                    const EventArgsReader *reader = m->sources()[sourceFile(loc)].argsReader.get();
                    QVERIFY(reader);
                    std::map<QString, QString> args;
                    for (const auto &[k, v] : m->sliceArgs(SliceRef{static_cast<int>(t), i}))
                        args[k] = v;
                    const std::optional<TaskIds> ids = reader->taskIds(sourceOffset(loc));
                    if (!args.count(QStringLiteral("Task Id"))) {
                        QVERIFY(!ids);
                        ++others;
                        continue;
                    }
                    QVERIFY(ids);
                    QCOMPARE(QString::number(ids->taskId), args[QStringLiteral("Task Id")]);
                    QCOMPARE(ids->subtaskId, args.count(QStringLiteral("Subtask Id"))
                                                 ? args[QStringLiteral("Subtask Id")].toLongLong()
                                                 : TaskIds::kNone);
                    ++tasks;
                }
            }
        }
        QCOMPARE(tasks, kHwtsTasks.size() + 1 + 1); // HWTS tasks, the AI CPU task, the STARS task
        QVERIFY(others >= 2);                       // the AscendCL API and the iteration
    }

    void rawSourceCanBeForcedOverTheExport()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        writeFile(
            d.filePath(QStringLiteral("%1/mindstudio_profiler_output/msprof_20240101000000.json").arg(kProf)),
            R"([{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"Ascend Hardware"}},)"
            R"({"name":"Exported","ph":"X","pid":1,"tid":3,"ts":"1700000001001000.000","dur":2}])");
        auto propertyOf = [](const TraceModel &m, const QString &key) {
            return provenanceRow(m.groups().front().provenance, key);
        };
        const auto exported = load(d.path());
        QVERIFY(exported);
        QCOMPARE(exported->sliceCount(), std::size_t(1));
        QCOMPARE(propertyOf(*exported, QStringLiteral("timeline source")), QStringLiteral("text export"));
        QVERIFY(propertyOf(*exported, QStringLiteral("raw data")).contains(QStringLiteral("--source raw")));

        LoadControl control;
        auto controlOptions = at::environmentLoadOptions();
        controlOptions.preferredSource = PreferredSource::Raw;
        LoadResult r = loadTrace(d.path(), controlOptions, control);
        QVERIFY2(r.model, qPrintable(r.error));
        QCOMPARE(r.model->sliceCount(), kHwtsTasks.size());
        {
            // With the snapshot cache on, the export's snapshot must not answer a request for raw data.
            QTemporaryDir cache;
            const QByteArray oldCache = qgetenv("XDG_CACHE_HOME"), oldOff = qgetenv("AT_NO_SNAPSHOT");
            qputenv("XDG_CACHE_HOME", QFile::encodeName(cache.path()));
            qunsetenv("AT_NO_SNAPSHOT");
            QCOMPARE(load(d.path())->sliceCount(), std::size_t(1)); // the export, now cached
            LoadControl rawAgain;
            auto rawAgainOptions = at::environmentLoadOptions();
            rawAgainOptions.preferredSource = PreferredSource::Raw;
            const LoadResult cached = loadTrace(d.path(), rawAgainOptions, rawAgain);
            qputenv("XDG_CACHE_HOME", oldCache);
            qputenv("AT_NO_SNAPSHOT", oldOff);
            QVERIFY(cached.model);
            QCOMPARE(cached.model->sliceCount(), kHwtsTasks.size());
        }
        QVERIFY(processNamed(*r.model, QStringLiteral("Task Scheduler")) >= 0);
        QVERIFY(
            propertyOf(*r.model, QStringLiteral("timeline source")).startsWith(QStringLiteral("raw data")));
        QCOMPARE(propertyOf(*r.model, QStringLiteral("other source")), QStringLiteral("text export"));
        QVERIFY(r.model->groups().front().layout.contains(QStringLiteral("--source raw")));

        // A result without raw data: the export is loaded and the request is named in a warning.
        QTemporaryDir e;
        writeFile(
            e.filePath(QStringLiteral("%1/mindstudio_profiler_output/msprof_20240101000000.json").arg(kProf)),
            R"([{"name":"Exported","ph":"X","pid":1,"tid":3,"ts":"1.000","dur":2}])");
        LoadControl control2;
        auto control2Options = at::environmentLoadOptions();
        control2Options.preferredSource = PreferredSource::Raw;
        LoadResult r2 = loadTrace(e.path(), control2Options, control2);
        QVERIFY2(r2.model, qPrintable(r2.error));
        QCOMPARE(r2.model->sliceCount(), std::size_t(1));
        QVERIFY2(hasWarning(*r2.model, QStringLiteral("raw data was requested but no")),
                 qPrintable(warnings(*r2.model)));
    }

    // Host task_track submissions name the device tasks (kernel name hash → hash_dic): the latest
    // submission of the same (device, stream, task) before the execution wins (task ids wrap); the PMU
    // kernel rows carry the same names; flips are not tasks; unnamed tasks keep their type and are counted.
    void taskTrackNamesDeviceTasks()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        // Host mono ns of device tick T: 5e9 + (T − 1e6) × 20.
        auto mono = [](std::uint64_t ticks) { return 5000000000ull + (ticks - kSyncTicks) * 20; };
        QByteArray track;
        track += test::taskTrackRecord(100, mono(1040000), 0, 3, 65535, 0, 0, 33); // older use of the id
        track += test::taskTrackRecord(100, mono(1049000), 0, 3, 10, 0, 0, 11);
        track += test::taskTrackRecord(100, mono(1054000), 0, 7, 10, 0, 0, 22);
        track += test::taskTrackRecord(100, mono(1059000), 0, 3, 65535, 0, 0, 44);
        track += test::taskTrackRecord(100, mono(1060060), 0, 3, 0, 1, 98, 0); // flip: not a task
        track += test::taskTrackRecord(100, mono(1044000), 0, 4, 1, 0, 0, 55); // the AI CPU task below
        writeFile(hostDir(d) + "/unaging.compact.task_track.slice_0", track);
        writeFile(hostDir(d) + "/unaging.additional.hash_dic.slice_0",
                  "11:MatMul_1\n22:Add_2\n33:Old_3\n44:Conv2D: 4\n55:DropOutGenMask_5\n");
        writeFile(devDir(d) + "/aicpu.data.0.slice_0", test::aiCpuRecord(4, 1, 1045000, 1046000));
        // ts_track block-num records give the kernel rows their Block Dim (the one logged last before).
        QByteArray blocks(80, '\0');
        test::putLe(blocks, 1, 15, 1);
        test::putLe(blocks, 8, 1040000, 8);
        test::putLe(blocks, 16, 3, 2);
        test::putLe(blocks, 18, 10, 2);
        test::putLe(blocks, 20, 4, 4);
        test::putLe(blocks, 41, 15, 1);
        test::putLe(blocks, 48, 1049500, 8);
        test::putLe(blocks, 56, 3, 2);
        test::putLe(blocks, 58, 10, 2);
        test::putLe(blocks, 60, 32, 4);
        writeFile(devDir(d) + "/ts_track.data.0.slice_0", blocks);
        writeFile(devDir(d) + "/aicore.data.0.slice_0",
                  test::aicoreRecord(10, 3, 1000, {500, 250, 125, 100, 50, 10, 400, 100}));
        const auto m = load(d.path());
        QVERIFY(m);
        const int ts = processNamed(*m, QStringLiteral("Task Scheduler"));
        const auto s3 = slicesOf(*m, threadNamed(*m, ts, QStringLiteral("Stream 3")));
        QCOMPARE(s3.size(), std::size_t(3));
        QCOMPARE(s3[0].name, QStringLiteral("MatMul_1"));
        QCOMPARE(s3[1].name, QStringLiteral("Conv2D: 4"));
        QCOMPARE(s3[2].name, QStringLiteral("AI_CORE")); // (3, 0): no submission
        QCOMPARE(slicesOf(*m, threadNamed(*m, ts, QStringLiteral("Stream 7")))[0].name,
                 QStringLiteral("Add_2"));
        QVERIFY2(hasWarning(*m, QStringLiteral("1 of 4 device tasks have no host task_track record")),
                 qPrintable(warnings(*m)));
        const int ac = processNamed(*m, QStringLiteral("AI CPU"));
        QCOMPARE(slicesOf(*m, threadNamed(*m, ac, QStringLiteral("Stream 4")))[0].name,
                 QStringLiteral("DropOutGenMask_5"));
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(), std::size_t(2));
        std::map<QString, std::size_t> rowOf;
        for (std::size_t r = 0; r < k.size(); ++r) {
            rowOf[m->strings().qstring(k.rows()[r].name)] = r;
            QVERIFY(k.rows()[r].joined());
        }
        QCOMPARE(m->strings().qstring(k.rows()[rowOf.at(QStringLiteral("MatMul_1"))].type),
                 QStringLiteral("AI_CORE"));
        QCOMPARE(k.rows()[rowOf.at(QStringLiteral("MatMul_1"))].blockDim, std::int64_t(32));
        // FORMATS.md §4.2 times: cycles / 1000 MHz × ceil(32 blocks / 8 cores) / 32 = 1000 × 0.000125 µs.
        const std::size_t matmul = rowOf.at(QStringLiteral("MatMul_1"));
        QCOMPARE(k.metric(matmul, std::size_t(k.columnIndex(QStringLiteral("aicore_time(us)")))), 0.125);
        QCOMPARE(k.metric(matmul, std::size_t(k.columnIndex(QStringLiteral("vec_time(us)")))), 0.0625);
        QCOMPARE(k.metric(matmul, std::size_t(k.columnIndex(QStringLiteral("mte3_time(us)")))),
                 10 * 0.000125);
        QCOMPARE(m->strings().qstring(k.rows()[rowOf.at(QStringLiteral("DropOutGenMask_5"))].acceleratorCore),
                 QStringLiteral("AI_CPU"));
    }

    // The host association (FORMATS.md §5.3): api_event ranges nest per thread; node_basic_info and
    // tensor_info inside a Node range describe its op, task_track inside its Runtime range is a submission.
    // The device task is named by the op, carries type/shapes/block dims, gets a Kernels row without PMU data
    // and a HostToDevice flow from the Node slice; a task outside any op gets its flow from the API that
    // called the runtime; tasks under HCCL ranges are drawn again on the HCCL layer per plane, with one slice
    // per communication op.
    void hostAssociationNamesOpsFlowsAndHccl()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        auto mono = [](std::uint64_t ticks) { return 5000000000ull + (ticks - kSyncTicks) * 20; };
        auto hostLocal = [](std::uint64_t monoNs) {
            return TimeNs(1700000000000000000) - 4000000000 + TimeNs(monoNs);
        };
        const std::uint32_t tid = 100;
        QByteArray api;
        // Conv2D1: AscendCL ⊃ Node ⊃ Runtime, submitting (stream 3, task 10).
        api += test::apiEventRecord(20000, 1, tid, mono(1048000), mono(1049900), 0);
        api += test::apiEventRecord(10000, 0, tid, mono(1048100), mono(1049800), 101);
        api += test::apiEventRecord(5000, 1, tid, mono(1048900), mono(1049000), 0);
        // A memcpy outside any op: AscendCL ⊃ Runtime, submitting (stream 7, task 10).
        api += test::apiEventRecord(20000, 2, tid, mono(1054000), mono(1054500), 0);
        api += test::apiEventRecord(5000, 1, tid, mono(1054100), mono(1054400), 0);
        // hcom_allReduce__1: Node ⊃ two HCCL ranges ⊃ Runtime, submitting (3, 65535) and (3, 0).
        api += test::apiEventRecord(10000, 0, tid, mono(1059000), mono(1059900), 201);
        api += test::apiEventRecord(5500, 0, tid, mono(1059100), mono(1059400), 204);
        api += test::apiEventRecord(5000, 1, tid, mono(1059200), mono(1059300), 0);
        api += test::apiEventRecord(5500, 0, tid, mono(1059500), mono(1059800), 205);
        api += test::apiEventRecord(5000, 1, tid, mono(1059600), mono(1059700), 0);
        writeFile(hostDir(d) + "/unaging.api_event.data.slice_0", api);
        QByteArray track;
        track += test::taskTrackRecord(tid, mono(1048950), 0, 3, 10, 0, 0, 103);
        track += test::taskTrackRecord(tid, mono(1054200), 0, 7, 10, 0, 0, 0);
        track += test::taskTrackRecord(tid, mono(1059250), 0, 3, 65535, 0, 0, 0);
        track += test::taskTrackRecord(tid, mono(1059650), 0, 3, 0, 1, 0, 0);
        writeFile(hostDir(d) + "/unaging.compact.task_track.slice_0", track);
        writeFile(hostDir(d) + "/unaging.compact.node_basic_info.slice_0",
                  test::nodeBasicInfoRecord(tid, mono(1048200), 101, 0, 102, (2u << 16) | 16, true));
        writeFile(
            hostDir(d) + "/aging.additional.tensor_info.slice_0",
            test::tensorInfoRecord(
                tid, mono(1048300), 101,
                {{false, 0, 1, {1, 3, 224, 224}}, {false, 2, 0, {64}}, {true, 3, 1, {1, 4, 55, 55, 16}}}));
        writeFile(hostDir(d) + "/unaging.compact.hccl_op_info.slice_0",
                  test::hcclOpInfoRecord(tid, mono(1059050), 203, 1024, 202));
        writeFile(hostDir(d) + "/unaging.additional.hccl_info.slice_0",
                  test::hcclInfoRecord(tid, mono(1059150), 204, 202, 0, 1, 1, 4096) +
                      test::hcclInfoRecord(tid, mono(1059550), 205, 202, 0, 1, 1, 8192));
        writeFile(
            hostDir(d) + "/unaging.additional.hash_dic.slice_0",
            "101:Conv2D1\n102:Conv2D\n103:te_conv2d_kernel\n201:hcom_allReduce__1\n202:hccl_world_group\n"
            "203:ring\n204:Notify_Wait\n205:Memcpy\n");
        writeFile(hostDir(d) + "/unaging.additional.type_info_dic.slice_0",
                  "20000_1:aclopCompileAndExecute\n20000_2:aclrtMemcpyAsync\n5000_1:launch\n");
        const auto m = load(d.path());
        QVERIFY(m);
        QVERIFY2(!hasWarning(*m, QStringLiteral("not decoded")), qPrintable(warnings(*m)));

        const int ts = processNamed(*m, QStringLiteral("Task Scheduler"));
        const int stream3 = threadNamed(*m, ts, QStringLiteral("Stream 3"));
        const auto s3 = slicesOf(*m, stream3);
        QCOMPARE(s3.size(), std::size_t(3));
        QCOMPARE(s3[0].name, QStringLiteral("Conv2D1")); // the op, not the kernel name
        QCOMPARE(s3[1].name, QStringLiteral("Notify_Wait"));
        QCOMPARE(s3[2].name, QStringLiteral("Memcpy"));
        QCOMPARE(slicesOf(*m, threadNamed(*m, ts, QStringLiteral("Stream 7")))[0].name,
                 QStringLiteral("AI_CORE"));

        // Args of the Conv2D1 task: op type, GE task type, block dims, tensors in op_summary's notation.
        const SliceTable &t3 = m->threads()[std::size_t(stream3)].slices;
        std::uint32_t conv = 0;
        while (conv < t3.size() && m->strings().qstring(t3.name(conv)) != QStringLiteral("Conv2D1"))
            ++conv;
        std::map<QString, QString> args;
        for (const auto &[k, v] : m->sliceArgs(SliceRef{stream3, conv}))
            args[k] = v;
        QCOMPARE(args[QStringLiteral("OP Type")], QStringLiteral("Conv2D"));
        QCOMPARE(args[QStringLiteral("Op Task Type")], QStringLiteral("AI_CORE"));
        QCOMPARE(args[QStringLiteral("Block Dim")], QStringLiteral("16"));
        QCOMPARE(args[QStringLiteral("Mix Block Dim")], QStringLiteral("32"));
        QCOMPARE(args[QStringLiteral("HF32 Eligible")], QStringLiteral("YES"));
        QCOMPARE(args[QStringLiteral("Input Shapes")], QStringLiteral("1,3,224,224;64"));
        QCOMPARE(args[QStringLiteral("Input Data Types")], QStringLiteral("FLOAT16;FLOAT"));
        QCOMPARE(args[QStringLiteral("Input Formats")], QStringLiteral("NCHW;ND"));
        QCOMPARE(args[QStringLiteral("Output Shapes")], QStringLiteral("1,4,55,55,16"));
        QCOMPARE(args[QStringLiteral("Output Formats")], QStringLiteral("NC1HWC0"));
        QCOMPARE(args[QStringLiteral("Task Id")], QStringLiteral("10"));

        // A Kernels row for the op although there is no PMU data.
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(), std::size_t(1));
        const KernelRecord &row = k.rows()[0];
        QCOMPARE(m->strings().qstring(row.name), QStringLiteral("Conv2D1"));
        QCOMPARE(m->strings().qstring(row.type), QStringLiteral("Conv2D"));
        QCOMPARE(m->strings().qstring(row.acceleratorCore), QStringLiteral("AI_CORE"));
        QCOMPARE(m->strings().qstring(row.inputShapes), QStringLiteral("1,3,224,224;64"));
        QCOMPARE(row.blockDim, std::int64_t(16));
        QVERIFY(row.joined());

        // HostToDevice flows: Node@Conv2D1 → Conv2D1, AscendCL@aclrtMemcpyAsync → the memcpy task, and the
        // communication op's Node slice → both of its tasks.
        std::map<TimeNs, std::vector<TimeNs>> flows; // host start → device starts
        for (const FlowInfo &f : m->flows())
            if (m->strings().qstring(f.category) == QStringLiteral("HostToDevice")) {
                QVERIFY(f.from.thread >= 0 && f.to.thread >= 0); // both ends bound to slices
                flows[m->origin() + f.fromTime].push_back(m->origin() + f.toTime);
            }
        QCOMPARE(flows.size(), std::size_t(3));
        QCOMPARE(flows[hostLocal(mono(1048100))], std::vector<TimeNs>{at50MHz(1050000)});
        QCOMPARE(flows[hostLocal(mono(1054000))], std::vector<TimeNs>{at50MHz(1055000)});
        auto hcclEnds = flows[hostLocal(mono(1059000))];
        std::sort(hcclEnds.begin(), hcclEnds.end());
        QCOMPARE(hcclEnds, (std::vector<TimeNs>{at50MHz(1060000), at50MHz(1060100)}));

        // The HCCL layer: plane lane with the small tasks, group lane with the op spanning them.
        const int hccl = processNamed(*m, QStringLiteral("HCCL"));
        QVERIFY(hccl >= 0);
        QCOMPARE(m->processes()[std::size_t(hccl)].layer, Layer::Communication);
        const auto plane = slicesOf(*m, threadNamed(*m, hccl, QStringLiteral("Plane 1")));
        QCOMPARE(plane.size(), std::size_t(2));
        QCOMPARE(plane[0].name, QStringLiteral("Notify_Wait"));
        QCOMPARE(plane[1].start, at50MHz(1060100));
        const auto group =
            slicesOf(*m, threadNamed(*m, hccl, QStringLiteral("Group hccl_world_group Communication")));
        QCOMPARE(group.size(), std::size_t(1));
        QCOMPARE(group[0].name, QStringLiteral("hcom_allReduce__1"));
        QCOMPARE(group[0].start, at50MHz(1060000));
        QCOMPARE(group[0].duration, TimeNs(150 * 20));
    }

    // Batch ids join host and device across a task-id wrap (FORMATS.md §5.8): task 0 of stream 3 was
    // submitted twice, in batch 0 long before and in batch 1 with a host timestamp slightly after the device
    // start (the clocks disagree by a few µs). The device flip says the execution is batch 1, so the batch-1
    // submission names it; without flips the latest earlier submission would win.
    void batchIdsJoinSubmissionsAcrossWraps()
    {
        auto mono = [](std::uint64_t ticks) { return 5000000000ull + (ticks - kSyncTicks) * 20; };
        for (const bool withFlip : {true, false}) {
            QTemporaryDir d;
            writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
            writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
            if (withFlip)
                writeFile(devDir(d) + "/ts_track.data.0.slice_0", test::tsTrackFlipRecord(1060080, 3, 1, 0));
            QByteArray track;
            track += test::taskTrackRecord(100, mono(1045000), 0, 3, 0, 0, 0, 11);
            track += test::taskTrackRecord(100, mono(1060120), 0, 3, 0, 1, 0, 22);
            writeFile(hostDir(d) + "/unaging.compact.task_track.slice_0", track);
            writeFile(hostDir(d) + "/unaging.additional.hash_dic.slice_0", "11:Old_0\n22:New_0\n");
            const auto m = load(d.path());
            QVERIFY(m);
            const int ts = processNamed(*m, QStringLiteral("Task Scheduler"));
            const int stream3 = threadNamed(*m, ts, QStringLiteral("Stream 3"));
            const auto s3 = slicesOf(*m, stream3);
            QCOMPARE(s3.size(), std::size_t(3));
            QCOMPARE(s3[2].start, at50MHz(1060100));
            QCOMPARE(s3[2].name, withFlip ? QStringLiteral("New_0") : QStringLiteral("Old_0"));
        }
    }

    // G1 E2E-era raw data (FORMATS.md §5.4): no api_event / task_track, but GE's Framework.task_desc_info
    // records name each task with its op (as text or as a Framework.hash_dic hash), type and block dims; the
    // legacy training-era HWTS file name is read too.
    void legacyGeTaskDescriptionsNameG1Tasks()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.log.data.45.dev.profiler_default_tag.0.slice_0", hwtsLog(kHwtsTasks));
        auto mono = [](std::uint64_t ticks) { return 5000000000ull + (ticks - kSyncTicks) * 20; };
        QByteArray ge;
        ge += test::geTaskDescRecord(0, "Conv2D_1", 0, "Conv2D", 0, mono(1049000), 32, 3, 10, 0, 7);
        ge += test::geTaskDescRecord(2, {}, 501, {}, 502, mono(1054000), 8, 7, 10, 0, 7);
        ge += test::geTaskDescRecord(0, "Stale_0", 0, "Stale", 0, mono(1030000), 1, 3, 0, 0, 7);
        writeFile(devDir(d) + "/Framework.task_desc_info.0.slice_0", ge);
        writeFile(devDir(d) + "/Framework.hash_dic.0.slice_0", "501:MatMul_2\n502:MatMul\n");
        const auto m = load(d.path());
        QVERIFY(m);
        QVERIFY2(!hasWarning(*m, QStringLiteral("Framework")), qPrintable(warnings(*m)));
        const int ts = processNamed(*m, QStringLiteral("Task Scheduler"));
        const auto s3 = slicesOf(*m, threadNamed(*m, ts, QStringLiteral("Stream 3")));
        QCOMPARE(s3.size(), std::size_t(3));
        QCOMPARE(s3[0].name, QStringLiteral("Conv2D_1"));
        QCOMPARE(s3[1].name, QStringLiteral("AI_CORE")); // (3, 65535): no description
        QCOMPARE(s3[2].name, QStringLiteral("Stale_0")); // (3, 0): the only description, though earlier
        const auto s7 = slicesOf(*m, threadNamed(*m, ts, QStringLiteral("Stream 7")));
        QCOMPARE(s7[0].name, QStringLiteral("MatMul_2"));
        // Kernels rows from the descriptions alone (no PMU here): op type, GE core, block dims.
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(), std::size_t(3));
        std::map<QString, const KernelRecord *> rowOf;
        for (const KernelRecord &r : k.rows())
            rowOf[m->strings().qstring(r.name)] = &r;
        QCOMPARE(m->strings().qstring(rowOf.at(QStringLiteral("Conv2D_1"))->type), QStringLiteral("Conv2D"));
        QCOMPARE(rowOf.at(QStringLiteral("Conv2D_1"))->blockDim, std::int64_t(32));
        QCOMPARE(m->strings().qstring(rowOf.at(QStringLiteral("MatMul_2"))->type), QStringLiteral("MatMul"));
        QCOMPARE(m->strings().qstring(rowOf.at(QStringLiteral("MatMul_2"))->acceleratorCore),
                 QStringLiteral("AI_VECTOR_CORE"));
    }

    // Decoding stops on the cancel flag (the user) and on the memory limit (which keeps what was decoded and
    // says so); a load without either decodes everything.
    void cancelAndMemoryLimitStopDecoding()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks, -1));
        writeFile(hostDir(d) + "/unaging.additional.hash_dic.slice_0", "1:a\n");
        LoadControl cancelled;
        cancelled.cancel = true;
        QVERIFY(loadTrace(d.path(), at::environmentLoadOptions(), cancelled).cancelled());

        LoadControl limited;
        auto limitedOptions = at::environmentLoadOptions();
        limitedOptions.memoryLimitBytes = 1; // over the limit before the first record
        const LoadResult stopped = loadTrace(d.path(), limitedOptions, limited);
        QVERIFY2(stopped.model, qPrintable(stopped.error));
        QVERIFY(limited.memoryLimitReached);
        QCOMPARE(stopped.model->sliceCount(), std::size_t(0));
        QVERIFY2(hasWarning(*stopped.model, QStringLiteral("memory use reached the limit")),
                 qPrintable(warnings(*stopped.model)));
        // What was kept: nothing was read, and every stream (the dictionary too) is named as not read.
        QVERIFY2(
            hasWarning(*stopped.model,
                       QStringLiteral("raw record streams when reading stopped: read completely: none; cut: "
                                      "none; not read: host/data/unaging.additional.hash_dic, "
                                      "device_0/data/hwts.data.0")),
            qPrintable(warnings(*stopped.model)));

        const auto whole = load(d.path());
        QVERIFY(whole);
        QCOMPARE(whole->sliceCount(), kHwtsTasks.size());
    }

    // The progress of a raw load: the total is the size of the slice files, the counter advances per slice
    // file as it is decoded (never backwards, never past the total) and ends at the total.
    void rawLoadReportsProgress()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        std::vector<Task> tasks;
        for (std::uint16_t i = 0; i < 20000; ++i)
            tasks.push_back({std::uint32_t(i % 8), i, 1050000u + i * 10u, 1050000u + i * 10u + 5u});
        const QByteArray log = hwtsLog(tasks);
        qint64 sliceBytes = 0;
        for (int k = 0; k * 64000 < log.size(); ++k) { // records cut across slices on purpose
            const QByteArray part = log.mid(k * 64000, 64000);
            writeFile(devDir(d) + QStringLiteral("/hwts.data.0.slice_%1").arg(k), part);
            sliceBytes += part.size();
        }
        const QByteArray hashes = "1:a\n";
        writeFile(hostDir(d) + "/unaging.additional.hash_dic.slice_0", hashes);
        LoadControl control;
        std::atomic<bool> done{false};
        std::vector<std::uint64_t> seen;
        std::thread watcher([&] {
            while (!done)
                if (const std::uint64_t v = control.bytesDone.load(); seen.empty() || v != seen.back())
                    seen.push_back(v);
        });
        const LoadResult r = loadTrace(d.path(), at::environmentLoadOptions(), control);
        done = true;
        watcher.join();
        QVERIFY2(r.model, qPrintable(r.error));
        QCOMPARE(r.model->sliceCount(), tasks.size());
        QCOMPARE(control.bytesTotal.load(), std::uint64_t(sliceBytes + hashes.size()));
        QCOMPARE(control.bytesDone.load(), control.bytesTotal.load());
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QVERIFY(seen.empty() || seen.back() <= control.bytesTotal.load());
    }

    void unmatchedAndRepeatedRecordsAreCounted()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        QByteArray log;
        log += test::hwtsRecord(1, 0, 0, 4, 1010000, 2); // end without start
        log += test::hwtsRecord(0, 1, 0, 5, 1020000, 2); // start, replaced by the next
        log += test::hwtsRecord(0, 2, 0, 5, 1020010, 2);
        log += test::hwtsRecord(1, 3, 0, 5, 1020020, 2);
        log += test::hwtsRecord(0, 4, 0, 6, 1030000, 2); // never ended
        writeFile(devDir(d) + "/hwts.data.0.slice_0", log);
        const auto m = load(d.path());
        QVERIFY(m);
        const int ts = processNamed(*m, QStringLiteral("Task Scheduler"));
        const auto s = slicesOf(*m, threadNamed(*m, ts, QStringLiteral("Stream 2")));
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].start, at50MHz(1020010));
        QCOMPARE(s[0].duration, TimeNs(200));
        QVERIFY2(
            hasWarning(*m, QStringLiteral("1 end record without a start dropped; 1 start record never ended "
                                          "dropped; 1 start record replaced")),
            qPrintable(warnings(*m)));
    }

    void starsChipFolderDecodesExactly()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("5"), QStringLiteral("25")); // 40 ns per tick
        QByteArray soc;
        // Raw stream 0x1005 decodes to stream 5 (§5.6 normal mode, bit 0x1000).
        soc += test::acsqRecord(false, 0, 0, 0x1005, 77, 1100000);
        soc += test::acsqRecord(false, 1, 11, 9, 78, 1100010); // SDMA on stream 9
        soc += test::acsqRecord(true, 2, 0, 0x1005, 77, 1100250);
        soc += test::acsqRecord(true, 3, 11, 9, 78, 1100020);
        writeFile(devDir(d) + "/stars_soc.data.0.slice_0", soc);
        QByteArray pmu;
        pmu += test::contextPmuRecord(0, 0x1005, 77, 0, 0, 0, 1000, {100, 300, 0, 0, 0, 0, 0, 0}, 1100001,
                                      1100249);
        pmu += test::contextPmuRecord(1, 0x1005, 77, 0, 0, 0, 1000, {1, 1, 0, 0, 0, 0, 0, 0}, 1100001,
                                      1100249, true);
        writeFile(devDir(d) + "/ffts_profile.data.0.slice_0", pmu);
        const auto m = load(d.path());
        QVERIFY(m);
        const int hw = processNamed(*m, QStringLiteral("Ascend Hardware"));
        QVERIFY2(hw >= 0, qPrintable(warnings(*m)));
        const auto s5 = slicesOf(*m, threadNamed(*m, hw, QStringLiteral("Stream 5")));
        QCOMPARE(s5.size(), std::size_t(1));
        QCOMPARE(s5[0].start, kEpochNs + 100000 * 40);
        QCOMPARE(s5[0].duration, TimeNs(250 * 40));
        QCOMPARE(s5[0].name, QStringLiteral("AI_CORE"));
        const auto s9 = slicesOf(*m, threadNamed(*m, hw, QStringLiteral("Stream 9")));
        QCOMPARE(s9.size(), std::size_t(1));
        QCOMPARE(s9[0].name, QStringLiteral("SDMA_SQE"));
        QCOMPARE(s9[0].duration, TimeNs(400));
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(), std::size_t(1));
        QVERIFY(k.rows()[0].joined());
        QCOMPARE(k.rows()[0].streamId, std::int64_t(5));
        QCOMPARE(k.rows()[0].taskId, std::int64_t(77));
        const int mac = k.columnIndex(QStringLiteral("aic_mac_ratio"));
        QVERIFY(mac >= 0);
        QCOMPARE(k.metric(0, static_cast<std::size_t>(mac)), 0.3);
        QVERIFY2(hasWarning(*m, QStringLiteral("1 PMU record with the overflow flag dropped")),
                 qPrintable(warnings(*m)));
    }

    // FORMATS.md §5.6 id decoding beyond normal mode: an expand_stream_spec record on the host switches to
    // stream-expand mode (raw stream 0xB26E, task 0x8001 → stream 1, task 45678; normal mode would say stream
    // 622); chip v6 (Ascend 950) logs 32-byte ACSQ records whose task id is (task << 16) | stream.
    void starsStreamExpandAndChipV6Ids()
    {
        for (const bool expand : {true, false}) {
            QTemporaryDir d;
            writeConfig(d, QStringLiteral("5"), QStringLiteral("25"));
            writeFile(devDir(d) + "/stars_soc.data.0.slice_0",
                      test::acsqRecord(false, 0, 0, 0xB26E, 0x8001, 1100000) +
                          test::acsqRecord(true, 1, 0, 0xB26E, 0x8001, 1100100));
            if (expand)
                writeFile(hostDir(d) + "/unaging.compact.expand_stream_spec.slice_0",
                          test::hostRecord(64, 5000, 1, 5000000000));
            const auto m = load(d.path());
            QVERIFY(m);
            const int hw = processNamed(*m, QStringLiteral("Ascend Hardware"));
            const int lane =
                threadNamed(*m, hw, expand ? QStringLiteral("Stream 1") : QStringLiteral("Stream 622"));
            QVERIFY2(lane >= 0, qPrintable(warnings(*m)));
            std::map<QString, QString> args;
            for (const auto &[k, v] : m->sliceArgs(SliceRef{lane, 0}))
                args[k] = v;
            QCOMPARE(args[QStringLiteral("Task Id")],
                     expand ? QStringLiteral("45678") : QStringLiteral("40961"));
        }
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("15"), QStringLiteral("25")); // Ascend 950, chip v6
        writeFile(devDir(d) + "/stars_soc.data.0.slice_0",
                  test::acsqRecord(false, 0, 0, 5, 2, 1100000).left(32) +
                      test::acsqRecord(true, 1, 0, 5, 2, 1100100).left(32));
        const auto m = load(d.path());
        QVERIFY(m);
        QVERIFY2(!hasWarning(*m, QStringLiteral("truncated")), qPrintable(warnings(*m)));
        const int lane =
            threadNamed(*m, processNamed(*m, QStringLiteral("Ascend Hardware")), QStringLiteral("Stream 5"));
        QVERIFY2(lane >= 0, qPrintable(warnings(*m)));
        const auto s5 = slicesOf(*m, lane);
        QCOMPARE(s5.size(), std::size_t(1));
        QCOMPARE(s5[0].duration, TimeNs(100 * 40));
        std::map<QString, QString> args;
        for (const auto &[k, v] : m->sliceArgs(SliceRef{lane, 0}))
            args[k] = v;
        QCOMPARE(args[QStringLiteral("Task Id")], QString::number((2u << 16) | 5u));
    }

    // Two devices in one PROF folder: each gets its own Task Scheduler process (labelled by device), the same
    // (stream, task) ids on both are named from the submission to that device, and the one host API that
    // submitted to both (an AscendCL range around two runtime submissions) starts flows to both.
    void twoDevicesKeepTheirTasksApart()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        const QString dev1 = d.filePath(QStringLiteral("%1/device_1/data").arg(kProf));
        writeFile(dev1 + "/info.json.1", R"({"platform_version":"1","DeviceInfo":[{"id":1,"ai_core_num":8,)"
                                         R"("hwts_frequency":"100","aic_frequency":"1000"}]})");
        writeFile(dev1 + "/start_info.1",
                  R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
        writeFile(dev1 + "/dev_start.log.1", "[Device]\nclock_monotonic_raw: 5000000000\ncntvct: 2000000\n");
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog({{3, 10, 1050000, 1050100}}));
        // Device 1 runs at 100 MHz (10 ns per tick) from its own sync point.
        writeFile(dev1 + "/hwts.data.1.slice_0", hwtsLog({{3, 10, 2100000, 2100300}}));
        auto mono = [](std::uint64_t ticks) { return 5000000000ull + (ticks - kSyncTicks) * 20; };
        writeFile(hostDir(d) + "/unaging.api_event.data.slice_0",
                  test::apiEventRecord(20000, 0, 5, mono(1048000), mono(1049900), 21) +
                      test::apiEventRecord(5000, 1, 5, mono(1048500), mono(1049500), 0));
        writeFile(hostDir(d) + "/unaging.compact.task_track.slice_0",
                  test::taskTrackRecord(5, mono(1049000), 0, 3, 10, 0, 0, 11) +
                      test::taskTrackRecord(5, mono(1049100), 1, 3, 10, 0, 0, 12));
        writeFile(hostDir(d) + "/unaging.additional.hash_dic.slice_0",
                  "11:on_device_0\n12:on_device_1\n21:AllGather\n");
        const auto m = load(d.path());
        QVERIFY(m);
        std::map<QString, int> schedulerOf; // label → process
        for (std::size_t p = 0; p < m->processes().size(); ++p)
            if (m->strings().qstring(m->processes()[p].name) == QStringLiteral("Task Scheduler"))
                schedulerOf[m->strings().qstring(m->processes()[p].labels)] = int(p);
        QCOMPARE(schedulerOf.size(), std::size_t(2));
        const auto on0 = slicesOf(
            *m, threadNamed(*m, schedulerOf.at(QStringLiteral("Device 0")), QStringLiteral("Stream 3")));
        const auto on1 = slicesOf(
            *m, threadNamed(*m, schedulerOf.at(QStringLiteral("Device 1")), QStringLiteral("Stream 3")));
        QCOMPARE(on0.size(), std::size_t(1));
        QCOMPARE(on1.size(), std::size_t(1));
        // No op around them: each is named by the kernel of its own device's submission.
        QCOMPARE(on0[0].name, QStringLiteral("on_device_0"));
        QCOMPARE(on1[0].name, QStringLiteral("on_device_1"));
        QCOMPARE(on0[0].start, at50MHz(1050000));
        QCOMPARE(on1[0].start, kEpochNs + 100000 * 10);
        QCOMPARE(on1[0].duration, TimeNs(300 * 10));
        std::vector<TimeNs> ends;
        for (const FlowInfo &f : m->flows())
            ends.push_back(m->origin() + f.toTime);
        std::sort(ends.begin(), ends.end());
        QCOMPARE(ends, (std::vector<TimeNs>{at50MHz(1050000), kEpochNs + 100000 * 10}));
    }

    // FORMATS.md §5.9: block PMU records of a MIX op's other core are summed per task (cycles and every
    // counter) into that core's columns of the task's row; blocks of a core that has a context PMU record
    // add nothing.
    void blockPmuOfTheOtherCoreIsSummed()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("5"), QStringLiteral("25"));
        writeFile(devDir(d) + "/stars_soc.data.0.slice_0", test::acsqRecord(false, 0, 0, 5, 77, 1100000) +
                                                               test::acsqRecord(true, 1, 0, 5, 77, 1100250));
        QByteArray pmu;
        pmu +=
            test::contextPmuRecord(0, 5, 77, 0, 0, 0, 1000, {100, 300, 0, 0, 0, 0, 0, 0}, 1100001, 1100249);
        pmu +=
            test::blockPmuRecord(1, 5, 77, 0, true, 3, 0, 100, {40, 0, 10, 0, 0, 0, 0, 0}, 1100002, 1100200);
        pmu +=
            test::blockPmuRecord(2, 5, 77, 0, true, 4, 1, 300, {60, 0, 30, 0, 0, 0, 0, 0}, 1100003, 1100240);
        pmu +=
            test::blockPmuRecord(3, 5, 77, 0, false, 0, 0, 999, {1, 1, 1, 1, 1, 1, 1, 1}, 1100004, 1100240);
        writeFile(devDir(d) + "/ffts_profile.data.0.slice_0", pmu);
        const auto m = load(d.path());
        QVERIFY(m);
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(),
                 std::size_t(1)); // one row per task, as op_summary: AIC columns and summed AIV ones
        const int aicCycles = k.columnIndex(QStringLiteral("aic_total_cycles"));
        const int aivCycles = k.columnIndex(QStringLiteral("aiv_total_cycles"));
        const int aivVec = k.columnIndex(QStringLiteral("aiv_vec_ratio"));
        const int aivScalar = k.columnIndex(QStringLiteral("aiv_scalar_ratio"));
        QVERIFY(aicCycles >= 0 && aivCycles >= 0 && aivVec >= 0 && aivScalar >= 0);
        QCOMPARE(m->strings().qstring(k.rows()[0].acceleratorCore), QStringLiteral("MIX_AIC"));
        QCOMPARE(k.metric(0, std::size_t(aivCycles)), 400.0);
        QCOMPARE(k.metric(0, std::size_t(aivVec)), 0.25);
        QCOMPARE(k.metric(0, std::size_t(aivScalar)), 0.1);
        QCOMPARE(k.metric(0, std::size_t(aicCycles)), 1000.0); // the context record's, not the AIC blocks'
        QVERIFY(k.rows()[0].joined());
    }

    // lpmFreqConv (FORMATS.md §5.5): the AI Core Freq counter, and §4.2's "frequency at the task end" for the
    // PMU times (here 2,000 MHz instead of info.json's 1,000). An entry count above 55 is skipped and
    // counted.
    void aiCoreFrequencyDrivesPmuTimes()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        writeFile(devDir(d) + "/aicore.data.0.slice_0",
                  test::aicoreRecord(10, 3, 1000, {500, 250, 125, 100, 50, 10, 400, 100}));
        QByteArray blocks(40, '\0'); // ts_track block num: (3, 10) ran 32 blocks
        test::putLe(blocks, 1, 15, 1);
        test::putLe(blocks, 8, 1040000, 8);
        test::putLe(blocks, 16, 3, 2);
        test::putLe(blocks, 18, 10, 2);
        test::putLe(blocks, 20, 32, 4);
        writeFile(devDir(d) + "/ts_track.data.0.slice_0", blocks);
        QByteArray freq(888, '\0');
        test::putLe(freq, 0, 2, 4);
        test::putLe(freq, 8, 1000000, 8);
        test::putLe(freq, 16, 500, 4);
        test::putLe(freq, 24, 1050050, 8); // changes during the task: its end counts
        test::putLe(freq, 32, 2000, 4);
        QByteArray bad(888, '\0');
        test::putLe(bad, 0, 56, 4);
        writeFile(devDir(d) + "/lpmFreqConv.data.0.slice_0", freq + bad);
        const auto m = load(d.path());
        QVERIFY(m);
        QVERIFY2(
            hasWarning(*m, QStringLiteral("1 AI Core frequency record with an entry count above 55 skipped")),
            qPrintable(warnings(*m)));
        const KernelTable &k = m->kernels();
        QCOMPARE(k.size(), std::size_t(1));
        // 1000 cycles / 2000 MHz × ceil(32 / 8) / 32 = 0.0625 µs.
        QCOMPARE(k.metric(0, std::size_t(k.columnIndex(QStringLiteral("aicore_time(us)")))), 0.0625);
        const CounterSeries *series = nullptr;
        for (const CounterSeries &c : m->counters())
            if (m->strings().qstring(c.name) == QStringLiteral("AI Core Freq"))
                series = &c;
        QVERIFY(series);
        QCOMPARE(series->values, (std::vector<double>{500, 2000}));
        QCOMPARE(m->origin() + series->times[1], at50MHz(1050050));
    }

    void unknownChipIsDecodedByItsFiles()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("42"), QStringLiteral("50"));
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        const auto m = load(d.path());
        QVERIFY(m);
        QVERIFY2(hasWarning(*m, QStringLiteral("unknown chip (platform_version 42); decoded as a HWTS chip")),
                 qPrintable(warnings(*m)));
        QCOMPARE(m->sliceCount(), kHwtsTasks.size());
    }

    void missingInfoJsonKeepsHostData()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("50"), false);
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        writeFile(hostDir(d) + "/AclModule.acl_op.0.slice_0",
                  test::aclModuleRecord(1, 5000040000, 5000090000, 8, 100, "aclmdlExecute"));
        const auto m = load(d.path());
        QVERIFY(m);
        QVERIFY2(hasWarning(*m, QStringLiteral(
                                    "no hwts_frequency (info.json.0 missing or incomplete): 1 slice file")),
                 qPrintable(warnings(*m)));
        QCOMPARE(m->sliceCount(), std::size_t(1));
        QVERIFY(processNamed(*m, QStringLiteral("AscendCL")) >= 0);
    }

    void roundTripThroughExportedJson()
    {
        QTemporaryDir d;
        writeConfig(d, QStringLiteral("1"), QStringLiteral("38.4")); // fractional ns, rounded once
        writeFile(devDir(d) + "/hwts.data.0.slice_0", hwtsLog(kHwtsTasks));
        writeFile(hostDir(d) + "/AclModule.acl_op.0.slice_0",
                  test::aclModuleRecord(1, 5000040000, 5000090000, 8, 100, "aclop \"quoted\""));
        // Every decoded layer goes through the round trip: AI CPU, Step Trace, MsprofTx, task_track names.
        writeFile(devDir(d) + "/aicpu.data.0.slice_0", test::aiCpuRecord(4, 1, 1045000, 1046000, 10, 30, 35));
        writeFile(devDir(d) + "/ts_track.data.0.slice_0",
                  test::tsTrackStepRecord(1040000, 1, 5, 60000) + test::tsTrackStepRecord(1052000, 1, 5, 4));
        writeFile(hostDir(d) + "/unaging.additional.msproftx.slice_0",
                  test::msprofTxRecord(9, 2, 5000100000, 5000300000, 42, "forward, \"pass\"") +
                      test::msprofTxRecord(9, 0, 5000150000, 5000150000, 43, "mark"));
        writeFile(hostDir(d) + "/unaging.compact.task_track.slice_0",
                  test::taskTrackRecord(100, 5000980000, 0, 3, 10, 0, 0, 11));
        // The association too: a Node range around the submission names the task and starts a flow.
        writeFile(hostDir(d) + "/unaging.api_event.data.slice_0",
                  test::apiEventRecord(10000, 0, 100, 5000970000, 5000990000, 12) +
                      test::apiEventRecord(5000, 1, 100, 5000975000, 5000985000, 0));
        writeFile(hostDir(d) + "/unaging.additional.hash_dic.slice_0", "11:MatMul_1\n12:MatMul_op\n");
        const auto raw = load(d.path());
        QVERIFY(raw);
        QCOMPARE(raw->flows().size(), std::size_t(1));
        const QString json = d.filePath(QStringLiteral("out.json"));
        QString error;
        QVERIFY2(writeChromeTrace(*raw, json, {}, &error), qPrintable(error));
        const auto back = load(json);
        QVERIFY(back);
        QCOMPARE(back->sliceCount(), raw->sliceCount());
        QCOMPARE(back->processes().size(), raw->processes().size());
        // The HostToDevice flow survives with both ends at the same times.
        QCOMPARE(back->flows().size(), raw->flows().size());
        QCOMPARE(back->strings().qstring(back->flows()[0].category), QStringLiteral("HostToDevice"));
        QCOMPARE(back->origin() + back->flows()[0].fromTime, raw->origin() + raw->flows()[0].fromTime);
        QCOMPARE(back->origin() + back->flows()[0].toTime, raw->origin() + raw->flows()[0].toTime);
        QVERIFY(back->flows()[0].from.thread >= 0 && back->flows()[0].to.thread >= 0);
        for (const char *layer : {"AI CPU", "Step Trace", "MsprofTx", "AscendCL", "Task Scheduler"})
            QVERIFY2(processNamed(*raw, QLatin1String(layer)) >= 0, layer);
        for (std::size_t p = 0; p < raw->processes().size(); ++p) {
            const QString name = raw->strings().qstring(raw->processes()[p].name);
            const int q = processNamed(*back, name);
            QVERIFY2(q >= 0, qPrintable(name));
            for (const int t : raw->processes()[p].threads) {
                const QString threadName =
                    raw->strings().qstring(raw->threads()[static_cast<std::size_t>(t)].name);
                const int u = threadNamed(*back, q, threadName);
                QVERIFY2(u >= 0, qPrintable(threadName));
                const auto a = slicesOf(*raw, t);
                const auto b = slicesOf(*back, u);
                QCOMPARE(b.size(), a.size());
                for (std::size_t i = 0; i < a.size(); ++i) {
                    QCOMPARE(b[i].start, a[i].start);
                    QCOMPARE(b[i].duration, a[i].duration);
                    QCOMPARE(b[i].name, a[i].name);
                }
            }
        }
        // Args survive: the task id of the first Stream 3 task.
        const int ts = processNamed(*back, QStringLiteral("Task Scheduler"));
        const int s3 = threadNamed(*back, ts, QStringLiteral("Stream 3"));
        bool found = false;
        for (const auto &[k, v] : back->sliceArgs(SliceRef{s3, 0}))
            found = found || (k == QStringLiteral("Task Id") && v == QStringLiteral("10"));
        QVERIFY(found);
        // 38.4 MHz: 100 ticks = 2604.1666 ns → 2604 ns.
        QCOMPARE(slicesOf(*back, s3)[0].duration, TimeNs(2604));

        // Perfetto form: numeric ts relative to the first event.
        const QString pf = d.filePath(QStringLiteral("perfetto.json"));
        QVERIFY(writeChromeTrace(*raw, pf, ChromeTraceWriteOptions{true}, &error));
        QFile f(pf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("\"ts\":0.000"));
        QVERIFY(!text.contains("\"ts\":\""));
        const auto perfetto = load(pf);
        QVERIFY(perfetto);
        QCOMPARE(perfetto->sliceCount(), raw->sliceCount());
    }
};

QTEST_GUILESS_MAIN(TestRawFolder)
#include "tst_raw_folder.moc"
