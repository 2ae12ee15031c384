// `ascend-timeline --cluster PATH [--json]`, run as a user would: the real binary in a child process.
#include "AppProcess.h"
#include "SyntheticCluster.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace at::test;

class TstClusterCli : public QObject
{
    Q_OBJECT

    using Run = at_test::AppRun;
    static Run run(const QStringList &args) { return at_test::runApp(args, 60000); }

private slots:
    // Every rank with its device, stage and the step_trace_time.csv values as exact µs decimals.
    void qwen3Json()
    {
        const Run r = run({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonArray ranks = root[QStringLiteral("ranks")].toArray();
        QCOMPARE(ranks.size(), 4);
        const int devices[] = {0, 1, 4, 5};
        const int stages[] = {0, 0, 1, 1};
        for (int i = 0; i < 4; ++i) {
            const QJsonObject rank = ranks[i].toObject();
            QCOMPARE(rank[QStringLiteral("rank")].toInt(), i);
            QCOMPARE(rank[QStringLiteral("device")].toInt(), devices[i]);
            QCOMPARE(rank[QStringLiteral("stage")].toInt(), stages[i]);
            const QJsonObject step = rank[QStringLiteral("steps")].toArray().first().toObject();
            QCOMPARE(step[QStringLiteral("step")].toInt(), 13);
            QCOMPARE(step[QStringLiteral("source")].toString(), QStringLiteral("step_trace_time.csv"));
            const auto csv =
                readStepTraceCsvIndependently(rank[QStringLiteral("folder")].toString() +
                                              QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
            auto row = csv.front();
            const std::pair<const char *, const char *> columns[] = {
                {"computing_us", "Computing"},
                {"communication_not_overlapped_us", "Communication(Not Overlapped)"},
                {"overlapped_us", "Overlapped"},
                {"communication_us", "Communication"},
                {"free_us", "Free"},
                {"bubble_us", "Bubble"},
                {"preparing_us", "Preparing"},
                {"stage_us", "Stage"}};
            for (const auto &[json, column] : columns)
                QCOMPARE(std::llround(step[QLatin1String(json)].toDouble() * 1000.0),
                         row[QLatin1String(column)]);
        }
        // Exact decimals in the text (not 231290.09999999995, not 231290.100000001).
        QVERIFY(r.out.contains("\"computing_us\":231290.1,"));
        QVERIFY(r.out.contains("\"stage_us\":810022.25,"));
        QVERIFY(root[QStringLiteral("slow_ranks")].toArray().isEmpty());
        const QJsonArray imbalance = root[QStringLiteral("stage_imbalance")].toArray();
        QCOMPARE(imbalance.size(), 1);
        QCOMPARE(imbalance[0].toObject()[QStringLiteral("heavier_stage")].toInt(), 1);
        QCOMPARE(root[QStringLiteral("plain_rule")].toArray().size(), 2);
        QVERIFY(root[QStringLiteral("slow_links")].toArray().isEmpty());
        QVERIFY(!root[QStringLiteral("waits")].toArray().isEmpty());
    }

    void syntheticJsonNamesTheSlowRankAndLink()
    {
        QTemporaryDir dir;
        writeSyntheticCluster(dir.path());
        const Run r = run({QStringLiteral("--cluster"), QStringLiteral("--json"), dir.path()});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        const QJsonArray slow = root[QStringLiteral("slow_ranks")].toArray();
        QCOMPARE(slow.size(), 1);
        QCOMPARE(slow[0].toObject()[QStringLiteral("rank")].toInt(), 2);
        QCOMPARE(slow[0].toObject()[QStringLiteral("step")].toInt(), 1);
        QCOMPARE(slow[0].toObject()[QStringLiteral("dimension")].toString(), QStringLiteral("computing"));
        QVERIFY(r.out.contains("\"gap_us\":30000.25,"));
        const QJsonArray links = root[QStringLiteral("slow_links")].toArray();
        QCOMPARE(links.size(), 1);
        QCOMPARE(links[0].toObject()[QStringLiteral("src")].toInt(), 1);
        QCOMPARE(links[0].toObject()[QStringLiteral("dst")].toInt(), 2);
        QCOMPARE(links[0].toObject()[QStringLiteral("transport")].toString(), QStringLiteral("HCCS"));
        QCOMPARE(links[0].toObject()[QStringLiteral("bandwidth_gbps")].toDouble(), 8.0);
        QCOMPARE(links[0].toObject()[QStringLiteral("median_gbps")].toDouble(), 20.0);
        const QJsonArray waits = root[QStringLiteral("waits")].toArray();
        QCOMPARE(waits.size(), 1);
        QCOMPARE(waits[0].toObject()[QStringLiteral("waited_for")].toInt(), 2);
    }

    void textAndErrors()
    {
        const Run text = run({QStringLiteral("--cluster"), alexnetTextCluster()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("(2 ranks)"));
        QVERIFY(text.out.contains("step_trace_time.csv"));
        QTemporaryDir empty;
        const Run none = run({QStringLiteral("--cluster"), empty.path()});
        QCOMPARE(none.exitCode, 1);
        QVERIFY(none.err.contains(empty.path()));
        QVERIFY(none.err.contains(QStringLiteral("no rank folder")));
        const Run noPath = run({QStringLiteral("--cluster")});
        QCOMPARE(noPath.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TstClusterCli)
#include "tst_cluster_cli.moc"
