#pragma once

// What the device record decoders produce: paired task executions in device ticks, and the rolling-counter
// check that finds lost records (FORMATS.md §5.1, §5.7).

#include <cstddef>
#include <cstdint>
#include <limits>

namespace at::raw {

inline constexpr std::uint32_t kNoSubtask = std::numeric_limits<std::uint32_t>::max();

// 32 bytes (the 64-bit fields first, no padding holes): pairing writes one per task, so its size is
// the decoder's output bandwidth.
struct DeviceTask
{
    std::uint64_t startTicks = 0;
    std::uint64_t endTicks = 0;
    std::uint32_t stream = 0; // decoded stream id
    std::uint32_t task = 0;   // decoded task id
    std::uint32_t subtask = kNoSubtask;
    std::uint16_t taskType = 0; // HWTS task_type byte, or STARS SQE type
    bool ffts = false;          // an FFTS+ subtask (STARS funcType 100010/100011)
};
static_assert(sizeof(DeviceTask) == 32);

// The 4-bit `cnt` of consecutive records must go up by one (mod 16). Every break is a gap; `missing` is the
// number of records the gaps skipped (a repeated cnt counts as 15 skipped, as msprof would see it).
struct RollingCounter
{
    int last = -1;
    std::size_t gaps = 0;
    std::size_t missing = 0;
    // Returns false when records were lost before this one.
    bool feed(int cnt)
    {
        const int expected = (last + 1) & 15;
        const bool ok = last < 0 || cnt == expected;
        if (!ok) {
            ++gaps;
            missing += static_cast<std::size_t>((cnt - expected) & 15);
        }
        last = cnt;
        return ok;
    }
};

// Counts a pairer reports besides its pairs.
struct PairingStats
{
    std::size_t records = 0;
    std::size_t badMagic = 0;
    std::size_t endsWithoutStart = 0; // dropped
    std::size_t startsNeverEnded = 0; // dropped
    std::size_t startsReplaced = 0;   // HWTS: a start overwritten by a later start of the same task
    std::size_t ignored = 0;          // other log / function types
};

} // namespace at::raw
