#pragma once
// The entry points the libFuzzer targets (tests/fuzz/fuzz_*.cpp) drive, shared with the regression
// test tst_fuzz_regressions, which feeds every saved input under tests/data/fuzz/<target>/ through the
// same function. Each returns normally for any input; a crash, a sanitizer report or a failed
// invariant (fuzzCheck: abort with a message) is a bug.

#include "InputReader.h"
#include "Session.h"
#include "TraceBuilder.h"
#include "TraceModel.h"
#include "TraceQueries.h"
#include "csv/CsvReader.h"
#include "csv/CsvValues.h"
#include "folder/ProfileLayoutDetector.h"
#include "snapshot/SnapshotCodec.h"
#include "sqlite/ProfileDatabaseReader.h"
#include "json/ChromeTraceParser.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <unistd.h>

namespace at::fuzz {

inline void fuzzCheck(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "fuzz invariant failed: %s\n", what);
        std::abort();
    }
}

// Chrome trace bytes -> ChromeTraceParser (in memory) -> TraceBuilder::build -> summarize.
inline void fuzzJson(const std::uint8_t *data, std::size_t size)
{
    TraceBuilder builder;
    const std::uint32_t source = builder.addSource(QStringLiteral("fuzz.json"), nullptr);
    ChromeTraceParser parser(builder, source, QStringLiteral("fuzz.json"));
    QString error;
    const auto result = parser.parse(reinterpret_cast<const char *>(data), size, {}, &error);
    fuzzCheck(result != ChromeTraceParser::Result::Cancelled, "json: cancelled without a cancel flag");
    if (result == ChromeTraceParser::Result::Failed) {
        fuzzCheck(error.contains(QStringLiteral("fuzz.json")), "json: error does not name the file");
        return;
    }
    const std::unique_ptr<TraceModel> model = builder.build();
    fuzzCheck(model != nullptr, "json: build() returned null");
    const TraceSummary summary = summarize(*model);
    (void)summary;
}

// First byte picks the options (delimiter, header, trimming); the rest is the CSV text. Every cell is
// read back and run through the value parsers the summary readers use.
inline void fuzzCsv(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return;
    static constexpr char kDelimiters[] = {',', '\t', ';', '|'};
    CsvOptions options;
    options.delimiter = kDelimiters[data[0] & 3];
    options.hasHeader = (data[0] & 4) == 0;
    options.trimCells = (data[0] & 8) != 0;
    const std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    const CsvTable table = CsvReader(options).parse(text, QStringLiteral("fuzz.csv"));
    std::size_t bytes = 0;
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        const int cells = table.cellCount(row);
        fuzzCheck(cells >= 0, "csv: negative cell count");
        for (int col = -1; col <= cells; ++col) {
            const std::string_view cell = table.cell(row, col);
            bytes += cell.size();
            (void)csv::parseTimestampUsToNs(cell);
            (void)csv::parseDurationUsToNs(cell);
            (void)csv::parseInt64(cell);
            (void)csv::parseUInt64(cell);
            (void)csv::parseDouble(cell);
            (void)csv::parseShapes(cell);
        }
    }
    fuzzCheck(bytes <= text.size(), "csv: more cell text than input");
    for (const std::string &name : table.header())
        (void)table.column(name);
    CsvTable twice = table;
    twice.append(table);
    fuzzCheck(twice.rowCount() == 2 * table.rowCount(), "csv: append lost rows");
}

// Bytes -> a database file -> readProfileDatabase (read-only, immutable).
inline void fuzzSqlite(const std::uint8_t *data, std::size_t size)
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("msprof_0.db"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return;
        f.write(reinterpret_cast<const char *>(data), static_cast<qint64>(size));
    }
    TraceBuilder builder;
    DatabaseReadInfo info;
    QString error;
    if (!readProfileDatabase(path, builder, &info, &error)) {
        fuzzCheck(error.contains(QStringLiteral("msprof_0.db")), "sqlite: error does not name the file");
        return;
    }
    const std::unique_ptr<TraceModel> model = builder.build();
    fuzzCheck(model != nullptr, "sqlite: build() returned null");
}

// The input is a tree description, one entry per line (at most 64, names of at most 64 bytes, depth
// at most 8): "a/b/c" a file (content "[]"), "a/b/" a folder, "a/b -> ../x" a symbolic link (may
// dangle or loop). Components "." and ".." and empty ones are dropped, so everything stays inside a
// scratch folder, which is then given to ProfileLayoutDetector (and so is the first entry).
inline void fuzzFolder(const std::uint8_t *data, std::size_t size)
{
    QTemporaryDir scratch;
    if (!scratch.isValid())
        return;
    const QDir root(scratch.path());
    auto clean = [](std::string_view path) {
        QStringList parts;
        std::size_t start = 0;
        while (start <= path.size() && parts.size() < 8) {
            std::size_t slash = path.find('/', start);
            if (slash == std::string_view::npos)
                slash = path.size();
            std::string_view part = path.substr(start, slash - start);
            if (part.size() > 64)
                part = part.substr(0, 64);
            const QString name = QString::fromUtf8(part.data(), static_cast<qsizetype>(part.size()));
            if (!name.isEmpty() && name != QLatin1String(".") && name != QLatin1String("..") &&
                !name.contains(QChar(0)))
                parts << name;
            start = slash + 1;
        }
        return parts.join(QLatin1Char('/'));
    };
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    QString first;
    std::size_t pos = 0;
    for (int entries = 0; pos < text.size() && entries < 64; ++entries) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        const std::size_t arrow = line.find(" -> ");
        const bool isDir = arrow == std::string_view::npos && !line.empty() && line.back() == '/';
        const QString rel = clean(arrow == std::string_view::npos ? line : line.substr(0, arrow));
        if (rel.isEmpty())
            continue;
        if (first.isEmpty())
            first = rel;
        const QString full = root.filePath(rel);
        root.mkpath(QFileInfo(full).path());
        if (arrow != std::string_view::npos) {
            // Link targets are relative and may leave the entry's folder, but not the scratch root's
            // parent: only "..", as many as the entry is deep, plus a cleaned path.
            std::string_view target = line.substr(arrow + 4);
            int ups = 0;
            while (target.substr(0, 3) == "../" && ups < rel.count(QLatin1Char('/'))) {
                target.remove_prefix(3);
                ++ups;
            }
            QString linkTarget = QStringLiteral("../").repeated(ups) + clean(target);
            if (linkTarget.isEmpty())
                linkTarget = QStringLiteral(".");
            (void)::symlink(QFile::encodeName(linkTarget).constData(), QFile::encodeName(full).constData());
        } else if (isDir) {
            root.mkpath(rel);
        } else {
            QFile f(full);
            if (f.open(QIODevice::WriteOnly))
                f.write("[]\n");
        }
    }
    DetectOptions options;
    options.maxFolders = 2000;
    (void)ProfileLayoutDetector::detect(root.path(), inputFormats(), options);
    if (!first.isEmpty())
        (void)ProfileLayoutDetector::detect(root.filePath(first), inputFormats(), options);
}

// Snapshot bytes (parser/snapshot): as a whole file (header, zstd frame, payload) and as a bare payload,
// which the zstd checksum would otherwise shield from mutations. A model that decodes must be safe to
// walk: summary, self times, flows and kernel rows of every slice.
inline void fuzzSnapshot(const std::uint8_t *data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    auto walk = [](const std::unique_ptr<TraceModel> &model, const QString &reason) {
        if (!model) {
            fuzzCheck(!reason.isEmpty(), "snapshot: rejected without a reason");
            return;
        }
        (void)summarize(*model);
        for (std::size_t t = 0; t < model->threads().size(); ++t)
            for (std::uint32_t i = 0; i < model->threads()[t].slices.size(); ++i) {
                const SliceRef ref{static_cast<std::int32_t>(t), i};
                (void)model->selfTime(ref);
                (void)model->flowsFrom(ref);
                (void)model->kernels().rowOfSlice(ref.thread, ref.index);
            }
        for (int p = 0; p < static_cast<int>(model->processes().size()); ++p)
            (void)model->processDisplayName(p);
    };
    QString reason;
    if (const auto header = snapshot::readHeader(bytes, &reason))
        walk(snapshot::decodeBody(*header, &reason), reason);
    QString payloadReason;
    walk(snapshot::decodePayload(bytes, &payloadReason), payloadReason);
}

// Session file bytes (core/Session, issue 29) -> sessionFromJson. A session that is accepted names a
// trace (a non-empty first path: "" opened as ": no such file or folder") and survives a save and reopen
// unchanged. The sessions that name themselves or each other are refused by app/SessionController, which
// tst_robust_sessions drives through the window.
inline void fuzzSession(const std::uint8_t *data, std::size_t size)
{
    QString error;
    const std::optional<Session> session = sessionFromJson(
        QByteArray(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)), &error);
    if (!session) {
        fuzzCheck(!error.isEmpty(), "session: refused without a reason");
        return;
    }
    fuzzCheck(!session->paths.isEmpty() && !session->paths.first().trimmed().isEmpty(),
              "session: accepted without a path");
    for (const Marker &m : session->markers)
        fuzzCheck(m.end >= m.begin, "session: a marker ends before it begins");
    const std::optional<Session> again = sessionFromJson(sessionToJson(*session), &error);
    fuzzCheck(again && *again == *session, "session: changed by a save and reopen");
}

} // namespace at::fuzz
