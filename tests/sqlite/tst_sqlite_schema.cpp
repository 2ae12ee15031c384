// Databases of unknown schema versions and damaged files (FORMATS.md §6.4): a copy of the real sample with a
// table or a column dropped still loads everything else and names what was missing; garbage, truncated and
// empty files give an error naming the file and never crash.

#include "SqliteTestUtil.h"

#include <QTemporaryDir>

using namespace at;
using namespace at::test;

namespace {

QString warningsText(const TraceModel &model)
{
    return model.warnings().join(QLatin1Char('\n'));
}

bool hasWarning(const TraceModel &model, const QString &file, const QString &what)
{
    for (const QString &w : model.warnings())
        if (w.contains(file) && w.contains(what))
            return true;
    return false;
}

std::size_t flowCount(const TraceModel &model, const QString &category)
{
    std::size_t n = 0;
    for (const FlowInfo &f : model.flows())
        n += model.strings().qstring(f.category) == category ? 1 : 0;
    return n;
}

} // namespace

class TestSqliteSchema : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<TraceModel> m_full;

    QString alteredCopy(const QString &name, const QStringList &statements)
    {
        const QString copy = copyInto(torchDb(), m_dir.path(), name);
        if (copy.isEmpty())
            return {};
        ExpectDb db(copy, true);
        for (const QString &sql : statements)
            if (!db.exec(sql)) {
                qWarning("%s failed", qPrintable(sql));
                return {};
            }
        return copy;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_full = loadOrFail(torchDb());
        QVERIFY(m_full);
    }

    void droppedTable()
    {
        const QString copy = alteredCopy(QStringLiteral("ascend_pytorch_profiler_1.db"),
                                         {QStringLiteral("DROP TABLE TASK_PMU_INFO")});
        QVERIFY(!copy.isEmpty());
        auto model = loadOrFail(copy);
        QVERIFY(model);
        QVERIFY2(hasWarning(*model, copy, QStringLiteral("TASK_PMU_INFO")), qPrintable(warningsText(*model)));
        // Everything else is there: kernels without metrics, every slice, every flow.
        QCOMPARE(model->kernels().size(), m_full->kernels().size());
        QCOMPARE(model->kernels().columns().size(), std::size_t(0));
        QCOMPARE(model->sliceCount(), m_full->sliceCount());
        QCOMPARE(model->flows().size(), m_full->flows().size());
    }

    void versionSpecificCounterTables()
    {
        // A QOS table as some chips write it: every value column becomes a series, ids are not values.
        const QString copy = alteredCopy(
            QStringLiteral("ascend_pytorch_profiler_7.db"),
            {QStringLiteral("CREATE TABLE QOS (deviceId INTEGER, mpamId INTEGER, timestampNs INTEGER, "
                            "bandwidth INTEGER, latency REAL)"),
             QStringLiteral("INSERT INTO QOS VALUES (0, 3, (SELECT MIN(startNs) FROM TASK), 1000, 0.5)"),
             QStringLiteral(
                 "INSERT INTO QOS VALUES (0, 3, (SELECT MIN(startNs) FROM TASK) + 1000, 3000, NULL)")});
        QVERIFY(!copy.isEmpty());
        auto model = loadOrFail(copy);
        QVERIFY(model);
        std::map<QString, std::vector<double>> series;
        for (const CounterSeries &c : model->counters())
            if (model->processDisplayName(c.process) == QStringLiteral("QOS"))
                series[model->strings().qstring(c.name)] = c.values;
        QCOMPARE(series.size(), std::size_t(2));
        QCOMPARE(series[QStringLiteral("QOS/bandwidth")], (std::vector<double>{1000, 3000}));
        QCOMPARE(series[QStringLiteral("QOS/latency")], (std::vector<double>{0.5})); // NULL is no sample
    }

    void droppedColumn()
    {
        const QString copy =
            alteredCopy(QStringLiteral("ascend_pytorch_profiler_2.db"),
                        {QStringLiteral("CREATE TABLE CANN_API_NEW AS SELECT startNs, endNs, type, "
                                        "globalTid, name FROM CANN_API"),
                         QStringLiteral("DROP TABLE CANN_API"),
                         QStringLiteral("ALTER TABLE CANN_API_NEW RENAME TO CANN_API")});
        QVERIFY(!copy.isEmpty());
        auto model = loadOrFail(copy);
        QVERIFY(model);
        QVERIFY2(hasWarning(*model, copy, QStringLiteral("CANN_API.connectionId")),
                 qPrintable(warningsText(*model)));
        QCOMPARE(model->sliceCount(), m_full->sliceCount());
        QCOMPARE(flowCount(*model, QStringLiteral("HostToDevice")), std::size_t(0));
        QVERIFY(flowCount(*m_full, QStringLiteral("HostToDevice")) > 0);
        QCOMPARE(flowCount(*model, QStringLiteral("async_npu")),
                 flowCount(*m_full, QStringLiteral("async_npu")));
        QCOMPARE(model->kernels().size(), m_full->kernels().size());
    }

    void droppedStringTable()
    {
        const QString copy = alteredCopy(QStringLiteral("ascend_pytorch_profiler_3.db"),
                                         {QStringLiteral("DROP TABLE STRING_IDS")});
        QVERIFY(!copy.isEmpty());
        auto model = loadOrFail(copy);
        QVERIFY(model);
        QVERIFY2(hasWarning(*model, copy, QStringLiteral("STRING_IDS")), qPrintable(warningsText(*model)));
        QCOMPARE(model->sliceCount(), m_full->sliceCount());
    }

    void garbageFile()
    {
        const QString path = QDir(m_dir.path()).filePath(QStringLiteral("ascend_pytorch_profiler_4.db"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray junk;
        for (int i = 0; i < 100000; ++i)
            junk.append(char((i * 7919) % 251));
        f.write(junk);
        f.close();
        LoadControl control;
        const LoadResult r = loadTrace(path, at::environmentLoadOptions(), control);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(path), qPrintable(r.error));
    }

    void emptyFile()
    {
        const QString path = QDir(m_dir.path()).filePath(QStringLiteral("msprof_5.db"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        LoadControl control;
        const LoadResult r = loadTrace(path, at::environmentLoadOptions(), control);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(path), qPrintable(r.error));
    }

    void truncatedFiles_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("header only") << qint64(100);
        QTest::newRow("first pages") << qint64(8192);
        QTest::newRow("half") << QFileInfo(torchDb()).size() / 2;
        QTest::newRow("all but the last page") << QFileInfo(torchDb()).size() - 4096;
    }

    void truncatedFiles()
    {
        QFETCH(qint64, bytes);
        QFile source(torchDb());
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QString path =
            QDir(m_dir.path()).filePath(QStringLiteral("ascend_pytorch_profiler_%1.db").arg(bytes));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(source.read(bytes));
        f.close();
        LoadControl control;
        const LoadResult r = loadTrace(path, at::environmentLoadOptions(), control);
        // Either refused with the file named, or loaded with what could be read and a warning naming it.
        if (r.model)
            QVERIFY2(hasWarning(*r.model, path, QString()), qPrintable(warningsText(*r.model)));
        else
            QVERIFY2(r.error.contains(path), qPrintable(r.error));
    }

    void folderWithDamagedDatabase()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(out));
        const QString path = out + QStringLiteral("/ascend_pytorch_profiler_0.db");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("SQLite format 3");
        f.close();
        LoadControl control;
        const LoadResult r = loadTrace(dir.path(), at::environmentLoadOptions(), control);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(path), qPrintable(r.error));
    }
};

QTEST_GUILESS_MAIN(TestSqliteSchema)
#include "tst_sqlite_schema.moc"
