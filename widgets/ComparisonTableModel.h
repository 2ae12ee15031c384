#pragma once

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
    QVariant byNameCell(const KernelNameDiff &d, int column, bool sorting) const;
    QVariant kernelCell(const KernelPair &p, int column, bool sorting) const;
    int fixedColumns() const;

    Level m_level;
    const StepComparison *m_comparison = nullptr;
};

} // namespace at
