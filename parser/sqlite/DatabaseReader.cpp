#include "InputReader.h"

#include "sqlite/ProfileDatabaseReader.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace at {

namespace {

// A profiler database (msprof_<n>.db, ascend_pytorch_profiler[_<rank>].db; FORMATS.md §6): timeline,
// kernel table, counters and steps (ProfileDatabaseReader), plus the collection facts it holds.
class DatabaseReader : public InputReader
{
public:
    bool recognises(const DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

} // namespace

bool DatabaseReader::recognises(const DataSource &source) const
{
    return source.format == TimelineFormat::Sqlite;
}

std::uint64_t DatabaseReader::bytesToRead(const DataSource &source) const
{
    return static_cast<std::uint64_t>(QFileInfo(source.timelineDatabase).size());
}

ReadStatus DatabaseReader::read(SourceReading &reading) const
{
    const QString &path = reading.source.timelineDatabase;
    LoadControl &control = reading.control;
    DatabaseReadInfo info;
    QString error;
    if (!readProfileDatabase(path, reading.builder, &info, &error, &control.stopReading)) {
        reading.builder.addWarning(error);
        reading.failure = error;
    }
    if (control.cancel)
        return ReadStatus::Cancelled;
    reading.recordRead(path);
    control.bytesDone = reading.progressBase + reading.readerBytes;
    // The metric columns come from the database, named like the kernel_details.csv header.
    reading.collection.summaryFile.clear();
    reading.collection.summaryHeader =
        QStringList{QStringLiteral("Name"), QStringLiteral("Context ID")} + info.metricHeaders;
    reading.properties = info.properties;
    if (!control.stopReading)
        return ReadStatus::Done;
    reading.warnMemoryStop(path, QCoreApplication::translate("Parser", "in the middle"),
                           QCoreApplication::translate("Parser", "%1 slices").arg(info.slices));
    return ReadStatus::Stopped;
}

const InputReader &databaseReader()
{
    static const DatabaseReader reader;
    return reader;
}

} // namespace at
