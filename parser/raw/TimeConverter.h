#pragma once

// Device/host ticks → monotonic ns → local epoch ns, exactly as msprof does it (FORMATS.md §5.10), in
// integer arithmetic: a frequency is the rational number its decimal text states ("49.999001" MHz =
// 49999001 / 10^6), products are 128-bit, and each conversion rounds once (half away from zero).

#include "CheckedTime.h"
#include "Time.h"

#include <QString>

#include <climits>
#include <cstdint>
#include <optional>

namespace at::raw {

// Corrupt tick values or sync points must not overflow: the conversions saturate (TraceBuilder drops events
// beyond ±2^62 ns with a warning, so a saturated time is reported, not wrapped around).
using at::saturatingAdd;
inline std::int64_t saturatingSub(std::int64_t a, std::int64_t b)
{
    return at::saturatingSubtract(a, b);
}

// A frequency in MHz (= ticks per µs) as numerator / denominator.
struct Frequency
{
    std::int64_t numerator = 0;
    std::int64_t denominator = 1;
    bool valid() const { return numerator > 0 && denominator > 0; }
    // "100", "38.4", "49.999001", " 50 " → exact rational; nullopt for empty, negative, zero or junk.
    static std::optional<Frequency> parse(const QString &mhz);
};

// round(ticks × 1000 / f) in ns, half away from zero; ticks may be negative. Saturates at ±INT64_MAX.
std::int64_t ticksToNs(std::int64_t ticks, const Frequency &f);
// The same for an unsigned tick difference (|a − b| of two u64 counters).
std::int64_t unsignedTicksToNs(std::uint64_t ticks, const Frequency &f);

// Converts one clock's counter values (device sys_cnt, or host ticks) to local epoch ns.
struct ClockConverter
{
    Frequency frequency;
    std::uint64_t syncTicks = 0;    // dev_start.log `cntvct` (device) / host_start.log `cntvct` (host)
    std::int64_t syncMonoNs = 0;    // host_start.log `clock_monotonic_raw` (+ cntvct_diff, §5.10 step 1)
    std::int64_t monoToLocalNs = 0; // start_info collectionTimeBegin × 1000 − clockMonotonicRaw

    // §5.10 step 2: mono = syncMono ± |ticks − syncTicks| × 1000 / f.
    TimeNs toMonotonic(std::uint64_t ticks) const
    {
        return ticks >= syncTicks
                   ? saturatingAdd(syncMonoNs, unsignedTicksToNs(ticks - syncTicks, frequency))
                   : saturatingSub(syncMonoNs, unsignedTicksToNs(syncTicks - ticks, frequency));
    }
    TimeNs toLocal(std::uint64_t ticks) const { return saturatingAdd(toMonotonic(ticks), monoToLocalNs); }
    // §5.10 step 4: durations from the tick difference.
    TimeNs duration(std::uint64_t startTicks, std::uint64_t endTicks) const
    {
        return endTicks >= startTicks ? unsignedTicksToNs(endTicks - startTicks, frequency)
                                      : -unsignedTicksToNs(startTicks - endTicks, frequency);
    }
};

// §5.10 step 5: collectionTimeBegin (µs epoch) × 1000 − clockMonotonicRaw (ns).
std::int64_t monotonicToLocalOffset(std::int64_t collectionTimeBeginUs, std::int64_t clockMonotonicRawNs);

} // namespace at::raw
