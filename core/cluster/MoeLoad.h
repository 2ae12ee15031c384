#pragma once
// MoE load (issue #32, docs/CLUSTER.md "MoE load"): where the job has an expert-parallel group, the tokens
// each rank's experts got per step, from the first dimension of the first input of its grouped-matmul kernels
// (GroupedMatmul, GroupedMatmulV2..V4, GroupedMatmulSwigluQuant, ...), and per step and EP group how evenly
// they were spread. The rows come from the ranks' kernel tables (parser/cluster/MoeLoadReader), summed per
// rank and step into Rank::groupedMatmul.

#include "cluster/ClusterModel.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace at::cluster {

// A rank above 1.25 × its EP group's mean tokens overflows the usual expert capacity factor of 1.25
// (GShard / Switch Transformer; Megatron's --moe-expert-capacity-factor examples): its experts get more than
// the share a balanced router plans for, and the group's all-to-all waits for its grouped matmuls.
constexpr double kMoeMaxOverMeanThreshold = 1.25;

// The pg names of expert-parallel groups (FORMATS.md §9.3 and MindStudio Insight's list): "exp" (EP), and
// the groups that hold EP with another dimension; "dp_modulo_exp*" exists only beside an EP dimension.
bool isExpertParallelGroupName(const QString &pgName);
// True when some group's pg name is an expert-parallel one or distributed_args' expert_model_parallel_size
// is above 1.
bool hasExpertParallelGroup(const ClusterModel &model);

// "GroupedMatmul", "GroupedMatmulV4", "GroupedMatmulSwigluQuant", ... (the kernel's Type, else its Name; an
// aclnn name "aclnnGroupedMatmulV4_GroupedMatmul_..." also counts).
bool isGroupedMatmul(const QString &typeOrName);
// The first dimension of the first input shape ("8192,2048;16,2048,1408" → 8192); nullopt when the text is
// not a shape list (empty, a non-number, a negative dimension).
std::optional<std::int64_t> firstInputRows(const QString &inputShapes);

// Ranks whose tokens are compared: one EP group.
struct MoeGroup
{
    QString name; // "exp 0,1,2,3", "EP 0,2", "all ranks"
    std::vector<int> ranks;
};

// One EP group in one step (only its ranks with grouped-matmul rows in the step).
struct MoeGroupStep
{
    std::int64_t step = kNoStep;
    int group = -1; // index into MoeLoad::groups
    int ranks = 0;  // the ranks with a value
    std::int64_t maxTokens = 0, minTokens = 0;
    double meanTokens = 0;
    int mostLoaded = -1, leastLoaded = -1;
    std::optional<double> maxOverMin; // nullopt when the least loaded rank got no token
    double maxOverMean = 0;
    double coefficientOfVariation = 0; // population σ / mean
    TimeNs mostLoadedTime = 0;         // the most loaded rank's grouped-matmul time in the step
    double meanTime = 0;               // the group's mean grouped-matmul time (ns)
    // The most loaded rank's grouped-matmul time above the group's mean, ≥ 0: what a balanced router could
    // have saved that rank at most (the time a finding claims).
    TimeNs excessTime() const;
};

struct MoeLoad
{
    // Why there is nothing to show ("no expert-parallel group", "no GroupedMatmul op"); empty when there is.
    QString reason;
    std::vector<MoeGroup> groups;
    std::vector<std::int64_t> steps;      // every step with a grouped-matmul row, ascending
    std::vector<int> ranks;               // ranks with grouped-matmul rows, ascending
    std::vector<MoeGroupStep> groupSteps; // by step, then group
    bool available() const { return reason.isEmpty(); }
    // Σ tokens / calls of a rank in a step; nullopt when it has no row there.
    std::optional<std::int64_t> tokens(const ClusterModel &model, int rank, std::int64_t step) const;
};

MoeLoad moeLoad(const ClusterModel &model);

} // namespace at::cluster
