#include "MsprofTx.h"

#include "ByteReader.h"
#include "HostRecords.h"

#include <algorithm>
#include <unordered_map>

namespace at::raw {

bool decodeMsprofTx(const unsigned char *r, MsprofTxRecord &out)
{
    out.magic = readU16(r, 0);
    out.level = readU16(r, 2);
    out.type = readU32(r, 4);
    out.headerThreadId = readU32(r, 8);
    out.dataLen = readU32(r, 12);
    out.timeStamp = readU64(r, 16);
    out.infoType = readU16(r, 24);
    out.segment = readU16(r, 26);
    out.stampMagic = readU16(r, 32);
    out.dataTag = readU16(r, 34);
    out.processId = readU32(r, 36);
    out.threadId = readU32(r, 40);
    out.category = readU32(r, 44);
    out.eventType = readU32(r, 48);
    out.payloadType = static_cast<std::int32_t>(readU32(r, 52));
    out.payload = readU64(r, 56);
    out.startTime = readU64(r, 64);
    out.endTime = readU64(r, 72);
    out.markId = readU64(r, 80);
    out.domain = readU64(r, 88);
    out.messageType = static_cast<std::int32_t>(readU32(r, 96));
    std::size_t length = 0;
    while (length < kMsprofTxMessageSize && r[kMsprofTxMessageOffset + length] != 0)
        ++length;
    out.message = QByteArray(reinterpret_cast<const char *>(r + kMsprofTxMessageOffset),
                             static_cast<qsizetype>(length));
    return out.magic == kHostMagic;
}

void MsprofTxCollector::add(const unsigned char *record)
{
    ++m_stats.records;
    MsprofTxRecord r;
    if (!decodeMsprofTx(record, r)) {
        ++m_stats.badMagic;
        return;
    }
    // Segments of one message follow each other closely: look for the markId among the recent events only,
    // so a markId reused much later starts a new event and the lookup stays cheap.
    constexpr std::size_t kWindow = 64;
    for (std::size_t i = m_open.size(); i > 0 && m_open.size() - i < kWindow; --i)
        if (m_open[i - 1].first == r.markId && r.segment != 0) {
            m_events[m_open[i - 1].second].segments.emplace_back(r.segment, std::move(r.message));
            return;
        }
    Pending p;
    p.segments.emplace_back(r.segment, r.message);
    p.first = std::move(r);
    m_open.emplace_back(p.first.markId, m_events.size());
    m_events.push_back(std::move(p));
}

std::vector<TxEvent> MsprofTxCollector::finish()
{
    std::vector<TxEvent> out;
    out.reserve(m_events.size());
    for (Pending &p : m_events) {
        std::stable_sort(p.segments.begin(), p.segments.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        QByteArray message;
        bool gap = false;
        for (std::size_t i = 0; i < p.segments.size(); ++i) {
            gap = gap || p.segments[i].first != i;
            message += p.segments[i].second;
        }
        if (gap)
            ++m_stats.missingSegments;
        TxEvent e;
        e.processId = p.first.processId;
        e.threadId = p.first.threadId;
        e.eventType = p.first.eventType;
        e.category = p.first.category;
        e.markId = p.first.markId;
        e.startTime = p.first.startTime;
        e.endTime = p.first.endTime;
        if (e.endTime < e.startTime) {
            ++m_stats.reversed;
            e.endTime = e.startTime;
        }
        e.message = QString::fromUtf8(message);
        out.push_back(std::move(e));
    }
    m_events.clear();
    m_open.clear();
    return out;
}

} // namespace at::raw
