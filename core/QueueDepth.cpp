#include "QueueDepth.h"

#include <algorithm>

namespace at {

namespace {

Layer layerOf(const TraceModel &model, int thread)
{
    const int process = model.threads()[static_cast<std::size_t>(thread)].process;
    return model.processes()[static_cast<std::size_t>(process)].layer;
}

// launches: (slice index, host launch time) of one stream, any order, several per slice possible.
QueueDepthSeries depthSeries(const SliceTable &slices,
                             std::vector<std::pair<std::uint32_t, TimeNs>> &launches)
{
    std::sort(launches.begin(), launches.end());
    std::vector<std::pair<TimeNs, int>> events; // +1 launch, −1 start
    for (std::size_t k = 0; k < launches.size(); ++k) {
        const std::uint32_t index = launches[k].first;
        if (k + 1 < launches.size() && launches[k + 1].first == index)
            continue; // a task launched by several flows counts from its latest launch
        const TimeNs start = slices.start(index);
        events.push_back({std::min(launches[k].second, start), +1});
        events.push_back({start, -1});
    }
    // At equal times starts go first, so a task launched and started at once never counts as queued.
    std::sort(events.begin(), events.end());
    QueueDepthSeries series;
    int depth = 0;
    for (const auto &[time, delta] : events) {
        depth += delta;
        if (!series.empty() && series.back().first == time)
            series.back().second = depth;
        else
            series.push_back({time, depth});
    }
    // Keep only changes (the depth is 0 before the first point): a launch and a start at one time
    // leave the depth as it was.
    int previous = 0;
    std::erase_if(series, [&previous](const std::pair<TimeNs, int> &point) {
        const bool same = point.second == previous;
        previous = point.second;
        return same;
    });
    return series;
}

} // namespace

std::map<int, QueueDepthSeries> streamQueueDepths(const TraceModel &model)
{
    std::map<int, std::vector<std::pair<std::uint32_t, TimeNs>>> launches; // per device stream
    for (const FlowInfo &flow : model.flows()) {
        if (!flow.from.isValid() || !flow.to.isValid() ||
            layerOf(model, flow.to.thread) != Layer::DeviceStreams)
            continue;
        const Layer from = layerOf(model, flow.from.thread);
        if (from == Layer::CannApi || from == Layer::Framework)
            launches[flow.to.thread].push_back({flow.to.index, flow.fromTime});
    }
    std::map<int, QueueDepthSeries> out;
    for (auto &[thread, list] : launches)
        out.emplace(thread, depthSeries(model.threads()[static_cast<std::size_t>(thread)].slices, list));
    return out;
}

QueueDepthSeries streamQueueDepth(const TraceModel &model, int thread)
{
    auto all = streamQueueDepths(model);
    const auto it = all.find(thread);
    return it != all.end() ? std::move(it->second) : QueueDepthSeries{};
}

} // namespace at
