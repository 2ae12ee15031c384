#pragma once

#include "KernelTable.h"
#include "SliceTable.h"
#include "TraceModel.h"

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace at {

// Raw member access for the snapshot cache (parser/snapshot), which saves the built model and
// restores it exactly instead of building it again, and for core/TraceMerge, which moves the models of
// several ranks into one. Nothing else should use it: the model stays read-only for everyone else. The reader
// validates every index before the model is handed out.
class SnapshotAccess
{
public:
    using FlowIndex = std::vector<std::pair<std::uint64_t, std::uint32_t>>;

    // TraceModel
    static StringPool &strings(TraceModel &m) { return m.m_strings; }
    static std::vector<ProcessInfo> &processes(TraceModel &m) { return m.m_processes; }
    static std::vector<ThreadInfo> &threads(TraceModel &m) { return m.m_threads; }
    static std::vector<CounterSeries> &counters(TraceModel &m) { return m.m_counters; }
    static std::vector<FlowInfo> &flows(TraceModel &m) { return m.m_flows; }
    static std::vector<SourceFile> &sources(TraceModel &m) { return m.m_sources; }
    static std::vector<SourceGroup> &groups(TraceModel &m) { return m.m_groups; }
    static KernelTable &kernels(TraceModel &m) { return m.m_kernels; }
    static std::vector<SummaryTable> &summaryTables(TraceModel &m) { return m.m_summaryTables; }
    static MemoryProfile &memory(TraceModel &m) { return m.m_memory; }
    static std::vector<DeclaredStep> &declaredSteps(TraceModel &m) { return m.m_declaredSteps; }
    static std::vector<Step> &steps(TraceModel &m) { return m.m_steps; }
    static std::vector<int> &processOrder(TraceModel &m) { return m.m_processOrder; }
    static FlowIndex &flowsBySource(TraceModel &m) { return m.m_flowsBySource; }
    static FlowIndex &flowsByTarget(TraceModel &m) { return m.m_flowsByTarget; }
    static const FlowIndex &flowsBySource(const TraceModel &m) { return m.m_flowsBySource; }
    static const FlowIndex &flowsByTarget(const TraceModel &m) { return m.m_flowsByTarget; }
    static EventCounts &counts(TraceModel &m) { return m.m_counts; }
    // Drops the level-of-detail summaries built so far (they hold times: a merge that shifts the model's
    // times must not keep them).
    static void dropSliceLods(TraceModel &m)
    {
        const std::lock_guard lock(m.m_lodMutex);
        m.m_lods.clear();
    }
    static QStringList &warnings(TraceModel &m) { return m.m_warnings; }
    static TimeNs &origin(TraceModel &m) { return m.m_origin; }
    static TimeNs &dataBegin(TraceModel &m) { return m.m_dataBegin; }
    static TimeNs &dataEnd(TraceModel &m) { return m.m_dataEnd; }
    static TimeNs &fullBegin(TraceModel &m) { return m.m_fullBegin; }
    static TimeNs &fullEnd(TraceModel &m) { return m.m_fullEnd; }
    static std::size_t &outliers(TraceModel &m) { return m.m_outliers; }

    // SliceTable columns
    static std::vector<TimeNs> &start(SliceTable &t) { return t.m_start; }
    static std::vector<TimeNs> &duration(SliceTable &t) { return t.m_duration; }
    static std::vector<StringId> &name(SliceTable &t) { return t.m_name; }
    static std::vector<StringId> &category(SliceTable &t) { return t.m_category; }
    static std::vector<std::int32_t> &parent(SliceTable &t) { return t.m_parent; }
    static std::vector<SourceLocation> &source(SliceTable &t) { return t.m_source; }
    static std::vector<std::uint32_t> &depthBegin(SliceTable &t) { return t.m_depthBegin; }
    static const std::vector<TimeNs> &start(const SliceTable &t) { return t.m_start; }
    static const std::vector<TimeNs> &duration(const SliceTable &t) { return t.m_duration; }
    static const std::vector<StringId> &name(const SliceTable &t) { return t.m_name; }
    static const std::vector<StringId> &category(const SliceTable &t) { return t.m_category; }
    static const std::vector<std::int32_t> &parent(const SliceTable &t) { return t.m_parent; }
    static const std::vector<SourceLocation> &source(const SliceTable &t) { return t.m_source; }
    static const std::vector<std::uint32_t> &depthBegin(const SliceTable &t) { return t.m_depthBegin; }

    // KernelTable
    static std::vector<KernelMetricColumn> &columns(KernelTable &k) { return k.m_columns; }
    static std::vector<KernelRecord> &rows(KernelTable &k) { return k.m_rows; }
    static std::vector<double> &values(KernelTable &k) { return k.m_values; }
    static const std::vector<double> &values(const KernelTable &k) { return k.m_values; }
    static std::vector<QString> &metricGroups(KernelTable &k) { return k.m_metricGroups; }
    static const std::vector<QString> &metricGroups(const KernelTable &k) { return k.m_metricGroups; }
};

} // namespace at
