#pragma once

// hwts.data task logs of HWTS chips (310, 910A; FORMATS.md §5.5): 64-byte records, paired per §5.7.

#include "DeviceTask.h"

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
    // Pairs sorted by end time; starts never ended are counted and dropped.
    std::vector<DeviceTask> finish();
    const PairingStats &stats() const { return m_stats; }
    const RollingCounter &counter() const { return m_counter; }

private:
    struct Pending
    {
        std::uint64_t sysCnt = 0;
        std::uint8_t taskType = 0;
        bool open = false;
    };
    // Open starts per stream (stream ids are < 2048), indexed by the 16-bit task id: a flat table per
    // active stream instead of a hash map, because this lookup is the decoder's inner loop.
    std::vector<std::vector<Pending>> m_starts;
    std::size_t m_open = 0;
    std::vector<DeviceTask> m_tasks;
    PairingStats m_stats;
    RollingCounter m_counter;
};

// Name of the HWTS task_type byte (the host GE enum, FORMATS.md §2.7; inferred for HWTS logs).
const char *hwtsTaskTypeName(std::uint8_t taskType);

} // namespace at::raw
