#pragma once
// fuzz_cluster (issue #29 items 11, 3 and 9): one file of a cluster rank given as bytes. Byte 0 picks the
// file of rank 0 (0 communication.json, 1 communication_matrix.json, 2 step_trace_time.csv,
// 3 profiler_metadata.json), the rest is its content; rank 1 is a small valid summary-only rank. The
// cluster is read with readCluster (and once more under a memory limit) and must come back with both
// ranks, every time of a step, op or link within the profile range (durations not negative), and every
// rank's sums of them free of overflow (ClusterValues.h). Also replayed from tests/data/fuzz/cluster by
// tst_cluster_reader_values in every build.

#include "CheckedTime.h"
#include "cluster/ClusterReader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace at::fuzz {

inline void clusterCheck(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "fuzz invariant failed: %s\n", what);
        std::abort();
    }
}

inline void writeClusterFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    clusterCheck(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(content) == content.size(),
                 "cluster: cannot write the input");
}

// Sums a rank's times as the analyses do; false when a sum leaves the profile range.
inline bool sumsStayInRange(const cluster::Rank &rank)
{
    TimeNs steps = 0, elapse = 0, wait = 0, links = 0;
    for (const cluster::RankStep &s : rank.steps) {
        for (TimeNs t : {s.computing, s.communicationNotOverlapped, s.overlapped, s.communication, s.free,
                         s.stage, s.bubble, s.preparing})
            if (!withinProfileRange(t) || t < 0)
                return false;
        const auto sum = checkedAdd(steps, s.computing);
        if (!sum)
            return false;
        steps = *sum;
    }
    for (const cluster::CommOp &op : rank.ops) {
        const auto e = checkedAdd(elapse, op.elapse);
        const auto w = checkedAdd(wait, op.wait);
        if (!e || !w || op.elapse < 0 || op.wait < 0 || !withinProfileRange(op.startAbsolute))
            return false;
        elapse = *e;
        wait = *w;
    }
    for (const cluster::MatrixLink &l : rank.links) {
        const auto sum = checkedAdd(links, l.time);
        if (!sum || l.time < 0)
            return false;
        links = *sum;
    }
    return true;
}

inline void fuzzCluster(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return;
    static const char *const kFiles[] = {
        "ASCEND_PROFILER_OUTPUT/communication.json", "ASCEND_PROFILER_OUTPUT/communication_matrix.json",
        "ASCEND_PROFILER_OUTPUT/step_trace_time.csv", "profiler_metadata.json"};
    QTemporaryDir dir;
    clusterCheck(dir.isValid(), "cluster: no temporary folder");
    const QString rank0 = dir.filePath(QStringLiteral("rank_0_ascend_pt"));
    const QString rank1 = dir.filePath(QStringLiteral("rank_1_ascend_pt"));
    writeClusterFile(rank0 + QStringLiteral("/profiler_info_0.json"), "{}");
    writeClusterFile(rank1 + QStringLiteral("/profiler_info_1.json"), "{}");
    writeClusterFile(
        rank1 + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
        "Communication(Not Overlapped and Exclude Receive),Preparing\n"
        "1,10.5,2,0,2,1,13.5,0,2,0.25\n");
    writeClusterFile(rank0 + QLatin1Char('/') + QLatin1String(kFiles[data[0] & 3]),
                     QByteArray(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1)));
    for (const std::uint64_t limit : {std::uint64_t(0), std::uint64_t(1) << 40}) {
        const cluster::ClusterModel model = cluster::readCluster(dir.path(), {{}, limit});
        clusterCheck(model.ranks.size() == 2, "cluster: a rank was lost");
        for (const cluster::Rank &r : model.ranks)
            clusterCheck(sumsStayInRange(r), "cluster: a time or a sum of times out of range");
        clusterCheck(model.rank(1)->steps.size() == 1, "cluster: the valid rank's step was lost");
    }
}

} // namespace at::fuzz
