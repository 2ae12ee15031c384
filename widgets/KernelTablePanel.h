#pragma once

#include "KernelBound.h"
#include "KernelQueries.h"
#include "NumberFormat.h"
#include "TimeAxis.h"
#include "TraceModel.h"
#include "TraceQueries.h"

#include <QAbstractTableModel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QWidget>

#include <memory>
#include <optional>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace at {
class ElidedLabel;
class TimelineState;
} // namespace at

namespace at {

// The joined per-kernel table (kernel_details / op_summary) as an item model: fixed columns, then
// one column per AI Core metric with its unit.
class KernelTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Source,
        Name,
        Type,
        Core,
        Stream,
        Start,
        Duration,
        Wait,
        BlockDim,
        InputShapes,
        InputTypes,
        Bound,
        Joined,
        FixedColumns
    };
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kRowRole = Qt::UserRole + 2;

    explicit KernelTableModel(QObject *parent = nullptr);
    void setModel(const TraceModel *model);
    const TraceModel *traceModel() const { return m_model; }
    KernelBound bound(std::size_t row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The unit a column reads in (issue 28: one unit per column, picked from all its rows); Plain for text.
    DisplayUnit columnUnit(int column) const;
    // A metric column's header without its raw unit ("aicore_time(us)" → "aicore_time"): the cells carry
    // the unit they are shown in.
    static QString metricTitle(const KernelMetricColumn &column);

private:
    const TraceModel *m_model = nullptr;
    std::unique_ptr<KernelBoundClassifier> m_classifier;
    std::vector<DisplayUnit> m_units; // per column
};

// What the Kernels panel shows: every criterion is optional.
struct KernelFilter
{
    QString name; // substring (case-insensitive), or a regular expression with nameIsRegex
    bool nameIsRegex = false;
    QString core; // Accelerator Core / Task Type value, empty = any
    std::optional<KernelBound> bound;
    TimeNs minDuration = 0;
    TimeNs maxDuration = 0;             // 0 = no limit
    std::optional<TimeRange> timeRange; // kernels overlapping the timeline's selected range
    GroupOffsets offsets = {};          // the timeline's rank offsets: timeRange is on its reference clock
};

// Applies a KernelFilter to the KernelTableModel's rows.
class KernelFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setFilter(const KernelFilter &filter);
    const KernelFilter &filter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    KernelFilter m_filter;
    QRegularExpression m_regex;
};

// Kernels grouped by name (or name + input shape): count, total, average, min, max.
class KernelGroupModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Shapes,
        Count,
        Total,
        Average,
        Minimum,
        Maximum,
        ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kLongestRowRole = Qt::UserRole + 2;

    explicit KernelGroupModel(QObject *parent = nullptr);
    void setGroups(const TraceModel *model, std::vector<KernelAggregate> groups);
    const std::vector<KernelAggregate> &groups() const { return m_groups; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const TraceModel *m_model = nullptr;
    std::vector<KernelAggregate> m_groups;
    std::vector<DisplayUnit> m_units; // per column
};

// Dockable Kernels panel: the metric table with a name filter; activating a row selects and
// centres the kernel on the timeline, and a timeline selection selects its row.
class KernelTablePanel : public QWidget
{
    Q_OBJECT
public:
    explicit KernelTablePanel(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    QTableView *table() const { return m_table; }
    KernelTableModel *kernelModel() const { return m_kernels; }
    KernelFilterProxy *proxy() const { return m_proxy; }
    QString summaryText() const;
    // The visible (filtered, sorted) rows as CSV, the same columns as the table.
    QByteArray visibleRowsAsCsv() const;
    bool exportCsv(const QString &path, QString *error) const;
    // Widgets that edit the filter (tests drive them like a user).
    QLineEdit *nameFilter() const { return m_filter; }
    QCheckBox *regexFilter() const { return m_regex; }
    QComboBox *coreFilter() const { return m_core; }
    QComboBox *boundFilter() const { return m_bound; }
    QDoubleSpinBox *minDurationFilter() const { return m_minDuration; }
    QDoubleSpinBox *maxDurationFilter() const { return m_maxDuration; }
    QCheckBox *rangeFilter() const { return m_inRange; }
    // "No grouping" / "Group by name" / "Group by name + input shape".
    QComboBox *grouping() const { return m_grouping; }
    KernelGroupModel *groupModel() const { return m_groups; }
    // Kernel rows that pass the filter, in table order (for charts and exports).
    KernelRows filteredRows() const;

    // Follows the timeline: its selected slice, its range selection ("in time selection") and rank offsets.
    void followTimeline(const TimelineState *state);

public Q_SLOTS:
    void selectSlice(at::SliceRef ref);
    // The timeline's selected range, used when "in time selection" is checked.
    void setTimeSelection(at::TimeRange range);
    // The timeline's range selection was removed: "in time selection" matches nothing again.
    void clearTimeSelection();
    // The timeline's rank offsets (TimelineView::groupOffsets): a rank's kernels are in the time selection
    // where they are drawn, at their time + the rank's offset.
    void setGroupOffsets(at::GroupOffsets offsets);

Q_SIGNALS:
    void kernelActivated(at::SliceRef ref);
    // The filter changed: the rows that pass it.
    void filterChanged(const at::KernelRows &rows);

protected:
    // QEvent::LanguageChange: the filter row, the summary and the headers again in the new language.
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void retranslateUi();  // every fixed text of the panel; the constructor sets them through it too
    void arrangeFilters(); // the filters in one row, or in two when the panel is too narrow for one
    void activateRow(const QModelIndex &proxyIndex);
    void applyFilter();
    void applyGrouping();
    void fitColumns(); // to their contents, the text columns capped

    const TraceModel *m_model = nullptr;
    ElidedLabel *m_summary;
    QLineEdit *m_filter;
    QCheckBox *m_regex;
    QComboBox *m_core;
    QComboBox *m_bound;
    QDoubleSpinBox *m_minDuration;
    QDoubleSpinBox *m_maxDuration;
    QCheckBox *m_inRange;
    QTableView *m_table;
    KernelTableModel *m_kernels;
    KernelFilterProxy *m_proxy;
    QComboBox *m_grouping;
    KernelGroupModel *m_groups;
    QSortFilterProxyModel *m_groupProxy;
    QPushButton *m_export;
    QBoxLayout *m_filtersTop = nullptr;
    QBoxLayout *m_filtersBottom = nullptr;
    std::optional<TimeRange> m_timeSelection;
    GroupOffsets m_offsets;
};

} // namespace at
