#include "folder/KinetoTraces.h"

#include "folder/NamePatterns.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <zlib.h>

#include <deque>

namespace at {

namespace {

// Enough for deviceProperties of 16 GPUs and a large distributedInfo before traceEvents.
constexpr qint64 kKinetoSniffBytes = qint64(256) << 10;

bool endsWithJson(const QString &name)
{
    return name.endsWith(QLatin1String(".json")) || name.endsWith(QLatin1String(".json.gz"));
}

// Inflates the start of a gzip stream until `maxBytes` came out (or the input ends).
QByteArray inflateHead(QFile &file, qint64 maxBytes)
{
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return {};
    QByteArray out(static_cast<qsizetype>(maxBytes), Qt::Uninitialized);
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    QByteArray in;
    int status = Z_OK;
    while (z.avail_out > 0 && status == Z_OK) {
        in = file.read(qint64{64} * 1024);
        if (in.isEmpty())
            break;
        z.next_in = reinterpret_cast<Bytef *>(in.data());
        z.avail_in = static_cast<uInt>(in.size());
        while (z.avail_in > 0 && z.avail_out > 0 && status == Z_OK)
            status = inflate(&z, Z_NO_FLUSH);
    }
    out.truncate(static_cast<qsizetype>(z.total_out));
    inflateEnd(&z);
    return out;
}

// The text of the JSON value starting at `from` (an object or array), or empty when it does not end in
// `text`.
QByteArray valueText(const QByteArray &text, qsizetype from)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[')
            ++depth;
        else if ((c == '}' || c == ']') && --depth == 0)
            return text.mid(from, i + 1 - from);
    }
    return {};
}

} // namespace

bool isKinetoTraceName(const QString &name)
{
    return name.endsWith(QLatin1String(".pt.trace.json")) ||
           name.endsWith(QLatin1String(".pt.trace.json.gz"));
}

QByteArray readTraceHead(const QString &path, qint64 maxBytes)
{
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray magic = file.peek(2);
    if (magic.size() == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
        static_cast<unsigned char>(magic[1]) == 0x8b)
        return inflateHead(file, maxBytes);
    return file.read(maxBytes);
}

bool looksLikeKinetoHead(const QByteArray &head)
{
    qsizetype i = head.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    return i < head.size() && head[i] == '{' && head.indexOf("\"traceEvents\"", i) >= 0;
}

std::optional<int> distributedRankInHead(const QByteArray &head)
{
    const qsizetype key = head.indexOf("\"distributedInfo\"");
    const qsizetype events = head.indexOf("\"traceEvents\"");
    if (key < 0 || (events >= 0 && events < key))
        return std::nullopt; // after traceEvents: only a whole read finds it
    const qsizetype open = head.indexOf('{', key);
    if (open < 0)
        return std::nullopt;
    const QJsonObject info = QJsonDocument::fromJson(valueText(head, open)).object();
    const QJsonValue rank = info.value(QStringLiteral("rank"));
    bool ok = rank.isDouble();
    const double value = ok ? rank.toDouble() : rank.toString().toDouble(&ok);
    if (!ok || value < 0 || value > 1e9 || value != static_cast<double>(static_cast<int>(value)))
        return std::nullopt;
    return static_cast<int>(value);
}

QStringList kinetoTracesIn(const FolderListing &folder)
{
    QStringList traces;
    for (const QString &name : folder.files) {
        // By name, or a *.json[.gz] that is no Ascend timeline and starts like a Kineto trace (the head is
        // read only when the name does not tell).
        if (isKinetoTraceName(name) ||
            (endsWithJson(name) && !profile_names::isTraceViewName(name) &&
             !profile_names::isMasterTimelineName(name) &&
             looksLikeKinetoHead(readTraceHead(folder.filePath(name), kKinetoSniffBytes))))
            traces << folder.filePath(name);
    }
    return traces;
}

QStringList findKinetoTraces(const QString &path, int maxDepth)
{
    const QFileInfo info(path);
    if (info.isFile()) {
        const QString name = info.fileName();
        const bool trace =
            isKinetoTraceName(name) ||
            (endsWithJson(name) && looksLikeKinetoHead(readTraceHead(path, kKinetoSniffBytes)));
        return trace ? QStringList{info.absoluteFilePath()} : QStringList{};
    }
    QStringList traces;
    std::deque<std::pair<QString, int>> queue{{info.absoluteFilePath(), 0}};
    while (!queue.empty()) {
        const auto [folder, depth] = queue.front();
        queue.pop_front();
        const FolderListing listing = FolderListing::read(folder);
        if (!listing.readable)
            continue;
        traces << kinetoTracesIn(listing);
        if (depth >= maxDepth)
            continue;
        for (const QString &name : listing.dirs) {
            const QString child = listing.filePath(name);
            if (!QFileInfo(child).isSymLink())
                queue.emplace_back(child, depth + 1);
        }
    }
    std::sort(traces.begin(), traces.end(), profile_names::naturalLess);
    // Two paths to one file (a link beside its target) are one trace, as the folder detector has it.
    QSet<QString> seen;
    traces.removeIf([&seen](const QString &trace) {
        const QString canonical = QFileInfo(trace).canonicalFilePath();
        if (seen.contains(canonical))
            return true;
        seen.insert(canonical);
        return false;
    });
    return traces;
}

} // namespace at
