#pragma once

// Writes a loaded TraceModel as Chrome-trace JSON, whatever it was loaded from (JSON, DB, raw data), so it
// opens in other tools. Goes through the model only: processes (name, labels, sort index), threads (name,
// sort index), slices with their args, counters and flows.
//  - Chrome form (default): `ts`/`dur` as strings of epoch µs with 3 decimals ("1700000001001000.000"), as
//    msprof writes them; pids are process numbers (1, 2, ...), numeric tids kept, text tids as strings.
//  - Perfetto form: numeric `ts` in µs relative to the first event, numeric pids/tids, flow ids 1, 2, ...
//    (all below 2^53).

#include "TraceModel.h"

#include <QString>

namespace at {

struct ChromeTraceWriteOptions
{
    bool perfetto = false;
};

// Returns false with `error` naming the file when it cannot be written.
bool writeChromeTrace(const TraceModel &model, const QString &path, const ChromeTraceWriteOptions &options,
                      QString *error);

} // namespace at
