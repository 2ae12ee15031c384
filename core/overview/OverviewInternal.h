#pragma once
// Shared by the files of core/overview (not part of the Overview's interface).

#include "Overview.h"
#include "cluster/ClusterModel.h"

#include <map>
#include <tuple>
#include <vector>

namespace at::overview {

// Collective waits of a cluster (communication.json): per (rank, step) the wait time spent for each rank
// waited for. The rank waited for in one collective (same op name, group and step on several ranks) is the
// one that waited least (core/cluster/ClusterAnalysis findWaits' rule).
class CollectiveWaits
{
public:
    explicit CollectiveWaits(const cluster::ClusterModel *cluster);
    // (rank waited for → Σ wait, number of ops) of `rank` in `step`; empty when the data has none.
    std::map<int, std::pair<TimeNs, std::int64_t>> of(int rank, std::int64_t step) const;

private:
    std::map<std::pair<int, std::int64_t>, std::map<int, std::pair<TimeNs, std::int64_t>>> m_waits;
};

// The byRank breakdown of exposed communication from the waits: one item per rank waited for (fitted to the
// part; the rest is transfer and other time). Empty without waits.
std::vector<OverviewItem> waitingItems(const std::map<int, std::pair<TimeNs, std::int64_t>> &waits,
                                       TimeNs partTime, int group);

// A step's parts from a step_trace_time.csv-shaped row (the cluster data's RankStep).
void setPartsFromRankStep(OverviewStep &step, const cluster::RankStep &row);

// Every part that is present gets a breakdown summing to it: the items given for it (fitted) or a single
// NotAttributed item.
void completeParts(OverviewStep &step);

// The mean over a rank's steps (nullopt without steps).
std::optional<OverviewStep> meanStep(const std::vector<OverviewStep> &steps);

// The op kind an op name is counted under: the name before "__" (hcom_allReduce__586_0_1 → hcom_allReduce).
QString opKind(const QString &opName);

QString notAttributedName();
QString rankName(int rank);

// Ranks from the loaded model (one per source group) / from the cluster's summary files.
std::vector<OverviewRank> modelRanks(const TraceModel &model, const std::vector<Step> &steps,
                                     const cluster::ClusterModel *cluster);
std::vector<OverviewRank> clusterRanks(const cluster::ClusterModel &cluster);

} // namespace at::overview
