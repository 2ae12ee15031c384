#include "PmuMetrics.h"

#include <cmath>
#include <initializer_list>
#include <limits>

namespace at::raw {

std::optional<std::vector<int>> parsePmuEvents(const QString &list)
{
    std::vector<int> events;
    for (const QString &part : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const QString t = part.trimmed();
        const int v = t.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? t.mid(2).toInt(&ok, 16)
                                                                             : t.toInt(&ok, 16);
        if (!ok)
            return std::nullopt;
        events.push_back(v);
    }
    return events;
}

namespace {

struct Definition
{
    const char *name;
    std::initializer_list<std::pair<int, double>> numerator; // (event id, weight)
    int denominatorEvent;                                    // -1: total cycles, 0: none (a count)
};

// FORMATS.md §4.2 (msprof ai_core_config.py).
const Definition kDefinitions[] = {
    {"vec_ratio", {{0x8, 1}}, -1},
    {"mac_ratio", {{0xa, 1}}, -1},
    {"scalar_ratio", {{0x9, 1}}, -1},
    {"mte1_ratio", {{0xb, 1}}, -1},
    {"mte2_ratio", {{0xc, 1}}, -1},
    {"mte3_ratio", {{0xd, 1}}, -1},
    {"fixpipe_ratio", {{0x303, 1}}, -1},
    {"icache_miss_rate", {{0x55, 1}}, 0x54},
    {"mac_fp16_ratio", {{0x49, 1}}, -1},
    {"mac_int8_ratio", {{0x4a, 1}}, -1},
    {"vec_fp32_ratio", {{0x4b, 1}}, -1},
    {"vec_fp16_ratio", {{0x4c, 1}, {0x4d, 1}}, -1},
    {"vec_int32_ratio", {{0x4e, 1}}, -1},
    {"vec_misc_ratio", {{0x4f, 1}}, -1},
    {"cube_fops", {{0x49, 16.0 * 16 * 16 * 2}, {0x4a, 16.0 * 16 * 32 * 2}}, 0},
    {"vector_fops", {{0x4b, 32}, {0x4c, 128}, {0x4d, 64}, {0x4e, 64}, {0x4f, 32}}, 0},
    {"vec_bankgroup_cflt_ratio", {{0x64, 1}}, -1},
    {"vec_bank_cflt_ratio", {{0x65, 1}}, -1},
    {"vec_resc_cflt_ratio", {{0x66, 1}}, -1},
    {"iq_full_ratio", {{0x6b, 1}, {0x6c, 1}, {0x6d, 1}, {0x6e, 1}, {0x6f, 1}}, -1},
};

int slotOf(const std::vector<int> &events, int event)
{
    for (std::size_t i = 0; i < events.size() && i < 8; ++i)
        if (events[i] == event)
            return static_cast<int>(i);
    return -1;
}

} // namespace

PmuMetricCalculator::PmuMetricCalculator(std::vector<int> events) : m_events(std::move(events))
{
    m_names << QStringLiteral("total_cycles");
    m_formulas.push_back(Formula{{}, -2});
    for (const Definition &d : kDefinitions) {
        Formula f;
        bool complete = true;
        for (const auto &[event, weight] : d.numerator) {
            const int slot = slotOf(m_events, event);
            complete = complete && slot >= 0;
            f.numerator.push_back(Term{slot, weight});
        }
        f.denominatorSlot = d.denominatorEvent == -1  ? -1
                            : d.denominatorEvent == 0 ? -3
                                                      : slotOf(m_events, d.denominatorEvent);
        if (!complete || (d.denominatorEvent > 0 && f.denominatorSlot < 0))
            continue;
        m_names << QString::fromLatin1(d.name);
        m_formulas.push_back(std::move(f));
    }
    const std::pair<const char *, int> pipes[] = {{"vec", 0x8},      {"mac", 0xa},  {"scalar", 0x9},
                                                  {"mte1", 0xb},     {"mte2", 0xc}, {"mte3", 0xd},
                                                  {"fixpipe", 0x303}};
    for (const auto &[pipe, event] : pipes)
        if (const int slot = slotOf(m_events, event); slot >= 0) {
            m_timePipes << QString::fromLatin1(pipe);
            m_timeSlots.push_back(slot);
        }
}

std::vector<std::uint64_t> PmuMetricCalculator::timeCounters(std::uint64_t totalCycle,
                                                             const std::array<std::uint64_t, 8> &pmu) const
{
    std::vector<std::uint64_t> out{totalCycle};
    for (const int slot : m_timeSlots)
        out.push_back(pmu[static_cast<std::size_t>(slot)]);
    return out;
}

double pipeTimeUs(std::uint64_t cycles, double frequencyMHz, std::int64_t blockDim, std::int64_t cores)
{
    if (!(frequencyMHz > 0) || blockDim <= 0 || cores <= 0)
        return std::numeric_limits<double>::quiet_NaN();
    const std::int64_t rounds = (blockDim + cores - 1) / cores; // integer ceiling, as msprof's cal_total_time
    return static_cast<double>(cycles) / frequencyMHz * static_cast<double>(rounds) /
           static_cast<double>(blockDim);
}

std::vector<double> PmuMetricCalculator::compute(std::uint64_t totalCycle,
                                                 const std::array<std::uint64_t, 8> &pmu) const
{
    std::vector<double> values;
    values.reserve(m_formulas.size());
    for (const Formula &f : m_formulas) {
        if (f.denominatorSlot == -2) { // total_cycles
            values.push_back(static_cast<double>(totalCycle));
            continue;
        }
        double numerator = 0;
        for (const Term &t : f.numerator)
            numerator += static_cast<double>(pmu[static_cast<std::size_t>(t.slot)]) * t.weight;
        if (f.denominatorSlot == -3) {
            values.push_back(numerator);
            continue;
        }
        const double denominator =
            f.denominatorSlot == -1 ? static_cast<double>(totalCycle)
                                    : static_cast<double>(pmu[static_cast<std::size_t>(f.denominatorSlot)]);
        values.push_back(denominator == 0 ? std::numeric_limits<double>::quiet_NaN()
                                          : numerator / denominator);
    }
    return values;
}

} // namespace at::raw
