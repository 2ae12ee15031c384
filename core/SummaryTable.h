#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace at {

// A summary CSV other than the kernel table (op_statistic, api_statistic, task_time, aicpu,
// l2_cache, step_trace(_time), ...), kept as text for the Tables panel and scripts.
struct SummaryTable
{
    int group = 0;     // source group it belongs to
    QString type;      // "op_statistic", "step_trace_time", ...
    QStringList files; // the CSV (slices in order)
    QStringList header;
    std::vector<QString> cells; // row-major, header.size() cells a row (missing cells empty)

    std::size_t rowCount() const
    {
        return header.isEmpty() ? 0 : cells.size() / static_cast<std::size_t>(header.size());
    }
    const QString &cell(std::size_t row, int column) const
    {
        return cells[row * static_cast<std::size_t>(header.size()) + static_cast<std::size_t>(column)];
    }
    int column(const QString &name) const { return static_cast<int>(header.indexOf(name)); }
};

} // namespace at
