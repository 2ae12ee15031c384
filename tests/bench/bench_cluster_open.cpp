// Opening ranks of a generated cluster (issue 18, item 9): the cluster of tests/bench/make_tiled_cluster.py
// (RANKS rank folders, each a tiled real trace with per-rank perturbations and one slowed rank).
//   (a) one rank opened as the cluster page opens it (its folder through loadTrace, after readCluster)
//   against
//       the same rank's trace_view.json opened on its own (a single-file cold load), alternating, medians;
//   (b) every rank opened and kept (a model each, as "Open Timelines of Selected Ranks" does): peak RSS
//       against the bytes the loads read, then the RSS once they are closed again.
//   (c) two ranks opened together on one timeline (LoadOptions::rankFolders) with the snapshot cache in a
//       temporary folder: cold (both parsed, both snapshots written) against reopening with one rank
//       cached (the other parsed and written) and with both cached, medians.
// (a) and (b) are cold loads: the snapshot cache is off (AT_NO_SNAPSHOT=1).
// usage: bench_cluster_open ROOT [repetitions] [subset]   ("subset": only (c))
#include "LoadPlan.h"
#include "TraceLoader.h"
#include "cluster/ClusterReader.h"
#include "snapshot/SnapshotCache.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

using namespace at;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// VmHWM (peak) or VmRSS (current) of this process in bytes.
double statusBytes(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(static_cast<qsizetype>(qstrlen(field))).trimmed().split(' ').first().toDouble() *
                   1024;
    return -1;
}

// Resets VmHWM to the current RSS (Linux >= 4.0), so the next peak is the next phase's own.
void resetPeak()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

std::uint64_t bytesRead(const TraceModel &model)
{
    std::uint64_t bytes = 0;
    for (const SourceGroup &g : model.groups())
        for (const FileRead &read : g.provenance.reads)
            bytes += read.bytes;
    return bytes;
}

double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Wall seconds of one cold load; *cpu gets its CPU seconds (all threads), less disturbed by the other
// processes on a shared machine.
double timedLoad(const QString &path, double *cpu = nullptr, std::uint64_t *bytes = nullptr)
{
    QElapsedTimer timer;
    timer.start();
    const double cpu0 = cpuSeconds();
    LoadControl control;
    LoadResult result = loadTrace(path, environmentLoadOptions(), control);
    const double seconds = timer.nsecsElapsed() / 1e9;
    if (cpu)
        *cpu = cpuSeconds() - cpu0;
    if (!result.model) {
        std::fprintf(stderr, "load of %s failed: %s\n", qPrintable(path), qPrintable(result.error));
        std::exit(1);
    }
    if (bytes)
        *bytes = bytesRead(*result.model);
    return seconds;
}

// (c) Ranks 0 and 1 opened together: cold, with rank 1's snapshot removed (rank 0 reopened, rank 1 parsed),
// and with both reopened. Every load writes the snapshots of the ranks it parsed before returning, as the
// command line does (the window writes them in the background).
void subsetWithCachedRank(const QString &root, const QStringList &folders, int reps)
{
    QTemporaryDir cacheDir;
    const QString cache = cacheDir.path();
    LoadOptions options = environmentLoadOptions();
    options.useSnapshotCache = true; // AT_NO_SNAPSHOT only turns off the default cache
    options.snapshotDirectory = cache;
    options.rankFolders = {folders[0], folders[1]};
    auto timed = [&](bool *allCached, QStringList *reopened) {
        QElapsedTimer timer;
        timer.start();
        LoadControl control;
        LoadResult result = loadTrace(root, options, control);
        const double seconds = timer.nsecsElapsed() / 1e9;
        if (!result.model) {
            std::fprintf(stderr, "load of ranks failed: %s\n", qPrintable(result.error));
            std::exit(1);
        }
        *allCached = result.fromSnapshot;
        *reopened = result.ranksFromSnapshot;
        return seconds;
    };
    std::vector<double> cold, one, both;
    for (int r = 0; r < reps; ++r) {
        for (const QString &f : QDir(cache).entryList(QDir::Files))
            QFile::remove(QDir(cache).filePath(f));
        bool all = false;
        QStringList reopened;
        cold.push_back(timed(&all, &reopened));
        if (!reopened.isEmpty()) {
            std::fprintf(stderr, "cold load reopened a snapshot\n");
            std::exit(1);
        }
        QFile::remove(snapshot::pathFor(folders[1], PreferredSource::Text, cache));
        one.push_back(timed(&all, &reopened));
        if (reopened != QStringList{folders[0]}) {
            std::fprintf(stderr, "rank 0 was not reopened from its snapshot\n");
            std::exit(1);
        }
        both.push_back(timed(&all, &reopened));
        if (!all) {
            std::fprintf(stderr, "the ranks were not both reopened\n");
            std::exit(1);
        }
    }
    const double c = median(cold), o = median(one), b = median(both);
    std::printf("(c) %s + %s on one timeline, snapshots in a temporary folder, median of %d:\n",
                qPrintable(QFileInfo(folders[0]).fileName()), qPrintable(QFileInfo(folders[1]).fileName()),
                reps);
    std::printf("    cold (both parsed, both snapshots written): %.3f s\n", c);
    std::printf("    one rank cached (the other parsed, written): %.3f s = %.2fx cold\n", o, o / c);
    std::printf("    both cached (nothing parsed):                %.3f s = %.2fx cold\n", b, b / c);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    qputenv("AT_NO_SNAPSHOT", "1");
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CLUSTER_ROOT [repetitions]\n", argv[0]);
        return 2;
    }
    const QString root = QString::fromLocal8Bit(argv[1]);
    const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    QStringList folders = QDir(root).entryList({QStringLiteral("rank_*_ascend_pt")}, QDir::Dirs);
    std::sort(folders.begin(), folders.end(), [](const QString &a, const QString &b) {
        return a.section(QLatin1Char('_'), 1, 1).toInt() < b.section(QLatin1Char('_'), 1, 1).toInt();
    });
    if (folders.isEmpty()) {
        std::fprintf(stderr, "%s holds no rank_N_ascend_pt folder\n", qPrintable(root));
        return 1;
    }
    for (QString &f : folders)
        f = QDir(root).filePath(f);
    if (argc > 3 && qstrcmp(argv[3], "subset") == 0) {
        if (folders.size() < 2) {
            std::fprintf(stderr, "%s holds fewer than two rank folders\n", qPrintable(root));
            return 1;
        }
        subsetWithCachedRank(root, folders, reps);
        return 0;
    }

    // The cluster page first, as the window shows it before any rank is opened.
    QElapsedTimer timer;
    timer.start();
    const cluster::ClusterModel cluster = cluster::readCluster(root);
    const double clusterSeconds = timer.nsecsElapsed() / 1e9;
    std::printf("cluster: %zu ranks, page read in %.3f s\n", cluster.ranks.size(), clusterSeconds);

    // (a) One rank: its folder (the cluster page's open) against its trace file alone, alternating.
    const QString folder = folders[static_cast<qsizetype>(folders.size() / 4)];
    const QString trace = folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
    const double mb = static_cast<double>(QFileInfo(trace).size()) / 1e6;
    std::vector<double> asRank, asFile, rankCpu, fileCpu;
    timedLoad(trace); // warm the page cache and the allocator once
    for (int r = 0; r < reps; ++r) {
        double cpu = 0;
        asFile.push_back(timedLoad(trace, &cpu));
        fileCpu.push_back(cpu);
        asRank.push_back(timedLoad(folder, &cpu));
        rankCpu.push_back(cpu);
    }
    const double rankSeconds = median(asRank), fileSeconds = median(asFile);
    // What the folder adds before reading: the layout detection and the plan.
    std::vector<double> planning;
    for (int r = 0; r < reps; ++r) {
        timer.restart();
        const LoadPlan plan = planLoad(folder, environmentLoadOptions());
        planning.push_back(timer.nsecsElapsed() / 1e9);
    }
    std::printf("(a) %s (%.1f MB trace), median of %d:\n", qPrintable(QFileInfo(folder).fileName()), mb,
                reps);
    std::printf("    trace_view.json alone (single-file cold load): %.3f s\n", fileSeconds);
    std::printf("    rank folder as the cluster page opens it:      %.3f s = %.2fx the single-file load "
                "(target <= 1.1x)\n",
                rankSeconds, rankSeconds / fileSeconds);
    std::printf("    CPU seconds (all threads), medians: single file %.3f s, rank folder %.3f s = %.2fx\n",
                median(fileCpu), median(rankCpu), median(rankCpu) / median(fileCpu));
    std::printf("    of which planning the folder (layout detection, no file read): %.3f s\n",
                median(planning));

    // (b) Every rank opened and kept.
    malloc_trim(0);
    const double before = statusBytes("VmRSS:");
    resetPeak();
    std::vector<std::unique_ptr<TraceModel>> open;
    std::uint64_t bytes = 0;
    std::size_t modelBytes = 0;
    timer.restart();
    const double allCpu0 = cpuSeconds();
    for (const QString &f : folders) {
        LoadControl control;
        LoadResult result = loadTrace(f, environmentLoadOptions(), control);
        if (!result.model) {
            std::fprintf(stderr, "load of %s failed: %s\n", qPrintable(f), qPrintable(result.error));
            return 1;
        }
        bytes += bytesRead(*result.model);
        modelBytes += result.model->memoryBytes();
        open.push_back(std::move(result.model));
    }
    const double allSeconds = timer.nsecsElapsed() / 1e9, allCpu = cpuSeconds() - allCpu0;
    const double peak = statusBytes("VmHWM:"), withAll = statusBytes("VmRSS:");
    open.clear();
    malloc_trim(0);
    const double closed = statusBytes("VmRSS:");
    const double gb = static_cast<double>(bytes) / 1e9;
    std::printf(
        "(b) all %zu ranks opened and kept: %.2f GB read in %.2f s (%.0f MB/s), %.2f CPU s; models %.1f "
        "MB\n",
        static_cast<std::size_t>(folders.size()), gb, allSeconds,
        static_cast<double>(bytes) / 1e6 / allSeconds, allCpu, static_cast<double>(modelBytes) / 1e6);
    std::printf(
        "    peak RSS %.1f MB = %.3fx the bytes read (target <= 0.3x); RSS before %.1f MB, with all open "
        "%.1f MB, after closing all %.1f MB\n",
        peak / 1e6, peak / static_cast<double>(bytes), before / 1e6, withAll / 1e6, closed / 1e6);
    subsetWithCachedRank(root, folders, reps);
    return 0;
}
