#pragma once
// The cluster page's per-op communication table (docs/CLUSTER.md): one row per (op, rank) of the ranks'
// communication.json / analysis.db ops (FORMATS.md §9.4), filtered by step, group and op, and a summary of
// one op instance across its ranks. The GUI's Communication tab and `--cluster --json` both read these rows.

#include "cluster/ClusterModel.h"

#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace at::cluster {

// The transports a row has a column for, in this order. communication.json writes RDMA, HCCS, PCIE, SDMA
// and SIO (SDMA repeats HCCS + PCIE + SIO); LOCAL (on-chip copies) appears in the matrix only, so its cell
// is normally absent.
constexpr std::array<const char *, 6> kCommTransports = {"HCCS", "RDMA", "PCIE", "SDMA", "SIO", "LOCAL"};
constexpr std::size_t kCommTransportCount = kCommTransports.size();

struct CommOpFilter
{
    std::optional<std::int64_t> step; // one step (kNoStep for ops without a schedule); nullopt: every step
    QString group;                    // a group hash; empty: every group (a group excludes the totals)
    QString op;                       // one op name; empty: every op
    bool includeTotals = false;       // the "Total Op Info" entries (sums per rank, step and kind)
};

// One transport of one op on one rank; a cell exists only when the op moved something over it.
struct CommTransportCell
{
    double sizeMb = 0;
    TimeNs time = 0;
    double bandwidthGbps = 0; // as the source states it, else MB / ms (torch_npu's totals have none)
};

struct CommOpRow
{
    std::int64_t step = kNoStep;
    QString op;        // hcom_allReduce__586_0_1, "Total Op Info"
    QString groupHash; // empty for the totals
    QString groupName; // the pg name of parallel_group_info ("pp", "dp", ...), else the hash
    bool p2p = false;
    bool total = false;
    int rank = -1;
    TimeNs start = 0; // Start Timestamp(us) on the rank's own clock
    TimeNs elapse = 0, transit = 0, wait = 0, synchronization = 0, idle = 0;
    double waitRatio = 0, synchronizationRatio = 0;
    std::array<std::optional<CommTransportCell>, kCommTransportCount> transports;
    // Packet-size buckets of the op on this rank, merged over its transports (equal sizes add up), by size.
    // SDMA's distribution is left out: SDMA repeats HCCS + PCIE + SIO.
    std::vector<PacketBucket> sizes;
};

// Rows ordered by step, then op instance (the earliest start of the instance over its ranks; the totals
// last), then rank. An op instance is (step, kind, name, group) on every rank that has it.
std::vector<CommOpRow> communicationOps(const ClusterModel &model, const CommOpFilter &filter = {});

// One op instance across its ranks (the rows given, e.g. communicationOps() of one op).
struct CommOpSummary
{
    std::int64_t step = kNoStep;
    QString op, groupHash;
    bool p2p = false;
    int ranks = 0;
    int slowestRank = -1, fastestRank = -1; // by elapse; the lower rank on a tie
    TimeNs slowestElapse = 0, fastestElapse = 0;
    int maxWaitRank = -1;
    TimeNs maxWait = 0;
    TimeNs spread() const { return slowestElapse - fastestElapse; }
};
// The summary of the instance of `row` among `rows` (ranks = the rows of that instance).
CommOpSummary summarizeOp(const std::vector<CommOpRow> &rows, const CommOpRow &row);

} // namespace at::cluster
