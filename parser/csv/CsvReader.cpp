#include "csv/CsvReader.h"

#include "common/MappedFile.h"
#include "common/MessageText.h"

#include <QByteArray>
#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_set>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(Q_OS_UNIX)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace at {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::ptrdiff_t kCopyBlock = 16; // bytes per SSE2 block copy

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

std::size_t pageSize()
{
#if defined(Q_OS_UNIX)
    static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return page;
#else
    return 4096;
#endif
}

// True when the (trimmed) text looks like a number: used to notice a data row standing in for the header.
bool looksNumeric(std::string_view s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    bool digit = false;
    for (char c : s) {
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
            return false;
    }
    return digit;
}

// One parse of one buffer into a table. Separate from CsvReader so the reader stays a cheap value type.
//
// Output: cell text is written through out_ into the table's text buffer, which is sized for the whole input
// before parsing starts (the text never grows: every output byte comes from at least one input byte). That
// lets the hot loops copy 16 bytes at a time and fix the length up afterwards, with no per-cell allocation
// or bounds check.
class Parser
{
public:
    Parser(std::string_view data, const CsvOptions &options, const QString &name, CsvTable &table)
        : base_(data.data()), p_(data.data()), end_(data.data() + data.size()), opt_(options), name_(name),
          b_(table)
    {
        term_.fill(false);
        term_[static_cast<unsigned char>(opt_.delimiter)] = true;
        term_['\n'] = true;
        term_['\r'] = true;
    }

    // Reads the whole input into the table.
    void run() { run(0, nullptr, false); }
    // Reads the input in blocks of blockRows rows, each handed to `sink` and then dropped. With
    // `releaseMapped` the input is a private read-only file mapping whose consumed pages are given back.
    void runBlocks(std::size_t blockRows, const CsvBlockSink &sink, bool releaseMapped)
    {
        run(blockRows, &sink, releaseMapped);
    }

private:
    enum class Result
    {
        Row,
        Eof,
        Truncated
    };

    void run(std::size_t blockRows, const CsvBlockSink *sink, bool releaseMapped);
    void flushBlock(const CsvBlockSink &sink, bool releaseMapped);
    void releasePages(std::size_t to);
    std::size_t rowsRead() const { return rowsFlushed_ + b_.table().rowCount(); } // data rows so far
    Result parseRecord();
    void parseUnquoted();
    bool parseQuoted(); // false when the input ends inside the quotes
    void copyUntilTerminator();
    const char *copyUntilQuote();
    void trimOpenCell();
    void endCell() { b_.cellEnds().push_back(static_cast<std::uint32_t>(out_ - rowOut_)); }
    void abortRow();
    void finishRow();
    void takeHeader();
    bool refuseWideHeader(); // true (and an error reported) when the first row is wider than maxColumns
    void reportDuplicateColumns();
    void reserveFromSample(std::size_t blockRows);
    void report(CsvIssue::Severity sev, CsvIssue::Kind kind, const char *at, std::uint64_t line, QString msg);
    // Reports an issue of a kind that may repeat on many rows; beyond the limit only counts it.
    void reportRepeated(CsvIssue::Kind kind, const char *at, std::uint64_t line, QString msg);
    void summariseRepeated(CsvIssue::Kind kind, const char *what);
    std::uint64_t offset(const char *at) const { return static_cast<std::uint64_t>(at - base_); }

    const char *base_;
    const char *p_;
    const char *end_;
    const CsvOptions &opt_;
    const QString &name_;
    CsvTableBuilder b_;
    std::array<bool, 256> term_{};
    char *outBase_ = nullptr; // text buffer start
    char *out_ = nullptr;     // write position
    char *rowOut_ = nullptr;  // where the current row's text starts
    std::size_t rowFirstCell_ = 0;
    std::uint32_t source_ = 0;
    std::uint64_t line_ = 1;
    const char *rowStart_ = nullptr;
    std::uint64_t rowLine_ = 0;
    bool haveHeader_ = false;
    bool stopped_ = false; // a fatal issue (a header too wide): nothing more is read
    std::size_t expectedCells_ = 0;
    int raggedReported_ = 0;
    int afterQuoteReported_ = 0;
    std::size_t afterQuoteCount_ = 0;
    std::size_t rowsFlushed_ = 0;   // rows already handed to a block sink
    std::size_t releasedBytes_ = 0; // the mapped input given back so far (whole pages)
};

void Parser::report(CsvIssue::Severity sev, CsvIssue::Kind kind, const char *at, std::uint64_t line,
                    QString msg)
{
    CsvIssue issue;
    issue.severity = sev;
    issue.kind = kind;
    issue.file = name_;
    issue.byteOffset = offset(at);
    issue.line = line;
    issue.message = std::move(msg);
    b_.addIssue(std::move(issue));
}

void Parser::reportRepeated(CsvIssue::Kind kind, const char *at, std::uint64_t line, QString msg)
{
    int &reported = kind == CsvIssue::Kind::RaggedRow ? raggedReported_ : afterQuoteReported_;
    if (reported < opt_.maxIssuesPerKind) {
        ++reported;
        report(CsvIssue::Severity::Warning, kind, at, line, std::move(msg));
    }
}

void Parser::summariseRepeated(CsvIssue::Kind kind, const char *what)
{
    const bool ragged = kind == CsvIssue::Kind::RaggedRow;
    const std::size_t total = ragged ? b_.table().raggedRowCount() : afterQuoteCount_; // every block's
    const std::size_t reported = static_cast<std::size_t>(ragged ? raggedReported_ : afterQuoteReported_);
    if (total > reported) {
        report(CsvIssue::Severity::Warning, kind, end_, line_,
               QCoreApplication::translate("Parser", "%1 more %2 not listed (%3 in total)")
                   .arg(total - reported)
                   .arg(QCoreApplication::translate("Parser", what))
                   .arg(total));
    }
}

// Reserving the cell index from a sample of the input avoids both regrowth and a 2x over-allocation. Read in
// blocks, the index holds one block's rows (the buffers are reused for each block).
void Parser::reserveFromSample(std::size_t blockRows)
{
    const std::size_t size = static_cast<std::size_t>(end_ - p_);
    const std::size_t sample = std::min<std::size_t>(size, std::size_t{64} * 1024);
    std::size_t cells = 1, rows = 1;
    for (std::size_t i = 0; i < sample; ++i) {
        const char c = p_[i];
        cells += (c == opt_.delimiter) | (c == '\n');
        rows += c == '\n';
    }
    double scale = sample ? static_cast<double>(size) / static_cast<double>(sample) : 1.0;
    if (blockRows > 0) // cells and rows of one block (at least the sample's)
        scale = std::min(scale, static_cast<double>(blockRows) / static_cast<double>(rows));
    b_.cellEnds().reserve(b_.cellEnds().size() +
                          static_cast<std::size_t>(static_cast<double>(cells) * scale * 1.02) + 16);
    b_.rows().reserve(b_.rows().size() + static_cast<std::size_t>(static_cast<double>(rows) * scale * 1.02) +
                      16);
    // Text: the whole input plus slack for the 16-byte block copies (the hot loops write without a bounds
    // check). Read in blocks, only the pages the largest block writes are ever touched.
    auto &text = b_.text();
    text.reserve(text.size() + size + kCopyBlock);
    outBase_ = text.data();
    out_ = outBase_ + text.size();
}

void Parser::run(std::size_t blockRows, const CsvBlockSink *sink, bool releaseMapped)
{
    source_ = b_.addSource(name_);
    if (static_cast<std::size_t>(end_ - p_) >= kBom.size() && std::memcmp(p_, kBom.data(), kBom.size()) == 0)
        p_ += kBom.size();
    reserveFromSample(sink ? blockRows : 0);

    std::size_t nextCheck = CsvOptions::kStopCheckRows; // in data rows (the header is not one)
    while (!stopped_ && parseRecord() == Result::Row) {
        if (opt_.stop && rowsRead() >= nextCheck) {
            nextCheck = rowsRead() + CsvOptions::kStopCheckRows;
            if (opt_.stop->load(std::memory_order_relaxed) && p_ < end_) {
                report(
                    CsvIssue::Severity::Warning, CsvIssue::Kind::Stopped, p_, line_,
                    QCoreApplication::translate(
                        "Parser", "reading stopped after %1 rows (byte %2 of %3): the rows before are kept")
                        .arg(rowsRead())
                        .arg(offset(p_))
                        .arg(offset(end_)));
                break;
            }
        }
        if (sink && b_.table().rowCount() >= blockRows)
            flushBlock(*sink, releaseMapped);
    }
    b_.text().resize(static_cast<std::size_t>(out_ - outBase_));
    if (sink) {
        flushBlock(*sink, false);
        if (releaseMapped) // the rest of the input, the header's page included
            releasePages(offset(end_) + pageSize() - 1);
    }

    if (!haveHeader_ && rowsRead() == 0 && !b_.table().hasErrors())
        report(CsvIssue::Severity::Warning, CsvIssue::Kind::EmptyFile, base_, 1,
               QCoreApplication::translate("Parser", "file is empty"));
    summariseRepeated(CsvIssue::Kind::RaggedRow,
                      QT_TRANSLATE_NOOP("Parser", "rows with a different number of cells than the header"));
    summariseRepeated(CsvIssue::Kind::TextAfterQuote,
                      QT_TRANSLATE_NOOP("Parser", "cells with text after the closing quote"));
}

void Parser::flushBlock(const CsvBlockSink &sink, bool releaseMapped)
{
    b_.text().resize(static_cast<std::size_t>(out_ - outBase_));
    if (!b_.table().isEmpty())
        sink(b_.table());
    rowsFlushed_ += b_.table().rowCount();
    b_.clearRows();
    out_ = outBase_;
    if (releaseMapped)
        releasePages(offset(p_));
}

// Gives back the whole pages of the mapped input before offset `to` (a private read-only file mapping: a page
// touched again is read from the file again). The page holding `to` may still be read.
void Parser::releasePages(std::size_t to)
{
#if defined(__linux__)
    const std::size_t page = pageSize();
    const std::size_t end = std::min(to, static_cast<std::size_t>(end_ - base_) + page - 1) / page * page;
    if (end > releasedBytes_) {
        ::madvise(const_cast<char *>(base_) + releasedBytes_, end - releasedBytes_, MADV_DONTNEED);
        releasedBytes_ = end;
    }
#else
    (void)to;
#endif
}

Parser::Result Parser::parseRecord()
{
    // Blank lines carry no record (Python's csv module agrees); they only advance the line count.
    while (p_ < end_ && (*p_ == '\n' || *p_ == '\r')) {
        if (*p_ == '\r' && p_ + 1 < end_ && p_[1] == '\n')
            ++p_;
        ++p_;
        ++line_;
    }
    if (p_ >= end_)
        return Result::Eof;

    rowStart_ = p_;
    rowLine_ = line_;
    rowOut_ = out_;
    rowFirstCell_ = b_.cellEnds().size();
    for (;;) {
        if (p_ < end_ && *p_ == '"') {
            if (!parseQuoted())
                return Result::Truncated;
        } else {
            parseUnquoted();
        }
        if (p_ >= end_) { // no final newline
            finishRow();
            return Result::Row;
        }
        const char c = *p_++;
        if (c == opt_.delimiter)
            continue;
        if (c == '\r' && p_ < end_ && *p_ == '\n')
            ++p_;
        ++line_;
        finishRow();
        return Result::Row;
    }
}

// Copies input to output up to (not including) the next delimiter / CR / LF.
void Parser::copyUntilTerminator()
{
#if defined(__SSE2__)
    const __m128i d = _mm_set1_epi8(opt_.delimiter);
    const __m128i lf = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r');
    while (end_ - p_ >= kCopyBlock) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p_));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out_), v); // may overshoot; fixed by the advance below
        const __m128i hit =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, d), _mm_cmpeq_epi8(v, lf)), _mm_cmpeq_epi8(v, cr));
        const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
        if (mask) {
            const unsigned k = static_cast<unsigned>(__builtin_ctz(mask));
            p_ += k;
            out_ += k;
            return;
        }
        p_ += kCopyBlock;
        out_ += kCopyBlock;
    }
#endif
    while (p_ < end_ && !term_[static_cast<unsigned char>(*p_)])
        *out_++ = *p_++;
}

// Copies input to output up to the next '"', counting newlines on the way. Returns the quote or nullptr.
const char *Parser::copyUntilQuote()
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i lf = _mm_set1_epi8('\n');
    while (end_ - p_ >= kCopyBlock) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p_));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out_), v);
        const unsigned q = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)));
        unsigned nl = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf)));
        if (q) {
            const unsigned k = static_cast<unsigned>(__builtin_ctz(q));
            nl &= (1u << k) - 1;
            if (nl) // rare: keeps the popcount (a libgcc call without -mpopcnt) off the common path
                line_ += static_cast<std::uint64_t>(__builtin_popcount(nl));
            p_ += k;
            out_ += k;
            return p_;
        }
        if (nl)
            line_ += static_cast<std::uint64_t>(__builtin_popcount(nl));
        p_ += kCopyBlock;
        out_ += kCopyBlock;
    }
#endif
    while (p_ < end_ && *p_ != '"') {
        line_ += *p_ == '\n';
        *out_++ = *p_++;
    }
    return p_ < end_ ? p_ : nullptr;
}

void Parser::parseUnquoted()
{
    copyUntilTerminator();
    if (opt_.trimCells)
        trimOpenCell();
    endCell();
}

bool Parser::parseQuoted()
{
    const char *open = p_;
    const std::uint64_t openLine = line_;
    ++p_;
    for (;;) {
        if (!copyUntilQuote()) {
            abortRow();
            report(CsvIssue::Severity::Error, CsvIssue::Kind::TruncatedQuote, open, openLine,
                   QCoreApplication::translate(
                       "Parser", "input ends inside a quoted field opened at line %1; the incomplete row "
                                 "starting at line %2 (byte %3) was dropped")
                       .arg(openLine)
                       .arg(rowLine_)
                       .arg(offset(rowStart_)));
            return false;
        }
        ++p_;                          // the quote
        if (p_ < end_ && *p_ == '"') { // doubled quote = one literal quote
            *out_++ = '"';
            ++p_;
            continue;
        }
        break;
    }
    // Not RFC 4180, but seen in hand-edited files: keep the text (like Python's csv) and say so.
    if (p_ < end_ && !term_[static_cast<unsigned char>(*p_)]) {
        const char *s = p_;
        copyUntilTerminator();
        if (!std::all_of(s, p_, isBlank)) {
            ++afterQuoteCount_;
            reportRepeated(
                CsvIssue::Kind::TextAfterQuote, s, line_,
                QCoreApplication::translate("Parser", "text after a closing quote was appended to the cell"));
        }
    }
    if (opt_.trimCells)
        trimOpenCell();
    endCell();
    return true;
}

// Drops blanks around the cell being written (only with CsvOptions::trimCells).
void Parser::trimOpenCell()
{
    auto &ends = b_.cellEnds();
    char *start = rowOut_ + (ends.size() > rowFirstCell_ ? ends.back() : 0);
    char *end = out_;
    while (end > start && isBlank(end[-1]))
        --end;
    char *first = start;
    while (first < end && isBlank(*first))
        ++first;
    if (first > start)
        std::memmove(start, first, static_cast<std::size_t>(end - first));
    out_ = start + (end - first);
}

void Parser::abortRow()
{
    out_ = rowOut_;
    b_.cellEnds().resize(rowFirstCell_);
}

void Parser::finishRow()
{
    if (static_cast<std::uint64_t>(out_ - rowOut_) > UINT32_MAX) {
        abortRow();
        report(CsvIssue::Severity::Error, CsvIssue::Kind::RowTooLong, rowStart_, rowLine_,
               QCoreApplication::translate("Parser", "row is larger than 4 GiB and was dropped"));
        return;
    }
    if (!haveHeader_) {
        takeHeader();
        if (opt_.hasHeader || stopped_)
            return;
    }
    const std::size_t n = b_.cellEnds().size() - rowFirstCell_;
    if (n != expectedCells_) {
        b_.countRagged();
        reportRepeated(CsvIssue::Kind::RaggedRow, rowStart_, rowLine_,
                       QCoreApplication::translate("Parser", "row has %1 cells, the header has %2 (row kept)")
                           .arg(n)
                           .arg(expectedCells_));
    }
    CsvTableBuilder::RowInfo row;
    row.textBase = static_cast<std::uint64_t>(rowOut_ - outBase_);
    row.firstCell = rowFirstCell_;
    row.byteOffset = offset(rowStart_);
    row.line = rowLine_ > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(rowLine_);
    row.source = source_;
    b_.rows().push_back(row);
}

bool Parser::refuseWideHeader()
{
    const std::size_t cells = b_.cellEnds().size() - rowFirstCell_;
    if (cells <= opt_.maxColumns)
        return false;
    abortRow();
    stopped_ = true;
    report(CsvIssue::Severity::Error, CsvIssue::Kind::HeaderTooWide, rowStart_, rowLine_,
           QCoreApplication::translate(
               "Parser", "the first row has %1 columns, more than the %2 a profiler table can have; "
                         "the file was not read")
               .arg(cells)
               .arg(opt_.maxColumns));
    return true;
}

// Linear in the header width (a hash set of the names seen), so a very wide header cannot stall the load.
void Parser::reportDuplicateColumns()
{
    const auto &h = b_.table().header();
    std::unordered_set<std::string_view> seen;
    seen.reserve(h.size());
    for (const std::string &name : h) {
        if (!name.empty() && !seen.insert(name).second) {
            report(
                CsvIssue::Severity::Warning, CsvIssue::Kind::DuplicateColumn, rowStart_, rowLine_,
                QCoreApplication::translate("Parser", "duplicate column name \"%1\"; lookups use the first")
                    .arg(printableText(QString::fromStdString(name))));
        }
    }
}

void Parser::takeHeader()
{
    if (refuseWideHeader())
        return;
    haveHeader_ = true;
    expectedCells_ = b_.cellEnds().size() - rowFirstCell_;
    if (!opt_.hasHeader) {
        b_.setUnnamedHeader(expectedCells_);
        return;
    }
    b_.text().resize(
        static_cast<std::size_t>(out_ - outBase_)); // make the header text visible to the builder
    b_.rowToHeader(static_cast<std::size_t>(rowOut_ - outBase_), rowFirstCell_);
    out_ = rowOut_;

    const auto &h = b_.table().header();
    if (h.size() == 1) {
        for (char c : {';', '\t', '|'}) {
            if (c != opt_.delimiter && h[0].find(c) != std::string::npos) {
                report(CsvIssue::Severity::Warning, CsvIssue::Kind::SuspiciousHeader, rowStart_, rowLine_,
                       QCoreApplication::translate(
                           "Parser", "header has a single column containing '%1': wrong delimiter?")
                           .arg(c == '\t' ? QStringLiteral("\\t") : QString(QLatin1Char(c))));
                break;
            }
        }
    }
    const auto numeric =
        std::count_if(h.begin(), h.end(), [](const std::string &s) { return looksNumeric(s); });
    if (numeric > 0 && static_cast<std::size_t>(numeric) * 2 >= h.size()) {
        report(CsvIssue::Severity::Warning, CsvIssue::Kind::SuspiciousHeader, rowStart_, rowLine_,
               QCoreApplication::translate(
                   "Parser", "first row looks like data (%1 of %2 cells are numbers): no header row?")
                   .arg(numeric)
                   .arg(h.size()));
    }
    reportDuplicateColumns();
}

} // namespace

CsvTable CsvReader::parse(std::string_view data, const QString &sourceName) const
{
    CsvTable table;
    Parser(data, options_, sourceName, table).run();
    return table;
}

CsvTable CsvReader::parseBlocks(std::string_view data, const QString &sourceName, std::size_t blockRows,
                                const CsvBlockSink &sink) const
{
    CsvTable table;
    Parser(data, options_, sourceName, table).runBlocks(std::max<std::size_t>(blockRows, 1), sink, false);
    return table;
}

CsvTable CsvReader::openError(const QString &path, const QString &error)
{
    CsvTable table;
    CsvTableBuilder b(table);
    b.addSource(path);
    CsvIssue issue;
    issue.severity = CsvIssue::Severity::Error;
    issue.kind = CsvIssue::Kind::FileError;
    issue.file = path;
    issue.message = error;
    b.addIssue(issue);
    return table;
}

namespace {

void adviseSequential(const MappedFile &mapped)
{
    if (mapped.size() > 0) {
#if defined(Q_OS_UNIX)
        // One forward pass: ask for aggressive read-ahead (a hint; the mapping stays read-only).
        ::posix_madvise(const_cast<char *>(mapped.data()), mapped.size(), POSIX_MADV_SEQUENTIAL);
#endif
    }
}

void reportTruncation(const MappedFile &mapped, CsvTable &table)
{
    if (!mapped.truncated())
        return;
    CsvTableBuilder b(table);
    CsvIssue issue;
    issue.severity = CsvIssue::Severity::Warning;
    issue.kind = CsvIssue::Kind::FileError;
    issue.file = mapped.path();
    issue.byteOffset = mapped.truncatedAt();
    issue.message = mapped.truncationMessage();
    b.addIssue(issue);
}

} // namespace

CsvTable CsvReader::readFile(const QString &path) const
{
    // MappedFile opens with O_NONBLOCK and maps regular files only: a FIFO, socket or device named like a
    // table is refused at once (a QFile open would block on a FIFO until a writer came).
    QString error;
    const std::unique_ptr<MappedFile> mapped = MappedFile::open(path, &error);
    if (!mapped)
        return openError(path, error);
    adviseSequential(*mapped);
    CsvTable table = parse(std::string_view(mapped->data(), mapped->size()), path);
    reportTruncation(*mapped, table);
    return table;
}

CsvTable CsvReader::readMappedInBlocks(const MappedFile &file, std::size_t blockRows,
                                       const CsvBlockSink &sink) const
{
    adviseSequential(file);
    CsvTable table;
    Parser(std::string_view(file.data(), file.size()), options_, file.path(), table)
        .runBlocks(std::max<std::size_t>(blockRows, 1), sink, true);
    reportTruncation(file, table);
    return table;
}

CsvTable CsvReader::readFileInBlocks(const QString &path, std::size_t blockRows,
                                     const CsvBlockSink &sink) const
{
    QString error;
    const std::unique_ptr<MappedFile> mapped = MappedFile::open(path, &error);
    if (!mapped)
        return openError(path, error);
    return readMappedInBlocks(*mapped, blockRows, sink);
}

} // namespace at
