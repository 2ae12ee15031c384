#pragma once
// PMU metric columns of op_summary / kernel_details (FORMATS.md §3.2) and the AI Core metric group they
// belong to (FORMATS.md §4.1).
//
// Rule: every column after `Context ID` (or after `Output Formats` when there is no `Context ID`) is a
// metric. A header such as `aic_mte2_time(us)` splits into core side `aic`, name `mte2_time` and unit `us`.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace at {

class CsvTable;

enum class MetricGroup : std::uint8_t
{
    None,    // no metric columns (Level0, AiCoreNone)
    Unknown, // metric columns present but none identify a group
    ArithmeticUtilization,
    PipeUtilization,
    Memory,
    MemoryL0,
    ResourceConflictRatio,
    MemoryUB,
    L2Cache,
    PipelineExecuteUtilization,
    MemoryAccess,
};

enum class CoreSide : std::uint8_t
{
    Any,
    Aic,
    Aiv
}; // Any = no prefix (910A, or shared columns)
enum class MetricUnit : std::uint8_t
{
    None,
    Microseconds,
    GBps,
    KB,
    Percent
};

struct MetricColumn
{
    int column = -1;    // index in the table header
    std::string header; // original header text
    std::string name;   // prefix and unit removed, e.g. "mte2_time"; aicore_time/aiv_time become "total_time"
    CoreSide side = CoreSide::Any;
    MetricUnit unit = MetricUnit::None;
};

struct MetricLayout
{
    int firstColumn = -1; // first metric column, -1 when there are none
    std::vector<MetricColumn> metrics;
    MetricGroup group = MetricGroup::None;
};

// Splits one header cell (column stays -1).
MetricColumn splitMetricHeader(std::string_view header);
// Finds and splits the metric columns of a header and classifies the group.
MetricLayout detectMetricColumns(const std::vector<std::string> &header);
MetricLayout detectMetricColumns(const CsvTable &table);
// Group from bare metric names (prefix/unit already removed): the group whose signature metrics appear most.
MetricGroup classifyMetricGroup(const std::vector<std::string> &names);

// "PipeUtilization" etc., as in sample.json `ai_core_metrics` and torch_npu `AiCMetrics`.
std::string_view metricGroupName(MetricGroup group);
// Accepts the sample.json name or the ACL spelling (ACL_AICORE_PIPE_UTILIZATION,
// ACL_AICORE_L0B_AND_WIDTH...).
MetricGroup metricGroupFromName(std::string_view name);
std::string_view metricUnitText(MetricUnit unit); // "us", "GB/s", "KB", "%", ""

} // namespace at
