#pragma once

// AI Core frequency changes (FORMATS.md §5.5 lpmFreqConv.data, 888 bytes "II" + "QII" × 55): u32 count,
// u32 reserved, then 55 entries {u64 sysCnt (device ticks), u32 frequency MHz, u32 reserved}; only the first
// `count` are valid. The frequency holds from an entry's tick until the next one. It is the `AI Core Freq`
// counter, and §4.2 converts a task's PMU cycles to µs with the frequency at the task's end.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace at::raw {

inline constexpr std::size_t kAicFrequencyRecordSize = 888;
inline constexpr std::size_t kAicFrequencyEntries = 55;

class AicFrequencyTimeline
{
public:
    // Adds the valid entries of one record; false when its count is above 55 (the record is skipped).
    bool add(const unsigned char *record);
    void finish(); // sorts by tick, keeps the last of equal ticks
    bool empty() const { return m_points.empty(); }
    // MHz at `ticks`: the latest change at or before it, else `fallback` (info.json aic_frequency).
    double at(std::uint64_t ticks, double fallback) const;
    const std::vector<std::pair<std::uint64_t, std::uint32_t>> &points() const { return m_points; }

private:
    std::vector<std::pair<std::uint64_t, std::uint32_t>> m_points; // (ticks, MHz)
};

} // namespace at::raw
