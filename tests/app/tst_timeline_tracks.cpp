#include "AppTestSupport.h"
#include "MainWindow.h"
#include "TimelineView.h"
#include "ViewSvg.h"
#include "WindowFixture.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <limits>

using namespace at;

// Issue 17, track management with many ranks, through the real main window on the level-1 folder (two
// ranks): every rank's Python stack starts collapsed with a busy preview, the lane menu pins a process
// on every rank and collapses / expands a layer across ranks, and the rank and process headers stay in
// sight while scrolled into them.
class TestTimelineTracks : public QObject, protected test::WindowFixture
{
    Q_OBJECT
    const QString m_level1 =
        test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"));

    TimelineView *view() const { return m_window->timeline(); }
    const TraceModel &model() const { return *m_window->model(); }

    std::vector<int> processesNamed(const QString &name) const
    {
        std::vector<int> found;
        for (std::size_t p = 0; p < model().processes().size(); ++p)
            if (model().processDisplayName(static_cast<int>(p)) == name)
                found.push_back(static_cast<int>(p));
        return found;
    }

    int viewportY(const LaneRow &row) const
    {
        return row.y + TimelineView::kRulerHeight - view()->verticalScrollBar()->value();
    }

    // Opens the lane menu at pos and triggers the entry with this text (false when there is none).
    bool triggerLaneMenu(QPoint pos, const QString &text)
    {
        bool triggered = false;
        QStringList seen;
        QTimer::singleShot(0, this, [&] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            for (QAction *a : menu->actions()) {
                seen << a->text();
                if (a->text() == text) {
                    menu->close();
                    a->trigger();
                    triggered = true;
                    return;
                }
            }
            menu->close();
        });
        QContextMenuEvent event(QContextMenuEvent::Mouse, pos, view()->viewport()->mapToGlobal(pos));
        QApplication::sendEvent(view()->viewport(), &event);
        if (!triggered)
            qWarning().noquote() << "menu entries:" << seen.join(QStringLiteral(" | "));
        return triggered;
    }

    // The painted texts at viewport y in [y0, y1).
    QStringList textsBetween(int y0, int y1) const
    {
        const QString svg = test::paintedSvg(view()->viewport());
        static const QRegularExpression text(
            QStringLiteral("<text[^>]*\\by=\"([0-9.]+)\"[^>]*>([^<]*)</text>"));
        QStringList texts;
        for (auto it = text.globalMatch(svg); it.hasNext();) {
            const auto m = it.next();
            const double y = m.captured(1).toDouble();
            if (y >= y0 && y < y1)
                texts << m.captured(2).trimmed();
        }
        return texts;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }

    void init()
    {
        QVERIFY(openWindow(m_level1, {1600, 1000}));
        QCOMPARE(model().groups().size(), std::size_t(2));
    }

    void cleanup() { closeWindow(); }

    void pythonStacksStartCollapsedWithABusyPreview()
    {
        const std::vector<int> python = processesNamed(QStringLiteral("Python"));
        QCOMPARE(python.size(), std::size_t(2)); // one per rank
        for (int p : python)
            QVERIFY(view()->isCollapsed(p));
        for (std::size_t p = 0; p < model().processes().size(); ++p)
            if (std::find(python.begin(), python.end(), static_cast<int>(p)) == python.end())
                QVERIFY2(!view()->isCollapsed(static_cast<int>(p)),
                         qPrintable(model().processDisplayName(static_cast<int>(p))));
        // The collapsed header is taller by the preview band, which is shaded where the stack runs
        // (its top-level slice) and blank before it.
        const LaneRow &header =
            view()->layout().rows()[static_cast<std::size_t>(view()->layout().headerRowOfProcess(python[0]))];
        QCOMPARE(header.height, LaneLayout::kHeaderHeight + LaneLayout::kPreviewHeight);
        // Busy: the middle of a thread's first top-level slice; idle: before any thread starts.
        int thread = -1;
        TimeNs firstStart = std::numeric_limits<TimeNs>::max();
        for (int t : model().processes()[static_cast<std::size_t>(python[0])].threads) {
            const SliceTable &slices = model().threads()[static_cast<std::size_t>(t)].slices;
            if (slices.depthCount() == 0)
                continue;
            thread = t;
            firstStart = std::min(firstStart, slices.start(slices.depthRange(0).first));
        }
        QVERIFY(thread >= 0);
        const SliceTable &slices = model().threads()[static_cast<std::size_t>(thread)].slices;
        const auto begin = slices.depthRange(0).first;
        const TimeNs busy = slices.start(begin) + slices.duration(begin) / 2;
        const TimeNs idle = firstStart - 5'000'000;
        QVERIFY(idle > view()->zoom()->range().start);
        const QImage image = view()->viewport()->grab().toImage();
        const int y = viewportY(header) + LaneLayout::kHeaderHeight + LaneLayout::kPreviewHeight / 2 - 1;
        const auto xOf = [this](TimeNs t) {
            return view()->timelineLeft() + static_cast<int>(view()->axis().toPixel(t));
        };
        const QColor background = image.pixelColor(xOf(idle), y);
        QCOMPARE(background, view()->palette().color(QPalette::AlternateBase));
        QVERIFY(image.pixelColor(xOf(busy), y) != background);
        // Clicking the header expands it (and the preview goes).
        QTest::mouseClick(view()->viewport(), Qt::LeftButton, {}, QPoint(40, viewportY(header) + 8));
        QVERIFY(!view()->isCollapsed(python[0]));
        QCOMPARE(view()
                     ->layout()
                     .rows()[static_cast<std::size_t>(view()->layout().headerRowOfProcess(python[0]))]
                     .height,
                 LaneLayout::kHeaderHeight);
    }

    void laneMenuPinsOnEveryRank()
    {
        const std::vector<int> hccl = processesNamed(QStringLiteral("HCCL"));
        QCOMPARE(hccl.size(), std::size_t(2));
        const LaneRow &header =
            view()->layout().rows()[static_cast<std::size_t>(view()->layout().headerRowOfProcess(hccl[0]))];
        view()->verticalScrollBar()->setValue(std::max(0, header.y - 50));
        QVERIFY(triggerLaneMenu(QPoint(60, viewportY(header) + 5), QStringLiteral("Pin HCCL on Every Rank")));
        QCOMPARE(view()->laneVisibility().pinnedProcesses, hccl);
        // Both on top, above the first rank's header.
        const auto &rows = view()->layout().rows();
        QCOMPARE(rows[0].kind, LaneRow::Kind::ProcessHeader);
        QCOMPARE(rows[0].process, hccl[0]);
        QCOMPARE(rows[static_cast<std::size_t>(view()->layout().headerRowOfProcess(hccl[1]))].y <
                     rows[static_cast<std::size_t>(
                              view()->layout().headerRowOfProcess(processesNamed(QStringLiteral("CANN"))[0]))]
                         .y,
                 true);
        // The same menu unpins them everywhere.
        view()->verticalScrollBar()->setValue(0);
        QVERIFY(triggerLaneMenu(QPoint(60, TimelineView::kRulerHeight + 5),
                                QStringLiteral("Unpin HCCL on Every Rank")));
        QVERIFY(view()->laneVisibility().pinnedProcesses.empty());
    }

    void laneMenuCollapsesALayerAcrossRanks()
    {
        const std::vector<int> hardware = processesNamed(QStringLiteral("Ascend Hardware"));
        QCOMPARE(hardware.size(), std::size_t(2));
        const QString layer = layerDisplayName(Layer::DeviceStreams);
        const LaneRow &header = view()->layout().rows()[static_cast<std::size_t>(
            view()->layout().headerRowOfProcess(hardware[0]))];
        view()->verticalScrollBar()->setValue(std::max(0, header.y - 50));
        QVERIFY(
            triggerLaneMenu(QPoint(60, viewportY(header) + 5), QStringLiteral("Collapse All %1").arg(layer)));
        for (int p : hardware)
            QVERIFY(view()->isCollapsed(p));
        QVERIFY(!view()->isCollapsed(processesNamed(QStringLiteral("CANN"))[1]));
        const LaneRow &again = view()->layout().rows()[static_cast<std::size_t>(
            view()->layout().headerRowOfProcess(hardware[1]))];
        view()->verticalScrollBar()->setValue(std::max(0, again.y - 50));
        QVERIFY(
            triggerLaneMenu(QPoint(60, viewportY(again) + 5), QStringLiteral("Expand All %1").arg(layer)));
        for (int p : hardware)
            QVERIFY(!view()->isCollapsed(p));
    }

    void rankAndProcessHeadersStick()
    {
        // Scrolled into the second rank's HCCL lanes, below its headers.
        const int hccl = processesNamed(QStringLiteral("HCCL"))[1];
        const int group = model().processes()[static_cast<std::size_t>(hccl)].group;
        const auto &rows = view()->layout().rows();
        const LaneRow &header = rows[static_cast<std::size_t>(view()->layout().headerRowOfProcess(hccl))];
        view()->verticalScrollBar()->setValue(header.y + 3 * LaneLayout::kSliceHeight);
        QVERIFY(view()->verticalScrollBar()->value() > header.y);
        const QString rank = model().groups()[static_cast<std::size_t>(group)].label;
        const int top = TimelineView::kRulerHeight;
        const QStringList texts = textsBetween(top, top + LaneLayout::kHeaderHeight * 2 + 4);
        QVERIFY2(texts.contains(QStringLiteral("▾ ") + rank), qPrintable(texts.join(QStringLiteral(" | "))));
        QVERIFY2(texts.contains(QStringLiteral("▾ HCCL")), qPrintable(texts.join(QStringLiteral(" | "))));
        // No slice under the sticky headers answers the mouse; a click on the rank header collapses it.
        const QPoint onRank(view()->timelineLeft() + 400, top + 6);
        QVERIFY(!view()->sliceAt(onRank).isValid());
        QTest::mouseClick(view()->viewport(), Qt::LeftButton, {}, onRank);
        QVERIFY(view()->isGroupCollapsed(group));
        // At the top nothing sticks: the first rank's header is in its own place.
        view()->verticalScrollBar()->setValue(0);
        QCOMPARE(
            textsBetween(top, top + LaneLayout::kHeaderHeight + 4).filter(model().groups()[0].label).size(),
            1);
    }
};

QTEST_MAIN(TestTimelineTracks)
#include "tst_timeline_tracks.moc"
