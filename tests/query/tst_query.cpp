// The query engine (core/query, docs/QUERY.md) on the real samples: every expected value is computed here
// from the files themselves (the JSON events, kernel_details.csv, step_trace_time.csv, communication.json),
// never taken from the model the engine reads.
#include "QueryEngine.h"

#include "TestSupport.h"
#include "TiledModel.h"
#include "cluster/ClusterModel.h"
#include "cluster/ClusterReader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <charconv>
#include <cmath>
#include <map>

using namespace at;
using namespace at::query;

namespace {

const QString kLevel1Folder =
    QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt");
const QString kCluster = QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2");

// Keeps every result in memory (the tests' results are small; streaming is checked by CountingSink).
struct CollectingSink : QueryResultSink
{
    QStringList columns;
    std::vector<std::vector<QueryValue>> rows;
    int results = 0;
    bool begin(const QStringList &c) override
    {
        columns = c;
        rows.clear();
        ++results;
        return true;
    }
    bool row(const std::vector<QueryValue> &values) override
    {
        rows.push_back(values);
        return true;
    }
};

// Sees each row once and keeps none of them.
struct CountingSink : QueryResultSink
{
    std::int64_t rows = 0;
    std::int64_t lastId = -1;
    bool ascending = true;
    bool begin(const QStringList &) override { return true; }
    bool row(const std::vector<QueryValue> &values) override
    {
        ascending = ascending && values[0].integer > lastId;
        lastId = values[0].integer;
        ++rows;
        return true;
    }
};

std::vector<std::vector<QueryValue>> runOrFail(QueryEngine &engine, const QString &sql)
{
    CollectingSink sink;
    const QueryOutcome outcome = engine.run(sql, sink);
    if (!outcome.ok)
        qWarning("%s: %s", qPrintable(sql), qPrintable(outcome.message));
    return outcome.ok ? sink.rows : std::vector<std::vector<QueryValue>>{};
}

std::int64_t scalar(QueryEngine &engine, const QString &sql)
{
    const auto rows = runOrFail(engine, sql);
    return rows.empty() ? -1 : rows[0][0].integer;
}

QString text(const QueryValue &v)
{
    return QString::fromUtf8(v.bytes);
}

// A JSON number or string of µs as ns, through its shortest decimal text.
TimeNs micros(const QJsonValue &value, FractionRounding rounding)
{
    if (value.isString())
        return parseMicrosToNs(value.toString().toStdString(), rounding).value_or(-1);
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value.toDouble()).ptr;
    return parseMicrosToNs(std::string_view(buffer, static_cast<std::size_t>(end - buffer)), rounding)
        .value_or(-1);
}

// RFC 4180 rows of a small CSV file.
std::vector<QStringList> readCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString all = QString::fromUtf8(file.readAll());
    std::vector<QStringList> rows;
    QStringList row;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QChar c = all[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < all.size() && all[i + 1] == QLatin1Char('"')) {
                cell += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << cell;
            cell.clear();
        } else if (c == QLatin1Char('\n')) {
            row << cell;
            rows.push_back(row);
            row.clear();
            cell.clear();
        } else if (c != QLatin1Char('\r')) {
            cell += c;
        }
    }
    if (!cell.isEmpty() || !row.isEmpty())
        rows.push_back(row << cell);
    return rows;
}

} // namespace

class TestQuery : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_trace = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(m_trace);
        m_folder = test::loadOrFail(test::samplePath(kLevel1Folder));
        QVERIFY(m_folder);
    }

    // Counts and duration sums by name against the X events of trace_view.json.
    void slicesByNameMatchTheJson()
    {
        QFile file(test::level1Rank0Trace());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray events = QJsonDocument::fromJson(file.readAll()).array();
        std::map<QString, std::pair<std::int64_t, TimeNs>> expected;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            if (e.value(QStringLiteral("ph")).toString() != QStringLiteral("X"))
                continue;
            auto &[count, sum] = expected[e.value(QStringLiteral("name")).toString()];
            ++count;
            sum += micros(e.value(QStringLiteral("dur")), FractionRounding::HalfUp);
        }
        QVERIFY(expected.size() > 100);

        QueryEngine engine(*m_trace);
        QVERIFY2(engine.isReady(), qPrintable(engine.error()));
        const auto rows =
            runOrFail(engine, QStringLiteral("select name, count(*), sum(dur) from slice group by name"));
        QCOMPARE(rows.size(), expected.size());
        for (const auto &row : rows) {
            const auto it = expected.find(text(row[0]));
            QVERIFY2(it != expected.end(), qPrintable(text(row[0])));
            QCOMPARE(row[1].integer, it->second.first);
            QCOMPARE(row[2].integer, it->second.second);
        }
        // The name = ? path (a StringPool lookup) agrees with the scan.
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from slice where name = 'Node@launch'")),
                 expected[QStringLiteral("Node@launch")].first);
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from slice where name = 'no such name'")), 0);
    }

    // Point lookups, ts ranges and the parent / depth / ancestor columns against the model read directly.
    void lookupsAndRangesMatchTheModel()
    {
        const TraceModel &m = *m_trace;
        QueryEngine engine(m);
        std::int64_t id = 0;
        std::int64_t inRange = 0;
        const TimeNs lo = m.dataBegin() + (m.dataEnd() - m.dataBegin()) / 3;
        const TimeNs hi = lo + (m.dataEnd() - m.dataBegin()) / 10;
        for (std::size_t t = 0; t < m.threads().size(); ++t) {
            const SliceTable &table = m.threads()[t].slices;
            for (std::uint32_t i = 0; i < table.size(); ++i, ++id) {
                inRange += table.start(i) >= lo && table.start(i) <= hi;
                if (id % 397 != 0)
                    continue;
                const auto rows = runOrFail(
                    engine,
                    QStringLiteral("select ts, dur, name, track, depth, parent from slice where id = %1")
                        .arg(id));
                QCOMPARE(rows.size(), std::size_t(1));
                QCOMPARE(rows[0][0].integer, table.start(i));
                QCOMPARE(rows[0][1].integer, table.duration(i));
                QCOMPARE(text(rows[0][2]), m.strings().qstring(table.name(i)));
                QCOMPARE(rows[0][3].integer, std::int64_t(t));
                QCOMPARE(rows[0][4].integer, std::int64_t(table.depthOf(i)));
                QCOMPARE(rows[0][5].type == QueryValue::Type::Null, table.parent(i) < 0);
                QCOMPARE(engine.sliceOfId(id), (SliceRef{static_cast<std::int32_t>(t), i}));
            }
        }
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from slice")), id);
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from slice where id = %1").arg(id)), 0);
        QCOMPARE(
            scalar(engine,
                   QStringLiteral("select count(*) from slice where ts >= %1 and ts <= %2").arg(lo).arg(hi)),
            inRange);
        QCOMPARE(
            scalar(engine,
                   QStringLiteral("select count(*) from slice where ts > %1 and ts < %2").arg(lo).arg(hi)),
            inRange -
                scalar(engine,
                       QStringLiteral("select count(*) from slice where ts in (%1, %2)").arg(lo).arg(hi)));
        // Every slice's parent encloses it, one level up; ancestor() finds the root of a deep slice.
        QCOMPARE(scalar(engine,
                        QStringLiteral("select count(*) from slice c join slice p on p.id = c.parent "
                                       "where p.depth <> c.depth - 1 or p.ts > c.ts or p.track <> c.track")),
                 0);
        const auto deep =
            runOrFail(engine, QStringLiteral("select id, track from slice where depth = 3 limit 1"));
        QCOMPARE(deep.size(), std::size_t(1));
        const auto root = runOrFail(
            engine,
            QStringLiteral("select r.id from slice r where r.track = %1 and r.depth = 0 and r.ts <= "
                           "(select ts from slice where id = %2) and r.ts + r.dur >= (select ts + dur from "
                           "slice where id = %2)")
                .arg(deep[0][1].integer)
                .arg(deep[0][0].integer));
        QVERIFY(!root.empty());
        const auto found =
            runOrFail(engine, QStringLiteral("select ancestor(%1, (select name from slice where id = %2))")
                                  .arg(deep[0][0].integer)
                                  .arg(root[0][0].integer));
        QCOMPARE(found[0][0].integer, root[0][0].integer);
    }

    // GROUP BY name streams from the by-name index; grouping by an expression of the name takes SQLite's own
    // sorter. Both must agree, with and without the filters the index walk applies itself.
    void groupedWalkAgreesWithTheSorter()
    {
        QueryEngine engine(*m_trace);
        const TimeNs lo = m_trace->dataBegin() + (m_trace->dataEnd() - m_trace->dataBegin()) / 4;
        for (const QString &where :
             {QString(), QStringLiteral("where track = 2"), QStringLiteral("where ts >= %1").arg(lo),
              QStringLiteral("where ts < %1 and track > 0").arg(lo),
              QStringLiteral("where name = 'Enqueue'")}) {
            const auto fast = runOrFail(
                engine,
                QStringLiteral(
                    "select name, count(*), sum(dur), min(id) from slice %1 group by name order by name")
                    .arg(where));
            const auto sorted = runOrFail(
                engine, QStringLiteral("select name || '' as n, count(*), sum(dur), min(id) from slice %1 "
                                       "group by n order by n")
                            .arg(where));
            QVERIFY2(!fast.empty() || !where.isEmpty(), qPrintable(where));
            QCOMPARE(fast.size(), sorted.size());
            for (std::size_t i = 0; i < fast.size(); ++i) {
                QCOMPARE(text(fast[i][0]), text(sorted[i][0]));
                for (int c = 1; c < 4; ++c)
                    QCOMPARE(fast[i][static_cast<std::size_t>(c)].integer,
                             sorted[i][static_cast<std::size_t>(c)].integer);
            }
        }
        // The depth column in the by-name walk is the row's own.
        QCOMPARE(
            scalar(engine, QStringLiteral("select count(*) from slice s where name = 'Enqueue' and depth <> "
                                          "(select depth from slice where id = s.id)")),
            0);
    }

    // percentile() against a sort in the test, for the 20 most frequent names.
    void percentileMatchesASort()
    {
        QueryEngine engine(*m_trace);
        const auto names = runOrFail(
            engine, QStringLiteral("select name from slice group by name order by count(*) desc limit 20"));
        QCOMPARE(names.size(), std::size_t(20));
        for (const auto &n : names) {
            const QString name = text(n[0]).replace(QLatin1Char('\''), QStringLiteral("''"));
            std::vector<double> durations;
            for (const auto &row :
                 runOrFail(engine, QStringLiteral("select dur from slice where name = '%1'").arg(name)))
                durations.push_back(static_cast<double>(row[0].integer));
            std::sort(durations.begin(), durations.end());
            for (const double p : {0.0, 50.0, 90.0, 99.0, 100.0}) {
                const double rank = p / 100 * static_cast<double>(durations.size() - 1);
                const auto lo = static_cast<std::size_t>(std::floor(rank));
                const double expected =
                    lo + 1 < durations.size()
                        ? durations[lo] + (durations[lo + 1] - durations[lo]) * (rank - double(lo))
                        : durations[lo];
                const auto got = runOrFail(
                    engine, QStringLiteral("select percentile(dur, %1) from slice where name = '%2'")
                                .arg(p)
                                .arg(name));
                QCOMPARE(got[0][0].real, expected);
            }
            const auto shorthands = runOrFail(
                engine,
                QStringLiteral("select p50(dur) = percentile(dur, 50), p90(dur) = percentile(dur, 90), "
                               "p99(dur) = percentile(dur, 99) from slice where name = '%1'")
                    .arg(name));
            QCOMPARE(shorthands[0][0].integer + shorthands[0][1].integer + shorthands[0][2].integer, 3);
        }
        CollectingSink sink;
        QVERIFY(!engine.run(QStringLiteral("select percentile(dur, 101) from slice"), sink).ok);
        QCOMPARE(text(runOrFail(engine, QStringLiteral("select fmt_dur(1234567)"))[0][0]),
                 formatDuration(1234567));
    }

    // The kernel table against kernel_details.csv: rows, the duration sum and every metric column's sum.
    void kernelsMatchKernelDetailsCsv()
    {
        const std::vector<QStringList> csv = readCsv(
            test::samplePath(kLevel1Folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv")));
        QVERIFY(csv.size() > 10);
        const QStringList header = csv[0];
        const qsizetype duration = header.indexOf(QStringLiteral("Duration(us)"));
        QVERIFY(duration >= 0);
        TimeNs durationSum = 0;
        for (std::size_t r = 1; r < csv.size(); ++r)
            durationSum +=
                parseMicrosToNs(csv[r][duration].toStdString(), FractionRounding::HalfUp).value_or(0);

        QueryEngine engine(*m_folder);
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from kernel")), std::int64_t(csv.size() - 1));
        QCOMPARE(scalar(engine, QStringLiteral("select sum(dur) from kernel")), durationSum);
        // Every kernel is joined to its slice, which has the kernel's name and start (the HCCL rows of the
        // CSV round their start 1 ns away from the communication slice's).
        QCOMPARE(
            scalar(engine, QStringLiteral("select count(*) from kernel k join slice s on s.id = k.slice_id "
                                          "where abs(s.ts - k.ts) <= 1 and s.name = k.name")),
            std::int64_t(csv.size() - 1));
        const std::map<QString, QString> metrics{
            {QStringLiteral("aic_mac_time(us)"), QStringLiteral("aic_mac_time_us")},
            {QStringLiteral("aiv_vec_ratio"), QStringLiteral("aiv_vec_ratio")},
            {QStringLiteral("aiv_total_cycles"), QStringLiteral("aiv_total_cycles")},
            {QStringLiteral("cube_utilization(%)"), QStringLiteral("cube_utilization_pct")}};
        for (const auto &[csvName, column] : metrics) {
            const qsizetype c = header.indexOf(csvName);
            QVERIFY2(c >= 0, qPrintable(csvName));
            double sum = 0;
            for (std::size_t r = 1; r < csv.size(); ++r)
                sum += csv[r][c].toDouble();
            const auto got = runOrFail(engine, QStringLiteral("select sum(%1) from kernel").arg(column));
            QVERIFY2(!got.empty(), qPrintable(column));
            QVERIFY2(std::abs(got[0][0].real - sum) <= 1e-9 * std::max(1.0, std::abs(sum)),
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(column).arg(got[0][0].real).arg(sum)));
        }
    }

    // The step table's breakdown is step_trace_time.csv's row.
    void stepBreakdownMatchesStepTraceTime()
    {
        const std::vector<QStringList> csv = readCsv(
            test::samplePath(kLevel1Folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv")));
        QCOMPARE(csv.size(), std::size_t(2));
        const QStringList &h = csv[0];
        auto ns = [&](const char *column) {
            return parseMicrosToNs(csv[1][h.indexOf(QLatin1String(column))].toStdString()).value_or(-1);
        };
        QueryEngine engine(*m_folder);
        const auto rows =
            runOrFail(engine, QStringLiteral("select step, source, computing, communication_not_overlapped, "
                                             "free, preparing, bubble from step"));
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows[0][0].integer, csv[1][0].toLongLong());
        QCOMPARE(text(rows[0][1]), QStringLiteral("step_trace_time.csv"));
        QCOMPARE(rows[0][2].integer, ns("Computing"));
        QCOMPARE(rows[0][3].integer, ns("Communication(Not Overlapped)"));
        QCOMPARE(rows[0][4].integer, ns("Free"));
        QCOMPARE(rows[0][5].integer, ns("Preparing"));
        QCOMPARE(rows[0][6].integer, ns("Bubble"));
        // step_of() puts the step's own marker slice in that step.
        QCOMPARE(scalar(engine, QStringLiteral("select step_of(ts) from slice where name = 'ProfilerStep#%1'")
                                    .arg(csv[1][0])),
                 csv[1][0].toLongLong());
    }

    // A cluster of summary-only ranks: rank, step and comm_op without any timeline, against each rank's
    // files.
    void clusterSummaryTables()
    {
        const QString root = test::samplePath(kCluster);
        auto cluster = std::make_shared<cluster::ClusterModel>(cluster::readCluster(root));
        QCOMPARE(cluster->ranks.size(), std::size_t(4));
        TraceModel empty;
        QueryEngine engine(empty, cluster);
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from rank")), 4);
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from slice")), 0);
        for (const cluster::Rank &rank : cluster->ranks) {
            const QString folder = rank.folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/");
            // Steps and their computing time from step_trace_time.csv (the cluster reader rounds a duration's
            // fraction of a ns: 231290.09999999995 µs is 231290100 ns).
            const std::vector<QStringList> csv = readCsv(folder + QStringLiteral("step_trace_time.csv"));
            QVERIFY(csv.size() >= 2);
            const auto rows = runOrFail(
                engine, QStringLiteral("select step, computing, free from step where rank = %1 order by step")
                            .arg(rank.rank));
            QCOMPARE(rows.size(), csv.size() - 1);
            const qsizetype stepColumn = csv[0].indexOf(QStringLiteral("Step"));
            const qsizetype computing = csv[0].indexOf(QStringLiteral("Computing"));
            const qsizetype freeColumn = csv[0].indexOf(QStringLiteral("Free"));
            std::map<std::int64_t, std::pair<TimeNs, TimeNs>> byStep;
            for (std::size_t r = 1; r < csv.size(); ++r)
                byStep[csv[r][stepColumn].toLongLong()] = {
                    parseMicrosToNs(csv[r][computing].toStdString(), FractionRounding::HalfUp).value_or(-1),
                    parseMicrosToNs(csv[r][freeColumn].toStdString(), FractionRounding::HalfUp).value_or(-1)};
            for (const auto &row : rows) {
                QCOMPARE(row[1].integer, byStep[row[0].integer].first);
                QCOMPARE(row[2].integer, byStep[row[0].integer].second);
            }
            // Communication elapse per rank from communication.json (every op but the totals).
            QFile file(folder + QStringLiteral("communication.json"));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonObject steps = QJsonDocument::fromJson(file.readAll()).object();
            std::int64_t ops = 0;
            double elapseMs = 0;
            for (const QJsonValue &step : steps)
                for (const QJsonValue &kind : step.toObject()) {
                    const QJsonObject kindOps = kind.toObject();
                    for (auto op = kindOps.begin(); op != kindOps.end(); ++op) {
                        if (op.key().startsWith(QStringLiteral("Total Op Info")))
                            continue;
                        ++ops;
                        elapseMs += op.value()
                                        .toObject()
                                        .value(QStringLiteral("Communication Time Info"))
                                        .toObject()
                                        .value(QStringLiteral("Elapse Time(ms)"))
                                        .toDouble();
                    }
                }
            const auto comm = runOrFail(
                engine,
                QStringLiteral("select count(*), sum(elapse) from comm_op where rank = %1 and total = 0")
                    .arg(rank.rank));
            QCOMPARE(comm[0][0].integer, ops);
            QVERIFY2(std::abs(static_cast<double>(comm[0][1].integer) - elapseMs * 1e6) <=
                         static_cast<double>(ops),
                     qPrintable(QStringLiteral("rank %1: %2 vs %3")
                                    .arg(rank.rank)
                                    .arg(comm[0][1].integer)
                                    .arg(elapseMs)));
        }
    }

    // Bad SQL: SQLite's message and the position of the error.
    void badSqlSaysWhereAndWhy()
    {
        QueryEngine engine(*m_trace);
        CollectingSink sink;
        QueryOutcome outcome = engine.run(QStringLiteral("select id,\n  nme from slice"), sink);
        QVERIFY(!outcome.ok);
        QVERIFY(!outcome.cancelled);
        QCOMPARE(outcome.message, QStringLiteral("no such column: nme"));
        QCOMPARE(outcome.line, 2);
        QCOMPARE(outcome.column, 3);
        outcome = engine.run(QStringLiteral("select 1; selec 2"), sink);
        QVERIFY(!outcome.ok);
        QVERIFY(outcome.message.contains(QStringLiteral("syntax error")));
        QCOMPARE(outcome.offset, 10);
        // Nothing outside the process can be written, and the tables cannot be dropped.
        for (const char *sql :
             {"attach 'x.db' as x", "vacuum into 'x.db'", "drop table slice", "drop view track",
              "delete from slice", "insert into thread(id) values (1)"}) {
            outcome = engine.run(QString::fromLatin1(sql), sink);
            QVERIFY2(!outcome.ok, sql);
        }
        QVERIFY(scalar(engine, QStringLiteral("select count(*) from track")) > 0);
    }

    // Millions of rows stream through the sink one at a time; a cancelled query stops early.
    void manyRowsStreamAndCancel()
    {
        test::TileOptions options;
        options.copies = 40;
        const std::unique_ptr<TraceModel> big = test::tileModel(*m_trace, options);
        QueryEngine engine(*big);
        CountingSink counting;
        QueryOutcome outcome = engine.run(QStringLiteral("select id, ts, dur, name from slice"), counting);
        QVERIFY(outcome.ok);
        QCOMPARE(counting.rows, static_cast<std::int64_t>(big->sliceCount()));
        QCOMPARE(outcome.rows, counting.rows);
        QVERIFY(counting.ascending);
        QVERIFY(counting.rows > 150000);

        // Cancelled from the progress callback (what the dock's Cancel raises), mid-aggregation.
        std::atomic_bool cancel{false};
        int calls = 0;
        QueryControl control;
        control.cancel = &cancel;
        control.progress = [&] {
            if (++calls == 3)
                cancel = true;
            return true;
        };
        CollectingSink sink;
        outcome = engine.run(QStringLiteral("select name, count(*), sum(self_time) from slice group by name"),
                             sink, control);
        QVERIFY(!outcome.ok);
        QVERIFY(outcome.cancelled);
        // (Groups stream as they complete: some may have arrived, never all of them.)
        QVERIFY(static_cast<std::int64_t>(sink.rows.size()) <
                scalar(engine, QStringLiteral("select count(distinct name) from slice")));
        // Cancelled between streamed rows.
        cancel = false;
        calls = 0;
        CountingSink partial;
        outcome = engine.run(QStringLiteral("select id from slice"), partial, control);
        QVERIFY(outcome.cancelled);
        QVERIFY(partial.rows < counting.rows);
        // The engine works again afterwards.
        QCOMPARE(scalar(engine, QStringLiteral("select count(*) from slice where id < 10")), 10);
    }

    // The exported database, opened with the plain sqlite3 API, holds the same rows.
    void exportHoldsTheSameTables()
    {
        QueryEngine engine(*m_folder);
        QString error;
        const std::optional<QByteArray> bytes = engine.exportDatabase(&error);
        QVERIFY2(bytes, qPrintable(error));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("export.db"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(*bytes);
        file.close();
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        auto exported = [db](const QString &sql) {
            sqlite3_stmt *statement = nullptr;
            std::int64_t value = -1;
            if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &statement, nullptr) == SQLITE_OK &&
                sqlite3_step(statement) == SQLITE_ROW)
                value = sqlite3_column_int64(statement, 0);
            sqlite3_finalize(statement);
            return value;
        };
        for (const QueryTableInfo &table : engine.tables()) {
            QCOMPARE(exported(QStringLiteral("select count(*) from %1").arg(table.name)),
                     scalar(engine, QStringLiteral("select count(*) from %1").arg(table.name)));
        }
        QVERIFY(exported(QStringLiteral("select count(*) from slice")) > 1000);
        QCOMPARE(exported(QStringLiteral("select sum(dur) from slice")),
                 scalar(engine, QStringLiteral("select sum(dur) from slice")));
        QCOMPARE(exported(QStringLiteral("select sum(length(args)) from slice")),
                 scalar(engine, QStringLiteral("select sum(length(args)) from slice")));
        QCOMPARE(exported(QStringLiteral("select count(*) from kernel k join slice s on s.id = k.slice_id")),
                 scalar(engine, QStringLiteral("select count(*) from kernel")));
        sqlite3_close(db);
    }

private:
    std::unique_ptr<TraceModel> m_trace;
    std::unique_ptr<TraceModel> m_folder;
};

QTEST_GUILESS_MAIN(TestQuery)
#include "tst_query.moc"
