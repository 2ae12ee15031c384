// Ranks with real-sized traces (issue #32, SCALE: "64 ranks whose rank folders hold real-sized traces"): the
// cluster of tests/bench/make_tiled_cluster.py (RANKS rank folders rank_<r>_ascend_pt, each the real trace
// tiled to --size, rank RANKS/2 + 1 slowed by 30 %), measured against the single-file cold load of the first
// rank's trace_view.json in the same run:
//   page   readCluster + the cluster analyses and findings (what the cluster page needs), target ≤ 2 s;
//   first  the first rank's timeline as the cluster page opens it (its folder through loadTrace), ≤ 1.1 ×;
//   pair   the slowest and the fastest rank of the group on one timeline (LoadOptions::rankFolders), ≤ 2.2 ×.
// "Cold" is the first load in a fresh process: each measurement runs in a child process of its own (the page
// cache cannot be dropped on this shared machine, so the files are in the page cache after the first
// repetition, for every case alike). The snapshot cache is off (AT_NO_SNAPSHOT=1). Medians of REPS
// repetitions, the cases alternated.
//
// usage: bench_cluster_timelines ROOT [REPS]      (child: bench_cluster_timelines --child CASE ROOT)

#include "InsightChecks.h"
#include "LoadPlan.h"
#include "TraceLoader.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace at;

namespace {

double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

QStringList rankFolders(const QString &root)
{
    QStringList folders = QDir(root).entryList({QStringLiteral("rank_*_ascend_pt")}, QDir::Dirs);
    std::sort(folders.begin(), folders.end(), [](const QString &a, const QString &b) {
        return a.section(QLatin1Char('_'), 1, 1).toInt() < b.section(QLatin1Char('_'), 1, 1).toInt();
    });
    for (QString &f : folders)
        f = QDir(root).filePath(f);
    return folders;
}

bool load(const QString &path, const QStringList &ranks)
{
    LoadOptions options = environmentLoadOptions();
    options.rankFolders = ranks;
    LoadControl control;
    const LoadResult result = loadTrace(path, options, control);
    if (!result.model)
        std::fprintf(stderr, "load of %s failed: %s\n", qPrintable(path), qPrintable(result.error));
    return result.model != nullptr;
}

// One measurement in this (fresh) process: prints "wall cpu".
int child(const QString &which, const QString &root)
{
    const QStringList folders = rankFolders(root);
    if (folders.size() < 4)
        return 1;
    const QString slowest = folders[folders.size() / 2 + 1]; // make_tiled_cluster.py's slowed rank
    QElapsedTimer timer;
    timer.start();
    const double cpu0 = cpuSeconds();
    bool ok = true;
    if (which == QLatin1String("page")) {
        const cluster::ClusterModel model = cluster::readCluster(root);
        const TraceModel noTimeline;
        ok = model.ranks.size() == static_cast<std::size_t>(folders.size()) &&
             !clusterFindings(InsightContext(noTimeline, &model)).empty();
    } else if (which == QLatin1String("single")) {
        ok = load(folders[0] + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), {});
    } else if (which == QLatin1String("first")) {
        ok = load(folders[0], {});
    } else if (which == QLatin1String("pair")) {
        ok = load(root, {folders[0], slowest});
    } else {
        return 2;
    }
    std::printf("%.4f %.4f\n", static_cast<double>(timer.nsecsElapsed()) / 1e9, cpuSeconds() - cpu0);
    return ok ? 0 : 1;
}

struct Times
{
    std::vector<double> wall, cpu;
};

bool runChild(const QString &self, const QString &which, const QString &root, Times &times)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(self, {QStringLiteral("--child"), which, root});
    if (!p.waitForFinished(-1) || p.exitCode() != 0) {
        std::fprintf(stderr, "%s failed\n", qPrintable(which));
        return false;
    }
    const QList<QByteArray> parts = p.readAllStandardOutput().trimmed().split(' ');
    times.wall.push_back(parts.value(0).toDouble());
    times.cpu.push_back(parts.value(1).toDouble());
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    qputenv("AT_NO_SNAPSHOT", "1");
    const QStringList args = app.arguments().mid(1);
    if (args.size() == 3 && args[0] == QLatin1String("--child"))
        return child(args[1], args[2]);
    if (args.isEmpty()) {
        std::fprintf(stderr, "usage: %s CLUSTER_ROOT [repetitions]\n", argv[0]);
        return 2;
    }
    const QString root = args[0];
    const int reps = args.size() > 1 ? std::max(1, args[1].toInt()) : 3;
    const QStringList folders = rankFolders(root);
    if (folders.size() < 4) {
        std::fprintf(stderr, "%s holds fewer than four rank_N_ascend_pt folders\n", qPrintable(root));
        return 1;
    }
    const qint64 traceBytes =
        QFileInfo(folders[0] + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json")).size();
    std::printf(
        "%lld ranks, rank 0's trace_view.json %.1f MB; slowest rank %s; %d repetitions, each load in a "
        "fresh process\n",
        static_cast<long long>(folders.size()), static_cast<double>(traceBytes) / 1e6,
        qPrintable(QFileInfo(folders[folders.size() / 2 + 1]).fileName()), reps);
    const QString self = QCoreApplication::applicationFilePath();
    const char *cases[] = {"single", "page", "first", "pair"};
    std::vector<Times> times(4);
    for (int r = 0; r < reps; ++r)
        for (std::size_t c = 0; c < 4; ++c)
            if (!runChild(self, QLatin1String(cases[c]), root, times[c]))
                return 1;
    const double singleWall = median(times[0].wall), singleCpu = median(times[0].cpu);
    const char *targets[] = {"", "(target <= 2 s)", "(target <= 1.1x)", "(target <= 2.2x)"};
    for (std::size_t c = 0; c < 4; ++c)
        std::printf("%-6s %.3f s wall (%.3f CPU-s) = %.2fx wall, %.2fx CPU of the single-file load %s\n",
                    cases[c], median(times[c].wall), median(times[c].cpu), median(times[c].wall) / singleWall,
                    median(times[c].cpu) / singleCpu, targets[c]);
    return 0;
}
