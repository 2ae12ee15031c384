// The Cluster page through the real MainWindow: a folder of rank folders opens as the cluster view (no
// timeline parsed), with its charts; activating a rank opens that rank's timeline in the window.
#include "AppTestSupport.h"
#include "MessageBar.h"
#include "Steps.h"
#include "SyntheticCluster.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QAbstractItemModel>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDirIterator>
#include <QListWidget>
#include <QPushButton>
#include <QStackedBarSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::test;

class TstClusterView : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

    static QStringList findingTexts(const ClusterView &view)
    {
        QStringList texts;
        for (int i = 0; i < view.findings()->count(); ++i)
            texts << view.findings()->item(i)->text();
        return texts;
    }

    // The two AlexNet text ranks (full timelines) plus a third rank with summary files only: a cluster
    // that opens as the cluster page (two timeline ranks alone still open as one timeline).
    static QString alexnetWithSummaryOnlyRank(const QTemporaryDir &dir)
    {
        for (const QString &rank : {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")}) {
            const QString from = alexnetTextCluster() + QLatin1Char('/') + rank;
            QDirIterator files(from, QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                const QString file = files.next();
                const QString to = dir.filePath(rank + file.mid(from.size()));
                QDir().mkpath(QFileInfo(to).absolutePath());
                if (!QFile::copy(file, to))
                    return {};
            }
        }
        const QString third = dir.filePath(QStringLiteral("rank2_ascend_pt"));
        writeTextFile(third + QStringLiteral("/profiler_info_2.json"), "{}");
        writeTextFile(
            third + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
            "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive),Preparing\n"
            "50,8873.756,101963.203,4028.675,105991.878,25744.05,136581.0,0,101963.203,17902.5\n");
        return dir.path();
    }

private slots:
    void initTestCase() { useScratchSettings(m_settings.path()); }

    void qwen3OpensAsCluster()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(qwen3Cluster());
        QVERIFY(!window.isLoading()); // summary files only: nothing parsed in the background
        QVERIFY(window.showsCluster());
        QVERIFY(!window.model());
        ClusterView *view = window.clusterView();
        QVERIFY(view);
        QCOMPARE(view->model()->ranks.size(), std::size_t(4));

        // The rank table: every rank, sortable by value.
        QAbstractItemModel *rows = view->rankTable()->model();
        QCOMPARE(rows->rowCount(), 4);
        QCOMPARE(rows->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Computing"));
        QCOMPARE(rows->index(2, 1).data().toString(), QStringLiteral("4")); // rank 2 runs on device 4
        QCOMPARE(rows->index(0, 4).data().toString(), QStringLiteral("231.290"));
        QCOMPARE(rows->index(1, 12).data().toString(), QStringLiteral("summary only"));
        view->rankTable()->sortByColumn(4, Qt::DescendingOrder);
        QCOMPARE(view->rankAtRow(0), 3); // 401.132 ms
        QCOMPARE(view->rankAtRow(3), 1); // 230.904 ms

        // The stacked bar chart: one bar per rank, computing / communication / free.
        QChart *chart = view->breakdownChart()->chart();
        QVERIFY(chart);
        QCOMPARE(chart->series().size(), 1);
        auto *series = qobject_cast<QStackedBarSeries *>(chart->series().first());
        QVERIFY(series);
        QCOMPARE(series->count(), 3);
        QCOMPARE(series->barSets().first()->count(), 4);
        QCOMPARE(series->barSets().first()->at(2), 400.44826);

        // Rank × step heat map and the communication matrix (global ranks 0..3).
        QCOMPARE(view->stepHeatMap()->rowCount(), 4);
        QCOMPARE(view->stepHeatMap()->columnCount(), 1);
        QVERIFY(view->stepHeatMap()->value(0, 0).has_value());
        QCOMPARE(view->matrixHeatMap()->rowCount(), 4);
        QVERIFY(view->matrixHeatMap()->value(0, 2).has_value());  // the pp link 0 → 2
        QVERIFY(!view->matrixHeatMap()->value(0, 0).has_value()); // on-chip copies are not drawn

        const QStringList findings = findingTexts(*view);
        QVERIFY(findings.first().contains(QStringLiteral("load imbalance between pipeline stages")));
        QVERIFY(findings.join(QLatin1Char('\n')).contains(QStringLiteral("msprof-analyze rule")));

        // A summary-only rank has no timeline: a message, no load.
        view->openRank(1);
        QVERIFY(!window.isLoading());
        QVERIFY(window.showsCluster());
        QVERIFY(window.messageBar()->isVisible());
    }

    // Double-clicking a rank's row opens that rank folder's timeline in the window (background load).
    void activatingARankOpensItsTimeline()
    {
        QTemporaryDir dir;
        const QString root = alexnetWithSummaryOnlyRank(dir);
        QVERIFY(!root.isEmpty());
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(root);
        QVERIFY(window.showsCluster());
        ClusterView *view = window.clusterView();
        QTableView *table = view->rankTable();
        QCOMPARE(table->model()->rowCount(), 3);
        QCOMPARE(view->rankAtRow(1), 1);
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        const QRect cell = table->visualRect(table->model()->index(1, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QVERIFY(window.isLoading());
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        QVERIFY(!window.showsCluster());
        QVERIFY(window.model());
        QCOMPARE(window.currentPath(), dir.filePath(QStringLiteral("rank1_ascend_pt")));
        // Only that rank was loaded: one source group.
        QCOMPARE(window.model()->groups().size(), std::size_t(1));
        QCOMPARE(window.model()->steps().size(), std::size_t(1));
    }

    // Two selected ranks open on one timeline in this window (a group each), no other window.
    void openingSeveralRanks()
    {
        QTemporaryDir dir;
        const QString root = alexnetWithSummaryOnlyRank(dir);
        MainWindow window;
        window.show();
        window.openPath(root);
        QVERIFY(window.showsCluster());
        ClusterView *view = window.clusterView();
        view->rankTable()->selectRow(0);
        view->rankTable()->selectionModel()->select(view->rankTable()->model()->index(1, 0),
                                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(view->selectedRanks(), (QList<int>{0, 1}));
        const QList<MainWindow *> before = MainWindow::openWindows();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        QTest::mouseClick(view->openSelectedButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        QCOMPARE(MainWindow::openWindows(), before);
        QCOMPARE(window.currentPath(), root);
        QCOMPARE(window.model()->groups().size(), std::size_t(2));
        QCOMPARE(window.loadedRankFolders(), (QStringList{dir.filePath(QStringLiteral("rank0_ascend_pt")),
                                                          dir.filePath(QStringLiteral("rank1_ascend_pt"))}));
    }

    // Two ranks that both have timelines still open as one timeline with a group per rank (as before).
    void fewTimelineRanksOpenAsOneTimeline()
    {
        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, alexnetTextCluster()));
        QVERIFY(!window.showsCluster());
        QCOMPARE(window.model()->groups().size(), std::size_t(2));
    }

    // The synthetic cluster: its one slow rank and one slow link appear in the findings.
    void syntheticFindings()
    {
        QTemporaryDir dir;
        writeSyntheticCluster(dir.path());
        ClusterView view;
        auto model = std::make_shared<cluster::ClusterModel>(cluster::readCluster(dir.path()));
        view.setModel(model);
        const QStringList findings = findingTexts(view);
        QCOMPARE(findings.filter(QStringLiteral("is slow in computing")).size(), 1);
        QVERIFY(findings.filter(QStringLiteral("is slow in computing"))
                    .first()
                    .contains(QStringLiteral("rank 2")));
        QCOMPARE(findings.filter(QStringLiteral("slow link 1 → 2 (HCCS)")).size(), 1);
        QCOMPARE(view.stepHeatMap()->columnCount(), 2);
    }
};

QTEST_MAIN(TstClusterView)
#include "tst_cluster_view.moc"
