#include "TaskTrack.h"

#include "ByteReader.h"
#include "HostRecords.h"

#include <algorithm>

namespace at::raw {

bool decodeTaskTrack(const unsigned char *r, TaskTrackRecord &out)
{
    out.magic = readU16(r, 0);
    out.level = readU16(r, 2);
    out.type = readU32(r, 4);
    out.threadId = readU32(r, 8);
    out.dataLen = readU32(r, 12);
    out.timeStamp = readU64(r, 16);
    const std::uint16_t device = readU16(r, 24);
    out.deviceId = device & 0x0FFF;
    out.deviceType = static_cast<std::uint8_t>(device >> 12);
    out.streamId = readU16(r, 26);
    const std::uint32_t task = readU32(r, 28);
    out.taskId = static_cast<std::uint16_t>(task & 0xFFFF);
    out.batchId = static_cast<std::uint16_t>(task >> 16);
    out.taskType = readU64(r, 32);
    out.kernelName = readU64(r, 40);
    return out.magic == kHostMagic;
}

void HostTaskIndex::add(std::uint32_t device, std::uint32_t stream, std::uint32_t task, std::int64_t time,
                        std::uint64_t nameHash)
{
    m_byKey[key(device, stream, task)].emplace_back(time, nameHash);
}

void HostTaskIndex::finish()
{
    for (auto &[k, list] : m_byKey)
        std::stable_sort(list.begin(), list.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
}

std::uint64_t HostTaskIndex::lookup(std::uint32_t device, std::uint32_t stream, std::uint32_t task,
                                    std::int64_t start) const
{
    const auto it = m_byKey.find(key(device, stream, task));
    if (it == m_byKey.end() || it->second.empty())
        return 0;
    const auto &list = it->second;
    auto after = std::upper_bound(list.begin(), list.end(), start,
                                  [](std::int64_t t, const auto &entry) { return t < entry.first; });
    return after == list.begin() ? list.front().second : std::prev(after)->second;
}

} // namespace at::raw
