#include "Decompress.h"

#include "LoadMemoryGuard.h"
#include "common/MappedFile.h"
#include "common/MessageText.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStorageInfo>

#include <limits>
#include <vector>
#include <zlib.h>
#include <zstd.h>

namespace at {

Compression detectCompression(const QString &path)
{
    // A FIFO, socket or device is never opened (a FIFO would block): the reader names it afterwards.
    if (!specialFileProblem(path).isEmpty())
        return Compression::None;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        const QByteArray magic = file.read(4);
        if (magic.size() >= 4 && static_cast<uchar>(magic[0]) == 0x28 &&
            static_cast<uchar>(magic[1]) == 0xB5 && static_cast<uchar>(magic[2]) == 0x2F &&
            static_cast<uchar>(magic[3]) == 0xFD)
            return Compression::Zstd;
        if (magic.size() >= 2 && static_cast<uchar>(magic[0]) == 0x1F && static_cast<uchar>(magic[1]) == 0x8B)
            return Compression::Gzip;
        if (!magic.isEmpty())
            return Compression::None;
    }
    if (path.endsWith(QLatin1String(".zst")))
        return Compression::Zstd;
    if (path.endsWith(QLatin1String(".gz")))
        return Compression::Gzip;
    return Compression::None;
}

namespace {

constexpr std::size_t kInputChunk = 1 << 20;

bool cancelled(const DecompressControl &control)
{
    return control.cancel && control.cancel->load(std::memory_order_relaxed);
}

// The decompressed output: checks that it starts like JSON and stays under the cap.
class OutputSink
{
public:
    OutputSink(QTemporaryFile &out, std::uint64_t cap, QString capReason)
        : m_out(out), m_cap(cap), m_capReason(std::move(capReason))
    {}

    bool write(const char *data, std::size_t size, QString *error)
    {
        if (size == 0)
            return true;
        if (!m_sniffed && !sniff(data, size, error))
            return false;
        if (m_written + size > m_cap) {
            const std::size_t room = static_cast<std::size_t>(m_cap - m_written);
            if (room && m_out.write(data, static_cast<qint64>(room)) == static_cast<qint64>(room))
                m_written += room;
            m_capped = true;
            *error = QCoreApplication::translate(
                         "Parser", "the decompressed data is larger than %1 (%2); decompression stopped "
                                   "there and the complete events before it are read")
                         .arg(formatByteSize(m_cap), m_capReason);
            return false;
        }
        if (m_out.write(data, static_cast<qint64>(size)) != static_cast<qint64>(size)) {
            *error = QCoreApplication::translate("Parser", "cannot write the decompressed data to %1: %2")
                         .arg(m_out.fileName(), m_out.errorString());
            return false;
        }
        m_written += size;
        return true;
    }

    bool capped() const { return m_capped; }
    bool notJson() const { return m_notJson; }

private:
    // The first byte that is not whitespace or part of a UTF-8 BOM must open a JSON array or object.
    bool sniff(const char *data, std::size_t size, QString *error)
    {
        for (std::size_t i = 0; i < size; ++i, ++m_position) {
            const auto c = static_cast<unsigned char>(data[i]);
            const bool bom = m_position < 3 && c == static_cast<unsigned char>("\xEF\xBB\xBF"[m_position]);
            if (bom || c == ' ' || c == '\n' || c == '\r' || c == '\t')
                continue;
            m_sniffed = true;
            if (c == '{' || c == '[')
                return true;
            m_notJson = true;
            *error = QCoreApplication::translate(
                         "Parser", "the decompressed data is not JSON: byte %1 is %2, expected '[' or '{' "
                                   "(decompression stopped)")
                         .arg(m_position)
                         .arg(describeByte(data[i]));
            return false;
        }
        return true;
    }

    QTemporaryFile &m_out;
    std::uint64_t m_cap;
    QString m_capReason;
    std::uint64_t m_written = 0;
    std::uint64_t m_position = 0;
    bool m_sniffed = false;
    bool m_capped = false;
    bool m_notJson = false;
};

bool inflateZstd(QFile &in, OutputSink &out, const DecompressControl &control, QString *error)
{
    ZSTD_DCtx *ctx = ZSTD_createDCtx();
    std::vector<char> input(kInputChunk), output(ZSTD_DStreamOutSize());
    bool ok = true;
    std::size_t lastResult = 0;
    std::uint64_t consumed = 0;
    while (ok) {
        const qint64 got = in.read(input.data(), static_cast<qint64>(input.size()));
        if (got < 0) {
            *error = QCoreApplication::translate("Parser", "read error: %1").arg(in.errorString());
            ok = false;
            break;
        }
        if (got == 0)
            break;
        ZSTD_inBuffer inBuf{input.data(), static_cast<std::size_t>(got), 0};
        while (inBuf.pos < inBuf.size) {
            ZSTD_outBuffer outBuf{output.data(), output.size(), 0};
            lastResult = ZSTD_decompressStream(ctx, &outBuf, &inBuf);
            if (ZSTD_isError(lastResult)) {
                *error =
                    QCoreApplication::translate("Parser", "corrupt zstd data near compressed byte %1: %2")
                        .arg(consumed + inBuf.pos)
                        .arg(QString::fromUtf8(ZSTD_getErrorName(lastResult)));
                ok = false;
                break;
            }
            ok = out.write(output.data(), outBuf.pos, error);
            if (!ok)
                break;
        }
        consumed += static_cast<std::uint64_t>(got);
        if (control.bytesRead)
            control.bytesRead->store(consumed, std::memory_order_relaxed);
        if (cancelled(control)) {
            *error = QStringLiteral("cancelled");
            ok = false;
        }
    }
    if (ok && lastResult != 0)
        *error = QCoreApplication::translate("Parser",
                                             "the zstd stream is truncated; the decompressed part is used");
    ZSTD_freeDCtx(ctx);
    return ok;
}

bool inflateGzip(QFile &in, OutputSink &out, const DecompressControl &control, QString *error)
{
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) { // 32: accept gzip and zlib headers
        *error = QCoreApplication::translate("Parser", "cannot initialise zlib");
        return false;
    }
    std::vector<char> input(kInputChunk), output(1 << 18);
    bool ok = true;
    int status = Z_OK;
    std::uint64_t consumed = 0;
    while (ok && status != Z_STREAM_END) {
        const qint64 got = in.read(input.data(), static_cast<qint64>(input.size()));
        if (got <= 0)
            break;
        zs.next_in = reinterpret_cast<Bytef *>(input.data());
        zs.avail_in = static_cast<uInt>(got);
        while (zs.avail_in > 0 && ok) {
            zs.next_out = reinterpret_cast<Bytef *>(output.data());
            zs.avail_out = static_cast<uInt>(output.size());
            status = inflate(&zs, Z_NO_FLUSH);
            if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
                *error =
                    QCoreApplication::translate("Parser", "corrupt gzip data near compressed byte %1: %2")
                        .arg(consumed + (static_cast<std::uint64_t>(got) - zs.avail_in))
                        .arg(QString::fromUtf8(zs.msg ? zs.msg : "inflate failed"));
                ok = false;
                break;
            }
            ok = out.write(output.data(), output.size() - zs.avail_out, error);
            if (status == Z_STREAM_END) {
                // Concatenated gzip members: keep going with the rest of the input.
                if (zs.avail_in > 0 && inflateReset(&zs) == Z_OK)
                    status = Z_OK;
                else
                    break;
            }
        }
        consumed += static_cast<std::uint64_t>(got);
        if (control.bytesRead)
            control.bytesRead->store(consumed, std::memory_order_relaxed);
        if (cancelled(control)) {
            *error = QStringLiteral("cancelled");
            ok = false;
        }
    }
    if (ok && status != Z_STREAM_END)
        *error = QCoreApplication::translate("Parser",
                                             "the gzip stream is truncated; the decompressed part is used");
    inflateEnd(&zs);
    return ok;
}

} // namespace

std::unique_ptr<QTemporaryFile> decompressToTemporaryFile(const QString &path, Compression compression,
                                                          const DecompressControl &control, QString *error)
{
    if (const QString special = specialFileProblem(path); !special.isEmpty()) {
        *error = special;
        return nullptr;
    }
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate("Parser", "%1: cannot open: %2").arg(path, in.errorString());
        return nullptr;
    }
    auto out =
        std::make_unique<QTemporaryFile>(QDir::tempPath() + QStringLiteral("/ascend-timeline-XXXXXX.json"));
    if (!out->open()) {
        *error =
            QCoreApplication::translate("Parser", "%1: cannot create a temporary file for decompression: %2")
                .arg(path, out->errorString());
        return nullptr;
    }
    // The cap: the memory limit, and the free space of the temporary folder (often a RAM disk).
    const QStorageInfo storage(QFileInfo(out->fileName()).absolutePath());
    std::uint64_t cap = std::numeric_limits<std::uint64_t>::max();
    QString capReason;
    if (storage.isValid() && storage.bytesAvailable() >= 0) {
        const auto available = static_cast<std::uint64_t>(storage.bytesAvailable());
        cap = available > kTempFolderReserve ? available - kTempFolderReserve : 0;
        capReason =
            QCoreApplication::translate("Parser", "the free space of %1 less %2")
                .arg(QDir::toNativeSeparators(storage.rootPath()), formatByteSize(kTempFolderReserve));
    }
    if (control.maxOutputBytes && control.maxOutputBytes < cap) {
        cap = control.maxOutputBytes;
        capReason = QCoreApplication::translate(
            "Parser", "the memory limit; raise it with --memory-limit or AT_MEMORY_LIMIT");
    }
    OutputSink sink(*out, cap, capReason);
    QString problem;
    const bool ok = compression == Compression::Zstd ? inflateZstd(in, sink, control, &problem)
                                                     : inflateGzip(in, sink, control, &problem);
    if (!ok) {
        *error = QStringLiteral("%1: %2").arg(path, problem);
        if (problem == QLatin1String("cancelled") || sink.notJson() || out->size() == 0)
            return nullptr;
        // A corrupt tail still leaves the events before it usable.
    } else if (!problem.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(path, problem);
    }
    out->flush();
    return out;
}

} // namespace at
