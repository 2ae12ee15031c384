// Step detection and step comparison at scale: the real level1 step tiled K times (default 200,
// ~107,000 device tasks) and synthetic kernel sequences. Every figure is printed with its ratio to
// a baseline measured in the same run (machines are noisy):
//   * detectSteps() against TraceBuilder::build() of the same model (which includes it);
//   * compareSteps() of two real steps against aggregating the same two steps by name alone;
//   * exact LCS (Hirschberg) on long sequences against the order-preserving occurrence fallback.
// usage: bench_steps [COPIES] [SEQUENCE_LENGTH]

#include "Lcs.h"
#include "StepComparison.h"
#include "TiledModel.h"
#include "TraceLoader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QRandomGenerator>

#include <cstdio>

using namespace at;

namespace {

double seconds(const QElapsedTimer &t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e9;
}

QHash<QString, TimeNs> byName(const TraceModel &m, const Step &s)
{
    QHash<QString, TimeNs> out;
    for (SliceRef r : s.deviceTasks)
        out[m.sliceName(r)] += m.threads()[static_cast<std::size_t>(r.thread)].slices.duration(r.index);
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    qputenv("AT_NO_SNAPSHOT", "1"); // measure parsing, not the snapshot cache (bench_snapshot does)
    const int copies = argc > 1 ? std::atoi(argv[1]) : 200;
    const int length = argc > 2 ? std::atoi(argv[2]) : 20000;
    LoadControl control;
    const QString level1 = QStringLiteral(
        AT_SAMPLES_DIR "/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt");
    LoadResult loaded = loadTrace(level1, at::environmentLoadOptions(), control);
    if (!loaded.model) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.error));
        return 1;
    }

    test::TileOptions options;
    options.copies = copies;
    QElapsedTimer t;
    t.start();
    auto model = test::tileModel(*loaded.model, options);
    const double build = seconds(t);
    t.restart();
    const std::vector<Step> steps = detectSteps(*model);
    const double detect = seconds(t);
    std::size_t tasks = 0;
    for (const Step &s : steps)
        tasks += s.deviceTasks.size();
    std::printf("model: %d steps, %zu slices, %zu flows, %zu device tasks in steps\n",
                static_cast<int>(steps.size()), model->sliceCount(), model->flows().size(), tasks);
    std::printf("build (tile + TraceBuilder::build, baseline) %.3f s; detectSteps %.3f s = %.2fx of build\n",
                build, detect, detect / build);

    const Step &a = steps.front(), &b = steps[steps.size() / 2];
    const int rounds = 20;
    t.restart();
    std::size_t sink = 0;
    for (int i = 0; i < rounds; ++i)
        sink += static_cast<std::size_t>(byName(*model, a).size() + byName(*model, b).size());
    const double aggregate = seconds(t) / rounds;
    t.restart();
    for (int i = 0; i < rounds; ++i)
        sink += compareSteps(*model, a, *model, b).matched;
    const double compare = seconds(t) / rounds;
    std::printf("compare two real steps (%zu + %zu tasks): by-name aggregation alone (baseline) %.3f ms; "
                "compareSteps %.3f ms = %.2fx\n",
                a.deviceTasks.size(), b.deviceTasks.size(), aggregate * 1e3, compare * 1e3,
                compare / aggregate);

    // Two long kernel sequences (30 names) differing by 20 scattered edits: prefix/suffix trimming
    // cannot help, so the exact LCS does the full O(n·m) work.
    QRandomGenerator random(42);
    std::vector<std::int32_t> x(static_cast<std::size_t>(length));
    for (auto &v : x)
        v = random.bounded(30);
    std::vector<std::int32_t> y = x;
    for (int e = 0; e < 10; ++e) {
        y.erase(y.begin() + random.bounded(static_cast<int>(y.size())));
        y.insert(y.begin() + random.bounded(static_cast<int>(y.size())), 31 + e);
    }
    t.restart();
    const auto fallback = longestCommonSubsequence(x, y, 0);
    const double fast = seconds(t);
    t.restart();
    const auto exact = longestCommonSubsequence(x, y);
    const double slow = seconds(t);
    std::printf(
        "LCS of %d x %zu kernels: occurrence fallback (baseline) %.3f s, %zu pairs; exact %.3f s, %zu "
        "pairs = %.1fx\n",
        length, y.size(), fast, fallback.size(), slow, exact.size(), slow / fast);
    return sink == 0 ? 1 : 0;
}
