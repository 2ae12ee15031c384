#include "Luminance.h"
#include "TestSupport.h"
#include "Theme.h"
#include "TimelineView.h"

#include <QApplication>
#include <QPalette>
#include <QTest>

using namespace at;
using at::test::luminance;

// The timeline under a dark palette (as a dark system theme gives it) and at device pixel ratio 2
// (QT_SCALE_FACTOR=2, set before the application starts): checked by the pixels of a grab.
class TestThemesHiDpi : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(m_model);
        QCOMPARE(qApp->devicePixelRatio(), 2.0);
    }

    void darkPaletteIsFollowed()
    {
        TimelineView view;
        view.setPalette(darkPalette());
        view.resize(1000, 600);
        view.setModel(m_model.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.viewport()->grab().toImage();
        const qreal dpr = image.devicePixelRatio();
        // Ruler background and the label column are dark, with light text in them.
        const QColor ruler = image.pixelColor(QPoint(5, 2) * dpr);
        QVERIFY2(luminance(ruler) < 80, qPrintable(ruler.name()));
        int lightInLabels = 0, darkInLabels = 0;
        for (int y = TimelineView::kRulerHeight; y < 300; ++y)
            for (int x = 2; x < TimelineView::kLabelWidth - 2; ++x) {
                const double l = luminance(image.pixelColor(QPoint(x, y) * dpr));
                lightInLabels += l > 180;
                darkInLabels += l < 80;
            }
        QVERIFY2(lightInLabels > 200, "lane names are not drawn light on dark");
        QVERIFY(darkInLabels > lightInLabels); // the background stays dark
    }

    void sharpAtDevicePixelRatioTwo()
    {
        TimelineView view;
        view.resize(1000, 600);
        view.setModel(m_model.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const SliceRef step = test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#50"));
        view.selectSlice(step, true);
        view.fitSelection();
        const QImage image = view.viewport()->grab().toImage();
        QCOMPARE(image.devicePixelRatio(), 2.0);
        QCOMPARE(image.width(), view.viewport()->width() * 2);
        // The slice is drawn where sliceRect() says, in device pixels, in its colour.
        const QRectF r = view.sliceRect(step);
        QVERIFY(!r.isNull());
        const QPoint inside = (r.center() + QPointF(0, 4)).toPoint() * 2;
        QCOMPARE(image.pixelColor(inside), view.sliceColor(step));
        // Its top edge lies on the device pixel grid: the row above the rect is not the slice colour.
        const QPoint above(inside.x(), static_cast<int>(r.top() * 2) - 3);
        QVERIFY(image.pixelColor(above) != view.sliceColor(step));
    }
};

int main(int argc, char **argv)
{
    qputenv("QT_SCALE_FACTOR", "2");
    QApplication app(argc, argv);
    TestThemesHiDpi test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_themes_hidpi.moc"
