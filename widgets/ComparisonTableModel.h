#pragma once

#include "NumberFormat.h"
#include "StepComparison.h"

#include <QAbstractTableModel>

namespace at {

// The diff table of a step comparison: one row per kernel name (aggregated) or per kernel pair.
// Qt::UserRole gives raw numbers for sorting; rowOf() maps a row back to the comparison.
class ComparisonTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Level
    {
        ByName,
        PerKernel
    };
    // The Diff column of the per-kernel level; Diff columns sort by the size of the change (|diff|).
    static constexpr int kPerKernelDiffColumn = 6;

    explicit ComparisonTableModel(Level level, QObject *parent = nullptr);

    void setComparison(const StepComparison *comparison);
    Level level() const { return m_level; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant byNameCell(const KernelNameDiff &d, int column, int role) const;
    QVariant kernelCell(const KernelPair &p, int column, int role) const;
    // A number cell (a ratio, a metric's change): display in the column's unit, sort and export raw.
    QVariant numberCell(double v, int column, int role, int exportPrecision) const;
    QVariant signedDurationCell(TimeNs ns, int column, int role) const;
    int fixedColumns() const;
    void pickUnits(); // one unit per column, from all its rows (NumberFormat.h)

    Level m_level;
    const StepComparison *m_comparison = nullptr;
    std::vector<DisplayUnit> m_units;   // per column
    std::vector<QString> m_metricUnits; // the raw unit of each metric ("us" of "aicore_time(us)")
};

} // namespace at
