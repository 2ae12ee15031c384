// The model's other tables, each read in place from its vector: thread, process, counter_track, counter,
// flow, kernel (with one column per metric of the kernel table), memory (operator allocations) and
// memory_curve (the points of every memory curve).
#include "QueryTables.h"

#include "Layer.h"
#include "QueryData.h"

#include <QRegularExpression>

#include <set>

namespace at::query {

namespace {

using Column = ArrayTable::Column;

void resultOptionalInt(sqlite3_context *context, std::int64_t value, std::int64_t none)
{
    if (value == none)
        sqlite3_result_null(context);
    else
        sqlite3_result_int64(context, value);
}

void resultLaneKey(sqlite3_context *context, const TraceModel &model, const LaneKey &key)
{
    if (key.text)
        resultView(context, model.strings().view(key.text));
    else
        resultInt(context, key.number);
}

std::unique_ptr<QueryTable> threadTable(QueryData &data)
{
    const TraceModel &m = data.model();
    auto thread = [&m](std::size_t row) -> const ThreadInfo & { return m.threads()[row]; };
    return std::make_unique<ArrayTable>(
        QStringLiteral("thread"), [&m] { return m.threads().size(); },
        std::vector<Column>{
            {"id", "INTEGER",
             [](sqlite3_context *c, std::size_t r) { resultInt(c, static_cast<std::int64_t>(r)); }},
            {"process", "INTEGER",
             [thread](sqlite3_context *c, std::size_t r) { resultInt(c, thread(r).process); }},
            {"rank", "INTEGER",
             [&m, &data, thread](sqlite3_context *c, std::size_t r) {
                 resultInt(
                     c, data.rankOfGroup(m.processes()[static_cast<std::size_t>(thread(r).process)].group));
             }},
            {"tid", "",
             [&m, thread](sqlite3_context *c, std::size_t r) { resultLaneKey(c, m, thread(r).tid); }},
            {"name", "TEXT",
             [&m](sqlite3_context *c, std::size_t r) {
                 resultText(c, m.threadDisplayName(static_cast<int>(r)));
             }},
            {"slice_count", "INTEGER",
             [thread](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(thread(r).slices.size()));
             }},
            {"depth_count", "INTEGER",
             [thread](sqlite3_context *c, std::size_t r) {
                 resultInt(c, std::max(0, thread(r).slices.depthCount()));
             }},
        },
        0);
}

std::unique_ptr<QueryTable> processTable(QueryData &data)
{
    const TraceModel &m = data.model();
    auto process = [&m](std::size_t row) -> const ProcessInfo & { return m.processes()[row]; };
    return std::make_unique<ArrayTable>(
        QStringLiteral("process"), [&m] { return m.processes().size(); },
        std::vector<Column>{
            {"id", "INTEGER",
             [](sqlite3_context *c, std::size_t r) { resultInt(c, static_cast<std::int64_t>(r)); }},
            {"rank", "INTEGER",
             [&data, process](sqlite3_context *c, std::size_t r) {
                 resultInt(c, data.rankOfGroup(process(r).group));
             }},
            {"source_group", "INTEGER",
             [process](sqlite3_context *c, std::size_t r) { resultInt(c, process(r).group); }},
            {"pid", "",
             [&m, process](sqlite3_context *c, std::size_t r) { resultLaneKey(c, m, process(r).pid); }},
            {"name", "TEXT",
             [&m](sqlite3_context *c, std::size_t r) {
                 resultText(c, m.processDisplayName(static_cast<int>(r)));
             }},
            {"layer", "TEXT",
             [process](sqlite3_context *c, std::size_t r) {
                 resultText(c, layerDisplayName(process(r).layer));
             }},
            {"thread_count", "INTEGER",
             [process](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(process(r).threads.size()));
             }},
        },
        0);
}

std::unique_ptr<QueryTable> counterTrackTable(QueryData &data)
{
    const TraceModel &m = data.model();
    auto series = [&m](std::size_t row) -> const CounterSeries & { return m.counters()[row]; };
    return std::make_unique<ArrayTable>(
        QStringLiteral("counter_track"), [&m] { return m.counters().size(); },
        std::vector<Column>{
            {"id", "INTEGER",
             [](sqlite3_context *c, std::size_t r) { resultInt(c, static_cast<std::int64_t>(r)); }},
            {"process", "INTEGER",
             [series](sqlite3_context *c, std::size_t r) { resultInt(c, series(r).process); }},
            {"rank", "INTEGER",
             [&m, &data, series](sqlite3_context *c, std::size_t r) {
                 resultInt(
                     c, data.rankOfGroup(m.processes()[static_cast<std::size_t>(series(r).process)].group));
             }},
            {"name", "TEXT",
             [&m](sqlite3_context *c, std::size_t r) {
                 resultText(c, m.counterDisplayName(static_cast<int>(r)));
             }},
            {"samples", "INTEGER",
             [series](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(series(r).times.size()));
             }},
            {"min_value", "REAL",
             [series](sqlite3_context *c, std::size_t r) { resultReal(c, series(r).minValue); }},
            {"max_value", "REAL",
             [series](sqlite3_context *c, std::size_t r) { resultReal(c, series(r).maxValue); }},
        },
        0);
}

std::unique_ptr<QueryTable> counterTable(QueryData &data)
{
    const TraceModel &m = data.model();
    auto rows = std::make_shared<NestedRows>();
    for (const CounterSeries &s : m.counters())
        rows->add(s.times.size());
    return std::make_unique<ArrayTable>(
        QStringLiteral("counter"), [rows] { return rows->size(); },
        std::vector<Column>{
            {"track", "INTEGER",
             [rows](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(rows->locate(r).item));
             }},
            {"ts", "INTEGER",
             [&m, rows](sqlite3_context *c, std::size_t r) {
                 const NestedRow at = rows->locate(r);
                 resultInt(c, m.counters()[at.item].times[at.at]);
             }},
            {"value", "REAL",
             [&m, rows](sqlite3_context *c, std::size_t r) {
                 const NestedRow at = rows->locate(r);
                 resultReal(c, m.counters()[at.item].values[at.at]);
             }},
        });
}

void resultSlice(sqlite3_context *context, QueryData &data, SliceRef ref)
{
    if (ref.isValid())
        resultInt(context, data.idOf(ref));
    else
        sqlite3_result_null(context);
}

std::unique_ptr<QueryTable> flowTable(QueryData &data)
{
    const TraceModel &m = data.model();
    auto flow = [&m](std::size_t row) -> const FlowInfo & { return m.flows()[row]; };
    return std::make_unique<ArrayTable>(
        QStringLiteral("flow"), [&m] { return m.flows().size(); },
        std::vector<Column>{
            {"id", "INTEGER",
             [](sqlite3_context *c, std::size_t r) { resultInt(c, static_cast<std::int64_t>(r)); }},
            {"category", "TEXT",
             [&m, flow](sqlite3_context *c, std::size_t r) {
                 resultView(c, m.strings().view(flow(r).category));
             }},
            {"name", "TEXT",
             [&m, flow](sqlite3_context *c, std::size_t r) {
                 resultView(c, m.strings().view(flow(r).name));
             }},
            {"flow_id", "TEXT",
             [&m, flow](sqlite3_context *c, std::size_t r) { resultView(c, m.strings().view(flow(r).id)); }},
            {"from_slice", "INTEGER",
             [&data, flow](sqlite3_context *c, std::size_t r) { resultSlice(c, data, flow(r).from); }},
            {"to_slice", "INTEGER",
             [&data, flow](sqlite3_context *c, std::size_t r) { resultSlice(c, data, flow(r).to); }},
            {"from_ts", "INTEGER",
             [flow](sqlite3_context *c, std::size_t r) { resultInt(c, flow(r).fromTime); }},
            {"to_ts", "INTEGER", [flow](sqlite3_context *c, std::size_t r) { resultInt(c, flow(r).toTime); }},
        },
        0);
}

// "aic_mac_time(us)" → "aic_mac_time_us", "aiv_vec_ratio" stays; a name taken by a fixed column or by an
// earlier metric gets a numeric suffix.
QString metricColumnName(const QString &header, std::set<QString> &taken)
{
    static const QRegularExpression other(QStringLiteral("[^a-z0-9_]+"));
    QString name = header.toLower();
    name.replace(QLatin1Char('%'), QStringLiteral("pct"));
    name.replace(QLatin1Char('/'), QStringLiteral("_per_"));
    name.replace(other, QStringLiteral("_"));
    while (name.endsWith(QLatin1Char('_')))
        name.chop(1);
    while (name.startsWith(QLatin1Char('_')))
        name.remove(0, 1);
    if (name.isEmpty() || name.front().isDigit())
        name.prepend(QStringLiteral("m_"));
    QString unique = name;
    for (int n = 2; taken.count(unique); ++n)
        unique = name + QLatin1Char('_') + QString::number(n);
    taken.insert(unique);
    return unique;
}

std::unique_ptr<QueryTable> kernelTable(QueryData &data)
{
    const TraceModel &m = data.model();
    const KernelTable &k = m.kernels();
    auto row = [&k](std::size_t r) -> const KernelRecord & { return k.rows()[r]; };
    auto text = [&m](sqlite3_context *c, StringId id) { resultView(c, m.strings().view(id)); };
    std::vector<Column> columns{
        {"id", "INTEGER",
         [](sqlite3_context *c, std::size_t r) { resultInt(c, static_cast<std::int64_t>(r)); }},
        {"slice_id", "INTEGER",
         [&data, row](sqlite3_context *c, std::size_t r) {
             const KernelRecord &rec = row(r);
             resultSlice(c, data, rec.joined() ? SliceRef{rec.thread, rec.slice} : SliceRef{});
         }},
        {"rank", "INTEGER",
         [&data, row](sqlite3_context *c, std::size_t r) { resultInt(c, data.rankOfGroup(row(r).group)); }},
        {"ts", "INTEGER", [row](sqlite3_context *c, std::size_t r) { resultInt(c, row(r).start); }},
        {"dur", "INTEGER", [row](sqlite3_context *c, std::size_t r) { resultInt(c, row(r).duration); }},
        {"wait", "INTEGER", [row](sqlite3_context *c, std::size_t r) { resultInt(c, row(r).wait); }},
        {"name", "TEXT", [row, text](sqlite3_context *c, std::size_t r) { text(c, row(r).name); }},
        {"type", "TEXT", [row, text](sqlite3_context *c, std::size_t r) { text(c, row(r).type); }},
        {"accelerator_core", "TEXT",
         [row, text](sqlite3_context *c, std::size_t r) { text(c, row(r).acceleratorCore); }},
        {"input_shapes", "TEXT",
         [row, text](sqlite3_context *c, std::size_t r) { text(c, row(r).inputShapes); }},
        {"input_types", "TEXT",
         [row, text](sqlite3_context *c, std::size_t r) { text(c, row(r).inputTypes); }},
        {"op_state", "TEXT", [row, text](sqlite3_context *c, std::size_t r) { text(c, row(r).opState); }},
        {"stream_id", "INTEGER",
         [row](sqlite3_context *c, std::size_t r) {
             resultOptionalInt(c, row(r).streamId, KernelRecord::kNone);
         }},
        {"task_id", "INTEGER",
         [row](sqlite3_context *c, std::size_t r) {
             resultOptionalInt(c, row(r).taskId, KernelRecord::kNone);
         }},
        {"context_id", "INTEGER",
         [row](sqlite3_context *c, std::size_t r) {
             resultOptionalInt(c, row(r).contextId, KernelRecord::kNone);
         }},
        {"block_dim", "INTEGER",
         [row](sqlite3_context *c, std::size_t r) {
             resultOptionalInt(c, row(r).blockDim, KernelRecord::kNone);
         }},
        {"mix_block_dim", "INTEGER",
         [row](sqlite3_context *c, std::size_t r) {
             resultOptionalInt(c, row(r).mixBlockDim, KernelRecord::kNone);
         }},
        {"step_id", "INTEGER",
         [row](sqlite3_context *c, std::size_t r) {
             resultOptionalInt(c, row(r).stepId, KernelRecord::kNone);
         }},
    };
    std::set<QString> taken;
    for (const Column &c : columns)
        taken.insert(QString::fromLatin1(c.name));
    std::vector<QByteArray> names;
    names.reserve(k.columns().size());
    for (const KernelMetricColumn &metric : k.columns())
        names.push_back(metricColumnName(metric.header, taken).toUtf8());
    for (std::size_t i = 0; i < k.columns().size(); ++i)
        columns.push_back({names[i].constData(), "REAL",
                           [&k, i](sqlite3_context *c, std::size_t r) { resultReal(c, k.metric(r, i)); }});
    // (ArrayTable copies the names: `names` only has to live until here.)
    return std::make_unique<ArrayTable>(
        QStringLiteral("kernel"), [&k] { return k.size(); }, std::move(columns), 0);
}

std::unique_ptr<QueryTable> memoryTable(QueryData &data)
{
    const TraceModel &m = data.model();
    const auto &allocations = m.memory().allocations;
    auto a = [&allocations](std::size_t r) -> const MemoryAllocation & { return allocations[r]; };
    return std::make_unique<ArrayTable>(
        QStringLiteral("memory"), [&allocations] { return allocations.size(); },
        std::vector<Column>{
            {"id", "INTEGER",
             [](sqlite3_context *c, std::size_t r) { resultInt(c, static_cast<std::int64_t>(r)); }},
            {"rank", "INTEGER",
             [&data, a](sqlite3_context *c, std::size_t r) { resultInt(c, data.rankOfGroup(a(r).group)); }},
            {"device", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) { resultOptionalInt(c, a(r).device, -1); }},
            {"name", "TEXT",
             [&m, a](sqlite3_context *c, std::size_t r) { resultView(c, m.strings().view(a(r).name)); }},
            {"stream", "TEXT",
             [&m, a](sqlite3_context *c, std::size_t r) { resultView(c, m.strings().view(a(r).stream)); }},
            {"bytes", "INTEGER", [a](sqlite3_context *c, std::size_t r) { resultInt(c, a(r).bytes); }},
            {"ts", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) { resultOptionalInt(c, a(r).allocation, kNoTime); }},
            {"release_ts", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) { resultOptionalInt(c, a(r).release, kNoTime); }},
            {"active_release_ts", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) { resultOptionalInt(c, a(r).activeRelease, kNoTime); }},
            {"dur", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) { resultOptionalInt(c, a(r).duration(), kNoTime); }},
            {"active_dur", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) {
                 resultOptionalInt(c, a(r).activeDuration(), kNoTime);
             }},
            {"allocated_after", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) {
                 resultOptionalInt(c, a(r).allocationAllocated, kNoBytes);
             }},
            {"reserved_after", "INTEGER",
             [a](sqlite3_context *c, std::size_t r) {
                 resultOptionalInt(c, a(r).allocationReserved, kNoBytes);
             }},
        },
        0);
}

std::unique_ptr<QueryTable> memoryCurveTable(QueryData &data)
{
    const TraceModel &m = data.model();
    const auto &curves = m.memory().curves;
    auto rows = std::make_shared<NestedRows>();
    for (const MemoryCurve &curve : curves)
        rows->add(curve.times.size());
    auto point = [rows](std::size_t r) { return rows->locate(r); };
    auto bytes = [&curves, point](MemoryMetric metric) {
        return [&curves, point, metric](sqlite3_context *c, std::size_t r) {
            const NestedRow at = point(r);
            resultOptionalInt(c, curves[at.item].values(metric)[at.at], kNoBytes);
        };
    };
    return std::make_unique<ArrayTable>(
        QStringLiteral("memory_curve"), [rows] { return rows->size(); },
        std::vector<Column>{
            {"curve", "INTEGER",
             [point](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(point(r).item));
             }},
            {"rank", "INTEGER",
             [&curves, &data, point](sqlite3_context *c, std::size_t r) {
                 resultInt(c, data.rankOfGroup(curves[point(r).item].group));
             }},
            {"device", "INTEGER",
             [&curves, point](sqlite3_context *c, std::size_t r) {
                 resultOptionalInt(c, curves[point(r).item].device, -1);
             }},
            {"component", "TEXT",
             [&curves, point](sqlite3_context *c, std::size_t r) {
                 resultText(c, curves[point(r).item].component);
             }},
            {"kind", "TEXT",
             [&curves, point](sqlite3_context *c, std::size_t r) {
                 resultView(c,
                            curves[point(r).item].kind == MemoryCurveKind::Module ? "module" : "component");
             }},
            {"ts", "INTEGER",
             [&curves, point](sqlite3_context *c, std::size_t r) {
                 const NestedRow at = point(r);
                 resultInt(c, curves[at.item].times[at.at]);
             }},
            {"allocated", "INTEGER", bytes(MemoryMetric::Allocated)},
            {"reserved", "INTEGER", bytes(MemoryMetric::Reserved)},
            {"active", "INTEGER", bytes(MemoryMetric::Active)},
        });
}

} // namespace

std::vector<std::unique_ptr<QueryTable>> makeModelTables(QueryData &data)
{
    std::vector<std::unique_ptr<QueryTable>> tables;
    tables.push_back(threadTable(data));
    tables.push_back(processTable(data));
    tables.push_back(counterTrackTable(data));
    tables.push_back(counterTable(data));
    tables.push_back(flowTable(data));
    tables.push_back(kernelTable(data));
    tables.push_back(memoryTable(data));
    tables.push_back(memoryCurveTable(data));
    return tables;
}

} // namespace at::query
