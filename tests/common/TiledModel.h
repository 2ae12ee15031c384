#pragma once

// Builds a multi-step model from a real one-step profile by repeating all of it (slices, flows,
// counters, kernel rows) with shifted timestamps, renumbering ProfilerStep#N in each copy. Each
// copy can change or drop any slice, so tests can build "step 51 is step 50 with kernel X twice as
// slow and kernel Y missing" from real data.

#include "TraceBuilder.h"

#include <QRegularExpression>

#include <functional>
#include <set>

namespace at::test {

struct TileOptions
{
    int copies = 3;
    TimeNs gap = 10'000'000; // between the end of one copy and the start of the next
    // New duration of a slice in a copy (return the given duration to keep it, < 0 to drop it).
    std::function<TimeNs(int copy, SliceRef original, TimeNs duration)> duration;
    // New duration of the host step marker of a copy (to move its end before the device tail).
    std::function<TimeNs(int copy, TimeNs duration)> stepMarkerDuration;
};

inline std::unique_ptr<TraceModel> tileModel(const TraceModel &m, const TileOptions &options)
{
    TraceBuilder b;
    b.setDeduplicate(false);
    const StringPool &from = m.strings();
    auto intern = [&](StringId id) { return b.strings().intern(from.qstring(id).toStdString()); };
    auto key = [&](const LaneKey &k) { return k.text ? b.textKey(from.qstring(k.text).toStdString()) : k; };
    for (const SourceFile &s : m.sources())
        b.addSource(s.path, s.argsReader);

    std::vector<int> newThread(m.threads().size(), -1);
    std::vector<int> newProcess(m.processes().size(), -1);
    for (std::size_t g = 0; g < m.groups().size(); ++g) {
        b.addGroup(m.groups()[g]);
        for (std::size_t p = 0; p < m.processes().size(); ++p) {
            const ProcessInfo &pi = m.processes()[p];
            if (pi.group != static_cast<int>(g))
                continue;
            const int np = b.process(key(pi.pid));
            newProcess[p] = np;
            if (pi.name)
                b.setProcessName(np, intern(pi.name));
            if (pi.labels)
                b.setProcessLabels(np, intern(pi.labels));
            if (pi.sortIndex)
                b.setProcessSortIndex(np, *pi.sortIndex);
            for (int t : pi.threads) {
                const ThreadInfo &ti = m.threads()[static_cast<std::size_t>(t)];
                const int nt = b.thread(key(pi.pid), key(ti.tid));
                newThread[static_cast<std::size_t>(t)] = nt;
                if (ti.name)
                    b.setThreadName(nt, intern(ti.name));
                if (ti.sortIndex)
                    b.setThreadSortIndex(nt, *ti.sortIndex);
            }
        }
    }

    const TimeNs period = m.dataEnd() - m.dataBegin() + options.gap;
    const QRegularExpression stepName(QStringLiteral("^ProfilerStep#(\\d+)$"));
    std::vector<std::set<std::uint64_t>> dropped(static_cast<std::size_t>(options.copies));
    for (int copy = 0; copy < options.copies; ++copy) {
        const TimeNs shift = m.origin() + copy * period;
        for (std::size_t t = 0; t < m.threads().size(); ++t) {
            const SliceTable &table = m.threads()[t].slices;
            for (std::uint32_t i = 0; i < table.size(); ++i) {
                const SliceRef ref{static_cast<std::int32_t>(t), i};
                TimeNs duration = table.duration(i);
                QString name = from.qstring(table.name(i));
                if (const auto match = stepName.match(name); match.hasMatch()) {
                    name = QStringLiteral("ProfilerStep#%1").arg(match.captured(1).toLongLong() + copy);
                    if (options.stepMarkerDuration)
                        duration = options.stepMarkerDuration(copy, duration);
                }
                if (options.duration)
                    duration = options.duration(copy, ref, duration);
                if (duration < 0) {
                    dropped[static_cast<std::size_t>(copy)].insert(sliceKey(ref));
                    continue;
                }
                b.addSlice(newThread[t], table.start(i) + shift, duration,
                           b.strings().intern(name.toStdString()), intern(table.category(i)),
                           table.source(i));
            }
        }
        for (const FlowInfo &f : m.flows()) {
            if (!f.from.isValid() || !f.to.isValid() ||
                dropped[static_cast<std::size_t>(copy)].count(sliceKey(f.to)))
                continue;
            const StringId id =
                b.strings().intern(QStringLiteral("%1#%2").arg(from.qstring(f.id)).arg(copy).toStdString());
            const SliceTable &to = m.threads()[static_cast<std::size_t>(f.to.thread)].slices;
            b.addFlowHalf(FlowPhase::Start, intern(f.category), intern(f.name), id,
                          newThread[static_cast<std::size_t>(f.from.thread)], f.fromTime + shift, true);
            b.addFlowHalf(FlowPhase::End, intern(f.category), intern(f.name), id,
                          newThread[static_cast<std::size_t>(f.to.thread)], to.start(f.to.index) + shift,
                          true);
        }
        for (const CounterSeries &c : m.counters())
            for (std::size_t s = 0; s < c.times.size(); ++s)
                b.addCounterSample(newProcess[static_cast<std::size_t>(c.process)], intern(c.name),
                                   intern(c.seriesKey), c.times[s] + shift, c.values[s]);
    }

    const KernelTable &kernels = m.kernels();
    KernelTable &out = b.kernels();
    for (const KernelMetricColumn &c : kernels.columns())
        out.addColumn(c);
    for (std::size_t g = 0; g < m.groups().size(); ++g)
        out.setMetricGroup(static_cast<int>(g), kernels.metricGroupOf(static_cast<int>(g)));
    for (int copy = 0; copy < options.copies; ++copy) {
        for (std::size_t r = 0; r < kernels.size(); ++r) {
            KernelRecord k = kernels.rows()[r];
            if (k.joined() && dropped[static_cast<std::size_t>(copy)].count(sliceKey({k.thread, k.slice})))
                continue;
            k.thread = -1;
            k.slice = 0;
            k.start += m.origin() + copy * period;
            for (StringId *s : {&k.name, &k.type, &k.acceleratorCore, &k.inputShapes, &k.inputTypes})
                *s = *s ? intern(*s) : 0;
            const std::size_t row = out.addRow(k);
            for (std::size_t c = 0; c < kernels.columns().size(); ++c)
                out.setMetric(row, static_cast<int>(c), kernels.metric(r, c));
        }
    }
    for (const SummaryTable &table : m.summaryTables())
        b.addSummaryTable(table);
    return b.build();
}

} // namespace at::test
