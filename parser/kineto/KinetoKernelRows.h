#pragma once

// The Kernels table of a PyTorch GPU trace (issue 30): one KernelTable row per GPU kernel, with the launch
// figures libkineto records (FORMATS.md §10.5) as metric columns, so that the Kernels dock, the metric
// charts and --metrics treat them like the AI Core metrics of an Ascend kernel_details.csv row. The row
// keeps the kernel's stream, name and start, so TraceBuilder::build() joins it to its slice
// (core/KernelJoin: same stream, same start, same name).

#include "KernelTable.h"

#include <string_view>
#include <vector>

namespace at {

class TraceBuilder;

namespace kineto {

struct GpuEvents;

// HTA's kernel type by name (FORMATS.md §10.11, first rule that matches): "COMMUNICATION", "MEMORY",
// "COMPUTATION" or "OTHER".
std::string_view kernelTypeOf(std::string_view kernelName);

// The metric columns of a GPU kernel row, in table order (header with its unit, as --metrics writes it).
const std::vector<KernelMetricColumn> &gpuKernelColumns();

// Adds one row per kernel of events to the builder's kernel table, for the source group `group`; start
// times become absolute (plus the trace's baseTimeNanoseconds). The metric group reads "CUDA launch".
void addKinetoKernelRows(TraceBuilder &builder, int group, const GpuEvents &events);

} // namespace kineto
} // namespace at
