#include "MemoryAnalysis.h"

#include "ExactText.h"
#include "SummaryTable.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace at {

bool MemoryCurve::hasValues(MemoryMetric metric) const
{
    const auto &v = values(metric);
    return std::any_of(v.begin(), v.end(), [](std::int64_t b) { return b != kNoBytes; });
}

std::size_t MemoryProfile::memoryBytes() const
{
    std::size_t n = allocations.capacity() * sizeof(MemoryAllocation);
    for (const MemoryCurve &c : curves)
        n += sizeof(MemoryCurve) + c.times.capacity() * sizeof(TimeNs) +
             (c.allocated.capacity() + c.reserved.capacity() + c.active.capacity()) * sizeof(std::int64_t);
    return n;
}

std::optional<MemoryPeak> peakOf(const MemoryCurve &curve, MemoryMetric metric)
{
    const auto &v = curve.values(metric);
    std::optional<MemoryPeak> peak;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i] != kNoBytes && (!peak || v[i] > peak->bytes))
            peak = MemoryPeak{v[i], curve.times[i], i};
    return peak;
}

std::optional<std::int64_t> valueAt(const MemoryCurve &curve, MemoryMetric metric, TimeNs t)
{
    const auto &v = curve.values(metric);
    auto it = std::upper_bound(curve.times.begin(), curve.times.end(), t);
    for (auto i = static_cast<std::size_t>(it - curve.times.begin()); i > 0; --i)
        if (v[i - 1] != kNoBytes)
            return v[i - 1];
    return std::nullopt;
}

std::vector<std::size_t> liveAllocationsAt(const MemoryProfile &profile, int group, std::int64_t device,
                                           TimeNs t)
{
    std::vector<std::size_t> live;
    for (std::size_t i = 0; i < profile.allocations.size(); ++i) {
        const MemoryAllocation &a = profile.allocations[i];
        if (a.group != group || a.device != device || a.bytes <= 0 || a.allocation == kNoTime)
            continue;
        // The record at a release's own time already shows the block returned.
        if (a.allocation <= t && (a.release == kNoTime || a.release > t))
            live.push_back(i);
    }
    std::stable_sort(live.begin(), live.end(), [&](std::size_t x, std::size_t y) {
        const MemoryAllocation &a = profile.allocations[x], &b = profile.allocations[y];
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.allocation < b.allocation;
    });
    return live;
}

int overallCurve(const MemoryProfile &profile, int group, std::int64_t device)
{
    for (const char *name : {"PTA+GE", "MindSpore+GE", "PTA", "GE", "CUDA"}) // CUDA: Kineto traces
        for (std::size_t i = 0; i < profile.curves.size(); ++i) {
            const MemoryCurve &c = profile.curves[i];
            if (c.group == group && c.device == device && c.kind == MemoryCurveKind::Component &&
                c.component == QLatin1String(name))
                return static_cast<int>(i);
        }
    return -1;
}

std::optional<StepMemory> stepMemory(const MemoryCurve &curve, MemoryMetric metric, TimeNs begin, TimeNs end)
{
    const auto &v = curve.values(metric);
    const std::optional<std::int64_t> atBegin = valueAt(curve, metric, begin);
    std::optional<StepMemory> out;
    if (atBegin)
        out = StepMemory{*atBegin, begin, 0};
    const auto first = static_cast<std::size_t>(
        std::upper_bound(curve.times.begin(), curve.times.end(), begin) - curve.times.begin());
    for (std::size_t i = first; i < curve.times.size() && curve.times[i] <= end; ++i) {
        if (v[i] == kNoBytes)
            continue;
        if (!out)
            out = StepMemory{v[i], curve.times[i], 0};
        else if (v[i] > out->peakBytes) {
            out->peakBytes = v[i];
            out->peakTime = curve.times[i];
        }
    }
    if (!out)
        return std::nullopt;
    // Nothing holds at begin (the records start inside the step): growth from the step's first value.
    std::int64_t start = atBegin ? *atBegin : kNoBytes;
    for (std::size_t i = first; start == kNoBytes && i < curve.times.size() && curve.times[i] <= end; ++i)
        start = v[i];
    const std::optional<std::int64_t> atEnd = valueAt(curve, metric, end);
    out->growthBytes = (atEnd ? *atEnd : start) - start;
    return out;
}

int groupOverallCurve(const MemoryProfile &profile, int group)
{
    for (const auto &[g, device] : memoryDevices(profile))
        if (g == group)
            if (const int curve = overallCurve(profile, g, device); curve >= 0)
                return curve;
    return -1;
}

std::optional<StepMemory> groupStepMemory(const MemoryProfile &profile, int group, TimeNs begin, TimeNs end)
{
    const int curve = groupOverallCurve(profile, group);
    if (curve < 0)
        return std::nullopt;
    return stepMemory(profile.curves[static_cast<std::size_t>(curve)], MemoryMetric::Allocated, begin, end);
}

std::vector<MemoryPoint> stepCurve(const MemoryCurve &curve, MemoryMetric metric, TimeNs begin, TimeNs end)
{
    const auto &v = curve.values(metric);
    std::vector<MemoryPoint> points;
    if (const auto atBegin = valueAt(curve, metric, begin))
        points.push_back({0, *atBegin});
    const auto first = static_cast<std::size_t>(
        std::upper_bound(curve.times.begin(), curve.times.end(), begin) - curve.times.begin());
    for (std::size_t i = first; i < curve.times.size() && curve.times[i] <= end; ++i)
        if (v[i] != kNoBytes)
            points.push_back({curve.times[i] - begin, v[i]});
    return points;
}

StepMemoryComparison compareStepMemory(const MemoryProfile &base, const Step &baseStep,
                                       const MemoryProfile &comparison, const Step &comparisonStep)
{
    const auto side = [](const MemoryProfile &profile, const Step &step) {
        StepMemorySide out;
        out.curve = groupOverallCurve(profile, step.group);
        if (out.curve < 0)
            return out;
        const MemoryCurve &c = profile.curves[static_cast<std::size_t>(out.curve)];
        out.points = stepCurve(c, MemoryMetric::Allocated, step.begin(), step.end());
        out.step = stepMemory(c, MemoryMetric::Allocated, step.begin(), step.end());
        if (out.step)
            out.step->peakTime -= step.begin();
        return out;
    };
    return {side(base, baseStep), side(comparison, comparisonStep)};
}

std::vector<std::pair<int, std::int64_t>> memoryDevices(const MemoryProfile &profile)
{
    std::vector<std::pair<int, std::int64_t>> out;
    auto add = [&](int group, std::int64_t device) {
        const std::pair<int, std::int64_t> key{group, device};
        if (std::find(out.begin(), out.end(), key) == out.end())
            out.push_back(key);
    };
    for (const MemoryCurve &c : profile.curves)
        add(c.group, c.device);
    for (const MemoryAllocation &a : profile.allocations)
        add(a.group, a.device);
    return out;
}

std::vector<DeviceMemory> deviceMemory(const MemoryProfile &profile)
{
    std::vector<DeviceMemory> out;
    for (const auto &[group, device] : memoryDevices(profile)) {
        DeviceMemory d;
        d.group = group;
        d.device = device;
        for (std::size_t i = 0; i < profile.curves.size(); ++i) {
            const MemoryCurve &c = profile.curves[i];
            if (c.group != group || c.device != device)
                continue;
            ComponentPeaks p;
            p.curve = i;
            p.allocated = peakOf(c, MemoryMetric::Allocated);
            p.reserved = peakOf(c, MemoryMetric::Reserved);
            p.active = peakOf(c, MemoryMetric::Active);
            if (c.kind == MemoryCurveKind::Module && (!p.reserved || p.reserved->bytes <= 0))
                continue; // most modules never hold memory
            d.components.push_back(p);
        }
        d.overall = overallCurve(profile, group, device);
        if (d.overall >= 0)
            d.overallPeak =
                peakOf(profile.curves[static_cast<std::size_t>(d.overall)], MemoryMetric::Allocated);
        if (d.overallPeak)
            d.liveAtPeak = liveAllocationsAt(profile, group, device, d.overallPeak->time);
        out.push_back(std::move(d));
    }
    return out;
}

namespace {

// value / 2^shift as an exact decimal (every binary fraction has a finite one).
QString exactBinaryFraction(std::int64_t value, int shift)
{
    const bool negative = value < 0;
    const unsigned __int128 magnitude =
        negative ? static_cast<unsigned __int128>(-(static_cast<__int128>(value))) : value;
    const unsigned __int128 whole = magnitude >> shift;
    unsigned __int128 fraction = magnitude & ((static_cast<unsigned __int128>(1) << shift) - 1);
    QString text = negative ? QStringLiteral("-") : QString();
    text += QString::number(static_cast<unsigned long long>(whole));
    if (fraction == 0)
        return text;
    // fraction / 2^shift = fraction * 5^shift / 10^shift: shift decimal digits.
    unsigned __int128 five = 1;
    for (int i = 0; i < shift; ++i)
        five *= 5;
    fraction *= five;
    QString digits(shift, QLatin1Char('0'));
    for (int i = shift - 1; i >= 0; --i) {
        digits[i] = QLatin1Char(static_cast<char>('0' + static_cast<int>(fraction % 10)));
        fraction /= 10;
    }
    while (digits.endsWith(QLatin1Char('0')))
        digits.chop(1);
    return text + QLatin1Char('.') + digits;
}

} // namespace

SliceRef hostSliceOf(const TraceModel &model, const MemoryAllocation &allocation)
{
    if (allocation.allocation == kNoTime || allocation.name == 0)
        return {};
    const QString name = model.strings().qstring(allocation.name);
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const ThreadInfo &thread = model.threads()[t];
        if (model.processes()[static_cast<std::size_t>(thread.process)].group != allocation.group)
            continue;
        SliceRef ref = model.enclosingSlice(static_cast<int>(t), allocation.allocation);
        while (ref.isValid()) {
            if (model.sliceName(ref) == name)
                return ref;
            const std::int32_t parent = thread.slices.parent(ref.index);
            ref = parent < 0 ? SliceRef{} : SliceRef{ref.thread, static_cast<std::uint32_t>(parent)};
        }
    }
    return {};
}

std::vector<StaticGraphMemory> staticGraphMemory(const TraceModel &model)
{
    std::vector<StaticGraphMemory> out;
    for (const SummaryTable &t : model.summaryTables()) {
        if (t.type != QLatin1String("static_op_mem"))
            continue;
        const int device = t.column(QStringLiteral("Device_id")), name = t.column(QStringLiteral("Op Name")),
                  modelName = t.column(QStringLiteral("Model Name")),
                  graph = t.column(QStringLiteral("Graph ID")),
                  start = t.column(QStringLiteral("Node Index Start")),
                  end = t.column(QStringLiteral("Node Index End")),
                  size = t.column(QStringLiteral("Size(KB)"));
        if (name < 0 || start < 0 || end < 0 || size < 0)
            continue;
        struct Range
        {
            std::int64_t start, end, bytes;
        };
        std::map<std::tuple<std::int64_t, QString, QString>, std::pair<StaticGraphMemory, std::vector<Range>>>
            graphs;
        const auto kilobytes = [](const QString &text) -> std::optional<std::int64_t> {
            bool ok = false;
            const double kb = text.trimmed().toDouble(&ok);
            if (!ok || !std::isfinite(kb) || std::abs(kb) > 1e12)
                return std::nullopt;
            return static_cast<std::int64_t>(std::llround(kb * 1024.0));
        };
        for (std::size_t r = 0; r < t.rowCount(); ++r) {
            const QString cellDevice = device >= 0 ? t.cell(r, device).trimmed() : QString();
            const auto key = std::make_tuple(cellDevice.isEmpty() ? -1 : cellDevice.toLongLong(),
                                             modelName >= 0 ? t.cell(r, modelName).trimmed() : QString(),
                                             graph >= 0 ? t.cell(r, graph).trimmed() : QString());
            const auto bytes = kilobytes(t.cell(r, size));
            if (!bytes)
                continue;
            if (t.cell(r, name).trimmed().compare(QLatin1String("TOTAL"), Qt::CaseInsensitive) == 0) {
                // The TOTAL row may leave the graph columns empty: it belongs to the file's last graph.
                for (auto &[k, g] : graphs)
                    if (std::get<0>(k) == std::get<0>(key) || std::get<0>(key) < 0)
                        g.first.totalBytes = *bytes;
                continue;
            }
            bool okStart = false, okEnd = false;
            const qlonglong first = t.cell(r, start).trimmed().toLongLong(&okStart);
            const qlonglong last = t.cell(r, end).trimmed().toLongLong(&okEnd);
            if (!okStart || !okEnd)
                continue;
            auto &[g, ranges] = graphs[key];
            g.group = t.group;
            g.device = std::get<0>(key);
            g.model = std::get<1>(key);
            g.graph = std::get<2>(key);
            ++g.ops;
            ranges.push_back({first, last, *bytes});
        }
        for (auto &[key, entry] : graphs) {
            auto &[g, ranges] = entry;
            std::int64_t lastNode = 0;
            for (const Range &r : ranges)
                lastNode = std::max({lastNode, r.start, r.end == kStaticNodeUntilEnd ? r.start : r.end});
            // Sweep: +size at the start, -size after the end.
            std::vector<std::pair<std::int64_t, std::int64_t>> events;
            for (const Range &r : ranges) {
                events.emplace_back(r.start, r.bytes);
                events.emplace_back((r.end == kStaticNodeUntilEnd ? lastNode : r.end) + 1, -r.bytes);
            }
            std::sort(events.begin(), events.end());
            std::int64_t held = 0;
            for (std::size_t i = 0; i < events.size();) {
                const std::int64_t node = events[i].first;
                for (; i < events.size() && events[i].first == node; ++i)
                    held += events[i].second;
                if (held > g.peakBytes) {
                    g.peakBytes = held;
                    g.peakNode = node;
                }
            }
            out.push_back(std::move(g));
        }
    }
    return out;
}

QString curveLabel(const MemoryCurve &curve)
{
    return curve.kind == MemoryCurveKind::Module ? curve.component + QStringLiteral(" (module)")
                                                 : curve.component;
}

QString bytesAsMegabytes(std::int64_t bytes)
{
    return exactBinaryFraction(bytes, 20);
}

QString bytesAsKilobytes(std::int64_t bytes)
{
    return exactBinaryFraction(bytes, 10);
}

QString nanosAsMicros(TimeNs ns)
{
    return microsText(ns);
}

} // namespace at
