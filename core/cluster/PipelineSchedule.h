#pragma once
// The pipeline view's schedule (issue #32, docs/CLUSTER.md "Pipeline view"): per pipeline stage (one rank
// of it, whose timeline is loaded), the forward and backward blocks of each micro-batch and the bubbles
// between them, on one clock across the ranks (the model's, plus the rank's offset).
//
// The rule, from what the ranks' device timelines hold (the Qwen3 pp2 sample has no trace_view.json, no
// mstx marks and no framework ops, only the kernel table's device tasks and communication ops):
//  1. The pipeline's send/receive ops (hcom_batchSendRecv*, hcom_send*, hcom_receive*) cut the rank's
//     compute kernels into phases: between two of them a stage computes for one micro-batch (or, on the
//     last stage, the forward and the backward of one micro-batch).
//  2. A kernel is backward when its name says it is a gradient ("Grad", "Backward"); forward when its name
//     holds the forward op of a gradient kernel of the same rank ("RmsNorm" for "RmsNormGrad"); any other
//     kernel (MatMul, Add, Cast) goes with its neighbours.
//  3. A phase with forward kernels and no backward kernel is one forward block; a phase with backward
//     kernels is a backward block from its first kernel, unless forward kernels come before its first
//     backward kernel (the last stage): then the kernels before that first backward kernel (the forward,
//     the output layer and the loss) are the micro-batch's forward block and the backward block starts at
//     it. A block ends at the phase's last kernel; in the phase after the last send/receive it ends at the
//     last kernel of its own pass (the optimizer that follows is no block). Phases without either kind of
//     kernel (zeroing the gradients before the first receive, the optimizer) are no block.
//  4. Micro-batches are numbered per stage and pass in time order (1F1B runs them in order on every stage).
//  5. The span is the first block's start to the last block's end over all stages; a stage's bubbles are
//     the parts of the span none of its blocks covers, so blocks + bubbles = the span on every stage.

#include "Time.h"
#include "TraceModel.h"

#include <QString>
#include <QStringList>

#include <string_view>
#include <vector>

namespace at::cluster {

struct ClusterModel;

enum class PipelinePass
{
    Forward,
    Backward
};
// "forward", "backward" (the JSON's words).
QString pipelinePassKey(PipelinePass pass);

struct PipelineInterval
{
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs duration() const { return end - start; }
};

struct PipelineBlock
{
    PipelinePass pass = PipelinePass::Forward;
    TimeNs start = 0; // the model's time plus the rank's offset
    TimeNs end = 0;
    int microBatch = -1; // 0-based, per stage and pass in time order
    int kernels = 0;
    SliceRef first; // the block's first kernel: where the rank's timeline opens
    TimeNs duration() const { return end - start; }
};

struct PipelineStage
{
    int stage = -1;
    int rank = -1;
    int group = -1;                         // the rank's source group in the model
    std::vector<PipelineBlock> blocks;      // in time order
    std::vector<PipelineInterval> bubbles;  // the span's parts no block covers, in time order
    std::vector<PipelineInterval> sendRecv; // the pipeline send/receive ops that delimit the phases
    TimeNs blockTotal = 0;
    TimeNs bubbleTotal = 0;
};

struct PipelineSchedule
{
    std::vector<PipelineStage> stages; // ascending stage
    TimeNs spanStart = 0;              // every stage's blocks and bubbles fill [spanStart, spanEnd)
    TimeNs spanEnd = 0;
    int microBatches = 0; // the most forward blocks of any stage
    QString reason;       // why there is no schedule (stages is empty), translated
    QStringList notes;    // stages left out and why, translated
    bool isValid() const { return !stages.empty(); }
};

// The rank of a stage whose timeline the schedule reads, its group in the loaded model and its offset.
struct PipelineRank
{
    int stage = -1;
    int rank = -1;
    int group = -1;
    TimeNs offset = 0;
};

PipelineSchedule buildPipelineSchedule(const TraceModel &model, const std::vector<PipelineRank> &ranks);

// The ranks to load: per pipeline stage (Rank::stage, the pp group_rank), the lowest rank with a timeline.
// reason says why there is none (no pp group, a stage without a timeline).
struct PipelineRankChoice
{
    std::vector<std::pair<int, int>> stageRanks; // (stage, rank), ascending stage
    QString reason;
};
PipelineRankChoice choosePipelineRanks(const ClusterModel &model);

// The stage ranks of `choice` on a loaded model: each rank's group found by its folder (the group's path,
// else the same folder name); offsets (one per group, may be empty) move a rank as the timeline draws it.
// Ranks not on the model keep group −1 (buildPipelineSchedule notes them).
std::vector<PipelineRank> pipelineRanksOnModel(const TraceModel &model, const ClusterModel &cluster,
                                               const PipelineRankChoice &choice,
                                               const std::vector<TimeNs> &offsets = {});

// The rule's name tests (exposed for the tests and the docs' examples).
bool isPipelineSendRecv(std::string_view opName);
bool isGradientKernel(std::string_view kernelName);

} // namespace at::cluster
