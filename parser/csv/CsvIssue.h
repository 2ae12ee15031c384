#pragma once
// Diagnostics produced while reading a CSV file. Issues are rare, so they use Qt strings freely.

#include <QString>

#include <cstdint>

namespace at {

struct CsvIssue
{
    enum class Severity : std::uint8_t
    {
        Warning,
        Error
    };

    // Kind lets callers (and tests) react to a class of problem without matching message text.
    enum class Kind : std::uint8_t
    {
        FileError,        // cannot open / map / read the file
        EmptyFile,        // no bytes, or only blank lines
        RaggedRow,        // a row has fewer or more cells than the header
        TruncatedQuote,   // input ends inside a quoted field; that incomplete row was dropped
        TextAfterQuote,   // characters between a closing quote and the next delimiter (kept)
        SuspiciousHeader, // header has one column with ';' / TAB in it, or looks like data
        DuplicateColumn,  // two header cells with the same name (lookup returns the first)
        HeaderMismatch,   // a later CSV slice has a different header (rows remapped by name)
        RowTooLong,       // a single row over 4 GiB of text (dropped)
        HeaderTooWide,    // the first row has more than CsvOptions::maxColumns cells (file not read)
        Stopped,          // CsvOptions::stop was set: reading ended early, the rows before are kept
    };

    Severity severity = Severity::Warning;
    Kind kind = Kind::FileError;
    QString file;                 // file path or the name given to CsvReader::parse
    std::uint64_t byteOffset = 0; // offset into the raw input (a BOM counts)
    std::uint64_t line = 0;       // 1-based physical line number, 0 when not applicable
    QString message;

    bool isError() const { return severity == Severity::Error; }
    // "file:line: error: message (byte N)" - the usual compiler-like format.
    QString toString() const;
};

} // namespace at
