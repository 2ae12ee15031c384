#pragma once
// The Overview (issue #28 item 1, docs/OVERVIEW.md): per rank, per step and as the mean over the steps, where
// the step's time went (the parts of step_trace_time.csv, FORMATS.md §9.2) and what fills each part, the
// findings with the share of the part and of the step each explains, the memory peak with its component and
// the collection warnings. One shape serves one rank, several ranks of one model and a cluster read from its
// summary files (core/cluster/ClusterModel). Every number carries a navigation target so the page can click
// through. Plain data, computed once by buildOverview(); times are int64 ns relative to the model origin.

#include "Finding.h"
#include "Time.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace at {

class TraceModel;
struct Step;
namespace cluster {
struct ClusterModel;
}

// Translation context of the Overview's texts ("Overview").
struct OverviewText
{
    Q_DECLARE_TR_FUNCTIONS(Overview)
};

// Where a click on a number goes.
struct OverviewTarget
{
    enum class Kind
    {
        None,
        TimeRange, // group + [begin, end) on the timeline
        Kernel,    // the Kernels panel filtered to `name` (on `group`)
        Rank,      // the cluster page's rank (or the rank's group on the timeline)
        Finding    // the finding at index `finding` of Overview::findings
    };
    Kind kind = Kind::None;
    int group = -1; // source group of the model; -1 on a cluster without timelines
    int rank = -1;
    TimeNs begin = 0, end = 0;
    QString name;     // kernel or op name
    int finding = -1; // index into Overview::findings
};

// The parts of a step. Computing, CommunicationNotOverlapped, Free and Preparing add up to the step's time;
// Bubble is not additive: it is the part of CommunicationNotOverlapped spent in receive ops (§9.2).
enum class OverviewPart
{
    Computing,
    CommunicationNotOverlapped,
    Free,
    Preparing,
    Bubble
};
inline constexpr int kOverviewPartCount = 5;
// "computing", "communication_not_overlapped", "free", "preparing", "bubble" (the JSON keys add "_us").
QString overviewPartId(OverviewPart part);
// Translated display name ("Computing", "Communication (not overlapped)", …).
QString overviewPartName(OverviewPart part);
// The finding part a step part is (Preparing and Bubble: StepPart::Unknown).
StepPart stepPartOf(OverviewPart part);
// True for the parts that add up to the step (all but Bubble).
bool isAdditivePart(OverviewPart part);

// What one item of a part's contents is.
enum class OverviewItemKind
{
    KernelType,      // computing: an accelerator core (AI_CORE, AI_VECTOR_CORE, MIX_AIV, AI_CPU, …)
    CommunicationOp, // exposed communication: an op kind (hcom_allReduce, hcom_batchSendRecv, …)
    WaitingForRank,  // exposed communication: time waiting in collectives for the rank named by `rank`
    // Free and Preparing, by what the host was doing (docs/OVERVIEW.md):
    HostDispatch,    // inside a CANN API call or a framework op (launching work)
    Synchronisation, // inside a synchronize call
    DataLoading,     // inside a data loader span
    NothingRecorded, // none of these recorded at that time
    NotAttributed    // the remainder of the part no rule explains (always present, possibly 0)
};
// "kernel_type", "communication_op", "waiting_for_rank", "host_dispatch", "synchronisation", "data_loading",
// "nothing_recorded", "not_attributed".
QString overviewItemKindId(OverviewItemKind kind);

// One item of a part's contents. The items of one breakdown sum exactly to the part's time.
struct OverviewItem
{
    OverviewItemKind kind = OverviewItemKind::NotAttributed;
    QString name;           // the kernel type, op kind or rank ("Rank 3"); a translated label for the causes
    int rank = -1;          // WaitingForRank: the rank waited for
    TimeNs time = 0;        // exact share of the part
    std::int64_t count = 0; // tasks / ops / spans that contributed (0 for the remainder)
    OverviewTarget target;  // the longest contributing interval, or the kernel type / rank
};

// A part's time and what fills it. `items` sums exactly to `time`; `byRank` (exposed communication on cluster
// data only) is a second breakdown of the same time and also sums exactly to it when not empty.
struct OverviewPartValue
{
    OverviewPart part = OverviewPart::Computing;
    bool present = false; // false: the data has no such part (Bubble / Preparing without step_trace_time.csv)
    TimeNs time = 0;
    std::vector<OverviewItem> items;
    std::vector<OverviewItem> byRank;
};

// One kernel name's tasks in a step (sums of task durations, not a union).
struct OverviewKernel
{
    QString name;
    QString type; // accelerator core of its first row
    std::int64_t count = 0;
    TimeNs total = 0;
    OverviewTarget target; // Kind::Kernel
};

// Where a step's parts came from.
enum class OverviewPartsSource
{
    StepTraceCsv, // the group's step_trace_time.csv row of this step (exact, as the profiler wrote it)
    Cluster,      // the cluster data's breakdown of the rank (csv or database of the rank folder)
    Timeline      // recomputed from the timeline (core/Steps' StepBreakdown)
};
// "step_trace_time.csv", "cluster", "timeline".
QString overviewPartsSourceId(OverviewPartsSource source);

// One step of one rank, or the mean over a rank's steps (then `number` is kNoStepNumber and `label` "Mean").
struct OverviewStep
{
    static constexpr std::int64_t kNoStepNumber = -1;
    std::int64_t number = kNoStepNumber;
    QString label; // "ProfilerStep#50", "Step 13", "Mean of 3 steps"
    OverviewPartsSource source = OverviewPartsSource::Timeline;
    TimeNs begin = 0, end = 0; // on the timeline (0, 0 without one)
    std::array<OverviewPartValue, kOverviewPartCount> parts{};
    std::vector<OverviewKernel> topKernels; // by total, at most kOverviewTopKernels
    OverviewTarget target;                  // the step's time range

    const OverviewPartValue &part(OverviewPart p) const { return parts[static_cast<std::size_t>(p)]; }
    OverviewPartValue &part(OverviewPart p) { return parts[static_cast<std::size_t>(p)]; }
    // Σ of the additive parts that are present: the denominator of the shares on the page.
    TimeNs total() const;
    // The additive part with the largest time (Computing on a tie).
    OverviewPart largestPart() const;
};
inline constexpr std::size_t kOverviewTopKernels = 10;

// A finding as the Overview lists it (the fields of core/insights/Finding.h, filled by the checks).
struct OverviewFinding
{
    int index = -1; // into Overview::sourceFindings
    QString check, title;
    Severity severity = Severity::Low;
    StepPart part = StepPart::Unknown;
    int rank = -1; // Finding::rank
    TimeNs time = 0;
    double shareOfPart = 0, shareOfStep = 0;
    OverviewTarget target; // its first occurrence's time range, else Kind::Finding
};

// The peak of a rank's device memory and the component it belongs to, as core/MemoryAnalysis names it.
struct OverviewMemoryPeak
{
    std::int64_t bytes = 0;
    TimeNs time = 0;   // relative to the model origin (absolute for cluster data)
    QString component; // "PTA+GE", "PTA", "APP", "<module> (module)"
    QString metric;    // "allocated" or "reserved"
    QString source;    // what it was read from (the memory files, or the cluster's memory summary)
    OverviewTarget target;
};

// One rank (one source group of the model, or one rank of the cluster data).
struct OverviewRank
{
    int rank = -1;  // the rank id (the collection's "rank", else the group index)
    int group = -1; // the model's source group; -1 for a cluster rank without a loaded timeline
    QString label;  // "Rank 0 / Device 0"
    std::vector<OverviewStep> steps;
    std::optional<OverviewStep> mean; // none without steps
    std::vector<int> findings;        // indices into Overview::findings of those naming this rank
    std::optional<OverviewMemoryPeak> memoryPeak;
    QStringList warnings; // collection warnings of this rank
    QStringList missing; // what the data lacks for this rank ("no steps", "no kernel table", …), translated
    OverviewTarget target; // Kind::Rank
};

struct Overview
{
    enum class Scope
    {
        SingleRank,
        SeveralRanks,
        Cluster // from the cluster's summary files (ranks without a loaded timeline)
    };
    Scope scope = Scope::SingleRank;
    std::vector<OverviewRank> ranks;
    std::vector<OverviewFinding>
        findings; // every finding, in the order the checks returned them (most time first)
    // The findings themselves (OverviewFinding::index points here; never null once built). Shared, not
    // copied: in the window the very object the Insights panel shows (issue #28, one computation).
    std::shared_ptr<const std::vector<Finding>> sourceFindings;
    QStringList warnings; // the load's and the cluster data's warnings
    QStringList missing;  // what the whole input lacks, translated

    const OverviewRank *rank(int id) const;
};

// What buildOverview reads. The steps and findings are passed in when the caller already has them (the GUI
// computed them for other panels); otherwise buildOverview computes them (detectSteps, runInsightChecks).
struct OverviewInputs
{
    const TraceModel *model = nullptr;              // may be empty (a cluster of summary-only ranks)
    const cluster::ClusterModel *cluster = nullptr; // the communication / cluster data of the same folder
    const std::vector<Step> *steps = nullptr;
    const std::vector<Finding> *findings = nullptr; // copied into the Overview
    // The findings another view already holds (the window's Insights panel): kept, not copied nor run
    // again. Takes precedence over findings.
    std::shared_ptr<const std::vector<Finding>> sharedFindings;
};

Overview buildOverview(const OverviewInputs &inputs);

} // namespace at
