#include "DetailsPanel.h"
#include "SliceColors.h"
#include "StatisticsPanel.h"
#include "TestSupport.h"
#include "TimelineView.h"

#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QWheelEvent>

using namespace at;

// Offscreen tests of the timeline on the real level1 sample: keys, mouse, painting.
class TestTimelineView : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<TimelineView> m_view;

    TimeRange range() const { return m_view->zoom()->range(); }

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(m_model);
    }

    void init()
    {
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1400, 900);
        m_view->setModel(m_model.get());
        // These tests work on the open Python stack (deep host stacks start collapsed: tst_lanes_in_sight).
        for (int process : TimelineView::initiallyCollapsed(*m_model))
            m_view->setCollapsed(process, false);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        m_view->setFocus();
    }

    void cleanup() { m_view.reset(); }

    void startsShowingAllData() { QCOMPARE(range(), (TimeRange{m_model->dataBegin(), m_model->dataEnd()})); }

    void wsZoomByDocumentedFactor()
    {
        const TimeRange before = range();
        QTest::keyClick(m_view.get(), Qt::Key_W);
        const TimeRange in = range();
        // w: width / 1.25 around the centre (the mouse is not over the view).
        QVERIFY(std::abs(in.width() - static_cast<TimeNs>(before.width() / 1.25)) <= 1);
        QVERIFY(std::abs(in.center() - before.center()) <= 1);
        QTest::keyClick(m_view.get(), Qt::Key_S);
        QVERIFY(std::abs(range().width() - before.width()) <= 2);
    }

    void adPanByTenPercent()
    {
        QTest::keyClick(m_view.get(), Qt::Key_W);
        QTest::keyClick(m_view.get(), Qt::Key_W);
        const TimeRange before = range();
        QTest::keyClick(m_view.get(), Qt::Key_D);
        QVERIFY(std::abs((range().start - before.start) - before.width() / 10) <= 1);
        QCOMPARE(range().width(), before.width());
        QTest::keyClick(m_view.get(), Qt::Key_A);
        QTest::keyClick(m_view.get(), Qt::Key_A);
        QVERIFY(std::abs((before.start - range().start) - before.width() / 10) <= 2);
        // Arrows do the same as a/d.
        const TimeRange beforeArrow = range();
        QTest::keyClick(m_view.get(), Qt::Key_Right);
        QVERIFY(range().start > beforeArrow.start);
    }

    void zoomCentresOnTheMouse()
    {
        const QPoint mouse(m_view->timelineLeft() + 300, 200);
        QTest::mouseMove(m_view->viewport(), mouse);
        const TimeNs underMouse = m_view->axis().toTime(mouse.x() - m_view->timelineLeft());
        for (int i = 0; i < 5; ++i)
            QTest::keyClick(m_view.get(), Qt::Key_W);
        const TimeNs after = m_view->axis().toTime(mouse.x() - m_view->timelineLeft());
        QVERIFY2(std::abs(after - underMouse) <= static_cast<TimeNs>(m_view->axis().nsPerPixel() + 1),
                 qPrintable(QStringLiteral("%1 vs %2").arg(after).arg(underMouse)));
    }

    void ctrlWheelZoomsAndWheelScrollsLanes()
    {
        const TimeRange before = range();
        const QPointF pos(m_view->timelineLeft() + 100, 300);
        QWheelEvent zoomIn(pos, m_view->viewport()->mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton,
                           Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(m_view->viewport(), &zoomIn);
        QVERIFY(std::abs(range().width() - static_cast<TimeNs>(before.width() / 1.25)) <= 2);
        const TimeNs zoomedWidth = range().width();
        const int scroll = m_view->verticalScrollBar()->value();
        QWheelEvent down(pos, m_view->viewport()->mapToGlobal(pos), QPoint(), QPoint(0, -120), Qt::NoButton,
                         Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(m_view->viewport(), &down);
        QVERIFY(m_view->verticalScrollBar()->value() > scroll);
        QCOMPARE(range().width(), zoomedWidth);
    }

    void zeroShowsAllAndBackspaceUndoes()
    {
        const TimeRange all = range();
        m_view->zoom()->setRange({all.start + 1000000, all.start + 2000000}, true);
        QTest::keyClick(m_view.get(), Qt::Key_0);
        QCOMPARE(range(), all);
        QTest::keyClick(m_view.get(), Qt::Key_Backspace);
        QCOMPARE(range(), (TimeRange{all.start + 1000000, all.start + 2000000}));
    }

    void clickSelectsSliceAndFFits()
    {
        const SliceRef step = test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#50"));
        QVERIFY(step.isValid());
        QSignalSpy spy(m_view.get(), &TimelineView::selectionChanged);
        const QRectF rect = m_view->sliceRect(step);
        QVERIFY(!rect.isNull());
        QVERIFY(m_view->viewport()->rect().contains(rect.center().toPoint()));
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center().toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(m_view->selectedSlice(), step);
        QTest::keyClick(m_view.get(), Qt::Key_F);
        const SliceTable &t = m_model->threads()[static_cast<std::size_t>(step.thread)].slices;
        QVERIFY(range().start < t.start(step.index) && range().end > t.end(step.index));
        QVERIFY(range().width() < t.duration(step.index) * 13 / 10);
        // Clicking empty space clears the selection.
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(m_view->timelineLeft() + 2, 890));
        QVERIFY(!m_view->selectedSlice().isValid());
    }

    void detailsPanelShowsTheClickedSlice()
    {
        DetailsPanel details;
        details.setModel(m_model.get());
        connect(m_view.get(), &TimelineView::selectionChanged, &details, &DetailsPanel::showSlice);
        const SliceRef step = test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#50"));
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, Qt::NoModifier,
                          m_view->sliceRect(step).center().toPoint());
        QCOMPARE(details.fieldValue(QStringLiteral("Name")), QStringLiteral("ProfilerStep#50"));
        QCOMPARE(details.fieldValue(QStringLiteral("Category")), QStringLiteral("cpu_op"));
        // ts "1736408883686740.710", dur 155985.8 in the file.
        QCOMPARE(details.fieldValue(QStringLiteral("Start (absolute µs)")),
                 QStringLiteral("1736408883686740.710"));
        QCOMPARE(details.fieldValue(QStringLiteral("Duration")), formatDuration(155985800));
        QCOMPARE(details.fieldValue(QStringLiteral("Process")), QStringLiteral("Python"));
        QCOMPARE(details.fieldValue(QStringLiteral("Depth")), QStringLiteral("8"));
        QVERIFY(!details.fieldValue(QStringLiteral("Args")).startsWith(QLatin1Char('0')));
    }

    void flowsAreListedAndJumpToTheirTarget()
    {
        DetailsPanel details;
        details.setModel(m_model.get());
        connect(&details, &DetailsPanel::jumpTo, m_view.get(),
                [this](SliceRef ref) { m_view->selectSlice(ref, true); });
        // The first MEMCPY_ASYNC on stream 2 starts exactly where a torch_to_npu flow ends
        // (id 1736408883700059821, above 2^53).
        SliceRef memcpy;
        for (const SliceRef &ref : searchSlices(*m_model, QStringLiteral("MEMCPY_ASYNC"), {true})) {
            const SliceTable &t = m_model->threads()[static_cast<std::size_t>(ref.thread)].slices;
            if (t.start(ref.index) + m_model->origin() == 1736408883700059821LL) {
                memcpy = ref;
                break;
            }
        }
        QVERIFY(memcpy.isValid());
        details.showSlice(memcpy);
        const auto incoming = m_model->flowsTo(memcpy);
        QVERIFY(incoming.size() >= 1);
        QTreeWidgetItem *item = details.flowItem(0);
        QVERIFY(item);
        // Click the first incoming flow: the view jumps to its source on a host thread.
        QTreeWidgetItem *firstIncoming = nullptr;
        for (int i = 0; QTreeWidgetItem *f = details.flowItem(i); ++i)
            if (f->text(0).startsWith(QStringLiteral("←")))
                firstIncoming = firstIncoming ? firstIncoming : f;
        QVERIFY(firstIncoming);
        details.scrollToItem(firstIncoming);
        QTest::mouseClick(details.viewport(), Qt::LeftButton, Qt::NoModifier,
                          details.visualItemRect(firstIncoming).center());
        const SliceRef target = m_view->selectedSlice();
        QVERIFY(target.isValid());
        QVERIFY(!(target == memcpy));
        const auto outgoing = m_model->flowsFrom(target);
        QVERIFY(std::any_of(outgoing.begin(), outgoing.end(),
                            [&](std::uint32_t f) { return m_model->flows()[f].to == memcpy; }));
    }

    void dragSelectsRangeAndFillsStatistics()
    {
        StatisticsPanel stats;
        stats.setModel(m_model.get());
        connect(m_view.get(), &TimelineView::rangeSelected, &stats, &StatisticsPanel::showRange);
        QSignalSpy spy(m_view.get(), &TimelineView::rangeSelected);
        const int left = m_view->timelineLeft();
        const int width = m_view->viewport()->width() - left;
        QTest::mousePress(m_view->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(left + 1, 100));
        QTest::mouseMove(m_view->viewport(), QPoint(left + width / 2, 120));
        QTest::mouseMove(m_view->viewport(), QPoint(left + width - 1, 120));
        QTest::mouseRelease(m_view->viewport(), Qt::LeftButton, Qt::NoModifier,
                            QPoint(left + width - 1, 120));
        QCOMPARE(spy.count(), 1);
        const auto selected = m_view->selectedRange();
        QVERIFY(selected.has_value());
        const auto expected = statisticsInRange(*m_model, selected->start, selected->end);
        QCOMPARE(stats.statistics()->rowCount(), static_cast<int>(expected.size()));
        QVERIFY(stats.statistics()->rowCount() > 10);
        // Sorted by total, descending; sorting by count works on the numbers, not the text.
        QCOMPARE(stats.proxy()->index(0, StatisticsModel::Name).data().toString(),
                 m_model->strings().qstring(expected.front().name));
        stats.table()->sortByColumn(StatisticsModel::Count, Qt::DescendingOrder);
        const auto firstCount =
            stats.proxy()->index(0, StatisticsModel::Count).data(StatisticsModel::kSortRole).toULongLong();
        for (const auto &s : expected)
            QVERIFY(s.count <= firstCount);
        const QString text = stats.selectionAsText();
        QVERIFY(text.startsWith(QStringLiteral("Name\tCount\tTotal")));
        QCOMPARE(text.count(QLatin1Char('\n')), static_cast<int>(expected.size()) + 1);
    }

    void middleDragPans()
    {
        QTest::keyClick(m_view.get(), Qt::Key_W);
        const TimeRange before = range();
        const QPoint start(m_view->timelineLeft() + 500, 300);
        QTest::mousePress(m_view->viewport(), Qt::MiddleButton, Qt::NoModifier, start);
        QMouseEvent move(QEvent::MouseMove, start + QPoint(-100, 0),
                         m_view->viewport()->mapToGlobal(start + QPoint(-100, 0)), Qt::NoButton,
                         Qt::MiddleButton, Qt::NoModifier);
        QApplication::sendEvent(m_view->viewport(), &move);
        QTest::mouseRelease(m_view->viewport(), Qt::MiddleButton, Qt::NoModifier, start + QPoint(-100, 0));
        const TimeNs expected = static_cast<TimeNs>(100 * m_view->axis().nsPerPixel());
        QVERIFY(std::abs((range().start - before.start) - expected) <= expected / 100 + 2);
    }

    void headerClickCollapsesGroup()
    {
        const int python = m_model->processOrder().front();
        const int header = m_view->layout().headerRowOfProcess(python);
        const LaneRow row = m_view->layout().rows()[static_cast<std::size_t>(header)];
        const int heightBefore = m_view->layout().totalHeight();
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(40, TimelineView::kRulerHeight + row.y + row.height / 2));
        QVERIFY(m_view->isCollapsed(python));
        QVERIFY(m_view->layout().totalHeight() < heightBefore);
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(40, TimelineView::kRulerHeight + row.y + row.height / 2));
        QVERIFY(!m_view->isCollapsed(python));
        QCOMPARE(m_view->layout().totalHeight(), heightBefore);
    }

    void paintsSlicesInTheirColour()
    {
        const SliceRef step = test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#50"));
        const QRectF rect = m_view->sliceRect(step);
        QImage image = m_view->viewport()->grab().toImage();
        const QPoint probe(static_cast<int>(rect.left() + 3), static_cast<int>(rect.center().y()));
        const QColor expected = SliceColors::colorForText("ProfilerStep#50");
        QCOMPARE(QColor(image.pixel(probe)).rgb(), expected.rgb());
        // Collapsing the group removes it from the picture.
        m_view->setCollapsed(m_model->threads()[static_cast<std::size_t>(step.thread)].process, true);
        image = m_view->viewport()->grab().toImage();
        QVERIFY(QColor(image.pixel(probe)).rgb() != expected.rgb());
    }

    void narrowSlicesMergeButNothingDisappears()
    {
        // Fully zoomed out, every thread row with slices has painted pixels in its time span.
        const QImage image = m_view->viewport()->grab().toImage();
        const QColor base = m_view->palette().color(QPalette::Base);
        for (const LaneRow &row : m_view->layout().rows()) {
            if (row.kind != LaneRow::Kind::Thread)
                continue;
            const int y = TimelineView::kRulerHeight + row.y + LaneLayout::kTrackPadding + 4;
            if (y >= image.height())
                break;
            const SliceTable &t = m_model->threads()[static_cast<std::size_t>(row.index)].slices;
            const int x = m_view->timelineLeft() +
                          static_cast<int>(m_view->axis().toPixel(t.start(t.depthRange(0).first)));
            bool painted = false;
            for (int dx = 0; dx < 3 && !painted; ++dx)
                painted = QColor(image.pixel(std::min(x + dx, image.width() - 1), y)).rgb() != base.rgb();
            QVERIFY2(painted, qPrintable(m_model->threadDisplayName(row.index)));
        }
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
