#include "TraceLoader.h"

#include "TraceBuilder.h"
#include "common/Decompress.h"
#include "common/MappedFile.h"
#include "config/CollectionReader.h"
#include "folder/NamePatterns.h"
#include "folder/ProfileLayoutDetector.h"
#include "summary/KernelSummaryReader.h"
#include "json/ChromeTraceParser.h"
#include "json/JsonArgsReader.h"

#include <QFileInfo>
#include <QSet>

namespace at {

namespace {

enum class FileStatus
{
    Ok,
    Failed,
    Cancelled
};

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
            return FileStatus::Cancelled;
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
    const auto status = parser.parse(data, size, pc, error);
    if (status == ChromeTraceParser::Result::Cancelled)
        return FileStatus::Cancelled;
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
        return QStringLiteral("raw data only");
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

LoadResult loadFolder(const QString &path, LoadControl &control)
{
    LoadResult result;
    const DetectedProfile profile = ProfileLayoutDetector::detect(path);
    QStringList problems;
    for (const Diagnostic &d : profile.diagnostics)
        if (d.code != DiagnosticCode::MultipleRuns)
            problems << d.message;

    // Sources of different runs have unrelated clocks (FORMATS.md §1.8): load the first run that
    // has something to show, and name the others.
    auto isLoadable = [](const DataSource &source) {
        const bool hasKernelTable = !source.summaries(QStringLiteral("kernel_details")).isEmpty() ||
                                    !source.summaries(QStringLiteral("op_summary")).isEmpty();
        return source.format == TimelineFormat::ChromeJson ||
               source.format == TimelineFormat::CompressedChromeJson ||
               (source.format == TimelineFormat::None && hasKernelTable);
    };
    QString run;
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
        else if (source.format == TimelineFormat::Sqlite)
            skipped << QStringLiteral(
                           "%1: its timeline is only in the SQLite database %2, which this version cannot "
                           "read yet")
                           .arg(source.label, source.timelineDatabase);
    }
    if (!otherRuns.isEmpty() && !run.isEmpty())
        skipped << QStringLiteral(
                       "%1 holds results of %2 runs; showing %3. Open the others separately (their clocks "
                       "are not aligned): %4")
                       .arg(path)
                       .arg(otherRuns.size() + 1)
                       .arg(run, otherRuns.join(QStringLiteral(", ")));
    if (loadable.empty()) {
        QStringList reasons = problems + skipped;
        if (reasons.isEmpty())
            reasons << QStringLiteral("no profiling result with a timeline was found");
        result.error = QStringLiteral("%1: %2").arg(path, reasons.join(QStringLiteral("; ")));
        return result;
    }

    std::uint64_t total = 0;
    for (const DataSource *source : loadable)
        for (const QString &file : source->timelineFiles + source->supplementaryTimelineFiles)
            total += static_cast<std::uint64_t>(QFileInfo(file).size());
    control.bytesTotal = total;
    control.bytesDone = 0;

    TraceBuilder builder;
    for (const QString &p : problems + skipped)
        builder.addWarning(p);
    std::uint64_t base = 0;
    for (const DataSource *source : loadable) {
        SourceGroup group;
        group.label = source->label;
        group.layout = layoutName(*source);
        group.path = source->rootPath;
        group.timelineFiles = source->timelineFiles;
        const QStringList kernelFiles = !source->summaries(QStringLiteral("kernel_details")).isEmpty()
                                            ? source->summaries(QStringLiteral("kernel_details"))
                                            : source->summaries(QStringLiteral("op_summary"));
        group.summaryFiles = kernelFiles;
        const int groupIndex = builder.addGroup(group);
        if (source->timelineFiles.size() > 1)
            builder.setDeduplicate(true); // G1 iterations and msprof slices may repeat events
        const bool perIterationFiles = distinctIterations(source->timelineFiles) > 1;
        // Parses files into the builder; false when the user cancelled.
        auto parseAll = [&](const QStringList &files) {
            for (const QString &file : files) {
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
        bool completed = parseAll(source->timelineFiles);
        // G1: hccl_* files only when the master timeline has no communication layer (FORMATS.md §1.2).
        if (completed && !builder.groupHasLayer(groupIndex, Layer::Communication))
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
        builder.group(groupIndex).collection = readCollectionInfo(inputs);
        for (const QString &warning : builder.group(groupIndex).collection.warnings)
            builder.addWarning(QStringLiteral("%1: %2").arg(source->label, warning));
    }
    result.model = builder.build();
    control.bytesDone = control.bytesTotal.load();
    return result;
}

} // namespace

LoadResult loadTrace(const QString &path, LoadControl &control)
{
    LoadResult result;
    const QFileInfo info(path);
    if (!info.exists()) {
        result.error = QStringLiteral("%1: no such file or folder").arg(path);
        return result;
    }
    if (info.isDir())
        return loadFolder(path, control);
    control.bytesTotal = static_cast<std::uint64_t>(info.size());
    control.bytesDone = 0;
    TraceBuilder builder;
    SourceGroup group;
    group.layout = QStringLiteral("file");
    group.path = path;
    group.timelineFiles = {path};
    builder.addGroup(group);
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

} // namespace at
