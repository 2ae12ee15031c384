// Profiler SQLite databases (FORMATS.md §6) on the real samples, read in place: the model must hold what
// the tables hold. Expectations are computed with the test's own SQL, independently of parser/sqlite.

#include "SqliteTestUtil.h"
#include "sqlite/DbSchema.h"
#include "sqlite/ProfileDatabaseReader.h"

#include <QElapsedTimer>

#include <chrono>
#include <thread>

#include <QDateTime>
#include <QMap>
#include <QTemporaryDir>

using namespace at;
using namespace at::test;

namespace {

std::size_t flowsOf(const TraceModel &model, const QString &category, std::size_t *bound = nullptr)
{
    std::size_t n = 0, b = 0;
    for (const FlowInfo &f : model.flows()) {
        if (model.strings().qstring(f.category) != category)
            continue;
        ++n;
        b += f.from.isValid() && f.to.isValid() ? 1 : 0;
    }
    if (bound)
        *bound = b;
    return n;
}

QMap<QString, int> kernelCountBy(const TraceModel &model, StringId KernelRecord::*field)
{
    QMap<QString, int> counts;
    for (const KernelRecord &k : model.kernels().rows())
        counts[model.strings().qstring(k.*field)] += 1;
    return counts;
}

TimeNs totalKernelTime(const TraceModel &model)
{
    TimeNs total = 0;
    for (const KernelRecord &k : model.kernels().rows())
        total += k.duration;
    return total;
}

} // namespace

class TestSqliteSamples : public QObject
{
    Q_OBJECT

    std::unique_ptr<TraceModel> m_model; // the torch_npu DB folder
    std::unique_ptr<ExpectDb> m_db;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(torchDb()), qPrintable(torchDb()));
        m_model = loadOrFail(torchDbFolder());
        QVERIFY(m_model);
        m_db = std::make_unique<ExpectDb>(torchDb());
        QVERIFY(m_db->ok());
    }

    void layersAndSliceCounts()
    {
        const TraceModel &m = *m_model;
        QCOMPARE(m.groups().size(), std::size_t(1));
        QVERIFY2(
            m.groups()[0].layout.contains(QStringLiteral("SQLite database ascend_pytorch_profiler_0.db")),
            qPrintable(m.groups()[0].layout));
        QCOMPARE(slicesOfProcess(m, QStringLiteral("Ascend Hardware")),
                 std::size_t(m_db->value(QStringLiteral("SELECT count(*) FROM TASK")).toLongLong()));
        QCOMPARE(slicesOfProcess(m, QStringLiteral("CANN")),
                 std::size_t(m_db->value(QStringLiteral("SELECT count(*) FROM CANN_API")).toLongLong()));
        QCOMPARE(slicesOfProcess(m, QStringLiteral("Python")),
                 std::size_t(m_db->value(QStringLiteral("SELECT count(*) FROM PYTORCH_API")).toLongLong()));
        QCOMPARE(
            slicesOfProcess(m, QStringLiteral("Overlap Analysis")),
            std::size_t(m_db->value(QStringLiteral("SELECT count(*) FROM OVERLAP_ANALYSIS")).toLongLong()));
        const qint64 comm =
            m_db->value(QStringLiteral("SELECT count(*) FROM COMMUNICATION_OP")).toLongLong() +
            m_db->value(QStringLiteral("SELECT count(*) FROM COMMUNICATION_TASK_INFO c JOIN TASK t USING "
                                       "(globalTaskId)"))
                .toLongLong();
        QCOMPARE(slicesOfProcess(m, QStringLiteral("Communication")), std::size_t(comm));

        // Lanes sort as for the JSON export: framework, CANN, device, communication, overlap, counters.
        QStringList order;
        for (int p : m.processOrder())
            order << m.processDisplayName(p);
        const QStringList layers{QStringLiteral("Python"), QStringLiteral("CANN"),
                                 QStringLiteral("Ascend Hardware"), QStringLiteral("Communication"),
                                 QStringLiteral("Overlap Analysis")};
        int last = -1;
        for (const QString &layer : layers) {
            const int p = processIndex(m, layer);
            QVERIFY2(p >= 0, qPrintable(layer));
            const int position = static_cast<int>(
                std::find(m.processOrder().begin(), m.processOrder().end(), p) - m.processOrder().begin());
            QVERIFY2(position > last, qPrintable(order.join(QStringLiteral(", "))));
            last = position;
        }
        // Streams are threads "Stream N" of Ascend Hardware.
        const ProcessInfo &hw =
            m.processes()[static_cast<std::size_t>(processIndex(m, QStringLiteral("Ascend Hardware")))];
        QCOMPARE(hw.threads.size(),
                 std::size_t(
                     m_db->value(QStringLiteral("SELECT count(DISTINCT streamId) FROM TASK")).toLongLong()));
        for (int t : hw.threads)
            QVERIFY(m.threadDisplayName(t).contains(QStringLiteral("Stream ")));
    }

    void stringIdsResolved()
    {
        const TraceModel &m = *m_model;
        const SliceRef conv = uniqueSlice(m, QStringLiteral("Conv2D1"));
        QVERIFY(conv.isValid());
        QVERIFY(uniqueSlice(m, QStringLiteral("ProfilerStep#50")).isValid());
        QVERIFY(!searchSlices(m, QStringLiteral("AscendCL@aclrtMemcpyAsync"), {true}).empty());
        QVERIFY(!searchSlices(m, QStringLiteral("Node@launch"), {true}).empty());
        // No device slice is left named by a bare string id.
        const ProcessInfo &hw =
            m.processes()[static_cast<std::size_t>(processIndex(m, QStringLiteral("Ascend Hardware")))];
        for (int t : hw.threads) {
            const SliceTable &s = m.threads()[static_cast<std::size_t>(t)].slices;
            for (std::uint32_t i = 0; i < s.size(); ++i) {
                bool isNumber = false;
                m.strings().qstring(s.name(i)).toLongLong(&isNumber);
                QVERIFY2(!isNumber, qPrintable(m.strings().qstring(s.name(i))));
            }
        }
        // Details re-read the row: string ids and the JSON arg names the kernel join uses.
        QMap<QString, QString> args;
        for (const auto &[k, v] : m.sliceArgs(conv))
            args.insert(k, v);
        QCOMPARE(args.value(QStringLiteral("Task Id")),
                 m_db->value(QStringLiteral(
                                 "SELECT t.taskId FROM TASK t JOIN COMPUTE_TASK_INFO c USING (globalTaskId) "
                                 "JOIN STRING_IDS s ON s.id = c.name WHERE s.value = 'Conv2D1'"))
                     .toString());
        QCOMPARE(args.value(QStringLiteral("opType")), QStringLiteral("Conv2D"));
        QCOMPARE(args.value(QStringLiteral("Task Type")), QStringLiteral("KERNEL_AICORE"));
    }

    void kernelsJoinedWithMetrics()
    {
        const TraceModel &m = *m_model;
        const KernelTable &k = m.kernels();
        const qint64 expected =
            m_db->value(QStringLiteral(
                            "SELECT count(*) FROM COMPUTE_TASK_INFO c JOIN TASK t USING (globalTaskId)"))
                .toLongLong() +
            m_db->value(QStringLiteral("SELECT count(*) FROM COMMUNICATION_OP")).toLongLong();
        QCOMPARE(k.size(), std::size_t(expected));
        QCOMPARE(k.unjoinedCount(), std::size_t(0));
        for (const KernelRecord &row : k.rows()) {
            // Joined to the very task: same start and name.
            const SliceTable &s = m.threads()[static_cast<std::size_t>(row.thread)].slices;
            QCOMPARE(s.start(row.slice), row.start);
            QCOMPARE(s.name(row.slice), row.name);
        }
        QCOMPARE(k.metricGroupOf(0), QStringLiteral("PipeUtilization"));
        QCOMPARE(
            k.columns().size(),
            std::size_t(
                m_db->value(QStringLiteral("SELECT count(DISTINCT name) FROM TASK_PMU_INFO")).toLongLong()));
        const int aicore = k.columnIndex(QStringLiteral("aicore_time(us)"));
        const int macRatio = k.columnIndex(QStringLiteral("aic_mac_ratio"));
        QVERIFY(aicore >= 0 && macRatio >= 0);
        QCOMPARE(k.columns()[static_cast<std::size_t>(aicore)].unit, QStringLiteral("us"));

        const SliceRef conv = uniqueSlice(m, QStringLiteral("Conv2D1"));
        const std::int64_t row = k.rowOfSlice(conv.thread, conv.index);
        QVERIFY(row >= 0);
        const KernelRecord &r = k.rows()[static_cast<std::size_t>(row)];
        QCOMPARE(r.duration, TimeNs(1736410576405033995LL - 1736410576404719328LL)); // TASK endNs - startNs
        QCOMPARE(m.strings().qstring(r.type), QStringLiteral("Conv2D"));
        QCOMPARE(m.strings().qstring(r.acceleratorCore), QStringLiteral("AI_CORE"));
        QCOMPARE(r.stepId, std::int64_t(50));
        const double aicoreNs =
            m_db->value(
                    QStringLiteral("SELECT p.value FROM TASK_PMU_INFO p JOIN STRING_IDS s ON s.id = p.name "
                                   "WHERE p.globalTaskId = 5 AND s.value = 'aic_total_time'"))
                .toDouble();
        QVERIFY(aicoreNs > 0);
        QCOMPARE(k.metric(static_cast<std::size_t>(row), static_cast<std::size_t>(aicore)),
                 aicoreNs / 1000.0);
        QVERIFY(std::abs(k.metric(static_cast<std::size_t>(row), static_cast<std::size_t>(macRatio)) -
                         0.5206727) < 1e-6);
        // Communication operators are HCCL rows, as in kernel_details.csv.
        QCOMPARE(kernelCountBy(m, &KernelRecord::acceleratorCore).value(QStringLiteral("HCCL")),
                 int(m_db->value(QStringLiteral("SELECT count(*) FROM COMMUNICATION_OP")).toLongLong()));
    }

    void flowsFromConnectionIds()
    {
        const TraceModel &m = *m_model;
        std::size_t bound = 0;
        const qint64 hostToDevice =
            m_db
                ->value(QStringLiteral(
                    "SELECT count(*) FROM CANN_API a JOIN (SELECT connectionId FROM TASK UNION ALL "
                    "SELECT connectionId FROM COMMUNICATION_OP) t ON a.connectionId = t.connectionId"))
                .toLongLong();
        QVERIFY(hostToDevice > 0);
        QCOMPARE(flowsOf(m, QStringLiteral("HostToDevice"), &bound), std::size_t(hostToDevice));
        QCOMPARE(bound, std::size_t(hostToDevice));
        const qint64 asyncNpu =
            m_db
                ->value(QStringLiteral(
                    "SELECT count(*) FROM PYTORCH_API p JOIN CONNECTION_IDS c ON c.id = p.connectionId "
                    "JOIN (SELECT connectionId FROM TASK UNION ALL SELECT connectionId FROM "
                    "COMMUNICATION_OP) t ON t.connectionId = c.connectionId WHERE p.type = 50001"))
                .toLongLong();
        QVERIFY(asyncNpu > 0);
        QCOMPARE(flowsOf(m, QStringLiteral("async_npu"), &bound), std::size_t(asyncNpu));
        QCOMPARE(bound, std::size_t(asyncNpu));
        // Pairs of torch rows sharing a connection id: all queue rows = enqueue→dequeue, else fwd→bwd.
        const QString pairs = QStringLiteral(
            "SELECT count(*) FROM (SELECT c.connectionId, min(p.type) lo, max(p.type) hi, count(*) n FROM "
            "PYTORCH_API p JOIN CONNECTION_IDS c ON c.id = p.connectionId WHERE c.connectionId NOT IN "
            "(SELECT "
            "connectionId FROM TASK) GROUP BY c.connectionId) WHERE n = 2 AND %1");
        const qint64 queue = m_db->value(pairs.arg(QStringLiteral("lo = 50002 AND hi = 50002"))).toLongLong();
        const qint64 fwdbwd =
            m_db->value(pairs.arg(QStringLiteral("NOT (lo = 50002 AND hi = 50002)"))).toLongLong();
        QVERIFY(queue > 0 && fwdbwd > 0);
        QCOMPARE(flowsOf(m, QStringLiteral("async_task_queue")), std::size_t(queue));
        QCOMPARE(flowsOf(m, QStringLiteral("fwdbwd")), std::size_t(fwdbwd));
        // A HostToDevice flow ends on the device task with that connection id.
        const SliceRef conv = uniqueSlice(m, QStringLiteral("Conv2D1"));
        bool found = false;
        for (std::uint32_t f : m.flowsTo(conv))
            found = found || m.strings().qstring(m.flows()[f].category) == QStringLiteral("HostToDevice");
        QVERIFY(found);
    }

    void stepsCountersAndCollection()
    {
        const TraceModel &m = *m_model;
        QCOMPARE(m.declaredSteps().size(),
                 std::size_t(m_db->value(QStringLiteral("SELECT count(*) FROM STEP_TIME")).toLongLong()));
        const DeclaredStep &step = m.declaredSteps().front();
        QCOMPARE(step.number, std::int64_t(50));
        QCOMPARE(step.begin + m.origin(),
                 m_db->value(QStringLiteral("SELECT startNs FROM STEP_TIME")).toLongLong());
        QCOMPARE(step.end + m.origin(),
                 m_db->value(QStringLiteral("SELECT endNs FROM STEP_TIME")).toLongLong());
        QVERIFY(step.source.contains(QStringLiteral("STEP_TIME")));

        std::size_t freqSamples = 0, hbmSeries = 0;
        for (std::size_t c = 0; c < m.counters().size(); ++c) {
            const QString name = m.strings().qstring(m.counters()[c].name);
            if (name == QStringLiteral("AI Core Freq"))
                freqSamples += m.counters()[c].times.size();
            if (name.startsWith(QStringLiteral("HBM ")))
                ++hbmSeries;
        }
        QCOMPARE(freqSamples,
                 std::size_t(m_db->value(QStringLiteral("SELECT count(*) FROM AICORE_FREQ")).toLongLong()));
        QCOMPARE(hbmSeries,
                 std::size_t(
                     2 * m_db->value(QStringLiteral("SELECT count(DISTINCT hbmId) FROM HBM")).toLongLong()));

        const CollectionInfo &c = m.groups()[0].collection;
        QCOMPARE(c.property(QStringLiteral("chip")), QStringLiteral("Ascend910B"));
        QCOMPARE(c.property(QStringLiteral("database schema")), QStringLiteral("1.0.0"));
        QCOMPARE(provenanceRow(m.groups()[0].provenance, QStringLiteral("timeline source")),
                 QStringLiteral("SQLite database ascend_pytorch_profiler_0.db"));
        QCOMPARE(c.metricGroup, QStringLiteral("PipeUtilization"));
        QVERIFY(!c.property(QStringLiteral("collection start")).isEmpty());
        // No schema warnings for a complete torch_npu database.
        for (const QString &w : m.warnings())
            QVERIFY2(!w.contains(QStringLiteral("lacks")), qPrintable(w));
    }

    void databaseFileOpenedDirectly()
    {
        auto model = loadOrFail(torchDb());
        QVERIFY(model);
        QCOMPARE(model->kernels().size(), m_model->kernels().size());
        QCOMPARE(model->sliceCount(), m_model->sliceCount());
        LoadControl control;
        const QString analysis = torchDbFolder() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/analysis.db");
        const LoadResult r = loadTrace(analysis, at::environmentLoadOptions(), control);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(analysis) && r.error.contains(QStringLiteral("not a timeline")),
                 qPrintable(r.error));
    }

    // Reading a database stops on the cancel flag (checked every 1,024 rows, and before each query), and
    // the memory limit stops it through the same flag: the load then keeps what was read and says why.
    void cancelAndMemoryLimit()
    {
        TraceBuilder builder;
        builder.addGroup(SourceGroup{});
        DatabaseReadInfo info;
        QString error;
        const std::atomic<bool> cancelled{true};
        QVERIFY(readProfileDatabase(torchDb(), builder, &info, &error, &cancelled));
        QCOMPARE(info.slices, std::size_t(0));
        QCOMPARE(info.kernelRows, std::size_t(0));

        LoadControl control;
        control.cancel = true;
        QVERIFY(loadTrace(torchDb(), at::environmentLoadOptions(), control).cancelled());

        LoadControl limited;
        auto limitedOptions = at::environmentLoadOptions();
        limitedOptions.memoryLimitBytes = 1; // reached before the first row
        const LoadResult r = loadTrace(torchDb(), limitedOptions, limited);
        QVERIFY2(r.model, qPrintable(r.error));
        QVERIFY(!r.cancelled());
        QVERIFY(limited.memoryLimitReached);
        QVERIFY(r.model->sliceCount() < m_model->sliceCount());
        const QString warnings = r.model->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(torchDb()) &&
                     warnings.contains(QStringLiteral("memory use reached the limit")),
                 qPrintable(warnings));
    }

    // A statement that works long before its first row (here a recursive count to 10^9; in real databases
    // an ORDER BY over millions of tasks) is interrupted inside SQLite once the flag is set.
    void runningStatementIsInterrupted()
    {
        SqliteConnection connection(torchDb());
        QVERIFY2(connection.isOpen(), qPrintable(connection.error()));
        DbSchema schema(connection);
        std::atomic<bool> cancel{false};
        schema.setCancelFlag(&cancel);
        std::thread setter([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            cancel = true;
        });
        QElapsedTimer timer;
        timer.start();
        const std::size_t rows = schema.forEachRow(
            QStringLiteral("c"),
            QStringLiteral(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "
                "SELECT count(*) FROM c"),
            [](QSqlQuery &) {});
        const qint64 elapsed = timer.elapsed();
        setter.join();
        QCOMPARE(rows, std::size_t(0));
        QVERIFY2(elapsed < 1000, qPrintable(QString::number(elapsed))); // uninterrupted: minutes
        QVERIFY2(schema.problems().join(' ').contains(QStringLiteral("interrupt")),
                 qPrintable(schema.problems().join(' ')));
    }

    void readOnlyInPlaceAndInCopy()
    {
        const QString original = torchDb();
        const QByteArray hash = fileHash(original);
        const QDateTime mtime = QFileInfo(original).lastModified();
        const QStringList before = QDir(QFileInfo(original).absolutePath()).entryList(QDir::Files);
        QVERIFY(loadOrFail(original));
        QCOMPARE(fileHash(original), hash);
        QCOMPARE(QFileInfo(original).lastModified(), mtime);
        QCOMPARE(QDir(QFileInfo(original).absolutePath()).entryList(QDir::Files), before);

        // In a writable folder SQLite could create -journal / -wal / -shm files; it must not.
        QTemporaryDir dir;
        const QString copy = copyInto(original, dir.path());
        QVERIFY(!copy.isEmpty());
        const QDateTime copyTime = QFileInfo(copy).lastModified();
        auto model = loadOrFail(copy);
        QVERIFY(model);
        QStringList args; // details re-open the database too
        for (const auto &[k, v] : model->sliceArgs(uniqueSlice(*model, QStringLiteral("Conv2D1"))))
            args << k;
        QVERIFY(args.contains(QStringLiteral("Task Id")));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QFileInfo(copy).fileName()});
        QCOMPARE(fileHash(copy), hash);
        QCOMPARE(QFileInfo(copy).lastModified(), copyTime);
    }

    void msprofDatabase()
    {
        QVERIFY2(QFileInfo::exists(msprofDb()), qPrintable(msprofDb()));
        auto model = loadOrFail(msprofDb());
        QVERIFY(model);
        ExpectDb db(msprofDb());
        QCOMPARE(slicesOfProcess(*model, QStringLiteral("Ascend Hardware")),
                 std::size_t(db.value(QStringLiteral("SELECT count(*) FROM TASK")).toLongLong()));
        QCOMPARE(slicesOfProcess(*model, QStringLiteral("MsprofTx")),
                 std::size_t(db.value(QStringLiteral("SELECT count(*) FROM MSTX_EVENTS")).toLongLong()));
        QCOMPARE(slicesOfProcess(*model, QStringLiteral("CANN")),
                 std::size_t(db.value(QStringLiteral("SELECT count(*) FROM CANN_API")).toLongLong()));
        QVERIFY(model->groups()[0].layout.startsWith(QStringLiteral("G3")));
        // This database has no META_DATA: loaded anyway, and the warning names what was missing.
        bool named = false;
        for (const QString &w : model->warnings())
            named = named || (w.contains(msprofDb()) && w.contains(QStringLiteral("META_DATA")));
        QVERIFY2(named, qPrintable(model->warnings().join(QLatin1Char('\n'))));
    }

    // The alexnet sample set has a db/ and a text/ export of level1. They are two separate runs (their
    // clocks are ~28 minutes apart), so total device time cannot match; the operator mix does.
    void databaseAgainstTextExport()
    {
        auto text = loadOrFail(torchTextFolder());
        QVERIFY(text);
        const TraceModel &db = *m_model;
        const TimeNs apart = std::abs(text->origin() - db.origin());
        QVERIFY2(apart > TimeNs(60) * 1000 * 1000 * 1000,
                 "the db and text samples are the same run: compare device time");
        QCOMPARE(db.kernels().size(), text->kernels().size());
        QCOMPARE(kernelCountBy(db, &KernelRecord::type), kernelCountBy(*text, &KernelRecord::type));
        QCOMPARE(kernelCountBy(db, &KernelRecord::acceleratorCore),
                 kernelCountBy(*text, &KernelRecord::acceleratorCore));
        QVERIFY(!db.kernels().columns().empty());
        qInfo("device time: db %lld ns, text %lld ns (different runs)",
              static_cast<long long>(totalKernelTime(db)), static_cast<long long>(totalKernelTime(*text)));
        // Every metric column of kernel_details.csv has its database twin under the same header, except
        // cube_utilization(%), which torch_npu computes for the CSV and the database does not store.
        for (const KernelMetricColumn &c : text->kernels().columns())
            if (c.header != QStringLiteral("cube_utilization(%)"))
                QVERIFY2(db.kernels().columnIndex(c.header) >= 0, qPrintable(c.header));
    }

    // A folder with both exports (the text export of the text/ sample beside the database of the db/ one):
    // text by default, the database on request, each saying which was used.
    void bothSourcesSwitch()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("rank0_ascend_pt"));
        const QString out = root + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::copy(torchTextFolder() + QStringLiteral("/profiler_info_0.json"),
                            root + QStringLiteral("/profiler_info_0.json")));
        const QString textOut = torchTextFolder() + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        for (const QString &name : QDir(textOut).entryList(QDir::Files))
            QVERIFY(!copyInto(textOut + QLatin1Char('/') + name, out).isEmpty());
        QVERIFY(!copyInto(torchDb(), out).isEmpty());

        auto asText = loadOrFail(root);
        QVERIFY(asText);
        QVERIFY2(asText->groups()[0].layout.contains(QStringLiteral("text export")),
                 qPrintable(asText->groups()[0].layout));
        QCOMPARE(provenanceRow(asText->groups()[0].provenance, QStringLiteral("other source")),
                 QStringLiteral("SQLite database ascend_pytorch_profiler_0.db"));
        LoadControl control;
        auto controlOptions = at::environmentLoadOptions();
        controlOptions.preferredSource = PreferredSource::Database;
        LoadResult r = loadTrace(root, controlOptions, control);
        QVERIFY2(r.model, qPrintable(r.error));
        QVERIFY(r.model->groups()[0].layout.contains(QStringLiteral("SQLite database")));
        QCOMPARE(provenanceRow(r.model->groups()[0].provenance, QStringLiteral("other source")),
                 QStringLiteral("text export"));
        QCOMPARE(r.model->kernels().size(), m_model->kernels().size());
        QCOMPARE(totalKernelTime(*r.model), totalKernelTime(*m_model));
        QCOMPARE(asText->kernels().size(), r.model->kernels().size());
        QCOMPARE(asText->kernels().unjoinedCount(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestSqliteSamples)
#include "tst_sqlite_samples.moc"
