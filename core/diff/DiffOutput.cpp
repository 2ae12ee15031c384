// The diff as JSON (docs/DIFF.md's schema) and as CSV: µs as exact decimals of the int64 ns.

#include "OpDiff.h"

#include "ExactText.h"
#include "JsonWriter.h"
#include "TraceQueries.h"

#include <cmath>

namespace at::diff {

namespace {

QString rowKindName(RowKind kind)
{
    switch (kind) {
    case RowKind::MatchedOp:
        return QStringLiteral("op");
    case RowKind::UnmatchedOps:
        return QStringLiteral("unmatched_ops");
    case RowKind::NotLaunched:
        return QStringLiteral("not_launched");
    case RowKind::Idle:
        return QStringLiteral("idle");
    case RowKind::Concurrent:
        break;
    }
    return QStringLiteral("concurrent");
}

QString workKindKey(DeviceWorkKind kind)
{
    switch (kind) {
    case DeviceWorkKind::Compute:
        return QStringLiteral("computing");
    case DeviceWorkKind::Communication:
        return QStringLiteral("communication");
    case DeviceWorkKind::Memory:
        return QStringLiteral("memory");
    case DeviceWorkKind::Other:
        break;
    }
    return QStringLiteral("other");
}

// "1.25" or null when infinite (only the base is 0).
void writeRatio(JsonWriter &json, double ratio)
{
    if (std::isfinite(ratio))
        json.number(ratio);
    else
        json.null();
}

QString ratioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'g', 6) : QStringLiteral("inf");
}

QStringList workNames(const OpTree &tree, const TraceModel *model, const RowSide &side)
{
    QStringList names;
    if (!model)
        return names;
    for (const int w : side.work)
        names << model->sliceName(tree.work[static_cast<std::size_t>(w)].slice);
    return names;
}

void writeHeadline(JsonWriter &json, const SideHeadline &side)
{
    json.beginObject();
    json.field(QStringLiteral("label"), side.label);
    json.microsField(QStringLiteral("step_us"), side.stepTime);
    json.microsField(QStringLiteral("computing_us"), side.computing);
    json.microsField(QStringLiteral("communication_us"), side.communication);
    json.microsField(QStringLiteral("communication_not_overlapped_us"), side.communicationNotOverlapped);
    json.microsField(QStringLiteral("memory_us"), side.memory);
    json.microsField(QStringLiteral("free_us"), side.free);
    json.integerField(QStringLiteral("ops"), static_cast<qint64>(side.opCount));
    json.integerField(QStringLiteral("device_work"), static_cast<qint64>(side.workCount));
    json.endObject();
}

void writeSide(JsonWriter &json, const RowSide &side, const QStringList &kernels)
{
    json.beginObject();
    json.integerField(QStringLiteral("count"), side.count);
    json.microsField(QStringLiteral("host_us"), side.hostNs);
    json.microsField(QStringLiteral("host_self_us"), side.hostSelfNs);
    json.microsField(QStringLiteral("device_us"), side.deviceNs);
    json.microsField(QStringLiteral("device_total_us"), side.deviceTotalNs);
    json.microsField(QStringLiteral("device_union_us"), side.deviceUnionNs);
    json.key(QStringLiteral("kernels"));
    json.beginArray();
    for (const QString &name : kernels)
        json.string(name);
    json.endArray();
    json.endObject();
}

void writeUnmatched(JsonWriter &json, const std::vector<UnmatchedOp> &ops)
{
    json.beginArray();
    for (const UnmatchedOp &op : ops) {
        json.beginObject();
        json.field(QStringLiteral("path"), op.path);
        json.field(QStringLiteral("op"), op.name);
        json.field(QStringLiteral("shapes"), op.shapes);
        json.microsField(QStringLiteral("host_us"), op.hostNs);
        json.microsField(QStringLiteral("device_us"), op.deviceNs);
        json.key(QStringLiteral("under_row"));
        if (op.underRow >= 0)
            json.integer(op.underRow);
        else
            json.null();
        json.endObject();
    }
    json.endArray();
}

void writeGroups(JsonWriter &json, const std::vector<RowGroup> &groups)
{
    json.beginArray();
    for (const RowGroup &group : groups) {
        json.beginObject();
        json.field(QStringLiteral("key"), group.key);
        json.integerField(QStringLiteral("rows"), group.rows);
        json.integerField(QStringLiteral("base_count"), group.baseCount);
        json.integerField(QStringLiteral("new_count"), group.comparisonCount);
        json.microsField(QStringLiteral("base_device_us"), group.baseDeviceNs);
        json.microsField(QStringLiteral("new_device_us"), group.comparisonDeviceNs);
        json.microsField(QStringLiteral("delta_us"), group.deltaNs);
        json.endObject();
    }
    json.endArray();
}

} // namespace

QString diffJson(const DiffResult &result, const TraceModel *baseModel, const TraceModel *comparisonModel)
{
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("base"));
    writeHeadline(json, result.base);
    json.key(QStringLiteral("new"));
    writeHeadline(json, result.comparison);
    json.field(QStringLiteral("method"), result.method);
    json.key(QStringLiteral("rows"));
    json.beginArray();
    for (const DiffRow &row : result.rows) {
        json.beginObject();
        json.field(QStringLiteral("kind"), rowKindName(row.kind));
        if (row.kind == RowKind::NotLaunched)
            json.field(QStringLiteral("work"), workKindKey(row.workKind));
        json.field(QStringLiteral("path"), row.path);
        json.field(QStringLiteral("op"), row.name);
        json.field(QStringLiteral("shapes"), row.shapes);
        if (row.comparisonShapes != row.shapes)
            json.field(QStringLiteral("new_shapes"), row.comparisonShapes);
        json.field(QStringLiteral("module"), row.module);
        json.field(QStringLiteral("phase"),
                   row.backward ? QStringLiteral("backward") : QStringLiteral("forward"));
        json.key(QStringLiteral("base"));
        writeSide(json, row.base, workNames(result.baseTree, baseModel, row.base));
        json.key(QStringLiteral("new"));
        writeSide(json, row.comparison, workNames(result.comparisonTree, comparisonModel, row.comparison));
        json.microsField(QStringLiteral("delta_us"), row.deltaNs);
        json.key(QStringLiteral("ratio"));
        writeRatio(json, row.ratio);
        json.endObject();
    }
    json.endArray();
    json.key(QStringLiteral("unmatched"));
    json.beginObject();
    json.key(QStringLiteral("base"));
    writeUnmatched(json, result.unmatchedBase);
    json.key(QStringLiteral("new"));
    writeUnmatched(json, result.unmatchedComparison);
    json.endObject();
    json.integersField(QStringLiteral("top"), result.topRows);
    json.key(QStringLiteral("by_name"));
    writeGroups(json, groupRowsByName(result));
    json.key(QStringLiteral("by_module"));
    writeGroups(json, groupRowsByModule(result));
    json.key(QStringLiteral("accumulated"));
    json.beginArray();
    for (const AccumulatedPoint &point : result.accumulated) {
        json.beginArray();
        json.micros(point.offset);
        json.micros(point.delta);
        json.integer(point.row);
        json.endArray();
    }
    json.endArray();
    json.key(QStringLiteral("warnings"));
    json.beginArray();
    for (const QString &warning : result.warnings)
        json.string(warning);
    json.endArray();
    json.endObject();
    return json.text() + QLatin1Char('\n');
}

QString diffCsv(const DiffResult &result, const TraceModel *baseModel, const TraceModel *comparisonModel)
{
    QStringList lines;
    lines << QStringLiteral(
        "kind,path,op,shapes,module,phase,base_count,base_host_us,base_device_us,"
        "base_device_total_us,new_count,new_host_us,new_device_us,new_device_total_us,delta_us,"
        "ratio,base_kernels,new_kernels");
    for (const DiffRow &row : result.rows) {
        const QString kind = row.kind == RowKind::NotLaunched
                                 ? rowKindName(row.kind) + QLatin1Char(':') + workKindKey(row.workKind)
                                 : rowKindName(row.kind);
        lines << QStringList{kind,
                             csvField(row.path),
                             csvField(row.name),
                             csvField(row.shapes),
                             csvField(row.module),
                             row.backward ? QStringLiteral("backward") : QStringLiteral("forward"),
                             QString::number(row.base.count),
                             microsText(row.base.hostNs),
                             microsText(row.base.deviceNs),
                             microsText(row.base.deviceTotalNs),
                             QString::number(row.comparison.count),
                             microsText(row.comparison.hostNs),
                             microsText(row.comparison.deviceNs),
                             microsText(row.comparison.deviceTotalNs),
                             microsText(row.deltaNs),
                             ratioText(row.ratio),
                             csvField(
                                 workNames(result.baseTree, baseModel, row.base).join(QStringLiteral(" | "))),
                             csvField(workNames(result.comparisonTree, comparisonModel, row.comparison)
                                          .join(QStringLiteral(" | ")))}
                     .join(QLatin1Char(','));
    }
    const auto unmatchedLines = [&lines](const std::vector<UnmatchedOp> &ops, const QString &kind) {
        for (const UnmatchedOp &op : ops) {
            const bool isBase = kind == QLatin1String("unmatched_base");
            lines << QStringList{kind,
                                 csvField(op.path),
                                 csvField(op.name),
                                 csvField(op.shapes),
                                 QString(),
                                 QString(),
                                 isBase ? QStringLiteral("1") : QStringLiteral("0"),
                                 isBase ? microsText(op.hostNs) : QString(),
                                 isBase ? microsText(op.deviceNs) : QString(),
                                 isBase ? microsText(op.deviceNs) : QString(),
                                 isBase ? QStringLiteral("0") : QStringLiteral("1"),
                                 isBase ? QString() : microsText(op.hostNs),
                                 isBase ? QString() : microsText(op.deviceNs),
                                 isBase ? QString() : microsText(op.deviceNs),
                                 QString(),
                                 QString(),
                                 QString(),
                                 QString()}
                         .join(QLatin1Char(','));
        }
    };
    unmatchedLines(result.unmatchedBase, QStringLiteral("unmatched_base"));
    unmatchedLines(result.unmatchedComparison, QStringLiteral("unmatched_new"));
    return lines.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n");
}

} // namespace at::diff
