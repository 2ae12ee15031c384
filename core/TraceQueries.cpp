#include "TraceQueries.h"

#include "LayerWording.h"

#include "CheckedTime.h"
#include "Steps.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <unordered_map>

namespace at {

TimeNs offsetOfGroup(const GroupOffsets &offsets, int group)
{
    return group >= 0 && static_cast<std::size_t>(group) < offsets.size()
               ? offsets[static_cast<std::size_t>(group)]
               : 0;
}

int groupOfThread(const TraceModel &model, int thread)
{
    if (thread < 0 || static_cast<std::size_t>(thread) >= model.threads().size())
        return -1;
    const int process = model.threads()[static_cast<std::size_t>(thread)].process;
    if (process < 0 || static_cast<std::size_t>(process) >= model.processes().size())
        return -1;
    return model.processes()[static_cast<std::size_t>(process)].group;
}

GroupTimeRange groupTimeRange(TimeNs t0, TimeNs t1, const GroupOffsets &offsets, int group)
{
    const TimeNs offset = offsetOfGroup(offsets, group);
    return {saturatingSubtract(t0, offset), saturatingSubtract(t1, offset)};
}

TimeNs drawnStart(const TraceModel &model, SliceRef ref, const GroupOffsets &offsets)
{
    const TimeNs start = model.threads()[static_cast<std::size_t>(ref.thread)].slices.start(ref.index);
    return saturatingAdd(start, offsetOfGroup(offsets, groupOfThread(model, ref.thread)));
}

std::vector<NameStatistics> statisticsInRange(const TraceModel &model, TimeNs rangeStart, TimeNs rangeEnd,
                                              bool includeSelf, const std::vector<int> &chosen,
                                              const GroupOffsets &offsets)
{
    std::unordered_map<StringId, NameStatistics> byName;
    std::vector<TimeNs> childTime; // per slice of the current depth in range: time of its children
    const auto &threads = model.threads();
    for (std::size_t t = 0; t < threads.size(); ++t) {
        if (!chosen.empty() && std::ranges::find(chosen, static_cast<int>(t)) == chosen.end())
            continue;
        // The range in this rank's own times (the model's), as its slices are drawn shifted.
        const GroupTimeRange own =
            groupTimeRange(rangeStart, rangeEnd, offsets, groupOfThread(model, static_cast<int>(t)));
        const TimeNs t0 = own.begin, t1 = own.end;
        const SliceTable &table = threads[t].slices;
        for (int d = 0; d < table.depthCount(); ++d) {
            const std::uint32_t last = table.depthRange(d).second;
            const std::uint32_t first = table.firstEndingAtOrAfter(d, t0);
            std::uint32_t end = first;
            TimeNs hullEnd = 0;
            for (; end < last && table.start(end) <= t1; ++end)
                hullEnd = std::max(hullEnd, table.end(end));
            if (end == first)
                continue;
            if (includeSelf) {
                // Self time as TraceModel::selfTime, but in one pass over the next depth instead of
                // a search per slice: children lie within the span of the parents in range.
                childTime.assign(end - first, 0);
                if (d + 1 < table.depthCount())
                    table.forEachOverlapping(d + 1, table.start(first), hullEnd, [&](std::uint32_t c) {
                        const std::int32_t p = table.parent(c);
                        if (p < static_cast<std::int32_t>(first) || p >= static_cast<std::int32_t>(end))
                            return;
                        const auto parent = static_cast<std::uint32_t>(p);
                        if (table.start(c) <= table.end(parent) && table.end(c) >= table.start(parent))
                            childTime[parent - first] += std::min(table.end(parent), table.end(c)) -
                                                         std::max(table.start(parent), table.start(c));
                    });
            }
            for (std::uint32_t i = first; i < end; ++i) {
                NameStatistics &s = byName[table.name(i)];
                const TimeNs dur = table.duration(i);
                if (s.count == 0) {
                    s.name = table.name(i);
                    s.minimum = s.maximum = dur;
                }
                ++s.count;
                s.total = saturatingAdd(s.total, dur);
                s.inRange = saturatingAdd(s.inRange, std::max<TimeNs>(0, std::min(table.end(i), t1) -
                                                                             std::max(table.start(i), t0)));
                s.minimum = std::min(s.minimum, dur);
                s.maximum = std::max(s.maximum, dur);
                if (includeSelf)
                    s.self = saturatingAdd(s.self, std::max<TimeNs>(0, dur - childTime[i - first]));
            }
        }
    }
    std::vector<NameStatistics> result;
    result.reserve(byName.size());
    for (auto &[id, s] : byName)
        result.push_back(s);
    std::sort(result.begin(), result.end(), [&model](const NameStatistics &a, const NameStatistics &b) {
        if (a.total != b.total)
            return a.total > b.total;
        return model.strings().view(a.name) < model.strings().view(b.name);
    });
    return result;
}

std::vector<SliceRef> slicesInRange(const TraceModel &model, TimeNs rangeStart, TimeNs rangeEnd,
                                    const std::vector<int> &chosen, std::size_t limit,
                                    const GroupOffsets &offsets)
{
    struct Found
    {
        TimeNs start; // on the reference clock
        int depth;
        SliceRef ref;
    };
    std::vector<Found> found;
    const auto &threads = model.threads();
    for (std::size_t t = 0; t < threads.size(); ++t) {
        if (!chosen.empty() && std::ranges::find(chosen, static_cast<int>(t)) == chosen.end())
            continue;
        const int group = groupOfThread(model, static_cast<int>(t));
        const GroupTimeRange own = groupTimeRange(rangeStart, rangeEnd, offsets, group);
        const TimeNs offset = offsetOfGroup(offsets, group);
        const SliceTable &table = threads[t].slices;
        for (int d = 0; d < table.depthCount(); ++d) {
            const std::uint32_t last = table.depthRange(d).second;
            for (std::uint32_t i = table.firstEndingAtOrAfter(d, own.begin);
                 i < last && table.start(i) <= own.end; ++i)
                found.push_back(
                    {saturatingAdd(table.start(i), offset), d, SliceRef{static_cast<std::int32_t>(t), i}});
        }
    }
    const auto earlier = [](const Found &a, const Found &b) {
        return std::tie(a.start, a.ref.thread, a.depth, a.ref.index) <
               std::tie(b.start, b.ref.thread, b.depth, b.ref.index);
    };
    const std::size_t kept = std::min(limit, found.size());
    std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(kept), found.end(), earlier);
    std::vector<SliceRef> result;
    result.reserve(kept);
    for (std::size_t i = 0; i < kept; ++i)
        result.push_back(found[i].ref);
    return result;
}

std::vector<SliceRef> searchSlices(const TraceModel &model, const QString &text, const SearchOptions &options)
{
    std::vector<SliceRef> result;
    if (text.isEmpty())
        return result;
    // Match each distinct slice name once (not every pooled string: flow ids, args keys, ...);
    // then scanning the 4-byte name columns is cheap.
    const StringPool &strings = model.strings();
    std::vector<char> matches(strings.size(), 0); // 0 unseen, 1 no match, 2 match
    const Qt::CaseSensitivity cs = options.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    bool any = false;
    for (const ThreadInfo &thread : model.threads())
        for (StringId id : thread.slices.names())
            if (matches[id] == 0) {
                matches[id] = strings.qstring(id).contains(text, cs) ? 2 : 1;
                any = any || matches[id] == 2;
            }
    if (!any)
        return result;
    const auto &threads = model.threads();
    for (std::size_t t = 0; t < threads.size(); ++t) {
        const auto &names = threads[t].slices.names();
        for (std::uint32_t i = 0; i < names.size(); ++i)
            if (matches[names[i]] == 2)
                result.push_back({static_cast<std::int32_t>(t), i});
    }
    sortByDrawnStart(model, result, options.offsets);
    return result;
}

void sortByDrawnStart(const TraceModel &model, std::vector<SliceRef> &slices, const GroupOffsets &offsets)
{
    // The offset per thread once, not a group lookup per comparison.
    std::vector<TimeNs> threadOffset(model.threads().size(), 0);
    for (std::size_t t = 0; t < threadOffset.size(); ++t)
        threadOffset[t] = offsetOfGroup(offsets, groupOfThread(model, static_cast<int>(t)));
    const auto &threads = model.threads();
    const auto start = [&](const SliceRef &r) {
        const auto t = static_cast<std::size_t>(r.thread);
        return saturatingAdd(threads[t].slices.start(r.index), threadOffset[t]);
    };
    std::sort(slices.begin(), slices.end(), [&](const SliceRef &a, const SliceRef &b) {
        const TimeNs sa = start(a), sb = start(b);
        if (sa != sb)
            return sa < sb;
        return std::tie(a.thread, a.index) < std::tie(b.thread, b.index);
    });
}

TraceSummary summarize(const TraceModel &model, int topCount)
{
    TraceSummary summary;
    summary.counts = model.eventCounts();
    summary.origin = model.origin();
    summary.span = model.dataEnd() - model.dataBegin();
    summary.flows = model.flows().size();
    summary.warnings = model.warnings();
    for (std::size_t g = 0; g < model.groups().size(); ++g) {
        const SourceGroup &group = model.groups()[g];
        TraceSummary::Group out{group.label,
                                group.layout,
                                group.path,
                                group.timelineFiles,
                                group.summaryFiles,
                                0,
                                0,
                                group.collection.metricGroup};
        for (const KernelRecord &k : model.kernels().rows()) {
            if (k.group != static_cast<int>(g))
                continue;
            ++out.kernels;
            out.kernelsJoined += k.joined() ? 1 : 0;
        }
        if (out.metricGroup.isEmpty() && out.kernels)
            out.metricGroup = model.kernels().metricGroupOf(static_cast<int>(g));
        summary.groups.push_back(std::move(out));
    }
    for (int p : model.processOrder()) {
        const ProcessInfo &info = model.processes()[static_cast<std::size_t>(p)];
        TraceSummary::Process process;
        process.name = model.processDisplayName(p);
        process.layer =
            layerDisplayName(info.layer, model.groups()[static_cast<std::size_t>(info.group)].layout);
        process.pid =
            info.pid.text != 0 ? model.strings().qstring(info.pid.text) : QString::number(info.pid.number);
        for (int t : info.threads) {
            const ThreadInfo &thread = model.threads()[static_cast<std::size_t>(t)];
            process.threads.push_back(
                {model.threadDisplayName(t), thread.slices.size(), thread.slices.depthCount()});
            summary.slices += thread.slices.size();
        }
        process.counterSeries = info.counters.size();
        for (int c : info.counters)
            process.counterSamples += model.counters()[static_cast<std::size_t>(c)].times.size();
        summary.processes.push_back(std::move(process));
    }
    summary.topNames = statisticsInRange(model, model.fullBegin(), model.fullEnd(), false);
    if (summary.topNames.size() > static_cast<std::size_t>(topCount))
        summary.topNames.resize(static_cast<std::size_t>(topCount));
    return summary;
}

QString formatSummaryText(const TraceModel &model, const TraceSummary &summary)
{
    QString text;
    QTextStream out(&text);
    const EventCounts &c = summary.counts;
    out << "Events: " << c.total() << " (X " << c.complete << ", B " << c.begin << ", E " << c.end << ", i/I "
        << c.instant << ", C " << c.counter << ", s " << c.flowStart << ", t " << c.flowStep << ", f "
        << c.flowEnd << ", M " << c.metadata << ", other " << c.other << ")\n";
    for (const auto &g : summary.groups) {
        if (g.layout == QLatin1String("file") && summary.groups.size() == 1)
            break;
        out << "Source: " << (g.label.isEmpty() ? g.path : g.label) << "  [" << g.layout << "]  " << g.path
            << "\n";
        for (const auto &f : g.timelineFiles)
            out << "  timeline: " << f << "\n";
        for (const auto &f : g.summaryFiles)
            out << "  kernel table: " << f << "\n";
        const SourceGroup &group = model.groups()[static_cast<std::size_t>(&g - summary.groups.data())];
        const CollectionInfo &c = group.collection;
        if (!c.profilerLevel.isEmpty())
            out << "  profiler level: " << c.profilerLevel << "\n";
        if (!c.switchesOn.isEmpty())
            out << "  collected: " << c.switchesOn.join(QStringLiteral(", ")) << "\n";
        for (const auto &[key, value] : c.properties + provenanceRows(group.provenance))
            out << "  " << key << ": " << value << "\n";
        if (g.kernels)
            out << "  kernels: " << g.kernels << " (" << g.kernelsJoined << " joined to the timeline, "
                << g.kernels - g.kernelsJoined << " not joined)  metric group: "
                << (g.metricGroup.isEmpty() ? QStringLiteral("none") : g.metricGroup) << "\n";
    }
    out << "Slices: " << summary.slices << "  Flows: " << summary.flows << "\n";
    out << "Time span: " << formatDuration(summary.span) << " starting at "
        << formatAbsoluteMicros(summary.origin) << " us\n";
    out << "Processes: " << summary.processes.size() << "\n";
    for (const auto &p : summary.processes) {
        out << "  " << p.name << "  [" << p.layer << ", pid " << p.pid << "]";
        if (p.counterSeries)
            out << "  counters: " << p.counterSeries << " series, " << p.counterSamples << " samples";
        out << "\n";
        for (const auto &t : p.threads)
            out << "    " << t.name << ": " << t.slices << " slices, depth " << t.depth << "\n";
    }
    if (!model.steps().empty())
        out << "Steps: " << model.steps().size() << "\n";
    for (const Step &step : model.steps()) {
        const StepBreakdown &b = step.breakdown;
        const QString &group = model.groups()[static_cast<std::size_t>(step.group)].label;
        out << "  " << (group.isEmpty() ? QString() : group + QStringLiteral("  ")) << step.label << "  ["
            << stepSourceName(step.source) << "]  duration " << formatDuration(step.duration())
            << (step.source == StepSource::GpuAnnotation ? ", marked on the GPU " : ", host ")
            << formatDuration(step.hostEnd - step.hostBegin) << ", device stage "
            << formatDuration(step.stageDuration()) << "; computing " << formatDuration(b.computing)
            << ", communication " << formatDuration(b.communication) << " (not overlapped "
            << formatDuration(b.communicationNotOverlapped) << "), free " << formatDuration(b.free) << "; "
            << step.deviceTasks.size() << " device tasks (" << step.flowAttributedTasks << " via flows)\n";
    }
    out << "Top " << summary.topNames.size() << " slice names by total duration:\n";
    for (const auto &s : summary.topNames)
        out << "  " << formatDuration(s.total) << "  x" << s.count << "  " << model.strings().qstring(s.name)
            << "\n";
    for (const auto &w : summary.warnings)
        out << "Warning: " << w << "\n";
    return text;
}

QByteArray formatSummaryJson(const TraceModel &model, const TraceSummary &summary)
{
    QJsonObject root;
    const EventCounts &c = summary.counts;
    root[QStringLiteral("events")] =
        QJsonObject{{QStringLiteral("total"), qint64(c.total())}, {QStringLiteral("X"), qint64(c.complete)},
                    {QStringLiteral("B"), qint64(c.begin)},       {QStringLiteral("E"), qint64(c.end)},
                    {QStringLiteral("i"), qint64(c.instant)},     {QStringLiteral("C"), qint64(c.counter)},
                    {QStringLiteral("s"), qint64(c.flowStart)},   {QStringLiteral("t"), qint64(c.flowStep)},
                    {QStringLiteral("f"), qint64(c.flowEnd)},     {QStringLiteral("M"), qint64(c.metadata)},
                    {QStringLiteral("other"), qint64(c.other)}};
    root[QStringLiteral("slices")] = qint64(summary.slices);
    root[QStringLiteral("flows")] = qint64(summary.flows);
    root[QStringLiteral("originUs")] = formatAbsoluteMicros(summary.origin);
    root[QStringLiteral("spanNs")] = qint64(summary.span);
    QJsonArray processes;
    for (const auto &p : summary.processes) {
        QJsonArray threads;
        for (const auto &t : p.threads)
            threads.append(QJsonObject{{QStringLiteral("name"), t.name},
                                       {QStringLiteral("slices"), qint64(t.slices)},
                                       {QStringLiteral("depth"), t.depth}});
        processes.append(QJsonObject{{QStringLiteral("name"), p.name},
                                     {QStringLiteral("layer"), p.layer},
                                     {QStringLiteral("pid"), p.pid},
                                     {QStringLiteral("threads"), threads},
                                     {QStringLiteral("counterSeries"), qint64(p.counterSeries)},
                                     {QStringLiteral("counterSamples"), qint64(p.counterSamples)}});
    }
    root[QStringLiteral("processes")] = processes;
    QJsonArray top;
    for (const auto &s : summary.topNames)
        top.append(QJsonObject{{QStringLiteral("name"), model.strings().qstring(s.name)},
                               {QStringLiteral("count"), qint64(s.count)},
                               {QStringLiteral("totalNs"), qint64(s.total)}});
    root[QStringLiteral("topNames")] = top;
    QJsonArray steps;
    for (const Step &step : model.steps())
        steps.append(QJsonObject{{QStringLiteral("group"), step.group},
                                 {QStringLiteral("number"), qint64(step.number)},
                                 {QStringLiteral("label"), step.label},
                                 {QStringLiteral("source"), stepSourceName(step.source)},
                                 {QStringLiteral("beginNs"), qint64(step.begin())},
                                 {QStringLiteral("endNs"), qint64(step.end())},
                                 {QStringLiteral("hostBeginNs"), qint64(step.hostBegin)},
                                 {QStringLiteral("hostEndNs"), qint64(step.hostEnd)},
                                 {QStringLiteral("stageBeginNs"), qint64(step.stageBegin)},
                                 {QStringLiteral("stageEndNs"), qint64(step.stageEnd)},
                                 {QStringLiteral("computingNs"), qint64(step.breakdown.computing)},
                                 {QStringLiteral("communicationNs"), qint64(step.breakdown.communication)},
                                 {QStringLiteral("communicationNotOverlappedNs"),
                                  qint64(step.breakdown.communicationNotOverlapped)},
                                 {QStringLiteral("freeNs"), qint64(step.breakdown.free)},
                                 {QStringLiteral("deviceTasks"), qint64(step.deviceTasks.size())}});
    root[QStringLiteral("steps")] = steps;
    root[QStringLiteral("warnings")] = QJsonArray::fromStringList(summary.warnings);
    QJsonArray groups;
    for (const auto &g : summary.groups)
        groups.append(
            QJsonObject{{QStringLiteral("label"), g.label},
                        {QStringLiteral("layout"), g.layout},
                        {QStringLiteral("path"), g.path},
                        {QStringLiteral("timelineFiles"), QJsonArray::fromStringList(g.timelineFiles)},
                        {QStringLiteral("summaryFiles"), QJsonArray::fromStringList(g.summaryFiles)},
                        {QStringLiteral("kernels"), qint64(g.kernels)},
                        {QStringLiteral("kernelsJoined"), qint64(g.kernelsJoined)},
                        {QStringLiteral("metricGroup"), g.metricGroup}});
    root[QStringLiteral("sources")] = groups;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace at

namespace at {

QString csvField(QString text)
{
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
        text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'))) {
        text.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text;
}

namespace {
QString idText(std::int64_t v)
{
    return v == KernelRecord::kNone ? QStringLiteral("N/A") : QString::number(v);
}

// The label of the source group a kernel row came from, as a CSV field (empty for an unknown group).
QString groupField(const TraceModel &model, const KernelRecord &k)
{
    const bool known = k.group >= 0 && static_cast<std::size_t>(k.group) < model.groups().size();
    return csvField(known ? model.groups()[static_cast<std::size_t>(k.group)].label : QString());
}
} // namespace

QByteArray formatKernelTableCsv(const TraceModel &model)
{
    const KernelTable &table = model.kernels();
    const StringPool &strings = model.strings();
    QStringList header{QStringLiteral("Source"),        QStringLiteral("Name"),
                       QStringLiteral("Type"),          QStringLiteral("Accelerator Core"),
                       QStringLiteral("Stream ID"),     QStringLiteral("Task ID"),
                       QStringLiteral("Start(us)"),     QStringLiteral("Duration(us)"),
                       QStringLiteral("Wait Time(us)"), QStringLiteral("Block Dim"),
                       QStringLiteral("Input Shapes"),  QStringLiteral("Input Data Types"),
                       QStringLiteral("Joined")};
    for (const KernelMetricColumn &c : table.columns())
        header << c.header;
    QByteArray out = header.join(QLatin1Char(',')).toUtf8() + '\n';
    for (std::size_t r = 0; r < table.size(); ++r) {
        const KernelRecord &k = table.rows()[r];
        QStringList cells{groupField(model, k),
                          csvField(strings.qstring(k.name)),
                          csvField(strings.qstring(k.type)),
                          csvField(strings.qstring(k.acceleratorCore)),
                          idText(k.streamId),
                          idText(k.taskId),
                          formatAbsoluteMicros(k.start + model.origin()),
                          formatAbsoluteMicros(k.duration),
                          formatAbsoluteMicros(k.wait),
                          idText(k.blockDim),
                          csvField(strings.qstring(k.inputShapes)),
                          csvField(strings.qstring(k.inputTypes)),
                          k.joined() ? QStringLiteral("yes") : QStringLiteral("no")};
        for (std::size_t c = 0; c < table.columns().size(); ++c) {
            const double v = table.metric(r, c);
            cells << (std::isnan(v) ? QString() : QString::number(v, 'g', 12));
        }
        out += cells.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    return out;
}

QByteArray formatKernelDetailsCsv(const TraceModel &model)
{
    const KernelTable &table = model.kernels();
    const StringPool &strings = model.strings();
    QStringList header{
        QStringLiteral("Source"),       QStringLiteral("Step Id"),          QStringLiteral("Task ID"),
        QStringLiteral("Stream ID"),    QStringLiteral("Context ID"),       QStringLiteral("Name"),
        QStringLiteral("Type"),         QStringLiteral("Accelerator Core"), QStringLiteral("Start Time(us)"),
        QStringLiteral("Duration(us)"), QStringLiteral("Wait Time(us)"),    QStringLiteral("Block Dim"),
        QStringLiteral("Input Shapes"), QStringLiteral("Input Data Types")};
    for (const KernelMetricColumn &c : table.columns())
        header << csvField(c.header);
    const QByteArray eol = "\r\n";
    QByteArray out = header.join(QLatin1Char(',')).toUtf8() + eol;
    for (std::size_t r = 0; r < table.size(); ++r) {
        const KernelRecord &k = table.rows()[r];
        QStringList cells{groupField(model, k),
                          idText(k.stepId),
                          idText(k.taskId),
                          idText(k.streamId),
                          idText(k.contextId),
                          csvField(strings.qstring(k.name)),
                          csvField(strings.qstring(k.type)),
                          csvField(strings.qstring(k.acceleratorCore)),
                          formatAbsoluteMicros(k.start + model.origin()),
                          formatAbsoluteMicros(k.duration),
                          formatAbsoluteMicros(k.wait),
                          idText(k.blockDim),
                          csvField(strings.qstring(k.inputShapes)),
                          csvField(strings.qstring(k.inputTypes))};
        for (std::size_t c = 0; c < table.columns().size(); ++c) {
            const double v = table.metric(r, c);
            cells << (std::isnan(v) ? QString() : QString::number(v, 'g', 12));
        }
        out += cells.join(QLatin1Char(',')).toUtf8() + eol;
    }
    return out;
}

SliceRef sliceStartingAt(const TraceModel &model, TimeNs ts, TimeNs dur, std::optional<int> thread)
{
    int first = 0, last = static_cast<int>(model.threads().size());
    if (thread) {
        if (*thread < first || *thread >= last)
            return {};
        first = *thread;
        last = first + 1;
    }
    for (int t = first; t < last; ++t) {
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        for (int d = 0; d < slices.depthCount(); ++d) {
            const std::uint32_t end = slices.depthRange(d).second;
            for (std::uint32_t i = slices.firstStartingAtOrAfter(d, ts); i < end && slices.start(i) == ts;
                 ++i)
                if (slices.duration(i) == dur)
                    return {t, i};
        }
    }
    return {};
}

} // namespace at
