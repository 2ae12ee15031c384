#include "cluster/PreparedSummary.h"

#include "LoadMemoryGuard.h"
#include "cluster/JsonTree.h"
#include "snapshot/SnapshotCache.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <string_view>

#include <sys/stat.h>

namespace at::cluster {

namespace {

// int64 values (ns, bytes) are written as decimal strings: a JSON number goes through a double in most
// readers, and epoch ns do not survive one.
QJsonValue big(std::int64_t v)
{
    return QString::number(v);
}
std::int64_t big(const JsonNode &node)
{
    return node.toInt(0);
}

QString sourceKey(BreakdownSource s)
{
    return breakdownSourceName(s);
}
BreakdownSource sourceFrom(const QString &name)
{
    if (name == breakdownSourceName(BreakdownSource::Database))
        return BreakdownSource::Database;
    if (name == breakdownSourceName(BreakdownSource::Timeline))
        return BreakdownSource::Timeline;
    return BreakdownSource::StepTraceCsv;
}

constexpr QByteArrayView kTag = "\nrank summary";

// The stamps of what the reader reads in the rank folder (rankInputs: decided by the folder, not by the
// summary), each recorded relative to the folder; a file that is not there is recorded with size -1.
struct RelativeStamp
{
    QString path; // relative to the rank folder, "." for itself
    snapshot::FileStamp stamp;
};
std::vector<RelativeStamp> stampsOf(const QString &folder)
{
    const RankInputs inputs = rankInputs(folder);
    std::vector<RelativeStamp> stamps;
    for (const QString &relative : inputs.files + inputs.folders)
        stamps.push_back({relative, snapshot::stampOf(relative == QStringLiteral(".")
                                                          ? folder
                                                          : folder + QLatin1Char('/') + relative)});
    return stamps;
}

// The file is `{"format":N,"sha256":"<hex>","body":BODY}`, the SHA-256 over BODY's bytes as written: a
// summary edited by hand (a number, its rank, its stamps) no longer matches and is not used.
QByteArray headerOf(const QByteArray &sha256Hex)
{
    return "{\"format\":" + QByteArray::number(kPreparedSummaryFormat) + ",\"sha256\":\"" + sha256Hex +
           "\",\"body\":";
}
constexpr qsizetype kSha256HexSize = 64;

QJsonObject encodeStep(const RankStep &s)
{
    return {{QStringLiteral("step"), static_cast<qint64>(s.step)},
            {QStringLiteral("computing"), big(s.computing)},
            {QStringLiteral("communication_not_overlapped"), big(s.communicationNotOverlapped)},
            {QStringLiteral("overlapped"), big(s.overlapped)},
            {QStringLiteral("communication"), big(s.communication)},
            {QStringLiteral("free"), big(s.free)},
            {QStringLiteral("stage"), big(s.stage)},
            {QStringLiteral("bubble"), big(s.bubble)},
            {QStringLiteral("communication_not_overlapped_exclude_receive"),
             big(s.communicationNotOverlappedExcludeReceive)},
            {QStringLiteral("preparing"), big(s.preparing)},
            {QStringLiteral("has_preparing"), s.hasPreparing},
            {QStringLiteral("source"), sourceKey(s.source)}};
}

RankStep decodeStep(const JsonNode &n)
{
    RankStep s;
    s.step = n["step"].toInt(kNoStep);
    s.computing = big(n["computing"]);
    s.communicationNotOverlapped = big(n["communication_not_overlapped"]);
    s.overlapped = big(n["overlapped"]);
    s.communication = big(n["communication"]);
    s.free = big(n["free"]);
    s.stage = big(n["stage"]);
    s.bubble = big(n["bubble"]);
    s.communicationNotOverlappedExcludeReceive = big(n["communication_not_overlapped_exclude_receive"]);
    s.preparing = big(n["preparing"]);
    s.hasPreparing = n["has_preparing"].text == "true";
    s.source = sourceFrom(n["source"].string());
    return s;
}

QJsonObject encodeOp(const CommOp &op)
{
    QJsonArray bandwidth;
    for (const TransportBandwidth &b : op.bandwidth) {
        QJsonArray sizes;
        for (const PacketBucket &p : b.sizes)
            sizes.append(QJsonArray{p.sizeMb, static_cast<qint64>(p.count), big(p.time)});
        bandwidth.append(QJsonObject{
            {QStringLiteral("transport"), b.transport},
            {QStringLiteral("size_mb"), b.sizeMb},
            {QStringLiteral("time"), big(b.time)},
            {QStringLiteral("bandwidth_gbps"), b.bandwidthGbps ? QJsonValue(*b.bandwidthGbps) : QJsonValue()},
            {QStringLiteral("large_packet_ratio"), b.largePacketRatio},
            {QStringLiteral("sizes"), sizes}});
    }
    return {{QStringLiteral("step"), static_cast<qint64>(op.step)},
            {QStringLiteral("name"), op.name},
            {QStringLiteral("group"), op.group},
            {QStringLiteral("p2p"), op.p2p},
            {QStringLiteral("total"), op.total},
            {QStringLiteral("start"), big(op.startAbsolute)},
            {QStringLiteral("elapse"), big(op.elapse)},
            {QStringLiteral("transit"), big(op.transit)},
            {QStringLiteral("wait"), big(op.wait)},
            {QStringLiteral("synchronization"), big(op.synchronization)},
            {QStringLiteral("idle"), big(op.idle)},
            {QStringLiteral("wait_ratio"), op.waitRatio},
            {QStringLiteral("synchronization_ratio"), op.synchronizationRatio},
            {QStringLiteral("bandwidth"), bandwidth}};
}

// One QString per distinct group, transport or link kind of a summary (shared, as the cluster reader does),
// not one copy per op.
class SharedStrings
{
public:
    QString operator()(const JsonNode &node)
    {
        const QString text = node.string();
        const auto it = m_strings.constFind(text);
        if (it != m_strings.constEnd())
            return *it;
        m_strings.insert(text, text);
        return text;
    }

private:
    QHash<QString, QString> m_strings;
};

CommOp decodeOp(const JsonNode &n, FiniteNumbers &numbers, SharedStrings &shared)
{
    CommOp op;
    op.step = n["step"].toInt(kNoStep);
    op.name = n["name"].string();
    op.group = shared(n["group"]);
    op.p2p = n["p2p"].text == "true";
    op.total = n["total"].text == "true";
    op.startAbsolute = big(n["start"]);
    op.elapse = big(n["elapse"]);
    op.transit = big(n["transit"]);
    op.wait = big(n["wait"]);
    op.synchronization = big(n["synchronization"]);
    op.idle = big(n["idle"]);
    op.waitRatio = numbers.read(n["wait_ratio"], "wait_ratio");
    op.synchronizationRatio = numbers.read(n["synchronization_ratio"], "synchronization_ratio");
    op.bandwidth.reserve(n["bandwidth"].items.size()); // exactly: an op is kept, 100,000s of them
    for (const JsonNode &b : n["bandwidth"].items) {
        TransportBandwidth t;
        t.sizes.reserve(b["sizes"].items.size());
        t.transport = shared(b["transport"]);
        t.sizeMb = numbers.read(b["size_mb"], "size_mb");
        t.time = big(b["time"]);
        if (b["bandwidth_gbps"].type == JsonNode::Type::Number)
            t.bandwidthGbps = numbers.read(b["bandwidth_gbps"], "bandwidth_gbps");
        t.largePacketRatio = numbers.read(b["large_packet_ratio"], "large_packet_ratio");
        for (const JsonNode &p : b["sizes"].items)
            if (p.items.size() == 3)
                t.sizes.push_back({numbers.read(p.items[0], "sizes"), p.items[1].toInt(0), big(p.items[2])});
        op.bandwidth.push_back(std::move(t));
    }
    return op;
}

QJsonObject encodeLink(const MatrixLink &l)
{
    return {{QStringLiteral("step"), static_cast<qint64>(l.step)},
            {QStringLiteral("op_key"), l.opKey},
            {QStringLiteral("group"), l.group},
            {QStringLiteral("src_local"), l.srcLocal},
            {QStringLiteral("dst_local"), l.dstLocal},
            {QStringLiteral("transport"), l.transport},
            {QStringLiteral("size_mb"), l.sizeMb},
            {QStringLiteral("time"), big(l.time)},
            {QStringLiteral("bandwidth_gbps"), l.bandwidthGbps},
            {QStringLiteral("op_name"), l.opName}};
}

MatrixLink decodeLink(const JsonNode &n, FiniteNumbers &numbers, SharedStrings &shared)
{
    MatrixLink l;
    l.step = n["step"].toInt(kNoStep);
    l.opKey = shared(n["op_key"]);
    l.group = shared(n["group"]);
    l.srcLocal = static_cast<int>(n["src_local"].toInt(-1));
    l.dstLocal = static_cast<int>(n["dst_local"].toInt(-1));
    l.transport = shared(n["transport"]);
    l.sizeMb = numbers.read(n["size_mb"], "size_mb");
    l.time = big(n["time"]);
    l.bandwidthGbps = numbers.read(n["bandwidth_gbps"], "bandwidth_gbps");
    l.opName = n["op_name"].string();
    return l;
}

QJsonArray strings(const QStringList &list)
{
    QJsonArray a;
    for (const QString &s : list)
        a.append(s);
    return a;
}

// The body starts after the header, which has the same length for every summary of this format.
const qsizetype kBodyOffset = headerOf(QByteArray(kSha256HexSize, '0')).size();

// The summary's text, written piece by piece: each op, link, step, group and stamp is made a QJsonObject and
// written compact on its own, the objects above them are written here with their keys in QJsonDocument's
// order (sorted), so the bytes are those a QJsonDocument of the whole body gives; a QJsonDocument of a whole
// rank took about 10× the file's size (1.5 GB for a 142 MB summary).
class SummaryText
{
public:
    // The text starts with a header whose checksum is filled in by finish().
    SummaryText() { m_text = headerOf(QByteArray(kSha256HexSize, '0')).toStdString(); }

    void beginObject()
    {
        separate();
        m_text += '{';
        m_first = true;
    }
    void endObject()
    {
        m_text += '}';
        m_first = false;
    }
    void beginArray()
    {
        separate();
        m_text += '[';
        m_first = true;
    }
    void endArray()
    {
        m_text += ']';
        m_first = false;
    }
    // The key of the next value (an ASCII name: nothing to escape).
    void key(const char *name)
    {
        separate();
        m_text += '"';
        m_text += name;
        m_text += "\":";
        m_afterKey = true;
    }
    void value(const QJsonValue &v)
    {
        separate();
        if (v.isObject()) {
            m_text += QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).toStdString();
        } else if (v.isArray()) {
            m_text += QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact).toStdString();
        } else {
            // A scalar is written as QJsonDocument writes it inside an array.
            const QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
            m_text.append(text.constData() + 1, static_cast<std::size_t>(text.size() - 2));
        }
        m_first = false;
    }
    template <typename Items, typename Encode> void array(const Items &items, Encode encode)
    {
        beginArray();
        for (const auto &item : items)
            value(encode(item));
        endArray();
    }

    // The header's checksum of the body, and the closing brace.
    std::string finish()
    {
        const auto bodyOffset = static_cast<std::size_t>(kBodyOffset);
        const QByteArray hex =
            QCryptographicHash::hash(QByteArrayView(m_text.data() + bodyOffset,
                                                    static_cast<qsizetype>(m_text.size() - bodyOffset)),
                                     QCryptographicHash::Sha256)
                .toHex();
        const QByteArray header = headerOf(hex);
        m_text.replace(0, static_cast<std::size_t>(header.size()), header.constData(),
                       static_cast<std::size_t>(header.size()));
        m_text += '}';
        return std::move(m_text);
    }

private:
    void separate()
    {
        if (!m_afterKey && !m_first)
            m_text += ',';
        m_afterKey = false;
    }

    std::string m_text;
    bool m_first = true;
    bool m_afterKey = false;
};

std::string encode(const RankSummary &summary, const QString &snapshotPath)
{
    const Rank &r = summary.rank;
    const DistributedArgs &d = summary.distributed;
    SummaryText out;
    out.beginObject(); // the body; keys in sorted order, as QJsonDocument writes them
    out.key("distributed");
    out.value(d.present ? QJsonValue(QJsonObject{{QStringLiteral("tp"), d.tp},
                                                 {QStringLiteral("pp"), d.pp},
                                                 {QStringLiteral("dp"), d.dp},
                                                 {QStringLiteral("cp"), d.cp},
                                                 {QStringLiteral("ep"), d.ep},
                                                 {QStringLiteral("world_size"), d.worldSize}})
                        : QJsonValue());
    out.key("folder");
    out.value(QFileInfo(r.folder).canonicalFilePath());
    out.key("groups");
    out.array(summary.groups, [](const ParallelGroup &g) {
        QJsonArray ranks;
        for (int id : g.globalRanks)
            ranks.append(id);
        return QJsonObject{{QStringLiteral("key"), g.key},
                           {QStringLiteral("hash"), g.hash},
                           {QStringLiteral("name"), g.name},
                           {QStringLiteral("ranks"), ranks}};
    });
    out.key("key");
    out.value(snapshot::portableKeyName(r.folder, kTag));
    out.key("rank");
    out.beginObject();
    out.key("device");
    out.value(r.device);
    out.key("files_read");
    out.value(strings(r.filesRead));
    out.key("has_timeline");
    out.value(r.hasTimeline);
    out.key("links");
    out.array(r.links, encodeLink);
    if (r.memoryPeak) {
        out.key("memory_peak");
        out.value(QJsonObject{{QStringLiteral("bytes"), big(r.memoryPeak->bytes)},
                              {QStringLiteral("time"), big(r.memoryPeak->time)},
                              {QStringLiteral("component"), r.memoryPeak->component},
                              {QStringLiteral("file"), r.memoryPeak->file}});
    }
    out.key("name");
    out.value(r.name);
    out.key("ops");
    out.array(r.ops, encodeOp);
    out.key("rank");
    out.value(r.rank);
    out.key("steps");
    out.array(r.steps, encodeStep);
    out.endObject();
    out.key("read_as");
    out.value(r.folder);
    out.key("snapshot");
    out.value(QFileInfo(snapshotPath).fileName());
    out.key("stamps");
    out.array(stampsOf(r.folder), [](const RelativeStamp &s) {
        return QJsonObject{{QStringLiteral("path"), s.path},
                           {QStringLiteral("size"), big(s.stamp.size)},
                           {QStringLiteral("mtime_ns"), big(s.stamp.mtimeNs)},
                           {QStringLiteral("ctime_ns"), big(s.stamp.ctimeNs)},
                           {QStringLiteral("fingerprint"), QString::number(s.stamp.fingerprint)}};
    });
    out.key("warnings");
    out.value(strings(summary.warnings));
    out.endObject();
    return out.finish();
}

// What a summary's content takes in memory per byte of the file (its ops and links with their strings; the
// file's text is never held): about 0.66 (an op keeps about 700 bytes, as read from communication.json, and
// takes about 1,065 bytes of summary; docs/PERFORMANCE.md), rounded up. A summary is read only when this
// much fits under the limit.
constexpr double kKeptPerFileByte = 0.75;

bool keysAre(const std::vector<std::string> &keys, std::initializer_list<std::string_view> path)
{
    return std::equal(keys.begin(), keys.end(), path.begin(), path.end());
}

// One pass over a summary file (walkJsonFile): the small members are kept as trees (the header's format
// and sha256; the body's key, folder, read_as, snapshot and distributed; the rank's scalars), the arrays
// are decoded element by element as they are read (steps, ops, links, groups, warnings, files_read, stamps),
// and the SHA-256 of the body is made of the same bytes. Under a memory limit, reading stops once the private
// memory reaches the cluster's reading share of it.
class SummaryPass
{
public:
    SummaryPass(const QString &path, std::uint64_t memoryLimitBytes)
        : m_path(path), m_numbers(path), m_limit(memoryLimitBytes)
    {}

    // False when the file is not valid JSON (*error names it and what is wrong); true with stopped() when
    // the memory limit stopped it.
    bool read(QString *error)
    {
        JsonWalk walk;
        walk.walkInto = [](const std::vector<std::string> &keys) {
            return keysAre(keys, {"body"}) || keysAre(keys, {"body", "rank"}) ||
                   keysAre(keys, {"body", "stamps"}) || keysAre(keys, {"body", "groups"}) ||
                   keysAre(keys, {"body", "warnings"}) || keysAre(keys, {"body", "rank", "steps"}) ||
                   keysAre(keys, {"body", "rank", "ops"}) || keysAre(keys, {"body", "rank", "links"}) ||
                   keysAre(keys, {"body", "rank", "files_read"});
        };
        walk.member = [this](const std::vector<std::string> &keys, const JsonNode &value) {
            if (keys.size() == 1)
                header.members.emplace_back(keys[0], value);
            else if (keys.size() == 2 && keys[0] == "body")
                body.members.emplace_back(keys[1], value);
            else if (keys.size() == 3 && keys[0] == "body" && keys[1] == "rank")
                rank.members.emplace_back(keys[2], value);
            return true;
        };
        walk.element = [this](const std::vector<std::string> &keys, const JsonNode &value) {
            return element(keys, value);
        };
        walk.bytes = [this](std::size_t offset, std::string_view text) { hash(offset, text); };
        return walkJsonFile(m_path, walk, error, &m_stopped);
    }

    bool stopped() const { return m_stopped; }

    // Whether the file is the header with this checksum, the body hashing to it and the closing brace.
    bool checksumMatches() const
    {
        const QByteArray expected = header["sha256"].string().toLatin1();
        return expected.size() == kSha256HexSize && m_header == headerOf(expected) && m_last == '}' &&
               m_hash.result().toHex() == expected;
    }

    // The summary of the folder's rank, from what was read (paths of the folder as it was read when prepared
    // moved to where it is seen now: another mount point).
    RankSummary take(const QString &rankFolder, int rankId)
    {
        RankSummary out = std::move(m_summary);
        Rank &r = out.rank;
        r.rank = rankId; // the folder's, which the summary was checked to claim
        r.device = static_cast<int>(rank["device"].toInt(-1));
        r.folder = QFileInfo(rankFolder).absoluteFilePath();
        const QString readAs = body["read_as"].string();
        auto moved = [&](const QString &path) { return snapshot::rebasedPath(path, readAs, r.folder); };
        r.name = rank["name"].string();
        r.hasTimeline = rank["has_timeline"].text == "true";
        for (const QString &file : std::as_const(m_filesRead))
            r.filesRead << moved(file);
        if (const JsonNode &m = rank["memory_peak"]; m.isObject())
            r.memoryPeak = RankMemoryPeak{big(m["bytes"]), big(m["time"]), m["component"].string(),
                                          moved(m["file"].string())};
        if (const JsonNode &d = body["distributed"]; d.isObject()) {
            DistributedArgs &a = out.distributed;
            a.present = true;
            a.tp = static_cast<int>(d["tp"].toInt(1));
            a.pp = static_cast<int>(d["pp"].toInt(1));
            a.dp = static_cast<int>(d["dp"].toInt(1));
            a.cp = static_cast<int>(d["cp"].toInt(1));
            a.ep = static_cast<int>(d["ep"].toInt(1));
            a.worldSize = static_cast<int>(d["world_size"].toInt(0));
        }
        if (!readAs.isEmpty() && readAs != r.folder)
            for (QString &w : out.warnings)
                w.replace(readAs + QLatin1Char('/'), r.folder + QLatin1Char('/'));
        out.warnings << m_numbers.warnings();
        return out;
    }

    JsonNode header; // format, sha256
    JsonNode body;   // key, folder, read_as, snapshot, distributed
    JsonNode rank;   // the rank's rank, device, name, has_timeline, memory_peak
    std::vector<JsonNode> stamps;

private:
    bool element(const std::vector<std::string> &keys, const JsonNode &value)
    {
        // statm is read at the first element and then every 256: a few µs each.
        if (m_limit > 0 && m_elements++ % 256 == 0 &&
            static_cast<double>(privateResidentBytes()) >=
                kClusterReadingShareOfLimit * static_cast<double>(m_limit))
            return false;
        Rank &r = m_summary.rank;
        if (keysAre(keys, {"body", "rank", "steps"}))
            r.steps.push_back(decodeStep(value));
        else if (keysAre(keys, {"body", "rank", "ops"}))
            r.ops.push_back(decodeOp(value, m_numbers, m_shared));
        else if (keysAre(keys, {"body", "rank", "links"}))
            r.links.push_back(decodeLink(value, m_numbers, m_shared));
        else if (keysAre(keys, {"body", "rank", "files_read"}))
            m_filesRead << value.string();
        else if (keysAre(keys, {"body", "stamps"}))
            stamps.push_back(value);
        else if (keysAre(keys, {"body", "warnings"}))
            m_summary.warnings << value.string();
        else if (keysAre(keys, {"body", "groups"})) {
            ParallelGroup group;
            group.key = value["key"].string();
            group.hash = value["hash"].string();
            group.name = value["name"].string();
            for (const JsonNode &id : value["ranks"].items)
                group.globalRanks.push_back(static_cast<int>(id.toInt(-1)));
            m_summary.groups.push_back(std::move(group));
        }
        return true;
    }

    // The header's bytes are kept to compare; the body's are hashed, the last byte held back (the closing
    // brace is not part of the body).
    void hash(std::size_t offset, std::string_view text)
    {
        if (offset < static_cast<std::size_t>(kBodyOffset)) {
            const std::size_t head = std::min(static_cast<std::size_t>(kBodyOffset) - offset, text.size());
            m_header.append(text.data(), static_cast<qsizetype>(head));
            text.remove_prefix(head);
        }
        if (text.empty())
            return;
        if (m_last)
            m_hash.addData(QByteArrayView(&*m_last, 1));
        m_hash.addData(QByteArrayView(text.data(), static_cast<qsizetype>(text.size() - 1)));
        m_last = text.back();
    }

    QString m_path;
    FiniteNumbers m_numbers;
    SharedStrings m_shared;
    std::uint64_t m_limit;
    std::size_t m_elements = 0;
    bool m_stopped = false;
    RankSummary m_summary;
    QStringList m_filesRead; // as written
    QByteArray m_header;
    QCryptographicHash m_hash{QCryptographicHash::Sha256};
    std::optional<char> m_last;
};

} // namespace

QString preparedSummaryPath(const QString &rankFolder, const QString &cacheDir)
{
    if (cacheDir.isEmpty() || !QFileInfo(rankFolder).isDir() ||
        snapshot::insideDataFolder(rankFolder, cacheDir))
        return {};
    return QDir(cacheDir).filePath(snapshot::portableKeyName(rankFolder, kTag) +
                                   QStringLiteral(".atrank.json"));
}

bool writePreparedSummary(const RankSummary &summary, const QString &cacheDir, const QString &snapshotPath,
                          QString *reason)
{
    const QString path = preparedSummaryPath(summary.rank.folder, cacheDir);
    if (path.isEmpty()) {
        *reason = QCoreApplication::translate(
                      "Parser", "%1 lies inside the rank folder %2 (the data folder is never written)")
                      .arg(cacheDir, summary.rank.folder);
        return false;
    }
    return snapshot::saveCacheFile(encode(summary, snapshotPath), path, reason);
}

std::optional<RankSummary> readPreparedSummary(const QString &rankFolder, const QString &cacheDir,
                                               QString *why, std::uint64_t memoryLimitBytes)
{
    why->clear();
    const QString path = preparedSummaryPath(rankFolder, cacheDir);
    struct stat st;
    if (path.isEmpty() || ::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return std::nullopt; // not prepared
    auto unused = [&](const QString &reason) {
        *why = QCoreApplication::translate(
                   "Parser", "prepared summary %1 of %2 not used (%3); the rank's files were read")
                   .arg(path, QFileInfo(rankFolder).absoluteFilePath(), reason);
        return std::nullopt;
    };
    if (!S_ISREG(st.st_mode))
        return unused(QCoreApplication::translate("Parser", "not a regular file"));
    // Under a limit, a summary whose content would not fit in the cluster's reading share of it is not read:
    // the rank's files are read instead (under the same limit, which cuts them short if they do not fit).
    const double budget = kClusterReadingShareOfLimit * static_cast<double>(memoryLimitBytes);
    auto limitText = [&] {
        return QCoreApplication::translate("Parser",
                                           "%1, %2 % of the %3 limit, is for reading a cluster's "
                                           "operators; raise it with --memory-limit or AT_MEMORY_LIMIT")
            .arg(formatByteSize(static_cast<std::uint64_t>(budget)))
            .arg(qRound(kClusterReadingShareOfLimit * 100))
            .arg(formatByteSize(memoryLimitBytes));
    };
    if (memoryLimitBytes > 0 &&
        static_cast<double>(privateResidentBytes()) + kKeptPerFileByte * static_cast<double>(st.st_size) >
            budget)
        return unused(
            QCoreApplication::translate("Parser", "at %1 it does not fit under the memory limit: %2")
                .arg(formatByteSize(static_cast<std::uint64_t>(st.st_size)), limitText()));
    SummaryPass pass(path, memoryLimitBytes);
    QString error;
    if (!pass.read(&error))
        return unused(error);
    if (pass.stopped())
        return unused(QCoreApplication::translate("Parser", "reading it stopped when memory use reached the "
                                                            "limit: %1")
                          .arg(limitText()));
    if (const long long format = pass.header["format"].toInt(-1); format != kPreparedSummaryFormat)
        return unused(QCoreApplication::translate("Parser", "written by another version (format %1, this "
                                                            "version reads %2): prepare the rank again")
                          .arg(format)
                          .arg(kPreparedSummaryFormat));
    if (!pass.checksumMatches())
        return unused(QCoreApplication::translate(
            "Parser", "its checksum does not match its content: it was changed after it was written"));
    const JsonNode &body = pass.body;
    // Found by the folder's name and identity (its file name); a file renamed to it is another folder's.
    if (body["key"].string() != snapshot::portableKeyName(rankFolder, kTag))
        return unused(QCoreApplication::translate("Parser", "made for another folder"));
    // What is checked, and the rank, come from the folder as the reader sees it, never from the summary.
    const RankInputs inputs = rankInputs(rankFolder);
    if (inputs.rank < 0)
        return unused(QCoreApplication::translate(
            "Parser", "the folder's file names give no rank id (profiler_info_<N>.json, "
                      "ascend_pytorch_profiler_<N>.db), so the summary's cannot be checked"));
    if (const long long claimed = pass.rank["rank"].toInt(-1); claimed != inputs.rank)
        return unused(QCoreApplication::translate("Parser", "it claims rank %1 but the folder is rank %2")
                          .arg(claimed)
                          .arg(inputs.rank));
    // The same folder, at the path it was prepared at or seen at another one (another mount point, a copy
    // that kept the times): every file the reader reads there must be recorded and unchanged.
    const QString preparedAt = body["folder"].string();
    const QString seenAt = QFileInfo(rankFolder).canonicalFilePath();
    const QString shownAt = QFileInfo(rankFolder).absoluteFilePath();
    if (preparedAt.isEmpty())
        return unused(QCoreApplication::translate("Parser", "no files recorded"));
    std::map<QString, const JsonNode *> recordedByPath;
    for (const JsonNode &s : pass.stamps)
        recordedByPath.emplace(s["path"].string(), &s);
    auto shown = [&](const QString &relative) {
        return relative == QStringLiteral(".") ? shownAt : shownAt + QLatin1Char('/') + relative;
    };
    std::vector<snapshot::FileStamp> present; // files first: a file replaced also changes its folder's mtime
    for (const QString &relative : inputs.files + inputs.folders) {
        const auto found = recordedByPath.find(relative);
        if (found == recordedByPath.end())
            return unused(
                QCoreApplication::translate("Parser", "%1 is not recorded in it").arg(shown(relative)));
        const JsonNode &s = *found->second;
        snapshot::FileStamp stamp;
        stamp.path = relative == QStringLiteral(".") ? preparedAt : preparedAt + QLatin1Char('/') + relative;
        stamp.size = big(s["size"]);
        stamp.mtimeNs = big(s["mtime_ns"]);
        stamp.ctimeNs = big(s["ctime_ns"]);
        stamp.fingerprint = QString::fromStdString(s["fingerprint"].text).toULongLong();
        if (stamp.size >= 0) {
            present.push_back(stamp);
            continue;
        }
        // Not there when prepared: it must still not be there.
        if (QFileInfo::exists(shown(relative)))
            return unused(QCoreApplication::translate("Parser", "%1 changed since it was prepared")
                              .arg(shown(relative)));
    }
    if (const QString changed = snapshot::firstChangedFile(present, preparedAt, seenAt); !changed.isEmpty())
        return unused(QCoreApplication::translate("Parser", "%1 changed since it was prepared")
                          .arg(snapshot::rebasedPath(changed, seenAt, shownAt)));
    RankSummary summary = pass.take(rankFolder, inputs.rank);
    summary.rank.preparedSummary = path;
    return summary;
}

} // namespace at::cluster
