#include "KernelQueries.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>

namespace at {

namespace {

// Calls fn(row) for every row of the filter (every row when it is empty), skipping bad indices.
template <typename Fn> void forEachRow(const KernelTable &table, const KernelRows &filter, Fn &&fn)
{
    if (filter.empty()) {
        for (std::size_t r = 0; r < table.size(); ++r)
            fn(r);
        return;
    }
    for (std::size_t r : filter)
        if (r < table.size())
            fn(r);
}

bool containsNoCase(std::string_view text, std::string_view needle)
{
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                       [&](char a, char b) { return lower(a) == lower(b); }) != text.end();
}

bool onCommunicationThread(const TraceModel &model, const KernelRecord &k)
{
    if (!k.joined() || static_cast<std::size_t>(k.thread) >= model.threads().size())
        return false;
    const ThreadInfo &thread = model.threads()[static_cast<std::size_t>(k.thread)];
    if (thread.process >= 0 && static_cast<std::size_t>(thread.process) < model.processes().size() &&
        model.processes()[static_cast<std::size_t>(thread.process)].layer == Layer::Communication)
        return true;
    const std::string_view name = model.strings().view(thread.name);
    return containsNoCase(name, "hccl") || containsNoCase(name, "communication");
}

bool isPipeRatio(const QString &name)
{
    if (!name.endsWith(QLatin1String("_ratio")))
        return false;
    const QString pipe = name.chopped(6);
    const auto &pipes = pipeNames();
    return std::find(pipes.begin(), pipes.end(), pipe) != pipes.end();
}

std::vector<std::size_t> columnsOfKind(const KernelTable &table, MetricChartKind kind)
{
    std::vector<std::size_t> result;
    for (std::size_t c = 0; c < table.columns().size(); ++c) {
        const KernelMetricColumn &column = table.columns()[c];
        bool match = false;
        switch (kind) {
        case MetricChartKind::PipeUtilization:
            match = isPipeRatio(column.name);
            break;
        case MetricChartKind::Bandwidth:
            match = column.unit == QLatin1String("GB/s");
            break;
        case MetricChartKind::Ratio:
            match = column.name.endsWith(QLatin1String("_ratio")) && !isPipeRatio(column.name);
            break;
        case MetricChartKind::None:
            break;
        }
        if (match)
            result.push_back(c);
    }
    return result;
}

constexpr MetricChartKind kDrawableKinds[] = {MetricChartKind::PipeUtilization, MetricChartKind::Bandwidth,
                                              MetricChartKind::Ratio};

QString unitOfKind(MetricChartKind kind)
{
    return kind == MetricChartKind::Bandwidth ? QStringLiteral("GB/s") : QString();
}

QString barLabel(const KernelMetricColumn &column, MetricChartKind kind)
{
    if (kind != MetricChartKind::Bandwidth && column.name.endsWith(QLatin1String("_ratio")))
        return column.name.chopped(6);
    return column.name;
}

bool rowHasAny(const KernelTable &table, std::size_t row, const std::vector<std::size_t> &columns)
{
    return std::any_of(columns.begin(), columns.end(),
                       [&](std::size_t c) { return !std::isnan(table.metric(row, c)); });
}

} // namespace

QString taskCategoryName(TaskCategory category)
{
    switch (category) {
    case TaskCategory::AiCore:
        return QStringLiteral("AI Core");
    case TaskCategory::AiVector:
        return QStringLiteral("AI Vector");
    case TaskCategory::AiCpu:
        return QStringLiteral("AI CPU");
    case TaskCategory::Communication:
        return QStringLiteral("Communication");
    case TaskCategory::Other:
        break;
    }
    return QStringLiteral("Other");
}

TaskCategory taskCategoryOfCore(const QString &acceleratorCore)
{
    const QString core = acceleratorCore.trimmed().toUpper();
    if (core == QLatin1String("AI_CORE") || core == QLatin1String("MIX_AIC"))
        return TaskCategory::AiCore;
    if (core == QLatin1String("AI_VECTOR_CORE") || core == QLatin1String("MIX_AIV"))
        return TaskCategory::AiVector;
    if (core == QLatin1String("AI_CPU"))
        return TaskCategory::AiCpu;
    if (core == QLatin1String("HCCL") || core == QLatin1String("COMMUNICATION"))
        return TaskCategory::Communication;
    return TaskCategory::Other;
}

TaskCategory taskCategory(const TraceModel &model, std::size_t row)
{
    const KernelRecord &k = model.kernels().rows()[row];
    const TaskCategory byCore = taskCategoryOfCore(model.strings().qstring(k.acceleratorCore));
    if (byCore == TaskCategory::Other && onCommunicationThread(model, k))
        return TaskCategory::Communication;
    return byCore;
}

std::vector<KernelAggregate> aggregateKernels(const TraceModel &model, KernelGrouping grouping,
                                              const KernelRows &filter)
{
    const KernelTable &table = model.kernels();
    struct Acc
    {
        KernelAggregate aggregate;
        std::array<TimeNs, kTaskCategoryCount> byCategory{};
    };
    std::map<std::pair<StringId, StringId>, Acc> groups;
    forEachRow(table, filter, [&](std::size_t r) {
        const KernelRecord &k = table.rows()[r];
        const StringId shapes = grouping == KernelGrouping::NameAndShape ? k.inputShapes : 0;
        Acc &acc = groups[{k.name, shapes}];
        KernelAggregate &a = acc.aggregate;
        if (a.count == 0) {
            a.name = k.name;
            a.inputShapes = shapes;
            a.minimum = a.maximum = k.duration;
            a.longestRow = r;
        }
        ++a.count;
        a.total += k.duration;
        a.minimum = std::min(a.minimum, k.duration);
        if (k.duration > a.maximum) {
            a.maximum = k.duration;
            a.longestRow = r;
        }
        a.rows.push_back(r);
        acc.byCategory[static_cast<std::size_t>(taskCategory(model, r))] += k.duration;
    });
    std::vector<KernelAggregate> result;
    result.reserve(groups.size());
    for (auto &[key, acc] : groups) {
        const auto best = std::max_element(acc.byCategory.begin(), acc.byCategory.end());
        acc.aggregate.category = static_cast<TaskCategory>(best - acc.byCategory.begin());
        result.push_back(std::move(acc.aggregate));
    }
    const StringPool &strings = model.strings();
    std::sort(result.begin(), result.end(), [&strings](const KernelAggregate &a, const KernelAggregate &b) {
        if (a.total != b.total)
            return a.total > b.total;
        return std::make_pair(strings.view(a.name), strings.view(a.inputShapes)) <
               std::make_pair(strings.view(b.name), strings.view(b.inputShapes));
    });
    return result;
}

std::vector<KernelAggregate> topKernels(const TraceModel &model, std::size_t n, KernelGrouping grouping,
                                        const KernelRows &filter)
{
    std::vector<KernelAggregate> all = aggregateKernels(model, grouping, filter);
    if (all.size() > n)
        all.resize(n);
    return all;
}

TimeNs TaskTimeBreakdown::sum() const
{
    return std::accumulate(total.begin(), total.end(), TimeNs(0));
}

TaskTimeBreakdown timeByTaskCategory(const TraceModel &model, const KernelRows &filter)
{
    TaskTimeBreakdown result;
    const KernelTable &table = model.kernels();
    forEachRow(table, filter, [&](std::size_t r) {
        const auto c = static_cast<std::size_t>(taskCategory(model, r));
        result.total[c] += table.rows()[r].duration;
        ++result.count[c];
    });
    return result;
}

const std::vector<QString> &pipeNames()
{
    static const std::vector<QString> names = {
        QStringLiteral("vec"),  QStringLiteral("mac"),  QStringLiteral("scalar"),  QStringLiteral("mte1"),
        QStringLiteral("mte2"), QStringLiteral("mte3"), QStringLiteral("fixpipe"),
    };
    return names;
}

MetricChartColumns metricChartColumns(const KernelTable &table)
{
    for (MetricChartKind kind : kDrawableKinds) {
        std::vector<std::size_t> columns = columnsOfKind(table, kind);
        if (!columns.empty())
            return {kind, unitOfKind(kind), std::move(columns)};
    }
    return {};
}

KernelMetricBars kernelMetricBars(const TraceModel &model, std::size_t row)
{
    const KernelTable &table = model.kernels();
    KernelMetricBars result;
    if (row >= table.size())
        return result;
    // The first kind with a value in this row (a table merged from ranks can hold several groups).
    for (MetricChartKind kind : kDrawableKinds) {
        const std::vector<std::size_t> columns = columnsOfKind(table, kind);
        if (!rowHasAny(table, row, columns))
            continue;
        result.kind = kind;
        result.unit = unitOfKind(kind);
        for (std::size_t c : columns) {
            const double v = table.metric(row, c);
            if (std::isnan(v))
                continue;
            const KernelMetricColumn &column = table.columns()[c];
            result.bars.push_back({c, column.core, barLabel(column, kind), v});
        }
        break;
    }
    return result;
}

std::ptrdiff_t longestKernelRow(const TraceModel &model, const QString &name, const KernelRows &filter)
{
    const KernelTable &table = model.kernels();
    std::vector<std::size_t> drawable;
    for (MetricChartKind kind : kDrawableKinds) {
        const std::vector<std::size_t> columns = columnsOfKind(table, kind);
        drawable.insert(drawable.end(), columns.begin(), columns.end());
    }
    const QByteArray wanted = name.toUtf8();
    std::ptrdiff_t best = -1, bestWithMetrics = -1;
    forEachRow(table, filter, [&](std::size_t r) {
        const KernelRecord &k = table.rows()[r];
        if (!name.isEmpty() && model.strings().view(k.name) != std::string_view(wanted.data(), wanted.size()))
            return;
        auto longer = [&](std::ptrdiff_t current) {
            return current < 0 || k.duration > table.rows()[static_cast<std::size_t>(current)].duration;
        };
        if (longer(best))
            best = static_cast<std::ptrdiff_t>(r);
        if (longer(bestWithMetrics) && rowHasAny(table, r, drawable))
            bestWithMetrics = static_cast<std::ptrdiff_t>(r);
    });
    return bestWithMetrics >= 0 ? bestWithMetrics : best;
}

std::vector<std::size_t> scatterMetricColumns(const KernelTable &table)
{
    std::vector<std::size_t> result;
    for (std::size_t c = 0; c < table.columns().size(); ++c) {
        for (std::size_t r = 0; r < table.size(); ++r) {
            if (!std::isnan(table.metric(r, c))) {
                result.push_back(c);
                break;
            }
        }
    }
    return result;
}

int defaultScatterColumn(const KernelTable &table)
{
    const std::vector<std::size_t> usable = scatterMetricColumns(table);
    if (usable.empty())
        return -1;
    for (std::size_t c : usable)
        if (table.columns()[c].header == QLatin1String("aic_mac_ratio"))
            return static_cast<int>(c);
    for (std::size_t c : usable)
        if (table.columns()[c].name == QLatin1String("mac_ratio"))
            return static_cast<int>(c);
    return static_cast<int>(usable.front());
}

std::vector<ScatterPoint> durationVsMetric(const TraceModel &model, std::size_t column,
                                           const KernelRows &filter)
{
    std::vector<ScatterPoint> result;
    const KernelTable &table = model.kernels();
    if (column >= table.columns().size())
        return result;
    forEachRow(table, filter, [&](std::size_t r) {
        const double v = table.metric(r, column);
        if (!std::isnan(v))
            result.push_back({r, static_cast<double>(table.rows()[r].duration) / 1000.0, v});
    });
    return result;
}

} // namespace at
