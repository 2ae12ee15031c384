// Numbers on the one formatter (issue #28, widgets/NumberFormat): the Insights panel, the Collection panel
// and the cluster page (rank table, heat maps, findings, the matrix caption) on the real samples through the
// real MainWindow: no exponent, no float artefact (more than three decimals), no long run of digits without
// thousands separators, and a unit on every time.

#include "AppTestSupport.h"
#include "CollectionPanel.h"
#include "InsightsPanel.h"
#include "OverviewPage.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterView.h"
#include "overview/Overview.h"

#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace at;
using namespace at::test;

namespace {

QString rank0Folder()
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
}

QString qwen3Cluster()
{
    return samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
}

// What is wrong with a shown number, or empty: an exponent, more than three decimals, five or more digits
// in a row without a separator (a count or a time that is not grouped).
QString numberProblem(const QString &text)
{
    static const QRegularExpression exponent(QStringLiteral("\\d[eE][+-]\\d"));
    static const QRegularExpression longDecimals(QStringLiteral("\\d[.,]\\d{4,}"));
    static const QRegularExpression ungrouped(QStringLiteral("(?<![\\w.,])\\d{5,}(?![\\w])"));
    if (exponent.match(text).hasMatch())
        return QStringLiteral("exponent");
    if (longDecimals.match(text).hasMatch())
        return QStringLiteral("more than 3 decimals");
    if (ungrouped.match(text).hasMatch())
        return QStringLiteral("digits without thousands separators");
    return {};
}

// A duration cell: a number and its unit.
bool isDurationText(const QString &text)
{
    static const QRegularExpression duration(QStringLiteral("^-?[\\d,]+(\\.\\d{1,3})? (ns|µs|ms|s)$"));
    return duration.match(text).hasMatch();
}

} // namespace

class TestNumberWording : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { useScratchSettings(m_settings.path()); }

    // The Insights panel: the time column a duration with its unit, the share a percentage, occurrences'
    // durations and starts on the formatter; the panel and the Overview show the same findings object.
    void insightsPanel()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        auto *panel = window.findChild<InsightsPanel *>();
        QVERIFY(panel);
        const int runsBefore = panel->runs();
        QVERIFY(openAndWait(window, rank0Folder()));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && !panel->findings().empty(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.overviewIsReady(), 30000);
        // One run of the checks for the panel and the Overview page: the page holds the panel's findings.
        QCOMPARE(panel->runs() - runsBefore, 1);
        QVERIFY(panel->result());
        const Overview *overview = window.overviewPage()->overview();
        QVERIFY(overview && overview->sourceFindings);
        QCOMPARE(overview->sourceFindings.get(), panel->result()->findings.get());
        QCOMPARE(overview->findings.size(), panel->findings().size());

        QTreeWidget *tree = panel->tree();
        int durations = 0;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            QTreeWidgetItem *row = tree->topLevelItem(i);
            const Finding &f = panel->findings()[static_cast<std::size_t>(i)];
            if (f.timeAtStake > 0) {
                QVERIFY2(isDurationText(row->text(2)), qPrintable(row->text(2)));
                ++durations;
            }
            // A finding that measures no time has no share either: "—" (InsightsPanel::noTime).
            QVERIFY2(f.timeAtStake > 0 ? row->text(3).endsWith(QLatin1Char('%'))
                                       : row->text(3) == InsightsPanel::noTime(),
                     qPrintable(row->text(3)));
            for (int c = 1; c < 4; ++c)
                QVERIFY2(numberProblem(row->text(c)).isEmpty(), qPrintable(row->text(c)));
            for (int k = 0; k < row->childCount(); ++k) {
                QTreeWidgetItem *child = row->child(k);
                QVERIFY2(isDurationText(child->text(2)), qPrintable(child->text(2)));
                for (int c = 1; c < 4; ++c)
                    QVERIFY2(numberProblem(child->text(c)).isEmpty(), qPrintable(child->text(c)));
            }
        }
        QVERIFY(durations >= 5);
    }

    // The Collection panel: configuration values that are numbers read as the window's numbers.
    void collectionPanel()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openAndWait(window, rank0Folder()));
        auto *panel = window.findChild<CollectionPanel *>();
        QVERIFY(panel);
        static const QRegularExpression numeric(QStringLiteral("^-?[\\d,]+(\\.\\d+)?$"));
        int numbers = 0;
        for (const QString &line : panel->text().split(QLatin1Char('\n'))) {
            const QString value = line.section(QStringLiteral(": "), 1);
            if (!numeric.match(value).hasMatch())
                continue;
            ++numbers;
            QVERIFY2(numberProblem(value).isEmpty(), qPrintable(line));
        }
        QVERIFY(numbers >= 1); // the rank at least
    }

    // The cluster page of the Qwen3 cluster: the rank table's times and peaks grouped, the heat maps' cells
    // and scales on the formatter, the matrix caption says what a cell and its colour mean, with the unit;
    // the findings' occurrences read in the headline's unit. Its Overview holds the panel's findings too.
    void clusterPage()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        auto *panel = window.findChild<InsightsPanel *>();
        window.openPath(qwen3Cluster());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && panel->result(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.overviewIsReady(), 30000);
        QCOMPARE(window.overviewPage()->overview()->sourceFindings.get(), panel->result()->findings.get());
        window.showClusterPage();
        ClusterView *view = window.clusterView();
        QVERIFY(view);
        QAbstractItemModel *rows = view->rankTable()->model();
        QCOMPARE(rows->index(0, 4).data().toString(), QStringLiteral("231.290"));
        for (int r = 0; r < rows->rowCount(); ++r)
            for (int c = 0; c < rows->columnCount(); ++c) {
                const QString text = rows->index(r, c).data().toString();
                QVERIFY2(numberProblem(text).isEmpty(), qPrintable(text));
            }
        for (ClusterHeatMap *map : {view->stepHeatMap(), view->matrixHeatMap()}) {
            QVERIFY2(numberProblem(map->scaleCaption()).isEmpty(), qPrintable(map->scaleCaption()));
            for (int r = 0; r < map->rowCount(); ++r)
                for (int c = 0; c < map->columnCount(); ++c)
                    QVERIFY2(numberProblem(map->cellText(r, c)).isEmpty(), qPrintable(map->cellText(r, c)));
        }
        const auto *caption = view->findChild<QLabel *>(QStringLiteral("MatrixTitle"));
        QVERIFY(caption);
        QVERIFY2(caption->text().contains(QStringLiteral("each cell is the bandwidth in GB/s")) &&
                     caption->text().contains(QStringLiteral("colour")),
                 qPrintable(caption->text()));
        bool stageLine = false;
        for (int i = 0; i < view->findings()->count(); ++i) {
            const QString text = view->findings()->item(i)->text();
            // Occurrence lines carry exact absolute starts ("at 1764246877082702.440 us"); the rest not.
            if (!text.contains(QStringLiteral(" at ")))
                QVERIFY2(numberProblem(text).isEmpty(), qPrintable(text));
            stageLine = stageLine || text.endsWith(QStringLiteral("for 169.693 ms"));
        }
        QVERIFY(stageLine);
    }

    // A finding left with no time of its own is not listed; the panel's status line names it. The msprof
    // database sample: its one synchronisation gap lies outside the Free time.
    void alsoCheckedLine()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        auto *panel = window.findChild<InsightsPanel *>();
        QVERIFY(openAndWait(window, samplePath(QStringLiteral(
                                        "msinsight_msprof_db_and_misc/server/src/test/test_data/full_db"))));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing() && panel->result(), 30000);
        for (const Finding &f : panel->findings())
            QVERIFY(f.check != QLatin1String("synchronize"));
        QCOMPARE(panel->result()->withoutTime.size(), std::size_t(1));
        bool named = false;
        for (const QLabel *label : panel->findChildren<QLabel *>())
            named = named || label->text().endsWith(QStringLiteral("synchronize (rank 0)."));
        QVERIFY(named);
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestNumberWording)
#include "tst_number_wording.moc"
