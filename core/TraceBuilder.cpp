#include "TraceBuilder.h"

#include "Steps.h"

#include "CheckedTime.h"
#include "KernelJoin.h"
#include "QueueDepth.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace at {
namespace {

// Events further than this from the median are outliers (kept, but not used to fit the view).
constexpr TimeNs kOutlierDistance = 24LL * 3600 * 1000 * 1000 * 1000;

TimeNs saturatingEnd(TimeNs start, TimeNs duration)
{
    if (duration > 0 && start > std::numeric_limits<TimeNs>::max() - duration)
        return std::numeric_limits<TimeNs>::max();
    return start + duration;
}

} // namespace

TraceBuilder::TraceBuilder() : m_model(std::make_unique<TraceModel>()) {}
TraceBuilder::~TraceBuilder() = default;

std::uint32_t TraceBuilder::addSource(const QString &path, std::shared_ptr<const EventArgsReader> argsReader)
{
    m_model->m_sources.push_back(SourceFile{path, std::move(argsReader)});
    return static_cast<std::uint32_t>(m_model->m_sources.size() - 1);
}

LaneKey TraceBuilder::textKey(std::string_view text)
{
    return LaneKey{0, strings().intern(text)};
}

std::uint64_t TraceBuilder::packKey(const LaneKey &key)
{
    // String keys live in a separate space from numbers (top bit set).
    return key.text != 0 ? (0x8000000000000000ull | key.text) : static_cast<std::uint64_t>(key.number);
}

int TraceBuilder::addGroup(const SourceGroup &group)
{
    m_model->m_groups.push_back(group);
    m_currentGroup = static_cast<int>(m_model->m_groups.size()) - 1;
    return m_currentGroup;
}

int TraceBuilder::process(LaneKey pid)
{
    if (m_currentGroup < 0)
        addGroup(SourceGroup{});
    // Ranks of one cluster may reuse pids: processes are keyed by (group, pid).
    const auto key = std::make_pair(static_cast<std::uint64_t>(m_currentGroup), packKey(pid));
    if (auto it = m_processByPid.find(key); it != m_processByPid.end())
        return it->second;
    const int index = static_cast<int>(m_model->m_processes.size());
    ProcessInfo info;
    info.group = m_currentGroup;
    info.pid = pid;
    m_model->m_processes.push_back(std::move(info));
    m_processByPid.emplace(key, index);
    return index;
}

int TraceBuilder::thread(LaneKey pid, LaneKey tid)
{
    const int processIndex = process(pid);
    const auto key = std::make_pair(static_cast<std::uint64_t>(processIndex), packKey(tid));
    if (auto it = m_threadByKey.find(key); it != m_threadByKey.end())
        return it->second;
    const int index = static_cast<int>(m_model->m_threads.size());
    ThreadInfo info;
    info.process = processIndex;
    info.tid = tid;
    m_model->m_threads.push_back(std::move(info));
    m_model->m_processes[static_cast<std::size_t>(processIndex)].threads.push_back(index);
    m_rawSlices.emplace_back();
    m_marks.emplace_back();
    m_threadByKey.emplace(key, index);
    return index;
}

void TraceBuilder::growSlices(std::vector<SliceTable::Raw> &slices) const
{
    // Threads of a few thousand slices grow as usual; a jump is capped (72 MB of room) so that a huge
    // estimate never asks for more than the doubling would soon.
    constexpr std::size_t kSmallThread = 4096;
    constexpr std::size_t kMaxJump = std::size_t(2) << 20;
    const std::size_t remaining = m_expectedSlices > m_slicesAdded ? m_expectedSlices - m_slicesAdded : 0;
    const std::size_t room = std::min(remaining, kMaxJump);
    if (slices.size() >= kSmallThread && room > slices.size())
        slices.reserve(slices.size() + room);
}

void TraceBuilder::addSlice(int thread, TimeNs start, TimeNs duration, StringId name, StringId category,
                            SourceLocation source)
{
    std::vector<SliceTable::Raw> &slices = m_rawSlices[static_cast<std::size_t>(thread)];
    if (slices.size() == slices.capacity())
        growSlices(slices);
    slices.push_back({start, std::max<TimeNs>(0, duration), name, category, source});
    ++m_slicesAdded;
}

void TraceBuilder::addBegin(int thread, TimeNs ts, StringId name, StringId category, SourceLocation source)
{
    m_marks[static_cast<std::size_t>(thread)].push_back({ts, name, category, source, true});
}

void TraceBuilder::addEnd(int thread, TimeNs ts)
{
    m_marks[static_cast<std::size_t>(thread)].push_back({ts, 0, 0, kNoSource, false});
}

void TraceBuilder::addCounterSample(int process, StringId name, StringId seriesKey, TimeNs ts, double value)
{
    const auto key =
        std::make_pair((static_cast<std::uint64_t>(process) << 32) | name, std::uint64_t(seriesKey));
    auto it = m_counterByKey.find(key);
    if (it == m_counterByKey.end()) {
        CounterSeries series;
        series.process = process;
        series.name = name;
        series.seriesKey = seriesKey;
        m_model->m_counters.push_back(std::move(series));
        const int index = static_cast<int>(m_model->m_counters.size() - 1);
        m_model->m_processes[static_cast<std::size_t>(process)].counters.push_back(index);
        it = m_counterByKey.emplace(key, index).first;
    }
    CounterSeries &series = m_model->m_counters[static_cast<std::size_t>(it->second)];
    series.times.push_back(ts);
    series.values.push_back(value);
}

void TraceBuilder::addFlowHalf(FlowPhase phase, StringId category, StringId name, StringId id, int thread,
                               TimeNs ts, bool bindEnclosing)
{
    const int group = m_model
                          ->m_processes[static_cast<std::size_t>(
                              m_model->m_threads[static_cast<std::size_t>(thread)].process)]
                          .group;
    m_flowHalves.push_back({group, phase, category, name, id, thread, ts, bindEnclosing});
}

void TraceBuilder::setProcessName(int process, StringId name)
{
    m_model->m_processes[static_cast<std::size_t>(process)].name = name;
}

void TraceBuilder::setProcessLabels(int process, StringId labels)
{
    m_model->m_processes[static_cast<std::size_t>(process)].labels = labels;
}

void TraceBuilder::setProcessSortIndex(int process, std::int64_t index)
{
    m_model->m_processes[static_cast<std::size_t>(process)].sortIndex = index;
}

void TraceBuilder::setThreadName(int thread, StringId name)
{
    m_model->m_threads[static_cast<std::size_t>(thread)].name = name;
}

void TraceBuilder::setThreadSortIndex(int thread, std::int64_t index)
{
    m_model->m_threads[static_cast<std::size_t>(thread)].sortIndex = index;
}

void TraceBuilder::addWarning(const QString &warning)
{
    m_model->m_warnings.push_back(warning);
}

bool TraceBuilder::groupHasLayer(int group, Layer layer) const
{
    for (const ProcessInfo &p : m_model->m_processes)
        if (p.group == group && p.name != 0 && layerFromProcessName(m_model->m_strings.view(p.name)) == layer)
            return true;
    return false;
}

QList<int> TraceBuilder::profilerSteps(int group) const
{
    const StringPool &strings = m_model->m_strings;
    std::unordered_map<StringId, int> stepOfName;
    for (StringId id = 1; id < strings.size(); ++id) {
        const std::string_view name = strings.view(id);
        constexpr std::string_view prefix = "ProfilerStep#";
        if (name.substr(0, prefix.size()) == prefix) {
            if (const auto n = parseInt64(name.substr(prefix.size())))
                stepOfName.emplace(id, static_cast<int>(*n));
        }
    }
    QList<int> steps;
    if (stepOfName.empty())
        return steps;
    for (std::size_t t = 0; t < m_rawSlices.size(); ++t) {
        const ThreadInfo &thread = m_model->m_threads[t];
        if (m_model->m_processes[static_cast<std::size_t>(thread.process)].group != group)
            continue;
        for (const auto &s : m_rawSlices[t])
            if (auto it = stepOfName.find(s.name); it != stepOfName.end() && !steps.contains(it->second))
                steps << it->second;
    }
    std::sort(steps.begin(), steps.end());
    return steps;
}

void TraceBuilder::removeDuplicates()
{
    auto sliceKey = [](const SliceTable::Raw &s) {
        return std::tie(s.start, s.duration, s.name, s.category);
    };
    for (auto &slices : m_rawSlices) {
        std::sort(slices.begin(), slices.end(),
                  [&](const auto &a, const auto &b) { return sliceKey(a) < sliceKey(b); });
        const auto last = std::unique(slices.begin(), slices.end(), [&](const auto &a, const auto &b) {
            return sliceKey(a) == sliceKey(b);
        });
        m_duplicates += static_cast<std::size_t>(slices.end() - last);
        slices.erase(last, slices.end());
    }
    for (CounterSeries &c : m_model->m_counters) {
        std::vector<std::pair<TimeNs, double>> samples(c.times.size());
        for (std::size_t i = 0; i < samples.size(); ++i)
            samples[i] = {c.times[i], c.values[i]};
        std::sort(samples.begin(), samples.end());
        const auto last = std::unique(samples.begin(), samples.end());
        m_duplicates += static_cast<std::size_t>(samples.end() - last);
        samples.erase(last, samples.end());
        c.times.resize(samples.size());
        c.values.resize(samples.size());
        for (std::size_t i = 0; i < samples.size(); ++i)
            std::tie(c.times[i], c.values[i]) = samples[i];
    }
    auto flowKey = [](const FlowHalf &f) { return std::tie(f.category, f.id, f.thread, f.ts, f.phase); };
    std::sort(m_flowHalves.begin(), m_flowHalves.end(),
              [&](const auto &a, const auto &b) { return flowKey(a) < flowKey(b); });
    const auto lastFlow = std::unique(m_flowHalves.begin(), m_flowHalves.end(),
                                      [&](const auto &a, const auto &b) { return flowKey(a) == flowKey(b); });
    m_duplicates += static_cast<std::size_t>(m_flowHalves.end() - lastFlow);
    m_flowHalves.erase(lastFlow, m_flowHalves.end());
    if (m_duplicates)
        addWarning(QCoreApplication::translate(
                       "Core", "%1 duplicate events (the same event in several timeline files) were merged")
                       .arg(m_duplicates));
}

std::unique_ptr<TraceModel> TraceBuilder::build()
{
    // Times are subtracted from each other (origin, median, spans): beyond ±2^62 ns (±146 years around
    // 1970) that overflows int64. Such events are dropped and durations clamped (found by fuzz_json and
    // fuzz_sqlite: a ts of -9e18 ns beside epoch timestamps was signed overflow, undefined behaviour).
    constexpr TimeNs kTimeLimit = kProfileTimeLimit;
    auto outOfRange = [](TimeNs t) { return !withinProfileRange(t); };
    std::size_t dropped = 0;
    for (auto &slices : m_rawSlices) {
        dropped += std::erase_if(slices, [&](const SliceTable::Raw &r) { return outOfRange(r.start); });
        for (SliceTable::Raw &r : slices)
            r.duration = std::min(r.duration, kTimeLimit - 1 - r.start);
    }
    for (auto &marks : m_marks)
        dropped += std::erase_if(marks, [&](const Mark &m) { return outOfRange(m.ts); });
    dropped += std::erase_if(m_flowHalves, [&](const FlowHalf &f) { return outOfRange(f.ts); });
    for (CounterSeries &c : m_model->m_counters) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < c.times.size(); ++i)
            if (!outOfRange(c.times[i])) {
                c.times[kept] = c.times[i];
                c.values[kept++] = c.values[i];
            }
        dropped += c.times.size() - kept;
        c.times.resize(kept);
        c.values.resize(kept);
    }
    if (dropped)
        addWarning(QCoreApplication::translate(
                       "Core", "%1 events have a time more than 146 years from 1970 and were skipped")
                       .arg(dropped));
    // Kernel rows carry parallel metric columns, so they are clamped into range rather than dropped.
    std::size_t clampedKernels = 0;
    for (std::size_t r = 0; r < m_model->m_kernels.size(); ++r) {
        KernelRecord &k = m_model->m_kernels.row(r);
        if (outOfRange(k.start)) {
            k.start = std::clamp(k.start, -kTimeLimit + 1, kTimeLimit - 1);
            ++clampedKernels;
        }
        k.duration = std::clamp<TimeNs>(k.duration, 0, kTimeLimit - 1 - k.start);
        k.wait = std::clamp<TimeNs>(k.wait, 0, kTimeLimit - 1);
    }
    if (clampedKernels)
        addWarning(QCoreApplication::translate(
                       "Core", "%1 kernel table rows have a start time more than 146 years from 1970 (kept, "
                               "clamped)")
                       .arg(clampedKernels));

    resolveSourceSpanSteps(); // before de-duplication: a repeated event still marks its own file
    if (m_deduplicate)
        removeDuplicates();
    pairBeginEnd();
    placeTimes();
    buildSliceTables();
    orderLanes();
    labelDevices();
    bindFlows();
    addQueueDepthLanes();
    joinKernelRows();
    m_model->m_steps = detectSteps(*m_model);
    return std::move(m_model);
}

void TraceBuilder::resolveSourceSpanSteps()
{
    auto &steps = m_model->m_declaredSteps;
    if (std::none_of(steps.begin(), steps.end(), [](const DeclaredStep &s) { return s.spanOfSource >= 0; }))
        return;
    std::map<std::uint32_t, std::pair<TimeNs, TimeNs>> spans; // source file -> [first start, last end]
    auto extend = [&spans](SourceLocation loc, TimeNs begin, TimeNs end) {
        if (loc == kNoSource)
            return;
        auto [it, inserted] = spans.emplace(sourceFile(loc), std::make_pair(begin, end));
        if (!inserted) {
            it->second.first = std::min(it->second.first, begin);
            it->second.second = std::max(it->second.second, end);
        }
    };
    for (const auto &slices : m_rawSlices)
        for (const auto &s : slices)
            extend(s.source, s.start, saturatingEnd(s.start, s.duration));
    for (const auto &marks : m_marks)
        for (const auto &m : marks)
            extend(m.source, m.ts, m.ts);
    std::vector<DeclaredStep> resolved;
    for (DeclaredStep &step : steps) {
        if (step.spanOfSource >= 0) {
            const auto it = spans.find(static_cast<std::uint32_t>(step.spanOfSource));
            if (it == spans.end())
                continue; // the file had no slices
            step.begin = it->second.first;
            step.end = it->second.second;
        }
        resolved.push_back(std::move(step));
    }
    steps = std::move(resolved);
}

void TraceBuilder::pairBeginEnd()
{
    std::size_t unmatchedEnds = 0, unmatchedBegins = 0;
    TimeNs lastTime = std::numeric_limits<TimeNs>::min();
    for (const auto &slices : m_rawSlices)
        for (const auto &s : slices)
            lastTime = std::max(lastTime, saturatingEnd(s.start, s.duration));
    for (const auto &marks : m_marks)
        for (const auto &m : marks)
            lastTime = std::max(lastTime, m.ts);

    for (std::size_t t = 0; t < m_marks.size(); ++t) {
        auto &marks = m_marks[t];
        if (marks.empty())
            continue;
        std::stable_sort(marks.begin(), marks.end(),
                         [](const Mark &a, const Mark &b) { return a.ts < b.ts; });
        std::vector<const Mark *> open;
        for (const Mark &m : marks) {
            if (m.begin) {
                open.push_back(&m);
            } else if (open.empty()) {
                ++unmatchedEnds;
            } else {
                const Mark *b = open.back();
                open.pop_back();
                m_rawSlices[t].push_back({b->ts, m.ts - b->ts, b->name, b->category, b->source});
            }
        }
        // A begin without an end runs to the end of the trace, so that it stays visible.
        for (const Mark *b : open) {
            ++unmatchedBegins;
            m_rawSlices[t].push_back(
                {b->ts, std::max<TimeNs>(0, lastTime - b->ts), b->name, b->category, b->source});
        }
        marks.clear();
        marks.shrink_to_fit();
    }
    if (unmatchedBegins)
        addWarning(QCoreApplication::translate(
                       "Core", "%1 B (begin) events have no matching E; they are shown running to the end "
                               "of the trace")
                       .arg(unmatchedBegins));
    if (unmatchedEnds)
        addWarning(
            QCoreApplication::translate("Core", "%1 E (end) events have no matching B and were ignored")
                .arg(unmatchedEnds));
}

void TraceBuilder::placeTimes()
{
    TraceModel &m = *m_model;
    std::vector<TimeNs> starts;
    for (const auto &slices : m_rawSlices)
        for (const auto &s : slices)
            starts.push_back(s.start);
    if (starts.empty()) {
        for (const CounterSeries &c : m.m_counters)
            starts.insert(starts.end(), c.times.begin(), c.times.end());
        for (const FlowHalf &f : m_flowHalves)
            starts.push_back(f.ts);
    }
    if (starts.empty())
        return;
    std::nth_element(starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(starts.size() / 2),
                     starts.end());
    const TimeNs median = starts[starts.size() / 2];
    auto isOutlier = [median](TimeNs t) {
        return t < median - kOutlierDistance || t > median + kOutlierDistance;
    };

    TimeNs dataBegin = std::numeric_limits<TimeNs>::max(), dataEnd = std::numeric_limits<TimeNs>::min();
    TimeNs fullBegin = dataBegin, fullEnd = dataEnd;
    std::size_t outliers = 0;
    auto account = [&](TimeNs begin, TimeNs end) {
        fullBegin = std::min(fullBegin, begin);
        fullEnd = std::max(fullEnd, end);
        if (isOutlier(begin)) {
            ++outliers;
            return;
        }
        dataBegin = std::min(dataBegin, begin);
        dataEnd = std::max(dataEnd, std::min(end, median + kOutlierDistance));
    };
    for (const auto &slices : m_rawSlices)
        for (const auto &s : slices)
            account(s.start, saturatingEnd(s.start, s.duration));
    for (const CounterSeries &c : m.m_counters)
        for (TimeNs t : c.times)
            account(t, t);
    for (const FlowHalf &f : m_flowHalves)
        account(f.ts, f.ts);

    m.m_origin = dataBegin;
    m.m_dataBegin = 0;
    m.m_dataEnd = dataEnd - dataBegin;
    m.m_fullBegin = fullBegin - dataBegin;
    m.m_fullEnd = fullEnd - dataBegin;
    m.m_outliers = outliers;
    if (outliers)
        addWarning(QCoreApplication::translate(
                       "Core", "%1 events lie more than a day away from the rest (e.g. ts=0); they are kept "
                               "but not used to fit the view")
                       .arg(outliers));

    const TimeNs origin = m.m_origin;
    for (auto &slices : m_rawSlices)
        for (auto &s : slices) {
            s.start -= origin;
            s.duration =
                std::min(s.duration, std::numeric_limits<TimeNs>::max() / 4 - std::max<TimeNs>(0, s.start));
        }
    for (CounterSeries &c : m.m_counters)
        for (TimeNs &t : c.times)
            t -= origin;
    for (FlowHalf &f : m_flowHalves)
        f.ts -= origin;
    for (std::size_t r = 0; r < m.m_kernels.size(); ++r)
        m.m_kernels.row(r).start -= origin;
    for (DeclaredStep &step : m.m_declaredSteps) {
        step.begin -= origin;
        step.end -= origin;
    }
    for (MemoryCurve &c : m.m_memory.curves)
        for (TimeNs &t : c.times)
            t -= origin;
    for (MemoryAllocation &a : m.m_memory.allocations)
        for (TimeNs *t : {&a.allocation, &a.release, &a.activeRelease})
            if (*t != kNoTime)
                *t -= origin;
}

void TraceBuilder::buildSliceTables()
{
    TraceModel &m = *m_model;
    for (std::size_t t = 0; t < m_rawSlices.size(); ++t) {
        m.m_threads[t].slices = SliceTable::build(std::move(m_rawSlices[t]));
        m_rawSlices[t] = {};
    }
    for (CounterSeries &c : m.m_counters) {
        if (!std::is_sorted(c.times.begin(), c.times.end())) {
            std::vector<std::size_t> order(c.times.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                             [&](std::size_t a, std::size_t b) { return c.times[a] < c.times[b]; });
            std::vector<TimeNs> times(order.size());
            std::vector<double> values(order.size());
            for (std::size_t i = 0; i < order.size(); ++i) {
                times[i] = c.times[order[i]];
                values[i] = c.values[order[i]];
            }
            c.times = std::move(times);
            c.values = std::move(values);
        }
        if (!c.values.empty()) {
            auto [mn, mx] = std::minmax_element(c.values.begin(), c.values.end());
            c.minValue = *mn;
            c.maxValue = *mx;
        }
    }
}

void TraceBuilder::orderLanes()
{
    TraceModel &m = *m_model;
    for (ProcessInfo &p : m.m_processes) {
        p.layer = p.name != 0 ? layerFromProcessName(m.m_strings.view(p.name)) : Layer::Other;
        if (p.layer == Layer::Other && !p.counters.empty()) {
            bool hasSlices = false;
            for (int t : p.threads)
                hasSlices = hasSlices || !m.m_threads[static_cast<std::size_t>(t)].slices.empty();
            if (!hasSlices)
                p.layer = Layer::Counters;
        }
        auto keyLess = [&m](const LaneKey &a, const LaneKey &b) {
            if ((a.text != 0) != (b.text != 0))
                return a.text == 0;
            if (a.text != 0)
                return m.m_strings.view(a.text) < m.m_strings.view(b.text);
            return a.number < b.number;
        };
        std::stable_sort(p.threads.begin(), p.threads.end(), [&](int a, int b) {
            const ThreadInfo &ta = m.m_threads[static_cast<std::size_t>(a)];
            const ThreadInfo &tb = m.m_threads[static_cast<std::size_t>(b)];
            const auto sa = ta.sortIndex.value_or(std::numeric_limits<std::int64_t>::max());
            const auto sb = tb.sortIndex.value_or(std::numeric_limits<std::int64_t>::max());
            if (sa != sb)
                return sa < sb;
            return keyLess(ta.tid, tb.tid);
        });
        sortProcessCounters(p);
    }
    m.m_processOrder.resize(m.m_processes.size());
    for (std::size_t i = 0; i < m.m_processOrder.size(); ++i)
        m.m_processOrder[i] = static_cast<int>(i);
    std::stable_sort(m.m_processOrder.begin(), m.m_processOrder.end(), [&m](int a, int b) {
        const ProcessInfo &pa = m.m_processes[static_cast<std::size_t>(a)];
        const ProcessInfo &pb = m.m_processes[static_cast<std::size_t>(b)];
        const auto ka = std::make_tuple(pa.group, layerRank(pa.layer),
                                        pa.sortIndex.value_or(std::numeric_limits<std::int64_t>::max()),
                                        pa.pid.text != 0, pa.pid.number);
        const auto kb = std::make_tuple(pb.group, layerRank(pb.layer),
                                        pb.sortIndex.value_or(std::numeric_limits<std::int64_t>::max()),
                                        pb.pid.text != 0, pb.pid.number);
        return ka < kb;
    });
}

void TraceBuilder::sortProcessCounters(ProcessInfo &process)
{
    const TraceModel &m = *m_model;
    std::stable_sort(process.counters.begin(), process.counters.end(), [&](int a, int b) {
        const CounterSeries &ca = m.m_counters[static_cast<std::size_t>(a)];
        const CounterSeries &cb = m.m_counters[static_cast<std::size_t>(b)];
        return std::make_tuple(m.m_strings.view(ca.name), m.m_strings.view(ca.seriesKey)) <
               std::make_tuple(m.m_strings.view(cb.name), m.m_strings.view(cb.seriesKey));
    });
}

void TraceBuilder::addQueueDepthLanes()
{
    // Needs the bound flows, so it runs after the counters were sorted and the lanes ordered: each
    // series is added finished (sorted, min/max) and its process's counters are sorted again.
    TraceModel &m = *m_model;
    for (const auto &[thread, depth] : streamQueueDepths(m)) {
        if (depth.empty())
            continue;
        const int process = m.m_threads[static_cast<std::size_t>(thread)].process;
        const QByteArray name =
            QCoreApplication::translate("Core", "Queue depth (%1)").arg(m.threadDisplayName(thread)).toUtf8();
        const StringId id = m.m_strings.intern(std::string_view(name.constData(), std::size_t(name.size())));
        // The key is the name, as a re-read export of the lane has it: such a file keeps its own lane.
        const auto key = std::make_pair((static_cast<std::uint64_t>(process) << 32) | id, std::uint64_t(id));
        if (m_counterByKey.contains(key))
            continue;
        CounterSeries series;
        series.process = process;
        series.name = id;
        series.seriesKey = id;
        for (const auto &[time, value] : depth) {
            series.times.push_back(time);
            series.values.push_back(value);
        }
        const auto [mn, mx] = std::minmax_element(series.values.begin(), series.values.end());
        series.minValue = *mn;
        series.maxValue = *mx;
        m.m_counters.push_back(std::move(series));
        const int index = static_cast<int>(m.m_counters.size() - 1);
        m_counterByKey.emplace(key, index);
        ProcessInfo &info = m.m_processes[static_cast<std::size_t>(process)];
        info.counters.push_back(index);
        sortProcessCounters(info);
    }
}

void TraceBuilder::labelDevices()
{
    // A rank's label gains its device: "NPU <n>" labels, else pid & 31 of the device layer when
    // pid >> 10 is the framework's OS pid (FORMATS.md §2.4).
    TraceModel &m = *m_model;
    for (std::size_t g = 0; g < m.m_groups.size(); ++g) {
        SourceGroup &group = m.m_groups[g];
        if (group.label.isEmpty() || group.label.contains(QLatin1String("Device")))
            continue;
        std::optional<std::int64_t> device;
        for (const ProcessInfo &p : m.m_processes) {
            if (p.group != static_cast<int>(g) || p.layer != Layer::DeviceStreams || p.pid.text != 0)
                continue;
            const QString labels = m.m_strings.qstring(p.labels);
            bool isNumber = false;
            const qlonglong npu =
                labels.startsWith(QLatin1String("NPU ")) ? labels.mid(4).toLongLong(&isNumber) : -1;
            if (isNumber && npu >= 0) {
                device = npu;
                break;
            }
            for (const ProcessInfo &framework : m.m_processes)
                if (framework.group == p.group && framework.layer == Layer::Framework &&
                    framework.pid.text == 0 && (p.pid.number >> 10) == framework.pid.number)
                    device = p.pid.number & 31;
        }
        if (device)
            group.label += QStringLiteral(" / Device %1").arg(*device);
    }
}

void TraceBuilder::bindFlows()
{
    TraceModel &m = *m_model;
    // Group halves by (source group, category, id text); within a group walk in time order: s/t open a
    // source, t and f connect to the latest source. One s may fan out to several f.
    std::vector<std::uint32_t> order(m_flowHalves.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) {
        const FlowHalf &fa = m_flowHalves[a];
        const FlowHalf &fb = m_flowHalves[b];
        return std::tie(fa.group, fa.category, fa.id, fa.ts) < std::tie(fb.group, fb.category, fb.id, fb.ts);
    });
    auto bind = [&m](const FlowHalf &h) {
        return h.bindEnclosing ? m.enclosingSlice(h.thread, h.ts) : m.nextSliceAtOrAfter(h.thread, h.ts);
    };
    std::size_t unmatchedStarts = 0, unmatchedEnds = 0, unbound = 0;
    std::size_t i = 0;
    while (i < order.size()) {
        std::size_t j = i;
        const FlowHalf &first = m_flowHalves[order[i]];
        while (j < order.size() && m_flowHalves[order[j]].group == first.group &&
               m_flowHalves[order[j]].category == first.category && m_flowHalves[order[j]].id == first.id)
            ++j;
        // The group's first start serves ends that come before any start (clock skew).
        const FlowHalf *firstStart = nullptr;
        for (std::size_t k = i; k < j && !firstStart; ++k)
            if (m_flowHalves[order[k]].phase == FlowPhase::Start)
                firstStart = &m_flowHalves[order[k]];
        std::vector<const FlowHalf *> usedStarts;
        const FlowHalf *source = nullptr;
        std::size_t starts = 0;
        for (std::size_t k = i; k < j; ++k) {
            const FlowHalf &h = m_flowHalves[order[k]];
            if (h.phase == FlowPhase::Start) {
                ++starts;
                source = &h;
                continue;
            }
            const FlowHalf *from = source ? source : firstStart;
            if (!from) {
                ++unmatchedEnds;
                continue;
            }
            FlowInfo flow;
            flow.category = from->category;
            flow.name = from->name != 0 ? from->name : h.name;
            flow.id = from->id;
            flow.from = bind(*from);
            flow.to = bind(h);
            flow.fromTime = from->ts;
            flow.toTime = h.ts;
            if (!flow.from.isValid() || !flow.to.isValid())
                ++unbound;
            m.m_flows.push_back(flow);
            if (from->phase == FlowPhase::Start &&
                std::find(usedStarts.begin(), usedStarts.end(), from) == usedStarts.end())
                usedStarts.push_back(from);
            if (h.phase == FlowPhase::Step)
                source = &h;
        }
        unmatchedStarts += starts - usedStarts.size();
        i = j;
    }
    m_flowHalves = {};
    for (std::uint32_t f = 0; f < m.m_flows.size(); ++f) {
        if (m.m_flows[f].from.isValid())
            m.m_flowsBySource.emplace_back(sliceKey(m.m_flows[f].from), f);
        if (m.m_flows[f].to.isValid())
            m.m_flowsByTarget.emplace_back(sliceKey(m.m_flows[f].to), f);
    }
    std::sort(m.m_flowsBySource.begin(), m.m_flowsBySource.end());
    std::sort(m.m_flowsByTarget.begin(), m.m_flowsByTarget.end());
    if (unmatchedStarts)
        addWarning(QCoreApplication::translate("Core", "%1 flow starts have no finish").arg(unmatchedStarts));
    if (unmatchedEnds)
        addWarning(QCoreApplication::translate("Core", "%1 flow finishes have no start").arg(unmatchedEnds));
    if (unbound)
        addWarning(
            QCoreApplication::translate("Core", "%1 flow ends could not be bound to a slice").arg(unbound));
}

} // namespace at

namespace at {

void TraceBuilder::joinKernelRows()
{
    TraceModel &m = *m_model;
    if (m.m_kernels.empty())
        return;
    joinKernels(m, m.m_kernels);
    // Only rows of sources that have a timeline could have been joined.
    std::size_t joinable = 0, unjoined = 0;
    for (const KernelRecord &k : m.m_kernels.rows()) {
        if (k.group < 0 || static_cast<std::size_t>(k.group) >= m.m_groups.size() ||
            m.m_groups[static_cast<std::size_t>(k.group)].timelineFiles.isEmpty())
            continue;
        ++joinable;
        unjoined += k.joined() ? 0 : 1;
    }
    if (unjoined)
        addWarning(
            QCoreApplication::translate(
                "Core", "%1 of %2 kernel rows of the summary tables could not be joined to a timeline slice")
                .arg(unjoined)
                .arg(joinable));
}

} // namespace at
