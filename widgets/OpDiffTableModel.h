#pragma once

#include "NumberFormat.h"
#include "diff/OpDiff.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>

namespace at {

// The diff table of a diff by framework op: one row per matched op (or per op name / nn.Module with
// totals), then the rows no matched op owns (ops of one side only, device work no op launched, idle,
// concurrency), so that each side's device column sums to its step time. Qt::UserRole gives the raw value
// (ns, counts, the ratio) to sort by; kExportTextRole the exact µs text of the CSV; the display is in one
// NumberFormat unit per column.
class OpDiffTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Grouping
    {
        PerOp,
        ByName,
        ByModule
    };
    // The numbers first (they are what the table is read for), the long texts after them.
    enum Column
    {
        OpColumn,
        BaseDeviceColumn,
        ComparisonDeviceColumn,
        DeltaColumn,
        RatioColumn,
        BaseCountColumn,
        ComparisonCountColumn,
        BaseHostColumn,
        ComparisonHostColumn,
        ShapesColumn,
        PathColumn,
        ModuleColumn,
        BaseKernelsColumn,
        ComparisonKernelsColumn,
        ColumnCount
    };
    // What a table row stands for.
    struct Entry
    {
        bool group = false; // a RowGroup (Grouping ByName / ByModule)
        int index = -1;     // into DiffResult::rows, or into groups()
    };

    explicit OpDiffTableModel(QObject *parent = nullptr);

    // The models give the kernels' names; the result and the models must outlive the table.
    void setResult(std::shared_ptr<const diff::DiffResult> result, const TraceModel *baseModel,
                   const TraceModel *comparisonModel);
    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }
    const diff::DiffResult *result() const { return m_result.get(); }
    const std::vector<diff::RowGroup> &groups() const { return m_groups; }
    const Entry &entry(int row) const { return m_entries[static_cast<std::size_t>(row)]; }
    // The table row of a DiffResult row (-1 when grouped away).
    int rowOfDiffRow(int diffRow) const;
    // The rows a group stands for (indices into DiffResult::rows), in call order.
    std::vector<int> rowsOfGroup(int group) const;
    // Rows below the matched ones: they keep their place under any sort and any filter.
    bool isTotalRow(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The display name of a special row ("Not launched by an op: communication", ...).
    static QString specialRowName(const diff::DiffRow &row);

private:
    void rebuild();
    void pickUnits();
    QString groupKeyOf(const diff::DiffRow &row) const;
    QString kernelsText(const diff::RowSide &side, bool comparison) const;
    QVariant rowCell(const diff::DiffRow &row, int diffRow, int column, int role) const;
    QVariant groupCell(const diff::RowGroup &group, int column, int role) const;

    std::shared_ptr<const diff::DiffResult> m_result;
    const TraceModel *m_models[2] = {nullptr, nullptr};
    Grouping m_grouping = Grouping::PerOp;
    std::vector<diff::RowGroup> m_groups;
    std::vector<Entry> m_entries;
    std::vector<QString> m_kernelTexts[2]; // per DiffResult row
    DisplayUnit m_units[ColumnCount];
};

// Sorts and filters the op diff table with its total rows kept last in their own order (the table sums
// to the step time whatever the sort), and filters on every text column (case-insensitive).
class OpDiffSortProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit OpDiffSortProxy(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
};

} // namespace at
