#include "StreamQueue.h"

#include "InsightSupport.h"

#include <algorithm>
#include <map>

namespace at {

using namespace insights;

std::vector<KernelSequence> frequentKernelSequences(const TraceModel &model, std::size_t perOperator,
                                                    int group)
{
    // Device tasks per host operator instance (the depth-0 ancestor of the launching slice).
    std::map<std::uint64_t, std::vector<SliceRef>> tasksByInstance;
    for (const FlowInfo &flow : model.flows()) {
        if (!flow.from.isValid() || !flow.to.isValid() ||
            layerOfThread(model, flow.to.thread) != Layer::DeviceStreams)
            continue;
        const Layer from = layerOfThread(model, flow.from.thread);
        if ((from != Layer::CannApi && from != Layer::Framework) ||
            (group >= 0 && groupOfThread(model, flow.to.thread) != group))
            continue;
        const SliceTable &host = model.threads()[static_cast<std::size_t>(flow.from.thread)].slices;
        std::uint32_t root = flow.from.index;
        while (host.parent(root) >= 0)
            root = static_cast<std::uint32_t>(host.parent(root));
        tasksByInstance[sliceKey(SliceRef{flow.from.thread, root})].push_back(flow.to);
    }
    struct Group
    {
        std::map<QStringList, std::pair<int, std::vector<SliceRef>>> sequences;
        int instances = 0;
    };
    std::map<QString, Group> byOperator;
    for (auto &[key, tasks] : tasksByInstance) {
        const SliceRef root{static_cast<std::int32_t>(key >> 32),
                            static_cast<std::uint32_t>(key & 0xFFFFFFFFu)};
        std::sort(tasks.begin(), tasks.end(), [&](SliceRef a, SliceRef b) {
            return model.threads()[static_cast<std::size_t>(a.thread)].slices.start(a.index) <
                   model.threads()[static_cast<std::size_t>(b.thread)].slices.start(b.index);
        });
        tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
        QStringList names;
        for (const SliceRef &t : tasks)
            names << model.sliceName(t);
        Group &group = byOperator[model.sliceName(root)];
        ++group.instances;
        auto &entry = group.sequences[names];
        if (entry.first++ == 0)
            entry.second = tasks;
    }
    std::vector<KernelSequence> out;
    for (auto &[op, group] : byOperator) {
        std::vector<KernelSequence> sequences;
        for (auto &[names, entry] : group.sequences)
            sequences.push_back({op, names, entry.first, group.instances, entry.second});
        std::stable_sort(sequences.begin(), sequences.end(),
                         [](const KernelSequence &a, const KernelSequence &b) { return a.count > b.count; });
        if (sequences.size() > perOperator)
            sequences.resize(perOperator);
        out.insert(out.end(), sequences.begin(), sequences.end());
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const KernelSequence &a, const KernelSequence &b) { return a.count > b.count; });
    return out;
}

} // namespace at
