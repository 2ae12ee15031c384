#pragma once
// msprof-analyze's cluster_analysis.db (FORMATS.md §9.1, docs/CLUSTER.md "cluster_analysis.db as input"):
// a whole cluster's summary in one SQLite file, read into the same ClusterModel as the rank folders give.
//  - ranks and steps: ClusterStepTraceTime `rank` rows (index = the rank id; µs); its `stage` rows are
//    checked against the stages the pp groups give, with a warning when they disagree;
//  - ops: ClusterCommunicationTime + ClusterCommunicationBandwidth (older msprof-analyze:
//    ClusterCommAnalyzerTime / ClusterCommAnalyzerBandwidth), "Total Op Info" rows marked total;
//  - links: ClusterCommunicationMatrix (ClusterCommAnalyzerMatrix), src/dst already global ranks;
//  - groups: CommunicationGroupMapping (CommunicationGroup): rank_set "(0,2)", group_name = the hash,
//    group_id = the parallel_group_info key, pg_name;
//  - distributed_args from ClusterBaseInfo, device ids from RankDeviceMap, when present.
// Times stored as REAL are converted from their shortest round-trip decimal text to int64 ns, by the
// rules of ClusterValues.h. A missing table or column loses only its own data (a warning names it). The
// file is opened read-only and immutable (SqliteConnection); nothing is written.

#include "cluster/ClusterModel.h"

#include <QString>

namespace at::cluster {

// The file name msprof-analyze writes.
inline constexpr char kClusterAnalysisDbName[] = "cluster_analysis.db";

// True when path is an SQLite file holding msprof-analyze's cluster tables (ClusterStepTraceTime, or a
// ClusterCommunicationTime / ClusterCommAnalyzerTime table), whatever its name.
bool isClusterAnalysisDatabase(const QString &path);

// The cluster_analysis.db path names: path itself when it is one (by its tables, or by its name, so that a
// damaged one is named when read), else <path>/cluster_analysis.db, else
// <path>/cluster_analysis_output/cluster_analysis.db when that is one; empty otherwise.
QString findClusterAnalysisDatabase(const QString &path);

// The folder whose rank folders the database summarises: the folder above cluster_analysis_output/
// when the database lies in one, else the database's own folder.
QString clusterFolderOfDatabase(const QString &databasePath);

// Reads the database into model: its ranks (ordered by rank id, no folder, hasTimeline false), groups,
// distributed_args and warnings; model.root is left as it is. False (with a warning naming the file and
// what is wrong) when the file is not a readable SQLite database or holds none of the cluster tables.
bool readClusterAnalysisDatabase(const QString &path, ClusterModel &model);

} // namespace at::cluster
