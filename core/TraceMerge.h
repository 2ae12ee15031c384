#pragma once

#include "TraceModel.h"

#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace at {

// Puts several built models (the ranks of a cluster, each loaded from its own folder and snapshot) into
// one model, as if one builder had read them one after the other: their groups, sources, lanes, flows,
// kernel rows, summary tables, memory profile and steps are appended in order, string ids and every
// group/source/process/thread/counter/flow index are remapped, and all times are put on one origin (the
// earliest of the models' origins; each model's relative times move by the difference of the origins,
// in int64 ns). The first model becomes the result and the others' data is moved into it, each model
// being freed as soon as it is merged, so the merge needs little more memory than the models themselves.
// Level-of-detail summaries are not carried over (they are rebuilt on first use).
struct MergeOptions
{
    // The merged model's warnings; when unset, the models' warnings in order.
    std::optional<QStringList> warnings;
};

std::unique_ptr<TraceModel> mergeModels(std::vector<std::unique_ptr<TraceModel>> models,
                                        MergeOptions options = {});

} // namespace at
