#pragma once

#include "NumberFormat.h"
#include "diff/OpDiff.h"

#include <QAbstractTableModel>

#include <memory>

namespace at {

// The ops of one side only of a diff by framework op (the top of each unmatched subtree), base side first:
// side, op, call path, input shapes, host and device time. Qt::UserRole sorts by the raw value.
class OpDiffUnmatchedModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        SideColumn,
        OpColumn,
        PathColumn,
        ShapesColumn,
        HostColumn,
        DeviceColumn,
        ColumnCount
    };

    explicit OpDiffUnmatchedModel(QObject *parent = nullptr);
    void setResult(std::shared_ptr<const diff::DiffResult> result);
    // The op of a table row: its side (false = base) and its entry of unmatchedBase/unmatchedComparison.
    std::pair<bool, const diff::UnmatchedOp *> opAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const diff::DiffResult> m_result;
    DisplayUnit m_host, m_device;
};

} // namespace at
