#include "HwtsLog.h"

#include "ByteReader.h"

#include <algorithm>

namespace at::raw {

bool decodeHwts(const unsigned char *r, HwtsRecord &out)
{
    const std::uint8_t head = readU8(r, 0);
    out.logType = head & 0x7;
    out.flag = (head >> 3) & 1;
    out.cnt = head >> 4;
    out.taskType = readU8(r, 1);
    out.magic = readU16(r, 2);
    out.blockId = readU16(r, 4);
    out.taskId = readU16(r, 6);
    out.sysCnt = readU64(r, 8);
    out.streamId = readU32(r, 16) % 2048;
    return out.magic == kDeviceMagic;
}

// The inner loop of raw decoding: reads only the fields pairing needs straight from the record bytes
// (no HwtsRecord copy), one table lookup, and appends to a reserved task vector.
void HwtsPairer::add(const unsigned char *r)
{
    ++m_stats.records;
    if (readU16(r, 2) != kDeviceMagic) {
        ++m_stats.badMagic;
        return;
    }
    const std::uint8_t head = readU8(r, 0);
    m_counter.feed(head >> 4);
    const std::uint8_t logType = head & 0x7;
    if (logType > 1) {
        ++m_stats.ignored;
        return;
    }
    pair(logType, readU8(r, 1), readU16(r, 6), readU64(r, 8), readU32(r, 16) % 2048);
}

void HwtsPairer::add(const HwtsRecord &r)
{
    ++m_stats.records;
    if (r.magic != kDeviceMagic) {
        ++m_stats.badMagic;
        return;
    }
    m_counter.feed(r.cnt);
    if (r.logType != 0 && r.logType != 1) {
        ++m_stats.ignored;
        return;
    }
    pair(r.logType, r.taskType, r.taskId, r.sysCnt, r.streamId % 2048);
}

void HwtsPairer::reserve(std::size_t records)
{
    m_tasks.reserve(m_tasks.size() + records / 2);
}

inline void HwtsPairer::pair(std::uint8_t logType, std::uint8_t taskType, std::uint16_t taskId,
                             std::uint64_t sysCnt, std::uint32_t streamId)
{
    if (m_starts.size() <= streamId)
        m_starts.resize(streamId + 1);
    std::unique_ptr<Pending[]> &table = m_starts[streamId];
    if (!table)
        table = std::make_unique<Pending[]>(kSlots);
    Pending &slot = table[taskId & (kSlots - 1)];
    const std::uint32_t key = (streamId << 16) | taskId;
    if (logType == 0) {
        if (slot.open && slot.taskId == taskId) {
            ++m_stats.startsReplaced;
        } else {
            if (!m_spilled.empty()) {
                if (const auto it = m_spilled.find(key); it != m_spilled.end()) {
                    ++m_stats.startsReplaced; // an older open start of this task, spilled earlier
                    m_spilled.erase(it);
                    --m_open;
                }
            }
            if (slot.open) // another task's open start: keep it aside
                m_spilled.emplace((streamId << 16) | slot.taskId, slot);
            ++m_open;
        }
        slot = Pending{sysCnt, taskId, taskType, true};
        return;
    }
    Pending start;
    if (slot.open && slot.taskId == taskId) {
        start = slot;
        slot.open = false;
    } else if (const auto it = m_spilled.empty() ? m_spilled.end() : m_spilled.find(key);
               it != m_spilled.end()) {
        start = it->second;
        m_spilled.erase(it);
    } else {
        ++m_stats.endsWithoutStart;
        return;
    }
    --m_open;
    DeviceTask &t = m_tasks.emplace_back();
    t.stream = streamId;
    t.task = taskId;
    t.startTicks = start.sysCnt;
    t.endTicks = sysCnt;
    t.taskType = start.taskType;
}

std::vector<DeviceTask> HwtsPairer::finish()
{
    m_stats.startsNeverEnded += m_open;
    m_open = 0;
    m_starts.clear();
    m_spilled.clear();
    // The log is written in time order, so ends usually arrive sorted: check before sorting.
    const auto byEnd = [](const DeviceTask &a, const DeviceTask &b) { return a.endTicks < b.endTicks; };
    if (!std::is_sorted(m_tasks.begin(), m_tasks.end(), byEnd))
        std::stable_sort(m_tasks.begin(), m_tasks.end(), byEnd);
    return std::move(m_tasks);
}

const char *hwtsTaskTypeName(std::uint8_t taskType)
{
    static const char *const names[] = {"AI_CORE", "AI_CPU",  "AI_VECTOR_CORE", "WRITE_BACK",
                                        "MIX_AIC", "MIX_AIV", "FFTS_PLUS",      "DSA_SQE",
                                        "DVPP",    "HCCL",    "FUSION"};
    return taskType < std::size(names) ? names[taskType] : "UNKNOWN";
}

} // namespace at::raw
