#pragma once

#include "NumberFormat.h"
#include "TraceModel.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QTableView;

namespace at {

class ElidedLabel;

// One SummaryTable as an item model; numeric cells sort as numbers.
class SummaryTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int kSortRole = Qt::UserRole + 1;
    explicit SummaryTableModel(QObject *parent = nullptr);
    void setTable(const SummaryTable *table);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // The unit the column's header names ("Avg(us)" → "us"), empty when it names none.
    QString columnUnit(int column) const;
    // The unit the column reads in, picked from all its cells the first time it is shown (NumberFormat.h).
    const DisplayUnit &displayUnit(int column) const;
    QString displayText(const QString &text, double value, int column) const;

    const SummaryTable *m_table = nullptr;
    mutable std::vector<std::optional<DisplayUnit>> m_units; // per column, once picked
};

// The Tables dock: pick any summary CSV of the profile (op_statistic, api_statistic,
// step_trace_time, task_time, aicpu, l2_cache, ...) and read it as a sortable table.
class SummaryTablesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SummaryTablesPanel(QWidget *parent = nullptr);
    void setModel(const TraceModel *model);
    QComboBox *chooser() const { return m_chooser; }
    QTableView *table() const { return m_view; }
    SummaryTableModel *tableModel() const { return m_table; }
    // The shown table's file(s): one line, elided in the middle, the whole path in its tooltip.
    QLabel *fileLabel() const;

protected:
    // QEvent::LanguageChange: the chooser's row counts and the hint in the new language.
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showTable(int index);

    const TraceModel *m_model = nullptr;
    QComboBox *m_chooser;
    ElidedLabel *m_file;
    QTableView *m_view;
    SummaryTableModel *m_table;
};

} // namespace at
