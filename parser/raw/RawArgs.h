#pragma once

// The args of the slices a raw profile adds, kept in memory per slice (raw data has no file offset to
// re-read them from): re-read by the details panel and, as typed ids, by core's kernel join.

#include "TraceModel.h"

#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

namespace at::raw {

struct RawSliceArgs
{
    QString taskType;
    std::int64_t stream = -1;
    std::int64_t task = -1;
    std::int64_t subtask = -1;
    std::uint64_t startTicks = 0;
    std::uint64_t endTicks = 0;
    std::int64_t threadId = -1;
    std::int64_t computeTime = -1; // AI CPU: memcpyStart − computeStart (raw units)
    std::int64_t memcpyTime = -1;
    std::int64_t modelId = -1; // Step Trace iterations
    std::int64_t indexId = -1;
    std::int32_t hostArgs = -1; // index into RawArgsReader::hostArgs: what the host says of the task
    std::int32_t batch = -1;    // batch id (task-id wraps, from flips or the host submission); -1 unknown
    bool device = true;
    // A device task (HWTS/STARS task, FFTS+ subtask, AI CPU task), not a host API or a step window.
    bool isTask() const { return device && modelId < 0; }
};

class RawArgsReader : public EventArgsReader
{
public:
    std::vector<RawSliceArgs> args;                                 // by the slices' source offset
    std::vector<std::vector<std::pair<QString, QString>>> hostArgs; // op, shapes, HCCL fields, ids

    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override;
    // The "Task Id" / "Subtask Id" the args show, of device tasks only.
    std::optional<TaskIds> taskIds(std::uint64_t offset) const override;
};

} // namespace at::raw
