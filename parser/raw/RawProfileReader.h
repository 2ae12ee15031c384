#pragma once

// Turns the raw data of one PROF_* folder (host/data and device_<id>/data slices plus info.json,
// start_info, host_start.log, dev_start.log, sample.json) into TraceBuilder calls (FORMATS.md §5):
//  - device task logs (HWTS hwts.data on 310/910A; STARS stars_soc.data ACSQ tasks and FFTS+ subtasks on
//    910B/910C) → a "Task Scheduler" (HWTS) or "Ascend Hardware" (STARS) process per device with one
//    "Stream N" thread per stream;
//  - AI Core PMU records (aicore.data, ffts_profile.data context PMU) → KernelTable rows joined to the tasks,
//    with the §4.2 ratio metrics of the events in sample.json;
//  - host API records (legacy AclModule.* → "AscendCL"; api_event.data → "CANN" with AscendCL@/Model@/
//    Node@/Runtime@ names from type_info_dic / hash_dic).
//  - AI CPU task records (aicpu.data, DATA_PREPROCESS.AICPU) → an "AI CPU" process per device;
//  - ts_track step trace records → "Iteration N" slices in a "Step Trace" process and declared steps;
//  - msproftx additional records and api_event records of level 20500 → "MsprofTx" (marks and ranges);
//  - the association of host records (CannAssociation.h): device tasks named by their op, op type,
//    shapes and block dims in their args and Kernels rows, HostToDevice flows from the API slices,
//    and tasks under HCCL ranges also on an "HCCL" process (per plane, plus one slice per op).
// Everything else present (L2 cache, system counters, ...) is named in a warning with its size.
// Lost records, unpaired starts/ends, bad magic and truncated slices are counted and warned about.

#include "TraceBuilder.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstddef>

namespace at {

struct DataSource;

struct RawReadInfo
{
    std::size_t deviceTasks = 0;
    std::size_t hostApis = 0;
    std::size_t pmuRows = 0;
    std::size_t aiCpuTasks = 0;
    std::size_t hostTaskRecords = 0;   // task_track submissions read
    std::size_t namedDeviceTasks = 0;  // device tasks named from the host data (op, HCCL task or kernel name)
    std::size_t hostToDeviceFlows = 0; // flow ends from an API slice to a device task
    std::size_t hcclOps = 0;           // communication ops drawn on the HCCL layer
    std::size_t opRows = 0;            // Kernels rows from op info alone (tasks without PMU records)
    std::size_t summedBlocks = 0;      // block PMU records summed into a MIX op's other-core row
    std::size_t txEvents = 0;
    std::size_t iterations = 0;      // ts_track step trace windows
    std::size_t stepsOutOfRange = 0; // windows beyond ±2^62 ns (corrupt ticks): shown, not declared as steps
    std::size_t recordsDecoded = 0;
    QStringList notDecoded; // "device_0/data/ts_track.data.0: 2 slices, 80 bytes"
    // What kept records from being decoded, each naming the file and the value: a device's configuration
    // (a missing or damaged info.json.N, an hwts_frequency of 0, -1, nan or text) and slice files that
    // could not be read. The load's failure quotes them when nothing at all could be decoded.
    QStringList decodeProblems;
    QString metricGroup;
    // Where each record stream ended when the load was stopped (cancel or memory limit): read to its end,
    // cut ("… after N records (byte X of Y)"), or not read at all. Empty lists when nothing stopped.
    QStringList streamsComplete, streamsCut, streamsNotRead;
};

// What a stopped raw decode kept, for the load's warning: "read completely: …; cut: … after N records (byte
// X of Y); not read: …", the stream names without `folder` + "/" (the PROF folder the warning names first).
// Empty when no stream was stopped.
QString rawStopSummary(const RawReadInfo &info, const QString &folder = QString());

// Adds the decoded events to the builder's current group. Problems become builder warnings naming the
// folder and the counts. Returns the number of timeline slices added. `cancel`, when given, stops every
// record stream within a slice file or 65,536 records; what was decoded before is kept. `bytesDone`, when
// given, advances by each slice file's size as it is decoded (the load's progress; rawDataBytes is the
// total).
std::size_t readRawProfile(const DataSource &source, TraceBuilder &builder, RawReadInfo *info,
                           const std::atomic<bool> *cancel = nullptr,
                           std::atomic<std::uint64_t> *bytesDone = nullptr);
// Bytes of the slice files in the source's raw data folders (what readRawProfile's progress counts up to).
std::uint64_t rawDataBytes(const DataSource &source);

} // namespace at
