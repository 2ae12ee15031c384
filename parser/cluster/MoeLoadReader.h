#pragma once
// The grouped-matmul rows of each rank's kernel table (ASCEND_PROFILER_OUTPUT/kernel_details.csv), for the
// MoE load (core/cluster/MoeLoad.h, docs/CLUSTER.md "MoE load"). Read only where the job has an
// expert-parallel group, and cheaply: the file is searched for "GroupedMatmul" and only the lines holding it
// are split into cells, so a rank's whole kernel table is never parsed (hundreds of ranks stay fast).

#include "cluster/ClusterModel.h"

#include <QString>

namespace at::cluster {

// Sums one kernel table's grouped-matmul rows per step (Step Id; kNoStep without the column) into
// rank.groupedMatmul. Problems (no Input Shapes column, rows whose Input Shapes is no shape list) are added
// to *warnings, each naming the file. A missing file adds nothing.
void readGroupedMatmulRows(const QString &kernelTable, Rank &rank, QStringList &warnings);

// When hasExpertParallelGroup(model): every rank folder's kernel_details.csv through readGroupedMatmulRows.
void readMoeLoad(ClusterModel &model);

} // namespace at::cluster
