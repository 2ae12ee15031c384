#pragma once

// Finds the Ascend profiling results under a chosen path and picks, per rank/device, the files to load
// (FORMATS.md §1). Reads directory listings only (plus the first MiB of an unnamed file opened directly);
// never writes or creates anything.

#include "folder/InputFormat.h"
#include "folder/ProfileLayout.h"

namespace at {

class ProfileLayoutDetector
{
public:
    // `path` may be a file (classified by name, else sniffed), a result folder (G4 root, PROF_*), a folder
    // holding results up to options.maxDepth levels down, or a folder inside a result
    // (ASCEND_PROFILER_OUTPUT, device_0/timeline, ...), in which case the enclosing result is used.
    // Which reader reads a file, and whether another folder is a result of some reader's format, is asked
    // of `formats` (the loader passes inputFormats(), parser/InputReader.h).
    static DetectedProfile detect(const QString &path, const InputFormats &formats,
                                  const DetectOptions &options = {});
};

} // namespace at
