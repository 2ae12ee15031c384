#pragma once
// Reads msprof-analyze's text-mode cluster output, the `cluster_analysis_output/` folder (FORMATS.md §9.1),
// into the same ClusterModel the rank folders give (docs/CLUSTER.md, "msprof-analyze's outputs as input"):
//  - cluster_step_trace_time.csv: its `rank` rows are the ranks and their steps (Index = the rank id); its
//    `stage` rows (Index = "(0, 1)", column-wise maxima) are checked against the stages the pp groups give;
//  - communication_group.json: comm_group_parallel_info's groups (rank_set, group_name = the hash, pg_name);
//  - cluster_communication.json: rank set → step → "<op>@<group>" → rank → op; "Total Op Info@<group>" →
//    a total of that rank;
//  - cluster_communication_matrix.json: the same nesting, links "<src>-<dst>" in GLOBAL ranks, each kept by
//    its source rank (the rank that reported it).
// Times are read from their decimal text (µs / ms → ns, ClusterValues.h). A missing optional file, a row
// whose field count differs from the header, a bad value: what can be read is kept, a warning names the
// file (and line). Nothing is written.

#include "cluster/ClusterModel.h"

#include <QString>

#include <cstdint>

namespace at::cluster {

// The cluster_analysis_output/ folder of path: path itself when it holds cluster_step_trace_time.csv, else
// its cluster_analysis_output/ child when that does; empty otherwise.
QString findClusterAnalysisOutput(const QString &path);

// The four files of outputFolder as a model: every rank of the `rank` rows and of the ops and links (folder
// empty, no timeline), groups, ops and links; the ranks' stages are set by the caller (ClusterReader's
// resolveGroups, from the pp groups). memoryLimitBytes as ClusterReadOptions::memoryLimitBytes.
struct ClusterAnalysisOutput
{
    ClusterModel model;
    // The `stage` rows: the ranks of each (its Index tuple) and its step, with the row's values.
    struct StageRow
    {
        std::int64_t step = kNoStep;
        std::vector<int> ranks;
        RankStep values;
        qsizetype line = 0;
    };
    std::vector<StageRow> stageRows;
    QString stepTraceFile;
};
ClusterAnalysisOutput readClusterAnalysisOutput(const QString &outputFolder,
                                                std::uint64_t memoryLimitBytes = 0);

// Warnings (into model.warnings, naming the file and line) for each stage row whose ranks are not one
// stage of the model's pp groups (the ranks at one place of the pp groups), or whose values are not the
// column-wise maxima of its ranks' rows of that step (checked when each of its ranks has such a row).
void checkStageRows(const ClusterAnalysisOutput &output, ClusterModel &model);

// Rank folders were read: each rank keeps what its own files gave and takes from the output only what it
// lacks (steps, ops, links); a rank the output lists without a folder is added as it stands; groups not
// known are added. The output's warnings are kept.
void fillFromClusterAnalysisOutput(ClusterModel &model, ClusterModel &&output);

} // namespace at::cluster
