#include "StatisticsPanel.h"
#include "TestSupport.h"
#include "TimelineView.h"

#include <QSortFilterProxyModel>
#include <QTest>

using namespace at;

// Issue 17: range statistics total what happened inside the dragged range, not whole slices (a
// 155 ms step inside a 40 ms window counted 155 ms). Dragged on the real level1 sample.
class TestRangeStatistics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void totalsAreClippedToTheDraggedRange()
    {
        const auto model = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(model);
        const SliceRef step = test::uniqueSlice(*model, QStringLiteral("ProfilerStep#50"));
        QVERIFY(step.isValid());
        const SliceTable &slices = model->threads()[static_cast<std::size_t>(step.thread)].slices;
        TimelineView view;
        view.resize(1400, 700);
        view.setModel(model.get());
        StatisticsPanel panel;
        panel.setModel(model.get());
        QObject::connect(&view, &TimelineView::rangeSelected, &panel, &StatisticsPanel::showRange);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Show the step and drag over 40 ms in its middle.
        const TimeNs mid = slices.start(step.index) + slices.duration(step.index) / 2;
        view.zoom()->setRange({mid - 100'000'000, mid + 100'000'000}, false);
        const TimeAxis axis = view.axis();
        const int y = 200;
        const int x0 = view.timelineLeft() + static_cast<int>(axis.toPixel(mid - 20'000'000));
        const int x1 = view.timelineLeft() + static_cast<int>(axis.toPixel(mid + 20'000'000));
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(view.viewport(), QPoint((x0 + x1) / 2, y));
        QTest::mouseMove(view.viewport(), QPoint(x1, y));
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, QPoint(x1, y));
        const auto range = view.selectedRange();
        QVERIFY(range);
        QVERIFY(std::abs(range->width() - 40'000'000) < 1'000'000);

        const QSortFilterProxyModel *rows = panel.proxy();
        int found = -1;
        for (int r = 0; r < rows->rowCount(); ++r)
            if (rows->index(r, StatisticsModel::Name).data().toString() == QLatin1String("ProfilerStep#50"))
                found = r;
        QVERIFY(found >= 0);
        const auto sortValue = [&](int column) {
            return rows->index(found, column).data(StatisticsModel::kSortRole).toLongLong();
        };
        // Inside the range: exactly the range's width; the whole slice: its 155.986 ms.
        QCOMPARE(sortValue(StatisticsModel::Total), range->width());
        QCOMPARE(sortValue(StatisticsModel::WholeSlices), slices.duration(step.index));
        QCOMPARE(rows->headerData(StatisticsModel::Total, Qt::Horizontal).toString(),
                 QStringLiteral("Total"));
        QCOMPARE(rows->headerData(StatisticsModel::WholeSlices, Qt::Horizontal).toString(),
                 QStringLiteral("Whole slices"));
        // No name's total exceeds what fits in the range on the threads it runs on.
        for (int r = 0; r < rows->rowCount(); ++r)
            QVERIFY(
                rows->index(r, StatisticsModel::Total).data(StatisticsModel::kSortRole).toLongLong() <=
                rows->index(r, StatisticsModel::WholeSlices).data(StatisticsModel::kSortRole).toLongLong());
    }
};

QTEST_MAIN(TestRangeStatistics)
#include "tst_range_statistics.moc"
