#pragma once

#include "diff/OpDiff.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace at {

class OpDiffCurve;
class OpDiffSortProxy;
class OpDiffTableModel;
class OpDiffUnmatchedModel;

// A diff by framework op as the user reads it: the headline (step time, computing, communication, free on
// both sides, the ten ops that explain most of the difference), the diff table (filter, grouping, sortable,
// the total rows last; CSV from its context menu), the ops of one side only, and the accumulated-delta
// curve. A row, a headline op or a point of the curve activates a row of the result (diffRowActivated),
// which the window shows on both timelines. Views never own data: the result is shared with the window.
class OpDiffView : public QWidget
{
    Q_OBJECT
public:
    explicit OpDiffView(QWidget *parent = nullptr);

    void setResult(std::shared_ptr<const diff::DiffResult> result, const TraceModel *baseModel,
                   const TraceModel *comparisonModel);
    const diff::DiffResult *result() const { return m_result.get(); }

    // Selects the table row of a DiffResult row (switching to the per-op grouping when it is grouped
    // away, clearing a filter that hides it) and activates it.
    void selectDiffRow(int diffRow);
    // The DiffResult row of the table's current row, or -1.
    int currentDiffRow() const;

    QLabel *headline() const { return m_headline; }
    QLineEdit *filterBox() const { return m_filter; }
    QComboBox *groupChooser() const { return m_grouping; }
    QTabWidget *tabs() const { return m_tabs; }
    QTableView *table() const { return m_table; }
    QTableView *unmatchedTable() const { return m_unmatchedTable; }
    OpDiffTableModel *tableModel() const { return m_model; }
    OpDiffSortProxy *proxy() const { return m_proxy; }
    OpDiffCurve *curve() const { return m_curve; }
    // The table as shown (sort, filter, grouping) as CSV, durations in exact µs.
    QByteArray tableCsv() const;

Q_SIGNALS:
    void diffRowActivated(int diffRow);
    // An op of one side only (comparison false = base), by index into that side's OpTree::ops.
    void unmatchedOpActivated(bool comparison, int op);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateHeadline();
    void onCurrentRowChanged(const QModelIndex &current);

    std::shared_ptr<const diff::DiffResult> m_result;
    QLabel *m_headline;
    QLabel *m_filterLabel;
    QLineEdit *m_filter;
    QLabel *m_groupLabel;
    QComboBox *m_grouping;
    QTabWidget *m_tabs;
    QTableView *m_table;
    QTableView *m_unmatchedTable;
    OpDiffTableModel *m_model;
    OpDiffSortProxy *m_proxy;
    OpDiffUnmatchedModel *m_unmatched;
    QSortFilterProxyModel *m_unmatchedProxy;
    OpDiffCurve *m_curve;
};

} // namespace at
