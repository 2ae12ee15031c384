#include "ComparisonTableModel.h"

#include "ChangeColors.h"
#include "TableCells.h"

#include <QBrush>

#include <cmath>

namespace at {

namespace {

// The Diff column of the by-name level (tinted faster/slower, as the per-kernel one).
constexpr int kByNameDiffColumn = 6;

QVariant numberCell(double v, bool sorting, int precision = 3)
{
    if (std::isnan(v))
        return sorting ? QVariant(-1e300) : QVariant(QString());
    return sorting ? QVariant(v) : QVariant(QString::number(v, 'f', precision));
}

// Shown with its sign, sorted by its size: the largest changes, faster or slower, come together.
QVariant signedDurationCell(TimeNs ns, bool sorting)
{
    if (sorting)
        return QVariant::fromValue<qlonglong>(std::abs(ns));
    return (ns > 0   ? QStringLiteral("+")
            : ns < 0 ? QStringLiteral("-")
                     : QString()) +
           formatDuration(std::abs(ns));
}

} // namespace

ComparisonTableModel::ComparisonTableModel(Level level, QObject *parent)
    : QAbstractTableModel(parent), m_level(level)
{}

void ComparisonTableModel::setComparison(const StepComparison *comparison)
{
    beginResetModel();
    m_comparison = comparison;
    endResetModel();
}

int ComparisonTableModel::fixedColumns() const
{
    return m_level == Level::ByName ? 8 : 9;
}

int ComparisonTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_comparison)
        return 0;
    return static_cast<int>(m_level == Level::ByName ? m_comparison->byName.size()
                                                     : m_comparison->kernels.size());
}

int ComparisonTableModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_comparison)
        return 0;
    return fixedColumns() + static_cast<int>(m_comparison->metrics.size());
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || !m_comparison)
        return {};
    static const char *const byName[] = {"Name",       "Base #",           "Comparison #", "Matched",
                                         "Base total", "Comparison total", "Diff",         "Ratio"};
    static const char *const perKernel[] = {
        "Stream", "Name",  "Base start", "Base duration", "Comparison start", "Comparison duration",
        "Diff",   "Ratio", "Matched"};
    if (section < fixedColumns())
        return tr(m_level == Level::ByName ? byName[section] : perKernel[section]);
    const QString metric = m_comparison->metrics.value(section - fixedColumns());
    return m_level == Level::ByName ? tr("Δ mean %1").arg(metric) : tr("Δ %1").arg(metric);
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_comparison || !index.isValid())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const bool sorting = role == Qt::UserRole;
    if (role == Qt::DisplayRole || sorting)
        return m_level == Level::ByName ? byNameCell(m_comparison->byName[row], index.column(), sorting)
                                        : kernelCell(m_comparison->kernels[row], index.column(), sorting);
    if (role == Qt::TextAlignmentRole && index.column() >= (m_level == Level::ByName ? 1 : 2))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DecorationRole &&
        index.column() == (m_level == Level::ByName ? kByNameDiffColumn : kPerKernelDiffColumn)) {
        if (m_level == Level::PerKernel)
            return durationChangeColor(m_comparison->kernels[row]);
        const KernelNameDiff &d = m_comparison->byName[row];
        return durationChangeColor(d.baseTotal, d.comparisonTotal);
    }
    return {};
}

QVariant ComparisonTableModel::byNameCell(const KernelNameDiff &d, int column, bool sorting) const
{
    switch (column) {
    case 0:
        return d.name;
    case 1:
        return QVariant::fromValue<qulonglong>(d.baseCount);
    case 2:
        return QVariant::fromValue<qulonglong>(d.comparisonCount);
    case 3:
        return QVariant::fromValue<qulonglong>(d.matchedCount);
    case 4:
        return durationCell(d.baseTotal, sorting);
    case 5:
        return durationCell(d.comparisonTotal, sorting);
    case kByNameDiffColumn:
        return signedDurationCell(d.diff(), sorting);
    case 7:
        return numberCell(d.ratio(), sorting);
    default:
        return numberCell(d.meanMetricDeltas[static_cast<std::size_t>(column - fixedColumns())], sorting, 4);
    }
}

QVariant ComparisonTableModel::kernelCell(const KernelPair &p, int column, bool sorting) const
{
    const bool b = p.base.isValid(), k = p.comparison.isValid();
    switch (column) {
    case 0:
        return p.stream;
    case 1:
        return p.name;
    case 2:
        return b ? durationCell(p.baseOffset, sorting) : QVariant();
    case 3:
        return b ? durationCell(p.baseDuration, sorting) : QVariant();
    case 4:
        return k ? durationCell(p.comparisonOffset, sorting) : QVariant();
    case 5:
        return k ? durationCell(p.comparisonDuration, sorting) : QVariant();
    case kPerKernelDiffColumn:
        return p.matched() ? signedDurationCell(p.diff(), sorting) : QVariant();
    case 7:
        return p.matched() && p.baseDuration > 0 ? numberCell(static_cast<double>(p.comparisonDuration) /
                                                                  static_cast<double>(p.baseDuration),
                                                              sorting)
                                                 : QVariant();
    case 8:
        return p.matched() ? tr("yes") : (b ? tr("base only") : tr("comparison only"));
    default:
        return numberCell(p.metricDeltas[static_cast<std::size_t>(column - fixedColumns())], sorting, 4);
    }
}

} // namespace at
