// The screenshot tour (issue #28, "Tests and proof"): every page and every dock of the real main window at
// 900×700 and 1600×1000, light and dark, English and Chinese, on a real rank (and the cluster pages on a
// real cluster), with content checks on the widgets as they are laid out: no label or header that shows
// only "…" or is cut to nothing, no scientific notation in a table, every heat map with its values in the
// cells or a colour scale, every dock with room to be read at the default layout, the Memory dock's numbers
// whole, a single rank's first device lane in sight under every dock.
//
// The windows are visited once (initTestCase) and each check is its own test function over what was
// collected, so a failure names the check, the page or dock, the size, theme and language.
// AT_TOUR_PNG_DIR=DIR saves every picture of the tour there (nothing is written otherwise).

#include "Layer.h"
#include "MemoryPanel.h"
#include "OverviewPage.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"
#include "WindowFixture.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterView.h"

#include <QAbstractItemView>
#include <QChartView>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>

#include <map>

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

// The smallest room a bottom dock gets at the default layout for its chart or table to be read (a chart's
// axes, legend and title; about eight table rows).
constexpr int kReadableDockHeight = 240;
constexpr int kReadableDockWidth = 240;

enum class Check
{
    Labels,
    Headers,
    Scientific,
    HeatMaps,
    DockRoom,
    OverviewBars,
    MemoryCells,
    DeviceLanes
};

bool onlyEllipsis(const QString &text)
{
    const QString t = text.trimmed();
    return t == QStringLiteral("…") || t == QStringLiteral("...");
}

bool shown(const QWidget *w)
{
    return w->isVisible() && !w->visibleRegion().isEmpty();
}

} // namespace

class TestScreenshotTour : public QObject, protected test::WindowFixture
{
    Q_OBJECT

    std::map<Check, QStringList> m_problems;
    QString m_where; // "overview 900x700 dark zh_CN"
    QString m_pngDir = qEnvironmentVariable("AT_TOUR_PNG_DIR");
    int m_views = 0;
    int m_heatMaps = 0; // heat maps inspected (the cluster page has two)

    void problem(Check check, const QString &what)
    {
        m_problems[check] << m_where + QStringLiteral(": ") + what;
    }

    bool waitForOverview()
    {
        if (m_window->overviewIsReady())
            return true;
        QSignalSpy spy(m_window.get(), &MainWindow::overviewReady);
        return spy.wait(60000);
    }

    void settle()
    {
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
    }

    // Every check on the widgets of root that the user sees now.
    void inspect(QWidget *root, const QString &name)
    {
        ++m_views;
        settle();
        const QImage picture = m_window->grab().toImage(); // lays out and paints what is shown
        if (!m_pngDir.isEmpty())
            picture.save(QDir(m_pngDir).filePath(
                QString(m_where).replace(QLatin1Char(' '), QLatin1Char('_')) + QStringLiteral(".png")));
        Q_UNUSED(name);
        checkLabels(root);
        checkViews(root);
        checkHeatMaps(root);
        checkMemoryCells(root);
    }

    // The Memory dock's numbers are never cut ("147456…"): every size, time and lifetime cell of its lists
    // is as wide as its text, in whichever of its tabs is shown.
    void checkMemoryCells(QWidget *root)
    {
        for (MemoryPanel *panel : root->findChildren<MemoryPanel *>()) {
            if (!shown(panel))
                continue;
            const auto fits = [&](const QString &list, const QString &text, int width,
                                  const QFontMetrics &fm) {
                if (fm.horizontalAdvance(text) > width)
                    problem(Check::MemoryCells, QStringLiteral("%1: \"%2\" needs %3 px, has %4")
                                                    .arg(list, text)
                                                    .arg(fm.horizontalAdvance(text))
                                                    .arg(width));
            };
            // Within the list's viewport too, not scrolled out of it (a column sized to its text in a list
            // too narrow for it is cut by the viewport's edge instead).
            const auto inView = [&](const QString &list, const QHeaderView *header, int column) {
                const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
                if (right > header->viewport()->width())
                    problem(Check::MemoryCells,
                            QStringLiteral("%1: column \"%2\" ends at %3 px of %4")
                                .arg(list, header->model()->headerData(column, Qt::Horizontal).toString())
                                .arg(right)
                                .arg(header->viewport()->width()));
            };
            if (QTreeWidget *live = panel->liveList(); shown(live))
                for (int c = 1; c < live->columnCount(); ++c)
                    inView(QStringLiteral("live at peak"), live->header(), c);
            if (QTableView *table = panel->allocationTable(); shown(table))
                inView(QStringLiteral("allocations"), table->horizontalHeader(), MemoryAllocationModel::Size);
            if (QTreeWidget *live = panel->liveList(); shown(live))
                for (int c = 1; c < live->columnCount(); ++c)
                    for (int r = 0; r < live->topLevelItemCount(); ++r)
                        fits(QStringLiteral("live at peak"), live->topLevelItem(r)->text(c),
                             live->columnWidth(c), live->fontMetrics());
            if (QTableView *table = panel->allocationTable(); shown(table))
                for (int c = MemoryAllocationModel::Size; c < MemoryAllocationModel::ColumnCount; ++c)
                    for (int r = 0; r < std::min(table->model()->rowCount(), 200); ++r)
                        fits(QStringLiteral("allocations"), table->model()->index(r, c).data().toString(),
                             table->columnWidth(c), table->fontMetrics());
        }
    }

    // A single rank's timeline at the default layout shows its first device lane (the message bar above it
    // and whichever dock is raised below).
    void checkDeviceLaneInSight()
    {
        const TimelineView *view = m_window->timeline();
        if (!shown(view) || !view->model() || view->model()->groups().size() != 1)
            return;
        const auto &rows = view->layout().rows();
        for (const LaneRow &r : rows)
            if (r.kind == LaneRow::Kind::Thread &&
                view->model()->processes()[static_cast<std::size_t>(r.process)].layer ==
                    Layer::DeviceStreams) {
                const int top = TimelineView::kRulerHeight + r.y - view->verticalScrollBar()->value();
                if (top < TimelineView::kRulerHeight || top + r.height > view->viewport()->height())
                    problem(Check::DeviceLanes, QStringLiteral("the first device lane is at %1..%2 of %3 px")
                                                    .arg(top)
                                                    .arg(top + r.height)
                                                    .arg(view->viewport()->height()));
                return;
            }
        problem(Check::DeviceLanes, QStringLiteral("no device lane"));
    }

    void checkLabels(QWidget *root)
    {
        for (const QLabel *label : root->findChildren<QLabel *>()) {
            if (!shown(label) || label->text().isEmpty() || !label->pixmap().isNull())
                continue;
            if (onlyEllipsis(label->text()))
                problem(Check::Labels, QStringLiteral("label %1 shows only \"…\"").arg(label->objectName()));
            // Cut to nothing: a one-line label narrower than a few characters of its text.
            const QString plain = label->textFormat() == Qt::RichText || Qt::mightBeRichText(label->text())
                                      ? QString()
                                      : QString(label->text()).remove(QLatin1Char('&')); // mnemonics
            const QFontMetrics metrics = label->fontMetrics();
            if (!label->wordWrap() && plain.size() > 3 &&
                label->contentsRect().width() <
                    std::min(metrics.horizontalAdvance(plain),
                             metrics.horizontalAdvance(plain.left(3) + QChar(0x2026))))
                problem(Check::Labels,
                        QStringLiteral("label \"%1\" is %2 px wide").arg(plain).arg(label->width()));
        }
    }

    void checkViews(QWidget *root)
    {
        static const QRegularExpression scientific(QStringLiteral("\\d[eE][+-]\\d"));
        for (QAbstractItemView *view : root->findChildren<QAbstractItemView *>()) {
            if (!shown(view) || !view->model())
                continue;
            const QAbstractItemModel *model = view->model();
            for (QHeaderView *header : view->findChildren<QHeaderView *>()) {
                if (!shown(header) || header->parent() != view)
                    continue;
                for (int s = 0; s < header->count(); ++s) {
                    if (header->isSectionHidden(s))
                        continue;
                    const QString text = model->headerData(s, header->orientation()).toString();
                    if (text.isEmpty())
                        continue;
                    if (onlyEllipsis(text))
                        problem(Check::Headers,
                                QStringLiteral("a header of %1 is only \"…\"").arg(view->objectName()));
                    if (header->orientation() == Qt::Horizontal &&
                        header->sectionSize(s) <
                            header->fontMetrics().horizontalAdvance(text.left(2) + QChar(0x2026)))
                        problem(Check::Headers, QStringLiteral("header \"%1\" is %2 px wide")
                                                    .arg(text)
                                                    .arg(header->sectionSize(s)));
                }
            }
            const int rows = std::min(model->rowCount(), 200);
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < model->columnCount(); ++c) {
                    const QString text = model->index(r, c).data().toString();
                    if (text.contains(scientific))
                        problem(Check::Scientific, QStringLiteral("%1 cell (%2, %3) reads \"%4\"")
                                                       .arg(view->objectName())
                                                       .arg(r)
                                                       .arg(c)
                                                       .arg(text));
                }
        }
    }

    // A heat map shows each value in its cell (where a cell is big enough for text) or a colour scale: in
    // the picture, a cell with its value has several colours (the text's antialiasing), a scale is a
    // strip of many colours outside the cells.
    void checkHeatMaps(QWidget *root)
    {
        for (ClusterHeatMap *map : root->findChildren<ClusterHeatMap *>()) {
            if (!shown(map) || map->rowCount() == 0 || map->columnCount() == 0)
                continue;
            ++m_heatMaps;
            const QImage image = map->grab().toImage();
            int cellsWithRoom = 0, cellsWithText = 0;
            QRegion cells;
            for (int r = 0; r < map->rowCount(); ++r)
                for (int c = 0; c < map->columnCount(); ++c) {
                    const QRect cell = map->cellRect(r, c);
                    cells += cell;
                    if (!map->value(r, c) || cell.width() < 24 || cell.height() < 12)
                        continue;
                    ++cellsWithRoom;
                    QSet<QRgb> colours;
                    for (int y = cell.top() + 1; y < cell.bottom(); ++y)
                        for (int x = cell.left() + 1; x < cell.right(); ++x)
                            colours.insert(image.pixel(x, y));
                    cellsWithText += colours.size() >= 4;
                }
            // A scale: a strip of at least 40 pixels outside the cells whose colour changes a little from
            // pixel to pixel through at least 12 colours (text breaks such a run at every gap between
            // glyphs).
            const QRgb background = image.pixel(0, 0);
            bool scale = false;
            for (int y = 0; y < image.height() && !scale; ++y) {
                QSet<QRgb> run;
                int length = 0;
                for (int x = 0; x < image.width() && !scale; ++x) {
                    const QRgb p = image.pixel(x, y);
                    const QRgb q = x > 0 ? image.pixel(x - 1, y) : background;
                    const int step = std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) +
                                     std::abs(qBlue(p) - qBlue(q));
                    if (cells.contains(QPoint(x, y)) || p == background || (length > 0 && step > 30)) {
                        run.clear();
                        length = 0;
                        continue;
                    }
                    run.insert(p);
                    ++length;
                    scale = length >= 40 && run.size() >= 12;
                }
            }
            const bool values = cellsWithRoom > 0 && cellsWithText * 2 >= cellsWithRoom;
            if (!values && !scale)
                problem(Check::HeatMaps,
                        QStringLiteral("heat map %1 (%2×%3) has neither values in its cells nor a scale")
                            .arg(map->objectName())
                            .arg(map->rowCount())
                            .arg(map->columnCount()));
        }
    }

    void checkOverviewBars()
    {
        const StepBarsChart *chart = m_window->overviewPage()->stepChart();
        if (!shown(chart))
            return;
        for (std::size_t i = 0; i < chart->rows().size(); ++i) {
            QFont bold = chart->font();
            bold.setBold(chart->rows()[i].emphasised);
            const int need = QFontMetrics(bold).horizontalAdvance(chart->rows()[i].label);
            if (chart->barRect(static_cast<int>(i)).left() < need)
                problem(Check::OverviewBars,
                        QStringLiteral("step label \"%1\" is cut").arg(chart->rows()[i].label));
            if (chart->barRect(static_cast<int>(i)).width() < 40)
                problem(Check::OverviewBars, QStringLiteral("the bar of \"%1\" is %2 px wide")
                                                 .arg(chart->rows()[i].label)
                                                 .arg(chart->barRect(static_cast<int>(i)).width()));
        }
    }

    void checkDockRoom(QDockWidget *dock)
    {
        const bool bottom = m_window->dockWidgetArea(dock) == Qt::BottomDockWidgetArea;
        if (bottom ? dock->widget()->height() < kReadableDockHeight
                   : dock->widget()->width() < kReadableDockWidth)
            problem(Check::DockRoom, QStringLiteral("%1 is %2×%3")
                                         .arg(dock->objectName())
                                         .arg(dock->widget()->width())
                                         .arg(dock->widget()->height()));
    }

    void tourTimeline(const QString &config)
    {
        m_window->showOverviewPage();
        m_where = QStringLiteral("overview ") + config;
        inspect(m_window->overviewPage(), m_where);
        checkOverviewBars();
        m_window->showTimelinePage();
        for (const QString &id : m_window->panelIds()) {
            QVERIFY(m_window->raisePanel(id));
            m_where = QStringLiteral("timeline+%1 ").arg(id) + config;
            settle();
            QDockWidget *dock = nullptr;
            for (QDockWidget *d : m_window->findChildren<QDockWidget *>())
                if (d->toggleViewAction()->objectName() == QStringLiteral("panel.") + id)
                    dock = d;
            QVERIFY(dock);
            checkDockRoom(dock);
            inspect(dock, m_where);
            checkDeviceLaneInSight();
        }
    }

    void tourCluster(const QString &config)
    {
        m_window->showOverviewPage();
        m_where = QStringLiteral("cluster-overview ") + config;
        inspect(m_window->overviewPage(), m_where);
        m_window->showClusterPage();
        QVERIFY(m_window->showsCluster());
        // Each tab of the page (findings, the rank × step heat map, the matrix, the ops).
        for (QTabWidget *tabs : m_window->clusterView()->findChildren<QTabWidget *>()) {
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                m_where = QStringLiteral("cluster/%1 ").arg(i) + config;
                inspect(m_window->centralWidget(), m_where);
            }
        }
    }

    // Each size in a new window at its default layout; each theme and language switched in place.
    void tour(const QString &path, bool cluster)
    {
        for (const QSize size : {QSize(900, 700), QSize(1600, 1000)}) {
            QVERIFY(showWindow(size));
            m_window->openPath(path);
            if (!cluster) {
                QSignalSpy loaded(m_window.get(), &MainWindow::loadFinished);
                QVERIFY(loaded.wait(60000));
            }
            QVERIFY(waitForOverview());
            for (const UiTheme theme : {UiTheme::Light, UiTheme::Dark})
                for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
                    applyUiTheme(theme);
                    if (uiLanguage() != language) {
                        QVERIFY(setUiLanguage(language));
                        settle();
                        QVERIFY(waitForOverview()); // the Overview's texts again in the new language
                    }
                    const QString config = QStringLiteral("%1x%2 %3 %4")
                                               .arg(size.width())
                                               .arg(size.height())
                                               .arg(uiThemeName(theme), language);
                    if (cluster)
                        tourCluster(config);
                    else
                        tourTimeline(config);
                }
            closeWindow();
        }
    }

    void report(Check check)
    {
        const QStringList problems = m_problems[check];
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problem(s):\n").arg(problems.size()) +
                                                problems.mid(0, 30).join(QLatin1Char('\n'))));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpWindowSuite());
        QElapsedTimer timer;
        timer.start();
        tour(rank0Folder(), false);
        tour(qwen3Cluster(), true);
        // Every page and dock in 8 configurations: the overview and 10 docks of a rank, the cluster's
        // overview and page.
        QVERIFY2(m_views >= 8 * 13, qPrintable(QString::number(m_views)));
        qInfo("%d views in %lld ms", m_views, static_cast<long long>(timer.elapsed()));
    }

    void labelsAreNotCut() { report(Check::Labels); }
    void headersAreNotElidedToNothing() { report(Check::Headers); }
    void noScientificNotationInTables() { report(Check::Scientific); }
    void heatMapsHaveValuesOrAScale()
    {
        QVERIFY(m_heatMaps >= 8); // the cluster page's rank × step map at least, in every configuration
        report(Check::HeatMaps);
    }
    void docksHaveRoomAtTheDefaultLayout() { report(Check::DockRoom); }
    void overviewBarsAreReadable() { report(Check::OverviewBars); }
    void memoryNumbersAreNotCut() { report(Check::MemoryCells); }
    void deviceLanesAreInSight() { report(Check::DeviceLanes); }
};

QTEST_MAIN(TestScreenshotTour)
#include "tst_screenshot_tour.moc"
