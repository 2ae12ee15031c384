#include "KernelTable.h"

#include <QStringList>

namespace at {

std::size_t KernelTable::unjoinedCount() const
{
    std::size_t n = 0;
    for (const KernelRecord &r : m_rows)
        n += r.joined() ? 0 : 1;
    return n;
}

std::int64_t KernelTable::rowOfSlice(std::int32_t thread, std::uint32_t slice) const
{
    const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(thread)) << 32) | slice;
    auto it = m_rowBySlice.find(key);
    return it == m_rowBySlice.end() ? -1 : static_cast<std::int64_t>(it->second);
}

int KernelTable::columnIndex(const QString &header) const
{
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i].header == header)
            return static_cast<int>(i);
    return -1;
}

int KernelTable::addColumn(const KernelMetricColumn &column)
{
    if (const int existing = columnIndex(column.header); existing >= 0)
        return existing;
    // Widen the matrix: one more value per row.
    const std::size_t oldWidth = m_columns.size();
    m_columns.push_back(column);
    if (!m_rows.empty()) {
        std::vector<double> widened(m_rows.size() * m_columns.size(),
                                    std::numeric_limits<double>::quiet_NaN());
        for (std::size_t r = 0; r < m_rows.size(); ++r)
            for (std::size_t c = 0; c < oldWidth; ++c)
                widened[r * m_columns.size() + c] = m_values[r * oldWidth + c];
        m_values = std::move(widened);
    }
    return static_cast<int>(m_columns.size()) - 1;
}

std::size_t KernelTable::addRow(const KernelRecord &record)
{
    m_rows.push_back(record);
    m_values.resize(m_rows.size() * m_columns.size(), std::numeric_limits<double>::quiet_NaN());
    return m_rows.size() - 1;
}

void KernelTable::setMetric(std::size_t row, int column, double value)
{
    m_values[row * m_columns.size() + static_cast<std::size_t>(column)] = value;
}

QString KernelTable::metricGroupOf(int group) const
{
    return group >= 0 && static_cast<std::size_t>(group) < m_metricGroups.size()
               ? m_metricGroups[static_cast<std::size_t>(group)]
               : QString();
}

QString KernelTable::metricGroup() const
{
    QStringList names;
    for (const QString &name : m_metricGroups)
        if (!name.isEmpty() && !names.contains(name))
            names << name;
    return names.join(QStringLiteral(", "));
}

void KernelTable::setMetricGroup(int group, const QString &metricGroup)
{
    if (group < 0)
        return;
    if (static_cast<std::size_t>(group) >= m_metricGroups.size())
        m_metricGroups.resize(static_cast<std::size_t>(group) + 1);
    m_metricGroups[static_cast<std::size_t>(group)] = metricGroup;
}

void KernelTable::rebuildSliceIndex()
{
    m_rowBySlice.clear();
    for (std::uint32_t r = 0; r < m_rows.size(); ++r) {
        const KernelRecord &k = m_rows[r];
        if (k.joined())
            m_rowBySlice.emplace(
                (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.thread)) << 32) | k.slice, r);
    }
}

} // namespace at
