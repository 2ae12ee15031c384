// The Cluster page through the real MainWindow: a folder of rank folders opens as the cluster view (no
// timeline parsed), with its charts; activating a rank opens that rank's timeline in the window.
#include "AppTestSupport.h"
#include "InsightsPanel.h"
#include "MessageBar.h"
#include "OverviewPage.h"
#include "Steps.h"
#include "SyntheticCluster.h"
#include "Theme.h"
#include "Translations.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "cluster/CommunicationTable.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDirIterator>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStackedBarSeries>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

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

    // Every text the chart draws (title, axis titles and labels, legend labels), as drawn: Qt Charts
    // elides a text that does not fit with "...".
    static QStringList drawnChartTexts(QChart *chart)
    {
        QStringList texts;
        for (QGraphicsItem *item : chart->scene()->items())
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
                texts << text->toPlainText();
        return texts;
    }

    struct DockState
    {
        bool visible;
        bool floating;
        Qt::DockWidgetArea area;
        QRect geometry; // empty: a tab behind another one
        bool operator==(const DockState &) const = default;
    };
    static std::map<QString, DockState> dockStates(MainWindow &window)
    {
        std::map<QString, DockState> states;
        for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
            // A tab behind another of its dock area is moved off the window: its geometry says nothing,
            // being behind does.
            const bool shown =
                dock->isVisible() && (dock->isFloating() || window.rect().contains(dock->geometry()));
            states[dock->objectName()] = {dock->isVisible(), dock->isFloating(), window.dockWidgetArea(dock),
                                          shown ? dock->geometry() : QRect()};
        }
        return states;
    }
    // The docks whose state differs from `before`, with both states (empty: none).
    static QString dockDifferences(MainWindow &window, const std::map<QString, DockState> &before)
    {
        QStringList out;
        auto text = [](const DockState &d) {
            return QStringLiteral("visible %1 floating %2 area %3 (%4,%5 %6x%7)")
                .arg(d.visible)
                .arg(d.floating)
                .arg(int(d.area))
                .arg(d.geometry.x())
                .arg(d.geometry.y())
                .arg(d.geometry.width())
                .arg(d.geometry.height());
        };
        for (const auto &[name, state] : dockStates(window))
            if (!(state == before.at(name)))
                out << name + QStringLiteral(": ") + text(state) + QStringLiteral(" was ") +
                           text(before.at(name));
        return out.join(QLatin1Char('\n'));
    }
    static QDockWidget *dock(MainWindow &window, const char *name)
    {
        return window.findChild<QDockWidget *>(QString::fromLatin1(name));
    }

    // With AT_TEST_SCREENSHOTS=DIR the page is saved as shown, to look at (not compared).
    static void saveGrab(QWidget *widget, const QString &name)
    {
        const QString dir = qEnvironmentVariable("AT_TEST_SCREENSHOTS");
        if (dir.isEmpty())
            return;
        QCoreApplication::processEvents();
        widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    }

private slots:
    void initTestCase() { useScratchSettings(m_settings.path()); }
    void cleanup()
    {
        setUiLanguage(QStringLiteral("en"));
        applyUiTheme(UiTheme::Light);
    }

    // The page reads in a 900 x 700 window as in a 1600 x 1000 one, light and dark, English and Chinese:
    // no chart text elided, the rank table's columns all visible when wide, the Communication Ops tab
    // listing rows and its op summary shown in full (docs/CLUSTER.md "Layout"). The timeline's docks do not
    // take the page's room. With AT_TEST_SCREENSHOTS=DIR every tab is saved.
    void pageFitsTheWindow_data() { addLanguageThemeSizeRows(); }
    void pageFitsTheWindow()
    {
        QFETCH(QString, language);
        QFETCH(int, theme);
        QFETCH(QSize, size);
        QVERIFY(setUiLanguage(language));
        applyUiTheme(static_cast<UiTheme>(theme));
        MainWindow window;
        window.resize(size);
        window.show();
        window.openPath(qwen3Cluster());
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QCoreApplication::processEvents();
        ClusterView *view = window.clusterView();

        // No timeline dock beside or below the page.
        for (QDockWidget *d : window.findChildren<QDockWidget *>())
            QVERIFY2(!d->isVisible(), qPrintable(d->objectName()));

        // The chart: every text drawn in full, the title within the chart's width, every legend label drawn.
        QChart *chart = view->breakdownChart()->chart();
        const QStringList drawn = drawnChartTexts(chart);
        for (const QString &text : drawn)
            QVERIFY2(!text.contains(QLatin1String("...")) && !text.contains(QChar(0x2026)), qPrintable(text));
        QVERIFY2(drawn.contains(chart->title()), qPrintable(drawn.join(QLatin1Char('|'))));
        QVERIFY(QFontMetrics(chart->titleFont()).horizontalAdvance(chart->title()) <=
                chart->plotArea().width());
        QCOMPARE(chart->legend()->markers().size(), 3);
        for (QLegendMarker *marker : chart->legend()->markers())
            QVERIFY2(drawn.contains(marker->label()), qPrintable(marker->label()));

        // The rank table: all 14 columns without scrolling in a wide window, its 4 rows visible.
        QTableView *table = view->rankTable();
        if (size.width() >= 1600) {
            QVERIFY(!table->horizontalScrollBar()->isVisible());
            QVERIFY(table->horizontalHeader()->length() <= table->viewport()->width());
        }
        QVERIFY(table->rowViewportPosition(3) + table->rowHeight(3) <= table->viewport()->height());

        // The Communication Ops tab lists rows (not three), and the selected op's summary is not cut.
        auto *tabs = view->findChild<QTabWidget *>();
        CommunicationTable *comm = view->communicationTable();
        tabs->setCurrentWidget(comm);
        QCoreApplication::processEvents();
        int row = 0; // the first row with packet sizes, as in the Communication Ops grabs
        while (row + 1 < comm->table()->model()->rowCount() && comm->rowAt(row)->sizes.empty())
            ++row;
        comm->table()->setCurrentIndex(comm->table()->model()->index(row, 0));
        QCoreApplication::processEvents();
        const int rowsShown = comm->table()->viewport()->height() / comm->table()->rowHeight(0);
        QVERIFY2(rowsShown >= (size.height() >= 1000 ? 20 : 8), qPrintable(QString::number(rowsShown)));
        QLabel *summary = comm->summaryLabel();
        auto *summaryArea = qobject_cast<QScrollArea *>(summary->parentWidget()->parentWidget());
        QVERIFY(summaryArea);
        QVERIFY2(summary->heightForWidth(summaryArea->viewport()->width()) <=
                     summaryArea->viewport()->height(),
                 qPrintable(QStringLiteral("%1 > %2")
                                .arg(summary->heightForWidth(summaryArea->viewport()->width()))
                                .arg(summaryArea->viewport()->height())));

        // Its packet sizes: all three columns beside the table, no scrolling.
        QVERIFY(!comm->sizesTable()->horizontalScrollBar()->isVisible());

        for (int t = 0; t < tabs->count(); ++t) {
            tabs->setCurrentIndex(t);
            saveGrab(&window, QStringLiteral("cluster-%1-%2-%3x%4-tab%5")
                                  .arg(language, uiThemeName(static_cast<UiTheme>(theme)))
                                  .arg(size.width())
                                  .arg(size.height())
                                  .arg(t));
        }
    }

    // The cluster page hides the timeline's docks; the timeline page gets the user's dock layout back
    // exactly (visibility, floating, area, geometry), also after the window is closed on the cluster page.
    void timelineDocksComeBack()
    {
        QTemporaryDir settings;
        useScratchSettings(settings.path());
        std::map<QString, DockState> timeline;
        {
            MainWindow window;
            window.resize(1600, 1000);
            window.show();
            QVERIFY(openAndWait(window, alexnetTextCluster())); // two ranks: a timeline with the page behind
            QVERIFY(!window.showsCluster());
            // The user's own layout: Collection closed, Details narrower, Markers floating.
            dock(window, "CollectionDock")->hide();
            window.resizeDocks({dock(window, "DetailsDock")}, {300}, Qt::Horizontal);
            dock(window, "MarkersDock")->setFloating(true);
            dock(window, "MarkersDock")->setGeometry(100, 120, 320, 240);
            QCoreApplication::processEvents();
            timeline = dockStates(window);
            QVERIFY(timeline.at(QStringLiteral("DetailsDock")).visible);
            QVERIFY(!timeline.at(QStringLiteral("CollectionDock")).visible);

            auto *clusterAction = window.findChild<QAction *>(QStringLiteral("ClusterAction"));
            QVERIFY(clusterAction && clusterAction->isVisible());
            clusterAction->trigger();
            QVERIFY(window.showsCluster());
            QCoreApplication::processEvents();
            for (const auto &[name, state] : dockStates(window))
                QVERIFY2(!state.visible, qPrintable(name));

            QTest::mouseClick(window.clusterView()->backToTimelineButton(), Qt::LeftButton);
            QVERIFY(!window.showsCluster());
            QCoreApplication::processEvents();
            QCOMPARE(dockDifferences(window, timeline), QString());

            // A dock shown on the page (Insights, View ▸ Panels) is the page's: the timeline keeps its own
            // layout, the page shows Insights again next time.
            clusterAction->trigger();
            dock(window, "InsightsDock")->toggleViewAction()->trigger();
            QVERIFY(dock(window, "InsightsDock")->isVisible());
            QTest::mouseClick(window.clusterView()->backToTimelineButton(), Qt::LeftButton);
            QCoreApplication::processEvents();
            QCOMPARE(dockDifferences(window, timeline), QString());
            clusterAction->trigger();
            QCoreApplication::processEvents();
            for (const auto &[name, state] : dockStates(window))
                QVERIFY2(state.visible == (name == QLatin1String("InsightsDock")), qPrintable(name));

            // Closed on the cluster page: the timeline's layout is what the window saves.
            window.close();
        }
        MainWindow again;
        again.resize(1600, 1000);
        again.show();
        QCoreApplication::processEvents();
        QVERIFY(dock(again, "DetailsDock")->isVisible());
        QVERIFY(!dock(again, "CollectionDock")->isVisible());
        QVERIFY(dock(again, "MarkersDock")->isFloating());
        useScratchSettings(m_settings.path());
    }

    // Insights lists the cluster's findings: on the page it is one View ▸ Panels toggle away, and stays
    // shown on the page once the user showed it there.
    void insightsReachableOnThePage()
    {
        MainWindow window;
        window.resize(900, 700);
        window.show();
        window.openPath(qwen3Cluster());
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QDockWidget *insights = dock(window, "InsightsDock");
        QVERIFY(insights && !insights->isVisible());
        QVERIFY(insights->toggleViewAction()->isEnabled());
        insights->toggleViewAction()->trigger();
        QVERIFY(insights->isVisible());
        auto *panel = qobject_cast<InsightsPanel *>(insights->widget());
        QVERIFY(panel);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing(), 30000);
        QTRY_VERIFY(!panel->findings().empty()); // the checks' results arrive through the event loop
        QVERIFY(panel->tree()->topLevelItemCount() > 0);
    }

    void qwen3OpensAsCluster()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(qwen3Cluster());
        QVERIFY(!window.isLoading());    // summary files only: nothing parsed in the background
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QVERIFY(!window.model());
        ClusterView *view = window.clusterView();
        QVERIFY(view);
        QCOMPARE(view->model()->ranks.size(), std::size_t(4));

        // The rank table: every rank, sortable by value.
        QAbstractItemModel *rows = view->rankTable()->model();
        QCOMPARE(rows->rowCount(), 4);
        QCOMPARE(rows->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Computing (ms)"));
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
        // Each part in the Overview page's colour for it: a part reads in one colour on every page.
        QCOMPARE(series->barSets().at(0)->color(), overviewPartColor(OverviewPart::Computing));
        QCOMPARE(series->barSets().at(1)->color(),
                 overviewPartColor(OverviewPart::CommunicationNotOverlapped));
        QCOMPARE(series->barSets().at(2)->color(), overviewPartColor(OverviewPart::Free));

        // Rank × step heat map and the communication matrix (global ranks 0..3).
        QCOMPARE(view->stepHeatMap()->rowCount(), 4);
        QCOMPARE(view->stepHeatMap()->columnCount(), 1);
        QVERIFY(view->stepHeatMap()->value(0, 0).has_value());
        QCOMPARE(view->matrixHeatMap()->rowCount(), 4);
        QVERIFY(view->matrixHeatMap()->value(0, 2).has_value());  // the pp link 0 → 2
        QVERIFY(!view->matrixHeatMap()->value(0, 0).has_value()); // on-chip copies are not drawn

        const QStringList findings = findingTexts(*view);
        QVERIFY(
            findings.first().contains(QStringLiteral("Pipeline stages are unbalanced  (stage_imbalance)")));
        QVERIFY(findings.join(QLatin1Char('\n')).contains(QStringLiteral("msprof-analyze's rule")));

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
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
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
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
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
        QCOMPARE(findings.filter(QStringLiteral("Slow rank: rank 2  (slow_rank)")).size(), 1);
        QCOMPARE(
            findings.filter(QStringLiteral("rank 2, computing longer than the fastest of all ranks")).size(),
            1);
        QCOMPARE(findings.filter(QStringLiteral("HCCS link 1 → 2: 8.00 GB/s (median 20.00 GB/s)")).size(), 1);
        QCOMPARE(view.stepHeatMap()->columnCount(), 2);
    }
};

QTEST_MAIN(TstClusterView)
#include "tst_cluster_view.moc"
