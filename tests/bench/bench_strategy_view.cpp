// The Strategy tab's frame at 1,024 ranks (tp 8 × dp 32 × pp 4, issue 32: ≤ 16 ms a frame): the grid
// painted with a rank hovered (its three groups outlined) into an image of the widget's size, against a
// baseline painted in the same run into the same image: the same cell rectangles filled with the same
// colours, no text, no outline. Prints the median of FRAMES frames of each (default 60) and the strategy's
// computation. Run offscreen: QT_QPA_PLATFORM=offscreen bench_strategy_view [FRAMES] [WIDTHxHEIGHT] [PNG]
// (PNG: the last frame is saved there, to look at).

#include "MegatronCluster.h"
#include "cluster/ParallelStrategy.h"
#include "cluster/StrategyView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cstdio>

using namespace at;
using namespace at::cluster;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int frames = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 60;
    QSize size(1500, 560); // the Strategy tab in a 1600 x 1000 window
    if (argc > 2) {
        const QStringList parts = QString::fromLocal8Bit(argv[2]).split(QLatin1Char('x'));
        if (parts.size() == 2)
            size = QSize(parts[0].toInt(), parts[1].toInt());
    }
    const test::Megatron job{8, 1, 32, 4};
    auto model = std::make_shared<const ClusterModel>(test::megatronModel(job));

    QElapsedTimer timer;
    timer.start();
    const ParallelStrategy strategy = parallelStrategy(*model);
    const double strategyMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;

    StrategyView view;
    view.resize(size);
    timer.restart();
    view.setModel(model);
    const double setModelMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    view.show();
    QCoreApplication::processEvents();
    StrategyGrid *grid = view.grid();
    const QPoint hover = grid->cellRect(1000).center();
    QMouseEvent move(QEvent::MouseMove, hover, grid->mapToGlobal(hover), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(grid, &move);
    if (grid->hoveredRank() != 1000) {
        std::fprintf(stderr, "bench_strategy_view: the hover did not reach rank 1000\n");
        return 1;
    }

    QImage image(grid->size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<QRect> cells;
    std::vector<QColor> colors;
    for (const RankPlacement &p : strategy.ranks) {
        cells.push_back(grid->cellRect(p.rank));
        colors.push_back(grid->cellColor(p.rank));
    }
    std::vector<double> paint, baseline;
    for (int i = 0; i < frames; ++i) {
        image.fill(Qt::white);
        timer.restart();
        grid->render(&image);
        paint.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);

        image.fill(Qt::white);
        timer.restart();
        {
            QPainter p(&image);
            for (std::size_t c = 0; c < cells.size(); ++c)
                p.fillRect(cells[c], colors[c]);
        }
        baseline.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    if (argc > 3) {
        image.fill(Qt::white);
        grid->render(&image);
        image.save(QString::fromLocal8Bit(argv[3]));
    }
    std::printf("strategy view, %d ranks (%s), grid %d x %d cells of %d px in %d x %d, numbers %s\n",
                static_cast<int>(strategy.ranks.size()), qPrintable(strategy.shapeText()), strategy.rows,
                strategy.columns, grid->cellRect(0).width(), grid->width(), grid->height(),
                grid->showsRankNumbers() ? "shown" : "dropped");
    std::printf("parallelStrategy(): %.2f ms; setModel (strategy + six figures + layout): %.2f ms\n",
                strategyMs, setModelMs);
    std::printf(
        "frame, rank 1000 hovered: median %.2f ms of %d (baseline, the cells filled alone: %.2f ms)\n",
        median(paint), frames, median(baseline));
    return 0;
}
