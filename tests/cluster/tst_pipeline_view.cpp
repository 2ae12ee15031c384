// The cluster page's Pipeline tab through the real MainWindow on the Qwen3 pp2 sample: the tab offers to
// load one rank per stage, the load builds the schedule and shows the tab, hovering a block gives its
// tooltip, and clicking it opens the rank's timeline at the block.
#include "AppTestSupport.h"
#include "ClusterTestSupport.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"
#include "ZoomController.h"
#include "cluster/ClusterView.h"
#include "cluster/PipelineView.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::test;

class TstPipelineView : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private Q_SLOTS:
    void initTestCase() { useScratchSettings(m_settings.path()); }

    void pipelineTabThroughTheWindow()
    {
        const QString root = qwen3Cluster();
        if (!QFileInfo::exists(root))
            QSKIP("the Qwen3 sample is not beside the checkout");
        MainWindow window;
        window.resize(900, 700);
        window.show();
        window.openPath(root);
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        ClusterView *cluster = window.clusterView();
        PipelineView *view = cluster->pipelineView();
        cluster->showPipelineTab();
        QVERIFY(view->isVisible());
        // Before the load: which ranks it reads (ranks 1 and 3 have summary files only).
        QCOMPARE(view->rankChoice().stageRanks, (std::vector<std::pair<int, int>>{{0, 0}, {1, 2}}));
        QVERIFY(view->loadButton()->isVisible());
        QVERIFY2(view->messageLabel()->text().contains(QLatin1String("rank 2")),
                 qPrintable(view->messageLabel()->text()));
        QVERIFY(!view->schedule().isValid());

        QSignalSpy finished(&window, &MainWindow::loadFinished);
        QTest::mouseClick(view->loadButton(), Qt::LeftButton);
        QVERIFY(window.isLoading());
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        QTRY_VERIFY(view->schedule().isValid());
        // The load's end brings the page back on the Pipeline tab, two stage rows of 2 micro-batches.
        QVERIFY(window.showsCluster());
        QVERIFY(view->isVisible());
        QCOMPARE(view->schedule().stages.size(), std::size_t(2));
        QCOMPARE(view->schedule().microBatches, 2);
        QVERIFY(!view->loadButton()->isVisible());

        // Hover stage 1's first forward block: its tooltip.
        const QRect block = view->blockRect(1, 0);
        QVERIFY(!block.isEmpty());
        QVERIFY(view->rect().contains(block.center()));
        QTest::mouseMove(view, block.center());
        const QString tip = view->toolTipAt(block.center());
        QVERIFY2(tip.startsWith(QLatin1String("Forward, micro-batch 1")), qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("Stage 1, rank 2")), qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("Duration")), qPrintable(tip));
        // A bubble: stage 1 waits for stage 0's first forward at the start.
        const QPoint warmUp(view->blockRect(0, 0).left() + 2, block.center().y());
        QVERIFY2(view->toolTipAt(warmUp).startsWith(QLatin1String("Bubble")),
                 qPrintable(view->toolTipAt(warmUp)));

        // Click: the rank's timeline, framed on the block, its first kernel selected.
        const cluster::PipelineBlock expected = view->schedule().stages[1].blocks[0];
        QTest::mouseClick(view, Qt::LeftButton, {}, block.center());
        QVERIFY(!window.showsCluster());
        TimelineView *timeline = window.timeline();
        QCOMPARE(timeline->selectedSlice(), expected.first);
        const TimeRange shown = timeline->zoom()->range();
        QVERIFY(shown.start <= expected.start && shown.end >= expected.end);
        QVERIFY(shown.width() < 2 * expected.duration());

        // Back on the page: the same timeline is loaded, so the schedule stays.
        window.showClusterPage();
        QVERIFY(view->schedule().isValid());

        // Readable at both sizes, in both themes and languages: every block inside the view with the axis
        // (two text lines) below the last row, and the blocks drawn in their colours, the same in dark.
        // Each size, theme and language twice over four looks (all eight would double the test's time).
        struct Look
        {
            QSize size;
            UiTheme theme;
            QString language;
        };
        const Look looks[] = {{QSize(900, 700), UiTheme::Light, QStringLiteral("en")},
                              {QSize(900, 700), UiTheme::Dark, QStringLiteral("zh_CN")},
                              {QSize(1600, 1000), UiTheme::Dark, QStringLiteral("en")},
                              {QSize(1600, 1000), UiTheme::Light, QStringLiteral("zh_CN")}};
        for (const Look &look : looks) {
            const QSize size = look.size;
            setUiLanguage(look.language);
            applyUiTheme(look.theme);
            window.resize(size);
            QCoreApplication::processEvents();
            const QImage image = view->grab().toImage();
            const QRect forward = view->blockRect(0, 0), backward = view->blockRect(0, 2);
            const QRect last = view->blockRect(1, 3);
            QVERIFY(view->rect().contains(forward) && view->rect().contains(last));
            QVERIFY2(last.bottom() + 2 * view->fontMetrics().height() < view->height(),
                     qPrintable(QStringLiteral("%1x%2").arg(size.width()).arg(size.height())));
            const qreal ratio = image.devicePixelRatio();
            const auto pixel = [&](QPoint p) {
                return image.pixelColor(static_cast<int>(p.x() * ratio), static_cast<int>(p.y() * ratio));
            };
            QCOMPARE(pixel(forward.topLeft() + QPoint(3, 3)), pipelineForwardColor());
            QCOMPARE(pixel(backward.topLeft() + QPoint(3, 3)), pipelineBackwardColor());
        }
        setUiLanguage(QStringLiteral("en"));
        applyUiTheme(UiTheme::Light);
    }
};

QTEST_MAIN(TstPipelineView)
#include "tst_pipeline_view.moc"
