#include "InputReader.h"

#include "folder/NamePatterns.h"
#include "sqlite/DbArgsReader.h"
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
    const InputReaderDescriptor &descriptor() const override
    {
        static const InputReaderDescriptor d{QStringLiteral("sqlite"), QStringLiteral("SQLite database"),
                                             TimelineExport::Database, snapshot_args_kind::kDatabase, true};
        return d;
    }
    SniffAnswer sniffFile(const FileSniff &file, DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
    std::shared_ptr<const EventArgsReader> reopenArgs(const QString &path) const override
    {
        return std::make_shared<DbArgsReader>(path);
    }
};

} // namespace

// By name only (a database is never opened to be judged): msprof_<n>.db and
// ascend_pytorch_profiler[_<rank>].db hold a timeline; another *.db is refused.
SniffAnswer DatabaseReader::sniffFile(const FileSniff &file, DataSource &source) const
{
    using namespace profile_names;
    if (file.isFolder)
        return {};
    if (isMsprofDbName(file.name) || isTorchDbName(file.name)) {
        source.generation = isMsprofDbName(file.name) ? ProfileGeneration::G3 : ProfileGeneration::G4;
        source.timelineDatabase = file.path;
        source.rankId = rankFromTorchDbName(file.name);
        return {SniffVerdict::Mine, {}};
    }
    if (file.name.endsWith(QStringLiteral(".db")))
        return {SniffVerdict::Refused,
                QCoreApplication::translate(
                    "Parser", "only msprof_<n>.db and ascend_pytorch_profiler[_<rank>].db databases hold "
                              "a timeline (analysis.db and cluster_analysis.db are summaries).")};
    return {};
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
