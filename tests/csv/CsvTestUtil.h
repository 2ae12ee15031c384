#pragma once
// Small helpers shared by the CSV test executables.

#include "TestPaths.h"
#include "csv/CsvTable.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <string_view>

namespace csvtest {

// Samples are read in place from at::test::samplesDir() (../shared/samples next to the checkout).
inline QString samplePath(const char *relative)
{
    return (at::test::samplesDir() + QStringLiteral("/")) + QString::fromUtf8(relative);
}

inline qsizetype countIssues(const at::CsvTable &t, at::CsvIssue::Kind kind)
{
    return std::count_if(t.issues().begin(), t.issues().end(),
                         [kind](const at::CsvIssue &i) { return i.kind == kind; });
}

inline const at::CsvIssue *firstIssue(const at::CsvTable &t, at::CsvIssue::Kind kind)
{
    for (const auto &i : t.issues()) {
        if (i.kind == kind)
            return &i;
    }
    return nullptr;
}

inline QString issuesText(const at::CsvTable &t)
{
    QStringList lines;
    for (const auto &i : t.issues())
        lines << i.toString();
    return lines.join(QLatin1Char('\n'));
}

// Every row of a table as one line: source, line, byte offset and the cells, to compare a table read in
// blocks (CsvReader::parseBlocks) with the same table read whole.
inline QStringList rowsText(const at::CsvTable &t)
{
    QStringList rows;
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        QStringList cells{t.rowSource(r), QString::number(t.rowLine(r)), QString::number(t.rowByteOffset(r))};
        for (int c = 0; c < t.cellCount(r); ++c) {
            const std::string_view cell = t.cell(r, c);
            cells << QString::fromUtf8(cell.data(), static_cast<qsizetype>(cell.size()));
        }
        rows << cells.join(QLatin1Char('|'));
    }
    return rows;
}

inline QByteArray qba(std::string_view s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace csvtest
