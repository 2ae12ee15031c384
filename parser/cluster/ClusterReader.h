#pragma once
// Reads a cluster (a folder of torch_npu rank folders, FORMATS.md §9.1) from each rank's summary files
// only: profiler_info_<N>.json (the rank), profiler_metadata.json (parallel_group_info, distributed_args),
// ASCEND_PROFILER_OUTPUT/step_trace_time.csv or the databases' step tables, communication.json and
// communication_matrix.json (or analysis.db's CommAnalyzer tables), and cluster_analysis_output/ when
// present. No timeline is parsed and nothing is written.

#include "cluster/ClusterModel.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace at::cluster {

// Rank folders (names ending "ascend_pt" / "ascend_ms") under path, at most five levels down; path itself
// when it is one. Sorted by path. A symbolic link named like a rank folder is followed when it leads to a
// folder; other linked folders are not searched. *warnings (when given) names each linked rank folder.
QStringList findRankFolders(const QString &path, QStringList *warnings = nullptr);

// True when path holds at least two rank folders with a profiler_info_*.json or ASCEND_PROFILER_OUTPUT/
// (what the window opens as a cluster).
bool isClusterFolder(const QString &path);

// One rank folder as the cluster reader reads it: the rank, and what it adds to the cluster (the parallel
// groups and distributed_args of its profiler_metadata.json, its warnings). `--prepare` stores this
// (PreparedSummary.h) and a prepared cluster reads it back instead of the files.
struct RankSummary
{
    Rank rank; // rank.rank < 0: the folder has no rank id
    std::vector<ParallelGroup> groups;
    DistributedArgs distributed;
    QStringList warnings;
    QString rankProblem; // why the folder has no usable rank id, when it names one out of range
    // The memory limit stopped reading one of its files (what was read is kept, with a warning): not the
    // rank's whole data, so `--prepare` does not save it as a summary.
    bool cutByMemoryLimit = false;
};
// The parallel groups' rank lists read so far, by group key and the list's text as the file has it: every
// rank's profiler_metadata.json repeats the world group, a million numbers at 1,024 ranks (issue #32), so
// readCluster converts each distinct text once. A list whose text differs from the one remembered for its
// key is read as usual.
class GroupRanksMemo;

// memoryLimitBytes (0: none) as ClusterReadOptions::memoryLimitBytes; memo (optional) shared by the ranks
// of one cluster.
RankSummary readRankSummary(const QString &folder, std::uint64_t memoryLimitBytes = 0,
                            GroupRanksMemo *memo = nullptr);

// What readRankSummary() reads in a rank folder, decided from the folder's listing alone (no file is read):
// the rank id its file names give (profiler_info_<N>.json, else ascend_pytorch_profiler_<N>.db; -1 when only
// a file's content names it), every file it reads or looks for, present or not, and the folders holding
// them, all relative to the folder ("." for itself). A prepared summary is checked against these, never
// against a list of its own (issue 29 item 4); keep it in step with RankReader::read().
struct RankInputs
{
    int rank = -1;
    QStringList files;
    QStringList folders;
};
RankInputs rankInputs(const QString &folder);

struct ClusterReadOptions
{
    // A folder of prepared rank summaries (`--prepare RANK_DIR --cache DIR`): a rank whose summary there is
    // current is taken from it without reading its files; a stale one is named in a warning and re-read.
    QString preparedDirectory;
    // --memory-limit (LoadOptions::memoryLimitBytes; 0: none): communication.json and
    // communication_matrix.json stop being read when the process's private memory reaches the reading
    // share of it; what was read is kept and a warning names the file and how much was kept.
    std::uint64_t memoryLimitBytes = 0;
};

// The share of --memory-limit the cluster's op and link files (and a prepared summary's ops) may fill while
// they are read (ClusterReader.cpp says why it is smaller than a timeline's), and why reading stopped when
// it was reached, for the warnings.
inline constexpr double kClusterReadingShareOfLimit = 0.25;
QString clusterMemoryStopReason(std::uint64_t limitBytes);

// Every rank folder found is a rank of the model (summary-only ranks included). Problems are collected in
// ClusterModel::warnings, each naming the file; an empty model means no rank folder was found.
ClusterModel readCluster(const QString &path, const ClusterReadOptions &options = {});

} // namespace at::cluster
