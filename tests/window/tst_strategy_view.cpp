// The cluster page's Strategy tab through the real MainWindow (offscreen): the Qwen3 job's DP × PP grid,
// hovering a rank outlines its groups, a click asks the window to open the rank, the figure combo recolours
// the cells, the findings' ranks carry a marker, and nothing is cut at 900 x 700 and 1600 x 1000, light and
// dark, English and Chinese. A 1,024-rank grid drops the numbers and keeps them in the tool tips.
#include "AppTestSupport.h"
#include "ClusterTestSupport.h"
#include "MegatronCluster.h"
#include "MessageBar.h"
#include "Theme.h"
#include "Translations.h"
#include "cluster/ClusterView.h"
#include "cluster/StrategyView.h"

#include <QComboBox>
#include <QHelpEvent>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

using namespace at;
using namespace at::cluster;
using namespace at::test;

class TstStrategyView : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

    // With AT_TEST_SCREENSHOTS=DIR the window is saved as shown, to look at (not compared).
    static void saveGrab(QWidget *widget, const QString &name)
    {
        const QString dir = qEnvironmentVariable("AT_TEST_SCREENSHOTS");
        if (dir.isEmpty())
            return;
        QCoreApplication::processEvents();
        widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    }

    // Whether the cell's border band (its outer few pixels) shows the colour.
    static bool borderHas(const QImage &image, const QRect &cell, const QColor &color)
    {
        for (int d = 0; d < std::min(8, cell.width() / 2); ++d)
            for (const QPoint &p :
                 {QPoint(cell.left() + d, cell.center().y()), QPoint(cell.center().x(), cell.top() + d),
                  QPoint(cell.right() - d, cell.center().y())})
                if (image.pixelColor(p).rgb() == color.rgb())
                    return true;
        return false;
    }

    static StrategyView *openQwen3(MainWindow &window, QSize size)
    {
        window.resize(size);
        window.show();
        window.openPath(qwen3Cluster());
        window.showClusterPage();
        if (!window.showsCluster())
            return nullptr;
        QCoreApplication::processEvents();
        return window.clusterView()->strategyView();
    }

private slots:
    void initTestCase() { useScratchSettings(m_settings.path()); }
    void cleanup()
    {
        setUiLanguage(QStringLiteral("en"));
        applyUiTheme(UiTheme::Light);
    }

    void hoverOutlinesClickOpens()
    {
        MainWindow window;
        StrategyView *view = openQwen3(window, QSize(1600, 1000));
        QVERIFY(view);
        // The tab exists and, the job having two dimensions, is the one shown.
        auto *tabs = window.clusterView()->findChild<QTabWidget *>();
        const int tab = tabs->indexOf(view);
        QVERIFY(tab >= 0);
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Strategy"));
        QCOMPARE(tabs->currentWidget(), view);
        StrategyGrid *grid = view->grid();
        QCOMPARE(view->strategy().shapeText(), QStringLiteral("DP 2 × PP 2"));
        QVERIFY(grid->keyText().contains(QStringLiteral("DP 2 × PP 2")));
        for (int rank = 0; rank < 4; ++rank) {
            QVERIFY(!grid->cellRect(rank).isEmpty());
            QCOMPARE(grid->rankAt(grid->cellRect(rank).center()), rank);
        }
        QVERIFY(grid->showsRankNumbers());
        // Stage 0 above stage 1: ranks 0, 1 on the first row.
        QVERIFY(grid->cellRect(0).top() == grid->cellRect(1).top());
        QVERIFY(grid->cellRect(2).top() > grid->cellRect(0).bottom());

        // Hover rank 2: its PP group {0, 2} and its DP group {2, 3} outlined, each in its dimension's colour.
        QTest::mouseMove(grid, grid->cellRect(2).center());
        QTRY_COMPARE(grid->hoveredRank(), 2);
        QCOMPARE(grid->outlinedRanks(ParallelDimension::PP), (std::vector<int>{0, 2}));
        QCOMPARE(grid->outlinedRanks(ParallelDimension::DP), (std::vector<int>{2, 3}));
        const QImage hovered = grid->grab().toImage();
        const QColor pp = StrategyGrid::outlineColor(ParallelDimension::PP);
        const QColor dp = StrategyGrid::outlineColor(ParallelDimension::DP);
        QVERIFY(borderHas(hovered, grid->cellRect(0), pp));
        QVERIFY(!borderHas(hovered, grid->cellRect(0), dp));
        QVERIFY(borderHas(hovered, grid->cellRect(3), dp));
        QVERIFY(!borderHas(hovered, grid->cellRect(3), pp));
        QVERIFY(!borderHas(hovered, grid->cellRect(1), pp) && !borderHas(hovered, grid->cellRect(1), dp));
        QVERIFY(grid->toolTipText(2).contains(QStringLiteral("DP 0/2 · PP 1/2")));
        saveGrab(&window, QStringLiteral("strategy-hover-1600x1000"));
        QTest::mouseMove(grid, QPoint(1, 1));
        QTRY_COMPARE(grid->hoveredRank(), -1);
        QVERIFY(grid->outlinedRanks(ParallelDimension::PP).empty());

        // The findings (stage imbalance between the stages) name ranks: they carry a marker.
        int marked = -1;
        for (int rank = 0; rank < 4 && marked < 0; ++rank)
            if (!grid->findingsOn(rank).isEmpty())
                marked = rank;
        QVERIFY(marked >= 0);
        QVERIFY(grid->cellRect(marked).contains(grid->markerRect(marked)));
        QVERIFY(grid->toolTipText(marked).contains(grid->findingsOn(marked).first()));
        // Hovering the marker itself: the tool tip names the findings.
        const QPoint onMarker = grid->markerRect(marked).center();
        QHelpEvent help(QEvent::ToolTip, onMarker, grid->mapToGlobal(onMarker));
        QCoreApplication::sendEvent(grid, &help);
        QVERIFY2(QToolTip::text().startsWith(QStringLiteral("Findings naming rank %1:").arg(marked)) &&
                     QToolTip::text().contains(grid->findingsOn(marked).first()),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();

        // Another figure, other colours: computing differs from free in its order over the ranks.
        const QImage before = grid->grab().toImage();
        std::vector<QRgb> colorsBefore;
        for (int rank = 0; rank < 4; ++rank)
            colorsBefore.push_back(grid->cellColor(rank).rgb());
        view->figureChooser()->setCurrentIndex(static_cast<int>(RankFigure::Free));
        QCOMPARE(view->figure(), RankFigure::Free);
        QVERIFY(grid->legendText().startsWith(QStringLiteral("Free: ")));
        std::vector<QRgb> colorsAfter;
        for (int rank = 0; rank < 4; ++rank)
            colorsAfter.push_back(grid->cellColor(rank).rgb());
        QVERIFY(colorsBefore != colorsAfter);
        const QImage after = grid->grab().toImage();
        int changed = 0;
        for (int rank = 0; rank < 4; ++rank) {
            const QPoint p = grid->cellRect(rank).topLeft() + QPoint(3, grid->cellRect(rank).height() - 4);
            changed += before.pixelColor(p) != after.pixelColor(p) ? 1 : 0;
        }
        QVERIFY(changed > 0);

        // Click rank 3: the page asks the window to open it, and the window does (a load, or a message
        // for a rank that has summary files only).
        QSignalSpy asked(window.clusterView(), &ClusterView::rankOpenRequested);
        QTest::mouseClick(grid, Qt::LeftButton, {}, grid->cellRect(3).center());
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.first().first().toInt(), 3);
        QVERIFY(window.isLoading() || window.messageBar()->isVisible());
    }

    // Nothing cut: the key, the grid and the legend inside the tab without scrolling, the numbers inside
    // their cells, at both window sizes, both themes and both languages.
    void fitsTheWindow_data() { addLanguageThemeSizeRows(); }
    void fitsTheWindow()
    {
        QFETCH(QString, language);
        QFETCH(int, theme);
        QFETCH(QSize, size);
        QVERIFY(setUiLanguage(language));
        applyUiTheme(static_cast<UiTheme>(theme));
        MainWindow window;
        StrategyView *view = openQwen3(window, size);
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());
        StrategyGrid *grid = view->grid();
        auto *scroll = view->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QVERIFY2(!scroll->verticalScrollBar()->isVisible() && !scroll->horizontalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("grid %1x%2 in %3x%4")
                                .arg(grid->width())
                                .arg(grid->height())
                                .arg(scroll->viewport()->width())
                                .arg(scroll->viewport()->height())));
        QVERIFY(grid->rect().contains(grid->keyRect()));
        QVERIFY2(grid->rect().contains(grid->legendRect()),
                 qPrintable(QStringLiteral("legend bottom %1, grid height %2")
                                .arg(grid->legendRect().bottom())
                                .arg(grid->height())));
        const QFontMetrics metrics = grid->fontMetrics();
        QVERIFY(metrics.horizontalAdvance(grid->legendText()) <= grid->legendRect().width());
        QVERIFY(grid->showsRankNumbers());
        for (int rank = 0; rank < 4; ++rank) {
            const QRect cell = grid->cellRect(rank);
            QVERIFY(grid->rect().contains(cell));
            QVERIFY(cell.bottom() < grid->legendRect().top());
            QVERIFY(metrics.horizontalAdvance(QString::number(rank)) < cell.width());
            QVERIFY(cell.width() >= metrics.height());
        }
        // The combo box shows its whole current text.
        QComboBox *combo = view->figureChooser();
        QVERIFY(combo->width() >= combo->sizeHint().width());
        saveGrab(&window, QStringLiteral("strategy-%1-%2-%3x%4")
                              .arg(language, uiThemeName(static_cast<UiTheme>(theme)))
                              .arg(size.width())
                              .arg(size.height()));
    }

    // 1,024 ranks (tp 8 × dp 32 × pp 4): small cells without numbers, the tool tip carries them; hover
    // outlines the 8 / 32 / 4 ranks of the groups.
    void thousandRanks()
    {
        auto model = std::make_shared<const ClusterModel>(megatronModel(Megatron{8, 1, 32, 4}));
        StrategyView view;
        view.resize(1500, 560);
        view.setModel(model);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        StrategyGrid *grid = view.grid();
        QCOMPARE(view.strategy().rows * view.strategy().columns, 1024);
        QVERIFY(!grid->showsRankNumbers());
        QVERIFY(grid->cellRect(1000).width() >= 4);
        QVERIFY(grid->toolTipText(1000).startsWith(QStringLiteral("Rank 1000")));
        QTest::mouseMove(grid, grid->cellRect(1000).center());
        QTRY_COMPARE(grid->hoveredRank(), 1000);
        QCOMPARE(grid->outlinedRanks(ParallelDimension::TP).size(), std::size_t(8));
        QCOMPARE(grid->outlinedRanks(ParallelDimension::DP).size(), std::size_t(32));
        QCOMPARE(grid->outlinedRanks(ParallelDimension::PP).size(), std::size_t(4));
        // The colours follow the figure: rank 0 computes least (the ramp's start), rank 1023 most.
        QCOMPARE(grid->cellColor(0).rgb(), QColor(0x440154).rgb());
        QCOMPARE(grid->cellColor(1023).rgb(), QColor(0xfde725).rgb());
    }
};

QTEST_MAIN(TstStrategyView)
#include "tst_strategy_view.moc"
