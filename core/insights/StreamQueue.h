#pragma once

#include "TraceModel.h"

#include <utility>
#include <vector>

namespace at {

// The most frequent device-kernel sequences launched by each host operator (the depth-0 host slice
// enclosing the launch), most frequent first.
struct KernelSequence
{
    QString hostOperator;
    QStringList kernels;           // device task names in start order
    int count = 0;                 // host operator instances that launched exactly this sequence
    int instances = 0;             // all instances of the host operator
    std::vector<SliceRef> example; // the device tasks of the first instance
};
// group >= 0: the launches of that source group (rank) only.
std::vector<KernelSequence> frequentKernelSequences(const TraceModel &model, std::size_t perOperator = 1,
                                                    int group = -1);

} // namespace at
