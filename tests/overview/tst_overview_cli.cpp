// `ascend-timeline --overview PATH [--json]` (app/OverviewCommand.cpp) run as a user would, its JSON checked
// against the Overview model built in this process from the same input: one rank, the alexnet two-rank folder
// and the Qwen3 cluster; and the text and bad input.
#include "AppProcess.h"
#include "OverviewTestSupport.h"
#include "TestPaths.h"

#include "overview/OverviewJson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace at;
using namespace at::test;

class TstOverviewCli : public QObject
{
    Q_OBJECT

    static QJsonObject overviewJson(const QString &path)
    {
        const at_test::AppRun r =
            at_test::runApp({QStringLiteral("--overview"), QStringLiteral("--json"), path});
        if (r.exitCode != 0) {
            qWarning().noquote() << r.err;
            return {};
        }
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        if (error.error != QJsonParseError::NoError)
            qWarning().noquote() << error.errorString();
        return doc.object();
    }

    static qint64 ns(const QJsonValue &us) { return std::llround(us.toDouble() * 1000.0); }

    static void compareStep(const QJsonObject &json, const OverviewStep &step)
    {
        QCOMPARE(json.value(QStringLiteral("label")).toString(), step.label);
        QCOMPARE(json.value(QStringLiteral("source")).toString(), overviewPartsSourceId(step.source));
        QCOMPARE(ns(json.value(QStringLiteral("step_us"))), step.total());
        QCOMPARE(json.value(QStringLiteral("largest_part")).toString(), overviewPartId(step.largestPart()));
        const QJsonObject contents = json.value(QStringLiteral("contents")).toObject();
        for (const OverviewPartValue &p : step.parts) {
            const QJsonValue value = json.value(overviewPartId(p.part) + QStringLiteral("_us"));
            if (!p.present) {
                QVERIFY(value.isNull());
                continue;
            }
            QCOMPARE(ns(value), p.time);
            const QJsonArray items = contents.value(overviewPartId(p.part)).toArray();
            QCOMPARE(items.size(), qsizetype(p.items.size()));
            qint64 sum = 0;
            for (qsizetype i = 0; i < items.size(); ++i) {
                const QJsonObject item = items[i].toObject();
                QCOMPARE(item.value(QStringLiteral("kind")).toString(),
                         overviewItemKindId(p.items[static_cast<std::size_t>(i)].kind));
                QCOMPARE(ns(item.value(QStringLiteral("time_us"))),
                         p.items[static_cast<std::size_t>(i)].time);
                sum += ns(item.value(QStringLiteral("time_us")));
            }
            QCOMPARE(sum, p.time); // the printed contents add up to the printed part
        }
    }

    static void compareWithModel(const QJsonObject &root, const Overview &overview)
    {
        QCOMPARE(root.value(QStringLiteral("scope")).toString(), overviewScopeId(overview.scope));
        const QJsonArray ranks = root.value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.size(), qsizetype(overview.ranks.size()));
        for (qsizetype r = 0; r < ranks.size(); ++r) {
            const QJsonObject rank = ranks[r].toObject();
            const OverviewRank &expected = overview.ranks[static_cast<std::size_t>(r)];
            QCOMPARE(rank.value(QStringLiteral("rank")).toInt(), expected.rank);
            const QJsonArray steps = rank.value(QStringLiteral("steps")).toArray();
            QCOMPARE(steps.size(), qsizetype(expected.steps.size()));
            QVERIFY(!steps.isEmpty());
            for (qsizetype s = 0; s < steps.size(); ++s) {
                compareStep(steps[s].toObject(), expected.steps[static_cast<std::size_t>(s)]);
                QCOMPARE(steps[s].toObject().value(QStringLiteral("step")).toInteger(),
                         expected.steps[static_cast<std::size_t>(s)].number);
            }
            QVERIFY(expected.mean);
            const QJsonObject mean = rank.value(QStringLiteral("mean")).toObject();
            QCOMPARE(mean.value(QStringLiteral("steps")).toInt(), int(expected.steps.size()));
            compareStep(mean.value(QStringLiteral("breakdown")).toObject(), *expected.mean);
            const QJsonValue peak = rank.value(QStringLiteral("memory_peak"));
            QCOMPARE(peak.isNull(), !expected.memoryPeak.has_value());
            if (expected.memoryPeak) {
                QCOMPARE(peak.toObject().value(QStringLiteral("bytes")).toInteger(),
                         expected.memoryPeak->bytes);
                QCOMPARE(peak.toObject().value(QStringLiteral("component")).toString(),
                         expected.memoryPeak->component);
            }
        }
        const QJsonArray findings = root.value(QStringLiteral("findings")).toArray();
        QCOMPARE(findings.size(), qsizetype(overview.findings.size()));
        for (qsizetype i = 0; i < findings.size(); ++i) {
            const QJsonObject f = findings[i].toObject();
            const OverviewFinding &expected = overview.findings[static_cast<std::size_t>(i)];
            QCOMPARE(f.value(QStringLiteral("check")).toString(), expected.check);
            QCOMPARE(f.value(QStringLiteral("part")).toString(), stepPartId(expected.part));
            QCOMPARE(f.value(QStringLiteral("rank")).isNull(), expected.rank < 0);
            if (expected.rank >= 0)
                QCOMPARE(f.value(QStringLiteral("rank")).toInt(), expected.rank);
            QCOMPARE(ns(f.value(QStringLiteral("time_us"))), expected.time);
            QVERIFY(std::abs(f.value(QStringLiteral("share_of_part")).toDouble() - expected.shareOfPart) <
                    1e-9);
            QVERIFY(std::abs(f.value(QStringLiteral("share_of_step")).toDouble() - expected.shareOfStep) <
                    1e-9);
        }
    }

    static Overview modelOverview(const QString &path, const QString &clusterRoot)
    {
        const auto model = loadOrFail(path);
        if (!model)
            return {};
        const cluster::ClusterModel data = cluster::readCluster(clusterRoot);
        OverviewInputs inputs;
        inputs.model = model.get();
        inputs.cluster = data.ranks.empty() ? nullptr : &data;
        return buildOverview(inputs);
    }

private slots:
    void oneRank()
    {
        const QString folder = alexnetLevel(QStringLiteral("level1/rank0_ascend_pt"));
        const QJsonObject root = overviewJson(folder);
        QVERIFY(!root.isEmpty());
        const Overview overview = modelOverview(folder, folder);
        QCOMPARE(overview.scope, Overview::Scope::SingleRank);
        compareWithModel(root, overview);
        // The step equals the CSV: communication not overlapped is 101963.203 µs of the file.
        const QJsonObject step =
            root.value(QStringLiteral("ranks"))[0].toObject().value(QStringLiteral("steps"))[0].toObject();
        const std::vector<CsvStepRow> rows =
            readStepTraceCsv(folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
        QCOMPARE(ns(step.value(QStringLiteral("communication_not_overlapped_us"))),
                 expectedNs(rows.front().cells.at(QStringLiteral("Communication(Not Overlapped)"))));
    }

    void twoRanks()
    {
        const QString folder = alexnetLevel(QStringLiteral("level1"));
        const QJsonObject root = overviewJson(folder);
        QVERIFY(!root.isEmpty());
        const Overview overview = modelOverview(folder, folder);
        QCOMPARE(overview.scope, Overview::Scope::SeveralRanks);
        QCOMPARE(overview.ranks.size(), std::size_t(2));
        compareWithModel(root, overview);
    }

    void qwen3Cluster()
    {
        const QJsonObject root = overviewJson(at::test::qwen3Cluster());
        QVERIFY(!root.isEmpty());
        const cluster::ClusterModel data = cluster::readCluster(at::test::qwen3Cluster());
        OverviewInputs inputs;
        inputs.cluster = &data;
        const Overview overview = buildOverview(inputs);
        QCOMPARE(overview.scope, Overview::Scope::Cluster);
        compareWithModel(root, overview);
        // Every rank's step 13 equals its step_trace_time.csv.
        for (const QJsonValue &rank : root.value(QStringLiteral("ranks")).toArray()) {
            const int id = rank.toObject().value(QStringLiteral("rank")).toInt();
            const std::vector<CsvStepRow> rows = readStepTraceCsv(
                at::test::qwen3Cluster() +
                QStringLiteral("/rank_%1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv").arg(id));
            const QJsonObject step = rank.toObject().value(QStringLiteral("steps"))[0].toObject();
            QCOMPARE(ns(step.value(QStringLiteral("computing_us"))),
                     expectedNs(rows.front().cells.at(QStringLiteral("Computing"))));
            QCOMPARE(ns(step.value(QStringLiteral("free_us"))),
                     expectedNs(rows.front().cells.at(QStringLiteral("Free"))));
        }
    }

    void textIsReadable()
    {
        const at_test::AppRun r = at_test::runApp(
            {QStringLiteral("--overview"), alexnetLevel(QStringLiteral("level1/rank0_ascend_pt"))});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QStringLiteral("ProfilerStep#50")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("hcom_allReduce")));
        QVERIFY(text.contains(QStringLiteral("Communication (not overlapped)")));
        QVERIFY(text.contains(QStringLiteral("101.963"))); // ms, the file's 101963.203 µs
        QVERIFY(!text.contains(QStringLiteral("e+")));
    }

    void badInput()
    {
        // A path that does not exist: exit 1, the error names it.
        const at_test::AppRun missing =
            at_test::runApp({QStringLiteral("--overview"), QStringLiteral("/nonexistent/overview/input")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains(QStringLiteral("/nonexistent/overview/input")));
        // A trace without steps or kernels: an overview saying so.
        const QJsonObject root = overviewJson((at::test::testDataDir() + QStringLiteral("/json/flows.json")));
        QCOMPARE(root.value(QStringLiteral("ranks")).toArray().size(), 1);
        const QJsonObject rank = root.value(QStringLiteral("ranks"))[0].toObject();
        QVERIFY(rank.value(QStringLiteral("steps")).toArray().isEmpty());
        QVERIFY(rank.value(QStringLiteral("mean")).isNull());
        QVERIFY(!rank.value(QStringLiteral("missing")).toArray().isEmpty());
        QVERIFY(!root.value(QStringLiteral("missing")).toArray().isEmpty());
        // Two paths: a usage error.
        QCOMPARE(at_test::runApp({QStringLiteral("--overview"), QStringLiteral("a"), QStringLiteral("b")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TstOverviewCli)
#include "tst_overview_cli.moc"
