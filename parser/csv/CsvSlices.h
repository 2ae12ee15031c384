#pragma once
// msprof splits big summaries into `<type>_slice_<k>_<timestamp>.csv` (k = 0, 1, ...). Each slice repeats the
// header. These helpers put the slices back together in k order (FORMATS.md §3.1 "Slicing").

#include "csv/CsvReader.h"

#include <QString>
#include <QStringList>

namespace at {

// k of "<type>_slice_<k>_<ts>.csv" (directory part ignored), or -1 when the name is not a slice name.
int csvSliceIndex(const QString &path);

// Stable sort by slice index (numeric, so _slice_10_ follows _slice_9_); non-slice names keep their order
// first.
QStringList sortCsvSlices(QStringList paths);

// Reads every path (in slice order) and concatenates the rows into one table. The header comes from the
// first slice; the repeated headers of later slices are dropped (a differing one is remapped by column name
// and reported). Issues of every slice are kept, each naming its own file.
CsvTable readCsvSlices(const QStringList &paths, const CsvReader &reader = CsvReader());

// readCsvSlices for a table read in blocks of rows (CsvReader::readFileInBlocks), file by file: makes each
// file's blocks rows of the joined table (the first slice's header; a slice with another header is remapped
// by column name) and gathers what readCsvSlices would hold besides the rows: header, sources, issues (a
// HeaderMismatch per such slice, counting its rows), in the same order.
class CsvSliceJoin
{
public:
    // A block of the current file as rows of the joined table: the block itself when the headers agree,
    // else a copy remapped by column name (valid until the next call).
    const CsvTable &rows(const CsvTable &fileBlock);
    // Ends the current file: `rest` is what reading it returned (its header, source and issues).
    void endFile(const CsvTable &rest);
    // The joined table without rows: the header, every slice's source and every issue.
    const CsvTable &table() const { return m_joined; }
    std::size_t rowCount() const { return m_rows; }

private:
    void takeHeader(const CsvTable &file);

    CsvTable m_joined;
    CsvTable m_remapped;
    bool m_headerTaken = false; // for the current file
    bool m_sameHeader = true;
    std::size_t m_fileRows = 0;
    std::size_t m_rows = 0;
};

// Reads every path (in slice order) in blocks of at most blockRows rows, each handed to `sink` as rows of
// the joined table. Returns the joined table without rows.
CsvTable readCsvSlicesInBlocks(const QStringList &paths, const CsvReader &reader, std::size_t blockRows,
                               const CsvBlockSink &sink);

} // namespace at
