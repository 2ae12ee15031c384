#include "memory/MemoryTablesReader.h"

#include "MemoryAnalysis.h"
#include "MemoryLanes.h"
#include "common/MappedFile.h"
#include "csv/CsvReader.h"
#include "csv/CsvSlices.h"
#include "csv/CsvTable.h"
#include "csv/CsvValues.h"
#include "summary/KernelSummaryReader.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

namespace at {

namespace {

const QString kMemoryRecord = QStringLiteral("memory_record");
const QString kOperatorMemory = QStringLiteral("operator_memory");
const QString kModuleMemory = QStringLiteral("npu_module_mem");
const QString kStaticOpMemory = QStringLiteral("static_op_mem");

// The rows a problem cost in one file: the first line it was seen on and how many rows had it.
class RowProblems
{
public:
    void add(const QString &file, std::uint64_t line, const QString &problem)
    {
        auto [it, inserted] = m_problems.try_emplace(std::make_pair(file, problem), line, 0);
        ++it->second.second;
    }
    void report(TraceBuilder &builder) const
    {
        for (const auto &[key, where] : m_problems)
            builder.addWarning(where.second == 1
                                   ? QCoreApplication::translate("Parser", "%1 line %2: %3")
                                         .arg(QFileInfo(key.first).fileName())
                                         .arg(where.first)
                                         .arg(key.second)
                                   : QCoreApplication::translate("Parser", "%1 line %2: %3 (%4 rows like it)")
                                         .arg(QFileInfo(key.first).fileName())
                                         .arg(where.first)
                                         .arg(key.second)
                                         .arg(where.second));
    }

private:
    std::map<std::pair<QString, QString>, std::pair<std::uint64_t, std::size_t>> m_problems;
};

// A column whose name carries a unit, "Total Allocated(MB)" / "(KB)": its index and the unit as a
// power of two of bytes.
struct UnitColumn
{
    int index = -1;
    int shift = 0;
};

UnitColumn unitColumn(const CsvTable &table, std::string_view base)
{
    for (int c = 0; c < table.columnCount(); ++c) {
        std::string_view name = csv::trimCell(table.header()[static_cast<std::size_t>(c)]);
        if (name.size() <= base.size() || name.substr(0, base.size()) != base || name[base.size()] != '(' ||
            name.back() != ')')
            continue;
        const std::string_view unit = name.substr(base.size() + 1, name.size() - base.size() - 2);
        if (unit == "MB")
            return {c, 20};
        if (unit == "KB")
            return {c, 10};
        if (unit == "GB")
            return {c, 30};
        if (unit == "B" || unit == "Bytes")
            return {c, 0};
    }
    return {};
}

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Streams the memory files (issue 19: millions of rows): each file is parsed in chunks of whole records,
// and each chunk's rows become the profile before the next chunk is parsed, so only one chunk's text is
// held besides the int64 values. `header` gets the file's first chunk (its first row is the header) and
// says whether to read the file; `rows` gets each chunk. Reading ends at the stop flag (set by a cancel
// or the memory guard): the rows before are kept, with a warning naming the file and the line.
class MemoryCsv
{
public:
    using Warn = std::function<void(const QString &)>;
    MemoryCsv(Warn warn, RowProblems &problems, const MemoryStreamOptions &stream)
        : m_warn(std::move(warn)), m_problems(problems), m_stream(stream)
    {}
    // How many files could be opened (the others are named in a warning).
    std::size_t filesOpened() const { return m_filesOpened; }
    // The current chunk: a table and where its rows are in their file.
    const CsvTable &table() const { return *m_table; }

    template <class Header, class Rows> void read(const QStringList &files, Header &&header, Rows &&rows)
    {
        for (const QString &path : sortCsvSlices(files))
            if (!readFile(path, header, rows))
                return; // stopped
    }

    void problem(std::size_t row, const QString &what)
    {
        m_problems.add(m_file, m_lineOffset + m_table->rowLine(row), what);
    }
    std::int64_t device(std::size_t row)
    {
        for (int column : {m_deviceId, m_device}) {
            if (column < 0 || csv::isMissingCell(m_table->cell(row, column)))
                continue;
            if (const auto d = parseMemoryDevice(m_table->cell(row, column)))
                return *d;
            problem(row, QCoreApplication::translate(
                             "Parser", "device \"%1\" is not NPU:<id> or a number (kept as unknown)")
                             .arg(text(csv::trimCell(m_table->cell(row, column)))));
            return -1;
        }
        return -1;
    }
    // kNoBytes for an empty cell or an absent column; nullopt (with a problem) for bad text.
    std::optional<std::int64_t> bytes(std::size_t row, const UnitColumn &column, const char *what)
    {
        if (column.index < 0 || csv::isMissingCell(m_table->cell(row, column.index)))
            return kNoBytes;
        if (const auto b = parseScaledBytes(m_table->cell(row, column.index), column.shift))
            return b;
        problem(row, QCoreApplication::translate("Parser", "%1 \"%2\" is not a number (row skipped)")
                         .arg(QLatin1String(what), text(csv::trimCell(m_table->cell(row, column.index)))));
        return std::nullopt;
    }
    // kNoTime for an empty cell or an absent column; nullopt (with a problem) for bad text.
    std::optional<TimeNs> time(std::size_t row, int column, const char *what)
    {
        if (column < 0 || csv::isMissingCell(m_table->cell(row, column)))
            return kNoTime;
        const auto t = csv::parseTimestampUsToNs(m_table->cell(row, column));
        constexpr TimeNs kLimit = TimeNs(1) << 62;
        if (t.ok() && t.value > -kLimit && t.value < kLimit)
            return t.value;
        problem(row, QCoreApplication::translate("Parser", "%1 \"%2\" is not a time in µs (row skipped)")
                         .arg(QLatin1String(what), text(csv::trimCell(m_table->cell(row, column)))));
        return std::nullopt;
    }

private:
    // The end of the chunk from `begin`: the first line end after begin + chunk bytes that is outside
    // quotes (an even number of '"' since begin), else the end of the data.
    static std::size_t chunkEnd(std::string_view data, std::size_t begin, std::size_t chunk)
    {
        if (data.size() - begin <= chunk)
            return data.size();
        bool quoted = false;
        for (std::size_t i = begin; i < data.size(); ++i) {
            const char c = data[i];
            if (c == '"')
                quoted = !quoted;
            else if (c == '\n' && !quoted && i >= begin + chunk)
                return i + 1;
        }
        return data.size();
    }

    // false when reading stopped.
    template <class Header, class Rows> bool readFile(const QString &path, Header &header, Rows &rows)
    {
        QString error;
        const std::unique_ptr<MappedFile> mapped = MappedFile::open(path, &error);
        if (!mapped) {
            CsvIssue issue;
            issue.severity = CsvIssue::Severity::Error;
            issue.kind = CsvIssue::Kind::FileError;
            issue.file = path;
            issue.message = error;
            m_warn(issue.toString());
            return true;
        }
        ++m_filesOpened;
        const std::string_view data(mapped->data(), mapped->size());
        m_file = path;
        m_lineOffset = 0;
        std::size_t begin = 0, rowsRead = 0;
        std::uint64_t lastLine = 0;
        bool stopped = false;
        for (bool first = true; first || begin < data.size(); first = false) {
            if (m_stream.stop && m_stream.stop->load(std::memory_order_relaxed) && !first) {
                stopped = true;
                break;
            }
            const std::size_t end = chunkEnd(data, begin, m_stream.chunkBytes);
            CsvOptions options;
            options.hasHeader = first;
            options.stop = m_stream.stop; // a chunk stops too, after CsvOptions::kStopCheckRows rows
            const CsvTable table = CsvReader(options).parse(data.substr(begin, end - begin), path);
            for (CsvIssue issue : table.issues()) {
                if (issue.kind == CsvIssue::Kind::Stopped) {
                    stopped = true; // said below, with the file's numbers
                    continue;
                }
                if (!first && issue.kind == CsvIssue::Kind::EmptyFile)
                    continue;
                if (issue.line > 0)
                    issue.line += m_lineOffset;
                issue.byteOffset += begin;
                m_warn(issue.toString());
            }
            if (first && !header(table))
                return true;
            m_table = &table;
            rows();
            m_table = nullptr;
            rowsRead += table.rowCount();
            if (table.rowCount() > 0)
                lastLine = m_lineOffset + table.rowLine(table.rowCount() - 1);
            if (stopped)
                break;
            m_lineOffset +=
                static_cast<std::uint64_t>(std::count(data.begin() + begin, data.begin() + end, '\n'));
            begin = end;
        }
        if (mapped->truncated())
            m_warn(mapped->truncationMessage());
        if (stopped)
            m_warn(QCoreApplication::translate(
                       "Parser", "%1: reading stopped after %2 rows (line %3); the rows before are kept")
                       .arg(QFileInfo(path).fileName())
                       .arg(rowsRead)
                       .arg(lastLine));
        return !stopped;
    }

    Warn m_warn;
    std::size_t m_filesOpened = 0;
    RowProblems &m_problems;
    const MemoryStreamOptions m_stream; // a copy (a pointer and a size): a temporary argument cannot dangle
    const CsvTable *m_table = nullptr;
    QString m_file;
    std::uint64_t m_lineOffset = 0;

public:
    // Device columns of the current file: msprof's Device_id, torch_npu's Device Type / Device.
    void findDeviceColumns(const CsvTable &t)
    {
        m_deviceId = t.columnExact("Device_id");
        m_device = t.columnExact("Device Type");
        if (m_device < 0)
            m_device = t.columnExact("Device");
    }

private:
    int m_deviceId = -1, m_device = -1;
};

class CurveIndex
{
public:
    CurveIndex(MemoryProfile &profile, int group) : m_profile(profile), m_group(group) {}
    MemoryCurve &curve(MemoryCurveKind kind, const QString &component, std::int64_t device)
    {
        const auto key = std::make_tuple(static_cast<int>(kind), component, device);
        auto it = m_index.find(key);
        if (it == m_index.end()) {
            MemoryCurve c;
            c.group = m_group;
            c.device = device;
            c.component = component;
            c.kind = kind;
            m_profile.curves.push_back(std::move(c));
            it = m_index.emplace(key, m_profile.curves.size() - 1).first;
        }
        return m_profile.curves[it->second];
    }

private:
    MemoryProfile &m_profile;
    int m_group;
    std::map<std::tuple<int, QString, std::int64_t>, std::size_t> m_index;
};

void readCurves(const QStringList &files, MemoryCurveKind kind, int group, TraceBuilder &builder,
                RowProblems &problems, const MemoryStreamOptions &stream)
{
    MemoryCsv csv([&builder](const QString &w) { builder.addWarning(w); }, problems, stream);
    CurveIndex curves(builder.memory(), group);
    int component = -1, timestamp = -1;
    UnitColumn allocated, reserved, active;
    const auto header = [&](const CsvTable &t) {
        component = t.columnExact("Component");
        timestamp = t.columnExact("Timestamp(us)");
        if (component < 0 || timestamp < 0) {
            builder.addWarning(
                QCoreApplication::translate(
                    "Parser", "%1: no Component or Timestamp(us) column; memory curves not read")
                    .arg(QFileInfo(t.sources().empty() ? QString() : t.sources().front()).fileName()));
            return false;
        }
        allocated = unitColumn(t, "Total Allocated");
        reserved = unitColumn(t, "Total Reserved");
        active = unitColumn(t, "Total Active");
        csv.findDeviceColumns(t);
        return true;
    };
    const auto rows = [&] {
        const CsvTable &t = csv.table();
        for (std::size_t r = 0; r < t.rowCount(); ++r) {
            const std::string_view name = csv::trimCell(t.cell(r, component));
            if (name.empty()) {
                csv.problem(r, QCoreApplication::translate("Parser", "empty Component (row skipped)"));
                continue;
            }
            const auto time = csv.time(r, timestamp, "Timestamp(us)");
            if (!time)
                continue;
            if (*time == kNoTime) {
                csv.problem(r, QCoreApplication::translate("Parser", "empty Timestamp(us) (row skipped)"));
                continue;
            }
            const auto a = csv.bytes(r, allocated, "Total Allocated");
            auto v = csv.bytes(r, reserved, "Total Reserved");
            const auto c = csv.bytes(r, active, "Total Active");
            if (!a || !v || !c)
                continue;
            // npu_module_mem writes -1 when a module only released memory in the window (§9.5).
            if (kind == MemoryCurveKind::Module && *v != kNoBytes && *v < 0)
                v = kNoBytes;
            MemoryCurve &curve = curves.curve(kind, text(name), csv.device(r));
            curve.times.push_back(*time);
            curve.allocated.push_back(*a);
            curve.reserved.push_back(*v);
            curve.active.push_back(*c);
        }
    };
    csv.read(files, header, rows);
}

void readAllocations(const QStringList &files, int group, TraceBuilder &builder, RowProblems &problems,
                     const MemoryStreamOptions &stream)
{
    MemoryCsv csv([&builder](const QString &w) { builder.addWarning(w); }, problems, stream);
    int name = -1, allocationTime = -1, releaseTime = -1, activeReleaseTime = -1, duration = -1, stream_ = -1;
    UnitColumn size, totals[6];
    const auto header = [&](const CsvTable &t) {
        name = t.columnExact("Name");
        size = unitColumn(t, "Size");
        allocationTime = t.columnExact("Allocation Time(us)");
        releaseTime = t.columnExact("Release Time(us)");
        activeReleaseTime = t.columnExact("Active Release Time(us)");
        duration = t.columnExact("Duration(us)"); // msprof: the only release information
        stream_ = t.columnExact("Stream Ptr");
        if (name < 0 || size.index < 0) {
            builder.addWarning(
                QCoreApplication::translate("Parser",
                                            "%1: no Name or Size column; operator allocations not read")
                    .arg(QFileInfo(t.sources().empty() ? QString() : t.sources().front()).fileName()));
            return false;
        }
        const char *names[6] = {"Allocation Total Allocated", "Allocation Total Reserved",
                                "Allocation Total Active",    "Release Total Allocated",
                                "Release Total Reserved",     "Release Total Active"};
        for (int i = 0; i < 6; ++i)
            totals[i] = unitColumn(t, names[i]);
        csv.findDeviceColumns(t);
        return true;
    };
    StringPool &strings = builder.strings();
    const auto rows = [&] {
        const CsvTable &t = csv.table();
        for (std::size_t r = 0; r < t.rowCount(); ++r) {
            MemoryAllocation a;
            a.group = group;
            const auto bytes = csv.bytes(r, size, "Size");
            const auto allocation = csv.time(r, allocationTime, "Allocation Time(us)");
            const auto release = csv.time(r, releaseTime, "Release Time(us)");
            const auto activeRelease = csv.time(r, activeReleaseTime, "Active Release Time(us)");
            if (!bytes || !allocation || !release || !activeRelease)
                continue;
            if (*bytes == kNoBytes) {
                csv.problem(r, QCoreApplication::translate("Parser", "empty Size (row skipped)"));
                continue;
            }
            a.bytes = *bytes;
            a.allocation = *allocation;
            a.release = *release;
            a.activeRelease = *activeRelease;
            if (releaseTime < 0 && duration >= 0 && a.allocation != kNoTime) {
                const auto d = csv::parseDurationUsToNs(t.cell(r, duration));
                if (d.ok() && d.value >= 0)
                    a.release = a.allocation + d.value;
            }
            std::int64_t *targets[6] = {&a.allocationAllocated, &a.allocationReserved, &a.allocationActive,
                                        &a.releaseAllocated,    &a.releaseReserved,    &a.releaseActive};
            bool ok = true;
            for (int i = 0; i < 6 && ok; ++i) {
                const auto value = csv.bytes(r, totals[i], "total");
                ok = value.has_value();
                if (ok)
                    *targets[i] = *value;
            }
            if (!ok)
                continue;
            a.device = csv.device(r);
            a.name = strings.intern(csv::trimCell(t.cell(r, name)));
            if (stream_ >= 0)
                a.stream = strings.intern(csv::trimCell(t.cell(r, stream_)));
            builder.memory().allocations.push_back(a);
        }
    };
    csv.read(files, header, rows);
}

} // namespace

ReservedPeakScan readReservedPeak(const QString &file, MemoryCurveKind kind,
                                  const std::function<void(const QString &)> &warn)
{
    ReservedPeakScan scan;
    RowProblems unused; // bad rows are counted here, not described one by one
    MemoryCsv csv(warn, unused, {});
    int component = -1, time = -1;
    UnitColumn reserved;
    const bool modules = kind == MemoryCurveKind::Module;
    std::string peakComponent;
    const auto header = [&](const CsvTable &t) {
        component = t.columnExact("Component");
        time = t.columnExact("Timestamp(us)");
        reserved = unitColumn(t, "Total Reserved");
        if (component >= 0 && time >= 0 && reserved.index >= 0)
            return true;
        warn(QCoreApplication::translate(
                 "Parser", "%1: no Component, Timestamp(us) or Total Reserved column; peak memory not read")
                 .arg(file));
        return false;
    };
    const auto rows = [&] {
        const CsvTable &t = csv.table();
        for (std::size_t r = 0; r < t.rowCount(); ++r) {
            const std::string_view cell = t.cell(r, reserved.index);
            if (csv::isMissingCell(cell))
                continue; // a component that does not fill Reserved
            const std::optional<std::int64_t> bytes = parseScaledBytes(cell, reserved.shift);
            const csv::Parsed<std::int64_t> at = csv::parseTimestampUsToNs(t.cell(r, time));
            if (!bytes || !at.ok()) {
                ++scan.badRows;
                continue;
            }
            if (modules && *bytes < 0)
                continue; // -1: the module only released memory in the window (§9.5)
            if (scan.peak &&
                (*bytes < scan.peak->bytes || (*bytes == scan.peak->bytes && at.value >= scan.peak->time)))
                continue;
            if (!scan.peak)
                scan.peak.emplace();
            scan.peak->bytes = *bytes;
            scan.peak->time = at.value;
            peakComponent = std::string(csv::trimCell(t.cell(r, component)));
        }
    };
    csv.read({file}, header, rows);
    scan.opened = csv.filesOpened() > 0;
    if (scan.peak)
        scan.peak->component = QString::fromStdString(peakComponent);
    return scan;
}

QStringList memoryTableFiles(const DataSource &source)
{
    return source.summaries(kMemoryRecord) + source.summaries(kOperatorMemory) +
           source.summaries(kModuleMemory) + source.summaries(kStaticOpMemory);
}

void readMemoryTables(const DataSource &source, int group, TraceBuilder &builder,
                      const MemoryStreamOptions &stream)
{
    RowProblems problems;
    const std::size_t firstCurve = builder.memory().curves.size();
    if (const QStringList files = source.summaries(kMemoryRecord); !files.isEmpty())
        readCurves(files, MemoryCurveKind::Component, group, builder, problems, stream);
    if (const QStringList files = source.summaries(kModuleMemory); !files.isEmpty())
        readCurves(files, MemoryCurveKind::Module, group, builder, problems, stream);
    if (const QStringList files = source.summaries(kOperatorMemory); !files.isEmpty())
        readAllocations(files, group, builder, problems, stream);
    // Static graph operator memory is on node indices, not time: kept as a table (the Tables dock),
    // summarised by staticGraphMemory().
    if (const QStringList files = source.summaries(kStaticOpMemory); !files.isEmpty())
        readSummaryTable(kStaticOpMemory, files, group, builder);
    problems.report(builder);
    sortMemoryCurves(builder.memory(), firstCurve);
    addMemoryCounterLanes(builder, firstCurve);
}

std::optional<std::int64_t> parseScaledBytes(std::string_view s, int shift)
{
    s = csv::trimCell(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = csv::trimCell(s.substr(1, s.size() - 2));
    bool negative = false;
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    if (s.empty())
        return std::nullopt;
    __int128 whole = 0, fraction = 0, scale = 1;
    bool digits = false, point = false;
    constexpr __int128 kMax = static_cast<__int128>(1) << 64;
    for (char ch : s) {
        if (ch == '.' && !point) {
            point = true;
            continue;
        }
        if (ch < '0' || ch > '9')
            return std::nullopt;
        digits = true;
        if (!point) {
            whole = whole * 10 + (ch - '0');
            if (whole > kMax)
                return std::nullopt;
        } else if (scale < static_cast<__int128>(1000000000000000000LL)) { // 18 digits are plenty
            fraction = fraction * 10 + (ch - '0');
            scale *= 10;
        }
    }
    if (!digits)
        return std::nullopt;
    const __int128 scaled = (whole << shift) + ((fraction << shift) * 2 + scale) / (2 * scale);
    if (scaled > std::numeric_limits<std::int64_t>::max())
        return std::nullopt;
    return static_cast<std::int64_t>(negative ? -scaled : scaled);
}

std::optional<std::int64_t> parseMemoryDevice(std::string_view s)
{
    s = csv::trimCell(s);
    const auto colon = s.find(':');
    if (colon != std::string_view::npos) {
        const std::string_view kind = s.substr(0, colon);
        if (kind != "NPU" && kind != "npu")
            return std::nullopt;
        s = s.substr(colon + 1);
    }
    if (s.empty() || s.size() > 9 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoll(std::string(s));
}

} // namespace at
