#include "summary/CsvRowArgsReader.h"

#include "csv/CsvReader.h"
#include "csv/CsvValues.h"

#include <algorithm>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace at {

namespace {

constexpr std::size_t kFirstChunk = std::size_t{64} * 1024;

// Where the record starting at `from` ends: after its first line feed outside quotes (a doubled quote
// inside a quoted cell toggles twice), else at the end of the file; 0 when no record end lies within
// kFirstChunk bytes (bare-CR lines, a stray quote: the chunk read below decides, never a scan and parse
// of the rest of the file on every read).
std::size_t recordEnd(const MappedFile &file, std::size_t from)
{
    bool quoted = false;
    const std::size_t limit = std::min<std::size_t>(file.size(), from + kFirstChunk);
    for (std::size_t i = from; i < limit; ++i) {
        const char c = file.data()[i];
        if (c == '"')
            quoted = !quoted;
        else if (c == '\n' && !quoted)
            return i + 1;
    }
    return limit == file.size() ? file.size() : 0;
}

// The record at `offset` of the file, parsed alone. Its own bytes first (the kernel join asks for the task
// ids of tied candidates, one call each: parsing a 64 KiB chunk of rows per call took seconds for 80,000
// rows); when that cut a quoted cell (a stray quote inside an unquoted cell misleads the scan), the chunk
// read grows until a second record starts after it (so the first is complete) or the file ends.
CsvTable recordAt(const MappedFile &file, std::uint64_t offset, bool header)
{
    CsvOptions options;
    options.hasHeader = header;
    const CsvReader reader(options);
    if (offset >= file.size())
        return {};
    const auto from = static_cast<std::size_t>(offset);
    if (const std::size_t end = recordEnd(file, from); end != 0) {
        CsvTable record = reader.parse(std::string_view(file.data() + from, end - from), file.path());
        if (end == file.size() ||
            (!record.header().empty() && (header || record.rowCount() == 1) && !record.hasErrors()))
            return record;
    }
    const std::size_t available = file.size() - from;
    for (std::size_t chunk = kFirstChunk;; chunk *= 2) {
        const std::size_t size = std::min(chunk, available);
        CsvTable table = reader.parse(std::string_view(file.data() + from, size), file.path());
        if (table.rowCount() >= (header ? 1u : 2u) || size == available)
            return table;
    }
}

QString text(std::string_view cell)
{
    cell = csv::trimCell(cell);
    return QString::fromUtf8(cell.data(), static_cast<qsizetype>(cell.size()));
}

} // namespace

void CsvRowArgsReader::noteRecordRead() const
{
#if defined(__linux__)
    // The kernel join asks for the task ids of every tied candidate: each read faults in its pages (and the
    // kernel maps up to 64 KiB around them), which brought the file given back while reading into memory
    // again. Every kReadsPerRelease reads the whole private read-only mapping is given back (its pages are
    // read from the file again when touched); one call, not one per read, which cost more than the read.
    if (m_file && m_file->size() > 0 &&
        (m_reads.fetch_add(1, std::memory_order_relaxed) + 1) % kReadsPerRelease == 0)
        ::madvise(const_cast<char *>(m_file->data()), m_file->size(), MADV_DONTNEED);
#endif
}

CsvRowArgsReader::CsvRowArgsReader(std::unique_ptr<MappedFile> file)
    : m_path(file ? file->path() : QString()), m_file(std::move(file))
{}

std::shared_ptr<CsvRowArgsReader> CsvRowArgsReader::open(const QString &path)
{
    QString error;
    auto reader = std::make_shared<CsvRowArgsReader>(MappedFile::open(path, &error));
    reader->m_path = path;
    return reader;
}

const QStringList &CsvRowArgsReader::header() const
{
    std::call_once(m_headerRead, [this] {
        if (!m_file)
            return;
        const CsvTable table = recordAt(*m_file, 0, true);
        for (const std::string &name : table.header())
            m_header << QString::fromStdString(name);
    });
    return m_header;
}

std::vector<std::pair<QString, QString>> CsvRowArgsReader::readArgs(std::uint64_t offset) const
{
    std::vector<std::pair<QString, QString>> args;
    const QStringList &names = header();
    if (!m_file || offset == 0 || names.isEmpty())
        return args; // offset 0 is the header itself
    const CsvTable row = recordAt(*m_file, offset, false);
    noteRecordRead();
    if (row.isEmpty())
        return args;
    const int cells = std::min<int>(row.cellCount(0), static_cast<int>(names.size()));
    for (int c = 0; c < cells; ++c) {
        QString value = text(row.cell(0, c));
        // Shapes cells carry their own quotes ("\"32,3,224,224\""); show them without.
        while (value.size() >= 2 && value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
            value = value.mid(1, value.size() - 2);
        if (!value.isEmpty())
            args.emplace_back(names[c], value);
    }
    return args;
}

std::optional<TaskIds> CsvRowArgsReader::taskIds(std::uint64_t offset) const
{
    const QStringList &names = header();
    if (!m_file || offset == 0 || names.isEmpty())
        return std::nullopt;
    const CsvTable row = recordAt(*m_file, offset, false);
    noteRecordRead();
    if (row.isEmpty())
        return std::nullopt;
    auto id = [&](const char *column) {
        const auto c = names.indexOf(QLatin1String(column));
        const auto parsed =
            c < 0 ? csv::Parsed<std::int64_t>{} : csv::parseInt64(row.cell(0, static_cast<int>(c)));
        return parsed.ok() ? parsed.value : TaskIds::kNone;
    };
    TaskIds ids;
    ids.taskId = id("Task ID");
    ids.subtaskId = id("Context ID"); // N/A and 4294967295 are kNone
    return ids;
}

} // namespace at
