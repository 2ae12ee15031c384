// The Overview page through the real main window (issue #28 item 1): the first page after a load, each
// number clicking through to the timeline (the step's range selected), the Kernels panel (filtered to the
// kernel) or the cluster page, and View ▸ Overview bringing it back. And --screenshot --page / --dock.

#include "KernelTablePanel.h"
#include "OverviewPage.h"
#include "TestPaths.h"
#include "TimelineView.h"
#include "WindowFixture.h"
#include "overview/Overview.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QToolBar>
#include <QTreeWidget>

using namespace at;

namespace {

QString rank0Folder()
{
    return test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
}

QString qwen3Cluster()
{
    return test::samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
}

bool waitForOverview(MainWindow &window)
{
    if (window.overviewIsReady())
        return true;
    QSignalSpy spy(&window, &MainWindow::overviewReady);
    return spy.wait(60000);
}

// The first item of a tree (depth first) whose text in column 0 satisfies the predicate.
template <class Predicate> QTreeWidgetItem *findItem(QTreeWidget *tree, Predicate predicate)
{
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if (predicate(*it))
            return *it;
    return nullptr;
}

void clickItem(QTreeWidget *tree, QTreeWidgetItem *item)
{
    tree->scrollToItem(item);
    const QRect r = tree->visualItemRect(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, r.center());
}

} // namespace

class TestOverviewPage : public QObject, protected test::WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }
    void cleanup() { closeWindow(); }

    void overviewIsTheFirstPageAfterALoad()
    {
        QVERIFY(showWindow(QSize(1600, 1000)));
        QVERIFY(test::openOnOverview(*m_window, rank0Folder()));
        QVERIFY(m_window->showsOverview());
        QVERIFY(waitForOverview(*m_window));
        const Overview *overview = m_window->overviewPage()->overview();
        QVERIFY(overview);
        QCOMPARE(overview->ranks.size(), std::size_t(1));
        const OverviewRank &rank = overview->ranks.front();
        QVERIFY(!rank.steps.empty());
        // One bar per step (the mean only with several steps), each the sum of the step's additive parts.
        StepBarsChart *chart = m_window->overviewPage()->stepChart();
        QVERIFY(chart->isVisible());
        QCOMPARE(chart->rows().size(), rank.steps.size() + (rank.steps.size() > 1 ? 1 : 0));
        for (std::size_t i = 0; i < rank.steps.size(); ++i) {
            TimeNs bars = 0;
            for (const OverviewPart p : {OverviewPart::Computing, OverviewPart::CommunicationNotOverlapped,
                                         OverviewPart::Free, OverviewPart::Preparing})
                bars += chart->rows()[i].parts[static_cast<std::size_t>(p)];
            QCOMPARE(bars, rank.steps[i].total());
            QVERIFY(bars > 0);
        }
        // The docks belong to the timeline: the Overview has the window to itself.
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
            QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
        // The toolbar's "◂ Overview" is offered on the other pages only.
        auto *back = m_window->findChild<QAction *>(QStringLiteral("OverviewAction"));
        QVERIFY(back);
        QVERIFY(!back->isVisible());
    }

    void stepBarSelectsTheStepOnTheTimeline()
    {
        QVERIFY(showWindow(QSize(1600, 1000)));
        QVERIFY(test::openOnOverview(*m_window, rank0Folder()));
        QVERIFY(waitForOverview(*m_window));
        const OverviewStep &step = m_window->overviewPage()->overview()->ranks.front().steps.front();
        QCOMPARE(step.target.kind, OverviewTarget::Kind::TimeRange);
        StepBarsChart *chart = m_window->overviewPage()->stepChart();
        QTest::mouseClick(chart, Qt::LeftButton, {}, chart->barRect(0).center());
        QVERIFY(!m_window->showsOverview());
        QVERIFY(m_window->timeline()->isVisible());
        const std::optional<TimeRange> selected = m_window->timeline()->selectedRange();
        QVERIFY(selected);
        QCOMPARE(selected->start, step.target.begin);
        QCOMPARE(selected->end, step.target.end);
        const TimeRange shown = m_window->timeline()->zoom()->range();
        QVERIFY(shown.start <= step.target.begin && shown.end >= step.target.end);
        QVERIFY(shown.width() < 2 * (step.target.end - step.target.begin));
        // The docks are back with the timeline; the toolbar and View ▸ Overview return to the page.
        QVERIFY(m_window->findChild<QDockWidget *>(QStringLiteral("StatisticsDock"))->isVisible());
        auto *back = m_window->findChild<QAction *>(QStringLiteral("OverviewAction"));
        QVERIFY(back->isVisible());
        back->trigger();
        QVERIFY(m_window->showsOverview());
        m_window->showTimelinePage();
        auto *viewOverview = m_window->findChild<QAction *>(QStringLiteral("view.overview"));
        QVERIFY(viewOverview);
        QCOMPARE(viewOverview->shortcut(), QKeySequence(Qt::ControlModifier | Qt::Key_1));
        viewOverview->trigger();
        QVERIFY(m_window->showsOverview());
    }

    void topKernelFiltersTheKernelsPanel()
    {
        QVERIFY(showWindow(QSize(1600, 1000)));
        QVERIFY(test::openOnOverview(*m_window, rank0Folder()));
        QVERIFY(waitForOverview(*m_window));
        const OverviewRank &rank = m_window->overviewPage()->overview()->ranks.front();
        const OverviewStep &step = rank.mean ? *rank.mean : rank.steps.front();
        QVERIFY(!step.topKernels.empty());
        const QString kernel = step.topKernels.front().name;
        QTreeWidget *tree = m_window->overviewPage()->contents();
        QTreeWidgetItem *item = findItem(tree, [&](QTreeWidgetItem *i) {
            return i->text(0).trimmed() == kernel && i->data(0, Qt::UserRole).isValid();
        });
        QVERIFY2(item, qPrintable(kernel));
        clickItem(tree, item);
        QVERIFY(!m_window->showsOverview());
        auto *kernelsDock = m_window->findChild<QDockWidget *>(QStringLiteral("KernelsDock"));
        QVERIFY(kernelsDock->isVisible());
        QCOMPARE(m_window->kernels()->nameFilter()->text(), kernel);
        const KernelRows rows = m_window->kernels()->filteredRows();
        QVERIFY(!rows.empty());
        const TraceModel &model = *m_window->model();
        for (const std::size_t row : rows)
            QVERIFY(model.strings().qstring(model.kernels().rows()[row].name).contains(kernel));
    }

    void findingGoesToWhereItShows()
    {
        QVERIFY(showWindow(QSize(1600, 1000)));
        QVERIFY(test::openOnOverview(*m_window, rank0Folder()));
        QVERIFY(waitForOverview(*m_window));
        const Overview *overview = m_window->overviewPage()->overview();
        QVERIFY(!overview->findings.empty());
        QTreeWidget *tree = m_window->overviewPage()->findings();
        QCOMPARE(tree->topLevelItem(0)->text(0), overview->findings.front().title);
        const OverviewTarget target = overview->findings.front().target;
        clickItem(tree, tree->topLevelItem(0));
        QVERIFY(!m_window->showsOverview());
        if (target.kind == OverviewTarget::Kind::TimeRange) {
            QVERIFY(m_window->timeline()->selectedRange());
            QCOMPARE(m_window->timeline()->selectedRange()->start, target.begin);
        } else {
            QVERIFY(m_window->findChild<QDockWidget *>(QStringLiteral("InsightsDock"))->isVisible());
        }
    }

    void clusterOpensOnItsOverview()
    {
        QVERIFY(showWindow(QSize(1600, 1000)));
        m_window->openPath(qwen3Cluster());
        QVERIFY(m_window->showsOverview());
        QVERIFY(waitForOverview(*m_window));
        const Overview *overview = m_window->overviewPage()->overview();
        QCOMPARE(overview->scope, Overview::Scope::Cluster);
        QCOMPARE(overview->ranks.size(), std::size_t(4));
        // One bar per rank, and a chooser for the rank whose steps are shown.
        QCOMPARE(m_window->overviewPage()->rankChart()->rows().size(), std::size_t(4));
        QVERIFY(m_window->overviewPage()->rankChooser()->isVisible());
        // No timeline and no Overview button on the Overview: the View tool bar has nothing to show, and
        // is hidden rather than an empty strip under the menu (issue #28).
        auto *toolbar = m_window->findChild<QToolBar *>(QStringLiteral("ViewToolBar"));
        QVERIFY(toolbar);
        QVERIFY(!toolbar->isVisible());
        QPushButton *cluster = m_window->overviewPage()->clusterButton();
        QVERIFY(cluster->isVisible());
        QTest::mouseClick(cluster, Qt::LeftButton);
        QVERIFY(m_window->showsCluster());
        QVERIFY(toolbar->isVisible()); // its "Overview" button applies on the cluster page
        m_window->showOverviewPage();
        QVERIFY(m_window->showsOverview());
        QVERIFY(!toolbar->isVisible());
        // Closed by the user (the window's context menu): it stays closed where it has buttons.
        m_window->showClusterPage();
        QVERIFY(toolbar->isVisible());
        toolbar->toggleViewAction()->trigger();
        QVERIFY(!toolbar->isVisible());
        m_window->showOverviewPage();
        m_window->showClusterPage();
        QVERIFY(!toolbar->isVisible());
        toolbar->toggleViewAction()->trigger();
        QVERIFY(toolbar->isVisible());
    }

    void screenshotRendersThePageAndDockAsked()
    {
        // --screenshot --page / --dock: the picture of that page with that dock, at the default layout.
        const auto shoot = [this](const QStringList &extra, const QString &name) {
            const QString png = m_dir.filePath(name);
            QProcess run;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
            env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path());
            run.setProcessEnvironment(env);
            run.start(at::test::appBinary(), QStringList{QStringLiteral("--screenshot"), png,
                                                         QStringLiteral("--size"), QStringLiteral("900x700")}
                                                 << extra << rank0Folder());
            run.waitForFinished(120000);
            return std::make_tuple(run.exitCode(), QString::fromUtf8(run.readAllStandardError()),
                                   QImage(png));
        };
        // The Overview's bars in their theme-independent colours.
        const auto countColour = [](const QImage &image, const QColor &colour) {
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    n += image.pixelColor(x, y) == colour;
            return n;
        };
        const auto [overviewCode, overviewErr, overview] = shoot({}, QStringLiteral("overview.png"));
        QCOMPARE(overviewCode, 0);
        QCOMPARE(overviewErr, QString());
        QCOMPARE(overview.size(), QSize(900, 700));
        QVERIFY(countColour(overview, overviewPartColor(OverviewPart::Computing)) > 200);
        const auto [timelineCode, timelineErr, timeline] =
            shoot({QStringLiteral("--page"), QStringLiteral("timeline")}, QStringLiteral("timeline.png"));
        QCOMPARE(timelineCode, 0);
        QCOMPARE(countColour(timeline, overviewPartColor(OverviewPart::Computing)), 0);
        const auto [kernelsCode, kernelsErr, kernels] =
            shoot({QStringLiteral("--dock"), QStringLiteral("kernels")}, QStringLiteral("kernels.png"));
        QCOMPARE(kernelsCode, 0);
        QCOMPARE(kernels.size(), QSize(900, 700));
        // The bottom area differs from the timeline's default (Range statistics raised there).
        int differing = 0;
        for (int y = kernels.height() / 2; y < kernels.height(); ++y)
            for (int x = 0; x < kernels.width(); ++x)
                differing += kernels.pixel(x, y) != timeline.pixel(x, y);
        QVERIFY2(differing > kernels.width() * 20, qPrintable(QString::number(differing)));
        // An unknown dock names the valid ones; a dock on the Overview is refused.
        const auto [unknownCode, unknownErr, unknownImage] =
            shoot({QStringLiteral("--dock"), QStringLiteral("nosuch")}, QStringLiteral("unknown.png"));
        QCOMPARE(unknownCode, 2);
        QVERIFY2(unknownErr.contains(QStringLiteral("kernels")) &&
                     unknownErr.contains(QStringLiteral("charts")),
                 qPrintable(unknownErr));
        const auto [badPageCode, badPageErr, badPageImage] =
            shoot({QStringLiteral("--page"), QStringLiteral("cluster")}, QStringLiteral("cluster.png"));
        QCOMPARE(badPageCode, 2);
        QVERIFY2(badPageErr.contains(QStringLiteral("not a cluster")), qPrintable(badPageErr));
    }
};

QTEST_MAIN(TestOverviewPage)
#include "tst_overview_page.moc"
