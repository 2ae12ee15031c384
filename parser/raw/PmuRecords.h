#pragma once

// Per-task AI Core PMU records (FORMATS.md §5.5 aicore.data for HWTS chips, §5.6 ffts_profile.data context
// PMU for STARS chips): total cycles plus 8 counters in the order of sample.json `ai_core_profiling_events`.

#include <array>
#include <cstddef>
#include <cstdint>

namespace at::raw {

inline constexpr std::size_t kAicorePmuRecordSize = 128;
inline constexpr std::size_t kFftsPmuRecordSize = 128;

// aicore.data, 128 bytes "BBHHHII10Q8I": header @0 (cnt bits 4–7), task_id @6, total_cycle @16,
// 8 × u64 counters @32, stream_id @96 (% 2048).
struct AicorePmuRecord
{
    std::uint8_t cnt = 0;
    std::uint16_t taskId = 0;
    std::uint32_t streamId = 0;
    std::uint64_t totalCycle = 0;
    std::array<std::uint64_t, 8> pmu{};
};
void decodeAicorePmu(const unsigned char *record, AicorePmuRecord &out);

enum class PmuCore
{
    Aic,
    Aiv,
    MixAic,
    MixAiv
};

// ffts_profile.data context PMU (funcType 101000), 128 bytes "4HQ4HQ12Q".
struct FftsPmuRecord
{
    std::uint8_t funcType = 0;
    std::uint8_t cnt = 0;
    std::uint16_t magic = 0;
    std::uint16_t rawStream = 0;
    std::uint16_t rawTask = 0;
    std::uint8_t subTaskType = 0; // bits 0–7 of u16 @16
    bool overflow = false;        // bit 10 of u16 @16: total cycle invalid, drop the record
    std::uint16_t subTaskId = 0;
    std::uint8_t fftsType = 0; // u16 @20 >> 13
    std::uint64_t totalCycle = 0;
    std::array<std::uint64_t, 8> pmu{};
    std::uint64_t startTicks = 0;
    std::uint64_t endTicks = 0;
    // Block PMU (funcType 101001) only: the core that ran the block (u8 @20: bit 0 core type, 1 = AIV;
    // bits 1–7 core id; the FFTS type is u8 @21 >> 5 there) and the block ids @28/@30.
    bool blockOnAiv = false;
    std::uint8_t coreId = 0;
    std::uint16_t subBlockId = 0;
    std::uint16_t blockId = 0;
    // §5.6 core classification (msprof ffts_pmu.py).
    PmuCore core() const;
    bool isAic() const { return core() == PmuCore::Aic || core() == PmuCore::MixAic; }
    // Subtask id as msprof reports it: 4294967295 for records that are not FFTS+.
    std::uint32_t subtask() const { return fftsType == 4 ? subTaskId : 0xFFFFFFFFu; }
};
// False when the magic is wrong.
bool decodeFftsPmu(const unsigned char *record, FftsPmuRecord &out);

} // namespace at::raw
