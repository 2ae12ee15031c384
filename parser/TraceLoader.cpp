#include "TraceLoader.h"

#include "InputReader.h"
#include "LoadPlan.h"
#include "RankSubsetLoad.h"
#include "TraceBuilder.h"
#include "common/InputPath.h"
#include "config/CollectionReader.h"
#include "snapshot/SnapshotCache.h"
#include "summary/SummaryTablesReader.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>

#include <map>

namespace at {

namespace {

QString layoutName(const DataSource &source)
{
    switch (source.generation) {
    case ProfileGeneration::G1:
        return QStringLiteral("G1 (CANN ≤ 5.x E2E: PROF_*/device_N/timeline)");
    case ProfileGeneration::G2:
        return QStringLiteral("G2 (CANN 6.x: PROF_*/timeline)");
    case ProfileGeneration::G3:
        return QStringLiteral("G3 (CANN ≥ 7.0: mindstudio_profiler_output)");
    case ProfileGeneration::G4:
        return QStringLiteral("G4 (torch_npu *_ascend_pt)");
    case ProfileGeneration::RawOnly:
        return QStringLiteral("raw data (binary slices decoded by the viewer)");
    case ProfileGeneration::Unknown:
        break;
    }
    // No Ascend layout: the format its reader names ("Chrome trace file").
    const InputReader *reader = timelineReaderOf(source);
    return reader ? reader->descriptor().displayName : QStringLiteral("Chrome trace file");
}

// Which export a format's reader reads (its descriptor), None when no reader reads the source's timeline.
TimelineExport exportOf(const QString &format)
{
    const InputReader *reader = format.isEmpty() ? nullptr : inputReaderById(format);
    return reader ? reader->descriptor().provenance : TimelineExport::None;
}

// Layout text plus which export was used, so the Collection panel and --summary say it.
QString sourceDescription(const DataSource &source)
{
    const TimelineExport used = exportOf(source.format);
    if (used == TimelineExport::Database)
        return QStringLiteral("%1, SQLite database %2")
            .arg(layoutName(source), QFileInfo(source.timelineDatabase).fileName());
    if (used == TimelineExport::RawData && source.generation != ProfileGeneration::RawOnly)
        return QStringLiteral(
                   "%1, raw data decoded by Ascend Timeline (--source raw; the export is not used)")
            .arg(layoutName(source));
    if (!source.timelineDatabase.isEmpty() && !source.format.isEmpty())
        return QStringLiteral("%1, text export (the SQLite database %2 is also there: --source db)")
            .arg(layoutName(source), QFileInfo(source.timelineDatabase).fileName());
    return layoutName(source);
}

// Whether the text export of the same result sits beside a database (so the user can switch).
bool hasTextExportBeside(const QString &database)
{
    const QFileInfo db(database);
    if (QFileInfo::exists(db.dir().filePath(QStringLiteral("trace_view.json"))))
        return true;
    const QDir exported(db.dir().filePath(QStringLiteral("mindstudio_profiler_output")));
    return !exported.entryList({QStringLiteral("msprof*.json")}, QDir::Files).isEmpty();
}

// Which export a planned source is read from, and which others the same result has.
void describeProvenance(const PlannedSource &planned, bool singleFile, SourceProvenance &provenance)
{
    const DataSource &source = planned.source;
    provenance.databasePath = source.timelineDatabase;
    provenance.rawDataDirs = source.rawDataDirs;
    switch (exportOf(source.format)) {
    case TimelineExport::Database:
        provenance.used = TimelineExport::Database;
        provenance.hasTextExport = hasTextExportBeside(source.timelineDatabase);
        break;
    case TimelineExport::RawData: {
        provenance.used = TimelineExport::RawData;
        // A source switched to raw data by --source raw keeps the export it had.
        const TimelineExport before = exportOf(planned.exportFormat);
        provenance.hasTextExport = before != TimelineExport::Database && before != TimelineExport::RawData;
        break;
    }
    case TimelineExport::None: // kernel rows drawn from the CSV export
    case TimelineExport::ChromeJson:
    case TimelineExport::TextExport:
        provenance.used = singleFile ? TimelineExport::ChromeJson : TimelineExport::TextExport;
        provenance.hasTextExport = !singleFile;
        break;
    }
}

// Properties the database holds fill what the configuration files did not say.
void mergeProperties(CollectionInfo &collection, const QList<QPair<QString, QString>> &properties)
{
    for (const auto &[key, value] : properties)
        if (collection.property(key).isEmpty())
            collection.properties.append({key, value});
}

LoadResult stoppedBy(LoadStop stop, QString error = {})
{
    LoadResult result;
    result.stop = stop;
    result.error = std::move(error);
    return result;
}

// Runs every reader of the plan's chosen run into one builder (one clock), a SourceGroup per source.
LoadResult runPlan(const LoadPlan &plan, const LoadOptions &options, LoadControl &control)
{
    const PlannedRun *run = plan.chosen();
    if (!run)
        return stoppedBy(LoadStop::Error, plan.error);
    const LoadMemoryGuard guard(control, options.memoryLimitBytes);
    std::map<std::pair<const PlannedSource *, const InputReader *>, std::uint64_t> bytes; // listed once
    std::uint64_t total = 0;
    for (const PlannedSource &source : run->sources)
        for (const InputReader *reader : source.readers)
            total += bytes[{&source, reader}] = reader->bytesToRead(source.source);
    control.bytesTotal = total;
    control.bytesDone = 0;

    TraceBuilder builder;
    for (const QString &notice : plan.notices)
        builder.addWarning(notice);
    for (const QString &notice : options.notices)
        builder.addWarning(notice);
    std::uint64_t base = 0;
    QStringList failures; // sources that could not be read at all
    for (const PlannedSource &planned : run->sources) {
        const DataSource &source = planned.source;
        const bool chromeTraceFile = plan.singleFile && exportOf(source.format) != TimelineExport::Database;
        SourceGroup group;
        group.label = source.label;
        group.layout = chromeTraceFile ? QStringLiteral("file") : sourceDescription(source);
        group.path = source.rootPath;
        group.timelineFiles = source.timelineFiles;
        group.summaryFiles = kernelTableFiles(source);
        const int groupIndex = builder.addGroup(group);
        SourceReading reading{source, groupIndex, builder, control, options};
        reading.singleFile = plan.singleFile;
        reading.rawDataOnlyMessages = planned.rawDataOnlyMessages;
        reading.collection = collectionInputsFrom(source);
        describeProvenance(planned, plan.singleFile, reading.provenance);
        for (const InputReader *reader : planned.readers) {
            reading.progressBase = base;
            reading.readerBytes = bytes[{&planned, reader}];
            if (reader->read(reading) == ReadStatus::Cancelled)
                return stoppedBy(LoadStop::UserCancel);
            base += reading.readerBytes;
        }
        if (!reading.failure.isEmpty())
            failures << reading.failure;
        if (control.cancel)
            return stoppedBy(LoadStop::UserCancel);
        SourceGroup &built = builder.group(groupIndex);
        built.provenance = std::move(reading.provenance);
        if (chromeTraceFile)
            continue; // a lone trace has no collection configuration
        reading.collection.profiledSteps = builder.profilerSteps(groupIndex);
        built.collection = readCollectionInfo(reading.collection);
        mergeProperties(built.collection, reading.properties);
        if (plan.singleFile)
            continue;
        for (const QString &warning : built.collection.warnings)
            builder.addWarning(QStringLiteral("%1: %2").arg(source.label, warning));
    }
    if (failures.size() == static_cast<qsizetype>(run->sources.size()))
        return stoppedBy(LoadStop::Error, failures.join(QStringLiteral("; ")));
    LoadResult result;
    result.model = builder.build();
    result.stop = control.memoryLimitReached ? LoadStop::MemoryLimit : LoadStop::None;
    control.bytesDone = control.bytesTotal.load();
    return result;
}

} // namespace

LoadOptions environmentLoadOptions()
{
    LoadOptions options;
    options.useSnapshotCache = snapshot::enabled();
    QString problem;
    options.memoryLimitBytes = defaultMemoryLimit(&problem);
    if (!problem.isEmpty())
        options.notices << problem;
    return options;
}

LoadResult loadTrace(const QString &givenPath, const LoadOptions &options, LoadControl &control)
{
    // A folder read with a cache of the user's choosing (a prepared cluster) is read at its real path: its
    // snapshot, found again from another path, moves the paths under the real path it was made at
    // (SnapshotCache.h), so the model must hold those, not a symbolic link's.
    const QString realFolder = !options.snapshotDirectory.isEmpty() && QFileInfo(givenPath).isDir()
                                   ? QFileInfo(givenPath).canonicalFilePath()
                                   : QString();
    const QString &path = realFolder.isEmpty() ? givenPath : realFolder;
    // The snapshot cache (parser/snapshot) only changes how fast the same model arrives. Raw decoding is
    // never cached (its args live in memory), and asking for it must not reopen the export's snapshot.
    const bool cache = options.useSnapshotCache && options.preferredSource != PreferredSource::Raw;
    // A FIFO, socket, device or dangling link is named as what it is (and never opened: a FIFO blocks).
    const QString pathProblem = inputPathProblem(path);
    if (!pathProblem.isEmpty())
        return stoppedBy(LoadStop::Error, pathProblem);
    // Ranks of a cluster: each through this function for its own folder, then merged.
    if (!options.rankFolders.isEmpty())
        return loadRankSubset(path, options, control);
    if (cache) {
        QString reason;
        bool cancelled = false;
        if (std::unique_ptr<TraceModel> model = snapshot::load(path, options, control, &reason, &cancelled)) {
            qCInfo(snapshot::lcSnapshot) << "reopened" << path << "from its snapshot";
            LoadResult result;
            result.model = std::move(model);
            result.fromSnapshot = true;
            return result;
        }
        if (cancelled)
            return stoppedBy(LoadStop::UserCancel);
        qCInfo(snapshot::lcSnapshot) << "snapshot not used:" << reason;
    }
    // Not written when the input changed while it was being read (the model may mix both).
    const snapshot::FileStamp before = snapshot::stampOf(path);
    LoadResult result = runPlan(planLoad(path, options), options, control);
    // A model cut short by the memory guard is not the input's model: never cache it.
    if (cache && result.model && result.stop == LoadStop::None && snapshot::stampOf(path) == before) {
        QString reason;
        if (!snapshot::write(*result.model, path, options.preferredSource, options.writeSnapshotInBackground,
                             control.bytesTotal.load(), &reason, options.snapshotDirectory))
            qCInfo(snapshot::lcSnapshot) << "snapshot not written:" << reason;
    }
    return result;
}

LoadResult loadRanksAsOneRun(const QString &path, const LoadOptions &options, LoadControl &control)
{
    const QString pathProblem = inputPathProblem(path);
    if (!pathProblem.isEmpty())
        return stoppedBy(LoadStop::Error, pathProblem);
    return runPlan(planLoad(path, options), options, control);
}

} // namespace at
