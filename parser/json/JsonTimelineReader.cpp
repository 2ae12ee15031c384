#include "InputReader.h"

#include "common/Decompress.h"
#include "common/MappedFile.h"
#include "folder/NamePatterns.h"
#include "kineto/KinetoTrace.h"
#include "json/ChromeTraceParser.h"
#include "json/JsonArgsReader.h"
#include "json/ReopenedJsonArgsReader.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>

namespace at {

namespace {

// The Chrome-trace timeline of a source (trace_view.json, msprof*.json slices, G1 iterations, a single
// .json/.json.zst/.json.gz): every timeline file, then the G1 hccl_* / AI CPU files when the master
// timeline has no communication layer (FORMATS.md §1.2). Args stay in the file (JsonArgsReader).
class JsonTimelineReader : public InputReader
{
public:
    const InputReaderDescriptor &descriptor() const override;
    SniffAnswer sniffFile(const FileSniff &file, DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
    std::shared_ptr<const EventArgsReader> reopenArgs(const QString &path) const override
    {
        return reopenJsonArgs(path);
    }
};

} // namespace

namespace {

std::uint64_t fileSize(const QString &path)
{
    return static_cast<std::uint64_t>(QFileInfo(path).size());
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

// A reader's stop: the user's cancel, else the memory guard's (warned about, reading goes on without it).
ReadStatus stopped(SourceReading &reading, const QString &file, const QString &where, const QString &kept)
{
    if (reading.control.cancel)
        return ReadStatus::Cancelled;
    reading.warnMemoryStop(file, where, kept);
    return ReadStatus::Stopped;
}

// Maps (decompressing first when needed) and parses one Chrome-trace file into the builder.
// Failed (with *error) when the file cannot be read at all.
std::optional<ReadStatus> parseJsonFile(const QString &path, SourceReading &reading, QString *error)
{
    LoadControl &control = reading.control;
    TraceBuilder &builder = reading.builder;
    const std::uint64_t bytesBase = reading.progressBase;
    std::unique_ptr<QTemporaryFile> temporary;
    QString decompressWarning;
    const Compression compression = detectCompression(path);
    if (compression != Compression::None) {
        // Progress shows compressed bytes while decompressing, then the decompressed bytes parsed.
        DecompressControl dc{&control.stopReading, &control.bytesDone};
        dc.maxOutputBytes = reading.options.memoryLimitBytes;
        temporary = decompressToTemporaryFile(path, compression, dc, &decompressWarning);
        if (control.stopReading)
            return stopped(reading, path, QCoreApplication::translate("Parser", "while decompressing"),
                           QCoreApplication::translate("Parser", "0 events"));
        if (!temporary) {
            *error = decompressWarning;
            return std::nullopt;
        }
        if (!decompressWarning.isEmpty())
            builder.addWarning(decompressWarning);
    }
    QString mapError;
    std::unique_ptr<MappedFile> mapped =
        MappedFile::open(temporary ? temporary->fileName() : path, &mapError);
    if (!mapped) {
        *error = temporary ? QStringLiteral("%1: %2").arg(path, mapError) : mapError;
        return std::nullopt;
    }
    const char *data = mapped->data();
    const std::size_t size = mapped->size();
    if (temporary) {
        const std::uint64_t compressedSize = fileSize(path);
        control.bytesTotal =
            control.bytesTotal.load() - std::min(compressedSize, control.bytesTotal.load()) + size;
        control.bytesDone = bytesBase;
    }
    const MappedFile *view = mapped.get(); // owned by the args reader from here on
    auto argsReader = std::make_shared<JsonArgsReader>(std::move(mapped), std::move(temporary));
    const std::uint32_t source = builder.addSource(path, argsReader);
    ChromeTraceParser parser(builder, source, path);
    // A PyTorch profiler GPU trace is read with its own rules (parser/kineto, FORMATS.md §10).
    const std::unique_ptr<KinetoTrace> kineto =
        KinetoTrace::recognise(data, size, builder, reading.group, path);
    if (kineto)
        parser.setDialect(kineto.get());
    ParseControl pc{&control.stopReading, &control.bytesDone, bytesBase};
    pc.releaseParsedPages = true; // data is the read-only mapping of the file
    pc.maxEventBytes = static_cast<std::size_t>(reading.options.memoryLimitBytes / kEventBytesShareOfLimit);
    const auto status = parser.parse(data, size, pc, error);
    if (kineto && status != ChromeTraceParser::Result::Failed)
        kineto->finish(data, size, parser.eventArrayEnd());
    if (view->truncated()) {
        // The file shrank while it was parsed: the events before the cut were kept.
        if (status == ChromeTraceParser::Result::Failed) {
            *error = view->truncationMessage();
            return std::nullopt;
        }
        builder.addWarning(view->truncationMessage());
    }
    if (status == ChromeTraceParser::Result::Failed)
        return std::nullopt;
    const std::uint64_t parsed =
        status == ChromeTraceParser::Result::Cancelled ? control.bytesDone.load() - bytesBase : size;
    reading.provenance.reads.push_back({path, size, 0, std::min<std::uint64_t>(parsed, size)});
    if (status == ChromeTraceParser::Result::Cancelled)
        return stopped(reading, path,
                       QCoreApplication::translate("Parser", "at byte %1 of %2").arg(parsed).arg(size),
                       QCoreApplication::translate("Parser", "%1 events").arg(parser.eventsRead()));
    // PyTorch GPU traces: the kernel table and the [memory] curves from the args (issue 30).
    if (kineto)
        kineto->addGpuData();
    if (parser.eventsRead() == 0)
        builder.addWarning(
            QCoreApplication::translate("Parser", "%1: the trace contains no events").arg(path));
    return ReadStatus::Done;
}

// Parses the files in order; after the memory guard stopped reading, no further file of a folder is read.
ReadStatus parseAll(const QStringList &files, SourceReading &reading, bool perIterationFiles)
{
    for (const QString &file : files) {
        if (reading.control.memoryLimitReached && !reading.singleFile)
            return ReadStatus::Stopped;
        QString error;
        const std::size_t sourceIndex = reading.builder.sourceCount();
        const std::optional<ReadStatus> status = parseJsonFile(file, reading, &error);
        if (perIterationFiles)
            declareIterationStep(file, reading.group, sourceIndex, reading.builder);
        if (status == ReadStatus::Cancelled)
            return ReadStatus::Cancelled;
        if (!status) {
            if (reading.singleFile) {
                reading.failure = error;
                return ReadStatus::Done;
            }
            reading.builder.addWarning(error);
        }
        reading.progressBase += fileSize(file);
    }
    return ReadStatus::Done;
}

} // namespace

const InputReaderDescriptor &JsonTimelineReader::descriptor() const
{
    static const InputReaderDescriptor d{QStringLiteral("json"), QStringLiteral("Chrome trace file"),
                                         TimelineExport::TextExport, snapshot_args_kind::kJson, false};
    return d;
}

namespace {

// The layout a timeline file's name and folder tell (FORMATS.md §1.1).
ProfileGeneration generationOfJsonName(const QString &path, const QString &name)
{
    using namespace profile_names;
    if (isTraceViewName(name))
        return ProfileGeneration::G4;
    if (!isMasterTimelineName(name))
        return ProfileGeneration::Unknown;
    // G2 keeps its merged copy in PROF_*/timeline; G1 per-iteration files live in device_<id>/timeline.
    const QFileInfo parent(QFileInfo(path).absolutePath());
    if (parent.fileName() == QStringLiteral("timeline") &&
        isProfDirName(QFileInfo(parent.absolutePath()).fileName()))
        return ProfileGeneration::G2;
    const auto parsed = parseExportFileName(name);
    return parsed && parsed->iteration ? ProfileGeneration::G1 : ProfileGeneration::G3;
}

// '[' = array trace; '{' with a "traceEvents" key = object trace. The key may follow other metadata, so
// the whole head is searched.
bool looksLikeTrace(const QByteArray &head)
{
    qsizetype i = head.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        ++i;
    if (i >= head.size())
        return false;
    return head[i] == '[' || (head[i] == '{' && head.indexOf("\"traceEvents\"", i) >= 0);
}

} // namespace

// By name: trace_view.json, msprof*.json, and any *.json.zst / *.json.gz (decompressed when read); by
// content: a JSON array or an object with "traceEvents".
SniffAnswer JsonTimelineReader::sniffFile(const FileSniff &file, DataSource &source) const
{
    using namespace profile_names;
    if (file.isFolder)
        return {};
    const QString &name = file.name;
    if (name.endsWith(QStringLiteral(".json.zst")) || name.endsWith(QStringLiteral(".json.gz"))) {
        source.generation = generationOfJsonName(file.path, name.left(name.lastIndexOf(QLatin1Char('.'))));
        return {SniffVerdict::Mine, {}};
    }
    if (isTraceViewName(name) || isMasterTimelineName(name)) {
        source.generation = generationOfJsonName(file.path, name);
        return {SniffVerdict::Mine, {}};
    }
    if (!file.headRead)
        return {};
    if (looksLikeTrace(file.head))
        return {SniffVerdict::Mine, {}};
    return {SniffVerdict::Refused,
            QCoreApplication::translate("Parser",
                                        "it is neither a JSON array nor an object with \"traceEvents\".")};
}

std::uint64_t JsonTimelineReader::bytesToRead(const DataSource &source) const
{
    std::uint64_t bytes = 0;
    for (const QString &file : source.timelineFiles + source.supplementaryTimelineFiles)
        bytes += fileSize(file);
    return bytes;
}

ReadStatus JsonTimelineReader::read(SourceReading &reading) const
{
    const DataSource &source = reading.source;
    if (source.timelineFiles.size() > 1)
        reading.builder.setDeduplicate(true); // G1 iterations and msprof slices may repeat events
    const bool perIterationFiles = distinctIterations(source.timelineFiles) > 1;
    const ReadStatus status = parseAll(source.timelineFiles, reading, perIterationFiles);
    if (status != ReadStatus::Done || !reading.failure.isEmpty())
        return status;
    // G1: hccl_* files only when the master timeline has no communication layer (FORMATS.md §1.2).
    if (reading.builder.groupHasLayer(reading.group, Layer::Communication))
        return ReadStatus::Done;
    return parseAll(source.supplementaryTimelineFiles, reading, perIterationFiles);
}

const InputReader &jsonTimelineReader()
{
    static const JsonTimelineReader reader;
    return reader;
}

} // namespace at
