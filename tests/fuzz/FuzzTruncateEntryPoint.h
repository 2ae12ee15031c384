#pragma once
// fuzz_truncate (issue 21): a file that shrinks while it is read, and special files named like an input.
// Input layout: byte 0 picks the reader, bytes 1-4 (little endian) the offset the file is cut at right
// after it is mapped (through MappedFile's test hook, modulo the content size + 1), the rest is the file's
// content. Readers: 0 CSV table (CsvReader::readFile), 1 configuration JSON (loadJsonObject), 2 Chrome
// trace (loadTrace, no snapshot), 3 the same three readers on a FIFO (must return at once, naming it).
// Every path must return normally: no SIGBUS, no hang, and a truncation is reported when one was seen.

#include "FuzzEntryPoints.h"

#include "TraceLoader.h"
#include "common/MappedFile.h"
#include "config/ConfigFiles.h"

#include <sys/stat.h>
#include <unistd.h>

namespace at::fuzz {

inline void fuzzTruncate(const std::uint8_t *data, std::size_t size)
{
    if (size < 5)
        return;
    const int reader = data[0] & 3;
    const std::uint32_t rawCut = std::uint32_t(data[1]) | std::uint32_t(data[2]) << 8 |
                                 std::uint32_t(data[3]) << 16 | std::uint32_t(data[4]) << 24;
    const QByteArray content(reinterpret_cast<const char *>(data) + 5, qsizetype(size - 5));
    const qint64 cut = qint64(rawCut % std::uint32_t(content.size() + 1));
    QTemporaryDir dir;
    fuzzCheck(dir.isValid(), "truncate: no temporary folder");
    static const char *const kNames[] = {"kernel_details.csv", "info.json", "trace.json"};

    if (reader == 3) {
        for (const char *name : kNames) {
            const QString fifo = dir.filePath(QLatin1String(name));
            fuzzCheck(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0, "truncate: mkfifo");
        }
        const CsvTable table = CsvReader().readFile(dir.filePath(QLatin1String(kNames[0])));
        fuzzCheck(!table.issues().empty() && table.issues().front().message.contains(QStringLiteral("FIFO")),
                  "truncate: a FIFO table is not named");
        fuzzCheck(!config::loadJsonObject(dir.filePath(QLatin1String(kNames[1]))).ok(),
                  "truncate: a FIFO info.json was read");
        LoadOptions options;
        LoadControl control;
        const LoadResult r = loadTrace(dir.filePath(QLatin1String(kNames[2])), options, control);
        fuzzCheck(!r.model && r.error.contains(QStringLiteral("FIFO")),
                  "truncate: a FIFO trace is not named");
        return;
    }

    const QString path = dir.filePath(QLatin1String(kNames[reader]));
    {
        QFile file(path);
        fuzzCheck(file.open(QIODevice::WriteOnly) && file.write(content) == content.size(),
                  "truncate: cannot write the input");
    }
    MappedFile::setMappedHookForTesting([path, cut](const QString &mapped) {
        if (QFileInfo(mapped).fileName() == QFileInfo(path).fileName())
            (void)::truncate(QFile::encodeName(path).constData(), cut);
    });
    if (reader == 0) {
        const CsvTable table = CsvReader().readFile(path);
        // The parser reads every byte: a cut that removes a whole page must be reported.
        const qint64 page = ::sysconf(_SC_PAGESIZE);
        const qint64 keptPages = (cut + page - 1) / page * page;
        if (keptPages < content.size()) {
            bool reported = false;
            for (const CsvIssue &issue : table.issues())
                reported = reported || issue.message.contains(QStringLiteral("changed while it was read"));
            fuzzCheck(reported, "truncate: a CSV cut while read is not reported");
        }
    } else if (reader == 1) {
        (void)config::loadJsonObject(path);
    } else {
        LoadOptions options;
        LoadControl control;
        const LoadResult r = loadTrace(path, options, control);
        if (!r.model)
            fuzzCheck(!r.error.isEmpty(), "truncate: a failed load says nothing");
    }
    MappedFile::setMappedHookForTesting({});
}

} // namespace at::fuzz
