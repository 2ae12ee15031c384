// Rendering and queries at scale (issue 10). The real level1 step is tiled K times in-process
// (52 copies ~ the 106 MB tiled JSON, 520 ~ 1 GB, 2080 ~ 4 GB) and a 1920x1080 TimelineView is
// rendered into a QImage offscreen while zooming from the full view down to single kernels (each
// level 4x narrower; the larger models use the first model's widths after their own full view) and
// panning 2.5 % of the width per frame. Per level it prints the median and p95 frame time
// (thread CPU time) with the level of detail and, as the in-run baseline, with every slice drawn (LOD off),
// then the ratio of the largest model to the smallest. It also times the GUI's search (searchSlices, as
// SearchBar) and range statistics (statisticsInRange over the whole range, as StatisticsPanel).
// usage: QT_QPA_PLATFORM=offscreen bench_render [COPIES...] (default 52 520; AT_BENCH_FRAMES=N
// frames per level and mode, default 15)

#include "TiledModel.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TraceQueries.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>

using namespace at;

namespace {

struct Stats
{
    double median = 0, p95 = 0;
};

Stats stats(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
        return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * ms.size()))];
    };
    return {at(0.5), at(0.95)};
}

double msSince(const QElapsedTimer &t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

// Frames are timed in CPU time of this thread: offscreen painting is single-threaded, and wall time
// on the shared 2-core machine mostly measured who else was scheduled (bimodal medians).
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct Level
{
    TimeNs width = 0;
    Stats lod, exact;
    int lodDepths = 0, exactDepths = 0;
};

struct Result
{
    int copies = 0;
    std::size_t slices = 0;
    double buildS = 0, firstFrameMs = 0;
    std::vector<Level> levels;
    double searchMs = 0, searchMissMs = 0, statsMs = 0;
    std::size_t searchHits = 0, statsNames = 0;
    double sliceBytes = 0, lodBytes = 0;
};

const int kFrames = qEnvironmentVariableIntValue("AT_BENCH_FRAMES") > 0
                        ? qEnvironmentVariableIntValue("AT_BENCH_FRAMES")
                        : 15;
constexpr TimeNs kSmallestWidth = 20'000; // 20 us: a few kernels across the screen

// Renders the full view, then each width in 'widths' (empty: the full width / 4^k down to 20 us).
Result run(const TraceModel &one, int copies, std::vector<TimeNs> widths)
{
    Result r;
    r.copies = copies;
    QElapsedTimer t;
    t.start();
    test::TileOptions options;
    options.copies = copies;
    const std::unique_ptr<TraceModel> model = test::tileModel(one, options);
    r.buildS = msSince(t) / 1e3;
    r.slices = model->sliceCount();
    r.sliceBytes = static_cast<double>(model->memoryBytes());

    TimelineView view;
    view.resize(1920, 1080);
    view.setModel(model.get());
    // Deep host stacks start collapsed; the frames measured draw them, as they did before that.
    for (int process : TimelineView::initiallyCollapsed(*model))
        view.setCollapsed(process, false);
    view.show();
    QCoreApplication::processEvents();
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    auto frame = [&] {
        const double before = threadCpuMs();
        view.viewport()->render(&image);
        return threadCpuMs() - before;
    };
    r.firstFrameMs = frame(); // builds the summaries of the lanes on screen
    r.lodBytes = static_cast<double>(model->lodMemoryBytes());
    if (qEnvironmentVariableIsSet("AT_LOD_DEBUG"))
        for (std::size_t th = 0; th < model->threads().size(); ++th) {
            const SliceTable &st = model->threads()[th].slices;
            const SliceLod &lod = model->sliceLod(static_cast<int>(th));
            if (lod.memoryBytes() < 100000)
                continue;
            std::printf("thread %zu: %zu slices, %zu bytes\n", th, st.size(), lod.memoryBytes());
            for (int d = 0; d < st.depthCount(); ++d) {
                if (!lod.baseBucket(d))
                    continue;
                std::printf("  depth %d: %u slices base %lld:", d,
                            st.depthRange(d).second - st.depthRange(d).first, (long long)lod.baseBucket(d));
                for (int l = 0; l < lod.levelCount(d); ++l)
                    std::printf(" %zu", lod.level(d, l).size());
                std::printf("\n");
            }
        }

    const TimeRange data = view.zoom()->dataRange();
    if (widths.empty())
        for (TimeNs width = data.width() / 4; width >= kSmallestWidth; width /= 4)
            widths.push_back(width);
    widths.insert(widths.begin(), data.width());
    for (TimeNs width : widths) {
        Level level;
        level.width = width;
        for (bool lod : {true, false}) {
            view.setLevelOfDetail(lod);
            std::vector<double> ms;
            const TimeNs first =
                data.start + static_cast<TimeNs>(static_cast<double>(data.width() - width) * 0.3);
            for (int i = 0; i < kFrames; ++i) {
                // Pan back and forth (2.5 % of the width a frame, within +-10 %), so that every frame
                // shows data even at the full view.
                const int phase = i % 16 < 8 ? i % 16 : 16 - i % 16;
                const TimeNs start = first + (phase - 4) * width / 40;
                view.zoom()->setRange({start, start + width}, false);
                ms.push_back(frame());
            }
            (lod ? level.lod : level.exact) = stats(ms);
            (lod ? level.lodDepths : level.exactDepths) = lod ? view.lastLodDepths() : view.lastExactDepths();
        }
        r.levels.push_back(level);
    }
    view.setLevelOfDetail(true);

    // Queries exactly as the GUI runs them, median of 3.
    auto median3 = [](auto &&fn) {
        std::vector<double> ms;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer q;
            q.start();
            fn();
            ms.push_back(msSince(q));
        }
        std::sort(ms.begin(), ms.end());
        return ms[1];
    };
    r.searchMs = median3([&] { r.searchHits = searchSlices(*model, QStringLiteral("conv")).size(); });
    r.searchMissMs = median3([&] { searchSlices(*model, QStringLiteral("no such kernel")); });
    r.statsMs = median3(
        [&] { r.statsNames = statisticsInRange(*model, model->dataBegin(), model->dataEnd()).size(); });
    return r;
}

QString width(TimeNs ns)
{
    return formatDuration(ns);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    std::vector<int> copies;
    for (int i = 1; i < argc; ++i)
        copies.push_back(std::atoi(argv[i]));
    if (copies.empty())
        copies = {52, 520};
    LoadControl control;
    const QString level1 = QStringLiteral(
        AT_SAMPLES_DIR "/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt");
    LoadResult loaded = loadTrace(level1, at::environmentLoadOptions(), control);
    if (!loaded.model) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.error));
        return 1;
    }

    std::vector<Result> results;
    for (int k : copies) {
        // Every model is drawn at its own full view and then at the widths of the first one, so
        // that rows compare the same ns per pixel (the full view row compares full views).
        std::vector<TimeNs> widths;
        if (!results.empty())
            for (std::size_t i = 1; i < results.front().levels.size(); ++i)
                widths.push_back(results.front().levels[i].width);
        const Result r = run(*loaded.model, k, widths);
        std::printf(
            "== %d copies: %zu slices (tiled in %.1f s); model %.1f B/slice, summaries built by the first "
            "frame %.2f B/slice; first full-view frame %.1f ms\n",
            r.copies, r.slices, r.buildS, r.sliceBytes / static_cast<double>(r.slices),
            r.lodBytes / static_cast<double>(r.slices), r.firstFrameMs);
        std::printf("   %-10s %22s %22s %8s %12s\n", "view", "LOD median / p95 ms", "slices median / p95 ms",
                    "LOD/all", "LOD depths");
        for (const Level &l : r.levels)
            std::printf("   %-10s %10.2f / %8.2f %10.2f / %8.2f %7.2fx %5d of %d\n",
                        qPrintable(width(l.width)), l.lod.median, l.lod.p95, l.exact.median, l.exact.p95,
                        l.lod.median / l.exact.median, l.lodDepths, l.exactDepths);
        std::printf(
            "   search \"conv\": %.1f ms (%zu hits), a miss: %.1f ms; statistics over the full range: "
            "%.1f ms (%zu names)\n",
            r.searchMs, r.searchHits, r.searchMissMs, r.statsMs, r.statsNames);
        std::fflush(stdout);
        results.push_back(r);
    }
    if (results.size() >= 2) {
        const Result &a = results.front(), &b = results.back();
        std::printf("== growth %d -> %d copies (%.1fx the slices): full views, then equal view widths\n",
                    a.copies, b.copies, static_cast<double>(b.slices) / static_cast<double>(a.slices));
        for (std::size_t i = 0; i < std::min(a.levels.size(), b.levels.size()); ++i)
            std::printf(
                "   %-10s LOD median %.2f -> %.2f ms = %.2fx; slice by slice %.2f -> %.2f ms = %.2fx\n",
                i == 0 ? "full view" : qPrintable(width(a.levels[i].width)), a.levels[i].lod.median,
                b.levels[i].lod.median, b.levels[i].lod.median / a.levels[i].lod.median,
                a.levels[i].exact.median, b.levels[i].exact.median,
                b.levels[i].exact.median / a.levels[i].exact.median);
        std::printf("   search %.2fx, statistics %.2fx\n", b.searchMs / a.searchMs, b.statsMs / a.statsMs);
    }
    return 0;
}
