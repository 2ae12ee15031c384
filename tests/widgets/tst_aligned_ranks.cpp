// Ranks aligned with offsets (docs/CLUSTER.md, issue 18 item 7): besides the range statistics
// (tst_range_statistics), what tells or orders times follows where a rank is drawn: the hover tooltip, n /
// Shift+N, '.' along a lane, Find's Enter, show all. A synthetic two-rank model (TwoRankModel.h) with rank 1
// drawn 300 µs earlier.
#include "SearchBar.h"
#include "TimelineToolTip.h"
#include "TimelineView.h"
#include "TwoRankModel.h"

#include <QLineEdit>
#include <QTest>

using namespace at;

class TestAlignedRanks : public QObject
{
    Q_OBJECT

    std::unique_ptr<TraceModel> m_model = test::twoRankModel();

    SliceRef slice(int group, const char *name, TimeNs startUs) const
    {
        return test::twoRankSlice(*m_model, group, name, startUs);
    }

private Q_SLOTS:
    void tooltipTellsTheRulersTimeAndTheRanksOwn()
    {
        TimelineView view;
        view.resize(1200, 400);
        view.setModel(m_model.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.zoom()->setRange({0, 500'000}, false);
        const SliceRef late = slice(1, "late", 400), k0 = slice(0, "k0", 120);
        QVERIFY(late.isValid() && k0.isValid());
        const QString ownStart = TimelineToolTip::exactTime(400'000, 0);
        const QString drawnStart = TimelineToolTip::exactTime(100'000, 0);
        // No offsets: the start is the model's, and no second line.
        QString text = view.toolTipAt(view.sliceRect(late).center().toPoint());
        QVERIFY2(text.contains(QStringLiteral("Start: %1").arg(ownStart)), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("Rank's own start")));

        view.setGroupOffsets({0, -300'000});
        text = view.toolTipAt(view.sliceRect(late).center().toPoint());
        QVERIFY2(text.contains(QStringLiteral("Start: %1").arg(drawnStart)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Rank's own start: %1 (offset -300.000 µs)").arg(ownStart)),
                 qPrintable(text));
        // Rank 0 keeps its times (offset 0).
        text = view.toolTipAt(view.sliceRect(k0).center().toPoint());
        QVERIFY2(text.contains(QStringLiteral("Start: %1").arg(TimelineToolTip::exactTime(120'000, 0))),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("Rank's own start")));
    }

    // n / Shift+N: rank 1's op at 350 µs is drawn at 50 µs, so the next "op" after it is rank 0's at 200 µs,
    // not rank 1's at 700 µs (drawn at 400).
    void nextOccurrenceInTheOrderDrawn()
    {
        TimelineView view;
        view.resize(1200, 400);
        view.setModel(m_model.get());
        const SliceRef op350 = slice(1, "op", 350), op700 = slice(1, "op", 700), op200 = slice(0, "op", 200),
                       op300 = slice(0, "op", 300);
        QVERIFY(op350.isValid() && op700.isValid() && op200.isValid() && op300.isValid());
        view.selectSlice(op350, false);
        QVERIFY(view.selectOccurrence(+1));
        QCOMPARE(view.selectedSlice(), op700); // model order: 200, 300, 350, 700
        view.setGroupOffsets({0, -300'000});   // drawn order: 50 (op350), 200, 300, 400 (op700)
        view.selectSlice(op350, false);
        QVERIFY(view.selectOccurrence(+1));
        QCOMPARE(view.selectedSlice(), op200);
        QVERIFY(view.selectOccurrence(+1));
        QCOMPARE(view.selectedSlice(), op300);
        QVERIFY(view.selectOccurrence(+1));
        QCOMPARE(view.selectedSlice(), op700);
        QVERIFY(view.selectOccurrence(+1)); // wraps to the first drawn
        QCOMPARE(view.selectedSlice(), op350);
        QVERIFY(view.selectOccurrence(-1));
        QCOMPARE(view.selectedSlice(), op700);
    }

    // "." on a lane without a selection starts from the view's centre where the lane is drawn: centre 380 µs
    // is rank 1's own 680 µs with offset −300 µs, so the next slice is its op at 700, not "late" at 400.
    void nextSliceOnALaneFromTheDrawnCentre()
    {
        TimelineView view;
        view.resize(1200, 400);
        view.setModel(m_model.get());
        const SliceRef late = slice(1, "late", 400), op700 = slice(1, "op", 700);
        view.selectSlice(late, false); // makes rank 1's lane the current one
        view.selectSlice({}, false);
        QCOMPARE(view.currentLane(), late.thread);
        view.zoom()->setRange({330'000, 430'000}, false);
        QVERIFY(view.selectAdjacentSlice(+1));
        QCOMPARE(view.selectedSlice(), late);
        view.selectSlice({}, false);
        view.setGroupOffsets({0, -300'000});
        view.zoom()->setRange({330'000, 430'000}, false);
        QVERIFY(view.selectAdjacentSlice(+1));
        QCOMPARE(view.selectedSlice(), op700);
    }

    // Find: Enter steps in the order drawn; aligning keeps the current match and its place in the new order.
    void findStepsInTheOrderDrawn()
    {
        SearchBar bar;
        bar.setModel(m_model.get());
        bar.lineEdit()->setText(QStringLiteral("op"));
        bar.runSearch();
        const SliceRef op350 = slice(1, "op", 350), op700 = slice(1, "op", 700), op200 = slice(0, "op", 200),
                       op300 = slice(0, "op", 300);
        QCOMPARE(bar.matches(), (std::vector<SliceRef>{op200, op300, op350, op700}));
        bar.next();
        QCOMPARE(bar.matches()[static_cast<std::size_t>(bar.currentIndex())], op200);
        bar.setGroupOffsets({0, -300'000});
        QCOMPARE(bar.matches(), (std::vector<SliceRef>{op350, op200, op300, op700}));
        QCOMPARE(bar.currentIndex(), 1); // still op200
        QCOMPARE(bar.statusText(), QStringLiteral("2 of 4"));
        bar.next();
        QCOMPARE(bar.matches()[static_cast<std::size_t>(bar.currentIndex())], op300);
        // A new search with the offsets set orders the same way; zero offsets restore the model's order.
        bar.runSearch();
        QCOMPARE(bar.matches(), (std::vector<SliceRef>{op350, op200, op300, op700}));
        bar.setGroupOffsets({0, 0});
        QCOMPARE(bar.matches(), (std::vector<SliceRef>{op200, op300, op350, op700}));
    }

    // Show all (0) fits every rank as drawn: rank 1 moved 200 µs later ends 200 µs after the model's data.
    // (The zoom keeps a view within one data span of the data, so offsets beyond that span are not fitted
    // whole.)
    void showAllFitsTheShiftedRanks()
    {
        TimelineView view;
        view.resize(1200, 400);
        view.setModel(m_model.get());
        view.showAll();
        QCOMPARE(view.zoom()->range(), (TimeRange{m_model->dataBegin(), m_model->dataEnd()}));
        view.setGroupOffsets({0, 200'000});
        view.showAll();
        QCOMPARE(view.zoom()->range(), (TimeRange{m_model->dataBegin(), m_model->dataEnd() + 200'000}));
        view.setGroupOffsets({0, -300'000});
        view.showAll();
        QCOMPARE(view.zoom()->range(), (TimeRange{m_model->dataBegin() - 300'000, m_model->dataEnd()}));
    }
};

QTEST_MAIN(TestAlignedRanks)
#include "tst_aligned_ranks.moc"
