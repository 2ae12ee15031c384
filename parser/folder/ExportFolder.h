#pragma once

// Selection of exported files inside one folder (timeline/, summary/, mindstudio_profiler_output/,
// ASCEND_PROFILER_OUTPUT/): newest export per file type, slices and iterations in load order.

#include "folder/FolderListing.h"

#include <QMap>
#include <QStringList>

namespace at {

struct ExportFolderContents
{
    QStringList masterTimeline;           // msprof*.json (never msprof_tx_*), in load order
    QStringList supplementaryTimeline;    // hccl_* and AI CPU (ai_cpu_*, aicpu_*) json: G1 extras (§1.2)
    QMap<QString, QStringList> summaries; // csv type -> files in load order

    static ExportFolderContents scan(const FolderListing &folder);
};

// Appends every list of `from` to the same type in `into` (host first, then devices: caller's order).
void appendSummaries(QMap<QString, QStringList> &into, const QMap<QString, QStringList> &from);

// Config and clock files of one folder (sample.json, info.json.N, profiler_info_N.json, ...), as paths.
QStringList configFilesIn(const FolderListing &folder);

} // namespace at
