// Peak memory per rank (docs/CLUSTER.md): the cluster reader's peak against the maxima of the rank's
// memory_record.csv (or profiler database) computed here on their own, the --cluster JSON and text, and the
// rank table's column.
#include "ClusterTestSupport.h"
#include "TestPaths.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace at;
using namespace at::test;

namespace {

struct ExpectedPeak
{
    std::int64_t bytes = 0;
    std::int64_t timeNs = 0;
    QString component;
};

// "1764246877082702.440\t" µs → ns from the text.
std::int64_t microsTextToNs(QString text)
{
    text = text.trimmed();
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? text : text.left(dot);
    const QString fraction =
        (dot < 0 ? QString() : text.mid(dot + 1)).leftJustified(3, QLatin1Char('0')).left(3);
    return whole.toLongLong() * 1000 + fraction.toLongLong();
}

// The largest "Total Reserved(MB)" of memory_record.csv and the first row reaching it, read line by line.
std::optional<ExpectedPeak> csvPeak(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QList<QByteArray> lines = file.readAll().split('\n');
    const QList<QByteArray> header = lines.front().trimmed().split(',');
    const qsizetype reserved = header.indexOf("Total Reserved(MB)");
    const qsizetype time = header.indexOf("Timestamp(us)");
    const qsizetype component = header.indexOf("Component");
    std::optional<double> best;
    ExpectedPeak peak;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> cells = lines[i].split(',');
        if (cells.size() <= reserved || cells[reserved].trimmed().isEmpty())
            continue;
        const double mb = cells[reserved].trimmed().toDouble();
        if (best && mb <= *best)
            continue;
        best = mb;
        peak.bytes = std::llround(mb * 1048576.0); // torch_npu's MB are exact binary fractions of bytes
        peak.timeNs = microsTextToNs(QString::fromUtf8(cells[time]));
        peak.component = QString::fromUtf8(cells[component]);
    }
    return best ? std::optional<ExpectedPeak>(peak) : std::nullopt;
}

} // namespace

class TstClusterMemory : public QObject
{
    Q_OBJECT

private slots:
    // Ranks 0/2 have memory_record.csv (the APP component is the whole application's memory and the
    // largest); ranks 1/3 have no memory files: no peak.
    void qwen3PeakAgainstTheCsv()
    {
        const cluster::ClusterModel model = cluster::readCluster(qwen3Cluster());
        QCOMPARE(model.ranks.size(), std::size_t(4));
        for (const cluster::Rank &r : model.ranks) {
            const QString csv = r.folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/memory_record.csv");
            const std::optional<ExpectedPeak> expected = csvPeak(csv);
            QCOMPARE(expected.has_value(), r.rank == 0 || r.rank == 2);
            QCOMPARE(r.memoryPeak.has_value(), expected.has_value());
            if (!expected)
                continue;
            QCOMPARE(r.memoryPeak->bytes, expected->bytes);
            QCOMPARE(r.memoryPeak->time, expected->timeNs);
            QCOMPARE(r.memoryPeak->component, expected->component);
            QCOMPARE(r.memoryPeak->component, QStringLiteral("APP"));
            QCOMPARE(r.memoryPeak->file, csv);
        }
        QCOMPARE(model.rank(0)->memoryPeak->bytes, std::int64_t(12504285184)); // 11925.015625 MB
    }

    // A profiler database: MEMORY_RECORD's components and NPU_MEM 'app' (hbm + ddr), queried here directly.
    void databasePeak()
    {
        const cluster::ClusterModel model = cluster::readCluster(alexnetDbCluster());
        QCOMPARE(model.ranks.size(), std::size_t(1));
        const cluster::Rank &r = model.ranks.front();
        QDir output(r.folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT"));
        const QString db =
            output.filePath(output.entryList({QStringLiteral("ascend_pytorch_profiler*.db")}).first());
        std::int64_t record = -1, app = -1, appTime = 0;
        {
            QSqlDatabase sql =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("memory-test"));
            sql.setDatabaseName(QStringLiteral("file:%1?mode=ro&immutable=1").arg(db));
            sql.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
            QVERIFY(sql.open());
            QSqlQuery q(sql);
            QVERIFY(q.exec(QStringLiteral("SELECT max(totalReserved) FROM MEMORY_RECORD")) && q.next());
            record = q.value(0).toLongLong();
            QVERIFY(
                q.exec(QStringLiteral("SELECT hbm + ddr, timestampNs FROM NPU_MEM n JOIN STRING_IDS s ON "
                                      "s.id = n.type WHERE s.value = 'app' ORDER BY 1 DESC, 2 LIMIT 1")) &&
                q.next());
            app = q.value(0).toLongLong();
            appTime = q.value(1).toLongLong();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("memory-test"));
        QVERIFY(app > record && record > 0);
        QVERIFY(r.memoryPeak);
        QCOMPARE(r.memoryPeak->bytes, app);
        QCOMPARE(r.memoryPeak->time, appTime);
        QCOMPARE(r.memoryPeak->component, QStringLiteral("APP"));
    }

    // Without Reserved values in memory_record.csv: the largest npu_module_mem.csv module (KB header, −1 rows
    // skipped, a quoted cell, the first time it is reached); a row whose time cannot be read is counted.
    void moduleFallbackOnSyntheticFiles()
    {
        QTemporaryDir dir;
        const QString rank = dir.filePath(QStringLiteral("rank0_ascend_pt"));
        writeTextFile(rank + QStringLiteral("/profiler_info_0.json"), "{}");
        const QString output = rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/");
        writeTextFile(
            output + QStringLiteral("memory_record.csv"),
            "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream "
            "Ptr,Device Type\nPTA,100.000\t,1.5,,,,NPU:0\n");
        const QString modules = output + QStringLiteral("npu_module_mem.csv");
        writeTextFile(modules, "Device_id,Component,Timestamp(us),Total Reserved(KB),Device\r\n"
                               "0,SLOG,100.500\t,2048,NPU:0\r\n"
                               "0,HCCL,101.000\t,-1,NPU:0\r\n"
                               "0,\"HCCL\",102.250\t,4096.5,NPU:0\r\n"
                               "0,APP,103.000\t,4096.5,NPU:0\r\n"
                               "0,RUNTIME,abc,9999999,NPU:0\r\n");
        const cluster::ClusterModel model = cluster::readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(1));
        const cluster::Rank &r = model.ranks.front();
        QVERIFY(r.memoryPeak);
        QCOMPARE(r.memoryPeak->bytes, std::int64_t(4096 * 1024 + 512));
        QCOMPARE(r.memoryPeak->time, std::int64_t(102250));
        QCOMPARE(r.memoryPeak->component, QStringLiteral("HCCL (module)"));
        QCOMPARE(r.memoryPeak->file, modules);
        QCOMPARE(model.warnings.size(), 1);
        QVERIFY2(model.warnings[0].contains(QStringLiteral("1 row(s) without a readable time")),
                 qPrintable(model.warnings[0]));
    }

    void commandLine()
    {
        QProcess process;
        process.start(at::test::appBinary(),
                      {QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")});
        QVERIFY(process.waitForFinished(60000));
        const QByteArray out = process.readAllStandardOutput();
        const QJsonArray ranks = QJsonDocument::fromJson(out).object()[QStringLiteral("ranks")].toArray();
        QCOMPARE(ranks.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const QJsonObject rank = ranks[i].toObject();
            const std::optional<ExpectedPeak> expected =
                csvPeak(rank[QStringLiteral("folder")].toString() +
                        QStringLiteral("/ASCEND_PROFILER_OUTPUT/memory_record.csv"));
            if (!expected) {
                QVERIFY(rank[QStringLiteral("peak_memory_mb")].isNull());
                QVERIFY(rank[QStringLiteral("peak_memory_component")].isNull());
                QVERIFY(rank[QStringLiteral("peak_memory_time_us")].isNull());
                continue;
            }
            QCOMPARE(rank[QStringLiteral("peak_memory_mb")].toDouble(),
                     static_cast<double>(expected->bytes) / 1048576.0);
            QCOMPARE(rank[QStringLiteral("peak_memory_component")].toString(), expected->component);
        }
        // Exact decimals of the bytes and of the absolute time, as the file wrote them.
        QVERIFY2(out.contains("\"peak_memory_mb\":11925.015625,\"peak_memory_component\":\"APP\","
                              "\"peak_memory_time_us\":1764246877082702.44,"),
                 out.left(400).constData());
        process.start(at::test::appBinary(), {QStringLiteral("--cluster"), qwen3Cluster()});
        QVERIFY(process.waitForFinished(60000));
        const QByteArray text = process.readAllStandardOutput();
        QVERIFY(text.contains("peak memory, rank 0: 11925.016 MB (APP at 1764246877082702.44 us)"));
        QVERIFY(!text.contains("peak memory, rank 1"));
    }

    // The rank table's last column, sortable by value; "–" for ranks without memory data.
    void rankTableColumn()
    {
        ClusterView view;
        view.setModel(std::make_shared<const cluster::ClusterModel>(cluster::readCluster(qwen3Cluster())));
        QAbstractItemModel *rows = view.rankTable()->model();
        const int column = rows->columnCount() - 1;
        QCOMPARE(rows->headerData(column, Qt::Horizontal).toString(),
                 QStringLiteral("Peak reserved, any component (MB)"));
        QCOMPARE(rows->index(0, column).data().toString(), QStringLiteral("11,925.016"));
        QCOMPARE(rows->index(1, column).data().toString(), QStringLiteral("–"));
        QCOMPARE(rows->index(2, column).data().toString(), QStringLiteral("12,675.371"));
        QVERIFY(rows->index(0, column)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("APP, first reached at")));
        view.rankTable()->sortByColumn(column, Qt::DescendingOrder);
        QCOMPARE(view.rankAtRow(0), 2);
        QCOMPARE(view.rankAtRow(1), 0);
    }
};

QTEST_MAIN(TstClusterMemory)
#include "tst_cluster_memory.moc"
