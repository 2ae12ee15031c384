#pragma once

#include "TraceModel.h"

#include <QAbstractTableModel>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

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
        Joined,
        FixedColumns
    };
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kRowRole = Qt::UserRole + 2;

    explicit KernelTableModel(QObject *parent = nullptr);
    void setModel(const TraceModel *model);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const TraceModel *m_model = nullptr;
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
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QString summaryText() const;

public Q_SLOTS:
    void selectSlice(at::SliceRef ref);

Q_SIGNALS:
    void kernelActivated(at::SliceRef ref);

private:
    void activateRow(const QModelIndex &proxyIndex);

    const TraceModel *m_model = nullptr;
    QLabel *m_summary;
    QLineEdit *m_filter;
    QTableView *m_table;
    KernelTableModel *m_kernels;
    QSortFilterProxyModel *m_proxy;
};

} // namespace at
