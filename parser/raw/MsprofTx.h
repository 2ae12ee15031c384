#pragma once

// MsprofTx records of the framework's msproftx API (FORMATS.md §5.3): `(un)aging.additional.msproftx`
// slices, 256-byte MsprofAdditionalInfo records "HH3IQ2HI2H4Ii5Qi156s". Each record carries a mark or a
// push/pop / start/end range (startTime, endTime in host time); messages longer than one record continue
// in further records with the same markId, ordered by segment index.

#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace at::raw {

inline constexpr std::size_t kMsprofTxRecordSize = 256;
inline constexpr std::size_t kMsprofTxMessageOffset = 100;
inline constexpr std::size_t kMsprofTxMessageSize = 156;

struct MsprofTxRecord
{
    // 24-byte MsprofAdditionalInfo header
    std::uint16_t magic = 0; // 0x5A5A
    std::uint16_t level = 0;
    std::uint32_t type = 0;
    std::uint32_t headerThreadId = 0;
    std::uint32_t dataLen = 0;
    std::uint64_t timeStamp = 0;
    // payload
    std::uint16_t infoType = 0; // 0 Mark, 1 MarkEx
    std::uint16_t segment = 0;
    std::uint16_t stampMagic = 0;
    std::uint16_t dataTag = 0;
    std::uint32_t processId = 0;
    std::uint32_t threadId = 0;
    std::uint32_t category = 0;
    std::uint32_t eventType = 0;
    std::int32_t payloadType = 0;
    std::uint64_t payload = 0;
    std::uint64_t startTime = 0;
    std::uint64_t endTime = 0;
    std::uint64_t markId = 0;
    std::uint64_t domain = 0;
    std::int32_t messageType = 0;
    QByteArray message; // up to the first NUL of char[156]
};

// Decodes one 256-byte record at explicit offsets. False when the header magic is not 0x5A5A.
bool decodeMsprofTx(const unsigned char *record, MsprofTxRecord &out);

// One mark or range with its whole message.
struct TxEvent
{
    std::uint32_t processId = 0;
    std::uint32_t threadId = 0;
    std::uint32_t eventType = 0;
    std::uint32_t category = 0;
    std::uint64_t markId = 0;
    std::uint64_t startTime = 0;
    std::uint64_t endTime = 0; // == startTime for a mark
    QString message;
};

// Joins the segments of each markId (in arrival order of first segment) into events.
class MsprofTxCollector
{
public:
    void add(const unsigned char *record);
    std::vector<TxEvent> finish();

    struct Stats
    {
        std::size_t records = 0;
        std::size_t badMagic = 0;
        std::size_t missingSegments = 0; // events whose segment indices have gaps (message kept as read)
        std::size_t reversed = 0;        // endTime < startTime: shown as a mark at startTime
    };
    const Stats &stats() const { return m_stats; }

private:
    struct Pending
    {
        MsprofTxRecord first;
        std::vector<std::pair<std::uint16_t, QByteArray>> segments;
    };
    std::vector<Pending> m_events;
    std::vector<std::pair<std::uint64_t, std::size_t>> m_open; // (markId, index) of the events seen
    Stats m_stats;
};

} // namespace at::raw
