#pragma once

// Batch ids (FORMATS.md §5.8): task ids are 16 bits and wrap; the runtime marks each wrap of a stream
// with a flip (ts_track TaskFlip records on the device, task_track records of task type 98 on the host).
// A task's batch id is the number of flips of its stream at or before it, plus one when the next flip
// names a task id above the task's own (that flip was logged late: the task already belongs to the new
// batch). (device, stream, task, batch) then names one submission, which is how host and device join.

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace at::raw {

class FlipBatches
{
public:
    // time: any clock, as long as assign() is asked on the same one.
    void addFlip(std::uint32_t stream, std::int64_t time, std::uint16_t taskId);
    void finish(); // sorts each stream's flips by time
    bool empty() const { return m_flips.empty(); }
    std::uint16_t batchOf(std::uint32_t stream, std::uint16_t taskId, std::int64_t time) const;

private:
    struct Flip
    {
        std::int64_t time;
        std::uint16_t taskId;
    };
    std::unordered_map<std::uint32_t, std::vector<Flip>> m_flips;
};

} // namespace at::raw
