#include "AicFrequency.h"

#include "ByteReader.h"

#include <algorithm>

namespace at::raw {

bool AicFrequencyTimeline::add(const unsigned char *r)
{
    const std::uint32_t count = readU32(r, 0);
    if (count > kAicFrequencyEntries)
        return false;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t at = 8 + i * 16;
        m_points.emplace_back(readU64(r, at), readU32(r, at + 8));
    }
    return true;
}

void AicFrequencyTimeline::finish()
{
    std::stable_sort(m_points.begin(), m_points.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    // Equal ticks: the later record wins.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> unique;
    for (const auto &p : m_points) {
        if (!unique.empty() && unique.back().first == p.first)
            unique.back() = p;
        else
            unique.push_back(p);
    }
    m_points = std::move(unique);
}

double AicFrequencyTimeline::at(std::uint64_t ticks, double fallback) const
{
    const auto after = std::upper_bound(m_points.begin(), m_points.end(), ticks,
                                        [](std::uint64_t t, const auto &p) { return t < p.first; });
    if (after == m_points.begin())
        return fallback;
    const std::uint32_t mhz = std::prev(after)->second;
    return mhz > 0 ? static_cast<double>(mhz) : fallback;
}

} // namespace at::raw
