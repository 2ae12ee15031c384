#include "InsightSupport.h"

#include <algorithm>

namespace at::insights {

Layer layerOfThread(const TraceModel &model, int thread)
{
    const int process = model.threads()[static_cast<std::size_t>(thread)].process;
    return model.processes()[static_cast<std::size_t>(process)].layer;
}

int groupOfThread(const TraceModel &model, int thread)
{
    const int process = model.threads()[static_cast<std::size_t>(thread)].process;
    return model.processes()[static_cast<std::size_t>(process)].group;
}

std::vector<int> threadsOfLayers(const TraceModel &model, std::initializer_list<Layer> layers)
{
    std::vector<int> out;
    for (int t = 0; t < static_cast<int>(model.threads().size()); ++t) {
        const Layer layer = layerOfThread(model, t);
        if (std::find(layers.begin(), layers.end(), layer) != layers.end())
            out.push_back(t);
    }
    return out;
}

std::vector<int> threadsOfLayers(const InsightContext &context, std::initializer_list<Layer> layers)
{
    std::vector<int> threads = threadsOfLayers(context.model, layers);
    if (context.onlyGroup >= 0)
        std::erase_if(threads,
                      [&context](int t) { return !context.covers(groupOfThread(context.model, t)); });
    return threads;
}

void forEachSlice(const TraceModel &model, const std::vector<int> &threads,
                  const std::function<bool(std::string_view name)> &match,
                  const std::function<void(SliceRef)> &fn)
{
    for (int t : threads) {
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (match(model.strings().view(slices.name(i))))
                fn(SliceRef{t, i});
        }
    }
}

std::vector<SliceRef> outermostMatching(const TraceModel &model, const std::vector<int> &threads,
                                        const std::function<bool(std::string_view name)> &match)
{
    std::vector<SliceRef> out;
    forEachSlice(model, threads, match, [&](SliceRef ref) {
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(ref.thread)].slices;
        for (std::int32_t p = slices.parent(ref.index); p >= 0;
             p = slices.parent(static_cast<std::uint32_t>(p))) {
            if (match(model.strings().view(slices.name(static_cast<std::uint32_t>(p)))))
                return;
        }
        out.push_back(ref);
    });
    return out;
}

bool isWaitTask(std::string_view name)
{
    return name.starts_with("EVENT_WAIT") || name == "Notify Wait" || name == "Notify_Wait";
}

static bool isProfilerMarker(std::string_view name)
{
    return name.starts_with("PROFILING_ENABLE") || name.starts_with("PROFILING_DISABLE");
}

std::vector<Interval> mergeIntervals(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end());
    std::vector<Interval> merged;
    for (const Interval &i : intervals) {
        if (!merged.empty() && i.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, i.second);
        else
            merged.push_back(i);
    }
    return merged;
}

std::vector<std::vector<Interval>> deviceBusyByGroup(const TraceModel &model)
{
    std::vector<std::vector<Interval>> busy(std::max<std::size_t>(model.groups().size(), 1));
    for (int t : threadsOfLayers(model, {Layer::DeviceStreams, Layer::AiCpu})) {
        const auto group = static_cast<std::size_t>(groupOfThread(model, t));
        if (group >= busy.size())
            busy.resize(group + 1);
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        if (slices.depthCount() == 0)
            continue;
        const auto [first, last] = slices.depthRange(0);
        for (std::uint32_t i = first; i < last; ++i) {
            const std::string_view name = model.strings().view(slices.name(i));
            if (!isWaitTask(name) && !isProfilerMarker(name))
                busy[group].push_back({slices.start(i), slices.end(i)});
        }
    }
    for (auto &intervals : busy)
        intervals = mergeIntervals(std::move(intervals));
    return busy;
}

TimeNs uncoveredLength(const std::vector<Interval> &busy, TimeNs begin, TimeNs end)
{
    TimeNs covered = 0;
    auto it = std::lower_bound(busy.begin(), busy.end(), begin,
                               [](const Interval &i, TimeNs t) { return i.second <= t; });
    for (; it != busy.end() && it->first < end; ++it)
        covered += std::min(end, it->second) - std::max(begin, it->first);
    return std::max<TimeNs>(0, end - begin - covered);
}

std::vector<Interval> idleSegments(const std::vector<Interval> &busy, const std::vector<Interval> &windows,
                                   TimeNs begin, TimeNs end)
{
    std::vector<Interval> inside;
    if (windows.empty()) {
        inside.push_back({begin, end});
    } else {
        auto w = std::lower_bound(windows.begin(), windows.end(), begin,
                                  [](const Interval &i, TimeNs t) { return i.second <= t; });
        for (; w != windows.end() && w->first < end; ++w)
            inside.push_back({std::max(begin, w->first), std::min(end, w->second)});
    }
    std::vector<Interval> out;
    for (const Interval &span : inside) {
        TimeNs at = span.first;
        auto it = std::lower_bound(busy.begin(), busy.end(), span.first,
                                   [](const Interval &i, TimeNs t) { return i.second <= t; });
        for (; it != busy.end() && it->first < span.second; ++it) {
            if (it->first > at)
                out.push_back({at, it->first});
            at = std::max(at, it->second);
        }
        if (at < span.second)
            out.push_back({at, span.second});
    }
    return out;
}

FindingOccurrence occurrenceOf(const TraceModel &model, SliceRef ref)
{
    const SliceTable &slices = model.threads()[static_cast<std::size_t>(ref.thread)].slices;
    FindingOccurrence o;
    o.slice = ref;
    o.group = groupOfThread(model, ref.thread);
    o.name = model.sliceName(ref);
    o.start = slices.start(ref.index);
    o.duration = slices.duration(ref.index);
    return o;
}

void keepLongest(std::vector<FindingOccurrence> &occurrences, std::size_t n)
{
    std::stable_sort(
        occurrences.begin(), occurrences.end(),
        [](const FindingOccurrence &a, const FindingOccurrence &b) { return a.duration > b.duration; });
    if (occurrences.size() > n)
        occurrences.resize(n);
}

} // namespace at::insights

namespace at::insights {
bool containsNoCase(std::string_view text, std::string_view lowerNeedle)
{
    if (lowerNeedle.size() > text.size())
        return false;
    for (std::size_t i = 0; i + lowerNeedle.size() <= text.size(); ++i) {
        std::size_t k = 0;
        while (k < lowerNeedle.size()) {
            char c = text[i + k];
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
            if (c != lowerNeedle[k])
                break;
            ++k;
        }
        if (k == lowerNeedle.size())
            return true;
    }
    return false;
}
} // namespace at::insights
