#include "cluster/MoeLoadReader.h"

#include "cluster/ClusterNumbers.h"
#include "cluster/MoeLoad.h"
#include "common/MappedFile.h"
#include "csv/CsvColumns.h"
#include "csv/CsvReader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string_view>

namespace at::cluster {

namespace {

constexpr std::string_view kNeedle = "GroupedMatmul";

// The columns a grouped-matmul row needs, found by name in the table's header (-1: absent).
struct KernelColumns
{
    int type = -1, name = -1, step = -1, shapes = -1, start = -1, duration = -1;
};

KernelColumns columnsOf(const CsvTable &header)
{
    KernelColumns c;
    c.type = header.column(csvcol::OpType);
    c.name = header.column(csvcol::OpName);
    c.step = header.column(csvcol::StepId);
    c.shapes = header.column(csvcol::InputShapes);
    c.start = header.column(csvcol::TaskStartTime);
    c.duration = header.column(csvcol::TaskDuration);
    return c;
}

QString cellText(const CsvTable &row, int column)
{
    return QString::fromUtf8(row.cell(0, column)).trimmed();
}

// Rows of one file, summed per step, and the rows whose Input Shapes could not be read.
class GroupedMatmulSums
{
public:
    explicit GroupedMatmulSums(KernelColumns columns) : m_columns(columns) {}

    // One CSV line (without its newline); line: its 1-based line number in the file.
    void addLine(std::string_view text, std::uint64_t line)
    {
        CsvOptions options;
        options.hasHeader = false;
        const CsvTable row = CsvReader(options).parse(text);
        if (row.rowCount() != 1)
            return;
        const QString type = m_columns.type >= 0 ? cellText(row, m_columns.type) : QString();
        const QString name = m_columns.name >= 0 ? cellText(row, m_columns.name) : QString();
        if (!isGroupedMatmul(type) && !isGroupedMatmul(name))
            return; // the word was in another cell
        const std::optional<std::int64_t> tokens =
            m_columns.shapes >= 0 ? firstInputRows(cellText(row, m_columns.shapes)) : std::nullopt;
        if (!tokens) {
            if (m_badRows++ == 0)
                m_firstBadLine = line;
            return;
        }
        bool stepOk = false;
        const qint64 step = m_columns.step >= 0 ? cellText(row, m_columns.step).toLongLong(&stepOk) : 0;
        GroupedMatmulStep &sum = m_byStep[stepOk ? step : kNoStep];
        sum.step = stepOk ? step : kNoStep;
        const TimeNs start =
            m_columns.start >= 0
                ? parseDecimalToNs(row.cell(0, m_columns.start), TimeUnit::Microseconds).value_or(0)
                : 0;
        const TimeNs duration =
            m_columns.duration >= 0
                ? parseDecimalToNs(row.cell(0, m_columns.duration), TimeUnit::Microseconds).value_or(0)
                : 0;
        if (sum.calls == 0 || *tokens > m_largest[sum.step]) {
            m_largest[sum.step] = *tokens;
            sum.largestStart = start;
            sum.largestName = name.isEmpty() ? type : name;
        }
        sum.tokens += *tokens;
        sum.time += std::max<TimeNs>(0, duration);
        ++sum.calls;
    }

    std::vector<GroupedMatmulStep> steps() const
    {
        std::vector<GroupedMatmulStep> out;
        for (const auto &[step, sum] : m_byStep)
            out.push_back(sum);
        return out; // ascending: std::map order
    }
    int badRows() const { return m_badRows; }
    std::uint64_t firstBadLine() const { return m_firstBadLine; }

private:
    KernelColumns m_columns;
    std::map<std::int64_t, GroupedMatmulStep> m_byStep;
    std::map<std::int64_t, std::int64_t> m_largest; // the most tokens of one call per step
    int m_badRows = 0;
    std::uint64_t m_firstBadLine = 0;
};

std::string_view lineAround(std::string_view data, std::size_t hit, std::size_t from)
{
    const std::size_t newline = data.rfind('\n', hit);
    const std::size_t begin = newline == std::string_view::npos || newline < from ? from : newline + 1;
    std::size_t end = data.find('\n', hit);
    if (end == std::string_view::npos)
        end = data.size();
    std::string_view line = data.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    return line;
}

} // namespace

void readGroupedMatmulRows(const QString &kernelTable, Rank &rank, QStringList &warnings)
{
    if (!QFileInfo(kernelTable).isFile())
        return;
    QString error;
    const std::unique_ptr<MappedFile> file = MappedFile::open(kernelTable, &error);
    if (!file) {
        warnings << QCoreApplication::translate("Parser", "%1: cannot be read for the MoE load (%2)")
                        .arg(kernelTable, error);
        return;
    }
    const std::string_view data(file->data(), file->size());
    const std::size_t headerEnd = std::min(data.find('\n'), data.size());
    const CsvTable header = CsvReader().parse(data.substr(0, headerEnd));
    const KernelColumns columns = columnsOf(header);
    GroupedMatmulSums sums(columns);
    std::size_t from = std::min(headerEnd + 1, data.size());
    std::uint64_t line = 1; // the line number of `from`, counted only as far as the hits
    std::size_t counted = 0;
    for (std::size_t hit = data.find(kNeedle, from); hit != std::string_view::npos;
         hit = data.find(kNeedle, from)) {
        const std::string_view text = lineAround(data, hit, from);
        const auto begin = static_cast<std::size_t>(text.data() - data.data());
        line +=
            static_cast<std::uint64_t>(std::count(data.begin() + static_cast<std::ptrdiff_t>(counted),
                                                  data.begin() + static_cast<std::ptrdiff_t>(begin), '\n'));
        counted = begin;
        sums.addLine(text, line);
        from = std::min(begin + text.size() + 1, data.size());
    }
    if (columns.shapes < 0 && sums.badRows() > 0) {
        warnings << QCoreApplication::translate(
                        "Parser",
                        "%1: no Input Shapes column; the tokens of its %n GroupedMatmul row(s) are "
                        "unknown (export with record_shapes=True)",
                        nullptr, sums.badRows())
                        .arg(kernelTable);
    } else if (sums.badRows() > 0) {
        warnings << QCoreApplication::translate("Parser",
                                                "%1: %n GroupedMatmul row(s) with an Input Shapes that is no "
                                                "shape list (first at line %2); left out of the MoE load",
                                                nullptr, sums.badRows())
                        .arg(kernelTable)
                        .arg(sums.firstBadLine());
    }
    rank.groupedMatmul = sums.steps();
}

void readMoeLoad(ClusterModel &model)
{
    if (!hasExpertParallelGroup(model))
        return;
    for (Rank &rank : model.ranks) {
        if (rank.folder.isEmpty())
            continue;
        const QString table =
            QDir(rank.folder).filePath(QStringLiteral("ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
        readGroupedMatmulRows(table, rank, model.warnings);
    }
}

} // namespace at::cluster
