#pragma once

#include "TraceLoader.h"

namespace at {

// LoadOptions::rankFolders (docs/CLUSTER.md, "Several ranks on one timeline"): the cluster's plan picks the
// rank folders to load (and names the ones that are not ranks with a timeline); each rank is then loaded
// by loadTrace() from its own folder, so it reopens or writes that folder's own snapshot, and the ranks'
// models are merged into one (core/TraceMerge.h). Progress covers every rank's bytes, a cancel stops
// between and within ranks, the memory limit applies to the whole (the guard watches the process), and a
// rank that cannot be loaded leaves the others with a warning naming its folder.
LoadResult loadRankSubset(const QString &path, const LoadOptions &options, LoadControl &control);

} // namespace at
