#pragma once
// Column names of the summary CSVs and their renames across versions (FORMATS.md §3.10).
// CsvTable::column() uses the alias groups, so code can ask for the canonical name and still find
// "Start Time(us)" in kernel_details.csv or "Task Start Time" in a CANN 5.x op_summary.

#include <span>
#include <string_view>

namespace at::csvcol {

// Canonical names (op_summary spelling). Each is the first entry of its alias group.
inline constexpr std::string_view DeviceId = "Device_id";
inline constexpr std::string_view StepId = "Step Id";
inline constexpr std::string_view ModelId = "Model ID";
inline constexpr std::string_view TaskId = "Task ID";
inline constexpr std::string_view StreamId = "Stream ID";
inline constexpr std::string_view OpName = "Op Name";
inline constexpr std::string_view OpType = "OP Type";
inline constexpr std::string_view OpState = "OP State";
inline constexpr std::string_view TaskType = "Task Type";
inline constexpr std::string_view TaskStartTime = "Task Start Time(us)";
inline constexpr std::string_view TaskDuration = "Task Duration(us)";
inline constexpr std::string_view TaskWaitTime = "Task Wait Time(us)";
inline constexpr std::string_view BlockNum = "Block Num";
inline constexpr std::string_view MixBlockNum = "Mix Block Num";
inline constexpr std::string_view ContextId = "Context ID";
inline constexpr std::string_view InputShapes = "Input Shapes";
inline constexpr std::string_view OutputShapes = "Output Shapes";
inline constexpr std::string_view OutputFormats = "Output Formats";

// All names that denote the same column as `name` (including `name` itself when it belongs to a group).
// Empty span when `name` has no known renames. Matching is exact; CsvTable adds the case-insensitive pass.
std::span<const std::string_view> columnAliases(std::string_view name);

} // namespace at::csvcol
