#pragma once

#include "TraceBuilder.h"

#include <QStringList>

#include <atomic>

namespace at {

// Reads the per-kernel summary table of one source (kernel_details.csv, or op_summary_*.csv with
// its slices) into the builder's KernelTable for a group. Columns are found by header name (with
// the renames of FORMATS.md §3.10), every column after Context ID / Output Formats is a metric.
// Problems are added to the builder's warnings, naming the file. Returns the rows read.
// `stop` (LoadControl::stopReading) ends reading the table early; the rows before are kept (issue 21) and
// *stopped (when given) says so.
std::size_t readKernelSummary(const QStringList &files, int group, TraceBuilder &builder,
                              const std::atomic<bool> *stop = nullptr, bool *stopped = nullptr);

} // namespace at

namespace at {

// The summary CSV types shown as plain tables (FORMATS.md §3.4–3.8), in display order.
QStringList plainSummaryTypes();

// Reads one summary CSV (with its slices) as text into the builder; problems become warnings
// naming the file. Returns the rows read. `stop` and `stopped` as for readKernelSummary.
std::size_t readSummaryTable(const QString &type, const QStringList &files, int group, TraceBuilder &builder,
                             const std::atomic<bool> *stop = nullptr, bool *stopped = nullptr);

} // namespace at
