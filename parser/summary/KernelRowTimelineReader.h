#pragma once

#include "InputReader.h"

namespace at {

// Device tasks drawn from the kernel table's rows (kernel_details.csv, else op_summary_*.csv) for a source
// that has no timeline of its own (no trace_view.json / msprof*.json, no profiler database, no raw data):
// an "Ascend Hardware" process with one "Stream N" thread per Stream ID, a "Communication" process for the
// rows without one (communication ops), one slice per row at its exact Start Time(us), so the kernel join
// ties each row to its slice. Args are re-read from the row (CsvRowArgsReader). Registered after the
// timeline readers, before the summary tables reader.
const InputReader &kernelRowTimelineReader();

} // namespace at
