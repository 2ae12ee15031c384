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
    if (r.logType != 0 && r.logType != 1) {
        ++m_stats.ignored;
        return;
    }
    if (m_starts.size() <= r.streamId)
        m_starts.resize(r.streamId + 1);
    std::vector<Pending> &stream = m_starts[r.streamId];
    if (r.taskId >= stream.size()) // grows to the largest task id seen (ids count up, wrap at 65536)
        stream.resize(std::min<std::size_t>(1u << 16, std::max<std::size_t>(r.taskId + 1u, 2 * stream.size())));
    Pending &slot = stream[r.taskId];
    if (r.logType == 0) {
        if (slot.open)
            ++m_stats.startsReplaced;
        else
            ++m_open;
        slot = Pending{r.sysCnt, r.taskType, true};
    } else {
        if (!slot.open) {
            ++m_stats.endsWithoutStart;
            return;
        }
        DeviceTask t;
        t.stream = r.streamId;
        t.task = r.taskId;
        t.startTicks = slot.sysCnt;
        t.endTicks = r.sysCnt;
        t.taskType = slot.taskType;
        m_tasks.push_back(t);
        slot.open = false;
        --m_open;
    }
}

std::vector<DeviceTask> HwtsPairer::finish()
{
    m_stats.startsNeverEnded += m_open;
    m_open = 0;
    m_starts.clear();
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
