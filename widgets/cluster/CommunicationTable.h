#pragma once

#include "NumberFormat.h"
// The cluster page's Communication tab (docs/CLUSTER.md): one row per (op, rank) of the ranks'
// communication summaries (core/cluster/CommunicationOps.h), sortable by value, filtered by step, group
// and op, with the selected row's op across its ranks and its packet-size distribution. Activating a row
// (double-click, Enter) asks to open that rank's timeline at the op.

#include "cluster/CommunicationOps.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QSplitter;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;

namespace at {

class CommunicationTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // Numbers sort as numbers: each cell's value (ns, ratio, GB/s, MB; -1 for an absent transport).
    static constexpr int SortRole = Qt::UserRole;

    explicit CommunicationTableModel(QObject *parent = nullptr);
    void setRows(std::vector<cluster::CommOpRow> rows);
    const std::vector<cluster::CommOpRow> &rows() const { return m_rows; }
    // The texts follow a language switch (headers and cells are made when asked for).
    void retranslate();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    enum Column
    {
        Step,
        Op,
        Group,
        Rank,
        Elapse,
        Transit,
        Wait,
        Synchronization,
        Idle,
        WaitRatio,
        SynchronizationRatio,
        FixedColumns
    };

private:
    QVariant display(const cluster::CommOpRow &row, int column) const;
    // What the CSV export has always written for a number (ms with three decimals, MB with six, ...).
    QVariant exportText(const cluster::CommOpRow &row, int column) const;
    QVariant sortKey(const cluster::CommOpRow &row, int column) const;
    // The transport of a bandwidth or size column (index into kCommTransports), and which of the two.
    std::size_t transportOf(int column) const;
    bool isSizeColumn(int column) const;

    std::vector<cluster::CommOpRow> m_rows;
    // Only transports some row moved data over get columns: first a bandwidth column each, then a size one.
    std::vector<std::size_t> m_transports;
    std::vector<DisplayUnit> m_units; // per column: durations and sizes read in one unit (NumberFormat.h)
};

class CommunicationTable : public QWidget
{
    Q_OBJECT
public:
    explicit CommunicationTable(QWidget *parent = nullptr);

    // Keeps the filters that still exist in the new model; nullptr clears.
    void setModel(std::shared_ptr<const cluster::ClusterModel> model);

    QTableView *table() const { return m_table; }
    CommunicationTableModel *tableModel() const { return m_rows; }
    QComboBox *stepChooser() const { return m_step; }
    QComboBox *groupChooser() const { return m_group; }
    QComboBox *opChooser() const { return m_op; }
    QCheckBox *totalsCheck() const { return m_totals; }
    QTableWidget *sizesTable() const { return m_sizes; }
    QLabel *summaryLabel() const { return m_summary; }
    // The row shown at a (possibly sorted) table row, or nullptr.
    const cluster::CommOpRow *rowAt(int viewRow) const;

Q_SIGNALS:
    // A row was activated: its rank's timeline at the op (op empty for a "Total Op Info" row).
    void opOpenRequested(int rank, const QString &op);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrangeFilters();
    // The detail beside the table: wide enough for the summary's lines, the summary as high as its wrapped
    // text (not cut, no scroll bar when the tab has the room), the packet sizes below it.
    void fitDetail();
    void retranslateUi();
    void fillChoosers();
    void fillOpChooser();
    void refill();
    void showDetail();

    std::shared_ptr<const cluster::ClusterModel> m_model;
    QLabel *m_stepLabel;
    QComboBox *m_step;
    QLabel *m_groupLabel;
    QComboBox *m_group;
    QLabel *m_opLabel;
    QComboBox *m_op;
    QCheckBox *m_totals;
    QBoxLayout *m_filtersTop;
    QBoxLayout *m_filtersBottom;
    CommunicationTableModel *m_rows;
    QSortFilterProxyModel *m_sorted;
    QTableView *m_table;
    QLabel *m_summary;
    QScrollArea *m_summaryArea;
    QSplitter *m_split;
    QSplitter *m_detail;
    QTableWidget *m_sizes;
};

} // namespace at
