#pragma once
// The parallel strategy of a cluster (FORMATS.md §9.3, docs/CLUSTER.md "Strategy view"): each rank's
// coordinate in every parallel dimension the job has (TP, CP, EP, DP, PP of size > 1), and a 2-D grid that
// places one rank per cell so that walking along a dimension walks one of its groups.
//
// Where the coordinates come from, in order:
//  1. the parallel groups (parallel_group_info merged over the ranks' files) when, for every dimension, one
//     pg name's groups partition the ranks (a rank's coordinate = its position inside its group's sorted
//     global ranks, which is its group_rank);
//  2. else distributed_args by Megatron order (tp fastest, then cp, then dp, then pp);
//  3. else no strategy, with the reason.

#include "cluster/ClusterModel.h"

#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace at::cluster {

// Megatron's order, fastest-varying first: consecutive ranks differ in TP first, PP last.
enum class ParallelDimension
{
    TP,
    CP,
    EP,
    DP,
    PP
};
constexpr int kParallelDimensionCount = 5;
QString parallelDimensionName(ParallelDimension d); // "TP", "CP", "EP", "DP", "PP" (not translated)
QString parallelDimensionKey(ParallelDimension d);  // "tp", "cp", "ep", "dp", "pp" (the JSON's keys)

enum class StrategySource
{
    None,
    Groups,         // parallel_group_info
    DistributedArgs // distributed_args, Megatron order
};
QString strategySourceKey(StrategySource s); // "none", "groups", "distributed_args"

struct StrategyDimension
{
    ParallelDimension dimension = ParallelDimension::TP;
    int size = 1;
    QString pgName;         // the pg name its groups came from ("dp_cp"), empty from distributed_args
    bool inColumns = false; // the grid axis it varies along
};

struct RankPlacement
{
    int rank = -1;
    std::array<int, kParallelDimensionCount> coordinate{-1, -1, -1, -1, -1}; // -1: dimension absent
    int row = -1, column = -1;
    bool inModel = false; // the cluster folder holds this rank (else its cell is drawn empty)
};

struct ParallelStrategy
{
    StrategySource source = StrategySource::None;
    // Why the groups were not used (a fallback) or why there is no strategy; empty when the groups served.
    QString reason;
    std::vector<StrategyDimension> dimensions; // size > 1 only, fastest first
    int rows = 0, columns = 0;
    std::vector<RankPlacement> ranks; // ordered by rank id
    std::vector<int> cells;           // rows × columns, row-major: the rank in each cell, -1 empty

    bool known() const { return source != StrategySource::None; }
    const StrategyDimension *dimension(ParallelDimension d) const;
    const RankPlacement *placement(int rank) const;
    int rankAt(int row, int column) const;
    // The ranks of `rank`'s group along a dimension (every other coordinate equal), ascending; empty when
    // the dimension is absent or the rank unknown.
    std::vector<int> groupAlong(int rank, ParallelDimension d) const;
    // "DP 2 × PP 2", fastest dimension first; "1 rank per dimension" is never shown (empty without any).
    QString shapeText() const;
};

// aspect: the grid's wanted columns / rows; the dimensions go to rows or columns (each axis keeping
// Megatron order) so that the grid's shape comes closest to it, PP preferring rows and TP columns on a tie.
ParallelStrategy parallelStrategy(const ClusterModel &model, double aspect = 1.6);

// A per-rank figure to colour the strategy grid by.
enum class RankFigure
{
    StepTime,                   // mean of computing + communication (not overlapped) + free over the steps
    Computing,                  // mean per step
    CommunicationNotOverlapped, // mean per step
    Free,                       // mean per step
    WaitRatio,                  // Σ wait / Σ (wait + transit) of its communication ops, all steps
    PeakMemory                  // Rank::memoryPeak
};
constexpr int kRankFigureCount = 6;
QString rankFigureName(RankFigure f); // translated ("Core" context): "Mean step time", ...

struct RankFigureValues
{
    QString unit;                              // "ms", "%", "MB"
    std::vector<std::optional<double>> values; // aligned with ClusterModel::ranks; nullopt: no data
};
RankFigureValues rankFigure(const ClusterModel &model, RankFigure f);

} // namespace at::cluster
