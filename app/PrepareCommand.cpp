// `ascend-timeline --prepare RANK_DIR --cache DIR` (docs/CLUSTER.md): one rank of a cluster prepared where
// its data is, by the cluster's own scheduler (one task per rank): the rank's timeline is parsed through the
// ordinary loadTrace() with the snapshot cache pointed at DIR, and the rank's cluster summary (what the
// cluster reader reads from its files) is written beside it. `--cache DIR` then opens the cluster and each
// rank from DIR without parsing; a rank whose files changed since is read again.
#include "CommandLine.h"

#include "LoadMemoryGuard.h"
#include "cluster/ClusterReader.h"
#include "cluster/PreparedSummary.h"
#include "common/MessageText.h"
#include "snapshot/SnapshotCache.h"

#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include <ctime>

#include <sys/stat.h>

namespace at {

namespace {

std::int64_t nowNs()
{
    timespec t{};
    ::clock_gettime(CLOCK_REALTIME, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// True when PATH was (re)written at or after `since` (1 s of slack for coarse file system clocks): the
// loader logs a failed snapshot write but does not return it.
bool writtenSince(const QString &path, std::int64_t since)
{
    struct stat st;
    if (path.isEmpty() || ::lstat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    const std::int64_t mtime = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    return mtime >= since - 1000000000;
}

// The rank folders of the cluster RANK_DIR belongs to: its own, and its parent's rank folders when the parent
// is the cluster that holds it (issue 29 item 6: a --cache inside another rank's folder of the same cluster
// would write into that rank's data).
QStringList clusterRankFolders(const QString &rankFolder)
{
    const QString own = QFileInfo(rankFolder).canonicalFilePath();
    const QStringList siblings = cluster::findRankFolders(QFileInfo(own).absolutePath());
    for (const QString &sibling : siblings)
        if (QFileInfo(sibling).canonicalFilePath() == own)
            return siblings;
    return {rankFolder};
}

} // namespace

int runPrepare(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    const QString folder = options.prepare;
    const QString dir = options.load.snapshotDirectory;
    if (dir.isEmpty()) {
        err << "ascend-timeline: --prepare RANK_DIR needs --cache DIR (the folder the desktop opens the "
               "cluster with)\n";
        return 2;
    }
    if (!options.paths.isEmpty()) {
        err << "ascend-timeline: --prepare takes one rank folder as its value; PATH arguments are not used\n";
        return 2;
    }
    if (!QFileInfo(folder).isDir()) {
        err << "ascend-timeline: --prepare " << printableText(folder) << ": not a folder\n";
        return 1;
    }
    if (!outsideDataFolders(QStringLiteral("--cache"), dir, clusterRankFolders(folder), err))
        return 2;
    if (!QDir().mkpath(dir)) {
        err << "ascend-timeline: cannot create " << dir << "\n";
        return 1;
    }
    // Read under --memory-limit, as --cluster reads it: a rank cut short by the limit is not saved (below).
    const cluster::RankSummary summary = cluster::readRankSummary(folder, options.load.memoryLimitBytes);
    const cluster::Rank &rank = summary.rank;
    if (rank.rank < 0) {
        err << "ascend-timeline: " << rank.folder
            << ": no profiler_info_<N>.json or other rank id: not a rank folder\n";
        return 1;
    }
    for (const QString &w : summary.warnings)
        err << "warning: " << w << "\n";
    // A prepared summary's rank is checked against the one the folder's file names give (issue 29 item 4).
    if (cluster::rankInputs(rank.folder).rank < 0)
        err << "warning: " << rank.folder
            << ": no profiler_info_<N>.json or ascend_pytorch_profiler_<N>.db names the rank, so its "
               "prepared "
               "summary cannot be checked: --cluster --cache reads this rank from its files\n";

    int exitCode = 0;
    QString snapshotPath;
    QString timeline = QStringLiteral("no timeline (summary files only)");
    if (rank.hasTimeline) {
        LoadOptions load = options.load;
        load.useSnapshotCache = true;
        load.writeSnapshotInBackground = false;
        LoadControl control;
        const std::int64_t started = nowNs();
        const LoadResult result = loadTrace(rank.folder, load, control);
        const QString path = snapshot::pathFor(rank.folder, load.preferredSource, dir);
        if (!result.model) {
            err << "ascend-timeline: " << printableText(result.error, 4000) << "\n";
            timeline = QStringLiteral("timeline not loaded");
            exitCode = 1;
        } else if (result.stop == LoadStop::MemoryLimit) {
            err << "ascend-timeline: " << rank.folder
                << ": the memory limit stopped reading (--memory-limit); no snapshot written\n";
            timeline = QStringLiteral("timeline cut by the memory limit, not prepared");
            exitCode = 1;
        } else if (result.fromSnapshot || writtenSince(path, started)) {
            snapshotPath = path;
            timeline = QStringLiteral("%1 %2 (%3 slices)")
                           .arg(result.fromSnapshot ? QStringLiteral("snapshot (unchanged, kept)")
                                                    : QStringLiteral("snapshot"),
                                path)
                           .arg(result.model->sliceCount());
        } else {
            err << "ascend-timeline: " << rank.folder << ": the snapshot could not be written to " << dir
                << (load.preferredSource == PreferredSource::Raw ? " (raw data is never cached)" : "")
                << "\n";
            timeline = QStringLiteral("no snapshot");
            exitCode = 1;
        }
    }
    // A summary stands in for the rank's files, so only the rank's whole data is saved as one (the rule of
    // docs/ROBUSTNESS.md, issue 29 item 9): a rank whose files the memory limit cut short is not saved, and
    // --cluster --cache reads it from its files. A summary saved before is left as it is: it is used only
    // while every file it was made from is unchanged.
    if (summary.cutByMemoryLimit) {
        err << "ascend-timeline: " << rank.folder
            << ": the memory limit stopped reading its communication files (--memory-limit "
            << formatByteSize(options.load.memoryLimitBytes)
            << "); its summary is not saved (it would miss what was not read): --cluster --cache reads this "
               "rank from its files\n";
        out << "rank " << rank.rank << " (" << rank.folder
            << "): summary not saved (cut by the memory limit), " << timeline << "\n";
        stdoutWritten(out, err);
        return 1;
    }
    // Written after the load, with the stamps of the files as they are now.
    QString reason;
    if (!cluster::writePreparedSummary(summary, dir, snapshotPath, &reason)) {
        err << "ascend-timeline: cannot write the summary of " << rank.folder << ": " << reason << "\n";
        return 1;
    }
    out << "rank " << rank.rank << " (" << rank.folder << "): summary "
        << cluster::preparedSummaryPath(rank.folder, dir) << ", " << timeline << "\n";
    if (!stdoutWritten(out, err))
        return 1;
    return exitCode;
}

} // namespace at
