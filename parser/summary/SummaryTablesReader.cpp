#include "summary/SummaryTablesReader.h"

#include "InputReader.h"

#include "memory/MemoryTablesReader.h"
#include "summary/KernelSummaryReader.h"

namespace at {

namespace {

// The kernel table of a source (kernel_details.csv, else op_summary_*.csv; a database carries its own) and
// its other summary CSVs as plain tables. Runs after the timeline readers.
class SummaryTablesReader : public InputReader
{
public:
    bool recognises(const DataSource &source) const override;
    // Not counted in the progress: the tables are small next to the timelines.
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

} // namespace

QStringList kernelTableFiles(const DataSource &source)
{
    if (source.format == TimelineFormat::Sqlite)
        return {}; // COMPUTE_TASK_INFO + TASK_PMU_INFO
    const QStringList kernelDetails = source.summaries(QStringLiteral("kernel_details"));
    return !kernelDetails.isEmpty() ? kernelDetails : source.summaries(QStringLiteral("op_summary"));
}

bool SummaryTablesReader::recognises(const DataSource &source) const
{
    return !source.summaryFiles.isEmpty();
}

std::uint64_t SummaryTablesReader::bytesToRead(const DataSource &) const
{
    return 0;
}

ReadStatus SummaryTablesReader::read(SourceReading &reading) const
{
    const QStringList kernelFiles = kernelTableFiles(reading.source);
    readKernelSummary(kernelFiles, reading.group, reading.builder, &reading.control.stopReading);
    for (const QString &file : kernelFiles)
        reading.recordRead(file);
    for (const QString &type : plainSummaryTypes()) {
        const QStringList files = reading.source.summaries(type);
        readSummaryTable(type, files, reading.group, reading.builder);
        for (const QString &file : files)
            reading.recordRead(file);
    }
    // memory_record, operator_memory, ...: streamed, up to the stop flag
    readMemoryTables(reading.source, reading.group, reading.builder, {&reading.control.stopReading});
    for (const QString &file : memoryTableFiles(reading.source))
        reading.recordRead(file);
    return reading.control.cancel ? ReadStatus::Cancelled : ReadStatus::Done;
}

const InputReader &summaryTablesReader()
{
    static const SummaryTablesReader reader;
    return reader;
}

} // namespace at
