// GPU kernel rows of PyTorch (Kineto) traces (issue 30 item 1, parser/kineto/KinetoKernelRows): one
// Kernels row per `kernel` slice with its launch figures as metric columns, joined to its slice. Every
// expectation is computed here from the JSON text (QJsonDocument, independent of the reader's simdjson
// pass) of the two real samples; the rows also go through --metrics, a snapshot reopen and the real
// MainWindow (Kernels dock, row click, metric charts).

#include "AppProcess.h"
#include "AppTestSupport.h"
#include "ChartsPanel.h"
#include "KernelQueries.h"
#include "KernelTablePanel.h"
#include "KinetoSampleJson.h"
#include "ModelComparison.h"
#include "TimelineView.h"
#include "common/MappedFile.h"
#include "kineto/KinetoGpuEvents.h"
#include "kineto/KinetoKernelRows.h"
#include "json/JsonEventScanner.h"

#include <QChart>
#include <QElapsedTimer>
#include <QFile>
#include <QScatterSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>

using namespace at;

namespace {

const QString kDf = QStringLiteral("df_index_resolver.json.gz");
const QString kNccl = QStringLiteral("nccl_data.json.gz");

// The kernel events the table must list: `kernel` slices whose args carry grid / block (§10.5).
std::vector<QJsonObject> launchedKernels(const QJsonObject &root)
{
    std::vector<QJsonObject> kernels;
    for (const QJsonObject &e : test::kinetoEvents(root, QStringLiteral("kernel"), QStringLiteral("X"))) {
        const QJsonObject args = e.value(QStringLiteral("args")).toObject();
        if (args.contains(QStringLiteral("grid")) || args.contains(QStringLiteral("block")))
            kernels.push_back(e);
    }
    return kernels;
}

using StreamKey = std::pair<qint64, qint64>; // (device, stream)

struct StreamTotals
{
    std::size_t count = 0;
    qint64 durationNs = 0;
};

int column(const TraceModel &model, const QString &header)
{
    return model.kernels().columnIndex(header);
}

double metricOf(const TraceModel &model, std::size_t row, const QString &header)
{
    const int c = column(model, header);
    return c < 0 ? std::nan("") : model.kernels().metric(row, static_cast<std::size_t>(c));
}

qint64 product(const QJsonArray &dims)
{
    qint64 p = 1;
    for (const QJsonValue &v : dims)
        p *= v.toInteger();
    return p;
}

} // namespace

class TestKinetoKernels : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings;
    std::map<QString, QJsonObject> m_json;
    std::map<QString, std::unique_ptr<TraceModel>> m_models;

    const QJsonObject &json(const QString &sample)
    {
        auto it = m_json.find(sample);
        if (it == m_json.end())
            it = m_json.emplace(sample, test::kinetoSampleJson(test::kinetoSample(sample))).first;
        return it->second;
    }
    const TraceModel *model(const QString &sample)
    {
        auto it = m_models.find(sample);
        if (it == m_models.end())
            it = m_models.emplace(sample, test::loadOrFail(test::kinetoSample(sample))).first;
        return it->second.get();
    }

private slots:
    void initTestCase() { test::useScratchSettings(m_settings.path()); }

    void oneRowPerKernelWithCountAndTimePerStream_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::newRow("df_index_resolver") << kDf;
        QTest::newRow("nccl_data") << kNccl;
    }
    void oneRowPerKernelWithCountAndTimePerStream()
    {
        QFETCH(QString, sample);
        const QJsonObject &root = json(sample);
        const TraceModel *m = model(sample);
        QVERIFY(m && !root.isEmpty());
        std::map<StreamKey, StreamTotals> expected, actual;
        const std::vector<QJsonObject> kernels = launchedKernels(root);
        QVERIFY(!kernels.empty());
        for (const QJsonObject &e : kernels) {
            const QJsonObject args = e.value(QStringLiteral("args")).toObject();
            StreamTotals &t = expected[{args.value(QStringLiteral("device")).toInteger(),
                                        args.value(QStringLiteral("stream")).toInteger()}];
            ++t.count;
            t.durationNs += test::microsToNs(e.value(QStringLiteral("dur")));
        }
        const KernelTable &table = m->kernels();
        QCOMPARE(table.size(), kernels.size());
        for (std::size_t r = 0; r < table.size(); ++r) {
            const KernelRecord &k = table.rows()[r];
            StreamTotals &t = actual[{qint64(metricOf(*m, r, QStringLiteral("device"))), k.streamId}];
            ++t.count;
            t.durationNs += k.duration;
        }
        QCOMPARE(actual.size(), expected.size());
        for (const auto &[key, totals] : expected) {
            const auto it = actual.find(key);
            QVERIFY2(it != actual.end(), qPrintable(QStringLiteral("stream %1").arg(key.second)));
            QCOMPARE(it->second.count, totals.count);
            QCOMPARE(it->second.durationNs, totals.durationNs);
        }
        QCOMPARE(table.metricGroupOf(0), QStringLiteral("CUDA launch"));
    }

    // Launch figures of kernels picked by correlation (first, middle, last, and the first NCCL kernel).
    void launchFiguresOfKernelsPickedByCorrelation_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::newRow("df_index_resolver") << kDf;
        QTest::newRow("nccl_data") << kNccl;
    }
    void launchFiguresOfKernelsPickedByCorrelation()
    {
        QFETCH(QString, sample);
        const TraceModel *m = model(sample);
        QVERIFY(m);
        const std::vector<QJsonObject> kernels = launchedKernels(json(sample));
        std::vector<QJsonObject> picked{kernels.front(), kernels[kernels.size() / 2], kernels.back()};
        for (const QJsonObject &e : kernels)
            if (e.value(QStringLiteral("name")).toString().startsWith(QStringLiteral("nccl"))) {
                picked.push_back(e);
                break;
            }
        std::map<qint64, std::size_t> rowOfCorrelation;
        for (std::size_t r = 0; r < m->kernels().size(); ++r)
            rowOfCorrelation[qint64(metricOf(*m, r, QStringLiteral("correlation")))] = r;
        for (const QJsonObject &e : picked) {
            const QJsonObject args = e.value(QStringLiteral("args")).toObject();
            const qint64 correlation = args.value(QStringLiteral("correlation")).toInteger();
            const auto it = rowOfCorrelation.find(correlation);
            QVERIFY2(it != rowOfCorrelation.end(), qPrintable(QString::number(correlation)));
            const std::size_t r = it->second;
            const KernelRecord &k = m->kernels().rows()[r];
            QCOMPARE(m->strings().qstring(k.name), e.value(QStringLiteral("name")).toString());
            QCOMPARE(k.duration, test::microsToNs(e.value(QStringLiteral("dur"))));
            auto expectNumber = [&](const QString &header, const QString &key) {
                QCOMPARE(metricOf(*m, r, header), args.value(key).toDouble());
            };
            expectNumber(QStringLiteral("registers per thread"), QStringLiteral("registers per thread"));
            expectNumber(QStringLiteral("shared memory(B)"), QStringLiteral("shared memory"));
            expectNumber(QStringLiteral("blocks per SM"), QStringLiteral("blocks per SM"));
            expectNumber(QStringLiteral("warps per SM"), QStringLiteral("warps per SM"));
            expectNumber(QStringLiteral("est. achieved occupancy(%)"),
                         QStringLiteral("est. achieved occupancy %"));
            QCOMPARE(metricOf(*m, r, QStringLiteral("grid size")),
                     double(product(args.value(QStringLiteral("grid")).toArray())));
            QCOMPARE(metricOf(*m, r, QStringLiteral("block size")),
                     double(product(args.value(QStringLiteral("block")).toArray())));
            QCOMPARE(k.streamId, args.value(QStringLiteral("stream")).toInteger());
        }
        // Shared memory is in bytes: the column says so, and the table shows it as a byte quantity.
        const auto &columns = m->kernels().columns();
        QCOMPARE(columns[static_cast<std::size_t>(column(*m, QStringLiteral("shared memory(B)")))].unit,
                 QStringLiteral("B"));
    }

    // HTA's kernel types (FORMATS.md §10.11): the NCCL kernels are COMMUNICATION, the others COMPUTATION
    // unless their name says otherwise.
    void kernelTypesFollowHta()
    {
        QCOMPARE(kineto::kernelTypeOf("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"),
                 std::string_view("COMMUNICATION"));
        QCOMPARE(kineto::kernelTypeOf("Memcpy DtoD (Device -> Device)"), std::string_view("MEMORY"));
        QCOMPARE(kineto::kernelTypeOf("Stream Sync"), std::string_view("OTHER"));
        QCOMPARE(kineto::kernelTypeOf("void at::native::vectorized_elementwise_kernel<4>(int)"),
                 std::string_view("COMPUTATION"));
        const TraceModel *m = model(kDf);
        QVERIFY(m);
        std::map<QString, std::size_t> expected, actual;
        for (const QJsonObject &e : launchedKernels(json(kDf))) {
            const QString name = e.value(QStringLiteral("name")).toString();
            const bool communication =
                name.startsWith(QStringLiteral("nccl")) || name.contains(QStringLiteral("ncclKernel"));
            const bool other =
                name.contains(QStringLiteral("Sync")) || name.contains(QStringLiteral("dma")) ||
                name.contains(QStringLiteral("Memcpy")) || name.contains(QStringLiteral("Memset"));
            ++expected[communication ? QStringLiteral("COMMUNICATION")
                       : other       ? QStringLiteral("OTHER")
                                     : QStringLiteral("COMPUTATION")];
        }
        for (const KernelRecord &k : m->kernels().rows())
            ++actual[m->strings().qstring(k.type)];
        QCOMPARE(actual, expected);
        QVERIFY(expected[QStringLiteral("COMMUNICATION")] > 0);
    }

    // Each row is joined to the very slice of its event: same lane (device, stream), start, duration and
    // name; the slice finds the row back.
    void rowsAreJoinedToTheirSlices()
    {
        const TraceModel *m = model(kDf);
        QVERIFY(m);
        const KernelTable &table = m->kernels();
        QCOMPARE(table.unjoinedCount(), std::size_t(0));
        std::map<qint64, std::size_t> startsSeen;
        for (const QJsonObject &e : launchedKernels(json(kDf)))
            ++startsSeen[test::microsToNs(e.value(QStringLiteral("ts")))]; // integer µs: exact
        for (std::size_t r = 0; r < table.size(); ++r) {
            const KernelRecord &k = table.rows()[r];
            const ThreadInfo &thread = m->threads()[static_cast<std::size_t>(k.thread)];
            const ProcessInfo &process = m->processes()[static_cast<std::size_t>(thread.process)];
            QCOMPARE(thread.tid.number, k.streamId);
            QCOMPARE(process.pid.number, qint64(metricOf(*m, r, QStringLiteral("device"))));
            QCOMPARE(thread.slices.start(k.slice), k.start);
            QCOMPARE(thread.slices.duration(k.slice), k.duration);
            QCOMPARE(thread.slices.name(k.slice), k.name);
            QCOMPARE(table.rowOfSlice(k.thread, k.slice), std::int64_t(r));
            QVERIFY(startsSeen.count(k.start + m->origin()));
        }
    }

    // nccl_data.json.gz has its times relative to baseTimeNanoseconds: the rows are at base + ts, and so
    // are the slices once the JSON reader applies the base (FORMATS.md §10.2, engineer kineto's part).
    void ncclDataRowsAreAtBasePlusTs()
    {
        const TraceModel *m = model(kNccl);
        QVERIFY(m);
        const qint64 base = json(kNccl).value(QStringLiteral("baseTimeNanoseconds")).toInteger();
        QVERIFY(base > 0);
        const std::vector<QJsonObject> kernels = launchedKernels(json(kNccl));
        const KernelRecord &first = m->kernels().rows().front();
        // ts ≈ 4.5e12 µs: the double is within 2 ns of the text.
        QVERIFY(std::llabs(first.start + m->origin() - base -
                           test::microsToNs(kernels.front().value(QStringLiteral("ts")))) <= 2);
        if (m->origin() < base)
            QSKIP("the JSON reader keeps nccl_data's times relative (baseTimeNanoseconds not applied yet)");
        QCOMPARE(m->kernels().unjoinedCount(), std::size_t(0));
    }

    // A small trace with what real files may hold: two devices sharing a stream id, a kernel whose ts is
    // not a number, a `kernel` slice without launch figures, base time after the events.
    void twoDevicesABadKernelAndOneWithoutLaunchFigures()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("two_gpus.pt.trace.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k_a", "pid": 0, "tid": 7, "ts": 1000, "dur": 5,
   "args": {"device": 0, "stream": 7, "correlation": 11, "grid": [2, 3, 4], "block": [32, 2, 1],
            "registers per thread": 40, "shared memory": 1024, "blocks per SM": 0.5, "warps per SM": 1.0,
            "est. achieved occupancy %": 25}},
  {"ph": "X", "cat": "kernel", "name": "k_a", "pid": 1, "tid": 7, "ts": 1002, "dur": 5,
   "args": {"device": 1, "stream": 7, "correlation": 12, "grid": [1, 1, 1], "block": [64, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "k_b", "pid": 1, "tid": 7, "ts": "oops", "dur": 5,
   "args": {"device": 1, "stream": 7, "grid": [1, 1, 1], "block": [1, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "no_launch", "pid": 0, "tid": 7, "ts": 1010, "dur": 1,
   "args": {"device": 0, "stream": 7}}
], "traceName": "x"})");
        file.close();
        const auto m = test::loadOrFail(path);
        QVERIFY(m);
        const KernelTable &table = m->kernels();
        QCOMPARE(table.size(), std::size_t(2));
        QCOMPARE(table.unjoinedCount(), std::size_t(0));
        for (std::size_t r = 0; r < table.size(); ++r) {
            const KernelRecord &k = table.rows()[r];
            const ThreadInfo &thread = m->threads()[static_cast<std::size_t>(k.thread)];
            // Each row on its own device's stream 7, although both streams have the same id.
            QCOMPARE(m->processes()[static_cast<std::size_t>(thread.process)].pid.number,
                     qint64(metricOf(*m, r, QStringLiteral("device"))));
            QCOMPARE(thread.slices.start(k.slice), k.start);
        }
        QCOMPARE(metricOf(*m, 0, QStringLiteral("grid size")), 24.0);
        QCOMPARE(metricOf(*m, 0, QStringLiteral("block size")), 64.0);
        QCOMPARE(metricOf(*m, 0, QStringLiteral("est. SM efficiency")), 0.5);
        QCOMPARE(metricOf(*m, 0, QStringLiteral("est. achieved occupancy(%)")), 25.0);
        QVERIFY(std::isnan(metricOf(*m, 1, QStringLiteral("registers per thread"))));
        const QStringList warnings = m->warnings();
        QVERIFY2(std::any_of(warnings.begin(), warnings.end(),
                             [&](const QString &w) {
                                 return w.startsWith(path) && w.contains(QStringLiteral("1 GPU kernel"));
                             }),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
    }

    void metricsCommandListsEveryKernel()
    {
        const at_test::AppRun run =
            at_test::runApp({QStringLiteral("--metrics"), test::kinetoSample(kDf)}, 300000);
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(std::size_t(lines.size() - 1), launchedKernels(json(kDf)).size());
        for (const KernelMetricColumn &c : kineto::gpuKernelColumns())
            QVERIFY2(lines.first().contains(c.header.toUtf8()), qPrintable(c.header));
        QVERIFY(lines.first().contains("Joined"));
        std::size_t joined = 0;
        for (qsizetype i = 1; i < lines.size(); ++i)
            joined += lines[i].contains(",yes,") ? 1 : 0;
        QCOMPARE(joined, launchedKernels(json(kDf)).size());
    }

    // The snapshot keeps the rows: a reopen equals the cold load field by field.
    void snapshotReopenKeepsTheRows()
    {
        QTemporaryDir cache;
        LoadOptions options;
        options.useSnapshotCache = true;
        options.snapshotDirectory = cache.path();
        LoadControl first, second;
        const LoadResult cold = loadTrace(test::kinetoSample(kNccl), options, first);
        const LoadResult reopened = loadTrace(test::kinetoSample(kNccl), options, second);
        QVERIFY(cold.model && reopened.model);
        QVERIFY(!cold.fromSnapshot);
        QVERIFY(reopened.fromSnapshot);
        QCOMPARE(reopened.model->kernels().size(), launchedKernels(json(kNccl)).size());
        test::ModelComparison how;
        how.maxArgs = 200;
        test::compareModels(*cold.model, *reopened.model, how);
    }

    // The cost of the rows and memory curves: the one pass over the decompressed text, against the JSON
    // parse of the same text measured here too (docs/PERFORMANCE.md).
    void addedLoadTimeIsSmall()
    {
        QString error;
        const QString path = test::kinetoSample(kDf);
        const auto temporary = decompressToTemporaryFile(path, detectCompression(path), {}, &error);
        QVERIFY2(temporary, qPrintable(error));
        std::unique_ptr<MappedFile> file = MappedFile::open(temporary->fileName(), &error);
        QVERIFY2(file, qPrintable(error));
        std::size_t allocatorEvents = 0;
        for (const QJsonValue &e : json(kDf).value(QStringLiteral("traceEvents")).toArray())
            allocatorEvents +=
                e.toObject().value(QStringLiteral("name")).toString() == QLatin1String("[memory]");
        StringPool strings;
        strings.intern("kernel");   // what the JSON parser interned: the pass reads kernels,
        strings.intern("[memory]"); // allocator events and the operators naming them
        // CPU time of this thread: the machine running the tests may be busy with other work.
        auto cpuMs = [] {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
        };
        double best = 1e9, scanOnly = 1e9;
        std::size_t kernels = 0;
        for (int i = 0; i < 3; ++i) {
            double begin = cpuMs();
            JsonEventScanner scanner(file->data(), file->size());
            QString problem;
            QVERIFY(scanner.locateEvents(&problem));
            JsonEventScanner::Span span;
            std::size_t spans = 0;
            while (scanner.next(span))
                ++spans;
            scanOnly = std::min(scanOnly, cpuMs() - begin);
            begin = cpuMs();
            const kineto::GpuEvents events = kineto::scanGpuEvents(file->data(), file->size(), strings);
            best = std::min(best, cpuMs() - begin);
            kernels = events.kernels.size();
            QCOMPARE(events.allocatorEvents.size(), allocatorEvents);
        }
        QCOMPARE(kernels, launchedKernels(json(kDf)).size());
        // A raised stop flag ends the pass early (checked every 4096 events) with what it found so far.
        const std::atomic<bool> stop{true};
        const kineto::GpuEvents stopped = kineto::scanGpuEvents(file->data(), file->size(), strings, &stop);
        QVERIFY(stopped.kernels.size() < kernels);
        QVERIFY(stopped.allocatorEvents.size() < allocatorEvents);
        qInfo("kineto pass over %.1f MB (%zu kernels, %zu [memory] events): %.1f ms CPU (best of 3; the "
              "event scan alone %.1f ms)",
              file->size() / 1e6, kernels, allocatorEvents, best, scanOnly);
        // Generous bound (a loaded CI machine): the pass is meant to stay well under 100 ms.
        QVERIFY2(best < 1000, qPrintable(QString::number(best)));
    }

    // Through the real window: the Kernels dock lists every kernel with the metric columns, a row click
    // selects its slice, and the metric charts use the columns.
    void kernelsDockThroughTheWindow()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(test::openAndWait(window, test::kinetoSample(kDf)));
        KernelTablePanel *kernels = window.kernels();
        const std::size_t expected = launchedKernels(json(kDf)).size();
        QCOMPARE(std::size_t(kernels->kernelModel()->rowCount()), expected);
        QVERIFY2(kernels->summaryText().contains(QStringLiteral("%1 kernels, 0 not joined").arg(expected)),
                 qPrintable(kernels->summaryText()));
        QStringList headers;
        for (int c = 0; c < kernels->kernelModel()->columnCount(); ++c)
            headers << kernels->kernelModel()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        for (const QString &title :
             {QStringLiteral("est. achieved occupancy"), QStringLiteral("registers per thread"),
              QStringLiteral("shared memory"), QStringLiteral("blocks per SM"),
              QStringLiteral("warps per SM"), QStringLiteral("grid size"), QStringLiteral("block size")})
            QVERIFY2(headers.contains(title), qPrintable(headers.join(QStringLiteral(" | "))));
        // Activate the row of the last NCCL kernel: the timeline selects its slice.
        const TraceModel &m = *window.model();
        std::size_t wanted = m.kernels().size();
        for (std::size_t r = 0; r < m.kernels().size(); ++r)
            if (m.strings().qstring(m.kernels().rows()[r].type) == QLatin1String("COMMUNICATION"))
                wanted = r;
        QVERIFY(wanted < m.kernels().size());
        QModelIndex index;
        for (int row = 0; row < kernels->proxy()->rowCount(); ++row) {
            const QModelIndex candidate = kernels->proxy()->index(row, KernelTableModel::Name);
            if (candidate.data(KernelTableModel::kRowRole).toULongLong() == wanted)
                index = candidate;
        }
        QVERIFY(index.isValid());
        Q_EMIT kernels->table()->activated(index);
        const KernelRecord &k = m.kernels().rows()[wanted];
        const SliceRef selected = window.timeline()->selectedSlice();
        QCOMPARE(selected.thread, k.thread);
        QCOMPARE(selected.index, k.slice);
        QVERIFY(m.sliceName(selected).startsWith(QStringLiteral("ncclKernel")));
        // The metric charts: the scatter offers the launch figures, defaults to the occupancy and has a
        // point per kernel that has one.
        auto *charts = window.findChild<ChartsPanel *>();
        QVERIFY(charts);
        QVERIFY(charts->metricChooser()->findText(QStringLiteral("registers per thread")) >= 0);
        const int occupancy = column(m, QStringLiteral("est. achieved occupancy(%)"));
        QCOMPARE(defaultScatterColumn(m.kernels()), occupancy);
        QChart *scatter = buildScatterChart(m, occupancy);
        std::size_t points = 0;
        for (QAbstractSeries *s : scatter->series())
            if (auto *series = qobject_cast<QScatterSeries *>(s))
                points += static_cast<std::size_t>(series->count());
        delete scatter;
        QCOMPARE(points, expected);
        QChart *metrics = buildKernelMetricsChart(m, {wanted});
        QVERIFY(!metrics->series().isEmpty());
        delete metrics;
    }
};

QTEST_MAIN(TestKinetoKernels)
#include "tst_kineto_kernels.moc"
