#include "MetricColoring.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace at {

QColor viridis(double t)
{
    // Nine samples of matplotlib's viridis, interpolated linearly.
    static constexpr std::array<std::array<int, 3>, 9> stops{{{68, 1, 84},
                                                              {71, 44, 122},
                                                              {59, 81, 139},
                                                              {44, 113, 142},
                                                              {33, 144, 141},
                                                              {39, 173, 129},
                                                              {92, 200, 99},
                                                              {170, 220, 50},
                                                              {253, 231, 37}}};
    t = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * (stops.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), stops.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [&](int c) {
        return static_cast<int>(std::lround(stops[i][c] + f * (stops[i + 1][c] - stops[i][c])));
    };
    return QColor(mix(0), mix(1), mix(2));
}

void MetricColoring::setModel(const TraceModel *model)
{
    m_model = model;
    setByName();
}

void MetricColoring::setByName()
{
    m_mode = Mode::ByName;
    m_column = -1;
}

void MetricColoring::setByMetric(int column)
{
    if (!m_model || column < 0 || static_cast<std::size_t>(column) >= m_model->kernels().columns().size())
        return setByName();
    m_mode = Mode::ByMetric;
    m_column = column;
    const KernelTable &table = m_model->kernels();
    m_min = std::numeric_limits<double>::infinity();
    m_max = -std::numeric_limits<double>::infinity();
    for (std::size_t r = 0; r < table.size(); ++r) {
        const double v = table.metric(r, static_cast<std::size_t>(column));
        if (std::isnan(v))
            continue;
        m_min = std::min(m_min, v);
        m_max = std::max(m_max, v);
    }
    if (!(m_min <= m_max))
        m_min = m_max = 0;
}

void MetricColoring::setByDurationPercentile()
{
    if (!m_model)
        return;
    m_mode = Mode::ByDurationPercentile;
    m_sortedDurations.clear();
    for (const KernelRecord &k : m_model->kernels().rows())
        if (k.joined())
            m_sortedDurations.push_back(k.duration);
    std::sort(m_sortedDurations.begin(), m_sortedDurations.end());
}

std::optional<QColor> MetricColoring::colorFor(std::int32_t thread, std::uint32_t slice) const
{
    if (m_mode == Mode::ByName || !m_model)
        return std::nullopt;
    const std::int64_t row = m_model->kernels().rowOfSlice(thread, slice);
    if (row < 0)
        return std::nullopt;
    const KernelRecord &k = m_model->kernels().rows()[static_cast<std::size_t>(row)];
    if (m_mode == Mode::ByDurationPercentile) {
        if (m_sortedDurations.size() < 2)
            return viridis(1.0);
        const auto rank = std::upper_bound(m_sortedDurations.begin(), m_sortedDurations.end(), k.duration) -
                          m_sortedDurations.begin() - 1;
        return viridis(static_cast<double>(rank) / static_cast<double>(m_sortedDurations.size() - 1));
    }
    const double v =
        m_model->kernels().metric(static_cast<std::size_t>(row), static_cast<std::size_t>(m_column));
    if (std::isnan(v))
        return missingColor();
    return viridis(m_max > m_min ? (v - m_min) / (m_max - m_min) : 1.0);
}

QString MetricColoring::legendTitle() const
{
    if (m_mode == Mode::ByDurationPercentile)
        return QStringLiteral("Kernel duration percentile");
    if (m_mode == Mode::ByMetric && m_model)
        return m_model->kernels().columns()[static_cast<std::size_t>(m_column)].header;
    return {};
}

QString MetricColoring::legendMinimum() const
{
    return m_mode == Mode::ByDurationPercentile ? QStringLiteral("0 %") : QString::number(m_min, 'g', 4);
}

QString MetricColoring::legendMaximum() const
{
    return m_mode == Mode::ByDurationPercentile ? QStringLiteral("100 %") : QString::number(m_max, 'g', 4);
}

} // namespace at
