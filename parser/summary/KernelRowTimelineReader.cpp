#include "summary/KernelRowTimelineReader.h"

#include "common/MappedFile.h"
#include "csv/CsvReader.h"
#include "csv/CsvSlices.h"
#include "csv/CsvValues.h"
#include "summary/CsvRowArgsReader.h"
#include "summary/KernelSummaryReader.h"
#include "summary/SummaryTablesReader.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <map>
#include <optional>
#include <tuple>

namespace at {

namespace {

class KernelRowTimelineReader : public InputReader
{
public:
    const InputReaderDescriptor &descriptor() const override
    {
        static const InputReaderDescriptor d{
            QStringLiteral("kernel-rows"), QStringLiteral("kernel_details.csv rows"),
            TimelineExport::TextExport, snapshot_args_kind::kKernelRows, false};
        return d;
    }
    std::shared_ptr<const EventArgsReader> reopenArgs(const QString &path) const override
    {
        return CsvRowArgsReader::open(path);
    }
    bool recognises(const DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

// Trimmed, without the quotes shapes cells carry: interned the way KernelSummaryReader interns the row's
// name, so the kernel join finds the slice by name.
std::string_view cellText(std::string_view cell)
{
    cell = csv::trimCell(cell);
    while (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
        cell = cell.substr(1, cell.size() - 2);
    return cell;
}

bool isCommunicationCore(std::string_view core)
{
    core = csv::trimCell(core);
    return core == "COMMUNICATION" || core == "HCCL";
}

// The lanes of one source: per device an Ascend Hardware process with a thread per stream, a Communication
// process for communication rows, and a "Tasks" thread for compute rows without a Stream ID (Level0).
class RowLanes
{
public:
    explicit RowLanes(TraceBuilder &builder) : m_builder(builder) {}

    int stream(std::int64_t device, std::int64_t stream)
    {
        auto it = m_threads.find({device, stream, Kind::Stream});
        if (it != m_threads.end())
            return it->second;
        const LaneKey pid = hardware(device);
        const int thread = m_builder.thread(pid, m_builder.numberKey(stream));
        m_builder.setThreadName(thread, intern(QStringLiteral("Stream %1").arg(stream)));
        m_builder.setThreadSortIndex(thread, stream);
        return m_threads.emplace(Key{device, stream, Kind::Stream}, thread).first->second;
    }
    int communication(std::int64_t device)
    {
        auto it = m_threads.find({device, 0, Kind::Communication});
        if (it != m_threads.end())
            return it->second;
        const LaneKey pid{device, m_builder.textKey("Communication").text};
        m_builder.setProcessName(m_builder.process(pid), intern(QStringLiteral("Communication")));
        const int thread = m_builder.thread(pid, m_builder.textKey("Communication Ops"));
        m_builder.setThreadName(thread, intern(QStringLiteral("Communication Ops")));
        return m_threads.emplace(Key{device, 0, Kind::Communication}, thread).first->second;
    }
    int tasks(std::int64_t device)
    {
        auto it = m_threads.find({device, 0, Kind::Tasks});
        if (it != m_threads.end())
            return it->second;
        const int thread = m_builder.thread(hardware(device), m_builder.textKey("Tasks"));
        m_builder.setThreadName(thread, intern(QStringLiteral("Tasks (no Stream ID)")));
        return m_threads.emplace(Key{device, 0, Kind::Tasks}, thread).first->second;
    }

private:
    enum class Kind
    {
        Stream,
        Communication,
        Tasks
    };
    using Key = std::tuple<std::int64_t, std::int64_t, Kind>;

    LaneKey hardware(std::int64_t device)
    {
        const LaneKey pid{device, m_builder.textKey("Ascend Hardware").text};
        m_builder.setProcessName(m_builder.process(pid), intern(QStringLiteral("Ascend Hardware")));
        return pid;
    }
    StringId intern(const QString &text) { return m_builder.strings().intern(text.toStdString()); }

    TraceBuilder &m_builder;
    std::map<Key, int> m_threads;
};

// The columns of one file's header that place a row's slice.
struct RowColumns
{
    explicit RowColumns(const CsvTable &table)
        : name(table.column("Name")), start(table.column("Start Time(us)")),
          duration(table.column("Duration(us)")), stream(table.column("Stream ID")),
          core(table.column("Accelerator Core")), device(table.column("Device_id"))
    {}
    bool drawable() const
    {
        return name >= 0 && start >= 0;
    } // else not a kernel table: KernelTableBlocks warns

    int name, start, duration, stream, core, device;
};

// Draws one block of rows of a file (source `source` in the builder). Returns the slices added.
std::size_t drawBlock(const CsvTable &block, const RowColumns &col, std::uint32_t source,
                      SourceReading &reading, RowLanes &lanes)
{
    const std::int64_t sourceDevice = reading.source.deviceId.value_or(0);
    TraceBuilder &builder = reading.builder;
    std::size_t drawn = 0;
    for (std::size_t r = 0; r < block.rowCount(); ++r) {
        const auto start = csv::parseTimestampUsToNs(block.cell(r, col.start));
        if (!start.ok())
            continue; // KernelTableBlocks counts these in its warning
        const auto device =
            col.device < 0 ? csv::Parsed<std::int64_t>{} : csv::parseInt64(block.cell(r, col.device));
        const std::int64_t deviceId = device.ok() ? device.value : sourceDevice;
        const auto stream =
            col.stream < 0 ? csv::Parsed<std::int64_t>{} : csv::parseInt64(block.cell(r, col.stream));
        const int thread = stream.ok() ? lanes.stream(deviceId, stream.value)
                           : col.core >= 0 && isCommunicationCore(block.cell(r, col.core))
                               ? lanes.communication(deviceId)
                               : lanes.tasks(deviceId);
        const TimeNs duration =
            col.duration < 0 ? 0 : csv::parseDurationUsToNs(block.cell(r, col.duration)).valueOr(0);
        builder.addSlice(thread, start.value, duration,
                         builder.strings().intern(cellText(block.cell(r, col.name))), 0,
                         makeSourceLocation(source, block.rowByteOffset(r)));
        ++drawn;
    }
    return drawn;
}

// Reads one CSV file of the kernel table in blocks of rows: each block is drawn as device tasks and made
// kernel records (one parse for both), then dropped. Returns the slices added.
std::size_t drawRows(const QString &path, SourceReading &reading, RowLanes &lanes, KernelTableBlocks &kernels,
                     std::uint64_t progressBase)
{
    QString error;
    std::unique_ptr<MappedFile> mapped = MappedFile::open(path, &error);
    if (!mapped) {
        kernels.endFile(CsvReader::openError(path, error)); // its warning names the file
        return 0;
    }
    // The mapping outlives the read: the source's args reader owns it once the source is added (a row's
    // pages, given back while reading, are mapped in again when its args are read).
    const MappedFile &file = *mapped;
    std::optional<RowColumns> columns;
    std::uint32_t source = 0;
    auto addSource = [&](const CsvTable &table) {
        columns.emplace(table);
        if (columns->drawable())
            source = reading.builder.addSource(path, std::make_shared<CsvRowArgsReader>(std::move(mapped)));
    };
    CsvOptions options;
    options.stop = &reading.control.stopReading;
    std::size_t drawn = 0;
    const CsvTable rest = CsvReader(options).readMappedInBlocks(
        file, KernelTableBlocks::kBlockRows, [&](const CsvTable &block) {
            if (!columns)
                addSource(block);
            if (columns->drawable())
                drawn += drawBlock(block, *columns, source, reading, lanes);
            kernels.add(block);
            reading.control.bytesDone = progressBase + block.rowByteOffset(block.rowCount() - 1);
        });
    if (!columns) // no rows: the source of a kernel table is still listed
        addSource(rest);
    kernels.endFile(rest);
    reading.builder.counts().complete += drawn;
    return drawn;
}

} // namespace

bool KernelRowTimelineReader::recognises(const DataSource &source) const
{
    return source.format.isEmpty() && !kernelTableFiles(source).isEmpty(); // no timeline of its own
}

std::uint64_t KernelRowTimelineReader::bytesToRead(const DataSource &source) const
{
    std::uint64_t bytes = 0;
    for (const QString &file : kernelTableFiles(source))
        bytes += static_cast<std::uint64_t>(QFileInfo(file).size());
    return bytes;
}

ReadStatus KernelRowTimelineReader::read(SourceReading &reading) const
{
    const QStringList tableFiles = kernelTableFiles(reading.source);
    const QStringList files = sortCsvSlices(tableFiles);
    RowLanes lanes(reading.builder);
    KernelTableBlocks kernels(tableFiles, reading.group, reading.builder);
    std::size_t drawn = 0;
    std::uint64_t done = 0;
    qsizetype filesRead = 0;
    for (const QString &file : files) {
        if (reading.control.stopReading)
            break;
        drawn += drawRows(file, reading, lanes, kernels, reading.progressBase + done);
        ++filesRead;
        done += static_cast<std::uint64_t>(QFileInfo(file).size());
        reading.control.bytesDone = reading.progressBase + done;
    }
    if (reading.control.cancel)
        return ReadStatus::Cancelled;
    // The kernel table was made from the same blocks: its warnings now; the summary tables reader lists it
    // (and records the files as read) instead of parsing them again.
    SourceReading::KernelTableRead table;
    table.notRead = filesRead == 0;
    if (filesRead > 0) {
        table.rows = kernels.finish();
        table.cut = kernels.stopped() || filesRead < files.size();
        reading.collection.summaryHeader = kernels.firstFileHeader(); // not read a third time
    }
    reading.kernelTable = table;
    if (drawn > 0) {
        SourceGroup &group = reading.builder.group(reading.group);
        group.timelineFiles = files;
        group.layout += QCoreApplication::translate(
                            "Parser", ", device tasks drawn from %1 (no trace_view.json or database)")
                            .arg(QFileInfo(files.first()).fileName());
    }
    if (reading.control.stopReading) {
        reading.warnMemoryStop(files.first(), QStringLiteral("while drawing its rows"),
                               QStringLiteral("%1 device tasks").arg(drawn));
        return ReadStatus::Stopped;
    }
    return ReadStatus::Done;
}

const InputReader &kernelRowTimelineReader()
{
    static const KernelRowTimelineReader reader;
    return reader;
}

} // namespace at
