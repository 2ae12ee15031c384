#pragma once
// Aligning ranks on a collective (docs/CLUSTER.md): the ranks of one timeline (a SourceGroup each) run on
// clocks that need not agree, and a collective ends on every rank at about the same moment (it cannot end
// before its slowest participant arrives). Offsets per group, applied by the view, make the same op
// instance end at the same time on every rank that has it. The model's times are never changed.

#include "Time.h"
#include "TraceModel.h"

#include <vector>

namespace at::cluster {

// The same op instance on another rank: the slice with the same name and the same occurrence index
// (n-th slice of that name in start order) on the lane of the same process and thread name.
struct CollectiveInstance
{
    int group = -1;
    SliceRef slice;
    TimeNs end = 0; // the model's time (no offset)
};

// Every group's instance of the op `ref` names (ref's own first); groups without it are left out.
std::vector<CollectiveInstance> sameCollectiveOnEveryRank(const TraceModel &model, SliceRef ref);

// Offsets (one per group) that make the instances end together: ref's group keeps its current offset,
// each other group g with the instance gets (end(ref) + current[ref's group]) − end(g's instance); groups
// without it keep theirs. *aligned (if given) lists the groups that have the instance.
std::vector<TimeNs> alignOnCollective(const TraceModel &model, SliceRef ref, std::vector<TimeNs> current,
                                      std::vector<int> *aligned = nullptr);

} // namespace at::cluster
