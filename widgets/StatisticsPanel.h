#pragma once

#include "TimeAxis.h"
#include "TraceQueries.h"

#include <QAbstractTableModel>
#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

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

private:
    const TraceModel *m_model = nullptr;
    std::vector<NameStatistics> m_rows;
};

// Shows statistics for the dragged time range: sortable, copyable (Ctrl+C copies as TSV).
class StatisticsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StatisticsPanel(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    void showRange(at::TimeRange range);
    // No range selected any more: the hint instead of stale rows.
    void clearRange();
    QTableView *table() const { return m_table; }
    StatisticsModel *statistics() const { return m_statistics; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    // Selected rows (all rows if none selected) as tab-separated text with a header line.
    QString selectionAsText() const;

public Q_SLOTS:
    void copySelection() const;

private:
    const TraceModel *m_model = nullptr;
    QLabel *m_title;
    QTableView *m_table;
    StatisticsModel *m_statistics;
    QSortFilterProxyModel *m_proxy;
};

} // namespace at
