#pragma once

#include "InsightChecks.h"

#include <QJsonObject>

namespace at {

// The --advise --json document: {"findings": [{"check", "title", "severity", "time_at_stake_us",
// "occurrences": [{"rank", "name", "start_us", "duration_us"}], "advice", "data"}]}. Times are µs
// relative to the trace start (the timeline's time axis); advice is the explanation and the fix.
QJsonObject findingsToJson(const InsightContext &context, const std::vector<Finding> &findings);

} // namespace at
