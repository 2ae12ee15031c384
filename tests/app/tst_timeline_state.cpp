#include "AppTestSupport.h"
#include "DetailsPanel.h"
#include "KernelTablePanel.h"
#include "MainWindow.h"
#include "StatisticsPanel.h"
#include "TestSupport.h"
#include "TimelineState.h"
#include "TimelineView.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// The timeline's one state object (selection, visible range, range selection and lanes, rank offsets,
// highlights): each change is announced once, what is already there is not announced again, and through
// the real window a change reaches the panels that observe it without coming back (no feedback loop).
class TestTimelineState : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    // Every announcement of the state, in order.
    struct Recorder
    {
        QSignalSpy selection, visible, range, cleared, offsets, highlights;
        explicit Recorder(const TimelineState *s)
            : selection(s, &TimelineState::selectionChanged), visible(s, &TimelineState::visibleRangeChanged),
              range(s, &TimelineState::rangeSelected), cleared(s, &TimelineState::rangeCleared),
              offsets(s, &TimelineState::groupOffsetsChanged),
              highlights(s, &TimelineState::highlightsChanged)
        {}
        qsizetype total() const
        {
            return selection.count() + visible.count() + range.count() + cleared.count() + offsets.count() +
                   highlights.count();
        }
    };

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::useScratchSettings(m_dir.filePath(QStringLiteral("settings")));
    }

    void changesAreAnnouncedOnce()
    {
        TimelineState state;
        Recorder r(&state);
        state.setGroupOffsets({0, 5000});
        state.setGroupOffsets({0, 5000}); // the same: nothing
        QCOMPARE(r.offsets.count(), 1);
        QCOMPARE(state.groupOffset(1), TimeNs(5000));
        QCOMPARE(state.groupOffset(7), TimeNs(0));

        state.setHighlights({{2, 5}, {1, 9}, {2, 5}});
        QCOMPARE(state.highlights(), (std::vector<SliceRef>{{1, 9}, {2, 5}})); // sorted, unique
        state.setHighlights({{1, 9}, {2, 5}});
        QCOMPARE(r.highlights.count(), 1);

        // A dragged range is drawn, not announced; releasing it announces it once.
        state.dragRange({100, 200}, {3});
        QCOMPARE(r.range.count(), 0);
        QVERIFY(state.rangeSelection().has_value());
        state.selectRange({100, 250}, {3});
        QCOMPARE(r.range.count(), 1);
        QCOMPARE(state.rangeSelection()->end, TimeNs(250));
        // Other lanes: the range again, lanes sorted and unique.
        state.setRangeLanes({7, 3, 7});
        QCOMPARE(state.rangeLanes(), (std::vector<int>{3, 7}));
        QCOMPARE(r.range.count(), 2);
        state.clearRange();
        state.clearRange(); // nothing left to clear
        QCOMPARE(r.cleared.count(), 1);
        state.setRangeLanes({1}); // no range: nothing to announce
        QCOMPARE(r.range.count(), 2);

        state.setVisibleRange({0, 10});
        state.setVisibleRange({0, 10});
        QCOMPARE(r.visible.count(), 1);

        // Choosing the selected slice again is announced again (the Details panel comes forward).
        state.setSelection({1, 2});
        state.setSelection({1, 2});
        QCOMPARE(r.selection.count(), 2);

        // A new model: back to nothing, silently.
        const qsizetype before = r.total();
        state.reset();
        QCOMPARE(r.total(), before);
        QVERIFY(!state.selection().isValid());
        QVERIFY(!state.rangeSelection());
        QVERIFY(state.groupOffsets().empty());
        QVERIFY(state.highlights().empty());
    }

    // Through the real window: the timeline writes the state, the panels follow it, and none of them
    // writes back (each change is announced exactly once).
    void panelsFollowTheWindowsState()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(&window, &MainWindow::loadFinished);
        // The rank folder: its timeline with its kernel table (kernel_details.csv).
        window.openPath(
            QDir(QFileInfo(test::level1Rank0Trace()).absolutePath() + QStringLiteral("/..")).canonicalPath());
        QVERIFY(loaded.wait(60000) && loaded.last().at(0).toBool());
        TimelineView *timeline = window.timeline();
        const TimelineState *state = timeline->state();
        const TraceModel &model = *window.model();
        Recorder r(state);

        // A kernel: Details shows it, the Kernels table selects its row; the selection is announced once.
        QVERIFY(!model.kernels().empty());
        const KernelRecord &row = model.kernels().rows().front();
        QVERIFY(row.joined());
        const SliceRef kernel{row.thread, row.slice};
        timeline->selectSlice(kernel, true);
        QCOMPARE(r.selection.count(), 1);
        QCOMPARE(state->selection(), kernel);
        QCOMPARE(window.details()->fieldValue(QStringLiteral("Name")), model.sliceName(kernel));
        QCOMPARE(window.kernels()->table()->selectionModel()->selectedRows().size(), 1);

        // A zoom: the visible range once per change.
        const qsizetype visibleBefore = r.visible.count();
        timeline->zoom()->setRange(
            {model.dataBegin(), model.dataBegin() + (model.dataEnd() - model.dataBegin()) / 2}, true);
        QCOMPARE(r.visible.count(), visibleBefore + 1);
        QCOMPARE(state->visibleRange(), timeline->zoom()->range());

        // A dragged range: Range statistics show it; announced once.
        const TimeRange shown = timeline->zoom()->range();
        const int y = 120;
        const int x0 = timeline->timelineLeft() + 50, x1 = timeline->viewport()->width() - 50;
        QTest::mousePress(timeline->viewport(), Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(timeline->viewport(), QPoint((x0 + x1) / 2, y));
        QTest::mouseMove(timeline->viewport(), QPoint(x1, y));
        QTest::mouseRelease(timeline->viewport(), Qt::LeftButton, {}, QPoint(x1, y));
        QCOMPARE(r.range.count(), 1);
        QVERIFY(state->rangeSelection() && state->rangeSelection()->start >= shown.start);
        QVERIFY(window.statistics()->proxy()->rowCount() > 0);

        // Rank offsets: the panels that count with them take them; setting them again announces nothing.
        timeline->setGroupOffsets({2000});
        timeline->setGroupOffsets({2000});
        QCOMPARE(r.offsets.count(), 1);
        QCOMPARE(window.statistics()->groupOffsets(), (GroupOffsets{2000}));

        // Esc clears the range: Range statistics drop their rows; announced once.
        timeline->clearRangeSelection();
        timeline->clearRangeSelection();
        QCOMPARE(r.cleared.count(), 1);
        QCOMPARE(window.statistics()->proxy()->rowCount(), 0);

        // Nothing above came back as a second selection.
        QCOMPARE(r.selection.count(), 1);
    }
};

QTEST_MAIN(TestTimelineState)
#include "tst_timeline_state.moc"
