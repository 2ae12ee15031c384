#pragma once

// The snapshot payload's layout, described once: every section with its fields in file order and
// their kinds (SnapshotSchema.h). The writer, the reader and the validator all follow this table, so a
// new model field is one line here (and kFormatVersion bumped). The big columns (slices, counter
// samples) are only claimed here; their values are in the column stream (SnapshotColumns.h).

#include "SnapshotAccess.h"
#include "Steps.h"
#include "snapshot/SnapshotArgs.h"
#include "snapshot/SnapshotCodec.h"
#include "snapshot/SnapshotSchema.h"

namespace at::snapshot::schema {

using A = SnapshotAccess;

// ---------------------------------------------------------------- kinds of whole tables

// STRS: the string pool, every text after the empty string 0 (the texts are distinct: written from a pool).
struct StringTable : Unchecked
{
    static constexpr std::size_t minBytes = 8;
    static void write(ByteWriter &w, const StringPool &pool)
    {
        w.u64(pool.size());
        for (StringId id = 1; id < pool.size(); ++id)
            w.bytes(pool.view(id));
    }
    static void read(Input &in, StringPool &pool)
    {
        ByteReader &r = in.r;
        const std::uint64_t n = r.u64();
        if (!r.ok() || n == 0 || n - 1 > r.remaining() / 8) {
            r.fail();
            return;
        }
        for (std::uint64_t id = 1; id < n && r.ok(); ++id) {
            const std::string_view text = r.bytes();
            if (r.ok())
                pool.append(text);
        }
    }
};

// A source: the kind of its args reader and its path; a reopened model re-reads args through it.
struct ArgsSource : Unchecked
{
    static constexpr std::size_t minBytes = 9;
    static void write(ByteWriter &w, const SourceFile &f)
    {
        w.u8(*argsKindOf(f.argsReader.get())); // encodePayload checked it
        w.string(f.path);
    }
    static void read(Input &in, SourceFile &f)
    {
        const std::uint8_t kind = in.r.u8();
        f.path = in.r.string();
        if (!knownArgsKind(kind))
            in.r.fail();
        else
            f.argsReader = makeArgsReader(kind, f.path);
    }
};

// A slice table: its size and depth index here, its columns claimed from the column stream.
struct SliceColumns
{
    static constexpr std::size_t minBytes = 16;
    static void write(ByteWriter &w, const SliceTable &t)
    {
        w.u64(t.size());
        List<U32>::write(w, A::depthBegin(t));
    }
    static void read(Input &in, SliceTable &t)
    {
        const std::uint64_t n = in.r.u64();
        bool claimed = in.r.ok() && n <= 0xFFFFFFFFu;
        forEachSliceColumn(
            t, [&](auto &column, bool delta) { claimed = claimed && in.columns->claim(column, n, delta); });
        List<U32>::read(in, A::depthBegin(t));
        if (!claimed)
            in.r.fail();
    }
    static bool valid(const Bounds &, const SliceTable &t) // the slices themselves: Validator::checkColumns
    {
        const auto &depths = A::depthBegin(t);
        if (depths.empty() || depths.front() != 0 || depths.back() != t.size())
            return false;
        for (std::size_t d = 1; d < depths.size(); ++d)
            if (depths[d] < depths[d - 1])
                return false;
        return true;
    }
};

// A counter's sample count here, its times and values claimed from the column stream.
struct SampleColumns
{
    static constexpr std::size_t minBytes = 8;
    static void write(ByteWriter &w, const CounterSeries &c) { w.u64(c.times.size()); }
    static void read(Input &in, CounterSeries &c)
    {
        const std::uint64_t n = in.r.u64();
        bool claimed = in.r.ok();
        forEachSampleColumn(
            c, [&](auto &column, bool delta) { claimed = claimed && in.columns->claim(column, n, delta); });
        if (!claimed)
            in.r.fail();
    }
    static bool valid(const Bounds &, const CounterSeries &c) { return c.times.size() == c.values.size(); }
};

// ---------------------------------------------------------------- records

template <> struct Schema<EventCounts>
{
    static constexpr const char *name = "event counts";
    static constexpr auto fields =
        std::tuple{field<U64>(&EventCounts::complete), field<U64>(&EventCounts::begin),
                   field<U64>(&EventCounts::end),      field<U64>(&EventCounts::instant),
                   field<U64>(&EventCounts::counter),  field<U64>(&EventCounts::flowStart),
                   field<U64>(&EventCounts::flowStep), field<U64>(&EventCounts::flowEnd),
                   field<U64>(&EventCounts::metadata), field<U64>(&EventCounts::other)};
};

template <> struct Schema<CollectionInfo>
{
    static constexpr const char *name = "collection";
    static constexpr auto fields =
        std::tuple{field<Text>(&CollectionInfo::sourceLabel),     field<Text>(&CollectionInfo::profilerLevel),
                   field<Text>(&CollectionInfo::metricGroup),     field<Texts>(&CollectionInfo::metrics),
                   field<Texts>(&CollectionInfo::switchesOn),     field<Texts>(&CollectionInfo::switchesOff),
                   field<TextPairs>(&CollectionInfo::properties), field<Texts>(&CollectionInfo::warnings),
                   field<Texts>(&CollectionInfo::files)};
};

template <> struct Schema<FileRead>
{
    static constexpr const char *name = "file read";
    static constexpr auto fields = std::tuple{field<Text>(&FileRead::path), field<U64>(&FileRead::size),
                                              field<U64>(&FileRead::offset), field<U64>(&FileRead::bytes)};
};

template <> struct Schema<SourceProvenance>
{
    static constexpr const char *name = "provenance";
    static constexpr auto fields = std::tuple{field<Enum<TimelineExport::RawData>>(&SourceProvenance::used),
                                              field<Text>(&SourceProvenance::databasePath),
                                              field<Bool>(&SourceProvenance::hasTextExport),
                                              field<Texts>(&SourceProvenance::rawDataDirs),
                                              field<List<Record<FileRead>>>(&SourceProvenance::reads)};
};

template <> struct Schema<SourceGroup>
{
    static constexpr const char *name = "group";
    static constexpr auto fields = std::tuple{field<Text>(&SourceGroup::label),
                                              field<Text>(&SourceGroup::layout),
                                              field<Text>(&SourceGroup::path),
                                              field<Texts>(&SourceGroup::timelineFiles),
                                              field<Texts>(&SourceGroup::summaryFiles),
                                              field<Record<CollectionInfo>>(&SourceGroup::collection),
                                              field<Record<SourceProvenance>>(&SourceGroup::provenance)};
};

template <> struct Schema<ProcessInfo>
{
    static constexpr const char *name = "process";
    static constexpr auto fields = std::tuple{field<GroupIndex>(&ProcessInfo::group),
                                              field<Key>(&ProcessInfo::pid),
                                              field<Id>(&ProcessInfo::name),
                                              field<Id>(&ProcessInfo::labels),
                                              field<OptionalI64>(&ProcessInfo::sortIndex),
                                              field<Enum<Layer::Other>>(&ProcessInfo::layer),
                                              field<List<ThreadIndex>>(&ProcessInfo::threads),
                                              field<List<CounterIndex>>(&ProcessInfo::counters)};
};

template <> struct Schema<ThreadInfo>
{
    static constexpr const char *name = "thread";
    static constexpr auto fields = std::tuple{
        field<ProcessIndex>(&ThreadInfo::process), field<Key>(&ThreadInfo::tid), field<Id>(&ThreadInfo::name),
        field<OptionalI64>(&ThreadInfo::sortIndex), field<SliceColumns>(&ThreadInfo::slices)};
};

template <> struct Schema<CounterSeries>
{
    static constexpr const char *name = "counter";
    static constexpr auto fields =
        std::tuple{field<ProcessIndex>(&CounterSeries::process),
                   field<Id>(&CounterSeries::name),
                   field<Id>(&CounterSeries::seriesKey),
                   field<Finite>(&CounterSeries::minValue),
                   field<Finite>(&CounterSeries::maxValue),
                   field<SampleColumns>([](CounterSeries &c) -> CounterSeries & { return c; })};
};

template <> struct Schema<FlowInfo>
{
    static constexpr const char *name = "flow";
    static constexpr auto fields =
        std::tuple{field<Id>(&FlowInfo::category),
                   field<Id>(&FlowInfo::name),
                   field<Id>(&FlowInfo::id),
                   field<I32>([](FlowInfo &f) -> std::int32_t & { return f.from.thread; }),
                   field<U32>([](FlowInfo &f) -> std::uint32_t & { return f.from.index; }),
                   field<I32>([](FlowInfo &f) -> std::int32_t & { return f.to.thread; }),
                   field<U32>([](FlowInfo &f) -> std::uint32_t & { return f.to.index; }),
                   field<Delta<Time>>(&FlowInfo::fromTime),
                   field<Delta<Time>>(&FlowInfo::toTime)};
    static bool check(const Bounds &b, const FlowInfo &f) { return b.refOrNone(f.from) && b.refOrNone(f.to); }
};

// An entry of a flow index: a sorted slice key and the flow it leads to.
using FlowIndexEntry = SnapshotAccess::FlowIndex::value_type;
template <> struct Schema<FlowIndexEntry>
{
    static constexpr const char *name = "flow index";
    static constexpr auto fields =
        std::tuple{field<Delta<U64>>(&FlowIndexEntry::first), field<FlowNumber>(&FlowIndexEntry::second)};
};

template <> struct Schema<KernelMetricColumn>
{
    static constexpr const char *name = "kernel column";
    static constexpr auto fields =
        std::tuple{field<Text>(&KernelMetricColumn::header), field<Text>(&KernelMetricColumn::name),
                   field<Text>(&KernelMetricColumn::core), field<Text>(&KernelMetricColumn::unit)};
};

template <> struct Schema<KernelRecord>
{
    static constexpr const char *name = "kernel row";
    static constexpr auto fields = std::tuple{field<GroupIndex>(&KernelRecord::group),
                                              field<I32>(&KernelRecord::thread),
                                              field<U32>(&KernelRecord::slice),
                                              field<Time>(&KernelRecord::start),
                                              field<Time>(&KernelRecord::duration),
                                              field<Time>(&KernelRecord::wait),
                                              field<Id>(&KernelRecord::name),
                                              field<Id>(&KernelRecord::type),
                                              field<Id>(&KernelRecord::acceleratorCore),
                                              field<Id>(&KernelRecord::inputShapes),
                                              field<Id>(&KernelRecord::inputTypes),
                                              field<I64>(&KernelRecord::streamId),
                                              field<I64>(&KernelRecord::taskId),
                                              field<I64>(&KernelRecord::contextId),
                                              field<I64>(&KernelRecord::blockDim),
                                              field<I64>(&KernelRecord::stepId),
                                              field<Id>(&KernelRecord::opState),
                                              field<I64>(&KernelRecord::mixBlockDim)};
    static bool check(const Bounds &b, const KernelRecord &r)
    {
        return r.thread == -1 || b.ref(SliceRef{r.thread, r.slice});
    }
};

template <> struct Schema<KernelTable>
{
    static constexpr const char *name = "kernel table";
    static constexpr auto fields = std::tuple{
        field<List<Record<KernelMetricColumn>>>([](KernelTable & k) -> auto & { return A::columns(k); }),
        field<List<Record<KernelRecord>>>([](KernelTable &k) -> auto & { return A::rows(k); }),
        field<Doubles>([](KernelTable &k) -> auto & { return A::values(k); }),
        field<List<Text>>([](KernelTable &k) -> auto & { return A::metricGroups(k); })};
    static bool check(const Bounds &, const KernelTable &k) // the metric matrix
    {
        return A::values(k).size() == k.rows().size() * k.columns().size();
    }
};

template <> struct Schema<SummaryTable>
{
    static constexpr const char *name = "summary table";
    static constexpr auto fields =
        std::tuple{field<GroupIndex>(&SummaryTable::group), field<Text>(&SummaryTable::type),
                   field<Texts>(&SummaryTable::files), field<Texts>(&SummaryTable::header),
                   field<List<Text>>(&SummaryTable::cells)};
    static bool check(const Bounds &, const SummaryTable &t)
    {
        return t.header.isEmpty() ? t.cells.empty()
                                  : t.cells.size() % static_cast<std::size_t>(t.header.size()) == 0;
    }
};

template <> struct Schema<DeclaredStep>
{
    static constexpr const char *name = "declared step";
    static constexpr auto fields =
        std::tuple{field<GroupIndex>(&DeclaredStep::group), field<I64>(&DeclaredStep::number),
                   field<Time>(&DeclaredStep::begin),       field<Time>(&DeclaredStep::end),
                   field<Text>(&DeclaredStep::source),      field<I64>(&DeclaredStep::spanOfSource)};
};

template <> struct Schema<StepBreakdown>
{
    static constexpr const char *name = "step breakdown";
    static constexpr auto fields =
        std::tuple{field<Time>(&StepBreakdown::computing), field<Time>(&StepBreakdown::communication),
                   field<Time>(&StepBreakdown::communicationNotOverlapped), field<Time>(&StepBreakdown::free),
                   field<Bool>(&StepBreakdown::fromOverlapAnalysis)};
};

template <> struct Schema<Step>
{
    static constexpr const char *name = "step";
    static constexpr auto fields = std::tuple{field<GroupIndex>(&Step::group),
                                              field<I64>(&Step::number),
                                              field<Text>(&Step::label),
                                              field<Enum<StepSource::GpuAnnotation>>(&Step::source),
                                              field<RefOrNone>(&Step::marker),
                                              field<Time>(&Step::hostBegin),
                                              field<Time>(&Step::hostEnd),
                                              field<Time>(&Step::deviceBegin),
                                              field<Time>(&Step::deviceEnd),
                                              field<Time>(&Step::stageBegin),
                                              field<Time>(&Step::stageEnd),
                                              field<Record<StepBreakdown>>(&Step::breakdown),
                                              field<List<Ref>>(&Step::deviceTasks),
                                              field<U64>(&Step::flowAttributedTasks)};
};

template <> struct Schema<MemoryCurve>
{
    static constexpr const char *name = "memory curve";
    static constexpr auto fields = std::tuple{
        field<GroupIndex>(&MemoryCurve::group),   field<I64>(&MemoryCurve::device),
        field<Text>(&MemoryCurve::component),     field<Enum<MemoryCurveKind::Module>>(&MemoryCurve::kind),
        field<List<Time>>(&MemoryCurve::times),   field<List<I64>>(&MemoryCurve::allocated),
        field<List<I64>>(&MemoryCurve::reserved), field<List<I64>>(&MemoryCurve::active)};
    static bool check(const Bounds &, const MemoryCurve &c)
    {
        const std::size_t n = c.times.size();
        return c.allocated.size() == n && c.reserved.size() == n && c.active.size() == n;
    }
};

template <> struct Schema<MemoryAllocation>
{
    static constexpr const char *name = "memory allocation";
    static constexpr auto fields = std::tuple{field<GroupIndex>(&MemoryAllocation::group),
                                              field<I64>(&MemoryAllocation::device),
                                              field<Id>(&MemoryAllocation::name),
                                              field<Id>(&MemoryAllocation::stream),
                                              field<I64>(&MemoryAllocation::bytes),
                                              field<I64>(&MemoryAllocation::allocation), // kNoTime allowed
                                              field<I64>(&MemoryAllocation::release),
                                              field<I64>(&MemoryAllocation::activeRelease),
                                              field<I64>(&MemoryAllocation::allocationAllocated),
                                              field<I64>(&MemoryAllocation::allocationReserved),
                                              field<I64>(&MemoryAllocation::allocationActive),
                                              field<I64>(&MemoryAllocation::releaseAllocated),
                                              field<I64>(&MemoryAllocation::releaseReserved),
                                              field<I64>(&MemoryAllocation::releaseActive)};
    static bool check(const Bounds &, const MemoryAllocation &a)
    {
        auto timeOrNone = [](TimeNs t) { return t == kNoTime || Bounds::time(t); };
        return timeOrNone(a.allocation) && timeOrNone(a.release) && timeOrNone(a.activeRelease);
    }
};

// The key echo in the file's header (not part of the payload).
template <> struct Schema<FileStamp>
{
    static constexpr const char *name = "file stamp";
    static constexpr auto fields = std::tuple{
        field<Text>(&FileStamp::path), field<I64>(&FileStamp::size), field<I64>(&FileStamp::mtimeNs),
        field<I64>(&FileStamp::ctimeNs), field<U64>(&FileStamp::fingerprint)};
};

template <> struct Schema<SnapshotKey>
{
    static constexpr const char *name = "key";
    static constexpr auto fields = std::tuple{
        field<Text>(&SnapshotKey::canonicalPath), field<U8>(&SnapshotKey::preferredSource),
        field<List<Record<FileStamp>>>(&SnapshotKey::files), field<U64>(&SnapshotKey::sourceBytes)};
};

// ---------------------------------------------------------------- sections, in file order

// The model's members through SnapshotAccess (the one friend of TraceModel). `member` is a name, not an
// expression, so it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define AT_MODEL(member)                                                                                     \
    [](TraceModel & m) -> auto &                                                                             \
    {                                                                                                        \
        return A::member(m);                                                                                 \
    }
// NOLINTEND(bugprone-macro-parentheses)

inline constexpr auto kSections = std::tuple{
    section(tag("STRS"), "strings", false, field<StringTable>(AT_MODEL(strings))),
    section(tag("META"), "summary", false, field<Time>(AT_MODEL(origin)), field<Time>(AT_MODEL(dataBegin)),
            field<Time>(AT_MODEL(dataEnd)), field<Time>(AT_MODEL(fullBegin)), field<Time>(AT_MODEL(fullEnd)),
            field<U64>(AT_MODEL(outliers)), field<Record<EventCounts>>(AT_MODEL(counts)),
            field<Texts>(AT_MODEL(warnings))),
    section(tag("GRPS"), "groups", false, field<List<Record<SourceGroup>>>(AT_MODEL(groups))),
    section(tag("SRCS"), "sources", false, field<List<ArgsSource>>(AT_MODEL(sources))),
    section(tag("PROC"), "processes", false, field<List<Record<ProcessInfo>>>(AT_MODEL(processes)),
            field<List<ProcessIndex>>(AT_MODEL(processOrder))),
    section(tag("THRD"), "threads", true, field<List<Record<ThreadInfo>>>(AT_MODEL(threads))),
    section(tag("CNTR"), "counters", true, field<List<Record<CounterSeries>>>(AT_MODEL(counters))),
    section(tag("FLOW"), "flows", false, field<Columnar<FlowInfo>>(AT_MODEL(flows)),
            field<Columnar<FlowIndexEntry>>(AT_MODEL(flowsBySource)),
            field<Columnar<FlowIndexEntry>>(AT_MODEL(flowsByTarget))),
    section(tag("KERN"), "kernels", false, field<Record<KernelTable>>(AT_MODEL(kernels))),
    section(tag("SUMT"), "summary tables", false, field<List<Record<SummaryTable>>>(AT_MODEL(summaryTables))),
    section(tag("STEP"), "steps", false, field<List<Record<DeclaredStep>>>(AT_MODEL(declaredSteps)),
            field<List<Record<Step>>>(AT_MODEL(steps))),
    section(
        tag("MEMO"), "memory", false,
        field<List<Record<MemoryCurve>>>([](TraceModel &m) -> auto & { return A::memory(m).curves; }),
        field<Columnar<MemoryAllocation>>([](TraceModel &m) -> auto & { return A::memory(m).allocations; }))};

#undef AT_MODEL

// Every section's tag, in file order; the column stream (COLS) follows them.
inline constexpr auto kSectionTags =
    std::apply([](const auto &...s) { return std::array<std::uint32_t, sizeof...(s)>{s.tag...}; }, kSections);

} // namespace at::snapshot::schema
