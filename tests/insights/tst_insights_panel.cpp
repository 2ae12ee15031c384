// The Insights panel through the real MainWindow: findings arrive after the load, an occurrence
// selects its slice on the timeline, "Show all" asks for every occurrence and selects the first.

#include "AppTestSupport.h"
#include "InsightsPanel.h"
#include "OverviewPage.h"
#include "TestPaths.h"
#include "TimelineView.h"
#include "Translations.h"

#include <QDockWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <algorithm>

using namespace at;
using namespace at::test;

class TestInsightsPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { useScratchSettings(m_settings.path()); }

    void occurrenceSelectsSlice()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openAndWait(
            window, samplePath(QStringLiteral(
                        "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"))));
        auto *panel = window.findChild<InsightsPanel *>();
        QVERIFY(panel);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && !panel->findings().empty(), 30000);
        QTreeWidget *tree = panel->tree();
        QCOMPARE(tree->topLevelItemCount(), int(panel->findings().size()));

        // The fused-optimizer finding: its one occurrence is the Optimizer.step#SGD.step slice.
        QTreeWidgetItem *row = nullptr;
        std::size_t index = 0;
        for (std::size_t i = 0; i < panel->findings().size(); ++i) {
            if (panel->findings()[i].check == QLatin1String("affinity_optimizer")) {
                row = tree->topLevelItem(int(i));
                index = i;
            }
        }
        QVERIFY(row);
        QCOMPARE(row->childCount(), 1);
        const SliceRef sgd = panel->findings()[index].occurrences.front().slice;
        QCOMPARE(window.timeline()->model()->sliceName(sgd), QStringLiteral("Optimizer.step#SGD.step"));
        tree->setCurrentItem(row->child(0));
        QCOMPARE(window.timeline()->selectedSlice(), sgd);

        // "Show all" on the host-bound finding: every occurrence, and the first is selected.
        for (std::size_t i = 0; i < panel->findings().size(); ++i) {
            if (panel->findings()[i].check == QLatin1String("host_bound"))
                tree->setCurrentItem(tree->topLevelItem(int(i)));
        }
        const Finding *hostBound = nullptr;
        for (const Finding &f : panel->findings())
            hostBound = f.check == QLatin1String("host_bound") ? &f : hostBound;
        QVERIFY(hostBound);
        std::vector<SliceRef> requested;
        connect(panel, &InsightsPanel::occurrencesRequested, this,
                [&requested](const std::vector<SliceRef> &refs) { requested = refs; });
        QVERIFY(panel->showAllButton()->isEnabled());
        QTest::mouseClick(panel->showAllButton(), Qt::LeftButton);
        QCOMPARE(requested.size(), hostBound->occurrences.size());
        QCOMPARE(requested.front(), hostBound->occurrences.front().slice);
        QCOMPARE(window.timeline()->selectedSlice(), requested.front());
        // ... and the timeline outlines every one of them (its highlight list is sorted, without repeats).
        const std::vector<SliceRef> &outlined = window.timeline()->highlightedSlices();
        QVERIFY(!outlined.empty());
        QVERIFY(outlined.size() <= requested.size());
        for (const SliceRef ref : requested)
            QVERIFY(std::find(outlined.begin(), outlined.end(), ref) != outlined.end());

        // A check that counts occurrences and measures no time ("Launch delay outliers") shows no time:
        // "—" with a tooltip that says so, never "0 ns" or "0.0%"; its occurrences alike.
        const Finding *launchDelay = nullptr;
        int launchRow = -1;
        for (std::size_t i = 0; i < panel->findings().size(); ++i)
            if (panel->findings()[i].check == QLatin1String("launch_delay")) {
                launchDelay = &panel->findings()[i];
                launchRow = int(i);
            }
        QVERIFY(launchDelay);
        QCOMPARE(launchDelay->timeAtStake, TimeNs(0));
        const QTreeWidgetItem *launch = tree->topLevelItem(launchRow);
        for (int c : {2, 3}) {
            QCOMPARE(launch->text(c), QStringLiteral("—"));
            QCOMPARE(launch->toolTip(c), InsightsPanel::noTimeToolTip());
        }
        for (int o = 0; o < launch->childCount(); ++o)
            QVERIFY2(!launch->child(o)->text(2).startsWith(QLatin1String("0 ")),
                     qPrintable(launch->child(o)->text(2)));
        // The Overview's findings read the same.
        window.showOverviewPage();
        QTRY_VERIFY_WITH_TIMEOUT(window.overviewIsReady(), 30000);
        QTreeWidget *overview = window.overviewPage()->findings();
        bool seen = false;
        for (int i = 0; i < overview->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = overview->topLevelItem(i);
            if (!item->text(0).startsWith(QLatin1String("Launch delay")))
                continue;
            seen = true;
            QCOMPARE(item->text(2), QStringLiteral("—"));
            QCOMPARE(item->text(3), QStringLiteral("—"));
            QCOMPARE(item->toolTip(3), InsightsPanel::noTimeToolTip());
        }
        QVERIFY(seen);
        window.showTimelinePage();

        // Closing the trace empties the panel.
        window.closeTrace();
        QCOMPARE(tree->topLevelItemCount(), 0);
        QVERIFY(panel->findings().empty());
    }

    // The finding texts follow the UI language: computed in core, translated through the "Insights" context.
    void findingsInChinese()
    {
        QVERIFY(setUiLanguage(QStringLiteral("zh_CN")));
        {
            MainWindow window;
            window.resize(1600, 1000);
            window.show();
            QVERIFY(openAndWait(window,
                                samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/"
                                                          "text/level1/rank0_ascend_pt"))));
            auto *panel = window.findChild<InsightsPanel *>();
            QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && !panel->findings().empty(), 30000);
            QStringList titles;
            for (const Finding &f : panel->findings())
                titles << f.title;
            QVERIFY2(titles.contains(QStringLiteral("Python 优化器 SGD 有对应的 NPU 融合版本")),
                     qPrintable(titles.join(u'|')));
            QVERIFY(titles.contains(QStringLiteral("设备空闲：主机下发过慢")));
            if (qEnvironmentVariableIsSet("GRAB")) { // a screenshot for review: GRAB=/tmp/x.png
                for (QDockWidget *d : window.findChildren<QDockWidget *>())
                    if (d->widget() == panel) {
                        d->show();
                        d->raise();
                    }
                panel->tree()->setCurrentItem(panel->tree()->topLevelItem(1));
                panel->tree()->topLevelItem(1)->setExpanded(true);
                QTest::qWait(200);
                window.grab().save(qEnvironmentVariable("GRAB"));
                // The panel alone, large, on the dynamic-shape finding.
                for (std::size_t i = 0; i < panel->findings().size(); ++i)
                    if (panel->findings()[i].check == QLatin1String("dynamic_shape"))
                        panel->tree()->setCurrentItem(panel->tree()->topLevelItem(int(i)));
                panel->resize(1500, 450);
                QTest::qWait(100);
                panel->grab().save(qEnvironmentVariable("GRAB") + QStringLiteral(".panel.png"));
            }
        }
        QVERIFY(setUiLanguage(QStringLiteral("en")));
    }

    // QEvent::LanguageChange: the panel's own labels switch at once, and the findings (translated by
    // core when made) are made again in the new language.
    void liveRetranslation()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openAndWait(
            window, samplePath(QStringLiteral(
                        "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"))));
        auto *panel = window.findChild<InsightsPanel *>();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && !panel->findings().empty(), 30000);
        QCOMPARE(panel->showAllButton()->text(), QStringLiteral("Show all"));
        const auto titles = [panel] {
            QStringList out;
            for (const Finding &f : panel->findings())
                out << f.title;
            return out;
        };
        QVERIFY(titles().contains(QStringLiteral("Device idle: the host dispatches too slowly")));
        QVERIFY(setUiLanguage(QStringLiteral("zh_CN"))); // Qt posts QEvent::LanguageChange to every widget
        QTRY_COMPARE(panel->showAllButton()->text(), QStringLiteral("全部显示"));
        QCOMPARE(panel->tree()->headerItem()->text(0), QStringLiteral("问题 / 出现位置"));
        QTRY_VERIFY_WITH_TIMEOUT(
            !panel->isComputing() && titles().contains(QStringLiteral("设备空闲：主机下发过慢")), 30000);
        QCOMPARE(panel->tree()->topLevelItemCount(), int(panel->findings().size()));
        QVERIFY(setUiLanguage(QStringLiteral("en")));
        QTRY_COMPARE(panel->showAllButton()->text(), QStringLiteral("Show all"));
        QCOMPARE(panel->tree()->headerItem()->text(0), QStringLiteral("Finding / occurrence"));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && titles().contains(QStringLiteral(
                                                              "Device idle: the host dispatches too slowly")),
                                 30000);
    }

    // A cluster page (no timeline): opening the cluster folder hands the panel the cluster model, and it
    // runs the cluster and communication checks over the ranks' summary files. The
    // Qwen3 PP2 cluster's stage imbalance (169.693 ms) is listed with the rank it points at.
    void clusterPageFindings()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        auto *panel = window.findChild<InsightsPanel *>();
        // Ranks 1 and 3 have only summary files: the folder opens as the cluster page.
        window.openPath(samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2")));
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && !panel->findings().empty(), 30000);
        std::size_t index = panel->findings().size();
        for (std::size_t i = 0; i < panel->findings().size(); ++i)
            if (panel->findings()[i].check == QLatin1String("stage_imbalance"))
                index = i;
        QVERIFY(index < panel->findings().size());
        QTreeWidgetItem *row = panel->tree()->topLevelItem(int(index));
        QCOMPARE(row->text(0), QStringLiteral("Pipeline stages are unbalanced"));
        QCOMPARE(row->childCount(), 1);
        QCOMPARE(row->child(0)->text(1), QStringLiteral("rank 0"));
        QCOMPARE(row->child(0)->text(3), QString()); // a rank of the cluster, no time on a timeline
        // Opening a profile leaves the cluster mode.
        panel->setModel(nullptr);
        QVERIFY(panel->findings().empty());
    }

    // --advise --json on a rank folder reads its communication.json too: Qwen3 rank 0's small SDMA
    // packets, with exact decimal µs (start_us absolute, as communication.json writes it).
    void adviseJsonCommunication()
    {
        QProcess p;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(at::test::appBinary(),
                {QStringLiteral("--advise"), QStringLiteral("--json"),
                 samplePath(QStringLiteral(
                     "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray text = p.readAllStandardOutput();
        QVERIFY2(text.contains("\"check\": \"small_packets\""), text.left(2000).constData());
        QVERIFY(text.contains("\"time_at_stake_us\": 806.520,"));
        QVERIFY(text.contains("\"name\": \"hcom_allGather__612_7_1\", \"start_us\": 1764246877872978.740, "
                              "\"duration_us\": 541.580}"));
        QVERIFY(text.contains("\"check\": \"dynamic_shape\""));
        QVERIFY(!QJsonDocument::fromJson(text).isNull());
    }

    // --advise --json prints the same findings as the panel computes.
    void adviseJson()
    {
        QProcess p;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(at::test::appBinary(),
                {QStringLiteral("--advise"), QStringLiteral("--json"),
                 samplePath(QStringLiteral(
                     "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const QJsonArray findings = json.value(QStringLiteral("findings")).toArray();
        QVERIFY(!findings.isEmpty());
        QStringList checks;
        for (const QJsonValue &f : findings)
            checks << f.toObject().value(QStringLiteral("check")).toString();
        QVERIFY(checks.contains(QStringLiteral("host_bound")));
        QVERIFY(checks.contains(QStringLiteral("affinity_optimizer")));
        for (const QJsonValue &f : findings) {
            const QString severity = f.toObject().value(QStringLiteral("severity")).toString();
            QVERIFY(severity == QLatin1String("high") || severity == QLatin1String("medium") ||
                    severity == QLatin1String("low"));
        }
        // A path that does not exist: a clear error, non-zero exit.
        p.start(at::test::appBinary(), {QStringLiteral("--advise"), QStringLiteral("/nonexistent/profile")});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY(p.exitCode() != 0);
        QVERIFY(!p.readAllStandardError().isEmpty());
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestInsightsPanel)
#include "tst_insights_panel.moc"
