// --query, --query-file, --sql-shell and --export-sqlite run as a user runs them (the real binary), on the
// real samples: the formats (integers exact), bad SQL, the shell on piped input, and where an export may go.
#include "AppProcess.h"
#include "TestPaths.h"
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <map>

using namespace at;
using at_test::runApp;

namespace {

const QString kLevel1Folder =
    QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt");

// Counts by name of the X events, read from the JSON text.
std::map<QString, std::int64_t> countsByName()
{
    QFile file(test::level1Rank0Trace());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    std::map<QString, std::int64_t> counts;
    for (const QJsonValue &v : QJsonDocument::fromJson(file.readAll()).array())
        if (v.toObject().value(QStringLiteral("ph")).toString() == QStringLiteral("X"))
            ++counts[v.toObject().value(QStringLiteral("name")).toString()];
    return counts;
}

// The absolute start (ns) of the first X event in the file, from its decimal text: a 16-digit integer that a
// double would round.
TimeNs firstAbsoluteStart()
{
    QFile file(test::level1Rank0Trace());
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QJsonArray events = QJsonDocument::fromJson(file.readAll()).array();
    TimeNs first = std::numeric_limits<TimeNs>::max();
    for (const QJsonValue &v : events)
        if (v.toObject().value(QStringLiteral("ph")).toString() == QStringLiteral("X"))
            first = std::min(
                first, parseMicrosToNs(v.toObject().value(QStringLiteral("ts")).toString().toStdString())
                           .value_or(first));
    return first;
}

} // namespace

class TestQueryCli : public QObject
{
    Q_OBJECT

private slots:
    void jsonHasExactIntegers()
    {
        const auto expected = countsByName();
        QVERIFY(!expected.empty());
        const auto run = runApp(
            {QStringLiteral("--query"),
             QStringLiteral("select name, count(*) as n, 9007199254740993 + 0 * count(*) as big from slice "
                            "group by name order by name"),
             test::level1Rank0Trace(), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject result = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(result.value(QStringLiteral("columns")).toArray(),
                 QJsonArray({QStringLiteral("name"), QStringLiteral("n"), QStringLiteral("big")}));
        const QJsonArray rows = result.value(QStringLiteral("rows")).toArray();
        QCOMPARE(static_cast<std::size_t>(rows.size()), expected.size());
        for (const QJsonValue &row : rows) {
            const QJsonArray r = row.toArray();
            QCOMPARE(static_cast<std::int64_t>(r[1].toInteger()), expected.at(r[0].toString()));
        }
        // 2^53 + 1 does not survive a double: the text carries every digit.
        QCOMPARE(run.out.count(", 9007199254740993]"), rows.size());
    }

    void csvHasAHeaderAndQuotes()
    {
        const auto run =
            runApp({QStringLiteral("--query"),
                    QStringLiteral("select 'a,b' as t, 9007199254740993 as i, 0.5 as r, null as n"),
                    test::level1Rank0Trace(), QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("t,i,r,n\n\"a,b\",9007199254740993,0.5,\n"));

        // To a file outside the data folder, and never inside it.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("counts.csv"));
        const auto written =
            runApp({QStringLiteral("--query"), QStringLiteral("select count(*) as slices from slice"),
                    test::level1Rank0Trace(), QStringLiteral("--csv"), out});
        QCOMPARE(written.exitCode, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("slices\n4384\n"));
    }

    void textTableAndQueryFile()
    {
        QTemporaryDir dir;
        const QString sqlFile = dir.filePath(QStringLiteral("q.sql"));
        QFile file(sqlFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "-- two statements\nselect count(*) as slices from slice;\nselect step, computing from step;\n");
        file.close();
        const auto run = runApp({QStringLiteral("--query-file"), sqlFile, test::samplePath(kLevel1Folder)});
        QCOMPARE(run.exitCode, 0);
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.contains(QStringLiteral("slices\n------\n")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("step  computing\n----  ---------\n  50    8873756\n1 row\n")),
                 qPrintable(out));
    }

    void badSqlExitsOneWithThePosition()
    {
        const auto run = runApp({QStringLiteral("--query"), QStringLiteral("select id,\n  nme from slice"),
                                 test::level1Rank0Trace()});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("line 2, column 3: no such column: nme")),
                 qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
        const auto syntax =
            runApp({QStringLiteral("--query"), QStringLiteral("selec 1"), test::level1Rank0Trace()});
        QCOMPARE(syntax.exitCode, 1);
        QVERIFY2(syntax.err.contains(QStringLiteral("syntax error")), qPrintable(syntax.err));
    }

    void shellReadsPipedInput()
    {
        QProcess process;
        process.start(at::test::appBinary(), {QStringLiteral("--sql-shell"), test::level1Rank0Trace()});
        QVERIFY(process.waitForStarted());
        process.write(".tables\n.schema flow\nselect count(*)\n  from slice;\n.mode csv\nselect 1 as one;\n"
                      "select nosuchcolumn;\n.history\n.quit\n");
        process.closeWriteChannel();
        QVERIFY(process.waitForFinished(60000));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("slice args thread process")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("CREATE TABLE flow(id INTEGER, category TEXT")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("    4384\n1 row\n")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("one\n1\n")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("no such column: nosuchcolumn")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("1  select count(*) from slice;")), qPrintable(out));
        QCOMPARE(process.exitCode(), 1); // one statement failed
    }

    void exportSqliteOutsideTheDataFolder()
    {
        const QString input = test::samplePath(kLevel1Folder);
        // Refused inside the data folder (nothing written), before anything is loaded.
        const QString inside = input + QStringLiteral("/ASCEND_PROFILER_OUTPUT/out.db");
        const auto refused = runApp({QStringLiteral("--export-sqlite"), inside, input});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(QStringLiteral("inside the data folder")), qPrintable(refused.err));
        QVERIFY(!QFile::exists(inside));

        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("profile.db"));
        const auto run = runApp({QStringLiteral("--export-sqlite"), out, input});
        QCOMPARE(run.exitCode, 0);
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(out.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        auto value = [db](const char *sql) {
            sqlite3_stmt *statement = nullptr;
            std::int64_t v = -1;
            if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK &&
                sqlite3_step(statement) == SQLITE_ROW)
                v = sqlite3_column_int64(statement, 0);
            sqlite3_finalize(statement);
            return v;
        };
        std::int64_t expectedSlices = 0;
        for (const auto &[name, count] : countsByName())
            expectedSlices += count;
        QVERIFY(value("select count(*) from slice") >= expectedSlices); // the folder adds no JSON slices
        QCOMPARE(value("select count(*) from slice where name = 'Node@launch'"),
                 countsByName().at(QStringLiteral("Node@launch")));
        QCOMPARE(value("select count(*) from kernel"), 191);
        QCOMPARE(value("select computing from step where step = 50"), 8873756);
        QCOMPARE(value("select min(ts) from slice") >= 0, true);
        QVERIFY(value("select count(*) from track") > 0);
        sqlite3_close(db);
        // An input is never overwritten, even from outside its folder: the trace file itself is refused.
        const auto overInput =
            runApp({QStringLiteral("--export-sqlite"), test::level1Rank0Trace(), test::level1Rank0Trace()});
        QVERIFY(overInput.exitCode != 0);
        QVERIFY(firstAbsoluteStart() > 0); // the input is still the JSON it was
    }
};

QTEST_GUILESS_MAIN(TestQueryCli)
#include "tst_query_cli.moc"
