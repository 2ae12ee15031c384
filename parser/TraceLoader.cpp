#include "TraceLoader.h"

#include "TraceBuilder.h"
#include "common/Decompress.h"
#include "common/MappedFile.h"
#include "config/CollectionReader.h"
#include "folder/NamePatterns.h"
#include "folder/ProfileLayoutDetector.h"
#include "raw/RawProfileReader.h"
#include "snapshot/SnapshotCache.h"
#include "sqlite/ProfileDatabaseReader.h"
#include "summary/KernelSummaryReader.h"
#include "json/ChromeTraceParser.h"
#include "json/JsonArgsReader.h"

#include "folder/SingleFile.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSet>

namespace at {

namespace {

enum class FileStatus
{
    Ok,
    Failed,
    Cancelled,
    MemoryLimit // the memory guard stopped reading; what was read is kept
};

// `where` says where reading stopped ("at byte 123 of 456"), `kept` what was kept ("12 events").
QString memoryStopWarning(const QString &file, const QString &where, const QString &kept,
                          const LoadControl &control)
{
    return QStringLiteral("%1: reading stopped %2 because memory use reached the limit (%3 of %4; raise "
                          "it with --memory-limit or AT_MEMORY_LIMIT); the %5 read before were kept")
        .arg(file, where, formatByteSize(privateResidentBytes()), formatByteSize(control.memoryLimitBytes),
             kept);
}

// After a reader returned: true when the user cancelled. When the memory guard stopped reading instead,
// clears the cancel flag it set (so the model is built from what was read), warns where reading stopped
// in `file` and what was kept, and returns false.
bool userCancelled(LoadControl &control, TraceBuilder &builder, const QString &file, const QString &where,
                   const QString &kept)
{
    if (!control.cancel)
        return false;
    if (!control.memoryLimitReached.load())
        return true;
    control.cancel = false;
    builder.addWarning(memoryStopWarning(file, where, kept, control));
    return false;
}

// Maps (decompressing first when needed) and parses one Chrome-trace file into the builder.
FileStatus parseJsonFile(const QString &path, TraceBuilder &builder, LoadControl &control,
                         std::uint64_t bytesBase, QString *error)
{
    std::unique_ptr<QTemporaryFile> temporary;
    QString decompressWarning;
    const Compression compression = detectCompression(path);
    if (compression != Compression::None) {
        // Progress shows compressed bytes while decompressing, then the decompressed bytes parsed.
        DecompressControl dc{&control.cancel, &control.bytesDone};
        temporary = decompressToTemporaryFile(path, compression, dc, &decompressWarning);
        if (control.cancel)
            return userCancelled(control, builder, path, QStringLiteral("while decompressing"),
                                 QStringLiteral("0 events"))
                       ? FileStatus::Cancelled
                       : FileStatus::MemoryLimit;
        if (!temporary) {
            *error = decompressWarning;
            return FileStatus::Failed;
        }
        if (!decompressWarning.isEmpty())
            builder.addWarning(decompressWarning);
    }
    QString mapError;
    std::unique_ptr<MappedFile> mapped =
        MappedFile::open(temporary ? temporary->fileName() : path, &mapError);
    if (!mapped) {
        *error = temporary ? QStringLiteral("%1: %2").arg(path, mapError) : mapError;
        return FileStatus::Failed;
    }
    const char *data = mapped->data();
    const std::size_t size = mapped->size();
    if (temporary) {
        const auto compressedSize = static_cast<std::uint64_t>(QFileInfo(path).size());
        control.bytesTotal =
            control.bytesTotal.load() - std::min(compressedSize, control.bytesTotal.load()) + size;
        control.bytesDone = bytesBase;
    }
    auto reader = std::make_shared<JsonArgsReader>(std::move(mapped), std::move(temporary));
    const std::uint32_t source = builder.addSource(path, reader);
    ChromeTraceParser parser(builder, source, path);
    ParseControl pc{&control.cancel, &control.bytesDone, bytesBase};
    pc.releaseParsedPages = true; // data is the read-only mapping of the file
    const auto status = parser.parse(data, size, pc, error);
    if (status == ChromeTraceParser::Result::Cancelled)
        return userCancelled(
                   control, builder, path,
                   QStringLiteral("at byte %1 of %2").arg(control.bytesDone.load() - bytesBase).arg(size),
                   QStringLiteral("%1 events").arg(parser.eventsRead()))
                   ? FileStatus::Cancelled
                   : FileStatus::MemoryLimit;
    if (status == ChromeTraceParser::Result::Failed)
        return FileStatus::Failed;
    if (parser.eventsRead() == 0)
        builder.addWarning(QStringLiteral("%1: the trace contains no events").arg(path));
    return FileStatus::Ok;
}

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
    return QStringLiteral("Chrome trace file");
}

int distinctIterations(const QStringList &files)
{
    QSet<int> iterations;
    for (const QString &file : files)
        if (const auto name = profile_names::parseExportFileName(QFileInfo(file).fileName());
            name && name->iteration)
            iterations.insert(*name->iteration);
    return static_cast<int>(iterations.size());
}

// G1 writes one timeline file per iteration ("msprof_0_1_3.json" = device 0, model 1, iteration
// 3): the events of such a file are that iteration's step (FORMATS.md §7.1).
void declareIterationStep(const QString &file, int group, std::size_t sourceIndex, TraceBuilder &builder)
{
    const auto name = profile_names::parseExportFileName(QFileInfo(file).fileName());
    if (!name || !name->iteration || sourceIndex >= builder.sourceCount())
        return;
    DeclaredStep step;
    step.group = group;
    step.number = *name->iteration;
    step.source = QFileInfo(file).fileName();
    step.spanOfSource = static_cast<std::int64_t>(sourceIndex);
    builder.addDeclaredStep(step);
}

// Layout text plus which export was used, so the Collection panel and --summary say it.
QString sourceDescription(const DataSource &source)
{
    if (source.format == TimelineFormat::Sqlite)
        return QStringLiteral("%1, SQLite database %2")
            .arg(layoutName(source), QFileInfo(source.timelineDatabase).fileName());
    if (source.format == TimelineFormat::RawBinary && source.generation != ProfileGeneration::RawOnly)
        return QStringLiteral(
                   "%1, raw data decoded by Ascend Timeline (--source raw; the export is not used)")
            .arg(layoutName(source));
    if (!source.timelineDatabase.isEmpty() && source.format != TimelineFormat::None)
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

// Database properties fill what the configuration files did not say.
void mergeDatabaseProperties(CollectionInfo &collection, const DatabaseReadInfo &info)
{
    for (const auto &[key, value] : info.properties)
        if (collection.property(key).isEmpty())
            collection.properties.append({key, value});
}

LoadResult loadFolder(const QString &path, LoadControl &control)
{
    LoadResult result;
    const LoadMemoryGuard guard(control);
    DetectOptions options;
    options.preferDatabase = control.preferredSource == PreferredSource::Database;
    DetectedProfile profile = ProfileLayoutDetector::detect(path, options);
    QStringList problems;
    // --source raw: decode the raw slices of every source that has them, instead of its export.
    const bool forceRaw = control.preferredSource == PreferredSource::Raw;
    QHash<QString, QString> exportOf; // rootPath of a source switched to raw -> the export it had
    if (forceRaw) {
        bool anyRaw = false;
        for (DataSource &source : profile.sources) {
            if (source.rawDataDirs.isEmpty())
                continue;
            anyRaw = true;
            if (source.format == TimelineFormat::RawBinary)
                continue;
            exportOf.insert(
                source.rootPath,
                source.format == TimelineFormat::Sqlite
                    ? QStringLiteral("SQLite database %1").arg(QFileInfo(source.timelineDatabase).fileName())
                    : QStringLiteral("text export"));
            source.format = TimelineFormat::RawBinary;
            source.timelineFiles.clear();
            source.supplementaryTimelineFiles.clear();
            source.summaryFiles.clear(); // the kernel table comes from the raw PMU records
        }
        if (!anyRaw)
            problems << QStringLiteral(
                            "%1: raw data was requested but no PROF_*/host|device_N/data folder was "
                            "found; the export was loaded instead")
                            .arg(path);
    }
    // "raw data only: run msprof" is shown only when the raw data cannot be decoded here either.
    QStringList rawOnlyMessages;
    for (const Diagnostic &d : profile.diagnostics)
        if (d.code == DiagnosticCode::RawDataOnly)
            rawOnlyMessages << d.message;
        else if (d.code != DiagnosticCode::MultipleRuns)
            problems << d.message;

    // Sources of different runs have unrelated clocks (FORMATS.md §1.8): load the first run that
    // has something to show, and name the others.
    auto isLoadable = [](const DataSource &source) {
        const bool hasKernelTable = !source.summaries(QStringLiteral("kernel_details")).isEmpty() ||
                                    !source.summaries(QStringLiteral("op_summary")).isEmpty();
        return source.format == TimelineFormat::ChromeJson ||
               source.format == TimelineFormat::CompressedChromeJson ||
               source.format == TimelineFormat::Sqlite || source.format == TimelineFormat::RawBinary ||
               (source.format == TimelineFormat::None && hasKernelTable);
    };
    QString run;
    // The text export is the default (§1.8), also when choosing between runs: a run with a JSON timeline
    // wins over a database-only one unless the database is preferred.
    const bool preferDb = control.preferredSource == PreferredSource::Database;
    for (const DataSource &source : profile.sources)
        if (run.isEmpty() && isLoadable(source) && source.hasTimeline() &&
            (source.format == TimelineFormat::Sqlite) == preferDb)
            run = source.clusterPath;
    for (const DataSource &source : profile.sources)
        if (run.isEmpty() && isLoadable(source) && source.hasTimeline())
            run = source.clusterPath;
    for (const DataSource &source : profile.sources)
        if (run.isEmpty() && isLoadable(source))
            run = source.clusterPath;
    std::vector<const DataSource *> loadable;
    QStringList skipped, otherRuns;
    for (const DataSource &source : profile.sources) {
        if (source.clusterPath != run) {
            if (!otherRuns.contains(source.clusterPath))
                otherRuns << source.clusterPath;
            continue;
        }
        if (isLoadable(source))
            loadable.push_back(&source);
    }
    if (!otherRuns.isEmpty() && !run.isEmpty())
        skipped << QStringLiteral(
                       "%1 holds results of %2 runs; showing %3. Open the others separately (their clocks "
                       "are not aligned): %4")
                       .arg(path)
                       .arg(otherRuns.size() + 1)
                       .arg(run, otherRuns.join(QStringLiteral(", ")));
    if (loadable.empty()) {
        QStringList reasons = rawOnlyMessages + problems + skipped;
        if (reasons.isEmpty())
            reasons << QStringLiteral("no profiling result with a timeline was found");
        result.error = QStringLiteral("%1: %2").arg(path, reasons.join(QStringLiteral("; ")));
        return result;
    }

    std::uint64_t total = 0;
    std::map<const DataSource *, std::uint64_t> rawBytes; // listed once: the progress total and base
    for (const DataSource *source : loadable) {
        for (const QString &file : source->timelineFiles + source->supplementaryTimelineFiles)
            total += static_cast<std::uint64_t>(QFileInfo(file).size());
        if (source->format == TimelineFormat::RawBinary)
            total += rawBytes[source] = rawDataBytes(*source);
    }
    control.bytesTotal = total;
    control.bytesDone = 0;

    TraceBuilder builder;
    for (const QString &p : problems + skipped)
        builder.addWarning(p);
    std::uint64_t base = 0;
    QStringList failures; // databases that could not be read at all
    for (const DataSource *source : loadable) {
        SourceGroup group;
        group.label = source->label;
        group.layout = sourceDescription(*source);
        group.path = source->rootPath;
        group.timelineFiles = source->timelineFiles;
        const bool database = source->format == TimelineFormat::Sqlite;
        // A database carries its own kernel table (COMPUTE_TASK_INFO + TASK_PMU_INFO).
        const QStringList kernelFiles = database ? QStringList()
                                        : !source->summaries(QStringLiteral("kernel_details")).isEmpty()
                                            ? source->summaries(QStringLiteral("kernel_details"))
                                            : source->summaries(QStringLiteral("op_summary"));
        group.summaryFiles = kernelFiles;
        const int groupIndex = builder.addGroup(group);
        if (source->timelineFiles.size() > 1)
            builder.setDeduplicate(true); // G1 iterations and msprof slices may repeat events
        const bool perIterationFiles = distinctIterations(source->timelineFiles) > 1;
        // Parses files into the builder; false when the user cancelled. After the memory limit
        // stopped reading, no further file is read.
        auto parseAll = [&](const QStringList &files) {
            for (const QString &file : files) {
                if (control.memoryLimitReached)
                    return true;
                QString error;
                const std::size_t sourceIndex = builder.sourceCount();
                const FileStatus status = parseJsonFile(file, builder, control, base, &error);
                if (perIterationFiles)
                    declareIterationStep(file, groupIndex, sourceIndex, builder);
                if (status == FileStatus::Cancelled)
                    return false;
                if (status == FileStatus::Failed)
                    builder.addWarning(error);
                base += static_cast<std::uint64_t>(QFileInfo(file).size());
            }
            return true;
        };
        DatabaseReadInfo dbInfo;
        const bool raw = source->format == TimelineFormat::RawBinary;
        if (raw) {
            // FORMATS.md §5: decode the binary slices (parser/raw).
            RawReadInfo rawInfo;
            const std::size_t slices =
                readRawProfile(*source, builder, &rawInfo, &control.cancel, &control.bytesDone);
            base += rawBytes[source]; // includes the slice files readRawProfile did not stream (dictionaries)
            control.bytesDone = std::min(base, control.bytesTotal.load());
            const bool stopped = control.cancel;
            if (userCancelled(control, builder, source->profPath, QStringLiteral("in the middle"),
                              QStringLiteral("%1 slices").arg(slices))) {
                result.cancelled = true;
                return result;
            }
            if (!stopped && slices == 0 && rawInfo.pmuRows == 0) {
                QString message = QStringLiteral("%1: no raw record could be decoded").arg(source->profPath);
                for (const QString &m : rawOnlyMessages)
                    if (m.contains(source->profPath))
                        message = QStringLiteral("%1 (%2)").arg(m, message);
                builder.addWarning(message);
                failures << message;
            }
        }
        if (database) {
            QString error;
            if (!readProfileDatabase(source->timelineDatabase, builder, &dbInfo, &error, &control.cancel)) {
                builder.addWarning(error);
                failures << error;
            }
            if (userCancelled(control, builder, source->timelineDatabase, QStringLiteral("in the middle"),
                              QStringLiteral("%1 slices").arg(dbInfo.slices))) {
                result.cancelled = true;
                return result;
            }
            base += static_cast<std::uint64_t>(QFileInfo(source->timelineDatabase).size());
            control.bytesDone = base;
        }
        bool completed = database || raw || parseAll(source->timelineFiles);
        // G1: hccl_* files only when the master timeline has no communication layer (FORMATS.md §1.2).
        if (completed && !database && !raw && !builder.groupHasLayer(groupIndex, Layer::Communication))
            completed = parseAll(source->supplementaryTimelineFiles);
        if (!completed) {
            result.cancelled = true;
            return result;
        }
        readKernelSummary(kernelFiles, groupIndex, builder);
        for (const QString &type : plainSummaryTypes())
            readSummaryTable(type, source->summaries(type), groupIndex, builder);
        if (control.cancel) {
            result.cancelled = true;
            return result;
        }
        CollectionInputs inputs = collectionInputsFrom(*source);
        inputs.profiledSteps = builder.profilerSteps(groupIndex);
        if (database) {
            // The metric columns come from the database, named like the kernel_details.csv header.
            inputs.summaryFile.clear();
            inputs.summaryHeader =
                QStringList{QStringLiteral("Name"), QStringLiteral("Context ID")} + dbInfo.metricHeaders;
        }
        builder.group(groupIndex).collection = readCollectionInfo(inputs);
        if (database)
            mergeDatabaseProperties(builder.group(groupIndex).collection, dbInfo);
        else
            builder.group(groupIndex)
                .collection.properties.append(
                    {QStringLiteral("timeline source"),
                     raw ? QStringLiteral("raw data (PROF_*/*/data slices decoded by Ascend Timeline)")
                         : QStringLiteral("text export")});
        if (raw && exportOf.contains(source->rootPath))
            builder.group(groupIndex)
                .collection.properties.append(
                    {QStringLiteral("other source"), exportOf.value(source->rootPath)});
        else if (!raw && !source->rawDataDirs.isEmpty())
            builder.group(groupIndex)
                .collection.properties.append(
                    {QStringLiteral("raw data"),
                     QStringLiteral("PROF_*/*/data slices (load them with --source raw or File ▸ Reload from "
                                    "Raw Data)")});
        if (!database && !raw && !source->timelineDatabase.isEmpty())
            builder.group(groupIndex)
                .collection.properties.append({QStringLiteral("other source"),
                                               QStringLiteral("SQLite database %1")
                                                   .arg(QFileInfo(source->timelineDatabase).fileName())});
        else if (database && hasTextExportBeside(source->timelineDatabase))
            builder.group(groupIndex)
                .collection.properties.append(
                    {QStringLiteral("other source"), QStringLiteral("text export")});
        for (const QString &warning : builder.group(groupIndex).collection.warnings)
            builder.addWarning(QStringLiteral("%1: %2").arg(source->label, warning));
    }
    if (failures.size() == static_cast<qsizetype>(loadable.size())) {
        result.error = failures.join(QStringLiteral("; "));
        return result;
    }
    result.model = builder.build();
    control.bytesDone = control.bytesTotal.load();
    return result;
}

// A profiler database opened directly (analysis.db and cluster_analysis.db are refused by name).
LoadResult loadDatabaseFile(const QString &path, LoadControl &control)
{
    LoadResult result;
    QList<Diagnostic> diagnostics;
    const std::optional<DataSource> source = classifySingleFile(path, diagnostics);
    if (!source || source->format != TimelineFormat::Sqlite) {
        result.error = diagnostics.isEmpty() ? QStringLiteral("%1: not a profiler database").arg(path)
                                             : diagnostics.front().message;
        return result;
    }
    control.bytesTotal = static_cast<std::uint64_t>(QFileInfo(path).size());
    control.bytesDone = 0;
    TraceBuilder builder;
    SourceGroup group;
    group.layout = sourceDescription(*source);
    group.path = path;
    group.timelineFiles = {path};
    const int groupIndex = builder.addGroup(group);
    DatabaseReadInfo info;
    const LoadMemoryGuard guard(control);
    if (!readProfileDatabase(path, builder, &info, &result.error, &control.cancel))
        return result;
    if (userCancelled(control, builder, path, QStringLiteral("in the middle"),
                      QStringLiteral("%1 slices").arg(info.slices))) {
        result.cancelled = true;
        return result;
    }
    CollectionInputs inputs;
    inputs.summaryHeader =
        QStringList{QStringLiteral("Name"), QStringLiteral("Context ID")} + info.metricHeaders;
    inputs.rankId = source->rankId;
    inputs.profiledSteps = builder.profilerSteps(groupIndex);
    CollectionInfo &collection = builder.group(groupIndex).collection;
    collection = readCollectionInfo(inputs);
    mergeDatabaseProperties(collection, info);
    if (hasTextExportBeside(path))
        collection.properties.append({QStringLiteral("other source"), QStringLiteral("text export")});
    if (control.cancel) {
        result.cancelled = true;
        return result;
    }
    result.model = builder.build();
    control.bytesDone = control.bytesTotal.load();
    return result;
}

LoadResult loadFromSource(const QString &path, LoadControl &control)
{
    LoadResult result;
    const QFileInfo info(path);
    if (!info.exists()) {
        result.error = QStringLiteral("%1: no such file or folder").arg(path);
        return result;
    }
    if (info.isDir())
        return loadFolder(path, control);
    if (info.suffix().compare(QStringLiteral("db"), Qt::CaseInsensitive) == 0)
        return loadDatabaseFile(path, control);
    control.bytesTotal = static_cast<std::uint64_t>(info.size());
    control.bytesDone = 0;
    TraceBuilder builder;
    SourceGroup group;
    group.layout = QStringLiteral("file");
    group.path = path;
    group.timelineFiles = {path};
    builder.addGroup(group);
    const LoadMemoryGuard guard(control);
    const FileStatus status = parseJsonFile(path, builder, control, 0, &result.error);
    if (status == FileStatus::Cancelled) {
        result.cancelled = true;
        return result;
    }
    if (status == FileStatus::Failed)
        return result;
    result.model = builder.build();
    control.bytesDone = control.bytesTotal.load();
    return result;
}

} // namespace

LoadResult loadTrace(const QString &path, LoadControl &control)
{
    // The snapshot cache (parser/snapshot) only changes how fast the same model arrives. Raw decoding is
    // never cached (its args live in memory), and asking for it must not reopen the export's snapshot.
    const bool cache = snapshot::enabled() && control.preferredSource != PreferredSource::Raw;
    if (cache) {
        QString reason;
        bool cancelled = false;
        if (std::unique_ptr<TraceModel> model = snapshot::load(path, control, &reason, &cancelled)) {
            qCInfo(snapshot::lcSnapshot) << "reopened" << path << "from its snapshot";
            LoadResult result;
            result.model = std::move(model);
            result.fromSnapshot = true;
            return result;
        }
        if (cancelled) {
            LoadResult result;
            result.cancelled = true;
            return result;
        }
        qCInfo(snapshot::lcSnapshot) << "snapshot not used:" << reason;
    }
    // Not written when the input changed while it was being read (the model may mix both).
    const snapshot::FileStamp before = snapshot::stampOf(path);
    LoadResult result = loadFromSource(path, control);
    // A model cut short by the memory guard is not the input's model: never cache it.
    if (cache && result.model && !control.cancel && !control.memoryLimitReached &&
        snapshot::stampOf(path) == before) {
        QString reason;
        if (!snapshot::write(*result.model, path, control.preferredSource, control.writeSnapshotInBackground,
                             control.bytesTotal.load(), &reason))
            qCInfo(snapshot::lcSnapshot) << "snapshot not written:" << reason;
    }
    return result;
}

} // namespace at
