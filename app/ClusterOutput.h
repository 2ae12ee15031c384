#pragma once
// What `--cluster`'s writers share (app/ClusterCommand.cpp and its --comm-bound block,
// app/ClusterCommBound.cpp): how a step and a duration are written, in JSON and in a terminal.

#include "JsonWriter.h"
#include "Time.h"
#include "cluster/ClusterModel.h"

#include <QString>

namespace at::cluster_output {

// `"step": 13`, or null without a schedule.
inline void writeStep(JsonWriter &j, std::int64_t step)
{
    j.key(QStringLiteral("step"));
    if (step == cluster::kNoStep)
        j.null();
    else
        j.integer(step);
}

// The step in a text column: "-" without a schedule.
inline QString stepText(std::int64_t step)
{
    return step == cluster::kNoStep ? QStringLiteral("-") : QString::number(step);
}

// A duration in ms with three decimals, as the text output writes every time.
inline QString ms(TimeNs ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
}

} // namespace at::cluster_output
