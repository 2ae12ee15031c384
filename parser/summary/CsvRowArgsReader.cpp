#include "summary/CsvRowArgsReader.h"

#include "csv/CsvReader.h"
#include "csv/CsvValues.h"

#include <algorithm>

namespace at {

namespace {

constexpr std::size_t kFirstChunk = 64 * 1024;

// The first record at `offset` of the file, parsed alone: the chunk read grows until a second record
// starts after it (so the first is complete, whatever quoted newlines it holds) or the file ends.
CsvTable recordAt(const MappedFile &file, std::uint64_t offset, bool header)
{
    CsvOptions options;
    options.hasHeader = header;
    const CsvReader reader(options);
    if (offset >= file.size())
        return {};
    const std::size_t available = file.size() - static_cast<std::size_t>(offset);
    for (std::size_t chunk = kFirstChunk;; chunk *= 2) {
        const std::size_t size = std::min(chunk, available);
        CsvTable table = reader.parse(std::string_view(file.data() + offset, size), file.path());
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
