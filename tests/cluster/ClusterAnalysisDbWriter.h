#pragma once
// msprof-analyze's cluster_analysis.db (FORMATS.md §9.1) written with the published tables and columns from
// the rank folders of a torch_npu cluster (step_trace_time.csv, communication.json,
// communication_matrix.json, profiler_metadata.json read with QJsonDocument, not with the reader under test).
// Used by tst_cluster_analysis_db (from the real Qwen3 sample) and by bench_cluster and tst_cluster_scale
// (from ClusterJobGenerator's jobs).

#include <QString>
#include <QStringList>

namespace at::test {

// Writes the database at path from the rank folders under clusterRoot. olderNames: the older table names
// (ClusterCommAnalyzer*, CommunicationGroup). False on an error (*errors, when given, says which).
bool writeClusterAnalysisDb(const QString &clusterRoot, const QString &path, bool olderNames,
                            QStringList *errors = nullptr);

} // namespace at::test
