#pragma once
// Cluster folders built from the real AlexNet rank folders for the tests of opening ranks on one timeline.

#include "ClusterTestSupport.h"

#include <QDirIterator>
#include <QFileInfo>

namespace at::test {

// Copies a rank folder to `to`, renaming profiler_info_<N>.json to the new rank id.
inline bool copyRankFolder(const QString &from, const QString &to, int rank)
{
    QDirIterator files(from, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString file = files.next();
        QString relative = file.mid(from.size());
        if (QFileInfo(file).fileName().startsWith(QLatin1String("profiler_info_")))
            relative = QStringLiteral("/profiler_info_%1.json").arg(rank);
        const QString target = to + relative;
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!QFile::copy(file, target))
            return false;
    }
    return true;
}

// A rank with step_trace_time.csv only (no timeline): the cluster opens as the cluster page.
inline void writeSummaryOnlyRank(const QString &folder, int rank)
{
    writeTextFile(folder + QStringLiteral("/profiler_info_%1.json").arg(rank), "{}");
    writeTextFile(folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
                  "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                  "Communication(Not Overlapped and Exclude Receive),Preparing\n"
                  "50,8873.756,101963.203,4028.675,105991.878,25744.05,136581.0,0,101963.203,17902.5\n");
}

// The two AlexNet text ranks (full timelines) plus rank 2 with summary files only. Empty on error.
inline QString alexnetWithSummaryOnlyRank(const QString &dir)
{
    for (int r : {0, 1})
        if (!copyRankFolder(alexnetTextCluster() + QStringLiteral("/rank%1_ascend_pt").arg(r),
                            dir + QStringLiteral("/rank%1_ascend_pt").arg(r), r))
            return {};
    writeSummaryOnlyRank(dir + QStringLiteral("/rank2_ascend_pt"), 2);
    return dir;
}

// `ranks` copies of the AlexNet ranks (rank r from rank r % 2) plus one summary-only rank.
inline QString tiledAlexnetCluster(const QString &dir, int ranks)
{
    for (int r = 0; r < ranks; ++r)
        if (!copyRankFolder(alexnetTextCluster() + QStringLiteral("/rank%1_ascend_pt").arg(r % 2),
                            dir + QStringLiteral("/rank%1_ascend_pt").arg(r), r))
            return {};
    writeSummaryOnlyRank(dir + QStringLiteral("/rank%1_ascend_pt").arg(ranks), ranks);
    return dir;
}

} // namespace at::test
