#pragma once

#include "InsightChecks.h"

#include <QByteArray>

namespace at {

// The --advise --json document: {"findings": [{"check", "title", "severity", "time_at_stake_us",
// "occurrences": [{"rank", "name", "start_us", "duration_us"}], "advice", "data"}]}. advice is the
// explanation and the fix. Every µs value is the exact decimal of its int64 ns (three decimals, never
// through a double); start_us is absolute (the model origin added), as the profiler writes its
// timestamps, so it can be searched for in the source files.
QByteArray findingsToJson(const InsightContext &context, const std::vector<Finding> &findings);

class JsonWriter;
// The same findings as the key "findings" of a larger document (--cluster --json), with the same fields and
// values as findingsToJson's.
void writeFindings(JsonWriter &j, const InsightContext &context, const std::vector<Finding> &findings);

} // namespace at
