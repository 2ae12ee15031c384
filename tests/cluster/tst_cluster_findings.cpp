// One judgement, four views: a cluster's findings are made once in core (clusterFindings, the insight checks)
// and the cluster page, `--cluster`, `--cluster --json`, the Insights checks and `--advise --json` show the
// same checks, titles, explanations, fixes, times at stake and occurrences, on the real Qwen3 PP2 cluster
// and on the synthetic cluster (a slow rank, a slow link, waits).
#include "AppProcess.h"
#include "ExactText.h"
#include "FindingText.h"
#include "InsightChecks.h"
#include "SyntheticCluster.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <set>

using namespace at;
using namespace at::test;

class TstClusterFindings : public QObject
{
    Q_OBJECT
    QTemporaryDir m_synthetic;

    static QJsonArray jsonFindings(const QStringList &args)
    {
        const at_test::AppRun r = at_test::runApp(args, 60000);
        if (r.exitCode != 0)
            return {};
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        return error.error == QJsonParseError::NoError ? root.value(QStringLiteral("findings")).toArray()
                                                       : QJsonArray();
    }

    // A finding of the JSON documents against the one made in core: every field the writer writes.
    static void compareJson(const QJsonObject &json, const Finding &f, const InsightContext &context)
    {
        QCOMPARE(json.value(QStringLiteral("check")).toString(), f.check);
        QCOMPARE(json.value(QStringLiteral("title")).toString(), f.title);
        QCOMPARE(json.value(QStringLiteral("severity")).toString(), severityId(f.severity));
        QCOMPARE(json.value(QStringLiteral("advice")).toString(), f.explanation + QLatin1Char(' ') + f.fix);
        QCOMPARE(std::llround(json.value(QStringLiteral("time_at_stake_us")).toDouble() * 1000.0),
                 f.timeAtStake);
        const QJsonArray occurrences = json.value(QStringLiteral("occurrences")).toArray();
        QCOMPARE(occurrences.size(), qsizetype(f.occurrences.size()));
        for (qsizetype i = 0; i < occurrences.size(); ++i) {
            const QJsonObject o = occurrences[i].toObject();
            const FindingOccurrence &expected = f.occurrences[static_cast<std::size_t>(i)];
            QCOMPARE(o.value(QStringLiteral("name")).toString(), expected.name);
            QCOMPARE(o.value(QStringLiteral("rank")).toInt(), context.rankOf(expected));
            QCOMPARE(std::llround(o.value(QStringLiteral("duration_us")).toDouble() * 1000.0),
                     expected.duration);
        }
        QCOMPARE(json.value(QStringLiteral("data"))
                     .toObject()
                     .value(QStringLiteral("percent_of_step_time"))
                     .toDouble(),
                 f.stepPercent);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_synthetic.isValid());
        writeSyntheticCluster(m_synthetic.path());
    }

    void sameFindingsEverywhere_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("checks"); // the cluster checks expected, in the page's order
        QTest::newRow("qwen3") << qwen3Cluster()
                               << QStringList{QStringLiteral("stage_imbalance"), QStringLiteral("plain_rule"),
                                              QStringLiteral("collective_wait")};
        QTest::newRow("synthetic") << m_synthetic.path()
                                   << QStringList{QStringLiteral("slow_rank"), QStringLiteral("plain_rule"),
                                                  QStringLiteral("slow_link"),
                                                  QStringLiteral("collective_wait")};
    }

    void sameFindingsEverywhere()
    {
        QFETCH(QString, path);
        QFETCH(QStringList, checks);
        auto model = std::make_shared<cluster::ClusterModel>(cluster::readCluster(path));
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, model.get());
        const std::vector<Finding> findings = clusterFindings(context);
        QStringList ids;
        for (const Finding &f : findings) {
            ids << f.check;
            QVERIFY(!f.title.isEmpty() && !f.explanation.isEmpty() && !f.fix.isEmpty() &&
                    !f.occurrences.empty());
        }
        QCOMPARE(ids, checks);

        // The page: per finding its heading, then the time at stake, explanation and fix, then its
        // occurrences.
        ClusterView view;
        view.setModel(model);
        QStringList expectedItems;
        for (const Finding &f : findings) {
            expectedItems << findingHeading(f)
                          << QStringList{timeAtStakeText(f), f.explanation, fixText(f)}.join(
                                 QLatin1Char('\n'));
            for (const FindingOccurrence &o : f.occurrences)
                expectedItems << QStringLiteral("    ") + occurrenceText(context, o);
        }
        QStringList pageItems;
        for (int i = 0; i < view.findings()->count(); ++i)
            pageItems << view.findings()->item(i)->text();
        QCOMPARE(pageItems.mid(0, expectedItems.size()), expectedItems);

        // --cluster: the same blocks, numbered, with every occurrence.
        const at_test::AppRun text =
            at_test::runApp({QStringLiteral("--cluster"), path, QStringLiteral("--no-cache")}, 60000);
        QCOMPARE(text.exitCode, 0);
        QString block = QStringLiteral("findings:\n");
        int number = 0;
        for (const Finding &f : findings)
            block += findingText(context, f, ++number, f.occurrences.size());
        QVERIFY2(QString::fromUtf8(text.out).contains(block), text.out.constData());

        // --cluster --json: the same findings through the same writer.
        const QJsonArray json = jsonFindings(
            {QStringLiteral("--cluster"), path, QStringLiteral("--json"), QStringLiteral("--no-cache")});
        QCOMPARE(json.size(), qsizetype(findings.size()));
        for (std::size_t i = 0; i < findings.size(); ++i)
            compareJson(json[static_cast<qsizetype>(i)].toObject(), findings[i], context);

        // The Insights panel's and --advise's checks: the registered cluster checks give the very same
        // findings.
        const std::vector<Finding> insights = runInsightChecks(noTimeline, nullptr, model.get());
        std::set<QString> registered;
        for (const InsightCheck &c : insightChecks())
            registered.insert(QString::fromLatin1(c.id));
        int shared = 0;
        for (const Finding &f : findings) {
            const bool isCheck = registered.count(f.check) > 0;
            const auto same = std::find_if(insights.begin(), insights.end(),
                                           [&](const Finding &g) { return g.check == f.check; });
            QCOMPARE(same != insights.end(), isCheck);
            if (!isCheck)
                continue;
            ++shared;
            QCOMPARE(same->title, f.title);
            QCOMPARE(same->explanation, f.explanation);
            QCOMPARE(same->fix, f.fix);
            QCOMPARE(same->timeAtStake, f.timeAtStake);
            QCOMPARE(same->stepPercent, f.stepPercent);
            QCOMPARE(same->severity, f.severity);
            QCOMPARE(findingText(context, *same, 1, 5), findingText(context, f, 1, 5));
        }
        QVERIFY(shared > 0);

        // --advise --json on the cluster folder (summary files only): the same words and numbers.
        const QJsonArray advise = jsonFindings(
            {QStringLiteral("--advise"), path, QStringLiteral("--json"), QStringLiteral("--no-cache")});
        QVERIFY(!advise.isEmpty());
        int matched = 0;
        for (const QJsonValue &value : advise) {
            const QJsonObject a = value.toObject();
            for (const Finding &f : findings)
                if (f.check == a.value(QStringLiteral("check")).toString()) {
                    compareJson(a, f, context);
                    ++matched;
                }
        }
        QCOMPARE(matched, shared);
    }
};

QTEST_MAIN(TstClusterFindings)
#include "tst_cluster_findings.moc"
