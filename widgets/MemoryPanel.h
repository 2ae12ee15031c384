#pragma once

#include "MemoryAnalysis.h"
#include "NumberFormat.h"
#include "TimeAxis.h"
#include "TimelineSpan.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <array>
#include <functional>
#include <optional>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;
class QTreeWidget;

namespace at {

// Points for a chart series of n samples (time(i) in ms, value(i) in MB, in time order): every sample up
// to kMemoryChartPoints, beyond that the min and max of each bucket, so millions of samples stay cheap
// and every peak and trough is still drawn.
inline constexpr std::size_t kMemoryChartPoints = 4000;
QList<QPointF> memoryChartPoints(std::size_t n, const std::function<double(std::size_t)> &time,
                                 const std::function<std::optional<double>(std::size_t)> &value);

// The operator allocations of one device (operator_memory.csv / OP_MEMORY), sortable by value. Each size and
// time column reads in one unit picked from its largest value (NumberFormat), written in every cell.
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
    // The language changed: headers and texts ("not released") are asked again.
    void retranslate();
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // The unit each column's cells are written in, for the rows of the moment.
    void pickUnits();

    const TraceModel *m_model = nullptr;
    std::vector<std::size_t> m_rows;
    std::array<DisplayUnit, ColumnCount> m_units{};
};

// The Memory dock: per device the memory curves in a chart that follows the timeline's visible range,
// each curve's peak marked, the allocations live at the overall peak largest first, and the operator
// allocation table (sortable, filterable, never-released rows flagged). Activating a row asks for the
// operator's host slice and for its lifetime to be marked on the timeline.
//
// The chart keeps its readable size at the left; the two lists share the rest, side by side when the panel
// is wide (kSideBySideWidth) and as two tabs when it is not (a 900 px window), so that no column is cut.
// The device row shows only when there is a device to choose or no memory data to explain.
class MemoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryPanel(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    // Small: the chart and tables would otherwise make the bottom dock area taller than its share (the
    // chart scrolls when the dock is lower than its readable size).
    QSize sizeHint() const override { return {600, 200}; }
    QSize minimumSizeHint() const override { return {160, 80}; }
    // Follows the timeline: the chart's time axis shows this range.
    void setVisibleRange(at::TimeRange range);

    QChartView *chartView() const { return m_chart; }
    QTreeWidget *liveList() const { return m_live; }
    QTableView *allocationTable() const { return m_table; }
    QLineEdit *filter() const { return m_filter; }
    QComboBox *deviceBox() const { return m_device; }
    // The two lists as tabs (a narrow panel) rather than side by side.
    bool listsInTabs() const;
    QTabWidget *listTabs() const { return m_listTabs; }
    static constexpr int kSideBySideWidth = 1300;

    // The lifetime of an allocation as the timeline marks it: [allocation, release or the end of the
    // profile] over the device's Memory lanes and the host slice's lane, labelled "name · size · lifetime".
    std::optional<TimelineSpan> lifetimeSpan(std::size_t allocation) const;

Q_SIGNALS:
    void sliceRequested(at::SliceRef ref);
    void spanRequested(const at::TimelineSpan &span);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // Every text of the panel in the current language (the constructor and QEvent::LanguageChange).
    void retranslateUi();
    void fillDevices();
    void activateAllocation(std::size_t allocation);
    // Shows `chart` and deletes the one shown before (QChartView::setChart only releases it).
    void replaceChart(QChart *chart);
    void showDevice(int index);
    void activateRow(const QModelIndex &index);
    // Puts the two lists side by side or in tabs for the panel's width.
    void arrangeLists();
    void retranslateTabs();

    const TraceModel *m_model = nullptr;
    std::vector<DeviceMemory> m_devices;
    TimeRange m_range{0, 0};
    QLabel *m_deviceLabel;
    QComboBox *m_device;
    QLabel *m_status;
    QChartView *m_chart;
    QLabel *m_liveTitle;
    QTreeWidget *m_live;
    QWidget *m_liveBox;  // m_liveTitle over m_live
    QWidget *m_tableBox; // m_filter over m_table
    QSplitter *m_listSplit;
    QTabWidget *m_listTabs;
    QLineEdit *m_filter;
    MemoryAllocationModel *m_allocations;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
};

} // namespace at
