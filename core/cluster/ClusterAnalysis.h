#pragma once
// Analyses of a ClusterModel (FORMATS.md §9.3, §9.4): slow ranks compared within their pipeline stage or
// data-parallel group, stage load imbalance, msprof-analyze's plain slow-rank rule, per-rank
// communication totals, "who waits for whom" per collective, the communication matrix and slow links.

#include "cluster/ClusterModel.h"

#include <QString>

#include <vector>

namespace at::cluster {

// Same-kind times should agree within 5 % (msprof-analyze cluster_analyse_instruct.md, advisor rule).
constexpr double kSlowRankThreshold = 0.05;
// msprof's slow-link rule: bandwidth / reference < 0.8 (slow_link_calculator.py); the reference here is the
// median bandwidth of the links of the same transport type.
constexpr double kSlowLinkRatio = 0.8;
// Links that moved less than this are not judged: with tiny packets (Qwen3's 96-byte allgathers run at
// 0.06 GB/s) latency, not bandwidth, is measured (msprof's "too many small packets" cause).
constexpr double kSlowLinkMinSizeMb = 1.0;
// msprof's advice: a Wait Time Ratio above 0.2 points to waiting on other ranks.
constexpr double kWaitRatioThreshold = 0.2;

enum class Dimension
{
    Computing,
    Communication, // Communication(Not Overlapped)
    Free
};
QString dimensionKey(Dimension d); // "computing", "communication", "free"

TimeNs dimensionValue(const RankStep &s, Dimension d);
// T of the advisor: computing + communication(not overlapped) + free.
TimeNs rankTotal(const RankStep &s);

// Ranks that should behave alike: one pipeline stage (pp groups), else one data-parallel group, else
// the whole job.
struct ComparisonGroup
{
    QString name; // "stage 0", "dp 2,3", "all ranks"
    int stage = -1;
    std::vector<int> ranks;
};
std::vector<ComparisonGroup> comparisonGroups(const ClusterModel &model);

// The slowest rank of a comparison group in one step, when its gap exceeds kSlowRankThreshold · mean T.
// The dimension is the first flagged of computing, free, communication: a rank that computes longer
// makes the others wait, so their communication grows too; communication is the cause only when neither
// computing nor free differ.
struct SlowRank
{
    std::int64_t step = kNoStep;
    QString group;
    int rank = -1;
    Dimension dimension = Dimension::Computing;
    TimeNs gap = 0;           // this rank's value − the group's smallest
    TimeNs value = 0;         // this rank's value
    int fastest = -1;         // the rank with the group's smallest value (the gap is measured against it)
    std::vector<int> waiting; // ranks of the group whose communication exceeds this rank's
};
std::vector<SlowRank> findSlowRanks(const ClusterModel &model);

// A pipeline stage that computes more than another: load imbalance, not a slow rank.
struct StageImbalance
{
    std::int64_t step = kNoStep;
    int heavierStage = -1, lighterStage = -1;
    TimeNs heavierComputing = 0, lighterComputing = 0; // mean over the stage's ranks
    TimeNs gap = 0;
};
std::vector<StageImbalance> findStageImbalance(const ClusterModel &model);

// msprof-analyze advisor's rule over all ranks at once (FORMATS.md §9.3): (max − min) / mean(T) > 0.05.
struct PlainRuleFlag
{
    std::int64_t step = kNoStep;
    Dimension dimension = Dimension::Computing;
    int maxRank = -1, minRank = -1;
    TimeNs gap = 0;
    double ratio = 0; // gap / mean T
};
std::vector<PlainRuleFlag> plainRule(const ClusterModel &model);

// Per rank and step, summed over its ops (Total Op Info entries excluded).
struct TransportTotal
{
    QString transport;
    double sizeMb = 0;
    TimeNs time = 0;
    double bandwidthGbps() const { return time > 0 ? sizeMb / (static_cast<double>(time) / 1e6) : 0.0; }
};
struct RankCommunication
{
    int rank = -1;
    std::int64_t step = kNoStep;
    int ops = 0;
    TimeNs elapse = 0, transit = 0, wait = 0, synchronization = 0, idle = 0;
    double waitRatio() const;
    std::vector<TransportTotal> transports; // RDMA, HCCS, PCIE, SDMA, SIO as present
};
std::vector<RankCommunication> rankCommunication(const ClusterModel &model);

// One collective (same op name and group on several ranks): the rank the others wait for is the one that
// waits least; reported when some rank's wait ratio exceeds kWaitRatioThreshold.
struct CollectiveWait
{
    std::int64_t step = kNoStep;
    QString op, group;
    int waitedFor = -1;
    struct Waiter
    {
        int rank;
        TimeNs wait;
        double waitRatio;
    };
    std::vector<Waiter> waiting; // ranks above the threshold, longest wait first
};
std::vector<CollectiveWait> findWaits(const ClusterModel &model);

// One src → dst link, summed over the "-total" matrix entries of the selected ops.
struct LinkTotal
{
    int src = -1, dst = -1;
    QString transport;
    double sizeMb = 0;
    TimeNs time = 0;
    double bandwidthGbps() const { return time > 0 ? sizeMb / (static_cast<double>(time) / 1e6) : 0.0; }
};
// group: a group hash, or empty for all; opType: "allreduce", "batchsendrecv", ..., or empty for all.
std::vector<LinkTotal> matrixLinks(const ClusterModel &model, std::int64_t step, const QString &group = {},
                                   const QString &opType = {});
// The links of one op (by name, its non-total entries) in a step; group as above.
std::vector<LinkTotal> opMatrixLinks(const ClusterModel &model, std::int64_t step, const QString &group,
                                     const QString &opName);

struct SlowLink
{
    std::int64_t step = kNoStep;
    int src = -1, dst = -1;
    QString transport;
    double bandwidthGbps = 0;
    double medianGbps = 0;
    TimeNs lost = 0; // the link's time − its size moved at the median bandwidth (≥ 0)
};
// Links (src ≠ dst, at least kSlowLinkMinSizeMb moved) below kSlowLinkRatio × the median bandwidth of their
// transport type in the step.
std::vector<SlowLink> findSlowLinks(const ClusterModel &model);

} // namespace at::cluster
