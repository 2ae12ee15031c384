#pragma once
// The ranks of a cluster of PyTorch profiler GPU traces (FORMATS.md §10; docs/CLUSTER.md "GPU rank
// traces"): a folder of Kineto traces (`rank-N/*.pt.trace.json[.gz]`, flat `*.pt.trace.json[.gz]`, the
// TensorBoard plugin's `plugins/profile/<run>/`) read into the same ClusterModel as Ascend rank folders.
// Each trace is read once in a light pass (no timeline model): the rank from distributedInfo, the host
// steps (ProfilerStep#N), the runtime calls' times by correlation, and the GPU kernels, memcpy and memset.

#include "cluster/ClusterReader.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace at::cluster {

// One GPU trace as a rank. summary.rank.rank is distributedInfo.rank, or -1 when the trace has none (the
// caller then gives it one); the steps' breakdown and the NCCL kernels as communication ops; the
// distributedInfo's process groups as parallel groups. A trace that cannot be read leaves no steps and a
// warning naming the file.
RankSummary readGpuRankTrace(const QString &tracePath);

// The Kineto traces at or below path (folder/KinetoTraces.h).
QStringList findGpuRankTraces(const QString &path);

// Every trace found under path read as a rank of `model` (ranks by distributedInfo, else the rank-N folder
// name, else the lowest rank no other trace has, each fallback and each duplicate claim with a warning).
// False when path holds no GPU trace.
bool readGpuCluster(const QString &path, ClusterModel &model);

} // namespace at::cluster
