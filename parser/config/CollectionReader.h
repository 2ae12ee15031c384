#pragma once

// Reads how a profile was collected into at::CollectionInfo (FORMATS.md §4.1, §4.3, §4.4, §2.10, §3.2/§3.3).
//
// Sources, per rank/device: sample.json, info.json[.N], start_info[.N], end_info[.N], host_start.log,
// dev_start.log[.N], profiler_info[_N].json, profiler_metadata.json, and optionally the header row of the
// kernel_details.csv / op_summary CSV (which alone gives the metric group when no configuration file exists).
// Parsing is lenient; an unreadable or corrupt file becomes a warning that names it, and the others are still
// read. Nothing is ever written.
//
// What is filled, and from where:
//  - profilerLevel: profiler_info `_profiler_level` ("Level1"), else sample.json `profLevel`/`prof_level`
//    ("l1"), as written.
//  - metricGroup: profiler_info `_aic_metrics` (ACL spelling), else sample.json `ai_core_metrics`
//    (`aiv_metrics` when that is empty), normalised to the sample.json name ("PipeUtilization"). Empty for
//    ACL_AICORE_NONE / AiCoreNone, for the torch_npu levels Level0 / Level_none (they force ACL_AICORE_NONE),
//    and when sample.json has ai_core_profiling off and aiv_profiling off or absent (msprof's `l0` task-time
//    level does not disable metrics: sample.json's own switches decide there). A name this library does not
//    know is kept as written. With no configuration, the CSV header decides (CsvMetrics
//    `detectMetricColumns`): "" when it has no metric columns, "Unknown" when it has some but none
//    identifies a group.
//  - metrics: the metric columns of the CSV header exactly as written ("aic_mac_ratio", "aicore_time(us)")
//    when a header with metric columns was given; otherwise the group's list from FORMATS.md §4.1 (current
//    msprof column, metricsOfGroup()).
//  - switchesOn / switchesOff, in this order: ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_TASK_TIME_L0,
//    ACL_PROF_AICORE_METRICS, ACL_PROF_AICPU, ACL_PROF_L2CACHE, ACL_PROF_HCCL_TRACE, ACL_PROF_TRAINING_TRACE,
//    ACL_PROF_MSPROFTX, ACL_PROF_RUNTIME_API, ProfilerActivity.CPU, ProfilerActivity.NPU.
//    sample.json keys (§4.3 table) win: a switch is on when any of its keys is on ("on", or any non-empty
//    value other than "off"/"0"/"false"/"no"), off when its keys are all "off" or "". profiler_info fills
//    the rest: activities give ProfilerActivity.*; the level gives the torch_npu masks (Level0 = ACL_API |
//    TASK_TIME_L0; Level1 = ACL_API | TASK_TIME | HCCL_TRACE | AICORE_METRICS; Level2 = Level1 | AICPU |
//    RUNTIME_API; Level_none = nothing; TRAINING_TRACE never); `_l2_cache` gives L2CACHE; `_msprof_tx` /
//    `_mstx` give MSPROFTX. AICORE_METRICS counts as off when no metric group was collected. Without the NPU
//    activity every ACL_PROF_* switch is off. TASK_TIME_L0 is listed only for Level0 (or sample.json
//    `taskTime` "l0"). A switch no source mentions is in neither list.
//  - properties, in the order of kCollectionPropertyKeys; absent ones are skipped and, unless noted, the
//    first file (in input order) that gives a value wins. Numbers are written as in the file, without units
//    (the unit is in the key); booleans as "true"/"false".
//      rank               profiler_info `rank_id` (int or string), else the N of profiler_info_N.json, else
//                         profiler_metadata `distributed_args.rank`, else info.json `rank_id` (>= 0), else
//                         CollectionInputs::rankId
//      world size         profiler_metadata `distributed_args.world_size`
//      parallelism        profiler_metadata `distributed_args`: "tp=1, pp=2, dp=2, cp=1, ep=1,
//                         sequence_parallel=false" (keys present only)
//      device             info.json `devices`, DeviceInfo ids and .N suffixes; else the .N suffixes of other
//                         files; else sample.json `devices`; else CollectionInputs::deviceId. Sorted,
//                         joined by ", "
//      hostname, CANN version, driver version
//                         info.json `hostname`, `cannVersion` (or profiler_info `cann_version`), `drvVersion`
//      chip               info.json `platform_version`, e.g.
//                         "Ascend 910B / A2 / A3 (chip v4, platform_version 5)" or
//                         "unknown chip (platform_version 42)" (ChipInfo.h)
//      chip family        "STARS" or "HWTS" (absent for an unknown platform_version)
//      ai_core_num, aiv_num, aic_frequency (MHz), aiv_frequency (MHz), hwts_frequency (MHz)
//                         info.json DeviceInfo[0]
//      torch_npu version  profiler_info `torch_npu_version`
//      AI Core mode       sample.json `ai_core_profiling_mode` ("task-based" / "sample-based"), or
//                         `aiv_profiling_mode` when only AIV profiling was on; absent when metrics were off
//      schedule           profiler_info: "wait=0, warmup=10, active=1, repeat=1, skip_first=40"
//      record_shapes, profile_memory, with_stack, with_flops, with_modules
//                         profiler_info `config.common_config`
//      export type        profiler_info `_export_type`: "text", or a list joined by ", " ("text, db")
//      application        sample.json `app` + " " + `app_parameters`
//      environment        profiler_metadata ENV_VARIABLES that are set: "NAME=value, ..." (sorted by name)
//      collection start   start_info `collectionDateBegin` as written (the collecting host's local time),
//                         else `collectionTimeBegin` (µs epoch) as "yyyy-MM-dd HH:mm:ss.uuuuuu UTC"
//      collection end     end_info `collectionDateEnd`, else end_info `collectionTimeEnd` (or the
//                         `collectionTimeBegin` some files write there) or profiler_info
//                         `end_info.collectionTimeEnd` (ns), as UTC
//  - warnings, in this order: unreadable files ("Cannot read <path>: <problem>", one per file), L2 cache on,
//    an early profiled step, sample-based AI Core mode, a metric group that differs between the
//    configuration and the CSV header, ASCEND_LAUNCH_BLOCKING set. No duplicates.
//  - files: every configuration file that was read successfully, in input order, then summaryFile when its
//    header was used.

#include "CollectionInfo.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <string_view>

namespace at {

struct DataSource;

struct CollectionInputs
{
    QString sourceLabel; // copied to CollectionInfo::sourceLabel; built from rank/device when empty
    // Configuration files of one rank/device, any order. Each is classified by its file name (sample.json,
    // info.json[.N], start_info[.N], end_info[.N], host_start.log, dev_start.log[.N], profiler_info[_N].json,
    // profiler_metadata.json); other names are ignored.
    QStringList configFiles;
    // Header cells of the kernel_details.csv / op_summary CSV, when the caller already has them.
    QStringList summaryHeader;
    // That CSV's path. When summaryHeader is empty, its header row is read from this file.
    QString summaryFile;
    // ProfilerStep numbers that were profiled, when the caller knows them (trace_view.json "ProfilerStep#N",
    // kernel_details "Step Id"). When given they replace the schedule-based early-step check.
    QList<int> profiledSteps;
    // Hints from the folder detector, used when no configuration file gives the rank / device.
    std::optional<int> rankId;
    std::optional<int> deviceId;
};

// Inputs from a folder-detector result: its configFiles, label, rank/device and the first
// kernel_details (else op_summary) CSV as summaryFile.
CollectionInputs collectionInputsFrom(const DataSource &source);

CollectionInfo readCollectionInfo(const CollectionInputs &in);
CollectionInfo readCollectionInfo(const DataSource &source);

// One warning per distinct step number 0..9, ascending:
// "Step N is among the first ten: it may include operator compilation; the profiler docs advise profiling
// after step 10". Negative numbers are ignored.
QStringList stepWarnings(const QList<int> &profiledSteps);

// Metric names of a group per FORMATS.md §4.1 (current msprof column). Accepts the sample.json name or the
// ACL spelling; empty for None / unknown names.
QStringList metricsOfGroup(const QString &groupName);

// Warning texts (exact; user-facing).
QString l2CacheWarning();        // "L2 cache collection was on: it adds overhead and inflates kernel times"
QString sampleBasedWarning();    // sample-based AI Core mode
QString launchBlockingWarning(); // ASCEND_LAUNCH_BLOCKING set
QString unreadableFileWarning(const QString &path, const QString &problem); // "Cannot read <path>: <problem>"

// Property keys in output order.
inline constexpr std::array<std::string_view, 27> kCollectionPropertyKeys = {
    "rank",
    "world size",
    "parallelism",
    "device",
    "hostname",
    "chip",
    "chip family",
    "ai_core_num",
    "aiv_num",
    "aic_frequency (MHz)",
    "aiv_frequency (MHz)",
    "hwts_frequency (MHz)",
    "CANN version",
    "driver version",
    "torch_npu version",
    "AI Core mode",
    "schedule",
    "record_shapes",
    "profile_memory",
    "with_stack",
    "with_flops",
    "with_modules",
    "export type",
    "application",
    "environment",
    "collection start",
    "collection end",
};

} // namespace at
