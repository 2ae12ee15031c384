#include "TraceModel.h"

#include "Steps.h"

#include <algorithm>

namespace at {

TraceModel::TraceModel() = default;
TraceModel::~TraceModel() = default;

namespace {
QString laneKeyText(const StringPool &strings, const LaneKey &key)
{
    return key.text != 0 ? strings.qstring(key.text) : QString::number(key.number);
}

std::vector<std::uint32_t> flowsForKey(const std::vector<std::pair<std::uint64_t, std::uint32_t>> &index,
                                       std::uint64_t key)
{
    std::vector<std::uint32_t> result;
    auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(key, std::uint32_t(0)));
    for (; it != index.end() && it->first == key; ++it)
        result.push_back(it->second);
    return result;
}
} // namespace

QString TraceModel::processDisplayName(int process) const
{
    const ProcessInfo &p = m_processes[static_cast<std::size_t>(process)];
    if (p.name != 0)
        return m_strings.qstring(p.name);
    // Level0 CANN keeps labels/sort index but loses its name (FORMATS.md §2.5).
    QStringList parts;
    if (p.labels != 0)
        parts << QStringLiteral("label %1").arg(m_strings.qstring(p.labels));
    if (p.sortIndex)
        parts << QStringLiteral("sort %1").arg(*p.sortIndex);
    parts.prepend(QStringLiteral("pid %1").arg(laneKeyText(m_strings, p.pid)));
    return QStringLiteral("(unnamed, %1)").arg(parts.join(QStringLiteral(", ")));
}

QString TraceModel::threadDisplayName(int thread) const
{
    const ThreadInfo &t = m_threads[static_cast<std::size_t>(thread)];
    if (t.name != 0)
        return m_strings.qstring(t.name);
    return QStringLiteral("Thread %1").arg(laneKeyText(m_strings, t.tid));
}

QString TraceModel::counterDisplayName(int counter) const
{
    const CounterSeries &c = m_counters[static_cast<std::size_t>(counter)];
    const QString name = m_strings.qstring(c.name);
    const QString key = m_strings.qstring(c.seriesKey);
    return key.isEmpty() || key == name ? name : QStringLiteral("%1 [%2]").arg(name, key);
}

std::size_t TraceModel::sliceCount() const
{
    std::size_t n = 0;
    for (const ThreadInfo &t : m_threads)
        n += t.slices.size();
    return n;
}

QString TraceModel::sliceName(SliceRef ref) const
{
    return m_strings.qstring(m_threads[static_cast<std::size_t>(ref.thread)].slices.name(ref.index));
}

TimeNs TraceModel::selfTime(SliceRef ref) const
{
    const SliceTable &table = m_threads[static_cast<std::size_t>(ref.thread)].slices;
    const int d = table.depthOf(ref.index);
    const TimeNs s = table.start(ref.index);
    const TimeNs e = table.end(ref.index);
    TimeNs children = 0;
    if (d + 1 < table.depthCount()) {
        table.forEachOverlapping(d + 1, s, e, [&](std::uint32_t child) {
            if (table.parent(child) == static_cast<std::int32_t>(ref.index))
                children += std::min(e, table.end(child)) - std::max(s, table.start(child));
        });
    }
    return std::max<TimeNs>(0, table.duration(ref.index) - children);
}

std::vector<std::pair<QString, QString>> TraceModel::sliceArgs(SliceRef ref) const
{
    const SourceLocation loc = m_threads[static_cast<std::size_t>(ref.thread)].slices.source(ref.index);
    if (loc == kNoSource)
        return {};
    const std::uint32_t file = sourceFile(loc);
    if (file >= m_sources.size() || !m_sources[file].argsReader)
        return {};
    return m_sources[file].argsReader->readArgs(sourceOffset(loc));
}

std::optional<TaskIds> TraceModel::sliceTaskIds(SliceRef ref) const
{
    const SourceLocation loc = m_threads[static_cast<std::size_t>(ref.thread)].slices.source(ref.index);
    if (loc == kNoSource)
        return std::nullopt;
    const std::uint32_t file = sourceFile(loc);
    if (file >= m_sources.size() || !m_sources[file].argsReader)
        return std::nullopt;
    return m_sources[file].argsReader->taskIds(sourceOffset(loc));
}

std::vector<std::uint32_t> TraceModel::flowsFrom(SliceRef ref) const
{
    return flowsForKey(m_flowsBySource, sliceKey(ref));
}

std::vector<std::uint32_t> TraceModel::flowsTo(SliceRef ref) const
{
    return flowsForKey(m_flowsByTarget, sliceKey(ref));
}

SliceRef TraceModel::enclosingSlice(int thread, TimeNs t) const
{
    if (thread < 0 || static_cast<std::size_t>(thread) >= m_threads.size())
        return {};
    const SliceTable &table = m_threads[static_cast<std::size_t>(thread)].slices;
    std::int64_t exact = -1, enclosing = -1;
    for (int d = table.depthCount() - 1; d >= 0 && exact < 0; --d) {
        const auto last = table.depthRange(d).second;
        for (auto i = table.firstEndingAtOrAfter(d, t); i < last && table.start(i) <= t; ++i) {
            if (table.start(i) == t) {
                exact = i;
                break;
            }
            if (enclosing < 0)
                enclosing = i;
        }
    }
    const std::int64_t best = exact >= 0 ? exact : enclosing;
    return best < 0 ? SliceRef{} : SliceRef{thread, static_cast<std::uint32_t>(best)};
}

SliceRef TraceModel::nextSliceAtOrAfter(int thread, TimeNs t) const
{
    if (thread < 0 || static_cast<std::size_t>(thread) >= m_threads.size())
        return {};
    const SliceTable &table = m_threads[static_cast<std::size_t>(thread)].slices;
    std::int64_t best = -1;
    for (int d = 0; d < table.depthCount(); ++d) {
        const auto i = table.firstStartingAtOrAfter(d, t);
        if (i < table.depthRange(d).second &&
            (best < 0 || table.start(i) < table.start(static_cast<std::uint32_t>(best))))
            best = i;
    }
    return best < 0 ? SliceRef{} : SliceRef{thread, static_cast<std::uint32_t>(best)};
}

const SliceLod &TraceModel::sliceLod(int thread) const
{
    std::lock_guard lock(m_lodMutex);
    if (m_lods.size() != m_threads.size())
        m_lods.resize(m_threads.size());
    auto &lod = m_lods[static_cast<std::size_t>(thread)];
    if (!lod)
        lod = std::make_unique<const SliceLod>(
            SliceLod::build(m_threads[static_cast<std::size_t>(thread)].slices));
    return *lod;
}

void TraceModel::buildSliceLods() const
{
    for (std::size_t t = 0; t < m_threads.size(); ++t)
        (void)sliceLod(static_cast<int>(t));
}

std::size_t TraceModel::lodMemoryBytes() const
{
    std::lock_guard lock(m_lodMutex);
    std::size_t bytes = m_lods.capacity() * sizeof(m_lods[0]);
    for (const auto &lod : m_lods)
        bytes += lod ? lod->memoryBytes() : 0;
    return bytes;
}

std::size_t TraceModel::memoryBytes() const
{
    std::size_t bytes = m_strings.bytesUsed() + lodMemoryBytes();
    for (const ThreadInfo &t : m_threads)
        bytes += t.slices.memoryBytes() + sizeof(ThreadInfo);
    for (const CounterSeries &c : m_counters)
        bytes += c.times.capacity() * sizeof(TimeNs) + c.values.capacity() * sizeof(double);
    bytes += m_flows.capacity() * sizeof(FlowInfo);
    bytes += m_memory.memoryBytes();
    bytes += (m_flowsBySource.capacity() + m_flowsByTarget.capacity()) * sizeof(m_flowsBySource[0]);
    return bytes;
}

} // namespace at
