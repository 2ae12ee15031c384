#pragma once

// File and folder name patterns of FORMATS.md §1.7, plus export-group selection (§1.2, §1.4).

#include <QList>
#include <QString>

#include <optional>

namespace at::profile_names {

// Parsed export file name. G1: "<type>_<dev>_<model>_<iter>[_slice_<k>][_<14-digit ts>].json|csv";
// G3: "<type>[_slice_<k>]_<ts>.json|csv"; plain (G4 and others): "<type>.json|csv".
struct ExportFileName
{
    QString type;      // "msprof", "op_summary", "kernel_details", "hccl", "msprof_tx", ...
    QString extension; // "json" or "csv"
    std::optional<int> device, model, iteration; // G1 per-iteration names only
    std::optional<int> slice;
    QString timestamp; // digits of the export suffix; empty when the name has none
};

// Tries the G1 per-iteration pattern first (otherwise msprof_0_1_1.json would parse as G3 type "msprof_0_1"),
// then the G3 export pattern, then a plain "<type>.<ext>" name.
std::optional<ExportFileName> parseExportFileName(const QString &fileName);

bool isProfDirName(const QString &name);       // ^PROF_ (lenient: sanitised samples use PROF_001)
bool isStrictProfDirName(const QString &name); // ^PROF_\d{6}_\d{17}_[A-Z]{16}$
std::optional<int> deviceIdFromDirName(const QString &name); // ^device_(\d+)$
bool isTorchRootName(const QString &name);                   // _ascend_(pt|ms)$
bool isProfilerInfoName(const QString &name);                // ^profiler_info(_\d{1,5})?\.json$
std::optional<int> rankFromProfilerInfoName(const QString &name);
bool isMasterTimelineName(const QString &name); // msprof*.json of any era, excluding msprof_tx_*
bool isTraceViewName(const QString &name);      // ^trace_view\.json$
bool isMsprofDbName(const QString &name);       // ^msprof_\d{1,16}\.db$
// ^ascend_pytorch_profiler(_\d{1,16})?\.db$ or MindSpore ^ascend_mindspore_profiler(_\d+)?\.db$
bool isTorchDbName(const QString &name);
std::optional<int> rankFromTorchDbName(const QString &name);
bool isConfigFileName(
    const QString &name); // sample.json, info.json[.N], start_info[.N], profiler_info*.json, ...
// "rank3", "rank_3", "Rank-3" as a word part of a folder name ("rank_0_ascend_pt", "job_rank12").
std::optional<int> rankFromFolderName(const QString &name);

// Natural order: digit runs compare by value, so "slice_2" < "slice_10" and "device_9" < "device_10".
int naturalCompare(const QString &a, const QString &b);
bool naturalLess(const QString &a, const QString &b);
// Compares digit strings by value ("001" == "1"); an empty timestamp is older than any other.
int compareTimestamps(const QString &a, const QString &b);

struct ExportFile
{
    QString path;
    ExportFileName name;
};

// Groups files by (type, extension, device, model, iteration) and keeps the newest export of each group.
// Unsliced files: the one with the newest timestamp. Sliced files: slice 0 of the newest export anchors the
// group and every slice at least as new joins it, because slices of one export may carry timestamps a
// second or more apart. Returns the groups ordered by device, model, iteration, type, then slice.
QList<ExportFile> selectNewestExports(const QList<ExportFile> &files);

} // namespace at::profile_names
