#pragma once

// Finds the Ascend profiling results under a chosen path and picks, per rank/device, the files to load
// (FORMATS.md §1). Reads directory listings only (plus the first MiB of an unnamed file opened directly);
// never writes or creates anything.

#include "folder/ProfileLayout.h"

namespace at {

class ProfileLayoutDetector
{
public:
    // `path` may be a file (classified by name, else sniffed), a result folder (G4 root, PROF_*), a folder
    // holding results up to options.maxDepth levels down, or a folder inside a result
    // (ASCEND_PROFILER_OUTPUT, device_0/timeline, ...), in which case the enclosing result is used.
    static DetectedProfile detect(const QString &path, const DetectOptions &options = {});
};

} // namespace at
