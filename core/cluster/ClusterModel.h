#pragma once
// A multi-rank job as its per-rank summary files describe it (FORMATS.md §9.1): ranks (rank id and device id
// kept apart), the parallel groups of profiler_metadata.json, the step breakdown per rank and step, the
// communication ops of communication.json and the links of communication_matrix.json. Built by
// parser/cluster/ClusterReader without parsing any rank's timeline; the analyses (ClusterAnalysis.h) read it.

#include "Time.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace at::cluster {

// Where a rank's step breakdown came from.
enum class BreakdownSource
{
    StepTraceCsv, // ASCEND_PROFILER_OUTPUT/step_trace_time.csv
    Database,     // analysis.db StepTraceTime, or the profiler database's STEP_TIME + OVERLAP_ANALYSIS
    Timeline,     // recomputed from a loaded timeline (FORMATS.md §9.2)
    ClusterAnalysisOutput,  // msprof-analyze's cluster_analysis_output/cluster_step_trace_time.csv
    ClusterAnalysisDatabase // msprof-analyze's cluster_analysis.db ClusterStepTraceTime (FORMATS.md §9.1)
};
// "step_trace_time.csv", "database", "timeline", "cluster_step_trace_time.csv", "cluster_analysis.db" (the
// --cluster JSON's "source" values).
QString breakdownSourceName(BreakdownSource source);

constexpr std::int64_t kNoStep = -1; // the Step cell is empty without a schedule

// One row of step_trace_time.csv (FORMATS.md §9.2), in ns parsed from the decimal text the source wrote.
struct RankStep
{
    std::int64_t step = kNoStep;
    TimeNs computing = 0;
    TimeNs communicationNotOverlapped = 0;
    TimeNs overlapped = 0;
    TimeNs communication = 0;
    TimeNs free = 0;
    TimeNs stage = 0;
    TimeNs bubble = 0;
    TimeNs communicationNotOverlappedExcludeReceive = 0;
    TimeNs preparing = 0;
    bool hasPreparing = false;
    BreakdownSource source = BreakdownSource::StepTraceCsv;
};

// Transports of communication.json's "Communication Bandwidth Info" (SDMA repeats HCCS + PCIE + SIO).
struct PacketBucket
{
    double sizeMb = 0;
    std::int64_t count = 0;
    TimeNs time = 0;
};
struct TransportBandwidth
{
    QString transport; // RDMA, HCCS, PCIE, SDMA, SIO
    double sizeMb = 0;
    TimeNs time = 0;
    std::optional<double> bandwidthGbps; // absent in torch_npu's "Total Op Info" entries
    double largePacketRatio = 0;
    std::vector<PacketBucket> sizes;
    // The stated bandwidth, else MB / ms (FORMATS.md §9.4).
    double effectiveBandwidth() const;
};

// One op of communication.json ("<op>@<group hash>"), or a "Total Op Info" entry.
struct CommOp
{
    std::int64_t step = kNoStep;
    QString name;  // hcom_allReduce__586_0_1, "Total Op Info"
    QString group; // the group hash after '@'
    bool p2p = false;
    bool total = false;
    TimeNs startAbsolute = 0; // Start Timestamp(us), local epoch
    TimeNs elapse = 0, transit = 0, wait = 0, synchronization = 0, idle = 0;
    double waitRatio = 0, synchronizationRatio = 0;
    std::vector<TransportBandwidth> bandwidth;
    const TransportBandwidth *transport(const QString &name) const;
};

// One link of communication_matrix.json ("<type>-<phase>@<group>" → "<src>-<dst>").
struct MatrixLink
{
    std::int64_t step = kNoStep;
    QString opKey; // allreduce-top1, batchsendrecv-total
    QString group;
    int srcLocal = -1, dstLocal = -1; // group-local ranks as written
    int src = -1, dst = -1;           // global ranks (-1 when the group is unknown)
    QString transport;
    double sizeMb = 0;
    TimeNs time = 0;
    double bandwidthGbps = 0;
    QString opName;
    bool isTotal() const { return opKey.endsWith(QLatin1String("-total")); }
};

// One entry of parallel_group_info (merged over the ranks' files by key).
struct ParallelGroup
{
    QString key;  // group_name_19
    QString hash; // double_hash(key) as communication.json writes it after '@'
    QString name; // pg name: pp, dp, tp, mp, default_group, ...
    std::vector<int> globalRanks;
};

struct DistributedArgs
{
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, worldSize = 0;
    bool present = false;
};

// A rank's peak device memory from its memory summary (FORMATS.md §9.5; docs/CLUSTER.md): the largest Total
// Reserved of any memory_record.csv / MEMORY_RECORD component (APP, the whole application, when recorded;
// a database's APP is NPU_MEM 'app' hbm + ddr), else of any npu_module_mem.csv / NPU_MODULE_MEM module,
// and the first time it is reached (core/MemoryAnalysis's peak definition).
struct RankMemoryPeak
{
    std::int64_t bytes = 0;
    TimeNs time = 0;   // absolute, on the rank's clock, as the file wrote it
    QString component; // "APP", "PTA+GE", or "<module> (module)"
    QString file;      // the file (or database) it was read from
};

// The grouped-matmul (MoE expert) calls of one rank in one step, read from its kernel table by
// parser/cluster/MoeLoadReader only where the job has an expert-parallel group (core/cluster/MoeLoad.h).
struct GroupedMatmulStep
{
    std::int64_t step = kNoStep; // the rows' Step Id; kNoStep without one
    std::int64_t tokens = 0;     // Σ the first dimension of each call's first input shape
    int calls = 0;
    TimeNs time = 0;         // Σ the calls' durations
    TimeNs largestStart = 0; // the absolute start (the rank's clock) of the call with the most tokens
    QString largestName;     // that call's kernel name (the op a finding opens the timeline at)
};

struct Rank
{
    int rank = -1;
    int device = -1; // Device_id / deviceId; -1 when the source has none
    QString folder;  // the rank folder (absolute)
    QString name;    // folder name, display only
    int stage = -1;  // pipeline stage: this rank's group_rank in its "pp" group
    std::vector<RankStep> steps;
    std::vector<CommOp> ops;
    std::vector<MatrixLink> links;
    bool hasTimeline = false; // a trace_view.json or profiler database to open
    QStringList filesRead;
    std::optional<RankMemoryPeak> memoryPeak; // none when the rank has no memory summary
    // The prepared summary (`--prepare`, docs/CLUSTER.md) this rank was taken from instead of its own
    // files; empty when its files were read.
    QString preparedSummary;
    std::vector<GroupedMatmulStep> groupedMatmul; // ascending step; empty without an EP group or such ops
};

struct ClusterModel
{
    QString root;
    std::vector<Rank> ranks; // ordered by rank id
    std::vector<ParallelGroup> groups;
    DistributedArgs distributed;
    QStringList warnings;

    const Rank *rank(int id) const;
    const ParallelGroup *groupByHash(const QString &hash) const;
    // Groups whose pg name is exactly `name` (e.g. "pp", "dp").
    std::vector<const ParallelGroup *> groupsNamed(const QString &name) const;
    // Every step number any rank has, ascending.
    std::vector<std::int64_t> stepNumbers() const;
};

// msprof-analyze's double_hash (FORMATS.md §9.3): h1 = h1·29 + c, h2 = h2·131 + c (mod 2³²), (h1 << 32) | h2.
QString doubleHash(const QString &key);

// "step13" → 13, "step" → kNoStep.
std::int64_t stepFromKey(const QString &key);

} // namespace at::cluster
