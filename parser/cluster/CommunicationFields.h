#pragma once
// What the readers of communication data share (FORMATS.md §9.4): the fields of one op of communication.json
// and of one link of communication_matrix.json, read the same way from a rank's own files (ClusterReader)
// and from msprof-analyze's cluster_communication.json / cluster_communication_matrix.json
// (MsprofAnalyzeOutput), the op key's "<name>@<group>" split, the p2p rule for an op name (also
// ClusterAnalysisDb's), the interning of repeated texts, and the reading of such a file under the memory
// limit.

#include "LoadMemoryGuard.h"
#include "cluster/ClusterModel.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterValues.h"
#include "cluster/JsonTree.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace at::cluster {

// One QString per distinct text (a group hash, a transport name): shared, not one copy per op.
class StringInterner
{
public:
    QString operator()(const QString &text)
    {
        const auto it = m_strings.constFind(text);
        if (it != m_strings.constEnd())
            return *it;
        m_strings.insert(text, text);
        return text;
    }
    // The same for a text as the file holds it (UTF-8), found by its bytes: no QString made per lookup.
    QString operator()(std::string_view utf8)
    {
        const auto it = m_bytes.find(utf8);
        if (it != m_bytes.end())
            return it->second;
        const QString text = (*this)(QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size())));
        m_bytes.emplace(std::string(utf8), text);
        return text;
    }

private:
    struct BytesHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    QHash<QString, QString> m_strings;
    std::unordered_map<std::string, QString, BytesHash, std::equal_to<>> m_bytes;
};

// "<name>@<group hash>" split at the last '@'; the group is empty without one.
inline std::pair<QString, QString> splitAtGroup(const QString &key)
{
    const qsizetype at = key.lastIndexOf(QLatin1Char('@'));
    return at < 0 ? std::pair{key, QString()} : std::pair{key.left(at), key.mid(at + 1)};
}

// torch_npu's p2p rule for an op name, for an op whose kind or group type is not written.
inline bool isP2pOpName(const QString &name)
{
    const QString lower = name.toLower();
    return lower.startsWith(QLatin1String("hcom_send")) || lower.startsWith(QLatin1String("hcom_receive")) ||
           lower.startsWith(QLatin1String("hcom_batchsendrecv"));
}

// An op's "Communication Time Info" and "Communication Bandwidth Info" (its transports) into op; the times
// by the rules of ClusterValues.h (a broken rule is logged in `times`), the other numbers through `numbers`.
inline void readJsonOpValues(const JsonNode &info, CommOp &op, FiniteNumbers &numbers, RecordTimes &times,
                             StringInterner &intern)
{
    const JsonNode &time = info["Communication Time Info"];
    op.startAbsolute =
        times.time(time["Start Timestamp(us)"].text, TimeUnit::Microseconds, "Start Timestamp(us)", true);
    op.elapse = times.time(time["Elapse Time(ms)"].text, TimeUnit::Milliseconds, "Elapse Time(ms)");
    op.transit = times.time(time["Transit Time(ms)"].text, TimeUnit::Milliseconds, "Transit Time(ms)");
    op.wait = times.time(time["Wait Time(ms)"].text, TimeUnit::Milliseconds, "Wait Time(ms)");
    op.synchronization =
        times.time(time["Synchronization Time(ms)"].text, TimeUnit::Milliseconds, "Synchronization Time(ms)");
    op.idle = times.time(time["Idle Time(ms)"].text, TimeUnit::Milliseconds, "Idle Time(ms)");
    op.waitRatio = numbers.read(time["Wait Time Ratio"], "Wait Time Ratio");
    op.synchronizationRatio = numbers.read(time["Synchronization Time Ratio"], "Synchronization Time Ratio");
    const JsonNode &bandwidth = info["Communication Bandwidth Info"];
    op.bandwidth.reserve(bandwidth.members.size());
    for (const auto &[transport, b] : bandwidth.members) {
        TransportBandwidth t;
        t.transport = intern(std::string_view(transport));
        t.sizeMb = numbers.read(b["Transit Size(MB)"], "Transit Size(MB)");
        t.time = times.time(b["Transit Time(ms)"].text, TimeUnit::Milliseconds, "Transit Time(ms)");
        if (const JsonNode &bw = b["Bandwidth(GB/s)"]; bw.type == JsonNode::Type::Number)
            t.bandwidthGbps = numbers.read(bw, "Bandwidth(GB/s)");
        t.largePacketRatio = numbers.read(b["Large Packet Ratio"], "Large Packet Ratio");
        for (const auto &[size, bucket] : b["Size Distribution"].members)
            if (bucket.items.size() >= 2)
                t.sizes.push_back(
                    {QString::fromStdString(size).toDouble(), bucket.items[0].toInt(0),
                     times.time(bucket.items[1].text, TimeUnit::Milliseconds, "Size Distribution")});
        op.bandwidth.push_back(std::move(t));
    }
}

// A link's transport, size, time, bandwidth and op name into link; the time by the rules of ClusterValues.h
// (a broken rule is logged in `times`), the other numbers through `numbers`.
inline void readJsonLinkValues(const JsonNode &info, MatrixLink &link, FiniteNumbers &numbers,
                               RecordTimes &times, StringInterner &intern)
{
    link.transport = intern(std::string_view(info["Transport Type"].text));
    link.sizeMb = numbers.read(info["Transit Size(MB)"], "Transit Size(MB)");
    link.time = times.time(info["Transit Time(ms)"].text, TimeUnit::Milliseconds, "Transit Time(ms)");
    link.bandwidthGbps = numbers.read(info["Bandwidth(GB/s)"], "Bandwidth(GB/s)");
    link.opName = intern(std::string_view(info["Op Name"].text));
}

// A communication file read op by op (streamJsonMembers at depth) under the memory limit (--memory-limit,
// ClusterReadOptions::memoryLimitBytes; 0: none): when this process's private memory reaches the reading
// share of the limit (LoadMemoryGuard.h; statm is read at the first op and then every 256, a few µs each),
// reading stops, what was visited stands, and *stoppedAt says where ("at <op> of <step>": keys[2] of
// keys[stepLevel]). False when the file could not be read (*error says why; the caller drops what visit
// kept).
inline bool streamUnderMemoryLimit(
    const QString &path, int depth, int stepLevel, std::uint64_t memoryLimit,
    const std::function<void(const std::vector<std::string> &keys, const JsonNode &value)> &visit,
    QString *stoppedAt, QString *error)
{
    const double budget = kClusterReadingShareOfLimit * static_cast<double>(memoryLimit);
    std::size_t visited = 0;
    return streamJsonMembers(
        path, depth,
        [&](const std::vector<std::string> &keys, const JsonNode &value) {
            if (memoryLimit > 0 && visited++ % 256 == 0 &&
                static_cast<double>(privateResidentBytes()) >= budget) {
                *stoppedAt = QCoreApplication::translate("Parser", "at %1 of %2")
                                 .arg(QString::fromStdString(keys[2]),
                                      QString::fromStdString(keys[static_cast<std::size_t>(stepLevel)]));
                return false;
            }
            visit(keys, value);
            return true;
        },
        error);
}

// The warning for path read up to stoppedAt (streamUnderMemoryLimit): `kept` records (`what`: ops, links)
// kept.
inline QString stoppedReadingWarning(const QString &path, const QString &stoppedAt, std::uint64_t memoryLimit,
                                     std::size_t kept, const QString &what)
{
    return QCoreApplication::translate("Parser",
                                       "%1: reading stopped %2 because %3; the %4 read before were kept")
        .arg(path, stoppedAt, clusterMemoryStopReason(memoryLimit),
             QStringLiteral("%1 %2").arg(kept).arg(what));
}

} // namespace at::cluster
