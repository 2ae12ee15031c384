#pragma once

#include "MemoryAnalysis.h"
#include "TimeAxis.h"

#include <QAbstractTableModel>
#include <QWidget>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTreeWidget;

namespace at {

// The operator allocations of one device (operator_memory.csv / OP_MEMORY), sortable by value.
class MemoryAllocationModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Size,
        Allocated,
        Released,
        Duration,
        ActiveDuration,
        AllocatedAtAllocation,
        ReservedAtAllocation,
        AllocatedAtRelease,
        ReservedAtRelease,
        Stream,
        ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole;
    static constexpr int kIndexRole = Qt::UserRole + 1; // the row's index into MemoryProfile::allocations

    explicit MemoryAllocationModel(QObject *parent = nullptr) : QAbstractTableModel(parent) {}
    void setRows(const TraceModel *model, std::vector<std::size_t> rows);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const TraceModel *m_model = nullptr;
    std::vector<std::size_t> m_rows;
};

// The Memory dock: per device the memory curves in a chart that follows the timeline's visible range,
// each curve's peak marked, the allocations live at the overall peak largest first, and the operator
// allocation table (sortable, filterable, never-released rows flagged). Activating a row asks for the
// operator's host slice.
class MemoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryPanel(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    // Small: the chart and tables would otherwise make the bottom dock area taller than its share.
    QSize sizeHint() const override { return {600, 200}; }
    QSize minimumSizeHint() const override { return {160, 80}; }
    // Follows the timeline: the chart's time axis shows this range.
    void setVisibleRange(at::TimeRange range);

    QChartView *chartView() const { return m_chart; }
    QTreeWidget *liveList() const { return m_live; }
    QTableView *allocationTable() const { return m_table; }
    QLineEdit *filter() const { return m_filter; }
    QComboBox *deviceBox() const { return m_device; }

Q_SIGNALS:
    void sliceRequested(at::SliceRef ref);

private:
    // Shows `chart` and deletes the one shown before (QChartView::setChart only releases it).
    void replaceChart(QChart *chart);
    void showDevice(int index);
    void activateRow(const QModelIndex &index);

    const TraceModel *m_model = nullptr;
    std::vector<DeviceMemory> m_devices;
    TimeRange m_range{0, 0};
    QComboBox *m_device;
    QLabel *m_status;
    QChartView *m_chart;
    QLabel *m_liveTitle;
    QTreeWidget *m_live;
    QLineEdit *m_filter;
    MemoryAllocationModel *m_allocations;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
};

} // namespace at
