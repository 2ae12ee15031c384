#include "cluster/RankAlignment.h"

#include <algorithm>

namespace at::cluster {

namespace {

int groupOfThread(const TraceModel &model, int thread)
{
    const int process = model.threads()[static_cast<std::size_t>(thread)].process;
    return model.processes()[static_cast<std::size_t>(process)].group;
}

// The slices named `name` on a lane, in start order (any depth).
std::vector<std::uint32_t> slicesNamed(const SliceTable &slices, StringId name)
{
    std::vector<std::uint32_t> found;
    for (std::uint32_t i = 0; i < slices.size(); ++i)
        if (slices.name(i) == name)
            found.push_back(i);
    std::stable_sort(found.begin(), found.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return slices.start(a) < slices.start(b); });
    return found;
}

} // namespace

std::vector<CollectiveInstance> sameCollectiveOnEveryRank(const TraceModel &model, SliceRef ref)
{
    std::vector<CollectiveInstance> found;
    if (!ref.isValid() || static_cast<std::size_t>(ref.thread) >= model.threads().size())
        return found;
    const ThreadInfo &lane = model.threads()[static_cast<std::size_t>(ref.thread)];
    const SliceTable &own = lane.slices;
    const StringId name = own.name(ref.index);
    const std::vector<std::uint32_t> ownNamed = slicesNamed(own, name);
    const auto occurrence =
        static_cast<std::size_t>(std::find(ownNamed.begin(), ownNamed.end(), ref.index) - ownNamed.begin());
    const QString processName = model.processDisplayName(lane.process);
    const QString threadName = model.threadDisplayName(ref.thread);
    const int ownGroup = groupOfThread(model, ref.thread);
    found.push_back({ownGroup, ref, own.end(ref.index)});
    std::vector<bool> done(model.groups().size(), false);
    done[static_cast<std::size_t>(ownGroup)] = true;
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const int thread = static_cast<int>(t);
        const int group = groupOfThread(model, thread);
        if (done[static_cast<std::size_t>(group)] || model.threadDisplayName(thread) != threadName ||
            model.processDisplayName(model.threads()[t].process) != processName)
            continue;
        const SliceTable &slices = model.threads()[t].slices;
        const std::vector<std::uint32_t> named = slicesNamed(slices, name);
        if (occurrence >= named.size())
            continue;
        const std::uint32_t index = named[occurrence];
        found.push_back({group, SliceRef{thread, index}, slices.end(index)});
        done[static_cast<std::size_t>(group)] = true;
    }
    return found;
}

std::vector<TimeNs> alignOnCollective(const TraceModel &model, SliceRef ref, std::vector<TimeNs> current,
                                      std::vector<int> *aligned)
{
    current.resize(model.groups().size(), 0);
    const std::vector<CollectiveInstance> instances = sameCollectiveOnEveryRank(model, ref);
    if (aligned)
        aligned->clear();
    if (instances.empty())
        return current;
    const CollectiveInstance &own = instances.front();
    const TimeNs target = own.end + current[static_cast<std::size_t>(own.group)];
    for (const CollectiveInstance &i : instances) {
        current[static_cast<std::size_t>(i.group)] = target - i.end;
        if (aligned)
            aligned->push_back(i.group);
    }
    return current;
}

} // namespace at::cluster
