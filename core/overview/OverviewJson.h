#pragma once
// The --overview --json document (docs/OVERVIEW.md, "JSON"): per rank and step the parts
// (computing_us, communication_not_overlapped_us, free_us, preparing_us, bubble_us; null when the data has no
// such part), what fills each part, the mean over the steps, the memory peak, and the findings with part,
// share_of_part, share_of_step and rank. Times are exact µs decimals of int64 ns (JsonWriter); begin_us /
// end_us are absolute (the model origin added), as the profiler writes its timestamps.

#include "Overview.h"

#include <QByteArray>

namespace at {

class JsonWriter;

void writeOverview(JsonWriter &j, const Overview &overview, TimeNs origin);
QByteArray overviewToJson(const Overview &overview, TimeNs origin);

// "single_rank", "several_ranks", "cluster".
QString overviewScopeId(Overview::Scope scope);

} // namespace at
