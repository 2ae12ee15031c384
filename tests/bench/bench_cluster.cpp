// The cluster page's input at scale (issue 18; issue #32 SCALE): a job of RANKS rank folders generated from
// the real Qwen3 sample's summary files (ClusterJobGenerator.h: tp 8 × pp 4 × dp RANKS/32, one slow rank, one
// slow link). Prints, against a baseline measured in the same run (reading the same files' bytes into
// memory): readCluster(), the analyses, the cluster findings, the cluster Overview and, with --cli BINARY,
// `BINARY --cluster DIR --json` end to end (wall time and the child's peak RSS); then whether the analyses
// found the slow rank and the slow link, and only them. Trace files are not generated: the cluster page
// never opens them.
//
// usage: bench_cluster [RANKS] [DIR] [--cli BINARY] [--generate-only]
//   RANKS: a multiple of 32, at least 64 (default 128); DIR: where to generate (default a temporary folder;
//   an existing DIR is emptied first); --generate-only: write the job to DIR and stop.

#include "ClusterJobGenerator.h"
#include "InsightChecks.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"
#include "overview/Overview.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <set>
#include <sys/resource.h>

using namespace at;
using namespace at::cluster;

namespace {

double seconds(const QElapsedTimer &t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e9;
}

long peakRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// `binary --cluster root --json` to a discarded stdout: wall seconds and the child's peak RSS (MB).
std::pair<double, double> runCli(const QString &binary, const QString &root, qint64 *outputBytes)
{
    QProcess p;
    p.setStandardErrorFile(QProcess::nullDevice());
    QElapsedTimer t;
    t.start();
    p.start(binary, {QStringLiteral("--cluster"), root, QStringLiteral("--json")});
    qint64 bytes = 0;
    while (p.state() != QProcess::NotRunning) {
        p.waitForReadyRead(100);
        bytes += p.readAllStandardOutput().size();
    }
    bytes += p.readAllStandardOutput().size();
    const double wall = seconds(t);
    *outputBytes = bytes;
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return {wall, static_cast<double>(usage.ru_maxrss) / 1024.0};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString cli;
    if (const qsizetype at = args.indexOf(QStringLiteral("--cli")); at >= 0 && at + 1 < args.size()) {
        cli = args[at + 1];
        args.remove(at, 2);
    }
    const bool generateOnly = args.removeAll(QStringLiteral("--generate-only")) > 0;
    const int ranks = !args.isEmpty() ? args[0].toInt() : 128;
    QTemporaryDir temp;
    const QString root = args.size() > 1 ? args[1] : temp.path();
    if (args.size() > 1)
        QDir(root).removeRecursively();

    QElapsedTimer t;
    t.start();
    QString error;
    const std::optional<bench::GeneratedClusterJob> job = bench::generateClusterJob(
        root, ranks, bench::qwen3SampleLevel2(QStringLiteral(AT_SAMPLES_DIR)), &error);
    if (!job) {
        std::fprintf(stderr, "cannot generate the cluster in %s: %s\n", qPrintable(root), qPrintable(error));
        return 1;
    }
    std::printf("generated %d ranks (tp %d x pp %d x dp %d) in %s, %.1f MB, %.1f s; slow rank %d, slow link "
                "%d -> %d\n",
                job->ranks, job->tp, job->pp, job->dp, qPrintable(root),
                static_cast<double>(job->bytes) / 1e6, seconds(t), job->slowRank, job->slowLinkSrc,
                job->slowLinkDst);
    if (generateOnly)
        return 0;
    const long rssBefore = peakRssKb();

    t.restart();
    qint64 bytes = 0;
    QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext())
        bytes += readAll(files.next()).size();
    const double baseline = seconds(t);

    t.restart();
    const ClusterModel model = readCluster(root);
    const double read = seconds(t);

    t.restart();
    const std::vector<SlowRank> slow = findSlowRanks(model);
    const std::vector<SlowLink> slowLinks = findSlowLinks(model);
    const std::vector<CollectiveWait> waits = findWaits(model);
    const std::size_t rows = slow.size() + slowLinks.size() + waits.size() + plainRule(model).size() +
                             findStageImbalance(model).size() + rankCommunication(model).size();
    const double analyse = seconds(t);

    t.restart();
    const TraceModel noTimeline;
    const std::vector<Finding> findings = clusterFindings(InsightContext(noTimeline, &model));
    const double findingsTime = seconds(t);

    t.restart();
    OverviewInputs inputs;
    inputs.cluster = &model;
    const Overview overview = buildOverview(inputs);
    const double overviewTime = seconds(t);

    std::printf("cluster: %zu ranks, %zu groups, %.1f MB of summary files, %lld warnings\n",
                model.ranks.size(), model.groups.size(), static_cast<double>(bytes) / 1e6,
                static_cast<long long>(model.warnings.size()));
    std::printf("read the files' bytes (baseline) %.3f s; readCluster %.3f s = %.1fx\n", baseline, read,
                read / baseline);
    std::printf("analyses %.3f s (%zu rows); cluster findings %.3f s (%zu); Overview %.3f s (%zu ranks)\n",
                analyse, rows, findingsTime, findings.size(), overviewTime, overview.ranks.size());
    std::printf("peak RSS in process: %.1f MB (before reading: %.1f MB)\n", peakRssKb() / 1024.0,
                rssBefore / 1024.0);
    if (!cli.isEmpty()) {
        qint64 out = 0;
        const auto [wall, rss] = runCli(cli, root, &out);
        std::printf("--cluster --json: %.3f s wall, peak RSS %.1f MB, %.1f MB of JSON\n", wall, rss,
                    static_cast<double>(out) / 1e6);
    }

    // The faults, found and only them.
    // The injected waits (60 ms) wait for the slow rank; the sample's synchronisation-only collectives (a
    // wait ratio of 1 on every rank of a group) stay as the sample has them.
    std::set<int> slowNamed, waitedFor;
    for (const SlowRank &s : slow)
        slowNamed.insert(s.rank);
    for (const CollectiveWait &w : waits)
        for (const CollectiveWait::Waiter &x : w.waiting)
            if (x.wait >= 55'000'000)
                waitedFor.insert(w.waitedFor);
    const bool rankOk = slowNamed == std::set<int>{job->slowRank};
    const bool linkOk = slowLinks.size() == 1 && slowLinks.front().src == job->slowLinkSrc &&
                        slowLinks.front().dst == job->slowLinkDst;
    const bool waitOk = waitedFor == std::set<int>{job->slowRank};
    std::printf("slow ranks named: %zu finding(s), ranks {", slow.size());
    for (int r : slowNamed)
        std::printf(" %d", r);
    std::printf(" } (expected %d) %s\n", job->slowRank, rankOk ? "ok" : "WRONG");
    std::printf("slow links: %zu (expected %d -> %d) %s\n", slowLinks.size(), job->slowLinkSrc,
                job->slowLinkDst, linkOk ? "ok" : "WRONG");
    std::printf("waits: %zu collective(s); those of 55 ms or more wait for rank %d: %s\n", waits.size(),
                job->slowRank, waitOk ? "ok" : "WRONG");
    return model.ranks.size() == static_cast<std::size_t>(ranks) && rankOk && linkOk && waitOk ? 0 : 1;
}
