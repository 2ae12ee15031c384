#pragma once
// `--cluster PATH --comm-bound`: the host- or device-bound verdicts (core/cluster/CommBoundAnalysis.h) of the
// longest communication ops with a gap, loading only the timelines of the ranks they name (docs/CLUSTER.md).

#include "cluster/ClusterModel.h"
#include "cluster/CommBoundAnalysis.h"

#include <QTextStream>

namespace at {

class JsonWriter;
struct LoadOptions;

// Loads each named rank's timeline once (loadTrace of its folder); a rank that fails is named on err.
cluster::CommBoundAnalysis runCommBound(const cluster::ClusterModel &model, const LoadOptions &load,
                                        QTextStream &err);

// The `comm_bound` block of --cluster --json.
void writeCommBoundJson(JsonWriter &j, const cluster::CommBoundAnalysis &analysis);
// The same in a terminal.
void writeCommBoundText(QTextStream &out, const cluster::CommBoundAnalysis &analysis);

} // namespace at
