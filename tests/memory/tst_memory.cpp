// Memory (issue 19): MemoryAnalysis on synthetic curves with exact expected values, and the memory CSV
// reader on generated torch_npu and msprof files with the quirks of FORMATS.md §9.5 (TAB-suffixed
// times, empty cells, NPU:<id> and old index devices, KB units, bad rows with warnings naming the line).

#include "MemoryAnalysis.h"
#include "TestSupport.h"
#include "TraceBuilder.h"
#include "memory/MemoryTablesReader.h"

#include <QDir>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace at;

namespace {

MemoryCurve curve(std::vector<TimeNs> times, std::vector<std::int64_t> allocated)
{
    MemoryCurve c;
    c.component = QStringLiteral("PTA+GE");
    c.device = 0;
    c.times = std::move(times);
    c.allocated = std::move(allocated);
    c.reserved.assign(c.times.size(), kNoBytes);
    c.active.assign(c.times.size(), kNoBytes);
    return c;
}

MemoryAllocation allocation(std::int64_t bytes, TimeNs at, TimeNs release)
{
    MemoryAllocation a;
    a.device = 0;
    a.bytes = bytes;
    a.allocation = at;
    a.release = release;
    return a;
}

void writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestMemory : public QObject
{
    Q_OBJECT

private slots:
    void peakIsTheFirstMaximumIgnoringEmptyCells()
    {
        MemoryCurve c = curve({10, 20, 30, 40}, {5, 9, kNoBytes, 9});
        const auto peak = peakOf(c, MemoryMetric::Allocated);
        QVERIFY(peak);
        QCOMPARE(peak->bytes, 9);
        QCOMPARE(peak->time, 20);
        QCOMPARE(peak->index, std::size_t(1));
        QVERIFY(!peakOf(c, MemoryMetric::Reserved));           // only empty cells
        QCOMPARE(*valueAt(c, MemoryMetric::Allocated, 35), 9); // the empty cell at 30 holds nothing
        QCOMPARE(*valueAt(c, MemoryMetric::Allocated, 10), 5);
        QVERIFY(!valueAt(c, MemoryMetric::Allocated, 9));
    }

    void liveAllocationsAreLargestFirstAndExcludeTheReleasedAtT()
    {
        MemoryProfile p;
        p.allocations = {allocation(100, 0, 50),        // released exactly at t: not live
                         allocation(300, 10, kNoTime),  // never released: live
                         allocation(200, 50, 60),       // allocated exactly at t: live
                         allocation(300, 5, 70),        // same size, earlier: first
                         allocation(-64, kNoTime, 20),  // a release-only row: never live
                         allocation(400, 51, kNoTime)}; // after t
        p.allocations.push_back(allocation(500, 0, kNoTime));
        p.allocations.back().device = 1; // another device
        const std::vector<std::size_t> live = liveAllocationsAt(p, 0, 0, 50);
        QCOMPARE(live, (std::vector<std::size_t>{3, 1, 2}));
    }

    void stepPeakAndNetGrowth()
    {
        const MemoryCurve c = curve({0, 10, 20, 30, 40}, {100, 400, 250, 150, 900});
        // [5, 35]: holds 100 at 5, peaks at 400 (t=10), ends at 150: +50.
        const auto s = stepMemory(c, MemoryMetric::Allocated, 5, 35);
        QVERIFY(s);
        QCOMPARE(s->peakBytes, 400);
        QCOMPARE(s->peakTime, 10);
        QCOMPARE(s->growthBytes, 50);
        // [12, 18]: no sample inside, the value holding (400) is the peak, no growth.
        const auto quiet = stepMemory(c, MemoryMetric::Allocated, 12, 18);
        QVERIFY(quiet);
        QCOMPARE(quiet->peakBytes, 400);
        QCOMPARE(quiet->peakTime, 12);
        QCOMPARE(quiet->growthBytes, 0);
        QVERIFY(!stepMemory(c, MemoryMetric::Reserved, 0, 40));
        // [-10, 25]: the records start inside the step, growth from the first value (100 → 250).
        const auto early = stepMemory(c, MemoryMetric::Allocated, -10, 25);
        QVERIFY(early);
        QCOMPARE(early->peakBytes, 400);
        QCOMPARE(early->growthBytes, 150);
    }

    void exactDecimals()
    {
        QCOMPARE(bytesAsMegabytes(1000729600), QStringLiteral("954.3701171875"));
        QCOMPARE(bytesAsMegabytes(1), QStringLiteral("0.00000095367431640625"));
        QCOMPARE(bytesAsMegabytes(-1048576), QStringLiteral("-1"));
        QCOMPARE(bytesAsKilobytes(19268096), QStringLiteral("18816.5"));
        QCOMPARE(nanosAsMicros(1736408883573957920), QStringLiteral("1736408883573957.92"));
        QCOMPARE(nanosAsMicros(-1500), QStringLiteral("-1.5"));
        QCOMPARE(nanosAsMicros(7000), QStringLiteral("7"));
    }

    void scaledBytesAndDevices()
    {
        QCOMPARE(*parseScaledBytes("954.3701171875", 20), 1000729600);
        QCOMPARE(*parseScaledBytes(" 18816.5\t", 10), 19268096);
        QCOMPARE(*parseScaledBytes("-0.5", 10), -512);
        QCOMPARE(*parseScaledBytes("2109", 0), 2109);
        QVERIFY(!parseScaledBytes("", 20));
        QVERIFY(!parseScaledBytes("1.2.3", 20));
        QVERIFY(!parseScaledBytes("12MB", 20));
        QCOMPARE(*parseMemoryDevice("NPU:3"), 3);
        QCOMPARE(*parseMemoryDevice("3"), 3); // old torch_npu operator_memory.csv
        QVERIFY(!parseMemoryDevice("GPU:1"));
        QVERIFY(!parseMemoryDevice("NPU:"));
    }

    void readsTorchNpuCsvsWithTheirQuirks()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(out));
        writeFile(out + QStringLiteral("/trace_view.json"),
                  R"([{"ph":"X","name":"aten::empty","pid":1,"tid":1,"ts":"1000.000","dur":5}])");
        writeFile(out + QStringLiteral("/memory_record.csv"),
                  "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream "
                  "Ptr,Device Type\r\n"
                  "PTA,1002.000\t,1.5,4.0,1.5,7,NPU:0\r\n"
                  "PTA,1001.000\t,2.0,4.0,2.0,7,NPU:0\r\n" // out of order: sorted by time
                  "APP,1001.500\t,,8.25,,,NPU:0\r\n"
                  "PTA,abc\t,3.0,4.0,3.0,7,NPU:0\r\n"      // line 5: bad time, skipped
                  "PTA,1003.000\t,x,4.0,3.0,7,NPU:0\r\n"); // line 6: bad value, skipped
        writeFile(
            out + QStringLiteral("/operator_memory.csv"),
            "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),"
            "Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation "
            "Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total "
            "Active(MB),Stream Ptr,Device Type\r\n"
            "aten::empty,512.0,1001.000\t,1002.000\t,1002.500\t,1.000\t,1.500\t,2.0,4.0,2.0,1.5,4.0,1.5,7,"
            "0\r\n"
            "aten::add,0.5,1001.250\t,,,,,2.0,4.0,2.0,,,,7,NPU:0\r\n"
            ",-64.0,,1001.100\t,,,,,,,1.9,4.0,1.9,7,NPU:0\r\n");
        writeFile(out + QStringLiteral("/npu_module_mem.csv"),
                  "Component,Timestamp(us),Total Reserved(MB),Device\r\n"
                  "HCCL,1001.000\t,-1,NPU:0\r\n"
                  "HCCL,1002.000\t,3.0,NPU:0\r\n");
        const auto model = test::loadOrFail(dir.filePath(QStringLiteral("run_ascend_pt")));
        QVERIFY(model);
        const MemoryProfile &m = model->memory();
        const TimeNs o = model->origin();
        QCOMPARE(o, 1000000); // the trace's first slice
        QCOMPARE(m.curves.size(), std::size_t(3));
        const MemoryCurve &pta = m.curves[0];
        QCOMPARE(pta.component, QStringLiteral("PTA"));
        QCOMPARE(pta.device, 0);
        QCOMPARE(pta.times, (std::vector<TimeNs>{1000, 2000}));
        QCOMPARE(pta.allocated, (std::vector<std::int64_t>{2 << 20, 3 << 19}));
        const MemoryCurve &app = m.curves[1];
        QCOMPARE(app.component, QStringLiteral("APP"));
        QCOMPARE(app.allocated, std::vector<std::int64_t>{kNoBytes});
        QCOMPARE(app.reserved, std::vector<std::int64_t>{8650752});
        const MemoryCurve &hccl = m.curves[2];
        QCOMPARE(hccl.kind, MemoryCurveKind::Module);
        QCOMPARE(hccl.reserved, (std::vector<std::int64_t>{kNoBytes, 3 << 20})); // -1: only releases seen
        QCOMPARE(m.allocations.size(), std::size_t(3));
        const MemoryAllocation &empty = m.allocations[0];
        QCOMPARE(model->strings().qstring(empty.name), QStringLiteral("aten::empty"));
        QCOMPARE(empty.device, 0); // the old index form
        QCOMPARE(empty.bytes, 512 * 1024);
        QCOMPARE(empty.allocation, 1000);
        QCOMPARE(empty.release, 2000);
        QCOMPARE(empty.activeRelease, 2500);
        QCOMPARE(empty.duration(), 1000);
        QCOMPARE(empty.activeDuration(), 1500);
        QCOMPARE(empty.releaseAllocated, 3 << 19);
        QVERIFY(!m.allocations[1].released());
        QCOMPARE(m.allocations[1].releaseAllocated, kNoBytes);
        QCOMPARE(m.allocations[2].bytes, -65536);
        QCOMPARE(m.allocations[2].allocation, kNoTime);
        // Live at PTA's peak (2 MB at 1001 µs): aten::empty (512 KB); aten::add comes at 1001.25.
        const std::vector<DeviceMemory> devices = deviceMemory(m);
        QCOMPARE(devices.size(), std::size_t(1));
        QCOMPARE(devices[0].overall, 0);
        QCOMPARE(devices[0].overallPeak->time, 1000);
        QCOMPARE(devices[0].liveAtPeak, std::vector<std::size_t>{0});
        // Warnings name the file and the line.
        const QString warnings = model->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("memory_record.csv line 5: Timestamp(us) \"abc\"")),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("memory_record.csv line 6: Total Allocated \"x\"")),
                 qPrintable(warnings));
        // Counter lanes: PTA allocated/reserved/active, APP reserved, the HCCL module.
        QStringList lanes;
        for (std::size_t c = 0; c < model->counters().size(); ++c)
            lanes << model->processDisplayName(model->counters()[c].process) + QStringLiteral(": ") +
                         model->counterDisplayName(static_cast<int>(c));
        QVERIFY2(lanes.contains(QStringLiteral("Memory (NPU 0): PTA [Allocated(MB)]")),
                 qPrintable(lanes.join(", ")));
        QVERIFY(lanes.contains(QStringLiteral("Memory (NPU 0): APP [Reserved(MB)]")));
        QVERIFY(!lanes.contains(QStringLiteral("Memory (NPU 0): APP [Allocated(MB)]")));
        QVERIFY(lanes.contains(QStringLiteral("Memory modules (NPU 0): HCCL [Reserved(MB)]")));
    }

    void readsMsprofKilobyteFiles()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(out));
        writeFile(out + QStringLiteral("/trace_view.json"),
                  R"([{"ph":"X","name":"op","pid":1,"tid":1,"ts":"1000.000","dur":5}])");
        writeFile(out + QStringLiteral("/memory_record.csv"),
                  "Device_id,Component,Timestamp(us),Total Allocated(KB),Total Reserved(KB),Device\n"
                  "2,GE,1001.000,1536,2048,NPU:2\n");
        writeFile(
            out + QStringLiteral("/operator_memory.csv"),
            "Device_id,Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(KB),"
            "Allocation Total Reserved(KB),Release Total Allocated(KB),Release Total Reserved(KB),Device\n"
            "2,cann::Add,4.5,1001.000,2.500,1536,2048,1531.5,2048,NPU:2\n");
        const auto model = test::loadOrFail(dir.filePath(QStringLiteral("run_ascend_pt")));
        QVERIFY(model);
        const MemoryProfile &m = model->memory();
        QCOMPARE(m.curves.size(), std::size_t(1));
        QCOMPARE(m.curves[0].device, 2);
        QCOMPARE(m.curves[0].allocated, std::vector<std::int64_t>{1536 * 1024});
        QCOMPARE(m.curves[0].reserved, std::vector<std::int64_t>{2048 * 1024});
        QCOMPARE(m.curves[0].active, std::vector<std::int64_t>{kNoBytes});
        QCOMPARE(m.allocations.size(), std::size_t(1));
        QCOMPARE(m.allocations[0].bytes, 4608);
        QCOMPARE(m.allocations[0].release, 3500); // allocation + Duration: msprof has no release column
        QCOMPARE(m.allocations[0].releaseAllocated, 1568256);
    }

    // Issue 19: static_op_mem (static graph, node-index time; no sample has one, so a file with the
    // documented header): kept as a table, summarised per graph with the peak over node indices.
    void staticGraphMemoryFromTheDocumentedHeader()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(out));
        writeFile(out + QStringLiteral("/trace_view.json"),
                  R"([{"ph":"X","name":"op","pid":1,"tid":1,"ts":"1000.000","dur":5}])");
        writeFile(out + QStringLiteral("/static_op_mem_20240101000000.csv"),
                  "Device_id,Op Name,Model Name,Graph ID,Node Index Start,Node Index End,Size(KB)\n"
                  "0,Conv,0,1,0,3,1024\n"
                  "0,Relu,0,1,2,5,512.5\n"
                  "0,Add,0,1,4,4294967295,256\n" // until the graph's last node index (5)
                  "0,MatMul,0,2,0,1,2048\n"
                  "0,TOTAL,,,,,3840.5\n");
        const auto model = test::loadOrFail(dir.filePath(QStringLiteral("run_ascend_pt")));
        QVERIFY(model);
        const auto table =
            std::find_if(model->summaryTables().begin(), model->summaryTables().end(),
                         [](const SummaryTable &t) { return t.type == QLatin1String("static_op_mem"); });
        QVERIFY(table != model->summaryTables().end());
        QCOMPARE(table->rowCount(), std::size_t(5));
        const std::vector<StaticGraphMemory> graphs = staticGraphMemory(*model);
        QCOMPARE(graphs.size(), std::size_t(2));
        // Graph 1, held per node: 0-1 1024 KB, 2-3 1536.5 KB (Conv + Relu), 4-5 768.5 KB (Relu + Add).
        QCOMPARE(graphs[0].graph, QStringLiteral("1"));
        QCOMPARE(graphs[0].device, 0);
        QCOMPARE(graphs[0].ops, std::size_t(3));
        QCOMPARE(graphs[0].peakBytes, std::int64_t(1536.5 * 1024));
        QCOMPARE(graphs[0].peakNode, 2);
        QCOMPARE(graphs[0].totalBytes, std::int64_t(3840.5 * 1024));
        QCOMPARE(graphs[1].graph, QStringLiteral("2"));
        QCOMPARE(graphs[1].peakBytes, 2048 * 1024);
        QCOMPARE(graphs[1].peakNode, 0);
        QVERIFY(model->memory().isEmpty()); // no curves: node indices are not times
    }

    // Issue 19: memory_record.csv is streamed in chunks of whole records: small chunks give the same
    // profile and the same warnings (file line numbers) as one chunk; a set stop flag ends reading after
    // the chunk in hand, keeping its rows, with a warning naming the file, the rows and the line.
    void streamsInChunksAndStopsAtTheFlag()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("memory_record.csv"));
        QByteArray text =
            "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream "
            "Ptr,Device Type\r\n";
        constexpr int kRows = 3000, kBadLine = 1502; // physical line of a bad value (header = line 1)
        for (int i = 0; i < kRows; ++i) {
            const QByteArray value =
                i + 2 == kBadLine ? QByteArray("bad") : QByteArray::number(i * 0.5, 'f', 1);
            text += "\"PTA+GE\"," + QByteArray::number(1000 + i) + (i % 2 ? ".250" : ".000") + "\t," + value +
                    ",4096.0," + value + ",7,NPU:0\r\n";
        }
        writeFile(path, text);
        DataSource source;
        source.summaryFiles[QStringLiteral("memory_record")] = QStringList{path};
        const auto read = [&](MemoryStreamOptions options) {
            TraceBuilder builder;
            readMemoryTables(source, 0, builder, options);
            return builder.build();
        };
        const auto whole = read({});
        const auto chunked = read({nullptr, 1000}); // about 25 rows a chunk
        for (const auto *model : {whole.get(), chunked.get()}) {
            QCOMPARE(model->memory().curves.size(), std::size_t(1));
            const MemoryCurve &c = model->memory().curves.front();
            QCOMPARE(c.times.size(), std::size_t(kRows - 1));
            QCOMPARE(model->origin() + c.times.back(), TimeNs(1000 + kRows - 1) * 1000 + 250);
            QCOMPARE(c.allocated.back(), std::int64_t(kRows - 1) << 19);
            const QString warnings = model->warnings().join(QLatin1Char('\n'));
            QVERIFY2(warnings.contains(
                         QStringLiteral("memory_record.csv line %1: Total Allocated \"bad\"").arg(kBadLine)),
                     qPrintable(warnings));
        }
        QCOMPARE(chunked->memory().curves.front().times, whole->memory().curves.front().times);
        QCOMPARE(chunked->memory().curves.front().allocated, whole->memory().curves.front().allocated);

        // Stopped: the first chunk ends at the first line end at or after byte 1000.
        const std::atomic<bool> stop{true};
        const auto stopped = read({&stop, 1000});
        const qsizetype cut = text.indexOf('\n', 1000) + 1;
        const int kept = static_cast<int>(text.left(cut).count('\n')) - 1;
        QVERIFY(kept > 10 && kept < 100);
        QCOMPARE(stopped->memory().curves.front().times.size(), std::size_t(kept));
        const QString warnings = stopped->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(
                     QStringLiteral("memory_record.csv: reading stopped after %1 rows (line %2); the "
                                    "rows before are kept")
                         .arg(kept)
                         .arg(kept + 1)),
                 qPrintable(warnings));
    }
};

QTEST_GUILESS_MAIN(TestMemory)
#include "tst_memory.moc"
