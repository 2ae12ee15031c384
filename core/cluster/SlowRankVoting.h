#pragma once
// msprof-analyze's slow_rank recipe (FORMATS.md §9.3 "Slow rank by voting"): in every collective of a group,
// the ranks whose op time (Elapse Time of communication.json) is abnormally short arrived last — the others
// waited for them inside the op — and get a vote; the votes are summed over the collectives. Small groups
// (3 to 100 ranks) use Dixon's Q-test at 99.5 %, larger ones 3σ. Send/receive and p2p ops, the "Total Op
// Info" sums and groups whose ranks have unequal op counts are left out.

#include "cluster/ClusterModel.h"

#include <QString>

#include <cstddef>
#include <utility>
#include <vector>

namespace at::cluster {

// Dixon's test is used up to this many ranks, 3σ above (msprof-analyze MAX_DIXON_NUM).
constexpr int kDixonMaxRanks = 100;
// The 3σ path: a time below mean − kSigmaThreshold · σ is an outlier.
constexpr double kSigmaThreshold = 3.0;

// The one-sided Dixon critical value at 99.5 % for n values (3 ≤ n ≤ 100), else 0.
double dixonCritical995(int n);

enum class OutlierTest
{
    None,      // not tested: fewer than 3 ranks, or at most 3 distinct times (Dixon)
    Dixon,     // 3 ≤ n ≤ kDixonMaxRanks
    ThreeSigma // n > kDixonMaxRanks
};
QString outlierTestKey(OutlierTest test); // "none", "dixon", "3sigma"

// The ops both recipes leave out: send/receive matched by name, as msprof-analyze does ("send" / "receive"
// in the op name), and also every p2p op of communication.json (batchSendRecv; msprof-analyze's match is
// case-sensitive and keeps hcom_batchSendRecv).
bool isPointToPoint(const CommOp &op);

// One outlier test of a list of times: the indices of the short outliers (the votes), the statistic and the
// value it is compared with. Dixon: Q = gap / range of the sorted times (r10, r11, r21 or r22 by n) against
// the table; 3σ: z = (mean − the shortest time) / σ (population σ) against 3.
struct OutlierResult
{
    OutlierTest test = OutlierTest::None;
    std::vector<std::size_t> outliers; // indices into the times; for Dixon at most the shortest one
    double statistic = 0;
    double critical = 0;
};
OutlierResult dixonTest(const std::vector<double> &times);
OutlierResult threeSigmaTest(const std::vector<double> &times);
// Dixon up to kDixonMaxRanks values, 3σ above.
OutlierResult shortOutliers(const std::vector<double> &times);

// One collective (step, op name, group) tested over the ranks that ran it.
struct TestedCollective
{
    std::int64_t step = kNoStep;
    QString op, group;
    std::vector<int> ranks;    // ascending
    std::vector<TimeNs> waits; // aligned with ranks: each rank's Wait Time in the op
    OutlierResult result;
    std::vector<int> voted; // the ranks voted slow (the outliers), ascending by op time
    TimeNs votedElapse = 0; // the op time of the first voted rank
    TimeNs meanElapse = 0;  // the mean op time over the collective's ranks
    TimeNs start = 0;       // the first voted rank's Start Timestamp (else the earliest), local epoch
    TimeNs othersWait = 0;  // Σ Wait Time of the ranks not voted: the time they waited inside the op
    int longestWaiter = -1; // the rank not voted that waited longest
    TimeNs longestWait = 0;
};

// The votes of one rank in one group.
struct RankGroupVotes
{
    int rank = -1;
    QString group;
    int votes = 0;         // collectives of the group where the rank was voted slow
    int collectives = 0;   // collectives of the group tested that the rank ran
    TimeNs othersWait = 0; // Σ othersWait of the voted collectives
};

struct SlowRankVoting
{
    std::vector<TestedCollective> collectives;     // every tested one, by step then start
    std::vector<RankGroupVotes> votes;             // ranks with at least one vote, most votes first
    std::vector<std::pair<int, int>> votesPerRank; // (rank, votes summed over groups), most first
    int leftOutP2p = 0;                            // op instances left out as send/receive or p2p
    std::vector<QString> leftOutGroups;            // groups whose ranks have unequal op counts
    int tooFewRanks = 0;                           // collectives with fewer than 3 ranks
    int tooFewDistinct = 0;                        // Dixon collectives with at most 3 distinct times
    const TestedCollective *collective(std::int64_t step, const QString &op, const QString &group) const;
};

SlowRankVoting voteSlowRanks(const ClusterModel &model);

// "dp 2,3" style: the pg name of parallel_group_info with its ranks, else the group hash.
QString groupLabel(const ClusterModel &model, const QString &hash);

} // namespace at::cluster
