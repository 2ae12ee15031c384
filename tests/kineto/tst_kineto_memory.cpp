// `[memory]` events of PyTorch (Kineto) traces (issue 30 item 1, parser/kineto/KinetoMemory): per CUDA
// device a "CUDA" curve of Total Allocated / Total Reserved, allocations paired with their release by
// address and size and named after the innermost enclosing cpu_op, the peak and what is live at it.
// Expectations are computed here from the JSON text of df_index_resolver.json.gz (QJsonDocument); the
// profile also goes through --memory and the real MainWindow's Memory dock.

#include "AppProcess.h"
#include "AppTestSupport.h"
#include "KinetoSampleJson.h"
#include "MemoryAnalysis.h"
#include "MemoryLanes.h"
#include "MemoryPanel.h"
#include "kineto/KinetoMemory.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>
#include <map>

using namespace at;

namespace {

const QString kDf = QStringLiteral("df_index_resolver.json.gz");

struct JsonAllocatorEvent
{
    qint64 tid = 0;
    qint64 ts = 0; // ns (integer µs in this sample: exact)
    qint64 deviceType = 0, deviceId = 0, address = 0, bytes = 0, allocated = 0, reserved = 0;
};

struct JsonOp
{
    qint64 tid = 0;
    qint64 start = 0, end = 0;
    QString name;
};

qint64 integerArg(const QJsonObject &args, const char *key)
{
    return args.value(QLatin1String(key)).toInteger();
}

} // namespace

class TestKinetoMemory : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings;
    std::vector<JsonAllocatorEvent> m_events; // CUDA and CPU, in time order
    std::vector<JsonOp> m_ops;
    std::unique_ptr<TraceModel> m_model;

    std::vector<JsonAllocatorEvent> deviceEvents() const
    {
        std::vector<JsonAllocatorEvent> device;
        std::copy_if(m_events.begin(), m_events.end(), std::back_inserter(device),
                     [](const JsonAllocatorEvent &e) { return e.deviceType == kineto::kCudaDeviceType; });
        return device;
    }

private slots:
    void initTestCase()
    {
        test::useScratchSettings(m_settings.path());
        const QJsonObject root = test::kinetoSampleJson(test::kinetoSample(kDf));
        QVERIFY(!root.isEmpty());
        for (const QJsonValue &value : root.value(QStringLiteral("traceEvents")).toArray()) {
            const QJsonObject e = value.toObject();
            const QJsonObject args = e.value(QStringLiteral("args")).toObject();
            if (e.value(QStringLiteral("name")).toString() == QLatin1String("[memory]")) {
                m_events.push_back({e.value(QStringLiteral("tid")).toInteger(),
                                    test::microsToNs(e.value(QStringLiteral("ts"))),
                                    integerArg(args, "Device Type"), integerArg(args, "Device Id"),
                                    integerArg(args, "Addr"), integerArg(args, "Bytes"),
                                    integerArg(args, "Total Allocated"), integerArg(args, "Total Reserved")});
            } else if (e.value(QStringLiteral("cat")).toString() == QLatin1String("cpu_op") &&
                       e.value(QStringLiteral("ph")).toString() == QLatin1String("X")) {
                const qint64 start = test::microsToNs(e.value(QStringLiteral("ts")));
                m_ops.push_back({e.value(QStringLiteral("tid")).toInteger(), start,
                                 start + test::microsToNs(e.value(QStringLiteral("dur"))),
                                 e.value(QStringLiteral("name")).toString()});
            }
        }
        std::stable_sort(
            m_events.begin(), m_events.end(),
            [](const JsonAllocatorEvent &a, const JsonAllocatorEvent &b) { return a.ts < b.ts; });
        QVERIFY(!m_events.empty());
        m_model = test::loadOrFail(test::kinetoSample(kDf));
        QVERIFY(m_model);
    }

    // One CUDA curve per device with one sample per event; its peaks are the largest totals of the text.
    void curvesAndPeaksPerDevice()
    {
        const MemoryProfile &profile = m_model->memory();
        std::map<qint64, std::pair<qint64, qint64>> peaks; // device -> (max allocated, max reserved)
        std::map<qint64, std::size_t> samples;
        for (const JsonAllocatorEvent &e : deviceEvents()) {
            auto &p = peaks[e.deviceId];
            p.first = std::max(p.first, e.allocated);
            p.second = std::max(p.second, e.reserved);
            ++samples[e.deviceId];
        }
        QVERIFY(!peaks.empty());
        QCOMPARE(profile.curves.size(), peaks.size());
        const std::vector<DeviceMemory> devices = deviceMemory(profile);
        QCOMPARE(devices.size(), peaks.size());
        for (const DeviceMemory &d : devices) {
            QVERIFY(peaks.count(d.device));
            QVERIFY(d.overall >= 0);
            const MemoryCurve &curve = profile.curves[static_cast<std::size_t>(d.overall)];
            QCOMPARE(curve.component, kineto::cudaMemoryComponent());
            QCOMPARE(curve.times.size(), samples[d.device]);
            QVERIFY(std::is_sorted(curve.times.begin(), curve.times.end()));
            QCOMPARE(peakOf(curve, MemoryMetric::Allocated)->bytes, peaks[d.device].first);
            QCOMPARE(peakOf(curve, MemoryMetric::Reserved)->bytes, peaks[d.device].second);
            QVERIFY(!curve.hasValues(MemoryMetric::Active));
            // The peak's time: the first event that reaches the maximum.
            const auto events = deviceEvents();
            const auto first = std::find_if(events.begin(), events.end(), [&](const JsonAllocatorEvent &e) {
                return e.deviceId == d.device && e.allocated == peaks[d.device].first;
            });
            QCOMPARE(d.overallPeak->time + m_model->origin(), first->ts);
            // The counter lanes: "Memory (GPU n)", an Allocated and a Reserved series of every sample.
            const int lanes = memoryLaneProcess(*m_model, d.group, d.device);
            QVERIFY(lanes >= 0);
            QCOMPARE(m_model->strings().qstring(m_model->processes()[static_cast<std::size_t>(lanes)].name),
                     QStringLiteral("Memory (GPU %1)").arg(d.device));
            std::size_t series = 0;
            for (const CounterSeries &c : m_model->counters())
                if (c.process == lanes) {
                    ++series;
                    QCOMPARE(c.times.size(), samples[d.device]);
                }
            QCOMPARE(series, std::size_t(2));
        }
        // CPU allocator events (Device Type 0) are left out: no curve without a device.
        QVERIFY(std::any_of(m_events.begin(), m_events.end(),
                            [](const JsonAllocatorEvent &e) { return e.deviceType == 0; }));
        for (const MemoryCurve &c : profile.curves)
            QVERIFY(c.device >= 0);
    }

    // Allocations paired with the release of the same address and size, the rest never released or
    // releases only; live at the peak sums, with what was allocated before the trace, to the peak.
    void allocationsPairedByAddressAndSize()
    {
        std::size_t allocations = 0, pairs = 0, releasesOnly = 0;
        std::map<std::pair<qint64, qint64>, qint64> open; // (device, address) -> bytes
        for (const JsonAllocatorEvent &e : deviceEvents()) {
            const std::pair<qint64, qint64> key{e.deviceId, e.address};
            if (e.bytes > 0) {
                ++allocations;
                open[key] = e.bytes;
            } else if (e.bytes < 0) {
                const auto it = open.find(key);
                if (it != open.end() && it->second == -e.bytes) {
                    ++pairs;
                    open.erase(it);
                } else {
                    ++releasesOnly;
                }
            }
        }
        const MemoryProfile &profile = m_model->memory();
        std::size_t modelAllocations = 0, modelPairs = 0, modelReleasesOnly = 0;
        for (const MemoryAllocation &a : profile.allocations) {
            modelAllocations += a.allocation != kNoTime ? 1 : 0;
            modelPairs += a.allocation != kNoTime && a.released() ? 1 : 0;
            modelReleasesOnly += a.allocation == kNoTime ? 1 : 0;
            if (a.allocation != kNoTime && a.released())
                QVERIFY(a.duration() >= 0);
        }
        QCOMPARE(modelAllocations, allocations);
        QCOMPARE(modelPairs, pairs);
        QCOMPARE(modelReleasesOnly, releasesOnly);
        QVERIFY(pairs > 0);

        // Total Allocated counts every live block: at the peak, the blocks live (allocated inside the
        // trace) plus what was held before the first event (its total less its own bytes, no earlier
        // block being released in this sample) make the peak.
        const std::vector<JsonAllocatorEvent> events = deviceEvents();
        const qint64 before = events.front().allocated - events.front().bytes;
        const DeviceMemory d = deviceMemory(profile).front();
        qint64 live = 0;
        for (std::size_t i : d.liveAtPeak)
            live += profile.allocations[i].bytes;
        QCOMPARE(releasesOnly, std::size_t(0));
        QCOMPARE(before + live, d.overallPeak->bytes);
    }

    // Each allocation is named after the innermost cpu_op of its thread holding its time (a plain scan
    // here over every operator, against the reader's sweep).
    void allocationsNamedAfterTheEnclosingOperator()
    {
        std::vector<const JsonAllocatorEvent *> allocations;
        for (const JsonAllocatorEvent &e : m_events)
            if (e.deviceType == kineto::kCudaDeviceType && e.bytes > 0)
                allocations.push_back(&e);
        std::vector<const MemoryAllocation *> modelAllocations;
        for (const MemoryAllocation &a : m_model->memory().allocations)
            if (a.allocation != kNoTime)
                modelAllocations.push_back(&a);
        QCOMPARE(modelAllocations.size(), allocations.size());
        std::size_t named = 0;
        const std::size_t step = std::max<std::size_t>(1, allocations.size() / 400);
        for (std::size_t i = 0; i < allocations.size(); i += step) {
            const JsonAllocatorEvent &e = *allocations[i];
            const JsonOp *innermost = nullptr;
            for (const JsonOp &op : m_ops)
                if (op.tid == e.tid && op.start <= e.ts && e.ts <= op.end &&
                    (!innermost || op.start > innermost->start ||
                     (op.start == innermost->start && op.end < innermost->end)))
                    innermost = &op;
            const MemoryAllocation &a = *modelAllocations[i];
            QCOMPARE(a.allocation + m_model->origin(), e.ts);
            QCOMPARE(a.bytes, e.bytes);
            QCOMPARE(m_model->strings().qstring(a.name), innermost ? innermost->name : QString());
            named += innermost ? 1 : 0;
        }
        QVERIFY(named > 0);
    }

    // A small trace: an allocation inside a nested operator whose name has an escaped quote, its release, a
    // release without allocation, a CPU event (left out) and a [memory] event missing its totals (warned).
    void pairsReleasesOnlyAndUnreadableEvents()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("memory.pt.trace.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 9, "tid": 9, "ts": 990, "dur": 20, "args": {}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::inner \u0022q\u0022", "pid": 9, "tid": 9, "ts": 995, "dur": 2, "args": {}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 996,
   "args": {"Device Type": 1, "Device Id": 0, "Addr": 100, "Bytes": 512, "Total Allocated": 512, "Total Reserved": 2048}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 1005,
   "args": {"Device Type": 1, "Device Id": 0, "Addr": 100, "Bytes": -512, "Total Allocated": 0, "Total Reserved": 2048}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 1006,
   "args": {"Device Type": 1, "Device Id": 0, "Addr": 200, "Bytes": -64, "Total Allocated": 0, "Total Reserved": 1024}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 1007,
   "args": {"Device Type": 0, "Device Id": -1, "Addr": 300, "Bytes": 8, "Total Allocated": 8, "Total Reserved": 0}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 1008,
   "args": {"Device Type": 1}}
]})");
        file.close();
        const auto m = test::loadOrFail(path);
        QVERIFY(m);
        const MemoryProfile &profile = m->memory();
        QCOMPARE(profile.curves.size(), std::size_t(1));
        QCOMPARE(profile.curves.front().device, std::int64_t(0));
        QCOMPARE(profile.curves.front().times.size(), std::size_t(3));
        QCOMPARE(profile.allocations.size(), std::size_t(2));
        const MemoryAllocation &paired = profile.allocations[0];
        QCOMPARE(m->strings().qstring(paired.name), QStringLiteral("aten::inner \"q\""));
        QCOMPARE(paired.bytes, std::int64_t(512));
        QCOMPARE(paired.duration(), TimeNs(9000));
        const MemoryAllocation &releaseOnly = profile.allocations[1];
        QCOMPARE(releaseOnly.bytes, std::int64_t(-64));
        QCOMPARE(releaseOnly.allocation, kNoTime);
        const DeviceMemory d = deviceMemory(profile).front();
        QCOMPARE(d.overallPeak->bytes, std::int64_t(512));
        QCOMPARE(d.liveAtPeak.size(), std::size_t(1));
        const QStringList warnings = m->warnings();
        QVERIFY2(std::any_of(warnings.begin(), warnings.end(),
                             [&](const QString &w) {
                                 return w.startsWith(path) && w.contains(QStringLiteral("[memory]"));
                             }),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
    }

    void memoryCommandPrintsThePeaks()
    {
        const at_test::AppRun run =
            at_test::runApp({QStringLiteral("--memory"), test::kinetoSample(kDf)}, 300000);
        QCOMPARE(run.exitCode, 0);
        const DeviceMemory d = deviceMemory(m_model->memory()).front();
        const MemoryCurve &curve = m_model->memory().curves[static_cast<std::size_t>(d.overall)];
        const QString line = QStringLiteral("CUDA: peak reserved %1 MB, peak allocated %2 MB")
                                 .arg(bytesAsMegabytes(peakOf(curve, MemoryMetric::Reserved)->bytes),
                                      bytesAsMegabytes(d.overallPeak->bytes));
        QVERIFY2(run.out.contains(line.toUtf8()), run.out.left(2000).constData());
        QVERIFY(run.out.contains(QStringLiteral("%1 allocations").arg(d.liveAtPeak.size()).toUtf8()));
    }

    void noMemoryEventsNoProfile()
    {
        const auto nccl = test::loadOrFail(test::kinetoSample(QStringLiteral("nccl_data.json.gz")));
        QVERIFY(nccl);
        QVERIFY(nccl->memory().isEmpty());
    }

    // The Memory dock: the device's curves with their peaks and the live allocations at the peak.
    void memoryDockThroughTheWindow()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(test::openAndWait(window, test::kinetoSample(kDf)));
        auto *panel = window.findChild<MemoryPanel *>();
        QVERIFY(panel);
        QStringList names;
        for (QAbstractSeries *s : panel->chartView()->chart()->series())
            if (auto *line = qobject_cast<QLineSeries *>(s)) {
                QVERIFY(line->count() > 0);
                names << line->name();
            }
        QVERIFY2(names.contains(QStringLiteral("CUDA allocated")),
                 qPrintable(names.join(QStringLiteral(", "))));
        QVERIFY(names.contains(QStringLiteral("CUDA reserved")));
        const DeviceMemory d = deviceMemory(window.model()->memory()).front();
        QVERIFY(d.overallPeak);
        QCOMPARE(panel->liveList()->topLevelItemCount(), static_cast<int>(d.liveAtPeak.size()));
        QCOMPARE(panel->deviceBox()->count(), 1);
        // A click on the largest live allocation selects its operator's slice on the timeline.
        const MemoryAllocation &largest = window.model()->memory().allocations[d.liveAtPeak.front()];
        const SliceRef host = hostSliceOf(*window.model(), largest);
        QVERIFY(host.isValid());
        QCOMPARE(window.model()->sliceName(host), window.model()->strings().qstring(largest.name));
    }
};

QTEST_MAIN(TestKinetoMemory)
#include "tst_kineto_memory.moc"
