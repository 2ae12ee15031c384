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

void HwtsPairer::add(const unsigned char *record)
{
    HwtsRecord r;
    if (!decodeHwts(record, r)) {
        ++m_stats.records;
        ++m_stats.badMagic;
        return;
    }
    add(r);
}

void HwtsPairer::add(const HwtsRecord &r)
{
    ++m_stats.records;
    if (r.magic != kDeviceMagic) {
        ++m_stats.badMagic;
        return;
    }
    m_counter.feed(r.cnt);
    const std::uint32_t key = (r.streamId << 16) | r.taskId;
    if (r.logType == 0) {
        auto [it, inserted] = m_starts.try_emplace(key, Pending{r.sysCnt, r.taskType});
        if (!inserted) {
            ++m_stats.startsReplaced;
            it->second = Pending{r.sysCnt, r.taskType};
        }
    } else if (r.logType == 1) {
        const auto it = m_starts.find(key);
        if (it == m_starts.end()) {
            ++m_stats.endsWithoutStart;
            return;
        }
        DeviceTask t;
        t.stream = r.streamId;
        t.task = r.taskId;
        t.startTicks = it->second.sysCnt;
        t.endTicks = r.sysCnt;
        t.taskType = it->second.taskType;
        m_tasks.push_back(t);
        m_starts.erase(it);
    } else {
        ++m_stats.ignored;
    }
}

std::vector<DeviceTask> HwtsPairer::finish()
{
    m_stats.startsNeverEnded += m_starts.size();
    m_starts.clear();
    std::stable_sort(m_tasks.begin(), m_tasks.end(),
                     [](const DeviceTask &a, const DeviceTask &b) { return a.endTicks < b.endTicks; });
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
