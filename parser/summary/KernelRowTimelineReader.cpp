#include "summary/KernelRowTimelineReader.h"

#include "common/MappedFile.h"
#include "csv/CsvReader.h"
#include "csv/CsvSlices.h"
#include "csv/CsvValues.h"
#include "summary/CsvRowArgsReader.h"
#include "summary/SummaryTablesReader.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <map>
#include <tuple>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace at {

namespace {

class KernelRowTimelineReader : public InputReader
{
public:
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

// Draws one CSV file's rows. Returns the slices added.
std::size_t drawRows(const QString &path, SourceReading &reading, RowLanes &lanes)
{
    QString error;
    std::unique_ptr<MappedFile> mapped = MappedFile::open(path, &error);
    if (!mapped)
        return 0; // the summary tables reader reports the file
    CsvOptions options;
    options.stop = &reading.control.stopReading;
    const CsvTable table = CsvReader(options).parse(std::string_view(mapped->data(), mapped->size()), path);
    // The cells are copied into the table: give the file's pages back (the args reader maps them in again
    // for the row it reads), so a loaded rank's RSS is its model, as after a JSON load.
#if defined(__linux__)
    if (mapped->size() > 0)
        ::madvise(const_cast<char *>(mapped->data()), mapped->size(), MADV_DONTNEED);
#endif
    const int nameCol = table.column("Name");
    const int startCol = table.column("Start Time(us)");
    if (nameCol < 0 || startCol < 0)
        return 0; // not a kernel table: the summary tables reader warns
    const int durCol = table.column("Duration(us)");
    const int streamCol = table.column("Stream ID");
    const int coreCol = table.column("Accelerator Core");
    const int deviceCol = table.column("Device_id");
    const std::int64_t sourceDevice = reading.source.deviceId.value_or(0);

    TraceBuilder &builder = reading.builder;
    const std::uint32_t source =
        builder.addSource(path, std::make_shared<CsvRowArgsReader>(std::move(mapped)));
    std::size_t drawn = 0;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        const auto start = csv::parseTimestampUsToNs(table.cell(r, startCol));
        if (!start.ok())
            continue; // KernelSummaryReader counts these in its warning
        const auto device =
            deviceCol < 0 ? csv::Parsed<std::int64_t>{} : csv::parseInt64(table.cell(r, deviceCol));
        const std::int64_t deviceId = device.ok() ? device.value : sourceDevice;
        const auto stream =
            streamCol < 0 ? csv::Parsed<std::int64_t>{} : csv::parseInt64(table.cell(r, streamCol));
        const int thread = stream.ok() ? lanes.stream(deviceId, stream.value)
                           : coreCol >= 0 && isCommunicationCore(table.cell(r, coreCol))
                               ? lanes.communication(deviceId)
                               : lanes.tasks(deviceId);
        const TimeNs duration = durCol < 0 ? 0 : csv::parseDurationUsToNs(table.cell(r, durCol)).valueOr(0);
        builder.addSlice(thread, start.value, duration,
                         builder.strings().intern(cellText(table.cell(r, nameCol))), 0,
                         makeSourceLocation(source, table.rowByteOffset(r)));
        ++drawn;
    }
    builder.counts().complete += drawn;
    return drawn;
}

} // namespace

bool KernelRowTimelineReader::recognises(const DataSource &source) const
{
    return source.format == TimelineFormat::None && !kernelTableFiles(source).isEmpty();
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
    const QStringList files = sortCsvSlices(kernelTableFiles(reading.source));
    RowLanes lanes(reading.builder);
    std::size_t drawn = 0;
    std::uint64_t done = 0;
    for (const QString &file : files) {
        if (reading.control.stopReading)
            break;
        drawn += drawRows(file, reading, lanes);
        done += static_cast<std::uint64_t>(QFileInfo(file).size());
        reading.control.bytesDone = reading.progressBase + done;
    }
    if (reading.control.cancel)
        return ReadStatus::Cancelled;
    // The files are recorded as read by the summary tables reader, which reads them next for the kernel table
    // (and reports their problems).
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
