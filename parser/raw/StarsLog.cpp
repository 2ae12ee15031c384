#include "StarsLog.h"

#include "ByteReader.h"
#include "HwtsLog.h"

#include <algorithm>

namespace at::raw {

StarsHeader decodeStarsHeader(const unsigned char *r)
{
    const std::uint16_t h = readU16(r, 0);
    StarsHeader out;
    out.funcType = h & 0x3F;
    out.cnt = (h >> 6) & 0xF;
    out.sqeType = static_cast<std::uint8_t>(h >> 10);
    out.magic = readU16(r, 2);
    return out;
}

StreamTask decodeStarsIds(std::uint16_t s, std::uint16_t t, std::uint8_t sqeType, StarsIdMode mode)
{
    if (mode.chipV6)
        return {s, (static_cast<std::uint32_t>(t) << 16) | s};
    if (mode.streamExpand) {
        if (sqeType == 3 || sqeType == 4) // PLACE_HOLDER, EVENT_RECORD
            return {static_cast<std::uint32_t>(s & 0x7FFF), t};
        if (s & 0x8000)
            return {static_cast<std::uint32_t>(t & 0x7FFF),
                    static_cast<std::uint32_t>((t & 0x8000) | (s & 0x7FFF))};
        return {static_cast<std::uint32_t>(s & 0x7FFF), t};
    }
    if (s & 0x1000)
        return {static_cast<std::uint32_t>(s % 2048),
                static_cast<std::uint32_t>((t & 0x1FFF) | (s & 0xE000))};
    if (s & 0x2000)
        return {static_cast<std::uint32_t>((t & 0x0FFF) % 2048),
                static_cast<std::uint32_t>((s & 0x0FFF) | (t & 0xF000))};
    return {static_cast<std::uint32_t>(s % 2048), t};
}

bool decodeStarsTask(const unsigned char *r, StarsTaskRecord &out)
{
    out.header = decodeStarsHeader(r);
    out.rawStream = readU16(r, 4);
    out.rawTask = readU16(r, 6);
    out.timestamp = readU64(r, 8);
    const std::uint16_t at16 = readU16(r, 16);
    const std::uint16_t at18 = readU16(r, 18);
    if (out.header.funcType == kFftsStart || out.header.funcType == kFftsEnd) {
        out.subTaskType = at16 & 0xFF;
        out.subTaskId = at18;
        out.fftsType = static_cast<std::uint8_t>(readU16(r, 20) >> 13);
        out.threadId = readU16(r, 22);
    } else {
        out.accId = at18 & 0x3F;
    }
    return out.header.magic == kDeviceMagic;
}

void StarsPairer::add(const unsigned char *record)
{
    ++m_stats.records;
    StarsTaskRecord r;
    if (!decodeStarsTask(record, r)) {
        ++m_stats.badMagic;
        return;
    }
    m_counter.feed(r.header.cnt);
    const std::uint8_t f = r.header.funcType;
    const bool ffts = f == kFftsStart || f == kFftsEnd;
    if (f != kAcsqStart && f != kAcsqEnd && !ffts) {
        ++m_stats.ignored;
        return;
    }
    const StreamTask ids = decodeStarsIds(r.rawStream, r.rawTask, r.header.sqeType, m_mode);
    const Key key{ids.stream, ids.task, ffts ? r.subTaskId : kNoSubtask, ffts};
    m_marks[key].push_back(Mark{r.timestamp, r.header.sqeType, f == kAcsqEnd || f == kFftsEnd});
}

std::vector<DeviceTask> StarsPairer::finish()
{
    std::vector<DeviceTask> tasks;
    for (auto &[key, marks] : m_marks) {
        std::stable_sort(marks.begin(), marks.end(),
                         [](const Mark &a, const Mark &b) { return a.ts < b.ts; });
        std::vector<Mark> starts, ends;
        for (const Mark &m : marks)
            (m.end ? ends : starts).push_back(m);
        std::size_t s = 0, e = 0;
        while (s < starts.size() && e < ends.size()) {
            if (ends[e].ts < starts[s].ts) {
                ++m_stats.endsWithoutStart;
                ++e;
            } else if (s + 1 == starts.size() || ends[e].ts < starts[s + 1].ts) {
                DeviceTask t;
                t.stream = std::get<0>(key);
                t.task = std::get<1>(key);
                t.subtask = std::get<2>(key);
                t.ffts = std::get<3>(key);
                t.startTicks = starts[s].ts;
                t.endTicks = ends[e].ts;
                t.taskType = starts[s].sqeType;
                tasks.push_back(t);
                ++s;
                ++e;
            } else {
                ++m_stats.startsNeverEnded;
                ++s;
            }
        }
        m_stats.startsNeverEnded += starts.size() - s;
        m_stats.endsWithoutStart += ends.size() - e;
    }
    m_marks.clear();
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const DeviceTask &a, const DeviceTask &b) { return a.startTicks < b.startTicks; });
    return tasks;
}

const char *starsSqeTypeName(std::uint8_t sqeType)
{
    static const char *const names[] = {"AI_CORE",           "AI_CPU",           "AIV_SQE",
                                        "PLACE_HOLDER_SQE",  "EVENT_RECORD_SQE", "EVENT_WAIT_SQE",
                                        "NOTIFY_RECORD_SQE", "NOTIFY_WAIT_SQE",  "WRITE_VALUE_SQE",
                                        "VQ6_SQE",           "TOF_SQE",          "SDMA_SQE",
                                        "VPC_SQE",           "JPEGE_SQE",        "JPEGD_SQE",
                                        "DSA_SQE",           "ROCCE_SQE",        "PCIE_DMA_SQE",
                                        "HOST_CPU_SQE",      "CDQM_SQE",         "C_CORE_SQE"};
    return sqeType < std::size(names) ? names[sqeType] : "UNKNOWN";
}

} // namespace at::raw
