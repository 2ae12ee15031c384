#pragma once
// A parsed CSV file: header names plus rows of text cells.
//
// Cells are stored compactly because op_summary / kernel_details tables reach 1,000,000 rows x ~50 columns:
// all cell text lives in one contiguous buffer and each cell costs one uint32 end offset (relative to its
// row), each row one small RowInfo. Cell access returns std::string_view into that buffer, so views stay
// valid as long as the table is alive and not appended to.

#include "csv/CsvBuffer.h"
#include "csv/CsvIssue.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace at {

class CsvTable
{
public:
    // Column index by header name. Tries the exact name, then its rename aliases (CsvColumns.h, e.g.
    // "Task Start Time(us)" also finds "Start Time(us)"), then the same names ignoring ASCII case.
    // Returns -1 when absent. Never look columns up by position: headers drift across versions.
    int column(std::string_view name) const;
    // Exact (case-sensitive) match only, no aliases.
    int columnExact(std::string_view name) const;
    bool hasColumn(std::string_view name) const { return column(name) >= 0; }

    const std::vector<std::string> &header() const { return header_; }
    int columnCount() const { return static_cast<int>(header_.size()); }
    std::size_t rowCount() const { return rows_.size(); }
    bool isEmpty() const { return rows_.empty(); }

    // Number of cells actually present in the row (differs from columnCount() for ragged rows).
    int cellCount(std::size_t row) const;
    // Cell text; empty for a column the (ragged) row does not have or for col < 0.
    std::string_view cell(std::size_t row, int col) const;
    std::string_view cell(std::size_t row, std::string_view columnName) const
    {
        return cell(row, column(columnName));
    }

    // Where a row starts in its source file (1-based physical line, raw byte offset) and which source it came
    // from.
    std::uint64_t rowLine(std::size_t row) const { return rows_[row].line; }
    std::uint64_t rowByteOffset(std::size_t row) const { return rows_[row].byteOffset; }
    const QString &rowSource(std::size_t row) const { return sources_[rows_[row].source]; }
    const std::vector<QString> &sources() const { return sources_; }

    const std::vector<CsvIssue> &issues() const { return issues_; }
    bool hasErrors() const;
    // Rows whose cell count differs from the header (all of them are kept). A table read in blocks
    // (CsvReader::parseBlocks) counts those of every block so far.
    std::size_t raggedRowCount() const { return raggedRows_; }

    // Appends the rows of `other` (e.g. the next CSV slice). Identical headers take a fast bulk path;
    // otherwise cells are remapped by column name and a HeaderMismatch warning is recorded. Issues are
    // carried over. Row line numbers / byte offsets stay relative to each row's own source.
    void append(const CsvTable &other);

    // Approximate heap usage, for diagnostics and the 1M-row budget.
    std::size_t memoryBytes() const;

private:
    friend class CsvTableBuilder;

    struct RowInfo
    {
        std::uint64_t textBase = 0;  // first byte of the row in text_
        std::uint64_t firstCell = 0; // index of the row's first entry in cellEnds_
        std::uint64_t byteOffset = 0;
        std::uint32_t line = 0;
        std::uint32_t source = 0; // index into sources_
    };

    // Appends the rows of `other` with their cells remapped to this table's columns by name (a column
    // `other` lacks is empty); their source indexes are shifted by `sourceBase`.
    void appendRowsByName(const CsvTable &other, std::uint32_t sourceBase);

    std::size_t cellEnd(std::size_t row) const
    {
        return row + 1 < rows_.size() ? rows_[row + 1].firstCell : cellEnds_.size();
    }

    std::vector<std::string> header_;
    detail::PodBuffer<char> text_;
    detail::PodBuffer<std::uint32_t> cellEnds_;
    detail::PodBuffer<RowInfo> rows_;
    std::vector<QString> sources_;
    std::vector<CsvIssue> issues_;
    std::size_t raggedRows_ = 0;
};

// Low-level access for the reader and CsvTable::append. The reader writes cell text straight into
// text() through a raw pointer (see CsvReader.cpp), so this class only exposes the buffers and a few helpers.
class CsvTableBuilder
{
public:
    using RowInfo = CsvTable::RowInfo;

    explicit CsvTableBuilder(CsvTable &table) : t_(table) {}

    detail::PodBuffer<char> &text() { return t_.text_; }
    detail::PodBuffer<std::uint32_t> &cellEnds() { return t_.cellEnds_; }
    detail::PodBuffer<RowInfo> &rows() { return t_.rows_; }

    std::uint32_t addSource(const QString &name)
    {
        t_.sources_.push_back(name);
        return static_cast<std::uint32_t>(t_.sources_.size() - 1);
    }
    // Turns the trailing cells (text from text()[textBase], offsets from cellEnds()[firstCell]) into the
    // header (names trimmed of blanks, so a stray TAB cannot break lookup) and removes them from the buffers.
    void rowToHeader(std::size_t textBase, std::size_t firstCell);
    // For files without a header row: n columns with empty names (name lookup finds nothing).
    void setUnnamedHeader(std::size_t n) { t_.header_.assign(n, std::string()); }
    void setHeader(std::vector<std::string> header) { t_.header_ = std::move(header); }
    // Drops the rows (and their text and cells) but keeps the capacity, the header, sources and issues:
    // a table read in blocks reuses its buffers for the next block.
    void clearRows()
    {
        t_.text_.resize(0);
        t_.cellEnds_.resize(0);
        t_.rows_.resize(0);
    }
    // The rows of `other` remapped to this table's columns by name (CsvTable::append's slow path).
    void appendRowsByName(const CsvTable &other, std::uint32_t sourceBase)
    {
        t_.appendRowsByName(other, sourceBase);
    }
    void addRagged(std::size_t n) { t_.raggedRows_ += n; }
    void addIssue(CsvIssue issue) { t_.issues_.push_back(std::move(issue)); }
    void countRagged() { ++t_.raggedRows_; }
    const CsvTable &table() const { return t_; }

private:
    CsvTable &t_;
};

} // namespace at
