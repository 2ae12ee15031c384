#include "summary/SummaryTablesReader.h"

#include "InputReader.h"

#include <QCoreApplication>

#include "memory/MemoryTablesReader.h"
#include "summary/KernelSummaryReader.h"

namespace at {

namespace {

// The kernel table of a source (kernel_details.csv, else op_summary_*.csv; a database carries its own) and
// its other summary CSVs as plain tables. Runs after the timeline readers.
class SummaryTablesReader : public InputReader
{
public:
    const InputReaderDescriptor &descriptor() const override
    {
        static const InputReaderDescriptor d{QStringLiteral("summary-tables"),
                                             QStringLiteral("summary CSV tables"), TimelineExport::None, 0,
                                             false};
        return d;
    }
    // A CSV opened on its own is refused: its tables belong to a result folder.
    SniffAnswer sniffFile(const FileSniff &file, DataSource &) const override
    {
        if (file.isFolder || !file.name.endsWith(QStringLiteral(".csv")))
            return {};
        return {SniffVerdict::Refused,
                QCoreApplication::translate(
                    "Parser", "CSV files are summary tables; open the result folder that contains it.")};
    }
    bool recognises(const DataSource &source) const override;
    // Not counted in the progress: the tables are small next to the timelines.
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

// Which summary tables a load stopped by the memory guard read completely, cut or did not read.
class TablesKept
{
public:
    explicit TablesKept(const QString &root) : m_prefix(root + QLatin1Char('/')) {}
    void note(const QStringList &files, bool notRead, bool cut, std::size_t rows)
    {
        const QString name =
            files.first().startsWith(m_prefix) ? files.first().mid(m_prefix.size()) : files.first();
        const int more = int(files.size()) - 1; // the table's other slices
        const QString label =
            more == 0 ? name
                      : QCoreApplication::translate("Parser", "%1 (+%n slices)", nullptr, more).arg(name);
        m_rows += rows;
        if (notRead)
            m_notRead << label;
        else if (cut)
            m_cut << QCoreApplication::translate("Parser", "%1 after %2 rows").arg(label).arg(rows);
        else
            m_complete << QCoreApplication::translate("Parser", "%1 (%2 rows)").arg(label).arg(rows);
    }
    bool stopped() const { return !m_cut.isEmpty() || !m_notRead.isEmpty(); }
    std::size_t rows() const { return m_rows; }
    QString summary() const
    {
        const QString none = QCoreApplication::translate("Parser", "none");
        auto listed = [&](const QStringList &l) { return l.isEmpty() ? none : l.join(QStringLiteral(", ")); };
        return QCoreApplication::translate("Parser", "read completely: %1; cut: %2; not read: %3")
            .arg(listed(m_complete), listed(m_cut), listed(m_notRead));
    }

private:
    QString m_prefix;
    QStringList m_complete, m_cut, m_notRead;
    std::size_t m_rows = 0;
};

} // namespace

QStringList kernelTableFiles(const DataSource &source)
{
    if (const InputReader *timeline = timelineReaderOf(source);
        timeline && timeline->descriptor().makesKernelTable)
        return {}; // e.g. a database's COMPUTE_TASK_INFO + TASK_PMU_INFO
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
    const std::atomic<bool> &stop = reading.control.stopReading;
    TablesKept kept(reading.source.rootPath);
    const QStringList kernelFiles = kernelTableFiles(reading.source);
    if (!kernelFiles.isEmpty() && reading.kernelTable) { // read with the kernel-row timeline
        kept.note(kernelFiles, reading.kernelTable->notRead, reading.kernelTable->cut,
                  reading.kernelTable->rows);
    } else if (!kernelFiles.isEmpty()) {
        bool cut = false;
        const bool before = stop;
        const std::size_t rows = before ? 0
                                        : readKernelSummary(kernelFiles, reading.group, reading.builder,
                                                            &stop, &cut, &reading.collection.summaryHeader);
        kept.note(kernelFiles, before, cut, rows);
    }
    for (const QString &file : kernelFiles)
        reading.recordRead(file);
    for (const QString &type : plainSummaryTypes()) {
        const QStringList files = reading.source.summaries(type);
        if (files.isEmpty())
            continue;
        bool cut = false;
        const bool before = stop;
        const std::size_t rows =
            before ? 0 : readSummaryTable(type, files, reading.group, reading.builder, &stop, &cut);
        kept.note(files, before, cut, rows);
        for (const QString &file : files)
            reading.recordRead(file);
    }
    // memory_record, operator_memory, ...: streamed, up to the stop flag
    readMemoryTables(reading.source, reading.group, reading.builder, {&reading.control.stopReading});
    for (const QString &file : memoryTableFiles(reading.source))
        reading.recordRead(file);
    if (reading.control.cancel)
        return ReadStatus::Cancelled;
    if (!reading.control.memoryLimitReached || !kept.stopped())
        return ReadStatus::Done;
    reading.warnMemoryStop(reading.source.rootPath,
                           QCoreApplication::translate("Parser", "in its summary tables"),
                           QCoreApplication::translate("Parser", "%1 table rows").arg(kept.rows()));
    reading.builder.addWarning(
        QCoreApplication::translate("Parser", "%1: summary tables when reading stopped: %2")
            .arg(reading.source.rootPath, kept.summary()));
    return ReadStatus::Stopped;
}

const InputReader &summaryTablesReader()
{
    static const SummaryTablesReader reader;
    return reader;
}

} // namespace at
