#pragma once

#include "TraceModel.h"

#include <QString>

#include <array>
#include <cstddef>
#include <vector>

namespace at {

// Queries over the per-kernel table (TraceModel::kernels()) for the charts and the command line.
// Every function takes an optional row filter: indices into kernels().rows(); empty means all rows.
// Out-of-range indices in a filter are ignored.
using KernelRows = std::vector<std::size_t>;

// Task type categories of the time breakdown, from a row's Accelerator Core (Task Type).
enum class TaskCategory
{
    AiCore,        // AI_CORE, MIX_AIC
    AiVector,      // AI_VECTOR_CORE, MIX_AIV
    AiCpu,         // AI_CPU
    Communication, // HCCL, COMMUNICATION, or any kernel joined to a communication thread
    Other          // DSA_SQE, N/A, ...
};
constexpr std::size_t kTaskCategoryCount = 5;

QString taskCategoryName(TaskCategory category); // "AI Core", "AI Vector", "AI CPU", "Communication", "Other"
TaskCategory taskCategoryOfCore(const QString &acceleratorCore);
TaskCategory taskCategory(const TraceModel &model, std::size_t row);

enum class KernelGrouping
{
    Name,
    NameAndShape
};

// Kernels of one name (or name + input shapes) with their duration statistics.
struct KernelAggregate
{
    StringId name = 0;
    StringId inputShapes = 0; // 0 when grouped by name only
    std::size_t count = 0;
    TimeNs total = 0;
    TimeNs minimum = 0;
    TimeNs maximum = 0;
    TaskCategory category = TaskCategory::Other; // the category holding most of the group's time
    std::size_t longestRow = 0;                  // the row with the maximum duration
    std::vector<std::size_t> rows;               // in table order
    TimeNs average() const { return count ? total / static_cast<TimeNs>(count) : 0; }
};

// All groups, largest total first (ties: by name, then shapes).
std::vector<KernelAggregate> aggregateKernels(const TraceModel &model, KernelGrouping grouping,
                                              const KernelRows &filter = {});
// The first n of aggregateKernels().
std::vector<KernelAggregate> topKernels(const TraceModel &model, std::size_t n,
                                        KernelGrouping grouping = KernelGrouping::Name,
                                        const KernelRows &filter = {});

// Device time (sum of kernel durations) per task category.
struct TaskTimeBreakdown
{
    std::array<TimeNs, kTaskCategoryCount> total{};
    std::array<std::size_t, kTaskCategoryCount> count{};
    TimeNs sum() const;
    TimeNs of(TaskCategory c) const { return total[static_cast<std::size_t>(c)]; }
};
TaskTimeBreakdown timeByTaskCategory(const TraceModel &model, const KernelRows &filter = {});

// How a kernel's metric group is drawn.
enum class MetricChartKind
{
    None,            // no metric of a drawable kind
    PipeUtilization, // ratios of the vec/mac/scalar/mte1/mte2/mte3/fixpipe pipes, per core
    Bandwidth,       // GB/s columns (Memory, MemoryL0, MemoryUB)
    Ratio            // other *_ratio columns (ResourceConflictRatio, ArithmeticUtilization)
};

struct MetricBar
{
    std::size_t column = 0; // into kernels().columns()
    QString core;           // "aic", "aiv" or empty
    QString label;          // "mac", "mte2", "ub_read_bw", "vec_bank_cflt" (name without unit/suffix)
    double value = 0;       // the ratio (0..1) or the bandwidth (GB/s)
};

// The drawable metric columns of a table: the kind and the columns in table order.
struct MetricChartColumns
{
    MetricChartKind kind = MetricChartKind::None;
    QString unit; // "" for ratios, "GB/s" for bandwidth
    std::vector<std::size_t> columns;
};
MetricChartColumns metricChartColumns(const KernelTable &table);

// The pipes of the PipeUtilization chart, in display order.
const std::vector<QString> &pipeNames(); // vec, mac, scalar, mte1, mte2, mte3, fixpipe

// Metric values of one kernel row for the bar chart, table column order, NaN cells skipped.
struct KernelMetricBars
{
    MetricChartKind kind = MetricChartKind::None;
    QString unit;
    std::vector<MetricBar> bars;
};
KernelMetricBars kernelMetricBars(const TraceModel &model, std::size_t row);

// The longest kernel (among filter) that has a value in a drawable metric column, else the longest
// kernel; -1 for an empty table. With a name, only kernels of that exact name are considered.
std::ptrdiff_t longestKernelRow(const TraceModel &model, const QString &name = {},
                                const KernelRows &filter = {});

// Metric columns usable for the scatter (at least one row with a value), in table order.
std::vector<std::size_t> scatterMetricColumns(const KernelTable &table);
// The default scatter metric: aic_mac_ratio, else any mac_ratio, else the first usable column; -1.
int defaultScatterColumn(const KernelTable &table);

struct ScatterPoint
{
    std::size_t row = 0;
    double durationUs = 0;
    double value = 0;
};
// One point per kernel (among filter) with a value in column, table order.
std::vector<ScatterPoint> durationVsMetric(const TraceModel &model, std::size_t column,
                                           const KernelRows &filter = {});

} // namespace at
