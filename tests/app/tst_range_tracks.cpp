#include "AppTestSupport.h"
#include "MainWindow.h"
#include "StatisticsPanel.h"
#include "TestSupport.h"
#include "Theme.h"
#include "TimelineOverlayPasses.h"
#include "TimelineView.h"
#include "TraceQueries.h"
#include "WindowFixture.h"

#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// Issue 17 through the real main window: a range restricted to chosen lanes (Ctrl+drag over lanes, or the
// lane context menu's actions through TimelineView::setRangeThreads) and the slice list of Range statistics.
class TestRangeTracks : public QObject, protected test::WindowFixture
{
    Q_OBJECT
    const QString m_rank0 = test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));

    // Drags from 1/4 to 1/2 of the width along viewport row y, with the given modifiers.
    void drag(int y, Qt::KeyboardModifiers modifiers)
    {
        TimelineView *t = m_window->timeline();
        const int left = t->timelineLeft(), width = t->viewport()->width() - left;
        QTest::mousePress(t->viewport(), Qt::LeftButton, modifiers, QPoint(left + width / 4, y));
        QTest::mouseMove(t->viewport(), QPoint(left + width / 3, y));
        QTest::mouseMove(t->viewport(), QPoint(left + width / 2, y));
        QTest::mouseRelease(t->viewport(), Qt::LeftButton, modifiers, QPoint(left + width / 2, y));
    }

    static std::size_t aggregateCount(const StatisticsPanel *p)
    {
        std::size_t n = 0;
        for (int r = 0; r < p->statistics()->rowCount(); ++r)
            n += p->statistics()->index(r, StatisticsModel::Count).data().toULongLong();
        return n;
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

    void ctrlDragRestrictsTheRangeToTheLaneCrossed()
    {
        TimelineView *t = m_window->timeline();
        StatisticsPanel *stats = m_window->statistics();
        const TraceModel &model = *m_window->model();
        const SliceRef step = test::uniqueSlice(model, QStringLiteral("ProfilerStep#50"));
        t->revealSliceRow(step);
        const int y = static_cast<int>(t->sliceRect(step).center().y());
        t->zoom()->fit({model.dataBegin(), model.dataEnd()});
        QTest::qWait(10);

        // A plain drag: every lane; the slice list holds every occurrence the aggregate counts.
        drag(y, Qt::NoModifier);
        QVERIFY(t->selectedRange().has_value());
        QVERIFY(t->rangeThreads().empty());
        const TimeRange range = *t->selectedRange();
        const std::size_t everywhere = aggregateCount(stats);
        QVERIFY(everywhere > 0);
        QCOMPARE(static_cast<std::size_t>(stats->sliceList()->rowCount()), everywhere);
        QCOMPARE(everywhere, slicesInRange(model, range.start, range.end).size());

        // Ctrl+drag along the step's lane: only that lane, in the aggregate and in the list.
        drag(y, Qt::ControlModifier);
        QCOMPARE(t->rangeThreads(), std::vector<int>{step.thread});
        const TimeRange onLane = *t->selectedRange();
        const std::size_t restricted = aggregateCount(stats);
        QVERIFY(restricted > 0);
        QVERIFY(restricted < everywhere);
        QCOMPARE(restricted, slicesInRange(model, onLane.start, onLane.end, {step.thread}).size());
        QCOMPARE(static_cast<std::size_t>(stats->sliceList()->rowCount()), restricted);
        for (int r = 0; r < stats->sliceList()->rowCount(); ++r)
            QCOMPARE(stats->sliceList()->slice(r).thread, step.thread);
        const auto expected = statisticsInRange(model, onLane.start, onLane.end, true, {step.thread});
        QCOMPARE(static_cast<std::size_t>(stats->statistics()->rowCount()), expected.size());

        // "Range on All Lanes" (the context menu's action) gives the whole range back.
        t->setRangeThreads({});
        QCOMPARE(aggregateCount(stats), slicesInRange(model, onLane.start, onLane.end).size());
        QVERIFY(aggregateCount(stats) > restricted);
        // Esc clears the lanes with the range.
        t->setRangeThreads({step.thread});
        t->clearRangeSelection();
        QVERIFY(t->rangeThreads().empty());
        QCOMPARE(stats->sliceList()->rowCount(), 0);
    }

    void chosenLanesAreDrawnTinted_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    // A range on chosen lanes shows which: inside the range only the chosen lane's pixels change (tinted),
    // another lane's stay as they were, and the chosen lane's label carries the accent bar.
    void chosenLanesAreDrawnTinted()
    {
        QFETCH(bool, dark);
        applyUiTheme(dark ? UiTheme::Dark : UiTheme::Light);
        QCoreApplication::processEvents();
        TimelineView *t = m_window->timeline();
        const TraceModel &model = *m_window->model();
        const SliceRef step = test::uniqueSlice(model, QStringLiteral("ProfilerStep#50"));
        t->revealSliceRow(step);
        t->zoom()->fit({model.dataBegin(), model.dataEnd()});
        QTest::qWait(10);
        const LaneLayout &layout = t->layout();
        const int height = t->viewport()->height();
        auto viewportTop = [&](const LaneRow &row) {
            return row.y + TimelineView::kRulerHeight - t->verticalScrollBar()->value();
        };
        const int chosenRow = layout.rowOfThread(step.thread);
        const LaneRow &chosen = layout.rows()[static_cast<std::size_t>(chosenRow)];
        // The step's lane is tall (the Python stack): scroll its end to the middle, so the next lane shows
        // too.
        t->verticalScrollBar()->setValue(t->verticalScrollBar()->value() + viewportTop(chosen) +
                                         chosen.height - height / 2);
        QTest::qWait(10);
        // The rows of a lane in sight, below the sticky rank and process headers (at most two rows).
        const int firstY = TimelineView::kRulerHeight + 60;
        auto visibleRows = [&](const LaneRow &row) {
            return std::pair{std::max(viewportTop(row) + 1, firstY),
                             std::min(viewportTop(row) + row.height - 1, height - 1)};
        };
        auto inSight = [&](const LaneRow &row) {
            const auto [top, bottom] = visibleRows(row);
            return bottom - top >= 6;
        };
        QVERIFY(inSight(chosen));
        // Another thread lane in sight.
        const LaneRow *other = nullptr;
        for (const LaneRow &row : layout.rows())
            if (row.kind == LaneRow::Kind::Thread && row.index != step.thread && inSight(row)) {
                other = &row;
                break;
            }
        QVERIFY(other);

        drag((visibleRows(chosen).first + visibleRows(chosen).second) / 2, Qt::ControlModifier);
        QCOMPARE(t->rangeThreads(), std::vector<int>{step.thread});
        const TimeRange range = *t->selectedRange();
        QCoreApplication::processEvents();
        const QImage tinted = t->viewport()->grab().toImage();
        t->clearRangeSelection();
        QCoreApplication::processEvents();
        const QImage plain = t->viewport()->grab().toImage();
        QCOMPARE(tinted.size(), plain.size());

        const int x0 = t->timelineLeft() + static_cast<int>(std::ceil(t->axis().toPixel(range.start))) + 2;
        const int x1 = t->timelineLeft() + static_cast<int>(std::floor(t->axis().toPixel(range.end))) - 2;
        QVERIFY(x1 - x0 > 20);
        auto changed = [&](const LaneRow &row, int &all) {
            int n = 0;
            all = 0;
            const auto [top, bottom] = visibleRows(row);
            for (int y = top; y < bottom; ++y)
                for (int x = x0; x < x1; ++x, ++all)
                    n += tinted.pixel(x, y) != plain.pixel(x, y);
            return n;
        };
        int all = 0;
        const int onChosen = changed(chosen, all);
        QVERIFY2(
            onChosen > all * 95 / 100,
            qPrintable(QStringLiteral("%1 of %2 pixels of the chosen lane tinted").arg(onChosen).arg(all)));
        const int onOther = changed(*other, all);
        QVERIFY2(onOther == 0,
                 qPrintable(QStringLiteral("%1 of %2 pixels of another lane changed").arg(onOther).arg(all)));
        // The accent bar on the chosen lane's label, in the highlight colour; none on the other's.
        const int barX = t->timelineLeft() - RangeSelectionPass::kAccentWidth / 2 - 1;
        const int chosenY = (visibleRows(chosen).first + visibleRows(chosen).second) / 2;
        QCOMPARE(QColor(tinted.pixel(barX, chosenY)), t->palette().color(QPalette::Highlight));
        QVERIFY(tinted.pixel(barX, chosenY) != plain.pixel(barX, chosenY));
        const int otherY = (visibleRows(*other).first + visibleRows(*other).second) / 2;
        QCOMPARE(tinted.pixel(barX, otherY), plain.pixel(barX, otherY));
    }

    void sliceListSortsAndClickSelectsTheSlice()
    {
        TimelineView *t = m_window->timeline();
        StatisticsPanel *stats = m_window->statistics();
        const TraceModel &model = *m_window->model();
        t->zoom()->fit({model.dataBegin(), model.dataEnd()});
        QTest::qWait(10);
        drag(80, Qt::NoModifier);
        QVERIFY(stats->sliceList()->rowCount() > 2);
        QTableView *table = stats->sliceTable();
        QSortFilterProxyModel *proxy = stats->sliceProxy();
        // By start (the default), then by duration descending, then by name.
        auto column = [&](int row, int c) {
            return proxy->index(row, c).data(RangeSliceListModel::kSortRole);
        };
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(column(r - 1, RangeSliceListModel::Start).toLongLong() <=
                    column(r, RangeSliceListModel::Start).toLongLong());
        table->sortByColumn(RangeSliceListModel::Duration, Qt::DescendingOrder);
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(column(r - 1, RangeSliceListModel::Duration).toLongLong() >=
                    column(r, RangeSliceListModel::Duration).toLongLong());
        table->sortByColumn(RangeSliceListModel::Name, Qt::AscendingOrder);
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(column(r - 1, RangeSliceListModel::Name).toString() <=
                    column(r, RangeSliceListModel::Name).toString());

        // Clicking a row selects that slice on the timeline.
        m_window->findChild<QWidget *>(QStringLiteral("StatisticsDock"))->raise();
        QTest::qWait(10);
        const int row = proxy->rowCount() / 2;
        const SliceRef wanted = stats->sliceList()->slice(proxy->mapToSource(proxy->index(row, 0)).row());
        QVERIFY(wanted.isValid());
        table->scrollTo(proxy->index(row, 0));
        const QRect cell = table->visualRect(proxy->index(row, RangeSliceListModel::Name));
        QVERIFY(!cell.isEmpty());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
        QCOMPARE(t->selectedSlice(), wanted);
    }
};

QTEST_MAIN(TestRangeTracks)
#include "tst_range_tracks.moc"
