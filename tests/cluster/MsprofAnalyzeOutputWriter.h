#pragma once
// msprof-analyze's text-mode cluster output (cluster_analysis_output/, FORMATS.md §9.1) written from the rank
// folders of a torch_npu cluster with the published layouts: rank rows, stage rows as column-wise maxima,
// ops regrouped by rank set with per-rank totals, links in global ranks, communication_group.json. Used by
// tst_msprof_analyze_output (from the real Qwen3 sample) and by the scale benchmarks and tst_cluster_scale
// (from ClusterJobGenerator's jobs), so that both write the same layout.

#include <QString>

namespace at::test {

// Writes cluster_step_trace_time.csv, cluster_communication.json, cluster_communication_matrix.json and
// communication_group.json of the rank folders under clusterRoot into outputFolder (created); false on an
// error. older: msprof-analyze's older variant (no Preparing, an empty Step, no parallel indices, no stage
// rows).
bool writeMsprofAnalyzeOutput(const QString &clusterRoot, const QString &outputFolder, bool older = false);

} // namespace at::test
