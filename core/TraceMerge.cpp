#include "TraceMerge.h"

#include "SnapshotAccess.h"
#include "Steps.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace at {

namespace {

// The merge rebuilds whole models from their parts, as the snapshot codec does: it uses the same raw member
// access (core/SnapshotAccess.h) and leaves the models read-only for everyone else.
using A = SnapshotAccess;

// Whether the model's origin means anything: build() places it on slices, else counters, else flows.
bool hasTimedData(const TraceModel &m)
{
    for (const ThreadInfo &t : m.threads())
        if (!t.slices.empty())
            return true;
    for (const CounterSeries &c : m.counters())
        if (!c.times.empty())
            return true;
    return !m.flows().empty();
}

void shiftRef(SliceRef &ref, int threadOffset)
{
    if (ref.isValid())
        ref.thread += threadOffset;
}

// Adds shift to every time of the model that is relative to its origin.
void shiftTimes(TraceModel &m, TimeNs shift)
{
    if (shift == 0)
        return;
    for (ThreadInfo &t : A::threads(m))
        for (TimeNs &start : A::start(t.slices))
            start += shift;
    for (CounterSeries &c : A::counters(m))
        for (TimeNs &t : c.times)
            t += shift;
    for (FlowInfo &f : A::flows(m)) {
        f.fromTime += shift;
        f.toTime += shift;
    }
    for (KernelRecord &k : A::rows(A::kernels(m)))
        k.start += shift;
    for (DeclaredStep &s : A::declaredSteps(m)) {
        s.begin += shift;
        s.end += shift;
    }
    for (Step &s : A::steps(m))
        for (TimeNs *t : {&s.hostBegin, &s.hostEnd, &s.deviceBegin, &s.deviceEnd, &s.stageBegin, &s.stageEnd})
            *t += shift;
    MemoryProfile &memory = A::memory(m);
    for (MemoryCurve &c : memory.curves)
        for (TimeNs &t : c.times)
            t += shift;
    for (MemoryAllocation &a : memory.allocations)
        for (TimeNs *t : {&a.allocation, &a.release, &a.activeRelease})
            if (*t != kNoTime)
                *t += shift;
    for (TimeNs *t : {&A::dataBegin(m), &A::dataEnd(m), &A::fullBegin(m), &A::fullEnd(m)})
        *t += shift;
}

template <typename T> void appendMoved(std::vector<T> &to, std::vector<T> &from)
{
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
    from = {};
}

// Appends `from` (already on the merged origin) to `to`, remapping its string ids and indices.
void appendModel(TraceModel &to, TraceModel &from)
{
    std::vector<StringId> ids(from.strings().size());
    StringPool &pool = A::strings(to);
    for (StringId id = 0; id < ids.size(); ++id)
        ids[id] = pool.intern(from.strings().view(id));
    auto str = [&ids](StringId &id) { id = ids[id]; };

    const int groupOffset = static_cast<int>(to.groups().size());
    const auto firstSource = static_cast<std::uint32_t>(to.sources().size());
    const int processOffset = static_cast<int>(to.processes().size());
    const int threadOffset = static_cast<int>(to.threads().size());
    const int counterOffset = static_cast<int>(to.counters().size());
    const auto flowOffset = static_cast<std::uint32_t>(to.flows().size());

    appendMoved(A::groups(to), A::groups(from));
    appendMoved(A::sources(to), A::sources(from));

    for (ProcessInfo &p : A::processes(from)) {
        p.group += groupOffset;
        str(p.pid.text);
        str(p.name);
        str(p.labels);
        for (int &t : p.threads)
            t += threadOffset;
        for (int &c : p.counters)
            c += counterOffset;
    }
    appendMoved(A::processes(to), A::processes(from));
    for (int p : from.processOrder())
        A::processOrder(to).push_back(p + processOffset);

    for (ThreadInfo &t : A::threads(from)) {
        t.process += processOffset;
        str(t.tid.text);
        str(t.name);
        for (StringId &id : A::name(t.slices))
            str(id);
        for (StringId &id : A::category(t.slices))
            str(id);
        for (SourceLocation &loc : A::source(t.slices))
            if (loc != kNoSource)
                loc = makeSourceLocation(sourceFile(loc) + firstSource, sourceOffset(loc));
    }
    appendMoved(A::threads(to), A::threads(from));

    for (CounterSeries &c : A::counters(from)) {
        c.process += processOffset;
        str(c.name);
        str(c.seriesKey);
    }
    appendMoved(A::counters(to), A::counters(from));

    for (FlowInfo &f : A::flows(from)) {
        str(f.category);
        str(f.name);
        str(f.id);
        shiftRef(f.from, threadOffset);
        shiftRef(f.to, threadOffset);
    }
    appendMoved(A::flows(to), A::flows(from));
    // The slice keys hold the thread in their high half: the appended model's threads all come after the
    // ones already there, so each index stays sorted by appending.
    const std::uint64_t keyOffset = static_cast<std::uint64_t>(threadOffset) << 32;
    for (auto [index, into] : {std::pair{&A::flowsBySource(from), &A::flowsBySource(to)},
                               std::pair{&A::flowsByTarget(from), &A::flowsByTarget(to)}}) {
        into->reserve(into->size() + index->size());
        for (const auto &[key, flow] : *index)
            into->emplace_back(key + keyOffset, flow + flowOffset);
        *index = {};
    }

    // Kernel rows: the columns are matched by header (a column only one model has is NaN for the others).
    KernelTable &kernels = A::kernels(to);
    KernelTable &fromKernels = A::kernels(from);
    std::vector<std::size_t> columnOf;
    for (const KernelMetricColumn &column : fromKernels.columns())
        columnOf.push_back(static_cast<std::size_t>(kernels.addColumn(column)));
    const std::size_t width = kernels.columns().size(), fromWidth = columnOf.size();
    const std::size_t firstRow = kernels.size();
    std::vector<KernelRecord> &rows = A::rows(kernels);
    for (KernelRecord &k : A::rows(fromKernels)) {
        k.group += groupOffset;
        if (k.thread >= 0)
            k.thread += threadOffset;
        for (StringId *id : {&k.name, &k.type, &k.acceleratorCore, &k.inputShapes, &k.inputTypes, &k.opState})
            str(*id);
    }
    appendMoved(rows, A::rows(fromKernels));
    std::vector<double> &values = A::values(kernels);
    std::vector<double> &fromValues = A::values(fromKernels);
    bool sameColumns = width == fromWidth;
    for (std::size_t c = 0; sameColumns && c < fromWidth; ++c)
        sameColumns = columnOf[c] == c;
    if (sameColumns) {
        values.insert(values.end(), fromValues.begin(), fromValues.end());
    } else {
        values.resize(rows.size() * width, std::numeric_limits<double>::quiet_NaN());
        for (std::size_t r = 0; r + firstRow < rows.size(); ++r)
            for (std::size_t c = 0; c < fromWidth; ++c)
                values[(firstRow + r) * width + columnOf[c]] = fromValues[r * fromWidth + c];
    }
    fromValues = {};
    std::vector<QString> &metricGroups = A::metricGroups(kernels);
    metricGroups.resize(static_cast<std::size_t>(groupOffset));
    std::vector<QString> &fromMetricGroups = A::metricGroups(fromKernels);
    fromMetricGroups.resize(to.groups().size() - static_cast<std::size_t>(groupOffset));
    appendMoved(metricGroups, fromMetricGroups);

    for (SummaryTable &t : A::summaryTables(from))
        t.group += groupOffset;
    appendMoved(A::summaryTables(to), A::summaryTables(from));

    MemoryProfile &memory = A::memory(from);
    for (MemoryCurve &c : memory.curves)
        c.group += groupOffset;
    for (MemoryAllocation &a : memory.allocations) {
        a.group += groupOffset;
        str(a.name);
        str(a.stream);
    }
    appendMoved(A::memory(to).curves, memory.curves);
    appendMoved(A::memory(to).allocations, memory.allocations);

    for (DeclaredStep &s : A::declaredSteps(from)) {
        s.group += groupOffset;
        if (s.spanOfSource >= 0)
            s.spanOfSource += firstSource;
    }
    appendMoved(A::declaredSteps(to), A::declaredSteps(from));
    for (Step &s : A::steps(from)) {
        s.group += groupOffset;
        shiftRef(s.marker, threadOffset);
        for (SliceRef &ref : s.deviceTasks)
            shiftRef(ref, threadOffset);
    }
    appendMoved(A::steps(to), A::steps(from));

    A::counts(to) += from.eventCounts();
    A::outliers(to) += from.outlierCount();
    A::warnings(to) += from.warnings();
}

} // namespace

std::unique_ptr<TraceModel> mergeModels(std::vector<std::unique_ptr<TraceModel>> models, MergeOptions options)
{
    std::erase_if(models, [](const std::unique_ptr<TraceModel> &m) { return !m; });
    if (models.empty())
        return nullptr;
    // The merged origin: the earliest of the models' origins (a model without timed data has origin 0 and
    // its times are absolute, which the same shift by its origin handles).
    std::optional<TimeNs> origin;
    for (const auto &m : models)
        if (hasTimedData(*m))
            origin = std::min(origin.value_or(m->origin()), m->origin());
    const TimeNs merged = origin.value_or(models.front()->origin());
    // Spans of the models with timed data, on the merged origin.
    TimeNs dataBegin = std::numeric_limits<TimeNs>::max(), dataEnd = std::numeric_limits<TimeNs>::min();
    TimeNs fullBegin = dataBegin, fullEnd = dataEnd;
    for (const auto &m : models) {
        shiftTimes(*m, m->origin() - merged);
        if (!hasTimedData(*m))
            continue;
        dataBegin = std::min(dataBegin, m->dataBegin());
        dataEnd = std::max(dataEnd, m->dataEnd());
        fullBegin = std::min(fullBegin, m->fullBegin());
        fullEnd = std::max(fullEnd, m->fullEnd());
    }

    // Room for everything up front: appending grows each vector once.
    std::size_t threads = 0, processes = 0, counters = 0, flows = 0, rows = 0;
    for (const auto &m : models) {
        threads += m->threads().size();
        processes += m->processes().size();
        counters += m->counters().size();
        flows += m->flows().size();
        rows += m->kernels().size();
    }
    std::unique_ptr<TraceModel> result = std::move(models.front());
    TraceModel &to = *result;
    A::threads(to).reserve(threads);
    A::processes(to).reserve(processes);
    A::processOrder(to).reserve(processes);
    A::counters(to).reserve(counters);
    A::flows(to).reserve(flows);
    A::rows(A::kernels(to)).reserve(rows);
    for (std::size_t i = 1; i < models.size(); ++i) {
        appendModel(to, *models[i]);
        models[i].reset(); // freed as soon as it is merged
    }
    A::origin(to) = merged;
    if (origin) {
        A::dataBegin(to) = dataBegin;
        A::dataEnd(to) = dataEnd;
        A::fullBegin(to) = fullBegin;
        A::fullEnd(to) = fullEnd;
    }
    A::kernels(to).rebuildSliceIndex();
    A::dropSliceLods(
        to); // built before the merge (on the first model's times and threads): made again on use
    if (options.warnings)
        A::warnings(to) = *options.warnings;
    return result;
}

} // namespace at
