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

KernelTableBlocks::KernelTableBlocks(const QStringList &files, int group, TraceBuilder &builder)
    : m_name(files.isEmpty()     ? QString()
             : files.size() == 1 ? files.first()
                                 : QCoreApplication::translate("Parser", "%1 (+%2 slices)")
                                       .arg(files.first())
                                       .arg(files.size() - 1)),
      m_firstFile(files.isEmpty() ? QString() : files.first()), m_group(group), m_builder(builder)
{}

void KernelTableBlocks::setUp(const CsvTable &table)
{
    if (m_setUp)
        return;
    m_setUp = true;
    m_nameCol = table.column("Name");
    m_startCol = table.column("Start Time(us)");
    m_kernelTable = m_nameCol >= 0 && m_startCol >= 0;
    if (!m_kernelTable)
        return;
    m_typeCol = table.column("Type");
    m_coreCol = table.column("Accelerator Core");
    m_durCol = table.column("Duration(us)");
    m_waitCol = table.column("Wait Time(us)");
    m_streamCol = table.column("Stream ID");
    m_taskCol = table.column("Task ID");
    m_contextCol = table.column("Context ID");
    m_blockCol = table.column("Block Dim");
    m_shapesCol = table.column("Input Shapes");
    m_typesCol = table.column("Input Data Types");
    m_stepCol = table.column("Step Id");
    m_opStateCol = table.column("OP State");
    m_mixBlockCol = table.column("Mix Block Dim");

    m_layout = detectMetricColumns(table);
    KernelTable &kernels = m_builder.kernels();
    for (const MetricColumn &m : m_layout.metrics) {
        KernelMetricColumn column;
        column.header = qs(m.header);
        column.name = qs(m.name);
        column.core = m.side == CoreSide::Aic   ? QStringLiteral("aic")
                      : m.side == CoreSide::Aiv ? QStringLiteral("aiv")
                                                : QString();
        column.unit = qs(metricUnitText(m.unit));
        m_metricIndex.push_back(kernels.addColumn(column));
    }
    if (m_layout.group != MetricGroup::None) {
        kernels.setMetricGroup(m_group, qs(metricGroupName(m_layout.group)));
    }
}

void KernelTableBlocks::add(const CsvTable &fileBlock)
{
    const CsvTable &rows = m_join.rows(fileBlock);
    setUp(rows);
    if (m_kernelTable)
        convert(rows);
}

void KernelTableBlocks::convert(const CsvTable &table)
{
    KernelTable &kernels = m_builder.kernels();
    StringPool &strings = m_builder.strings();
    auto intern = [&](int col, std::size_t row) -> StringId {
        return col < 0 ? 0 : strings.intern(unquoted(table.cell(row, col)));
    };
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        const auto start = csv::parseTimestampUsToNs(table.cell(r, m_startCol));
        if (!start.ok()) {
            ++m_badTimes;
            continue;
        }
        KernelRecord k;
        k.group = m_group;
        k.start = start.value; // absolute; made relative in build()
        k.duration = m_durCol < 0 ? 0 : csv::parseDurationUsToNs(table.cell(r, m_durCol)).valueOr(0);
        k.wait = m_waitCol < 0 ? 0 : csv::parseDurationUsToNs(table.cell(r, m_waitCol)).valueOr(0);
        k.name = intern(m_nameCol, r);
        k.type = intern(m_typeCol, r);
        k.acceleratorCore = intern(m_coreCol, r);
        k.inputShapes = intern(m_shapesCol, r);
        k.inputTypes = intern(m_typesCol, r);
        k.streamId = m_streamCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, m_streamCol));
        k.taskId = m_taskCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, m_taskCol));
        k.contextId = m_contextCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, m_contextCol));
        k.blockDim = m_blockCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, m_blockCol));
        k.stepId = m_stepCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, m_stepCol));
        k.opState = intern(m_opStateCol, r);
        k.mixBlockDim = m_mixBlockCol < 0 ? KernelRecord::kNone : intOrNone(table.cell(r, m_mixBlockCol));
        const std::size_t row = kernels.addRow(k);
        for (std::size_t m = 0; m < m_layout.metrics.size(); ++m) {
            const auto value = csv::parseDouble(table.cell(r, m_layout.metrics[m].column));
            if (value.ok())
                kernels.setMetric(row, m_metricIndex[m], value.value);
        }
        ++m_read;
    }
}

void KernelTableBlocks::endFile(const CsvTable &rest)
{
    m_join.endFile(rest);
    if (m_firstHeader.isEmpty() && !rest.sources().empty() && rest.sources().front() == m_firstFile)
        for (const std::string &cell : rest.header()) // as config::readCsvHeader gives it
            m_firstHeader << QString::fromUtf8(cell.data(), qsizetype(cell.size())).trimmed();
}

bool KernelTableBlocks::stopped() const
{
    return stoppedEarly(m_join.table());
}

std::size_t KernelTableBlocks::finish()
{
    for (const CsvIssue &issue : m_join.table().issues())
        m_builder.addWarning(issue.toString());
    setUp(m_join.table()); // a table without rows still has its metric columns
    if (!m_kernelTable) {
        m_builder.addWarning(
            QCoreApplication::translate(
                "Parser", "%1: not a kernel table (no Name / Start Time column); AI Core metrics skipped")
                .arg(m_name));
        return 0;
    }
    if (m_badTimes)
        m_builder.addWarning(
            QCoreApplication::translate("Parser", "%1: %2 rows without a readable start time were skipped")
                .arg(m_name)
                .arg(m_badTimes));
    return m_read;
}

std::size_t readKernelSummary(const QStringList &files, int group, TraceBuilder &builder,
                              const std::atomic<bool> *stop, bool *stopped, QStringList *firstHeader)
{
    if (files.isEmpty())
        return 0;
    CsvOptions options;
    options.stop = stop;
    const CsvReader reader(options);
    KernelTableBlocks blocks(files, group, builder);
    for (const QString &file : sortCsvSlices(files))
        blocks.endFile(reader.readFileInBlocks(file, KernelTableBlocks::kBlockRows,
                                               [&](const CsvTable &block) { blocks.add(block); }));
    const std::size_t read = blocks.finish();
    if (stopped)
        *stopped = blocks.stopped();
    if (firstHeader)
        *firstHeader = blocks.firstFileHeader();
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
