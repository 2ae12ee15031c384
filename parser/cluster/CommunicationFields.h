#pragma once
// What the readers of communication data share (FORMATS.md §9.4): the fields of one op of communication.json
// and of one link of communication_matrix.json, read the same way from a rank's own files (ClusterReader)
// and from msprof-analyze's cluster_communication.json / cluster_communication_matrix.json
// (MsprofAnalyzeOutput), the op key's "<name>@<group>" split, the p2p rule for an op name (also
// ClusterAnalysisDb's), and the interning of repeated texts.

#include "cluster/ClusterModel.h"
#include "cluster/ClusterValues.h"
#include "cluster/JsonTree.h"

#include <QHash>
#include <QString>

#include <utility>

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

private:
    QHash<QString, QString> m_strings;
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
        t.transport = intern(QString::fromStdString(transport));
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
    link.transport = intern(info["Transport Type"].string());
    link.sizeMb = numbers.read(info["Transit Size(MB)"], "Transit Size(MB)");
    link.time = times.time(info["Transit Time(ms)"].text, TimeUnit::Milliseconds, "Transit Time(ms)");
    link.bandwidthGbps = numbers.read(info["Bandwidth(GB/s)"], "Bandwidth(GB/s)");
    link.opName = info["Op Name"].string();
}

} // namespace at::cluster
