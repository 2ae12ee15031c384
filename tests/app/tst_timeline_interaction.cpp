#include "AppTestSupport.h"
#include "DetailsPanel.h"
#include "MainWindow.h"
#include "NumberFormat.h"
#include "SearchBar.h"
#include "StatusLabel.h"
#include "TimelineOverlayPasses.h"
#include "TimelineView.h"
#include "TraceQueries.h"
#include "ViewSvg.h"
#include "WindowFixture.h"

#include <QHelpEvent>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

using namespace at;

// Issue 17, what a professional trace viewer does, through the real main window on the level-1 sample:
// hover tooltips on slices and counters, the cursor's time and the range's duration on the ruler, Find
// highlighting every match, keyboard lane navigation (↑/↓, ./, and n / Shift+N).
class TestTimelineInteraction : public QObject, protected test::WindowFixture
{
    Q_OBJECT

    TimelineView *view() const { return m_window->timeline(); }
    const TraceModel &model() const { return *m_window->model(); }

    // A slice at least minWidth pixels wide, fully in view, that is not `other`.
    SliceRef wideVisibleSlice(double minWidth, SliceRef other = {}) const
    {
        const QRect area(view()->timelineLeft(), TimelineView::kRulerHeight,
                         view()->viewport()->width() - view()->timelineLeft(),
                         view()->viewport()->height() - TimelineView::kRulerHeight);
        for (std::size_t t = 0; t < model().threads().size(); ++t) {
            const SliceTable &slices = model().threads()[t].slices;
            for (std::uint32_t i = 0; i < slices.size(); ++i) {
                const SliceRef ref{static_cast<int>(t), i};
                const QRectF r = view()->sliceRect(ref);
                if (!(ref == other) && r.width() >= minWidth && area.contains(r.toRect()))
                    return ref;
            }
        }
        return {};
    }

    // The tooltip a resting mouse gets at pos (the help event the window system sends after a pause).
    QString hoverToolTip(QPoint pos)
    {
        QTest::mouseMove(view()->viewport(), pos);
        QHelpEvent help(QEvent::ToolTip, pos, view()->viewport()->mapToGlobal(pos));
        QApplication::sendEvent(view()->viewport(), &help);
        return QToolTip::isVisible() ? QToolTip::text() : QString();
    }

    // "152.100 ms", "-3 µs", "5.000000001 s" → ns.
    static double parseTime(const QString &label)
    {
        static const QRegularExpression re(QStringLiteral("^(-?[0-9.]+) (s|ms|µs|ns)$"));
        const auto m = re.match(label);
        if (!m.hasMatch())
            return std::nan("");
        const QString unit = m.captured(2);
        const double scale = unit == QLatin1String("s")    ? 1e9
                             : unit == QLatin1String("ms") ? 1e6
                             : unit == QLatin1String("µs") ? 1e3
                                                           : 1;
        return m.captured(1).toDouble() * scale;
    }

    // The texts painted in the ruler strip (y below the ruler's height), from the SVG of the viewport.
    QStringList rulerTexts() const
    {
        const QString svg = test::paintedSvg(view()->viewport());
        static const QRegularExpression text(
            QStringLiteral("<text[^>]*\\by=\"([0-9.]+)\"[^>]*>([^<]*)</text>"));
        QStringList texts;
        for (auto it = text.globalMatch(svg); it.hasNext();) {
            const auto m = it.next();
            if (m.captured(1).toDouble() < TimelineView::kRulerHeight)
                texts << m.captured(2).trimmed();
        }
        return texts;
    }

    static int amberPixels(const QImage &image)
    {
        const QRgb amber = HighlightsPass::color().rgb();
        int n = 0;
        for (int y = TimelineView::kRulerHeight; y < image.height(); ++y)
            for (int x = TimelineView::kLabelWidth; x < image.width(); ++x)
                n += image.pixel(x, y) == amber;
        return n;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }

    void init()
    {
        QVERIFY(openWindow(test::level1Rank0Trace(), {1600, 1000}));
        // These tests work on the open Python stack (deep host stacks start collapsed: tst_lanes_in_sight).
        for (int process : TimelineView::initiallyCollapsed(*m_window->model()))
            view()->setCollapsed(process, false);
        view()->setFocus();
    }

    void cleanup() { closeWindow(); }

    void hoverOnSliceShowsItsTimes()
    {
        const SliceRef ref = wideVisibleSlice(30);
        QVERIFY(ref.isValid());
        const QRectF r = view()->sliceRect(ref);
        const QString tip = hoverToolTip(r.center().toPoint());
        QVERIFY2(!tip.isEmpty(), "no tooltip over a slice");
        const SliceTable &t = model().threads()[static_cast<std::size_t>(ref.thread)].slices;
        QVERIFY2(tip.contains(QStringLiteral("<b>%1</b>").arg(model().sliceName(ref).toHtmlEscaped())),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Duration: ") + formatDuration(t.duration(ref.index))),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Self time: ") + formatDuration(model().selfTime(ref))),
                 qPrintable(tip));
        // The start exactly to the nanosecond, from the ruler's origin.
        static const QRegularExpression start(QStringLiteral("Start: ([^<]+)"));
        const auto m = start.match(tip);
        QVERIFY2(m.hasMatch(), qPrintable(tip));
        QCOMPARE(parseTime(m.captured(1)), static_cast<double>(t.start(ref.index) - view()->timeOrigin()));
        // Its arguments (the first ones) by name.
        const auto args = model().sliceArgs(ref);
        if (!args.empty())
            QVERIFY2(tip.contains(args.front().first.toHtmlEscaped() + QLatin1Char(':')), qPrintable(tip));
        // Nothing over the ruler: the tooltip goes.
        hoverToolTip(QPoint(view()->timelineLeft() + 10, 5));
        QTRY_VERIFY(!QToolTip::isVisible());
    }

    void hoverOnCounterShowsTheValueHeld()
    {
        // The AI Core Freq counter of the level-1 sample.
        const LaneRow *row = nullptr;
        for (const LaneRow &r : view()->layout().rows())
            if (r.kind == LaneRow::Kind::Counter &&
                model().counters()[static_cast<std::size_t>(r.index)].times.size() > 1) {
                row = &r;
                break;
            }
        QVERIFY(row);
        view()->verticalScrollBar()->setValue(std::max(0, row->y - 100));
        const CounterSeries &series = model().counters()[static_cast<std::size_t>(row->index)];
        // Half way between the first two samples: the first value holds there.
        const TimeNs t = series.times[0] + (series.times[1] - series.times[0]) / 2;
        view()->zoom()->setRange({series.times[0] - 1000, series.times[1] + 1000}, false);
        const int x = view()->timelineLeft() + static_cast<int>(view()->axis().toPixel(t));
        const int y =
            row->y + row->height / 2 + TimelineView::kRulerHeight - view()->verticalScrollBar()->value();
        const QString tip = hoverToolTip(QPoint(x, y));
        QVERIFY2(tip.contains(model().counterDisplayName(row->index).toHtmlEscaped()), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Value: ") + formatNumber(series.values[0])), qPrintable(tip));
    }

    void rulerShowsTheCursorTime()
    {
        const int left = view()->timelineLeft();
        const QStringList before = rulerTexts();
        for (const int x : {left + 137, left + 801}) {
            const QPoint pos(x, 300);
            QTest::mouseMove(view()->viewport(), pos);
            const TimeNs expected = view()->axis().toTime(x - left) - view()->timeOrigin();
            // One more label on the ruler than without the mouse: the time under it, within a pixel.
            const QStringList texts = rulerTexts();
            QCOMPARE(texts.size(), before.size() + 1);
            bool found = false;
            for (const QString &text : texts)
                if (!before.contains(text) &&
                    std::abs(parseTime(text) - static_cast<double>(expected)) <= view()->axis().nsPerPixel())
                    found = true;
            QVERIFY2(found, qPrintable(texts.join(QStringLiteral(" | "))));
        }
        // Zoomed to a few hundred nanoseconds the label still resolves one pixel.
        const TimeRange r = view()->zoom()->range();
        view()->zoom()->setRange({r.center(), r.center() + 680}, false);
        QTest::mouseMove(view()->viewport(), QPoint(left + 500, 300));
        const TimeNs expected = view()->axis().toTime(500) - view()->timeOrigin();
        bool found = false;
        for (const QString &text : rulerTexts())
            if (parseTime(text) == static_cast<double>(expected))
                found = true;
        QVERIFY(found);
    }

    void hoveringRepaintsOnlyTheRuler()
    {
        // The cursor's time follows the mouse without drawing the lanes again (big traces stay smooth).
        struct PaintSpy : QObject
        {
            QList<QRect> rects;
            bool eventFilter(QObject *, QEvent *event) override
            {
                if (event->type() == QEvent::Paint)
                    rects << static_cast<QPaintEvent *>(event)->rect();
                return false;
            }
        } spy;
        QWidget *vp = view()->viewport();
        QTest::mouseMove(vp, QPoint(view()->timelineLeft() + 100, 300));
        QApplication::processEvents();
        vp->installEventFilter(&spy);
        for (int x = 110; x < 400; x += 37) {
            QTest::mouseMove(vp, QPoint(view()->timelineLeft() + x, 300));
            QApplication::processEvents();
        }
        vp->removeEventFilter(&spy);
        QVERIFY(!spy.rects.isEmpty());
        for (const QRect &r : spy.rects)
            QVERIFY2(r.bottom() < TimelineView::kRulerHeight,
                     qPrintable(
                         QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())));
    }

    void rangeDurationIsOnTheRuler()
    {
        const int left = view()->timelineLeft();
        QWidget *vp = view()->viewport();
        const QColor before = vp->grab().toImage().pixelColor(left + 250, 1);
        QTest::mousePress(vp, Qt::LeftButton, {}, QPoint(left + 200, 300));
        QTest::mouseMove(vp, QPoint(left + 300, 300));
        QTest::mouseMove(vp, QPoint(left + 600, 300));
        QTest::mouseRelease(vp, Qt::LeftButton, {}, QPoint(left + 600, 300));
        const auto range = view()->selectedRange();
        QVERIFY(range);
        QTest::mouseMove(vp, QPoint(left + 800, 300)); // the cursor label away from the range
        QVERIFY2(rulerTexts().contains(formatDuration(range->width())),
                 qPrintable(rulerTexts().join(QStringLiteral(" | "))));
        // The ruler is shaded over the range.
        const QColor shaded = vp->grab().toImage().pixelColor(left + 210, 1);
        QVERIFY(shaded != before);
        QCOMPARE(vp->grab().toImage().pixelColor(left + 150, 1), before);
        // Esc removes it.
        QTest::keyClick(view(), Qt::Key_Escape);
        QVERIFY(!rulerTexts().contains(formatDuration(range->width())));
    }

    void findHighlightsEveryMatch()
    {
        QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
        SearchBar *search = m_window->searchBar();
        QTest::keyClicks(search->lineEdit(), QStringLiteral("MEMCPY_ASYNC"));
        QTest::keyClick(search->lineEdit(), Qt::Key_Return);
        const int n = static_cast<int>(search->matches().size());
        QVERIFY(n > 2);
        QCOMPARE(search->statusText(), QStringLiteral("1 of %1").arg(n));
        QCOMPARE(static_cast<int>(view()->highlightedSlices().size()), n);
        std::vector<SliceRef> sorted = search->matches();
        std::sort(sorted.begin(), sorted.end(),
                  [](SliceRef a, SliceRef b) { return sliceKey(a) < sliceKey(b); });
        QVERIFY(view()->highlightedSlices() == sorted);
        // Zoomed out they are all drawn, in amber, besides the selected first match.
        view()->showAll();
        const QImage shown = view()->viewport()->grab().toImage();
        QVERIFY(view()->lastHighlightsDrawn() >= 2);
        QVERIFY(amberPixels(shown) > 20);
        // Shift+Enter from the first goes round to the last; Enter back to the first.
        QTest::keyClick(search->lineEdit(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(search->statusText(), QStringLiteral("%1 of %1").arg(n));
        QCOMPARE(view()->selectedSlice(), search->matches().back());
        QTest::keyClick(search->lineEdit(), Qt::Key_Return);
        QCOMPARE(search->statusText(), QStringLiteral("1 of %1").arg(n));
        QCOMPARE(view()->selectedSlice(), search->matches().front());
        // Esc closes the bar and removes the highlights; Ctrl+F brings them back.
        QTest::keyClick(search->lineEdit(), Qt::Key_Escape);
        QVERIFY(view()->highlightedSlices().empty());
        QCOMPARE(amberPixels(view()->viewport()->grab().toImage()), 0);
        QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(static_cast<int>(view()->highlightedSlices().size()), n);
        // A text without matches highlights nothing.
        search->lineEdit()->setText(QStringLiteral("no such slice name"));
        QTest::keyClick(search->lineEdit(), Qt::Key_Return);
        QCOMPARE(search->statusText(), QStringLiteral("no matches"));
        QVERIFY(view()->highlightedSlices().empty());
    }

    void arrowsMoveBetweenLanes()
    {
        // The lanes (thread slice tracks) in view order.
        std::vector<int> lanes;
        for (const LaneRow &row : view()->layout().rows())
            if (row.kind == LaneRow::Kind::Thread)
                lanes.push_back(row.index);
        QVERIFY(lanes.size() >= 3);
        QCOMPARE(view()->currentLane(), -1);
        const TimeNs centre = view()->zoom()->range().center();
        // ↓ with no lane yet: the first lane in sight, and its top-level slice at the view's centre
        // (else the nearest one).
        QTest::keyClick(view(), Qt::Key_Down);
        QCOMPARE(view()->currentLane(), lanes[0]);
        SliceRef s = view()->selectedSlice();
        QVERIFY(s.isValid());
        QCOMPARE(s.thread, lanes[0]);
        const SliceTable &first = model().threads()[static_cast<std::size_t>(lanes[0])].slices;
        QCOMPARE(first.depthOf(s.index), 0);
        if (first.sliceAt(0, centre) >= 0)
            QCOMPARE(static_cast<std::int64_t>(s.index), first.sliceAt(0, centre));
        // Details follows the keyboard.
        QCOMPARE(m_window->details()->fieldValue(QStringLiteral("Name")), model().sliceName(s));
        // ↓ ↓ ↑: the second lane, the third, the second again.
        QTest::keyClick(view(), Qt::Key_Down);
        QCOMPARE(view()->currentLane(), lanes[1]);
        QTest::keyClick(view(), Qt::Key_Down);
        QCOMPARE(view()->currentLane(), lanes[2]);
        QTest::keyClick(view(), Qt::Key_Up);
        QCOMPARE(view()->currentLane(), lanes[1]);
        QCOMPARE(view()->selectedSlice().thread, lanes[1]);
        // The lane is marked in the label column.
        const QImage image = view()->viewport()->grab().toImage();
        const int row = view()->layout().rowOfThread(lanes[1]);
        const LaneRow &lane = view()->layout().rows()[static_cast<std::size_t>(row)];
        const int y =
            lane.y + lane.height / 2 + TimelineView::kRulerHeight - view()->verticalScrollBar()->value();
        QCOMPARE(image.pixelColor(1, y), view()->palette().color(QPalette::Highlight));
        // ↑ on the first lane stays there; the arrows no longer zoom.
        const TimeRange range = view()->zoom()->range();
        for (int i = 0; i < 5; ++i)
            QTest::keyClick(view(), Qt::Key_Up);
        QCOMPARE(view()->currentLane(), lanes[0]);
        QCOMPARE(view()->zoom()->range().width(), range.width());
    }

    void periodAndCommaStepAlongTheLane()
    {
        // The Python lane's ProfilerStep#50 has siblings at its depth only in its own step: take a lane
        // with several slices at depth 0.
        int lane = -1;
        for (const LaneRow &row : view()->layout().rows())
            if (row.kind == LaneRow::Kind::Thread) {
                const auto [b, e] =
                    model().threads()[static_cast<std::size_t>(row.index)].slices.depthRange(0);
                if (e - b >= 5) {
                    lane = row.index;
                    break;
                }
            }
        QVERIFY(lane >= 0);
        const SliceTable &slices = model().threads()[static_cast<std::size_t>(lane)].slices;
        const auto [begin, end] = slices.depthRange(0);
        view()->selectSlice({lane, begin + 1}, true);
        QTest::keyClick(view(), Qt::Key_Period);
        QCOMPARE(view()->selectedSlice(), (SliceRef{lane, begin + 2}));
        QTest::keyClick(view(), Qt::Key_Period);
        QCOMPARE(view()->selectedSlice(), (SliceRef{lane, begin + 3}));
        QTest::keyClick(view(), Qt::Key_Comma);
        QCOMPARE(view()->selectedSlice(), (SliceRef{lane, begin + 2}));
        // The selected slice is always in view.
        const TimeRange r = view()->zoom()->range();
        QVERIFY(slices.start(begin + 2) >= r.start && slices.end(begin + 2) <= r.end);
        // Stepping off the first slice does nothing.
        view()->selectSlice({lane, begin}, true);
        QTest::keyClick(view(), Qt::Key_Comma);
        QCOMPARE(view()->selectedSlice(), (SliceRef{lane, begin}));
        // The keys work from another panel too (window-wide, as w/s/a/d).
        view()->selectSlice({lane, end - 2}, true);
        m_window->details()->setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Period);
        QCOMPARE(view()->selectedSlice(), (SliceRef{lane, end - 1}));
        // A nested slice steps among its depth.
        for (std::uint32_t i = 0; i < slices.size(); ++i)
            if (slices.depthOf(i) == 1 && i + 1 < slices.size() && slices.depthOf(i + 1) == 1) {
                view()->selectSlice({lane, i}, true);
                view()->setFocus();
                QTest::keyClick(view(), Qt::Key_Period);
                QCOMPARE(view()->selectedSlice(), (SliceRef{lane, i + 1}));
                break;
            }
    }

    void nStepsThroughTheOccurrencesOfAName()
    {
        // Every MEMCPY_ASYNC slice, in start order (the search's own order is by time too).
        std::vector<SliceRef> all;
        for (const SliceRef &ref : searchSlices(model(), QStringLiteral("MEMCPY_ASYNC"), {true}))
            if (model().sliceName(ref) == QLatin1String("MEMCPY_ASYNC"))
                all.push_back(ref);
        QVERIFY(all.size() >= 3);
        const auto startOf = [this](SliceRef r) {
            return model().threads()[static_cast<std::size_t>(r.thread)].slices.start(r.index);
        };
        std::sort(all.begin(), all.end(), [&](SliceRef a, SliceRef b) {
            return std::tuple(startOf(a), a.thread, a.index) < std::tuple(startOf(b), b.thread, b.index);
        });
        view()->selectSlice(all[0], true);
        for (std::size_t i = 1; i < all.size(); ++i) {
            QTest::keyClick(view(), Qt::Key_N);
            QCOMPARE(view()->selectedSlice(), all[i]);
        }
        // Round to the first, and Shift+N back to the last.
        QTest::keyClick(view(), Qt::Key_N);
        QCOMPARE(view()->selectedSlice(), all[0]);
        QTest::keyClick(view(), Qt::Key_N, Qt::ShiftModifier);
        QCOMPARE(view()->selectedSlice(), all.back());
        QCOMPARE(view()->currentLane(), all.back().thread);
    }

    void statusTextIsElidedNotCut()
    {
        auto *status = m_window->findChild<StatusLabel *>();
        QVERIFY(status);
        const QString full = status->text();
        QVERIFY(full.startsWith(test::level1Rank0Trace()));
        m_window->resize(700, 600);
        QTRY_VERIFY(status->fontMetrics().horizontalAdvance(full) > status->contentsRect().width());
        // Cut in the middle with an ellipsis: the start of the path and the last numbers stay.
        const QString shown = status->shownText();
        QVERIFY2(shown.contains(QStringLiteral("…")), qPrintable(shown));
        QVERIFY(status->fontMetrics().horizontalAdvance(shown) <= status->contentsRect().width());
        QVERIFY(shown.startsWith(full.left(3)));
        QVERIFY(shown.endsWith(full.right(3)));
        QCOMPARE(status->toolTip(), full);
        // Wide again: the whole text, no tooltip.
        m_window->resize(1600, 1000);
        QTRY_COMPARE(status->shownText(), full);
        QVERIFY(status->toolTip().isEmpty());
    }

    void highlightApiForOtherPanels()
    {
        // setHighlightedSlices is public (an Insights panel's "show all occurrences"): sorted, unique.
        const SliceRef a = wideVisibleSlice(10);
        const SliceRef b = wideVisibleSlice(10, a);
        QVERIFY(a.isValid() && b.isValid());
        view()->setHighlightedSlices({b, a, b});
        QCOMPARE(view()->highlightedSlices().size(), std::size_t(2));
        QVERIFY(sliceKey(view()->highlightedSlices()[0]) < sliceKey(view()->highlightedSlices()[1]));
        const QImage image = view()->viewport()->grab().toImage();
        QCOMPARE(view()->lastHighlightsDrawn(), 2);
        const QRect r = view()->sliceRect(a).toAlignedRect();
        QCOMPARE(image.pixel(r.left(), r.center().y()), HighlightsPass::color().rgb());
        view()->clearHighlights();
        view()->viewport()->grab();
        QCOMPARE(view()->lastHighlightsDrawn(), 0);
    }
};

QTEST_MAIN(TestTimelineInteraction)
#include "tst_timeline_interaction.moc"
