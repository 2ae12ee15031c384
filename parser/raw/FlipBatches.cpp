#include "FlipBatches.h"

#include <algorithm>

namespace at::raw {

void FlipBatches::addFlip(std::uint32_t stream, std::int64_t time, std::uint16_t taskId)
{
    m_flips[stream].push_back({time, taskId});
}

void FlipBatches::finish()
{
    for (auto &[stream, flips] : m_flips)
        std::stable_sort(flips.begin(), flips.end(),
                         [](const Flip &a, const Flip &b) { return a.time < b.time; });
}

std::uint16_t FlipBatches::batchOf(std::uint32_t stream, std::uint16_t taskId, std::int64_t time) const
{
    const auto it = m_flips.find(stream);
    if (it == m_flips.end())
        return 0;
    const std::vector<Flip> &flips = it->second;
    const auto next = std::upper_bound(flips.begin(), flips.end(), time,
                                       [](std::int64_t t, const Flip &f) { return t < f.time; });
    std::size_t batch = static_cast<std::size_t>(next - flips.begin());
    if (next != flips.end() && next->taskId != 0 && taskId < next->taskId)
        ++batch;
    return static_cast<std::uint16_t>(batch); // batch ids are 16 bits on the host as well
}

} // namespace at::raw
