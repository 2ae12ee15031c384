// The timeline at scale: the level-of-detail picture against the slice-by-slice picture of a tiled real
// trace (same columns with work, by content), and held w/s/a/d keys that coalesce instead of
// queueing frames.

#include "TestSupport.h"
#include "TiledModel.h"
#include "TimelineView.h"

#include <QKeyEvent>
#include <QTest>

using namespace at;

namespace {

// Counts the paints of a widget.
class PaintCounter : public QObject
{
public:
    int paints = 0;
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return false;
    }
};

} // namespace

class TestTimelineLod : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<TimelineView> m_view;

    // Per thread row and depth in view: which timeline columns hold anything but the background.
    std::vector<std::vector<char>> paintedColumns(const QImage &image)
    {
        const QColor base = m_view->palette().color(QPalette::Base);
        const int left = m_view->timelineLeft();
        std::vector<std::vector<char>> bands;
        for (const LaneRow &row : m_view->layout().rows()) {
            if (row.kind != LaneRow::Kind::Thread)
                continue;
            const SliceTable &t = m_model->threads()[static_cast<std::size_t>(row.index)].slices;
            for (int d = 0; d < t.depthCount(); ++d) {
                const int top = TimelineView::kRulerHeight + LaneLayout::sliceTop(row, d);
                if (top + LaneLayout::kSliceHeight > image.height())
                    return bands;
                std::vector<char> columns(static_cast<std::size_t>(image.width() - left), 0);
                for (int x = left; x < image.width(); ++x)
                    for (int y = top + 1; y < top + LaneLayout::kSliceHeight - 2 && !columns[x - left]; ++y)
                        columns[static_cast<std::size_t>(x - left)] = image.pixel(x, y) != base.rgb();
                bands.push_back(std::move(columns));
            }
        }
        return bands;
    }

    static bool near(const std::vector<char> &columns, std::size_t x)
    {
        for (std::size_t k = x == 0 ? 0 : x - 1; k <= x + 1 && k < columns.size(); ++k)
            if (columns[k])
                return true;
        return false;
    }

    void sendKey(Qt::Key key, bool autoRepeat)
    {
        QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier, QString(), autoRepeat);
        QCoreApplication::sendEvent(m_view.get(), &press);
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto one = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(one);
        test::TileOptions options;
        options.copies = 60;
        m_model = test::tileModel(*one, options);
        QVERIFY(m_model->sliceCount() > 200'000);
    }

    void init()
    {
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1400, 1000);
        m_view->setModel(m_model.get());
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        m_view->setFocus();
    }

    void cleanup() { m_view.reset(); }

    void lodPictureHasWorkWhereSlicesAre_data()
    {
        QTest::addColumn<double>("zoom");
        QTest::addRow("full view") << 1.0;
        QTest::addRow("zoom 4x") << 4.0;
        QTest::addRow("zoom 20x") << 20.0;
    }

    void lodPictureHasWorkWhereSlicesAre()
    {
        QFETCH(double, zoom);
        m_view->zoom()->zoom(zoom, m_view->zoom()->range().start + m_view->zoom()->range().width() / 3);
        m_view->setLevelOfDetail(false);
        const QImage exact = m_view->viewport()->grab().toImage();
        QCOMPARE(m_view->lastLodDepths(), 0);
        m_view->setLevelOfDetail(true);
        const QImage lod = m_view->viewport()->grab().toImage();
        QVERIFY2(m_view->lastLodDepths() > 0, "the tiled trace is dense enough for summaries");
        const auto a = paintedColumns(exact);
        const auto b = paintedColumns(lod);
        QCOMPARE(a.size(), b.size());
        QVERIFY(!a.empty());
        int painted = 0;
        for (std::size_t band = 0; band < a.size(); ++band)
            for (std::size_t x = 0; x < a[band].size(); ++x) {
                // Slice edges fall on fractional pixels: the two pictures may differ by one column.
                if (a[band][x])
                    QVERIFY2(near(b[band], x),
                             qPrintable(QStringLiteral("band %1 column %2 lost").arg(band).arg(x)));
                if (b[band][x])
                    QVERIFY2(near(a[band], x),
                             qPrintable(QStringLiteral("band %1 column %2 added").arg(band).arg(x)));
                painted += a[band][x];
            }
        QVERIFY(painted > 1000);
    }

    void zoomedInDrawsSlices()
    {
        // 50 us inside a step: a few kernels across the screen.
        const SliceRef step = test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#80"));
        QVERIFY(step.isValid());
        const TimeNs t =
            m_model->threads()[static_cast<std::size_t>(step.thread)].slices.start(step.index) + 1'000'000;
        m_view->zoom()->setRange({t, t + 50'000}, true);
        m_view->viewport()->grab();
        QCOMPARE(m_view->lastLodDepths(), 0);
        QVERIFY(m_view->lastExactDepths() > 0);
    }

    void heldKeyRepeatsCoalesce()
    {
        PaintCounter counter;
        m_view->viewport()->installEventFilter(&counter);
        QCoreApplication::processEvents();
        counter.paints = 0;
        const TimeNs before = m_view->zoom()->range().width();
        // One press and 40 repeats delivered at once (as after a slow frame): no paint happens
        // while they are handled, one afterwards, and the zoom follows the time held (~0), not
        // the 41 events.
        sendKey(Qt::Key_W, false);
        for (int i = 0; i < 40; ++i)
            sendKey(Qt::Key_W, true);
        QCOMPARE(counter.paints, 0);
        QCoreApplication::processEvents();
        QVERIFY(counter.paints <= 1);
        const double factor =
            static_cast<double>(before) / static_cast<double>(m_view->zoom()->range().width());
        QVERIFY2(factor >= 1.2 && factor < std::pow(ZoomController::kZoomStep, 4),
                 qPrintable(QString::number(factor)));
        m_view->viewport()->removeEventFilter(&counter);
    }

    void heldKeyMovesWithTheClock()
    {
        // Repeats ~50 ms apart for ~0.5 s: about 15 steps of 33 ms, whatever the number of events.
        const TimeNs before = m_view->zoom()->range().start;
        const TimeNs width = m_view->zoom()->range().width();
        m_view->zoom()->zoom(8.0, before + width / 2);
        const TimeRange start = m_view->zoom()->range();
        // The test times the same intervals as the view (between two handled key events), so a
        // stall of the loaded machine changes the expectation, not the verdict.
        QElapsedTimer clock;
        sendKey(Qt::Key_D, false);
        clock.start();
        double heldSteps = 1;
        for (int i = 0; i < 10; ++i) {
            QTest::qWait(50);
            heldSteps += std::min(static_cast<double>(clock.restart()) / 33.0, 8.0);
            sendKey(Qt::Key_D, true);
        }
        const double panned = static_cast<double>(m_view->zoom()->range().start - start.start) /
                              (ZoomController::kPanFraction * static_cast<double>(start.width()));
        QVERIFY2(panned > 0.7 * heldSteps && panned < 1.3 * heldSteps + 1,
                 qPrintable(QStringLiteral("%1 steps for %2 expected").arg(panned).arg(heldSteps)));
    }

    void singlePressesStayOneStepEach()
    {
        const TimeNs before = m_view->zoom()->range().width();
        for (int i = 0; i < 3; ++i)
            QTest::keyClick(m_view.get(), Qt::Key_W);
        const double factor =
            static_cast<double>(before) / static_cast<double>(m_view->zoom()->range().width());
        QVERIFY(std::abs(factor - std::pow(ZoomController::kZoomStep, 3)) < 1e-3);
    }
};

QTEST_MAIN(TestTimelineLod)
#include "tst_timeline_lod.moc"
