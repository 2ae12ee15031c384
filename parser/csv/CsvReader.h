#pragma once
// RFC 4180 reader for the msprof / torch_npu summary CSVs (FORMATS.md §3.1).
//
// Handles: quoted fields with embedded LF / CRLF, doubled quotes, LF / CRLF / lone CR line endings (mixed),
// a UTF-8 BOM, a missing final newline, ragged rows (kept and reported) and input that ends inside a quoted
// field (complete rows kept, the partial one dropped and reported). Blank lines between records are skipped;
// a writer must emit `""` for a row that is a single empty cell.
//
// The hot loop does not allocate per cell: cell text is appended to the table's single buffer, which is
// reserved up front from the input size.

#include "csv/CsvTable.h"

#include <QString>

#include <atomic>

#include <cstddef>
#include <functional>
#include <string_view>

namespace at {

class MappedFile;

struct CsvOptions
{
    char delimiter = ',';
    // false: every record is data; the table gets unnamed columns (as many as the first row has cells).
    bool hasHeader = true;
    // Trim spaces / TABs around every cell (torch_npu appends a TAB to absolute timestamps). Off by default
    // so cells round-trip exactly; the value helpers in CsvValues.h trim anyway.
    bool trimCells = false;
    // Ragged rows and text-after-quote are reported individually up to this count, then summarised.
    int maxIssuesPerKind = 20;
    // The widest header accepted. The widest profiler table has ~60 columns; a file with more columns than
    // this is not one of them (or is damaged), and is refused with an error naming it instead of being read.
    static constexpr std::size_t kMaxColumns = 4096;
    std::size_t maxColumns = kMaxColumns;
    // When given, polled every kStopCheckRows rows (e.g. LoadControl::stopReading, set by a cancel or the
    // memory guard): once set, reading ends there, the rows before are kept and a Stopped warning says where.
    const std::atomic<bool> *stop = nullptr;
    static constexpr std::size_t kStopCheckRows = 8192;
};

// Gets each block of rows of a table read in blocks: a table holding the header and the block's rows (their
// lines, byte offsets and source as in the file), valid until the call returns.
using CsvBlockSink = std::function<void(const CsvTable &block)>;

class CsvReader
{
public:
    explicit CsvReader(CsvOptions options = {}) : options_(options) {}

    // Parses a memory buffer. `sourceName` only labels issues and rows.
    CsvTable parse(std::string_view data, const QString &sourceName = QString()) const;

    // Memory-maps `path` read-only (falls back to a plain read when mapping is impossible) and parses it.
    // A file that cannot be opened yields an empty table with a FileError issue.
    CsvTable readFile(const QString &path) const;

    // Reading in blocks (a big kernel table, issue 21): the rows are handed to `sink` at most `blockRows` at
    // a time and dropped before the next block is parsed, so memory holds one block instead of the whole
    // table. The rows, issues (with their line numbers and byte offsets), the stop and the messages are those
    // parse() / readFile() give. Returns the header, sources and issues without rows.
    CsvTable parseBlocks(std::string_view data, const QString &sourceName, std::size_t blockRows,
                         const CsvBlockSink &sink) const;
    // Also gives back the pages of the mapping each block was read from (they are re-read from the file if
    // touched again, e.g. by a row's args reader), so the resident file does not grow with the table.
    CsvTable readMappedInBlocks(const MappedFile &file, std::size_t blockRows,
                                const CsvBlockSink &sink) const;
    // readFile in blocks: maps `path` and reads it with readMappedInBlocks.
    CsvTable readFileInBlocks(const QString &path, std::size_t blockRows, const CsvBlockSink &sink) const;

    // The table readFile returns for a file that cannot be opened: no rows, a FileError issue with `error`.
    static CsvTable openError(const QString &path, const QString &error);

    const CsvOptions &options() const { return options_; }

private:
    CsvOptions options_;
};

} // namespace at
