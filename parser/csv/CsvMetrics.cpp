#include "csv/CsvMetrics.h"

#include "csv/CsvTable.h"

#include <array>
#include <span>

namespace at {
namespace {

struct UnitSuffix
{
    std::string_view text;
    MetricUnit unit;
};
constexpr std::array<UnitSuffix, 4> kUnits = {{
    {"(us)", MetricUnit::Microseconds},
    {"(GB/s)", MetricUnit::GBps},
    {"(KB)", MetricUnit::KB},
    {"(%)", MetricUnit::Percent},
}};

// Signature metrics per group (FORMATS.md §4.1, both the CANN 5.x doc lists and current msprof). The sets are
// disjoint, so counting hits is unambiguous. Shared columns (total_time, total_cycles, *_time twins,
// cube_utilization) are deliberately absent: every group has them.
constexpr std::string_view kArithmetic[] = {"mac_fp16_ratio", "mac_int8_ratio",  "vec_fp32_ratio",
                                            "vec_fp16_ratio", "vec_int32_ratio", "vec_misc_ratio",
                                            "cube_fops",      "vector_fops"};
constexpr std::string_view kPipe[] = {"vec_ratio",     "mac_ratio",        "scalar_ratio",
                                      "mte1_ratio",    "mte2_ratio",       "mte3_ratio",
                                      "fixpipe_ratio", "icache_miss_rate", "memory_bound"};
constexpr std::string_view kMemory[] = {"ub_read_bw", "ub_write_bw", "l1_read_bw",       "l1_write_bw",
                                        "l2_read_bw", "l2_write_bw", "main_mem_read_bw", "main_mem_write_bw"};
constexpr std::string_view kMemoryL0[] = {
    "scalar_ld_ratio", "scalar_st_ratio", "l0a_read_bw",  "l0a_write_bw",     "l0b_read_bw",
    "l0b_write_bw",    "l0c_read_bw",     "l0c_write_bw", "l0c_read_bw_cube", "l0c_write_bw_cube"};
constexpr std::string_view kConflict[] = {
    "vec_bankgroup_cflt_ratio", "vec_bank_cflt_ratio", "vec_resc_cflt_ratio",
    "mte1_iq_full_ratio",       "mte2_iq_full_ratio",  "mte3_iq_full_ratio",
    "cube_iq_full_ratio",       "vec_iq_full_ratio",   "iq_full_ratio"};
constexpr std::string_view kMemoryUB[] = {"ub_read_bw_mte",     "ub_write_bw_mte",   "ub_read_bw_vector",
                                          "ub_write_bw_vector", "ub_read_bw_scalar", "ub_write_bw_scalar"};
constexpr std::string_view kL2Cache[] = {"write_cache_hit",   "write_cache_miss_allocate",
                                         "r0_read_cache_hit", "r0_read_cache_miss_allocate",
                                         "r1_read_cache_hit", "r1_read_cache_miss_allocate"};
constexpr std::string_view kPipeExec[] = {"vec_exe_ratio",    "mac_exe_ratio",  "scalar_exe_ratio",
                                          "mte1_exe_ratio",   "mte2_exe_ratio", "mte3_exe_ratio",
                                          "fixpipe_exe_ratio"};
constexpr std::string_view kMemoryAccess[] = {
    "read_main_memory_datas", "write_main_memory_datas", "gm_to_l1_datas", "l0c_to_l1_datas",
    "l0c_to_gm_datas",        "gm_to_ub_datas",          "ub_to_gm_datas"};

struct GroupInfo
{
    MetricGroup group;
    std::string_view name;
    std::string_view aclName;
    std::span<const std::string_view> signature;
};
constexpr std::array<GroupInfo, 9> kGroups = {{
    {MetricGroup::ArithmeticUtilization, "ArithmeticUtilization", "ACL_AICORE_ARITHMETIC_UTILIZATION",
     kArithmetic},
    {MetricGroup::PipeUtilization, "PipeUtilization", "ACL_AICORE_PIPE_UTILIZATION", kPipe},
    {MetricGroup::Memory, "Memory", "ACL_AICORE_MEMORY_BANDWIDTH", kMemory},
    {MetricGroup::MemoryL0, "MemoryL0", "ACL_AICORE_L0B_AND_WIDTH", kMemoryL0},
    {MetricGroup::ResourceConflictRatio, "ResourceConflictRatio", "ACL_AICORE_RESOURCE_CONFLICT_RATIO",
     kConflict},
    {MetricGroup::MemoryUB, "MemoryUB", "ACL_AICORE_MEMORY_UB", kMemoryUB},
    {MetricGroup::L2Cache, "L2Cache", "ACL_AICORE_L2_CACHE", kL2Cache},
    {MetricGroup::PipelineExecuteUtilization, "PipelineExecuteUtilization",
     "ACL_AICORE_PIPE_EXECUTE_UTILIZATION", kPipeExec},
    {MetricGroup::MemoryAccess, "MemoryAccess", "ACL_AICORE_MEMORY_ACCESS", kMemoryAccess},
}};

bool contains(std::span<const std::string_view> set, std::string_view s)
{
    for (std::string_view x : set) {
        if (x == s)
            return true;
    }
    return false;
}

} // namespace

MetricColumn splitMetricHeader(std::string_view header)
{
    MetricColumn m;
    m.header = std::string(header);
    std::string_view s = header;
    for (const auto &u : kUnits) {
        if (s.ends_with(u.text)) {
            m.unit = u.unit;
            s.remove_suffix(u.text.size());
            break;
        }
    }
    if (s.starts_with("aic_")) {
        m.side = CoreSide::Aic;
        s.remove_prefix(4);
    } else if (s.starts_with("aiv_")) {
        m.side = CoreSide::Aiv;
        s.remove_prefix(4);
    }
    // msprof renames total_time: aic_total_time -> aicore_time(us), aiv_total_time -> aiv_time(us) (§3.2).
    if ((m.side == CoreSide::Any && s == "aicore_time") || (m.side == CoreSide::Aiv && s == "time"))
        s = "total_time";
    m.name = std::string(s);
    return m;
}

MetricGroup classifyMetricGroup(const std::vector<std::string> &names)
{
    if (names.empty())
        return MetricGroup::None;
    MetricGroup best = MetricGroup::Unknown;
    int bestHits = 0;
    for (const auto &g : kGroups) {
        int hits = 0;
        for (const auto &n : names)
            hits += contains(g.signature, n) ? 1 : 0;
        if (hits > bestHits) {
            bestHits = hits;
            best = g.group;
        }
    }
    return best;
}

MetricLayout detectMetricColumns(const std::vector<std::string> &header)
{
    MetricLayout layout;
    int anchor = -1;
    for (std::size_t i = 0; i < header.size() && anchor < 0; ++i) {
        if (header[i] == "Context ID")
            anchor = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < header.size() && anchor < 0; ++i) {
        if (header[i] == "Output Formats")
            anchor = static_cast<int>(i);
    }
    if (anchor < 0 || anchor + 1 >= static_cast<int>(header.size()))
        return layout;

    layout.firstColumn = anchor + 1;
    std::vector<std::string> names;
    bool prefixed = false;
    for (std::size_t i = static_cast<std::size_t>(anchor) + 1; i < header.size(); ++i) {
        MetricColumn m = splitMetricHeader(header[i]);
        m.column = static_cast<int>(i);
        prefixed = prefixed || m.side != CoreSide::Any;
        names.push_back(m.name);
        layout.metrics.push_back(std::move(m));
    }
    // On A2/A3 the unprefixed aicore_time(us) is the cube core's total time.
    if (prefixed) {
        for (auto &m : layout.metrics) {
            if (m.header == "aicore_time(us)")
                m.side = CoreSide::Aic;
        }
    }
    layout.group = classifyMetricGroup(names);
    return layout;
}

MetricLayout detectMetricColumns(const CsvTable &table)
{
    return detectMetricColumns(table.header());
}

std::string_view metricGroupName(MetricGroup group)
{
    if (group == MetricGroup::None)
        return "None";
    for (const auto &g : kGroups) {
        if (g.group == group)
            return g.name;
    }
    return "Unknown";
}

MetricGroup metricGroupFromName(std::string_view name)
{
    for (const auto &g : kGroups) {
        if (name == g.name || name == g.aclName)
            return g.group;
    }
    if (name == "PIPE_EXECUTE_UTILIZATION")
        return MetricGroup::PipelineExecuteUtilization;
    if (name == "AiCoreNone" || name == "ACL_AICORE_NONE")
        return MetricGroup::None;
    return MetricGroup::Unknown;
}

std::string_view metricUnitText(MetricUnit unit)
{
    switch (unit) {
    case MetricUnit::Microseconds:
        return "us";
    case MetricUnit::GBps:
        return "GB/s";
    case MetricUnit::KB:
        return "KB";
    case MetricUnit::Percent:
        return "%";
    case MetricUnit::None:
        break;
    }
    return {};
}

} // namespace at
