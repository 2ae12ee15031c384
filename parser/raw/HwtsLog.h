#pragma once

// hwts.data task logs of HWTS chips (310, 910A; FORMATS.md §5.5): 64-byte records, paired per §5.7.

#include "DeviceTask.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace at::raw {

inline constexpr std::size_t kHwtsRecordSize = 64;
inline constexpr std::uint16_t kDeviceMagic = 0x6BD3;

struct HwtsRecord
{
    std::uint8_t logType = 0; // 0 task start, 1 task end, 2 block start, 3 block end, 4 block PMU
    std::uint8_t cnt = 0;
    bool flag = false;
    std::uint8_t taskType = 0;
    std::uint16_t magic = 0;
    std::uint16_t blockId = 0;
    std::uint16_t taskId = 0;
    std::uint64_t sysCnt = 0;
    std::uint32_t streamId = 0; // already % 2048
};

// Decodes one 64-byte record (explicit offsets). Returns false when the magic is wrong.
bool decodeHwts(const unsigned char *record, HwtsRecord &out);

// Pairs start/end records in file order (§5.7 HWTS row) and counts lost records (cnt gaps).
class HwtsPairer
{
public:
    void add(const unsigned char *record);
    void add(const HwtsRecord &record);
    // Reserves the task table for this many more records (the reader passes the stream's size / 64).
    void reserve(std::size_t records);
    // Pairs sorted by end time; starts never ended are counted and dropped.
    std::vector<DeviceTask> finish();
    const PairingStats &stats() const { return m_stats; }
    const RollingCounter &counter() const { return m_counter; }

private:
    void pair(std::uint8_t logType, std::uint8_t taskType, std::uint16_t taskId, std::uint64_t sysCnt,
              std::uint32_t streamId);
    struct Pending
    {
        std::uint64_t sysCnt = 0;
        std::uint16_t taskId = 0;
        std::uint8_t taskType = 0;
        bool open = false;
    };
    // Open starts per stream (stream ids are < 2048) in a small direct-mapped table indexed by the low bits
    // of the task id: a task's end follows its start closely, so the table stays in cache. A start whose
    // slot holds another open task moves that task to m_spilled (keyed by stream << 16 | task), which is
    // only consulted while it is not empty. Same results as one table entry per (stream, task).
    static constexpr std::size_t kSlots = 1024;
    std::vector<std::unique_ptr<Pending[]>> m_starts;
    std::unordered_map<std::uint32_t, Pending> m_spilled;
    std::size_t m_open = 0;
    std::vector<DeviceTask> m_tasks;
    PairingStats m_stats;
    RollingCounter m_counter;
};

// Name of the HWTS task_type byte (the host GE enum, FORMATS.md §2.7; inferred for HWTS logs).
const char *hwtsTaskTypeName(std::uint8_t taskType);

} // namespace at::raw
