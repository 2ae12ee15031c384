#include "TimeAxis.h"
#include "ZoomController.h"

#include <QSignalSpy>
#include <QTest>

using namespace at;

class TestZoomController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void axisMapsBothWays()
    {
        const TimeAxis axis({1000, 11000}, 1000); // 10 ns per pixel
        QCOMPARE(axis.nsPerPixel(), 10.0);
        QCOMPARE(axis.toPixel(1000), 0.0);
        QCOMPARE(axis.toPixel(6000), 500.0);
        QCOMPARE(axis.toTime(250), TimeNs(3500));
    }

    void rulerStepIsOneTwoFive()
    {
        QCOMPARE(rulerStep(TimeAxis({0, 1000000}, 1000), 100), TimeNs(100000)); // 1000 ns/px * 100 px
        QCOMPARE(rulerStep(TimeAxis({0, 1500000}, 1000), 100), TimeNs(200000)); // needs >= 150000
        QCOMPARE(rulerStep(TimeAxis({0, 3000000}, 1000), 100), TimeNs(500000)); // needs >= 300000
        QCOMPARE(rulerStep(TimeAxis({0, 10}, 1000), 100), TimeNs(1));
    }

    void zoomKeepsAnchorAndRecordsHistory()
    {
        ZoomController zoom;
        zoom.setDataRange({0, 1000000});
        QSignalSpy spy(&zoom, &ZoomController::rangeChanged);
        zoom.zoomIn(250000);
        const TimeRange r = zoom.range();
        QCOMPARE(r.width(), TimeNs(800000)); // 1/1.25
        // The anchor stays at the same fraction of the view (a quarter from the left).
        QCOMPARE(r.start, TimeNs(250000 - 200000));
        QCOMPARE(spy.count(), 1);
        QVERIFY(zoom.canUndo());
        zoom.undo();
        QCOMPARE(zoom.range(), (TimeRange{0, 1000000}));
        QVERIFY(!zoom.canUndo());
    }

    void panMovesByTenPercent()
    {
        ZoomController zoom;
        zoom.setDataRange({0, 1000000});
        zoom.zoom(2.0, 500000);
        const TimeRange before = zoom.range();
        zoom.pan(ZoomController::kPanFraction);
        QCOMPARE(zoom.range().start - before.start, before.width() / 10);
        QCOMPARE(zoom.range().width(), before.width());
    }

    void clampsToMinimumWidthAndData()
    {
        ZoomController zoom;
        zoom.setDataRange({0, 1000});
        for (int i = 0; i < 100; ++i)
            zoom.zoomIn(500);
        QCOMPARE(zoom.range().width(), ZoomController::kMinimumWidth);
        zoom.showAll();
        for (int i = 0; i < 100; ++i)
            zoom.pan(1.0);
        // Never panned further than one data width of slack past the end.
        QVERIFY(zoom.range().start <= 2000);
    }

    void repeatedZoomsCoalesceInHistory()
    {
        ZoomController zoom;
        zoom.setDataRange({0, 1000000});
        for (int i = 0; i < 10; ++i)
            zoom.zoomIn(500000); // one auto-repeat burst
        zoom.undo();
        QCOMPARE(zoom.range(), (TimeRange{0, 1000000}));
    }
};

QTEST_MAIN(TestZoomController)
#include "tst_zoomcontroller.moc"
