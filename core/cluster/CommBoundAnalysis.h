#pragma once
// Host- or device-bound communication (issue #32, msprof-analyze's "host- or device-bound" question,
// docs/CLUSTER.md "Host- or device-bound communication"): for the longest communication ops whose fast and
// slow rank differ by more than 5 %, why the slow rank arrived late. The summary files say who arrived last
// (the rank with the shortest Elapse Time: the others waited for it inside the op); the two ranks' timelines
// say why: the slow rank's host launched the op late (the CANN / framework launch linked to the op by its
// HostToDevice or async_npu flow), or its device stream was still running the tasks before the op.
//
// The ranks' clocks need not agree, so every time is taken relative to the op's end on its own rank: a
// collective ends on every rank at about the same moment (RankAlignment.h). A cause is named only when the
// data shows it and it explains at least half the gap; otherwise the verdict is undetermined with what is
// missing or what was seen.

#include "TraceModel.h"
#include "cluster/ClusterModel.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace at::cluster {

// An op is examined when its fast and slow rank differ by more than this share of the fast rank's op time
// (the advisor's 5 %, ClusterAnalysis.h kSlowRankThreshold).
constexpr double kCommBoundGapShare = 0.05;
// How many ops are examined by default (the longest ones): each needs the timelines of its two ranks.
constexpr int kCommBoundDefaultOps = 5;
// A cause (late host launch, busy device stream) is named only when it explains at least this share of the
// gap.
constexpr double kCommBoundExplainedShare = 0.5;
// The preceding tasks on the slow rank's stream kept as evidence.
constexpr std::size_t kCommBoundPrecedingTasks = 3;

// One op instance of communication.json with a gap between the rank that arrived first (the fast rank: the
// longest Elapse Time, it waited) and the one that arrived last (the slow rank: the shortest).
struct CommBoundCandidate
{
    std::int64_t step = kNoStep;
    QString op, group;
    bool p2p = false;
    int fastRank = -1, slowRank = -1;
    TimeNs fastElapse = 0, slowElapse = 0;
    TimeNs fastWait = 0;  // the fast rank's Wait Time in the op: what the late arrival cost it
    TimeNs fastStart = 0; // Start Timestamp(us) of each rank, on its own clock (absolute ns)
    TimeNs slowStart = 0;
    TimeNs gap() const { return fastElapse - slowElapse; }
};

// The op instances (the "Total Op Info" sums left out) whose gap exceeds kCommBoundGapShare of the fast
// rank's op time, longest first (by the fast rank's Elapse Time), at most maxOps. *withGap (if given)
// receives how many op instances had such a gap.
std::vector<CommBoundCandidate>
commBoundCandidates(const ClusterModel &model, int maxOps = kCommBoundDefaultOps, int *withGap = nullptr);

// A rank's timeline: one model (the rank loaded alone, group -1) or one source group of a merged model.
struct RankTimeline
{
    std::shared_ptr<const TraceModel> owned; // set when the timeline was loaded for the analysis alone
    const TraceModel *model = nullptr;       // null: the rank has no timeline (or it failed to load)
    int group = -1;                          // -1: every group of the model
    QString problem;                         // why model is null, when known (the load's error)
};

enum class CommBoundVerdict
{
    HostBound,
    DeviceBound,
    Undetermined
};
QString commBoundVerdictKey(CommBoundVerdict verdict);  // "host_bound", "device_bound", "undetermined"
QString commBoundVerdictText(CommBoundVerdict verdict); // "host-bound", ... (translated)

// A task that ran on the op's stream just before the op.
struct PrecedingTask
{
    QString name;
    TimeNs start = 0, end = 0; // absolute ns on the rank's clock
};

// What one rank's timeline shows about the op. Times are absolute ns on the rank's own clock.
struct RankOpEvidence
{
    int rank = -1;
    bool hasTimeline = false;
    QString problem;          // why there is no timeline, when known
    bool found = false;       // the op's slice was found on the timeline
    bool hasHostData = false; // the timeline has framework or CANN API slices
    TimeNs opStart = 0, opEnd = 0;
    QString stream;               // the device stream lane the op's first task ran on
    bool streamInferred = false;  // no task of the op on a stream: `stream` is the one busy last before it
    std::optional<TimeNs> launch; // the start of the host API that launched the op (its flow's source)
    QString launchApi;            // e.g. "AscendCL@hcom_allReduce_"
    std::vector<PrecedingTask> preceding; // the last tasks on the stream before the op, earliest first
    // A time relative to the op's end on this rank (the common frame of the ranks).
    TimeNs relative(TimeNs t) const { return t - opEnd; }
};

struct CommBoundResult
{
    CommBoundCandidate op;
    RankOpEvidence fast, slow;
    CommBoundVerdict verdict = CommBoundVerdict::Undetermined;
    QString reason;     // the verdict in words: the cause with its latency, or what is missing
    TimeNs latency = 0; // the latency that caused the late arrival (≤ the gap); 0 when undetermined
    // In the common frame (relative to the op's end on each rank):
    std::optional<TimeNs> launchDifference;       // slow rank's launch − fast rank's launch
    std::optional<TimeNs> launchAfterFastArrival; // slow rank's launch − fast rank's arrival
    std::optional<TimeNs> deviceAfterFastArrival; // end of the slow stream's preceding task − fast arrival
    // The time a finding may claim: the latency, never more than the fast rank's measured wait.
    TimeNs claimed() const;
};

struct CommBoundAnalysis
{
    std::vector<CommBoundResult> ops; // the examined ops, longest first
    int opsWithGap = 0;               // op instances with a gap above kCommBoundGapShare
    int maxOps = kCommBoundDefaultOps;
};

// What a rank's timeline shows about one op (the slice nearest the summary's start with the op's name).
RankOpEvidence rankOpEvidence(const RankTimeline &timeline, int rank, const QString &op, TimeNs summaryStart);

// The verdict of one candidate from its two ranks' evidence.
CommBoundResult judgeCommBound(const CommBoundCandidate &op, const RankOpEvidence &fast,
                               const RankOpEvidence &slow);

// Every candidate judged; timelineOf(rank) gives each named rank's timeline, called once per rank of the
// candidates and dropped before the next (an owned model is freed then).
CommBoundAnalysis analyseCommBound(const ClusterModel &model,
                                   const std::function<RankTimeline(int)> &timelineOf,
                                   int maxOps = kCommBoundDefaultOps);

} // namespace at::cluster
