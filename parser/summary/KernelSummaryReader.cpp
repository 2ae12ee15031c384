#include "KernelSummaryReader.h"

#include "csv/CsvMetrics.h"
#include "csv/CsvReader.h"
#include "csv/CsvSlices.h"
#include "csv/CsvValues.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace at {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

std::int64_t intOrNone(std::string_view cell)
{
    const auto parsed = csv::parseInt64(cell);
    return parsed.ok() ? parsed.value : KernelRecord::kNone;
}

// Shapes cells carry their own quotes ("\"32,3,224,224;4096;\""); show them without.
std::string_view unquoted(std::string_view cell)
{
    cell = csv::trimCell(cell);
    while (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
        cell = cell.substr(1, cell.size() - 2);
    return cell;
}

// Whether a stop ended reading one of the table's slices early.
bool stoppedEarly(const CsvTable &table)
{
    for (const CsvIssue &issue : table.issues())
        if (issue.kind == CsvIssue::Kind::Stopped)
            return true;
    return false;
}

CsvTable readTable(const QStringList &files, const std::atomic<bool> *stop, bool *stopped)
{
    CsvOptions options;
    options.stop = stop;
    CsvTable table = readCsvSlices(sortCsvSlices(files), CsvReader(options));
    if (stopped)
        *stopped = stoppedEarly(table);
    return table;
}

} // namespace

std::size_t readKernelSummary(const QStringList &files, int group, TraceBuilder &builder,
                              const std::atomic<bool> *stop, bool *stopped)
{
    if (files.isEmpty())
        return 0;
    const CsvTable table = readTable(files, stop, stopped);
    const QString name = files.size() == 1 ? files.first()
                                           : QCoreApplication::translate("Parser", "%1 (+%2 slices)")
                                                 .arg(files.first())
                                                 .arg(files.size() - 1);
    for (const CsvIssue &issue : table.issues())
        builder.addWarning(issue.toString());
    const int nameCol = table.column("Name");
    const int startCol = table.column("Start Time(us)");
    if (nameCol < 0 || startCol < 0) {
        builder.addWarning(
            QCoreApplication::translate(
                "Parser", "%1: not a kernel table (no Name / Start Time column); AI Core metrics skipped")
                .arg(name));
        return 0;
    }
    const int typeCol = table.column("Type");
    const int coreCol = table.column("Accelerator Core");
    const int durCol = table.column("Duration(us)");
    const int waitCol = table.column("Wait Time(us)");
    const int streamCol = table.column("Stream ID");
    const int taskCol = table.column("Task ID");
    const int contextCol = table.column("Context ID");
    const int blockCol = table.column("Block Dim");
    const int shapesCol = table.column("Input Shapes");
    const int typesCol = table.column("Input Data Types");
    const int stepCol = table.column("Step Id");
    const int opStateCol = table.column("OP State");
    const int mixBlockCol = table.column("Mix Block Dim");

    const MetricLayout layout = detectMetricColumns(table);
    KernelTable &kernels = builder.kernels();
    std::vector<int> metricIndex;
    for (const MetricColumn &m : layout.metrics) {
        KernelMetricColumn column;
        column.header = qs(m.header);
        column.name = qs(m.name);
        column.core = m.side == CoreSide::Aic   ? QStringLiteral("aic")
                      : m.side == CoreSide::Aiv ? QStringLiteral("aiv")
                                                : QString();
        column.unit = qs(metricUnitText(m.unit));
        metricIndex.push_back(kernels.addColumn(column));
    }
    if (layout.group != MetricGroup::None) {
        kernels.setMetricGroup(group, qs(metricGroupName(layout.group)));
    }

    StringPool &strings = builder.strings();
    auto intern = [&](int col, std::size_t row) -> StringId {
        return col < 0 ? 0 : strings.intern(unquoted(table.cell(row, col)));
    };
    std::size_t badTimes = 0, read = 0;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        const auto start = csv::parseTimestampUsToNs(table.cell(r, startCol));
        if (!start.ok()) {
            ++badTimes;
            continue;
        }
        KernelRecord k;
        k.group = group;
        k.start = start.value; // absolute; made relative in build()
        k.duration = durCol < 0 ? 0 : csv::parseDurationUsToNs(table.cell(r, durCol)).valueOr(0);
        k.wait = waitCol < 0 ? 0 : csv::parseDurationUsToNs(table.cell(r, waitCol)).valueOr(0);
        k.name = intern(nameCol, r);
        k.type = intern(typeCol, r);
        k.acceleratorCore = intern(coreCol, r);
        k.inputShapes = intern(shapesCol, r);
        k.inputTypes = intern(typesCol, r);
        k.streamId = streamCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, streamCol));
        k.taskId = taskCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, taskCol));
        k.contextId = contextCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, contextCol));
        k.blockDim = blockCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, blockCol));
        k.stepId = stepCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, stepCol));
        k.opState = intern(opStateCol, r);
        k.mixBlockDim = mixBlockCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, mixBlockCol));
        const std::size_t row = kernels.addRow(k);
        for (std::size_t m = 0; m < layout.metrics.size(); ++m) {
            const auto value = csv::parseDouble(table.cell(r, layout.metrics[m].column));
            if (value.ok())
                kernels.setMetric(row, metricIndex[m], value.value);
        }
        ++read;
    }
    if (badTimes)
        builder.addWarning(
            QCoreApplication::translate("Parser", "%1: %2 rows without a readable start time were skipped")
                .arg(name)
                .arg(badTimes));
    return read;
}

} // namespace at

namespace at {

QStringList plainSummaryTypes()
{
    return {QStringLiteral("step_trace_time"), QStringLiteral("step_trace"),
            QStringLiteral("op_statistic"),    QStringLiteral("api_statistic"),
            QStringLiteral("task_time"),       QStringLiteral("aicpu"),
            QStringLiteral("l2_cache"),        QStringLiteral("communication_statistic")};
}

std::size_t readSummaryTable(const QString &type, const QStringList &files, int group, TraceBuilder &builder,
                             const std::atomic<bool> *stop, bool *stopped)
{
    if (files.isEmpty())
        return 0;
    const CsvTable table = readTable(files, stop, stopped);
    for (const CsvIssue &issue : table.issues())
        builder.addWarning(issue.toString());
    SummaryTable out;
    out.group = group;
    out.type = type;
    out.files = files;
    for (const std::string &h : table.header())
        out.header << QString::fromStdString(h);
    out.cells.reserve(table.rowCount() * static_cast<std::size_t>(out.header.size()));
    for (std::size_t r = 0; r < table.rowCount(); ++r)
        for (int c = 0; c < out.header.size(); ++c)
            out.cells.push_back(qs(csv::trimCell(table.cell(r, c))));
    const std::size_t rows = out.rowCount();
    builder.addSummaryTable(std::move(out));
    return rows;
}

} // namespace at
