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

#include "CollectionPanel.h"
#include "InsightsPanel.h"
#include "KernelTablePanel.h"
#include "Layer.h"
#include "MemoryPanel.h"
#include "OverviewPage.h"
#include "SummaryTablesPanel.h"
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
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>

#include <functional>
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
    DeviceLanes,
    KernelRows,
    TablesPath,
    CollectionValues,
    ClusterHeaders,
    NoZeroTime
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
    // The views the polish checks saw (each check must have run in every configuration).
    int m_kernelViews = 0, m_tablePaths = 0, m_collections = 0, m_clusterTables = 0, m_findingTrees = 0;

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
        checkKernels(root);
        checkTablesPath(root);
        checkCollection(root);
        checkClusterHeaders(root);
        checkNoZeroTime(root);
    }

    // The Kernels dock shows at least eight one-line rows and its Duration column in full without
    // scrolling sideways (the name column is capped, its cells elided).
    void checkKernels(QWidget *root)
    {
        for (KernelTablePanel *panel : root->findChildren<KernelTablePanel *>()) {
            QTableView *table = panel->table();
            if (!shown(table) || table->model() != panel->proxy() || table->model()->rowCount() < 8)
                continue;
            ++m_kernelViews;
            const int rows = table->viewport()->height() / table->rowHeight(0);
            if (rows < 8)
                problem(Check::KernelRows, QStringLiteral("%1 rows of %2 px in %3 px")
                                               .arg(rows)
                                               .arg(table->rowHeight(0))
                                               .arg(table->viewport()->height()));
            if (table->rowHeight(0) > 2 * table->fontMetrics().height())
                problem(Check::KernelRows, QStringLiteral("rows are %1 px high").arg(table->rowHeight(0)));
            // A name wider than its capped column is elided and reads whole in its tooltip.
            for (int r = 0; r < std::min(rows, table->model()->rowCount()); ++r) {
                const QModelIndex name = table->model()->index(r, KernelTableModel::Name);
                const QString text = name.data().toString();
                if (table->fontMetrics().horizontalAdvance(text) >
                        table->columnWidth(KernelTableModel::Name) &&
                    name.data(Qt::ToolTipRole).toString() != text)
                    problem(Check::KernelRows, QStringLiteral("\"%1\" is cut without a tooltip").arg(text));
            }
            const QHeaderView *header = table->horizontalHeader();
            const int right = header->sectionViewportPosition(KernelTableModel::Duration) +
                              header->sectionSize(KernelTableModel::Duration);
            if (header->sectionViewportPosition(KernelTableModel::Duration) < 0 ||
                right > table->viewport()->width())
                problem(Check::KernelRows, QStringLiteral("the Duration column ends at %1 px of %2")
                                               .arg(right)
                                               .arg(table->viewport()->width()));
        }
    }

    // The Tables dock's file path is elided (not cut by the dock's edge), whole in its tooltip.
    void checkTablesPath(QWidget *root)
    {
        for (SummaryTablesPanel *panel : root->findChildren<SummaryTablesPanel *>()) {
            const QLabel *label = panel->fileLabel();
            if (!shown(label) || panel->chooser()->count() == 0)
                continue;
            ++m_tablePaths;
            const int need = label->fontMetrics().horizontalAdvance(label->text());
            if (need > label->contentsRect().width())
                problem(Check::TablesPath, QStringLiteral("the path \"%1\" needs %2 px, has %3")
                                               .arg(label->text())
                                               .arg(need)
                                               .arg(label->contentsRect().width()));
            const QString path = label->toolTip();
            if (!path.endsWith(QLatin1String(".csv")) || path.contains(QChar(0x2026)) ||
                !QFileInfo::exists(path.section(QStringLiteral(", "), 0, 0)))
                problem(Check::TablesPath,
                        QStringLiteral("the tooltip \"%1\" is not the whole path").arg(path));
            else if (QString(label->text()).remove(QChar(0x2026)).size() < path.size() &&
                     !label->text().contains(QChar(0x2026)))
                problem(Check::TablesPath, QStringLiteral("\"%1\" is cut without \"…\"").arg(label->text()));
        }
    }

    // The Collection dock: both columns inside the viewport (nothing scrolled sideways out of sight), the
    // values with room to read, and every item name or value too wide for its column whole in its tooltip.
    void checkCollection(QWidget *root)
    {
        for (CollectionPanel *panel : root->findChildren<CollectionPanel *>()) {
            if (!shown(panel) || panel->topLevelItemCount() == 0)
                continue;
            ++m_collections;
            const QHeaderView *header = panel->header();
            const int right = header->sectionViewportPosition(1) + header->sectionSize(1);
            if (header->sectionViewportPosition(0) != 0 || right > panel->viewport()->width() + 1)
                problem(Check::CollectionValues, QStringLiteral("the value column ends at %1 px of %2")
                                                     .arg(right)
                                                     .arg(panel->viewport()->width()));
            if (header->sectionSize(1) < panel->viewport()->width() / 3)
                problem(Check::CollectionValues,
                        QStringLiteral("the value column is %1 px wide").arg(header->sectionSize(1)));
            const QFontMetrics fm = panel->fontMetrics();
            std::function<void(QTreeWidgetItem *)> walk = [&](QTreeWidgetItem *item) {
                for (int c = 0; c < 2; ++c) {
                    const int width = panel->visualItemRect(item).isValid()
                                          ? header->sectionSize(c) - (c == 0 ? panel->indentation() : 0)
                                          : 0;
                    if (width > 0 && fm.horizontalAdvance(item->text(c)) > width &&
                        item->toolTip(c) != item->text(c))
                        problem(Check::CollectionValues,
                                QStringLiteral("\"%1\" is cut without a tooltip").arg(item->text(c)));
                }
                for (int i = 0; i < item->childCount(); ++i)
                    walk(item->child(i));
            };
            for (int i = 0; i < panel->topLevelItemCount(); ++i)
                walk(panel->topLevelItem(i));
        }
    }

    // The cluster page's rank table: every time column names its unit, and no header is narrower than
    // its text (the table scrolls sideways instead).
    void checkClusterHeaders(QWidget *root)
    {
        for (ClusterView *view : root->findChildren<ClusterView *>()) {
            const QTableView *table = view->rankTable();
            if (!shown(table) || table->model()->columnCount() < 11)
                continue;
            ++m_clusterTables;
            const QHeaderView *header = table->horizontalHeader();
            for (int s = 0; s < header->count(); ++s) {
                if (header->isSectionHidden(s))
                    continue;
                const QString text = table->model()->headerData(s, Qt::Horizontal).toString();
                if (s >= 4 && s <= 10 && !text.endsWith(QLatin1String("(ms)")))
                    problem(Check::ClusterHeaders, QStringLiteral("header \"%1\" names no unit").arg(text));
                if (header->sectionSize(s) < header->sectionSizeHint(s))
                    problem(Check::ClusterHeaders, QStringLiteral("header \"%1\" is %2 px of %3")
                                                       .arg(text)
                                                       .arg(header->sectionSize(s))
                                                       .arg(header->sectionSizeHint(s)));
            }
            if (header->length() > table->viewport()->width() && !table->horizontalScrollBar()->isVisible())
                problem(Check::ClusterHeaders, QStringLiteral("the table is cut and does not scroll"));
        }
    }

    // No finding in the Insights dock or on the Overview shows "0 ns": a finding that measures no time
    // has no time cell ("—").
    void checkNoZeroTime(QWidget *root)
    {
        static const QRegularExpression zero(QStringLiteral("^0(\\.0+)? ?(ns|µs|ms|s)$"));
        QList<QTreeWidget *> trees;
        for (InsightsPanel *panel : root->findChildren<InsightsPanel *>())
            trees << panel->tree();
        QList<OverviewPage *> pages = root->findChildren<OverviewPage *>();
        if (auto *page = qobject_cast<OverviewPage *>(root))
            pages << page; // the Overview is inspected as its own root
        for (OverviewPage *page : pages)
            trees << page->findings();
        for (QTreeWidget *tree : trees) {
            if (!shown(tree))
                continue;
            ++m_findingTrees;
            std::function<void(QTreeWidgetItem *)> walk = [&](QTreeWidgetItem *item) {
                for (int c = 0; c < tree->columnCount(); ++c)
                    if (item->text(c).trimmed().contains(zero))
                        problem(Check::NoZeroTime,
                                QStringLiteral("\"%1\" reads \"%2\"").arg(item->text(0), item->text(c)));
                for (int i = 0; i < item->childCount(); ++i)
                    walk(item->child(i));
            };
            for (int i = 0; i < tree->topLevelItemCount(); ++i)
                walk(tree->topLevelItem(i));
        }
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
    void kernelsShowEightRowsAndTheirDuration()
    {
        QVERIFY(m_kernelViews >= 8);
        report(Check::KernelRows);
    }
    void tablesPathIsElided()
    {
        QVERIFY(m_tablePaths >= 8);
        report(Check::TablesPath);
    }
    void collectionValuesRead()
    {
        QVERIFY(m_collections >= 8);
        report(Check::CollectionValues);
    }
    void clusterHeadersHaveUnitsAndAreWhole()
    {
        QVERIFY(m_clusterTables >= 8);
        report(Check::ClusterHeaders);
    }
    void noFindingReadsZeroTime()
    {
        QVERIFY2(m_findingTrees >= 16,
                 qPrintable(QString::number(
                     m_findingTrees))); // the Overview's and the Insights dock's, in every configuration
        report(Check::NoZeroTime);
    }
};

QTEST_MAIN(TestScreenshotTour)
#include "tst_screenshot_tour.moc"
