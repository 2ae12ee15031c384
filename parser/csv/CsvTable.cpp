#include "csv/CsvTable.h"

#include "csv/CsvColumns.h"

#include <QCoreApplication>

#include <algorithm>

namespace at {
namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        unsigned char x = static_cast<unsigned char>(a[i]);
        unsigned char y = static_cast<unsigned char>(b[i]);
        if (x >= 'A' && x <= 'Z')
            x = static_cast<unsigned char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = static_cast<unsigned char>(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

} // namespace

QString CsvIssue::toString() const
{
    const QString sev = severity == Severity::Error ? QCoreApplication::translate("Parser", "error")
                                                    : QCoreApplication::translate("Parser", "warning");
    return QStringLiteral("%1:%2: %3: %4 (byte %5)").arg(file).arg(line).arg(sev, message).arg(byteOffset);
}

int CsvTable::columnExact(std::string_view name) const
{
    for (std::size_t i = 0; i < header_.size(); ++i) {
        if (header_[i] == name)
            return static_cast<int>(i);
    }
    return -1;
}

int CsvTable::column(std::string_view name) const
{
    if (const int c = columnExact(name); c >= 0)
        return c;
    const auto aliases = csvcol::columnAliases(name);
    for (std::string_view alias : aliases) {
        if (const int c = columnExact(alias); c >= 0)
            return c;
    }
    // Last resort: case drift such as "Stream Id" vs "Stream ID" that no alias group lists.
    for (std::size_t i = 0; i < header_.size(); ++i) {
        if (equalsIgnoreCase(header_[i], name))
            return static_cast<int>(i);
        for (std::string_view alias : aliases) {
            if (equalsIgnoreCase(header_[i], alias))
                return static_cast<int>(i);
        }
    }
    return -1;
}

int CsvTable::cellCount(std::size_t row) const
{
    return static_cast<int>(cellEnd(row) - rows_[row].firstCell);
}

std::string_view CsvTable::cell(std::size_t row, int col) const
{
    const RowInfo &r = rows_[row];
    const std::size_t idx = r.firstCell + static_cast<std::size_t>(col);
    if (col < 0 || idx >= cellEnd(row))
        return {};
    const std::uint32_t begin = col == 0 ? 0 : cellEnds_[idx - 1];
    return std::string_view(text_.data() + r.textBase + begin, cellEnds_[idx] - begin);
}

bool CsvTable::hasErrors() const
{
    return std::any_of(issues_.begin(), issues_.end(), [](const CsvIssue &i) { return i.isError(); });
}

std::size_t CsvTable::memoryBytes() const
{
    std::size_t n = text_.capacity() + cellEnds_.capacity() * sizeof(std::uint32_t) +
                    rows_.capacity() * sizeof(RowInfo) + issues_.capacity() * sizeof(CsvIssue);
    for (const auto &h : header_)
        n += h.capacity();
    return n;
}

void CsvTable::append(const CsvTable &other)
{
    if (&other == this) { // the bulk copy below must not read from the buffers it grows
        const CsvTable copy = other;
        append(copy);
        return;
    }
    const auto sourceBase = static_cast<std::uint32_t>(sources_.size());
    sources_.insert(sources_.end(), other.sources_.begin(), other.sources_.end());
    issues_.insert(issues_.end(), other.issues_.begin(), other.issues_.end());
    if (header_.empty() && rows_.empty())
        header_ = other.header_;

    if (other.header_ == header_) {
        // Fast path (the normal case for slices): copy the text and offsets in bulk, rebasing row records.
        const std::uint64_t textBase = text_.size();
        const std::uint64_t cellBase = cellEnds_.size();
        text_.append(other.text_.data(), other.text_.size());
        cellEnds_.append(other.cellEnds_.data(), other.cellEnds_.size());
        rows_.reserve(rows_.size() + other.rows_.size());
        for (std::size_t i = 0; i < other.rows_.size(); ++i) {
            RowInfo r = other.rows_[i];
            r.textBase += textBase;
            r.firstCell += cellBase;
            r.source += sourceBase;
            rows_.push_back(r);
        }
        raggedRows_ += other.raggedRows_;
        return;
    }

    CsvIssue issue;
    issue.kind = CsvIssue::Kind::HeaderMismatch;
    issue.file = other.sources_.empty() ? QString() : other.sources_.front();
    issue.line = 1;
    issue.message = QCoreApplication::translate(
                        "Parser", "header differs from the first file; %1 rows remapped by column name")
                        .arg(other.rowCount());
    issues_.push_back(issue);
    appendRowsByName(other, sourceBase);
}

void CsvTable::appendRowsByName(const CsvTable &other, std::uint32_t sourceBase)
{
    // Map each of our columns to the other table's column of the same name.
    std::vector<int> map(header_.size(), -1);
    for (std::size_t i = 0; i < header_.size(); ++i)
        map[i] = other.column(header_[i]);
    for (std::size_t r = 0; r < other.rowCount(); ++r) {
        RowInfo row = other.rows_[r];
        row.textBase = text_.size();
        row.firstCell = cellEnds_.size();
        row.source += sourceBase;
        for (int m : map) {
            const std::string_view v = other.cell(r, m);
            text_.append(v.data(), v.size());
            cellEnds_.push_back(static_cast<std::uint32_t>(text_.size() - row.textBase));
        }
        rows_.push_back(row);
    }
}

void CsvTableBuilder::rowToHeader(std::size_t textBase, std::size_t firstCell)
{
    t_.header_.clear();
    std::uint32_t begin = 0;
    for (std::size_t i = firstCell; i < t_.cellEnds_.size(); ++i) {
        const std::uint32_t end = t_.cellEnds_[i];
        std::string_view name(t_.text_.data() + textBase + begin, end - begin);
        while (!name.empty() && isBlank(name.front()))
            name.remove_prefix(1);
        while (!name.empty() && (isBlank(name.back()) || name.back() == '\r'))
            name.remove_suffix(1);
        t_.header_.emplace_back(name);
        begin = end;
    }
    t_.text_.resize(textBase);
    t_.cellEnds_.resize(firstCell);
}

} // namespace at
