#include "csv/CsvColumns.h"

#include <array>

namespace at::csvcol {
namespace {

// One group per renamed column; first entry is the canonical (op_summary) name. Order inside a group is the
// lookup order when a table has more than one of them (it should not).
constexpr std::string_view kStart[] = {TaskStartTime, "Start Time(us)", "Task Start Time"};
constexpr std::string_view kDuration[] = {TaskDuration, "Duration(us)"};
constexpr std::string_view kWait[] = {TaskWaitTime, "Wait Time(us)"};
constexpr std::string_view kBlock[] = {BlockNum, "Block Dim"};
constexpr std::string_view kMixBlock[] = {MixBlockNum, "Mix Block Dim"};
constexpr std::string_view kOpName[] = {OpName, "Name", "OP Name"};
constexpr std::string_view kOpType[] = {OpType, "Type", "Op Type"};
constexpr std::string_view kTaskType[] = {TaskType, "Accelerator Core"};
constexpr std::string_view kStream[] = {StreamId, "Stream Id", "Physic Stream Id"};
constexpr std::string_view kTask[] = {TaskId, "Task Id"};
constexpr std::string_view kModel[] = {ModelId, "Model Id"};
constexpr std::string_view kContext[] = {ContextId, "Context Id"};
constexpr std::string_view kDevice[] = {DeviceId, "Device Id", "Device ID"};
constexpr std::string_view kStep[] = {StepId, "Step ID"};
// 910A (no core prefix) spells the AI Core cycles/time without aic_ (FORMATS.md §3.2, §3.10).
constexpr std::string_view kCycles[] = {"aic_total_cycles", "total_cycles"};
constexpr std::string_view kCoreTime[] = {"aicore_time(us)", "aic_total_time(us)", "total_time(us)"};

constexpr std::array<std::span<const std::string_view>, 16> kGroups = {
    kStart,  kDuration, kWait,  kBlock,   kMixBlock, kOpName, kOpType, kTaskType,
    kStream, kTask,     kModel, kContext, kDevice,   kStep,   kCycles, kCoreTime,
};

} // namespace

std::span<const std::string_view> columnAliases(std::string_view name)
{
    for (const auto &group : kGroups) {
        for (std::string_view alias : group) {
            if (alias == name)
                return group;
        }
    }
    return {};
}

} // namespace at::csvcol
