#pragma once

// Value-by-value comparison of a cluster rank read from msprof-analyze's output (cluster_analysis.db or the
// text-mode cluster_analysis_output/) with the same rank read from its rank folder, shared by
// tst_cluster_analysis_db and tst_msprof_analyze_output. Failures are reported through QtTest (QCOMPARE /
// QVERIFY), so call it from a test function and return when QTest::currentTestFailed() is set afterwards.

#include "cluster/ClusterModel.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <tuple>

namespace at::test {

using CommOpKey = std::tuple<std::int64_t, QString, QString>;               // step, name, group hash
using MatrixLinkKey = std::tuple<std::int64_t, QString, QString, int, int>; // step, op key, group, src, dst

// The rank's ops (the "Total Op Info" entries when totals) and links by key.
std::map<CommOpKey, const cluster::CommOp *> opsByKey(const cluster::Rank &rank, bool totals);
std::map<MatrixLinkKey, const cluster::MatrixLink *> linksByKey(const cluster::Rank &rank);

struct RankComparison
{
    // Every step of the compared rank must come from here.
    cluster::BreakdownSource stepSource = cluster::BreakdownSource::StepTraceCsv;
    // AsListed: each transport's stated bandwidth and its packet buckets in order (count, time).
    // BySize: the effective bandwidth and the buckets sorted by size (size, count, time); the comparison
    // tst_cluster_analysis_db makes.
    enum class Transports
    {
        AsListed,
        BySize
    };
    Transports transports = Transports::AsListed;
};

// got against want: every step field, every op that is no total (more than ten) with its transports, every
// link with its group-local ranks.
void compareRankContents(const cluster::Rank &got, const cluster::Rank &want, const RankComparison &how);

// The `--cluster --json` output without what names where the data came from: the root, each rank's
// folder, has_timeline and peak memory (and moreRankFields), each step's "source".
QJsonObject withoutSourceFields(QJsonObject json, const QStringList &moreRankFields = {});

} // namespace at::test
