#pragma once

// Host task_track records (FORMATS.md §5.3, MsprofCompactInfo with a MsprofRuntimeTrack payload, 64 bytes,
// `(un)aging.compact.task_track` slices): the runtime logs every task it submits with its device, stream,
// task and batch ids and the hash of the kernel name. They name the device tasks of the HWTS/STARS logs.

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace at::raw {

inline constexpr std::size_t kTaskTrackRecordSize = 64;
inline constexpr std::uint64_t kFlipTaskType = 98;       // task-id wrap marker, not a task
inline constexpr std::uint64_t kMaintenanceTaskType = 6; // dropped by msprof

struct TaskTrackRecord
{
    std::uint16_t magic = 0; // 0x5A5A
    std::uint16_t level = 0;
    std::uint32_t type = 0;
    std::uint32_t threadId = 0;
    std::uint32_t dataLen = 0;
    std::uint64_t timeStamp = 0; // host time
    std::uint16_t deviceId = 0;  // low 12 bits of u16 @24
    std::uint8_t deviceType = 0; // high 4 bits: 0 NPU, 1 DPU
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;  // low 16 bits of u32 @28
    std::uint16_t batchId = 0; // high 16 bits
    std::uint64_t taskType = 0;
    std::uint64_t kernelName = 0; // hash (hash_dic)
};

// Decodes one 64-byte record at explicit offsets. False when the magic is not 0x5A5A.
bool decodeTaskTrack(const unsigned char *record, TaskTrackRecord &out);

// The submitted tasks per (device, stream, task), in host time; looks up the submission that precedes a
// device execution (task ids wrap, so the same ids recur: the latest submission at or before the start wins,
// else the first one of the key when the clocks disagree).
class HostTaskIndex
{
public:
    void add(std::uint32_t device, std::uint32_t stream, std::uint32_t task, std::int64_t time,
             std::uint64_t nameHash);
    void finish(); // sorts each key's submissions by time
    // The name hash of the submission for a device task starting at `start`, or 0 when none is known.
    std::uint64_t lookup(std::uint32_t device, std::uint32_t stream, std::uint32_t task,
                         std::int64_t start) const;
    bool empty() const { return m_byKey.empty(); }

private:
    static std::uint64_t key(std::uint32_t device, std::uint32_t stream, std::uint32_t task)
    {
        return (std::uint64_t(device & 0xFFF) << 52) | (std::uint64_t(stream & 0xFFFFF) << 32) | task;
    }
    std::unordered_map<std::uint64_t, std::vector<std::pair<std::int64_t, std::uint64_t>>> m_byKey;
};

} // namespace at::raw
