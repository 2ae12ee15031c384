#include "AppTestSupport.h"
#include "KernelTablePanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "StatisticsPanel.h"
#include "SummaryTablesPanel.h"
#include "TestSupport.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace at;

// Issue 17 through the real main window: which dock comes forward, Esc clearing the range panels, the
// warnings banner, the layout at small sizes, the Kernels and Tables docks, menus and PNG export.
class TestWindowPolish : public QObject, protected test::WindowFixture
{
    Q_OBJECT
    // One rank with its kernel table and summary CSVs.
    const QString m_rank0 = test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));

    QDockWidget *dock(const char *name) const
    {
        return m_window->findChild<QDockWidget *>(QString::fromLatin1(name));
    }

    // A tabbed dock is in front when its panel can be seen.
    static bool inFront(const QDockWidget *d)
    {
        return d->widget()->isVisible() && !d->visibleRegion().isEmpty();
    }

    void dragAcrossTimeline()
    {
        TimelineView *t = m_window->timeline();
        const int left = t->timelineLeft(), width = t->viewport()->width() - left;
        QTest::mousePress(t->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(left + width / 4, 60));
        QTest::mouseMove(t->viewport(), QPoint(left + width / 3, 70));
        QTest::mouseMove(t->viewport(), QPoint(left + width / 2, 70));
        QTest::mouseRelease(t->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(left + width / 2, 70));
    }

    QLabel *statisticsTitle() const
    {
        const auto labels = m_window->statistics()->findChildren<QLabel *>();
        return labels.isEmpty() ? nullptr : labels.first();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }

    void init()
    {
        QVERIFY(openWindow(m_rank0));
        // These tests work on the open Python stack (deep host stacks start collapsed: tst_lanes_in_sight).
        for (int process : TimelineView::initiallyCollapsed(*m_window->model()))
            m_window->timeline()->setCollapsed(process, false);
        QTest::qWait(10);
    }

    void cleanup() { closeWindow(); }

    void clickingASliceBringsDetailsForward()
    {
        dock("CollectionDock")->raise();
        QTest::qWait(10);
        QVERIFY(!inFront(dock("DetailsDock")));
        TimelineView *t = m_window->timeline();
        const SliceRef step = test::uniqueSlice(*m_window->model(), QStringLiteral("ProfilerStep#50"));
        t->revealSliceRow(step);
        const QRectF rect = t->sliceRect(step);
        QVERIFY2(t->viewport()->rect().contains(rect.center().toPoint()), "the step is in sight");
        QTest::mouseClick(t->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center().toPoint());
        QCOMPARE(t->selectedSlice(), step);
        QTest::qWait(10);
        QVERIFY(inFront(dock("DetailsDock")));
        QVERIFY(t->hasFocus()); // raising the tab leaves the keys with the timeline
    }

    void draggingARangeBringsStatisticsForward()
    {
        dock("KernelsDock")->raise();
        QTest::qWait(10);
        QVERIFY(!inFront(dock("StatisticsDock")));
        dragAcrossTimeline();
        QVERIFY(m_window->timeline()->selectedRange().has_value());
        QTest::qWait(10);
        QVERIFY(inFront(dock("StatisticsDock")));
    }

    void escapeClearsRangeStatisticsAndTheKernelTimeFilter()
    {
        KernelTablePanel *kernels = m_window->kernels();
        kernels->rangeFilter()->setChecked(true);
        dragAcrossTimeline();
        StatisticsPanel *stats = m_window->statistics();
        QVERIFY(stats->statistics()->rowCount() > 0);
        QVERIFY(kernels->table()->model()->rowCount() > 0);
        const QString hint = QStringLiteral("Drag across the timeline to see statistics for a time range.");
        QVERIFY(statisticsTitle()->text() != hint);
        m_window->timeline()->setFocus();
        QTest::keyClick(m_window->timeline(), Qt::Key_Escape);
        QVERIFY(!m_window->timeline()->selectedRange());
        QCOMPARE(stats->statistics()->rowCount(), 0);
        QCOMPARE(statisticsTitle()->text(), hint);
        QCOMPARE(kernels->table()->model()->rowCount(), 0); // "in time selection" with no selection
    }

    void everyWarningCanBeSeenAndTheBannerGoesOnClose()
    {
        // A trace with a bad time, an event that is no object, and cut off: a warning for each.
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("warnings.json"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        // (Built from plain literals: moc does not read raw strings.)
        const QByteArray x = "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"dur\":5,";
        out.write("{\"traceEvents\":[" + x + "\"name\":\"a\",\"ts\":\"soon\"},42," + x +
                  "\"name\":\"b\",\"ts\":10}," + x + "\"name\":\"c\",\"ts\":20}," + x + "\"na");
        out.close();
        QVERIFY(test::openAndWait(*m_window, path));
        const QStringList warnings = m_window->model()->warnings();
        QVERIFY2(warnings.size() > 1, qPrintable(warnings.join(QLatin1Char('\n'))));
        MessageBar *bar = m_window->messageBar();
        QVERIFY(bar->isVisible());
        QVERIFY(bar->text().contains(QStringLiteral("%1 warning").arg(warnings.size())));
        QVERIFY(bar->showAllButton()->isVisible());
        QVERIFY(!bar->detailsView()->isVisible());
        QTest::mouseClick(bar->showAllButton(), Qt::LeftButton);
        QVERIFY(bar->detailsView()->isVisible());
        for (const QString &w : warnings)
            QVERIFY2(bar->detailsView()->toPlainText().contains(w), qPrintable(w));
        QVERIFY(bar->copyButton()->isVisible());
        QTest::mouseClick(bar->copyButton(), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), warnings.join(QLatin1Char('\n')));

        m_window->closeTrace();
        QVERIFY(m_window->showsStartPage());
        QVERIFY(!bar->isVisible());
    }

    void theTimelineGetsTheSpaceAndTheWindowShrinks()
    {
        // The dock areas are capped after the resize event reaches the window: under load that can take
        // longer than one event-loop turn, so the layout is awaited (QTRY_*) rather than a fixed sleep.
        m_window->resize(900, 700);
        QTRY_COMPARE(m_window->size(), QSize(900, 700));
        QTRY_VERIFY2(m_window->timeline()->width() >= 900 * 6 / 10,
                     qPrintable(QString::number(m_window->timeline()->width())));
        QTRY_VERIFY2(m_window->timeline()->height() >= 700 / 3,
                     qPrintable(QString::number(m_window->timeline()->height())));
        m_window->resize(800, 560);
        QTRY_COMPARE(m_window->size(), QSize(800, 560));
        QTRY_VERIFY(m_window->timeline()->width() >= 800 / 2);
        // Growing again gives the room back to the timeline too.
        m_window->resize(1600, 1000);
        QTRY_VERIFY(m_window->timeline()->width() >= 1600 * 6 / 10);
    }

    void restoredGeometryIsClampedToTheScreen()
    {
        const QRect screen = m_window->screen()->availableGeometry();
        m_window->resize(screen.width() * 2, screen.height() * 2);
        QTest::qWait(20);
        m_window->close(); // saves the geometry
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        // As small as the screen, unless that is below what the window can shrink to (a tiny screen).
        const QSize fit = screen.size().expandedTo(m_window->minimumSizeHint());
        QVERIFY2(m_window->width() <= fit.width() && m_window->height() <= fit.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(m_window->width())
                                .arg(m_window->height())
                                .arg(screen.width())
                                .arg(screen.height())));
        QVERIFY(screen.intersects(m_window->geometry()));
    }

    void groupByNameGivesTheNamesTheWidth()
    {
        KernelTablePanel *kernels = m_window->kernels();
        dock("KernelsDock")->raise();
        QTest::qWait(10);
        kernels->grouping()->setCurrentIndex(1);
        QTest::qWait(10);
        QTableView *table = kernels->table();
        const int name = table->columnWidth(KernelGroupModel::Name);
        int used = 0;
        for (int c = 0; c < table->model()->columnCount(); ++c)
            used += table->isColumnHidden(c) ? 0 : table->columnWidth(c);
        QVERIFY2(used >= table->viewport()->width() - 2,
                 qPrintable(QStringLiteral("%1 of %2 px used").arg(used).arg(table->viewport()->width())));
        QVERIFY2(name > used / 3, qPrintable(QStringLiteral("name %1 of %2 px").arg(name).arg(used)));
    }

    void sortingStartsAtTheTopAndDurationsSortDescendingFirst()
    {
        dock("KernelsDock")->raise();
        QTest::qWait(10);
        QTableView *table = m_window->kernels()->table();
        QVERIFY(table->model()->rowCount() > 50);
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
        QHeaderView *header = table->horizontalHeader();
        const int x = header->sectionViewportPosition(KernelTableModel::Duration) +
                      header->sectionSize(KernelTableModel::Duration) / 2;
        QVERIFY(x > 0 && x < header->viewport()->width());
        QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(x, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), int(KernelTableModel::Duration));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        const auto duration = [table](int row) {
            return table->model()
                ->index(row, KernelTableModel::Duration)
                .data(KernelTableModel::kSortRole)
                .toLongLong();
        };
        QVERIFY(duration(0) >= duration(1));
        QVERIFY(duration(0) >= duration(table->model()->rowCount() - 1));
        QCOMPARE(table->verticalScrollBar()->value(), 0);
        // With a selected row, a new order keeps that row in sight.
        table->selectRow(table->model()->rowCount() / 2);
        const int nameX = header->sectionViewportPosition(KernelTableModel::Name) + 4;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(nameX, header->height() / 2));
        const QModelIndex moved = table->selectionModel()->selectedRows().first();
        QVERIFY(table->viewport()->rect().intersects(table->visualRect(moved)));
    }

    void tablesShowPlainNumbersWithUnitsAndPlurals()
    {
        SummaryTablesPanel *tables = m_window->tables();
        QVERIFY(tables->chooser()->count() > 0);
        static const QRegularExpression rawFloat(QStringLiteral("\\d\\.\\d{7,}|e[+-]\\d"));
        bool sawUnit = false;
        for (int i = 0; i < tables->chooser()->count(); ++i) {
            const QString item = tables->chooser()->itemText(i);
            QVERIFY2(!item.contains(QRegularExpression(QStringLiteral("\\b1 rows"))), qPrintable(item));
            QVERIFY2(item.contains(QStringLiteral(" row")), qPrintable(item));
            tables->chooser()->setCurrentIndex(i);
            QAbstractItemModel *model = tables->table()->model();
            for (int c = 0; c < model->columnCount(); ++c) {
                const QString header = model->headerData(c, Qt::Horizontal).toString();
                for (int r = 0; r < std::min(model->rowCount(), 40); ++r) {
                    const QString cell = model->index(r, c).data().toString();
                    QVERIFY2(!rawFloat.match(cell).hasMatch(),
                             qPrintable(header + QStringLiteral(": ") + cell));
                    // Issue 28: a duration column reads in the one unit its values pick (ns, µs, ms or s).
                    if (header.endsWith(QStringLiteral("(us)")) && !cell.isEmpty()) {
                        QVERIFY2(cell.contains(QRegularExpression(QStringLiteral("[0-9] (ns|µs|ms|s)$"))),
                                 qPrintable(header + QStringLiteral(": ") + cell));
                        sawUnit = true;
                    }
                }
            }
        }
        QVERIFY(sawUnit);
    }

    void everyMenuHasDistinctAccelerators()
    {
        QList<QMenu *> menus;
        for (QAction *a : m_window->menuBar()->actions())
            if (a->menu())
                menus << a->menu();
        for (int i = 0; i < menus.size(); ++i) {
            QHash<QChar, QString> owner;
            for (QAction *a : menus[i]->actions()) {
                if (a->isSeparator())
                    continue;
                if (a->menu())
                    menus << a->menu();
                const QString text = a->text();
                const int amp = text.indexOf(QRegularExpression(QStringLiteral("&[^&]")));
                if (amp < 0)
                    continue;
                const QChar key = text.at(amp + 1).toLower();
                QVERIFY2(!owner.contains(key),
                         qPrintable(QStringLiteral("%1: \"%2\" and \"%3\" share &%4")
                                        .arg(menus[i]->title(), owner.value(key), text, key)));
                owner.insert(key, text);
            }
        }
        QVERIFY(menus.size() >= 4); // File, View, Help and the submenus
    }

    void pngExportOffersTheWholeTraceHeight()
    {
        m_window->resize(1200, 700);
        QTest::qWait(20);
        TimelineView *t = m_window->timeline();
        QVERIFY2(t->verticalScrollBar()->maximum() > 0, "more lanes than fit");
        t->verticalScrollBar()->setValue(40);
        const QSize before = t->size();
        const QString visible = m_dir.filePath(QStringLiteral("visible.png"));
        const QString whole = m_dir.filePath(QStringLiteral("whole.png"));
        QVERIFY(m_window->exportViewPng(visible));
        QVERIFY(m_window->exportViewPng(whole, true));
        const QImage shown(visible), all(whole);
        QCOMPARE(shown.width(), all.width());
        QVERIFY2(all.height() >= shown.height() + t->verticalScrollBar()->maximum() - 2,
                 qPrintable(QStringLiteral("%1 vs %2").arg(all.height()).arg(shown.height())));
        QCOMPARE(t->size(), before);
        QCOMPARE(t->verticalScrollBar()->value(), 40);
        bool menu = false;
        for (QAction *a : m_window->findChildren<QAction *>())
            menu = menu || a->objectName() == QLatin1String("file.exportPngWhole");
        QVERIFY(menu);
    }
};

QTEST_MAIN(TestWindowPolish)
#include "tst_window_polish.moc"
