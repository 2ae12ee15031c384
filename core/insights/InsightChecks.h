#pragma once

#include "Finding.h"
#include "cluster/ClusterModel.h"

#include <atomic>
#include <vector>

namespace at {

namespace cluster {
struct SlowRankVoting;
struct SlowLinkTransit;
struct CommBoundAnalysis;
struct SlowLink;
struct CollectiveWait;
} // namespace cluster

// What every check reads: the model, the communication / cluster data of the same folder (the
// ranks' communication.json, step breakdowns and parallel groups, read by parser/cluster from the
// summary files, never from the timeline; null when there is none) and the step time the findings'
// shares are measured against.
// One rank's step split as step_trace_time.csv splits it (FORMATS.md §9.2), summed over its steps: the
// denominators of every finding about that rank (Finding::partTime, Finding::stepTime).
struct RankStepParts
{
    int rank = -1;
    int group = -1; // source group of the model; -1 for a rank known from the cluster data alone
    TimeNs computing = 0, communicationNotOverlapped = 0, free = 0;
    TimeNs step = 0;          // Σ step durations; the group's data span when it has no steps
    bool hasParts = false;    // the split is known (steps of the model, else the rank's step_trace_time.csv)
    bool hasHostData = false; // framework or CANN API slices of this rank were loaded
    TimeNs part(StepPart p) const;
    // Computing, communication not overlapped or free, whichever is largest (Unknown without parts).
    StepPart largestPart() const;
};

struct InsightContext
{
    const TraceModel &model;
    const cluster::ClusterModel *cluster = nullptr;
    TimeNs stepTime = 0;              // Σ step durations; the data span when there are no steps
    std::vector<RankStepParts> ranks; // every rank of the model, then the cluster data's others
    // The one source group a check reads while runInsightChecks() runs it rank by rank (a check that measures
    // the whole model, so that each rank's finding quotes that rank's figures); -1: every group.
    int onlyGroup = -1;
    bool covers(int group) const { return onlyGroup < 0 || group == onlyGroup; }
    // The slow_rank / slow_link recipes of `cluster` when the caller already ran them for its own output
    // (--cluster writes them beside the findings); null: the checks run them.
    const cluster::SlowRankVoting *slowRankVoting = nullptr;
    const cluster::SlowLinkTransit *slowLinkTransit = nullptr;
    // findSlowLinks() and findWaits() of `cluster` when the caller already ran them (--cluster --json lists
    // them beside the findings); null: the checks run them.
    const std::vector<cluster::SlowLink> *slowLinks = nullptr;
    const std::vector<cluster::CollectiveWait> *collectiveWaits = nullptr;
    // The host- or device-bound verdicts (cluster/CommBoundAnalysis.h) when the caller loaded the ranks'
    // timelines for them (--cluster --comm-bound, the cluster page's button); null: no comm_bound finding.
    const cluster::CommBoundAnalysis *commBound = nullptr;

    explicit InsightContext(const TraceModel &m, const cluster::ClusterModel *c = nullptr);
    // The rank shown for a source group: its collection's "rank" property, else the group index.
    int rankOfGroup(int group) const;
    // The source group of a rank of the cluster data, -1 when the model has none (a cluster page).
    int groupOfRank(int rank) const;
    // The rank an occurrence is shown with.
    int rankOf(const FindingOccurrence &o) const { return o.rank >= 0 ? o.rank : rankOfGroup(o.group); }
    // timeAtStake as % of stepTime.
    double percentOfSteps(TimeNs time) const;
    // The step parts of a rank, null when the rank is unknown.
    const RankStepParts *partsOfRank(int rank) const;
};

using InsightCheckFunction = void (*)(const InsightContext &context, std::vector<Finding> &findings);

// One check of FORMATS.md §9.6 (or of this viewer, where docs/INSIGHTS.md says so). Another check
// (cluster slow rank, memory allocate/free) is one more row in insightChecks().
struct InsightCheck
{
    const char *id;
    InsightCheckFunction run;
    // The check gives each rank its own finding with that rank's figures (host_bound, the cluster and
    // communication checks). Any other check runs once per source group of a model of several ranks, on a
    // context that covers() that group only (its stepTime that rank's steps), so each rank's finding quotes
    // that rank's counts and times.
    bool ranksItself = false;
};

const std::vector<InsightCheck> &insightChecks();

// Runs every check over the model (no second parse) and the cluster data when given, most costly
// finding first. Checks are skipped once cancel is set (a newer load replaced the model).
// Runs after the checks (InsightAttribution.cpp, docs/INSIGHTS.md "What a finding explains"): gives each
// finding its rank (split per rank by its pieces), part, partTime and stepTime; counts each interval of a
// rank's part once, in the order of insightPrecedence(); clips a finding to what is left of its part (and
// says so in data); adds an unexplained_part finding for the rest of each rank's largest part; and orders
// the findings by the time they explain. A finding left with no time of its part (all of it counted by a
// finding of higher precedence, or outside the part) explains nothing and is not listed: it moves to
// *withoutTime* when given (the "also checked" line of --advise and the Insights panel). Findings that never
// measured a time (informational: launch_delay, host_data_missing, memory_churn, …) stay.
void attributeFindings(const InsightContext &context, std::vector<Finding> &findings,
                       std::vector<Finding> *withoutTime = nullptr);
// Only the first of those: rank, part, partTime, stepTime and stepPercent (the cluster page's findings,
// which keep their own order and times).
void describeFindings(const InsightContext &context, std::vector<Finding> &findings);
// The precedence of a check within its part: lower claims an interval first.
int insightPrecedence(const QString &check);

std::vector<Finding> runInsightChecks(const TraceModel &model, const std::atomic_bool *cancel = nullptr,
                                      const cluster::ClusterModel *cluster = nullptr,
                                      std::vector<Finding> *withoutTime = nullptr);

// Shared severity rule for checks without one of their own: share of the step time at stake.
constexpr double kHighSeverityPercent = 10.0;  // this viewer's choice, docs/INSIGHTS.md
constexpr double kMediumSeverityPercent = 2.0; // this viewer's choice, docs/INSIGHTS.md
Severity severityForPercent(double percent);

// The checks (InsightHostChecks.cpp, InsightDeviceChecks.cpp, InsightStreamChecks.cpp,
// InsightCommunicationChecks.cpp, InsightClusterChecks.cpp, InsightMemoryChecks.cpp).
void checkHostBound(const InsightContext &context, std::vector<Finding> &findings);
void checkSynchronize(const InsightContext &context, std::vector<Finding> &findings);
void checkOperatorCompile(const InsightContext &context, std::vector<Finding> &findings);
void checkAffinityOptimizer(const InsightContext &context, std::vector<Finding> &findings);
void checkSyncBatchNorm(const InsightContext &context, std::vector<Finding> &findings);
void checkSlowDataloader(const InsightContext &context, std::vector<Finding> &findings);
void checkDynamicShape(const InsightContext &context, std::vector<Finding> &findings);
void checkAiCpu(const InsightContext &context, std::vector<Finding> &findings);
void checkBlockDim(const InsightContext &context, std::vector<Finding> &findings);
void checkOperatorNoBound(const InsightContext &context, std::vector<Finding> &findings);
void checkAiCoreFrequency(const InsightContext &context, std::vector<Finding> &findings);
void checkByteAlignment(const InsightContext &context, std::vector<Finding> &findings);
void checkIdleAttribution(const InsightContext &context, std::vector<Finding> &findings);
void checkLaunchDelay(const InsightContext &context, std::vector<Finding> &findings);
void checkKernelSequences(const InsightContext &context, std::vector<Finding> &findings);
void checkSmallPackets(const InsightContext &context, std::vector<Finding> &findings);
void checkRdmaRetransmission(const InsightContext &context, std::vector<Finding> &findings);
void checkBandwidthContention(const InsightContext &context, std::vector<Finding> &findings);
void checkSlowRank(const InsightContext &context, std::vector<Finding> &findings);
void checkStageImbalance(const InsightContext &context, std::vector<Finding> &findings);
void checkSlowLink(const InsightContext &context, std::vector<Finding> &findings);
// msprof-analyze's slow_rank and slow_link recipes (core/cluster/SlowRankVoting.h, SlowLinkTransit.h).
void checkSlowRankVote(const InsightContext &context, std::vector<Finding> &findings);
void checkSlowLinkTransit(const InsightContext &context, std::vector<Finding> &findings);
// MoE load: tokens per rank of the grouped matmuls within an expert-parallel group (core/cluster/MoeLoad.h).
void checkMoeLoad(const InsightContext &context, std::vector<Finding> &findings);
void checkCommBound(const InsightContext &context, std::vector<Finding> &findings);
// Cluster page and --cluster only (not in insightChecks()): msprof-analyze's plain rule restates the gaps
// slow_rank and stage_imbalance judge, and the waits are the evidence of who arrived late.
void checkPlainRule(const InsightContext &context, std::vector<Finding> &findings);
void checkCollectiveWait(const InsightContext &context, std::vector<Finding> &findings);

// Every cluster finding in the cluster page's order (stage_imbalance, slow_rank, slow_rank_vote, plain_rule,
// slow_link, slow_link_transit, collective_wait, moe_load), with check ids and step shares set as
// runInsightChecks() sets them: what the cluster page and --cluster show, through FindingText / FindingJson.
std::vector<Finding> clusterFindings(const InsightContext &context);
void checkMemoryChurn(const InsightContext &context, std::vector<Finding> &findings);
void checkExposedCommunication(const InsightContext &context, std::vector<Finding> &findings);

} // namespace at
