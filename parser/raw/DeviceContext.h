#pragma once

// What the decoders of one device folder share: its clock, config, process and the device tasks with
// what was joined to each (submission, name, Kernels row).

#include "AicFrequency.h"
#include "DeviceTask.h"
#include "FlipBatches.h"
#include "StarsLog.h"
#include "TaskTrack.h"
#include "TimeConverter.h"
#include "TraceBuilder.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace at::raw {

struct DeviceContext
{
    int device = 0;
    QString dir;
    LaneKey pid; // of the Task Scheduler / Ascend Hardware process
    int process = -1;
    bool isStars = false;
    ClockConverter clock;
    QJsonObject sample;
    QJsonObject deviceInfo;
    StarsIdMode starsMode;
    AicFrequencyTimeline aicFrequency; // lpmFreqConv changes, in device ticks
    HostTaskIndex blockNums;           // ts_track block-num records (ticks)
    FlipBatches flips;                 // ts_track flips (local time)

    std::vector<DeviceTask> tasks;
    std::vector<int> taskHost;       // per task: its submission (index into the host tasks) or -1
    std::vector<int> taskRow;        // per task: its Kernels row, or -1
    std::vector<StringId> taskNames; // per task: its slice name
};

inline std::int64_t clampTicks(std::uint64_t ticks)
{
    return static_cast<std::int64_t>(std::min<std::uint64_t>(ticks, INT64_MAX));
}

} // namespace at::raw
