#pragma once

// AI CPU task records (FORMATS.md §5.5): aicpu.data / DATA_PREPROCESS.AICPU slices, 128 bytes,
// "HHHHQQQQQQQIIQQQQIIIHBBQ". A task runs from runStartTick to runEndTick (device ticks).

#include <cstddef>
#include <cstdint>

namespace at::raw {

inline constexpr std::size_t kAiCpuRecordSize = 128;
inline constexpr std::uint16_t kAiCpuDataTag = 60;

struct AiCpuRecord
{
    std::uint16_t magic = 0; // 0x5A5A
    std::uint16_t dataTag = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint64_t runStartTime = 0;
    std::uint64_t runStartTick = 0;
    std::uint64_t computeStartTime = 0;
    std::uint64_t memcpyStartTime = 0;
    std::uint64_t memcpyEndTime = 0;
    std::uint64_t runEndTime = 0;
    std::uint64_t runEndTick = 0;
    std::uint32_t threadId = 0;
    std::uint32_t deviceId = 0;
    std::uint64_t submitTick = 0;
    std::uint64_t scheduleTick = 0;
    std::uint64_t tickBeforeRun = 0;
    std::uint64_t tickAfterRun = 0;
    std::uint32_t kernelType = 0;
    std::uint32_t dispatchTime = 0;
    std::uint32_t totalTime = 0;
    std::uint16_t fftsThreadId = 0;
    std::uint8_t version = 0;
    // memcpyStart − computeStart and memcpyEnd − memcpyStart (units unverified, §5.5); 0 when negative.
    std::uint64_t computeTime() const
    {
        return memcpyStartTime >= computeStartTime ? memcpyStartTime - computeStartTime : 0;
    }
    std::uint64_t memcpyTime() const
    {
        return memcpyEndTime >= memcpyStartTime ? memcpyEndTime - memcpyStartTime : 0;
    }
};

// Decodes one record at explicit offsets. False when the magic is not 0x5A5A.
bool decodeAiCpu(const unsigned char *record, AiCpuRecord &out);

struct AiCpuStats
{
    std::size_t records = 0;
    std::size_t badMagic = 0;
    std::size_t otherTag = 0; // magic right, dataTag not 60: skipped
    std::size_t reversed = 0; // runEndTick < runStartTick: dropped
    std::size_t noTick = 0;   // runStartTick 0: not started, dropped
};

// Checks one record and says whether it is a task to show; counts the rest.
bool acceptAiCpu(const unsigned char *record, AiCpuRecord &out, AiCpuStats &stats);

} // namespace at::raw
