#pragma once

#include "Session.h"
#include "TraceModel.h"

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableView;
class QTimer;

namespace at {

namespace cluster {
struct ClusterModel;
}
namespace query {
class QueryEngine;
struct QueryOutcome;
} // namespace query

class QueryChart;
class QueryEditor;
class QueryPivot;
class QueryResultModel;
struct QueryRunState;

// What the Query dock's engine reads: the timeline's model and the cluster data of the same folder. Either
// may be null (the cluster page alone has no timeline model; a single file has no cluster data).
struct QuerySources
{
    std::shared_ptr<const TraceModel> model;
    std::shared_ptr<const cluster::ClusterModel> cluster;
};

// A query saved by name: kept with the session (Session::queries).
using SavedQuery = NamedQuery;

// The Query dock (issue #31, docs/QUERY.md "In the window"): SQL over everything loaded. An editor
// (highlighting, completion, history, saved queries), Run (Ctrl+Enter) on a worker thread with progress and
// Cancel, the result streamed into a table (sortable, copy, CSV) of at most QueryResultModel::kMaxRows rows,
// a chart and a pivot builder. A result with a slice id column (slice_id, else id) or ts and dur (and
// track) is linked to the timeline: a clicked row selects its slice, "Show on Timeline" marks every row.
// The engine is made by the dock from what the window gives it (setSourceProvider), again when that changes.
class QueryPanel : public QWidget
{
    Q_OBJECT
public:
    // "Show on Timeline" finds at most this many slices by ts and dur (one search of the model each); id
    // columns have no limit but the table's.
    static constexpr int kMaxLookups = 10000;
    // How often the rows a running query produced are moved into the table.
    static constexpr int kBatchIntervalMs = 100;

    using SourceProvider = std::function<QuerySources()>;

    explicit QueryPanel(QWidget *parent = nullptr);
    ~QueryPanel() override;

    void setSourceProvider(SourceProvider provider);
    // A new timeline model (the registry's call): a running query stops, the result is no longer linked.
    void setModel(const TraceModel *model);

    QueryEditor *editor() const { return m_editor; }
    QueryResultModel *result() const { return m_result; }
    QTableView *table() const { return m_table; }
    QueryChart *chart() const { return m_chart; }
    QueryPivot *pivot() const { return m_pivot; }
    QTabWidget *tabs() const { return m_tabs; }
    QString statusText() const;
    bool isRunning() const;
    // Rows the last run produced (kept or not).
    qint64 resultRows() const { return m_totalRows; }

    // The slice a result row stands for (shown order), invalid when the result is not linked.
    SliceRef sliceOfRow(int row);

    std::vector<SavedQuery> savedQueries() const { return m_saved; }
    void setSavedQueries(std::vector<SavedQuery> queries);
    // Adds these to the saved queries: one of the same name is replaced, the others are appended.
    void addSavedQueries(const std::vector<SavedQuery> &queries);
    // Saves the editor's text under name (replacing a saved query of that name).
    void saveQuery(const QString &name);

    // The timeline context menu's action text.
    static QString querySlicesNamedText();

public Q_SLOTS:
    void run();
    void cancel();
    // Writes and runs the query of every slice with this name, shown as a histogram of its durations.
    void querySlicesNamed(const QString &name);
    void showOnTimeline();
    void exportCsv();
    void copySelection() const;

Q_SIGNALS:
    void sliceActivated(at::SliceRef ref);
    void slicesMarked(const std::vector<at::SliceRef> &slices);
    // A run ended (ok: no error, not cancelled).
    void finished(bool ok);
    void savedQueriesChanged();
    // The dock asks to be shown (the context menu's query).
    void showRequested();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    // Ctrl+C on the table: the selected rows (the item view would copy only its current cell).
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Engine;

    bool ensureEngine(QString *why);
    void updateCompletion();
    void updatePivotSources();
    void drainRows();
    void runFinished();
    void stopAndWait();
    void setStatus(const QString &text, bool error = false);
    void updateButtons();
    void rowActivated(const QModelIndex &index);
    // The slice of a result row (shown order) as sliceOfRow() finds it, its columns looked up once.
    std::function<SliceRef(int row)> rowLinker() const;
    void retranslate();

    SourceProvider m_provider;
    const TraceModel *m_timelineModel = nullptr;
    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<QueryRunState> m_run;
    QFutureWatcher<query::QueryOutcome> *m_watcher;
    QTimer *m_batchTimer;
    int m_shownResult = 0;
    qint64 m_totalRows = 0;
    qint64 m_startedMs = 0;
    QString m_lastSql;
    QString m_chartColumnAfterRun; // the context menu's query: chart this column when it ends
    std::vector<SavedQuery> m_saved;

    QueryEditor *m_editor;
    QPushButton *m_runButton, *m_cancelButton, *m_markButton, *m_exportButton, *m_saveButton, *m_deleteButton;
    QComboBox *m_savedBox;
    QProgressBar *m_progress;
    QLabel *m_status;
    QSplitter *m_splitter;
    QTabWidget *m_tabs;
    QueryResultModel *m_result;
    QTableView *m_table;
    QueryChart *m_chart;
    QueryPivot *m_pivot;
    bool m_splitPlaced = false; // the editor/result split was given its first sizes
};

} // namespace at
