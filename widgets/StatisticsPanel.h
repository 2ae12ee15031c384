#pragma once

#include "NumberFormat.h"
#include "TimeAxis.h"
#include "TraceQueries.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <optional>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace at {
class TimelineState;
}

namespace at {

// Range statistics as a table model: one row per slice name.
class StatisticsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Count,
        Total,       // the slices' time inside the range (clipped to it)
        WholeSlices, // their whole durations, also outside the range
        Average,
        Minimum,
        Maximum,
        Self,
        ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit StatisticsModel(QObject *parent = nullptr);
    void setStatistics(const TraceModel *model, std::vector<NameStatistics> rows);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void retranslate() { Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1); }

private:
    const TraceModel *m_model = nullptr;
    std::vector<NameStatistics> m_rows;
    std::vector<DisplayUnit> m_units; // per column, from all its rows
};

// The slices of the range (on its chosen lanes) as a table model: one row per occurrence.
class RangeSliceListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Lane,
        Start,
        Duration,
        ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit RangeSliceListModel(QObject *parent = nullptr);
    // offsets: the timeline's rank offsets; Start is where the slice is drawn (its rank's offset added).
    void setSlices(const TraceModel *model, std::vector<SliceRef> slices, GroupOffsets offsets = {});
    SliceRef slice(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void retranslate() { Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1); }

private:
    const TraceModel *m_model = nullptr;
    std::vector<SliceRef> m_slices;
    GroupOffsets m_offsets;
    DisplayUnit m_startUnit, m_durationUnit;
};

// Shows statistics for the dragged time range: sortable, copyable (Ctrl+C copies as TSV).
class StatisticsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StatisticsPanel(QWidget *parent = nullptr);
    // Shows the timeline's range selection (on its lanes, counted with its rank offsets) as it changes.
    void followTimeline(const TimelineState *state);

    void setModel(const TraceModel *model);
    void showRange(at::TimeRange range) { showRangeOnLanes(range, {}); }
    // threads: the lanes the range is restricted to (empty = all); the aggregate and the slice list
    // cover only their slices. offsets: the timeline's rank offsets (TimelineView::groupOffsets): the range
    // is on its reference clock, and each rank's slices are counted where they are drawn.
    void showRangeOnLanes(at::TimeRange range, const std::vector<int> &threads,
                          at::GroupOffsets offsets = {});
    // The timeline's rank offsets changed: the shown range (if any) is counted again with them.
    void setGroupOffsets(at::GroupOffsets offsets);
    const GroupOffsets &groupOffsets() const { return m_offsets; }
    // No range selected any more: the hint instead of stale rows.
    void clearRange();
    QTableView *table() const { return m_table; }
    StatisticsModel *statistics() const { return m_statistics; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    // The occurrences inside the range (sortable; clicking a row emits sliceActivated).
    QTableView *sliceTable() const { return m_sliceTable; }
    RangeSliceListModel *sliceList() const { return m_sliceList; }
    QSortFilterProxyModel *sliceProxy() const { return m_sliceProxy; }
    // The slice list shows at most this many (the earliest); the title says when it is cut.
    static constexpr std::size_t kSliceListLimit = 10000;
    // Selected rows (all rows if none selected) as tab-separated text with a header line.
    QString selectionAsText() const;

public Q_SLOTS:
    void copySelection() const;

Q_SIGNALS:
    void sliceActivated(at::SliceRef ref);

protected:
    // QEvent::LanguageChange: titles and headers again in the new language.
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    const TraceModel *m_model = nullptr;
    std::optional<TimeRange> m_range; // what is shown (with m_threads), for retranslate()
    std::vector<int> m_threads;
    GroupOffsets m_offsets;
    QLabel *m_title;
    QTableView *m_table;
    StatisticsModel *m_statistics;
    QSortFilterProxyModel *m_proxy;
    QLabel *m_sliceTitle;
    QTableView *m_sliceTable;
    RangeSliceListModel *m_sliceList;
    QSortFilterProxyModel *m_sliceProxy;
};

} // namespace at
