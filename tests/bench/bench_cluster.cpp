// The cluster page's input at scale (issue 18; issue #32 SCALE): a job of RANKS rank folders generated from
// the real Qwen3 sample's summary files (ClusterJobGenerator.h: tp 8 × pp 4 × dp RANKS/32, one slow rank, one
// slow link). Prints, against a baseline measured in the same run (reading the same files' bytes into
// memory): readCluster(), the analyses, the cluster findings, the cluster Overview and, with --cli BINARY,
// `BINARY --cluster DIR --json` end to end (wall time and the child's peak RSS); then whether the analyses
// found the slow rank and the slow link, and only them. Trace files are not generated: the cluster page
// never opens them.
//
// With --msprof-analyze, the same job is also written as msprof-analyze's cluster_analysis_output/ and
// cluster_analysis.db (beside DIR; --keep leaves them there) and each is read alone, against the rank
// folders' readCluster.
//
// usage: bench_cluster [RANKS] [DIR] [--cli BINARY] [--generate-only] [--msprof-analyze [--keep]]
//   RANKS: a multiple of 32, at least 64 (default 128); DIR: where to generate (default a temporary folder;
//   an existing DIR is emptied first); --generate-only: write the job to DIR and stop.

#include "BenchClock.h"
#include "ClusterAnalysisDbWriter.h"
#include "ClusterJobGenerator.h"
#include "InsightChecks.h"
#include "MsprofAnalyzeOutputWriter.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"
#include "overview/Overview.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <numeric>
#include <set>
#include <sys/resource.h>

using namespace at;
using namespace at::bench;
using namespace at::cluster;

namespace {

// `binary --cluster root --json` to a discarded stdout: wall seconds and the child's peak RSS (MB); its CPU
// seconds (user + system) in *cpuSeconds.
std::pair<double, double> runCli(const QString &binary, const QString &root, qint64 *outputBytes,
                                 double *cpuSeconds)
{
    const auto secondsOf = [](const timeval &tv) {
        return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
    };
    rusage before{};
    getrusage(RUSAGE_CHILDREN, &before); // the children's CPU adds up over runs: this run's is the difference
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
    *cpuSeconds = secondsOf(usage.ru_utime) + secondsOf(usage.ru_stime) - secondsOf(before.ru_utime) -
                  secondsOf(before.ru_stime);
    return {wall, static_cast<double>(usage.ru_maxrss) / 1024.0};
}

// The same job as msprof-analyze's cluster_analysis_output/ and cluster_analysis.db (issue #32, target ≤ 1 s
// each), written beside root (root-analysis-output/, root-analysis-db/, removed after unless keep) from its
// rank folders, each opened alone: readCluster's CPU against the rank folders' readCluster of this run, the
// ranks and their step values compared with the rank folders', and with a CLI `--cluster --json` on each.
// False when one differs.
bool measurePreprocessed(const QString &root, const ClusterModel &folders, double foldersCpu,
                         const QString &cli, bool keep)
{
    const QString outputRoot = root + QStringLiteral("-analysis-output"),
                  dbRoot = root + QStringLiteral("-analysis-db");
    QDir(outputRoot).removeRecursively();
    QDir(dbRoot).removeRecursively();
    QElapsedTimer t;
    t.start();
    const bool written =
        test::writeMsprofAnalyzeOutput(root, outputRoot + QStringLiteral("/cluster_analysis_output"));
    const double outputSeconds = seconds(t);
    t.start();
    QStringList errors;
    const QString db = dbRoot + QStringLiteral("/cluster_analysis.db");
    const bool dbWritten = test::writeClusterAnalysisDb(root, db, false, &errors);
    std::printf("wrote cluster_analysis_output/ in %.1f s and cluster_analysis.db in %.1f s%s\n",
                outputSeconds, seconds(t),
                written && dbWritten
                    ? ""
                    : qPrintable(QStringLiteral(" (FAILED: %1)").arg(errors.join(QLatin1Char(';')))));
    bool same = written && dbWritten;
    const std::pair<const char *, QString> inputs[] = {{"cluster_analysis_output/", outputRoot},
                                                       {"cluster_analysis.db", db}};
    for (const auto &input : inputs) {
        Stopwatch w;
        w.start();
        const ClusterModel model = readCluster(input.second);
        const double cpu = w.cpu();
        const QString time = w.text();
        bool equal = model.ranks.size() == folders.ranks.size();
        for (std::size_t i = 0; equal && i < model.ranks.size(); ++i) {
            const Rank &a = model.ranks[i], &b = folders.ranks[i];
            equal = a.rank == b.rank && a.stage == b.stage && a.steps.size() == b.steps.size();
            for (std::size_t k = 0; equal && k < a.steps.size(); ++k)
                equal = a.steps[k].step == b.steps[k].step && a.steps[k].computing == b.steps[k].computing &&
                        a.steps[k].communicationNotOverlapped == b.steps[k].communicationNotOverlapped &&
                        a.steps[k].free == b.steps[k].free;
        }
        same = same && equal;
        std::printf(
            "%s: readCluster %s = %.2fx the rank folders' in CPU; %zu ranks, %zu ops rows; ranks and steps "
            "%s the rank folders'\n",
            input.first, qPrintable(time), cpu / std::max(foldersCpu, 1e-6), model.ranks.size(),
            static_cast<std::size_t>(
                std::accumulate(model.ranks.begin(), model.ranks.end(), std::size_t(0),
                                [](std::size_t n, const Rank &r) { return n + r.ops.size(); })),
            equal ? "equal" : "DIFFER FROM");
        if (!cli.isEmpty()) {
            qint64 out = 0;
            double cliCpu = 0;
            const auto [wall, rss] = runCli(cli, input.second, &out, &cliCpu);
            std::printf("%s --cluster --json: %.3f s wall (%.3f CPU-s), peak RSS %.1f MB, %.1f MB of JSON\n",
                        input.first, wall, cliCpu, rss, static_cast<double>(out) / 1e6);
        }
    }
    if (!keep) {
        QDir(outputRoot).removeRecursively();
        QDir(dbRoot).removeRecursively();
    }
    return same;
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
    const bool preprocessed = args.removeAll(QStringLiteral("--msprof-analyze")) > 0;
    const bool keep = args.removeAll(QStringLiteral("--keep")) > 0;
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

    Stopwatch w;
    w.start();
    const qint64 bytes = readEveryFile(root);
    const QString baseline = w.text();
    const double baselineCpu = w.cpu();

    w.start();
    const ClusterModel model = readCluster(root);
    const QString read = w.text();
    const double readCpu = w.cpu();

    w.start();
    const std::vector<SlowRank> slow = findSlowRanks(model);
    const std::vector<SlowLink> slowLinks = findSlowLinks(model);
    const std::vector<CollectiveWait> waits = findWaits(model);
    const std::size_t rows = slow.size() + slowLinks.size() + waits.size() + plainRule(model).size() +
                             findStageImbalance(model).size() + rankCommunication(model).size();
    const QString analyse = w.text();

    w.start();
    const TraceModel noTimeline;
    const std::vector<Finding> findings = clusterFindings(InsightContext(noTimeline, &model));
    const QString findingsTime = w.text();

    w.start();
    OverviewInputs inputs;
    inputs.cluster = &model;
    const Overview overview = buildOverview(inputs);
    const QString overviewTime = w.text();

    std::printf("cluster: %zu ranks, %zu groups, %.1f MB of summary files, %lld warnings\n",
                model.ranks.size(), model.groups.size(), static_cast<double>(bytes) / 1e6,
                static_cast<long long>(model.warnings.size()));
    std::printf("read the files' bytes (baseline) %s; readCluster %s = %.1fx in CPU\n", qPrintable(baseline),
                qPrintable(read), readCpu / std::max(baselineCpu, 1e-6));
    std::printf("analyses %s (%zu rows); cluster findings %s (%zu); Overview %s (%zu ranks)\n",
                qPrintable(analyse), rows, qPrintable(findingsTime), findings.size(),
                qPrintable(overviewTime), overview.ranks.size());
    std::printf("peak RSS in process: %.1f MB (before reading: %.1f MB)\n", peakRssKb() / 1024.0,
                rssBefore / 1024.0);
    if (!cli.isEmpty()) {
        qint64 out = 0;
        double cpu = 0;
        const auto [wall, rss] = runCli(cli, root, &out, &cpu);
        std::printf("--cluster --json: %.3f s wall (%.3f CPU-s), peak RSS %.1f MB, %.1f MB of JSON\n", wall,
                    cpu, rss, static_cast<double>(out) / 1e6);
    }

    const bool preprocessedOk = !preprocessed || measurePreprocessed(root, model, readCpu, cli, keep);

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
    return model.ranks.size() == static_cast<std::size_t>(ranks) && rankOk && linkOk && waitOk &&
                   preprocessedOk
               ? 0
               : 1;
}
