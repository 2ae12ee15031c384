#include "ComparisonTableModel.h"

#include "ChangeColors.h"
#include "TableCells.h"

#include <QBrush>
#include <QRegularExpression>

#include <cmath>

namespace at {

namespace {

// The Diff column of the by-name level (tinted faster/slower, as the per-kernel one).
constexpr int kByNameDiffColumn = 6;

constexpr int kSortRole = Qt::UserRole;

// The raw unit at the end of a metric's name: "aicore_time(us)" → "us".
QString unitOfMetric(const QString &metric)
{
    static const QRegularExpression unit(QStringLiteral(R"(\(\s*([^()\s]{1,6})\s*\)\s*$)"));
    const QRegularExpressionMatch match = unit.match(metric);
    return match.hasMatch() ? match.captured(1) : QString();
}

} // namespace

ComparisonTableModel::ComparisonTableModel(Level level, QObject *parent)
    : QAbstractTableModel(parent), m_level(level)
{}

void ComparisonTableModel::setComparison(const StepComparison *comparison)
{
    beginResetModel();
    m_comparison = comparison;
    pickUnits();
    endResetModel();
}

void ComparisonTableModel::pickUnits()
{
    m_units.clear();
    m_metricUnits.clear();
    if (!m_comparison)
        return;
    m_units.assign(static_cast<std::size_t>(columnCount()), DisplayUnit{});
    auto duration = [this](int column, const auto &rows, auto value) {
        m_units[static_cast<std::size_t>(column)] = durationUnitFor(largestMagnitude(rows, value));
    };
    const auto &names = m_comparison->byName;
    const auto &pairs = m_comparison->kernels;
    const DisplayUnit ratio{Quantity::Plain, QString(), 1, 3};
    if (m_level == Level::ByName) {
        duration(4, names, [](const KernelNameDiff &d) { return d.baseTotal; });
        duration(5, names, [](const KernelNameDiff &d) { return d.comparisonTotal; });
        duration(kByNameDiffColumn, names, [](const KernelNameDiff &d) { return d.diff(); });
        m_units[7] = ratio;
    } else {
        duration(2, pairs, [](const KernelPair &p) { return p.baseOffset; });
        duration(3, pairs, [](const KernelPair &p) { return p.baseDuration; });
        duration(4, pairs, [](const KernelPair &p) { return p.comparisonOffset; });
        duration(5, pairs, [](const KernelPair &p) { return p.comparisonDuration; });
        duration(kPerKernelDiffColumn, pairs,
                 [](const KernelPair &p) { return p.matched() ? p.diff() : TimeNs(0); });
        m_units[7] = ratio;
    }
    for (qsizetype m = 0; m < m_comparison->metrics.size(); ++m) {
        const QString unit = unitOfMetric(m_comparison->metrics[m]);
        double largest = 0;
        auto note = [&largest](double v) {
            if (std::isfinite(v))
                largest = std::max(largest, std::abs(v));
        };
        const auto i = static_cast<std::size_t>(m);
        if (m_level == Level::ByName)
            for (const KernelNameDiff &d : m_comparison->byName)
                note(i < d.meanMetricDeltas.size() ? d.meanMetricDeltas[i] : NAN);
        else
            for (const KernelPair &p : m_comparison->kernels)
                note(i < p.metricDeltas.size() ? p.metricDeltas[i] : NAN);
        m_metricUnits.push_back(unit);
        DisplayUnit shown = columnUnitFor(unit, largest);
        if (shown.quantity == Quantity::Plain)
            shown.decimals = 4;
        m_units[static_cast<std::size_t>(fixedColumns() + m)] = shown;
    }
}

QVariant ComparisonTableModel::numberCell(double v, int column, int role, int exportPrecision) const
{
    if (std::isnan(v))
        return role == kSortRole ? QVariant(-1e300) : QVariant(QString());
    if (role == kSortRole)
        return QVariant(v);
    if (role == kExportTextRole)
        return QString::number(v, 'f', exportPrecision); // what the CSV export has always written
    const int metric = column - fixedColumns();
    const QString raw = metric >= 0 && static_cast<std::size_t>(metric) < m_metricUnits.size()
                            ? m_metricUnits[static_cast<std::size_t>(metric)]
                            : QString();
    return formatInUnit(v, raw, m_units[static_cast<std::size_t>(column)]);
}

// Shown with its sign, sorted by its size: the largest changes, faster or slower, come together.
QVariant ComparisonTableModel::signedDurationCell(TimeNs ns, int column, int role) const
{
    if (role == kSortRole)
        return QVariant::fromValue<qlonglong>(std::abs(ns));
    const QString sign = ns > 0 ? QStringLiteral("+") : ns < 0 ? QStringLiteral("-") : QString();
    if (role == kExportTextRole)
        return sign + formatDuration(std::abs(ns));
    return sign + formatDurationNs(std::abs(ns), m_units[static_cast<std::size_t>(column)]);
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
    if (isValueRole(role, kSortRole))
        return m_level == Level::ByName ? byNameCell(m_comparison->byName[row], index.column(), role)
                                        : kernelCell(m_comparison->kernels[row], index.column(), role);
    const int nameColumn = m_level == Level::ByName ? 0 : 1;
    if (role == Qt::ToolTipRole && index.column() == nameColumn)
        return data(index, Qt::DisplayRole); // the whole kernel name, which the column may elide
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

QVariant ComparisonTableModel::byNameCell(const KernelNameDiff &d, int column, int role) const
{
    const bool shown = role == Qt::DisplayRole;
    auto count = [shown](std::size_t n) {
        return shown ? QVariant(formatCount(static_cast<qint64>(n))) : QVariant::fromValue<qulonglong>(n);
    };
    auto duration = [this, role, column](TimeNs ns) {
        return durationCell(ns, role, kSortRole, m_units[static_cast<std::size_t>(column)]);
    };
    switch (column) {
    case 0:
        return role == kExportTextRole ? QVariant() : QVariant(d.name);
    case 1:
        return count(d.baseCount);
    case 2:
        return count(d.comparisonCount);
    case 3:
        return count(d.matchedCount);
    case 4:
        return duration(d.baseTotal);
    case 5:
        return duration(d.comparisonTotal);
    case kByNameDiffColumn:
        return signedDurationCell(d.diff(), column, role);
    case 7:
        return numberCell(d.ratio(), column, role, 3);
    default:
        return numberCell(d.meanMetricDeltas[static_cast<std::size_t>(column - fixedColumns())], column, role,
                          4);
    }
}

QVariant ComparisonTableModel::kernelCell(const KernelPair &p, int column, int role) const
{
    const bool b = p.base.isValid(), k = p.comparison.isValid();
    auto duration = [this, role, column](TimeNs ns) {
        return durationCell(ns, role, kSortRole, m_units[static_cast<std::size_t>(column)]);
    };
    if (role == kExportTextRole && column < 2)
        return {};
    switch (column) {
    case 0:
        return p.stream;
    case 1:
        return p.name;
    case 2:
        return b ? duration(p.baseOffset) : QVariant();
    case 3:
        return b ? duration(p.baseDuration) : QVariant();
    case 4:
        return k ? duration(p.comparisonOffset) : QVariant();
    case 5:
        return k ? duration(p.comparisonDuration) : QVariant();
    case kPerKernelDiffColumn:
        return p.matched() ? signedDurationCell(p.diff(), column, role) : QVariant();
    case 7:
        return p.matched() && p.baseDuration > 0 ? numberCell(static_cast<double>(p.comparisonDuration) /
                                                                  static_cast<double>(p.baseDuration),
                                                              column, role, 3)
                                                 : QVariant();
    case 8:
        return role == kExportTextRole ? QVariant()
               : p.matched()           ? tr("yes")
                                       : (b ? tr("base only") : tr("comparison only"));
    default:
        return numberCell(p.metricDeltas[static_cast<std::size_t>(column - fixedColumns())], column, role, 4);
    }
}

} // namespace at
