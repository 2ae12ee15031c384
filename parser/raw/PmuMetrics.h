#pragma once

// AI Core PMU counters → the metric columns msprof computes (FORMATS.md §4.2). Only metrics whose events
// were all collected (sample.json `ai_core_profiling_events`) are produced. Ratios need no block count; the
// `*_time(us)` columns (timeCounters / pipeTime) need the block dim, core count and frequency of the task.

#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace at::raw {

// "0x8,0xa,0x9" → {8, 10, 9}; nullopt when an entry is not a number.
std::optional<std::vector<int>> parsePmuEvents(const QString &list);

class PmuMetricCalculator
{
public:
    explicit PmuMetricCalculator(std::vector<int> events);
    // Column names without core prefix, e.g. "total_cycles", "vec_ratio", "icache_miss_rate".
    const QStringList &names() const { return m_names; }
    // One value per name; NaN where a denominator is zero.
    std::vector<double> compute(std::uint64_t totalCycle, const std::array<std::uint64_t, 8> &pmu) const;
    // The `<pipe>_time(us)` columns this event list allows ("vec", "mac", "scalar", "mte1", "mte2", "mte3",
    // "fixpipe"), in order, and their counters of one record (total cycles first, for the core's own time).
    const QStringList &timePipes() const { return m_timePipes; }
    std::vector<std::uint64_t> timeCounters(std::uint64_t totalCycle,
                                            const std::array<std::uint64_t, 8> &pmu) const;

private:
    struct Term
    {
        int slot; // index into the 8 counters
        double weight;
    };
    struct Formula
    {
        std::vector<Term> numerator;
        int denominatorSlot; // -1: total cycles
    };
    std::vector<int> m_events;
    QStringList m_names;
    QStringList m_timePipes;
    std::vector<int> m_timeSlots;
    std::vector<Formula> m_formulas;
};

// FORMATS.md §4.2: a counter (cycles) as µs of the task: counter / f × ceil(b / n) / b with an integer
// ceiling, f the core frequency in MHz, b the task's block dim, n the core count. NaN when one is unknown.
double pipeTimeUs(std::uint64_t cycles, double frequencyMHz, std::int64_t blockDim, std::int64_t cores);

} // namespace at::raw
