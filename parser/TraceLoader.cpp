#include "TraceLoader.h"

#include "TraceBuilder.h"
#include "common/Decompress.h"
#include "common/MappedFile.h"
#include "json/ChromeTraceParser.h"
#include "json/JsonArgsReader.h"

#include <QFileInfo>

namespace at {

LoadResult loadTrace(const QString &path, LoadControl &control)
{
    LoadResult result;
    const QFileInfo info(path);
    if (!info.exists()) {
        result.error = QStringLiteral("%1: no such file").arg(path);
        return result;
    }
    if (info.isDir()) {
        result.error = QStringLiteral("%1: is a folder; opening result folders is not supported yet").arg(path);
        return result;
    }
    control.bytesTotal = static_cast<std::uint64_t>(info.size());
    control.bytesDone = 0;

    // Compressed input (and Qt resources, which cannot be mapped) go through a temporary file.
    std::unique_ptr<QTemporaryFile> temporary;
    QString decompressWarning;
    const Compression compression = detectCompression(path);
    if (compression != Compression::None) {
        DecompressControl dc{&control.cancel, &control.bytesDone};
        temporary = decompressToTemporaryFile(path, compression, dc, &decompressWarning);
        if (control.cancel) {
            result.cancelled = true;
            return result;
        }
        if (!temporary) {
            result.error = decompressWarning;
            return result;
        }
    }
    QString error;
    std::unique_ptr<MappedFile> mapped = MappedFile::open(temporary ? temporary->fileName() : path, &error);
    if (!mapped) {
        result.error = temporary ? QStringLiteral("%1: %2").arg(path, error) : error;
        return result;
    }
    control.bytesTotal = mapped->size();
    control.bytesDone = 0;

    TraceBuilder builder;
    if (!decompressWarning.isEmpty())
        builder.addWarning(decompressWarning);
    const char *data = mapped->data();
    const std::size_t size = mapped->size();
    auto reader = std::make_shared<JsonArgsReader>(std::move(mapped), std::move(temporary));
    const std::uint32_t source = builder.addSource(path, reader);

    ChromeTraceParser parser(builder, source, path);
    ParseControl pc{&control.cancel, &control.bytesDone};
    const auto status = parser.parse(data, size, pc, &result.error);
    if (status == ChromeTraceParser::Result::Cancelled) {
        result.cancelled = true;
        return result;
    }
    if (status == ChromeTraceParser::Result::Failed)
        return result;
    if (parser.eventsRead() == 0)
        builder.addWarning(QStringLiteral("%1: the trace contains no events").arg(path));
    result.model = builder.build();
    control.bytesDone = control.bytesTotal.load();
    return result;
}

} // namespace at
