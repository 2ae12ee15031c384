#pragma once

// G4 roots: torch_npu *_ascend_pt (and MindSpore *_ascend_ms) folders, FORMATS.md §1.5.

#include "folder/FolderListing.h"
#include "folder/ProfileLayout.h"

namespace at {

// §1.7 table row 1: name ends in _ascend_pt/_ascend_ms, or the folder holds ASCEND_PROFILER_OUTPUT/ or a
// profiler_info[_<rank>].json.
bool isTorchRootFolder(const FolderListing &folder);

// One source per root (one rank). Timeline priority (§1.8): trace_view.json, the profiler DB, then the
// embedded PROF_* export as a fallback only. The embedded PROF_* is never loaded in addition.
DataSource collectTorchRoot(const FolderListing &root, const DetectOptions &options,
                            QList<Diagnostic> &diagnostics);

} // namespace at
