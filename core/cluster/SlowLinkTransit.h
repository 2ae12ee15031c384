#pragma once
// msprof-analyze's slow_link recipe (FORMATS.md §9.3 "Slow link by transit time"): an op's transit time is
// the shortest op time (Elapse Time) over the ranks of its group — the rank that arrived last waited for
// no one, so its time is the transfer alone. Ops of the same kind, data size and number of ranks should
// transfer alike: within each such set, a transit time more than 3σ from the mean marks a slow (or fast)
// link; the sets are ranked by max(|max − mean|, |min − mean|) / std. Send/receive and p2p ops and the
// "Total Op Info" sums are left out.

#include "cluster/ClusterModel.h"

#include <QString>

#include <vector>

namespace at::cluster {

// |transit − mean| > kTransitZThreshold · σ (population σ) is an outlier (msprof-analyze's
// detect_outliers_z_score). A set needs more than 10 ops for any z to exceed 3: with n values no z can
// exceed √(n − 1).
constexpr double kTransitZThreshold = 3.0;

// One op instance (step, op name, group) over the ranks that ran it.
struct TransitOp
{
    std::int64_t step = kNoStep;
    QString op, group;
    std::vector<int> ranks; // ascending
    int transitRank = -1;   // the rank whose op time is the transit time (the lowest on a tie)
    TimeNs transit = 0;     // min over the ranks of Elapse Time
    TimeNs start = 0;       // the earliest Start Timestamp over the ranks, local epoch
};

// "hcom_allReduce__586_0_1" → "hcom_allReduce": the op kind (the name before its "__<hash>_<n>_<m>").
QString transitOpType(const QString &opName);

// The ops of one (op type, data size, ranks involved) set and its statistics over their transit times.
struct TransitSet
{
    QString opType;
    std::int64_t dataBytes = 0; // the largest over the op's ranks of the bytes moved (see FORMATS.md §9.3)
    int relatedRanks = 0;
    std::vector<TransitOp> ops; // by step, then start
    double mean = 0, sigma = 0; // ns; sigma is the population σ the outlier rule uses
    // msprof-analyze's ranking: max(|max − mean|, |min − mean|) / std, where its std is the sample standard
    // deviation (n − 1) over one row per rank of every op (ops × relatedRanks rows).
    double offsetRatio = 0;
    TimeNs min = 0, max = 0;
    int minRank = -1, maxRank = -1; // the transit rank of the op with the shortest / longest transit time
};

// An op whose transit time lies above mean + kTransitZThreshold · σ of its set.
struct SlowTransit
{
    TransitOp op;
    std::size_t set = 0; // index into SlowLinkTransit::sets
    double z = 0;        // (transit − mean) / σ
    TimeNs excess = 0;   // transit − mean, rounded to ns
};

struct SlowLinkTransit
{
    std::vector<TransitSet> sets;  // the sets with at least one outlier, highest offset ratio first
    std::vector<SlowTransit> slow; // the slow ops of those sets, largest z first
    int setsTested = 0;            // sets with at least 2 ops
    int leftOutP2p = 0;            // op instances left out as send/receive or p2p
};

SlowLinkTransit findSlowTransits(const ClusterModel &model);

} // namespace at::cluster
