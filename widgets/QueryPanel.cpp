#include "QueryPanel.h"

#include "Commands.h"
#include "NumberFormat.h"
#include "QueryChart.h"
#include "QueryEditor.h"
#include "QueryEngine.h"
#include "QueryPivot.h"
#include "QueryResultModel.h"
#include "TableExport.h"
#include "TraceQueries.h"
#include "cluster/ClusterModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <climits>
#include <limits>
#include <mutex>

namespace at {

// The engine and what it reads, shared with a running query so that the model outlives it even when the
// window has moved on to another one.
struct QueryPanel::Engine
{
    QuerySources sources;
    std::shared_ptr<const TraceModel> model; // sources.model, or an empty model for the cluster page alone
    std::unique_ptr<query::QueryEngine> engine;
};

// Between the worker that runs a query and the dock: the rows produced and not yet shown, in batches.
struct QueryRunState
{
    std::atomic_bool cancel{false};
    std::atomic<qint64> rows{0}; // of the current statement, kept or not
    std::mutex mutex;
    int result = 0; // which statement's result the pending rows belong to (1, 2, …)
    QStringList columns;
    std::vector<QVariant> pending; // row-major cells not yet in the table
};

namespace {

constexpr std::size_t kFlushRows = 2048; // rows the worker collects before it hands them over

QVariant toVariant(const query::QueryValue &v)
{
    using T = query::QueryValue::Type;
    switch (v.type) {
    case T::Integer:
        return QVariant::fromValue<qlonglong>(v.integer);
    case T::Real:
        return v.real;
    case T::Text:
        return QString::fromUtf8(v.bytes);
    case T::Blob:
        return v.bytes;
    case T::Null:
        break;
    }
    return {};
}

// Runs on the worker: converts the rows it keeps (at most kMaxRows per result) and hands them over.
class StreamingSink : public query::QueryResultSink
{
public:
    explicit StreamingSink(std::shared_ptr<QueryRunState> state) : m_state(std::move(state)) {}
    bool begin(const QStringList &columns) override
    {
        m_local.clear();
        m_kept = 0;
        m_width = static_cast<std::size_t>(columns.size());
        const std::lock_guard lock(m_state->mutex);
        ++m_state->result;
        m_state->columns = columns;
        m_state->pending.clear();
        m_state->rows = 0;
        return !m_state->cancel;
    }
    bool row(const std::vector<query::QueryValue> &values) override
    {
        ++m_state->rows;
        if (m_kept < QueryResultModel::kMaxRows) {
            ++m_kept;
            for (const query::QueryValue &v : values)
                m_local.push_back(toVariant(v));
            if (m_local.size() >= kFlushRows * std::max<std::size_t>(1, m_width))
                flush();
        }
        return !m_state->cancel;
    }
    void end() override { flush(); }
    void flush()
    {
        if (m_local.empty())
            return;
        const std::lock_guard lock(m_state->mutex);
        m_state->pending.insert(m_state->pending.end(), std::make_move_iterator(m_local.begin()),
                                std::make_move_iterator(m_local.end()));
        m_local.clear();
    }

private:
    std::shared_ptr<QueryRunState> m_state;
    std::vector<QVariant> m_local;
    std::size_t m_width = 0;
    qsizetype m_kept = 0;
};

// A single-quoted SQL string literal.
QString sqlString(const QString &text)
{
    return QLatin1Char('\'') + QString(text).replace(QLatin1Char('\''), QLatin1String("''")) +
           QLatin1Char('\'');
}

// Short lines: the editor is a third of a 900 px wide dock.
const char *const kStarterSql = "-- Ctrl+Enter runs; tables: docs/QUERY.md\n"
                                "select name, count(*) as count,\n"
                                "  sum(dur) as total_dur,\n"
                                "  p90(dur) as p90_dur\n"
                                "from slice group by name\n"
                                "order by total_dur desc\n"
                                "limit 50;\n";

} // namespace

QueryPanel::QueryPanel(QWidget *parent)
    : QWidget(parent), m_watcher(new QFutureWatcher<query::QueryOutcome>(this)),
      m_batchTimer(new QTimer(this)), m_editor(new QueryEditor), m_runButton(new QPushButton),
      m_cancelButton(new QPushButton), m_markButton(new QPushButton), m_exportButton(new QPushButton),
      m_saveButton(new QPushButton), m_deleteButton(new QPushButton), m_savedBox(new QComboBox),
      m_progress(new QProgressBar), m_status(new QLabel), m_splitter(new QSplitter(Qt::Horizontal)),
      m_tabs(new QTabWidget), m_result(new QueryResultModel(this)), m_table(new QTableView),
      m_chart(new QueryChart(m_result)), m_pivot(new QueryPivot)
{
    setObjectName(QStringLiteral("queryPanel"));
    m_runButton->setObjectName(QStringLiteral("queryRun"));
    m_cancelButton->setObjectName(QStringLiteral("queryCancel"));
    m_markButton->setObjectName(QStringLiteral("queryShowOnTimeline"));
    m_exportButton->setObjectName(QStringLiteral("queryExportCsv"));
    m_saveButton->setObjectName(QStringLiteral("querySave"));
    m_deleteButton->setObjectName(QStringLiteral("queryDeleteSaved"));
    m_savedBox->setObjectName(QStringLiteral("querySaved"));
    m_status->setObjectName(QStringLiteral("queryStatus"));
    m_table->setObjectName(QStringLiteral("queryTable"));
    m_tabs->setObjectName(QStringLiteral("queryTabs"));

    m_editor->setSql(QString::fromUtf8(kStarterSql));
    m_progress->setRange(0, 0); // busy: the row count goes into the status
    m_progress->setMaximumWidth(80);
    m_progress->setMaximumHeight(14);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(false);
    m_status->setMinimumWidth(1);
    m_savedBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_savedBox->setMinimumContentsLength(12);

    m_table->setModel(m_result);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSortIndicatorShown(true);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(true);
    addCsvExportAction(m_table, QStringLiteral("query.csv"));
    QAction *copy = makeCommandAction("query.copy", m_table, Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &QueryPanel::copySelection);
    m_table->addAction(copy);
    m_table->installEventFilter(this);

    QAction *runAction = makeCommandAction("query.run", this, Qt::WidgetWithChildrenShortcut);
    connect(runAction, &QAction::triggered, this, &QueryPanel::run);
    addAction(runAction);

    m_tabs->addTab(m_table, QString());
    m_tabs->addTab(m_chart, QString());
    m_tabs->addTab(m_pivot, QString());
    m_tabs->setDocumentMode(true);
    m_splitter->addWidget(m_editor);
    m_splitter->addWidget(m_tabs);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setChildrenCollapsible(false);

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(4);
    for (QWidget *w : std::initializer_list<QWidget *>{m_runButton, m_cancelButton, m_progress, m_markButton,
                                                       m_exportButton})
        buttons->addWidget(w);
    buttons->addStretch(1);
    buttons->addWidget(m_savedBox);
    buttons->addWidget(m_saveButton);
    buttons->addWidget(m_deleteButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(buttons);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_status);

    connect(m_editor, &QueryEditor::runRequested, this, &QueryPanel::run);
    connect(m_runButton, &QPushButton::clicked, this, &QueryPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &QueryPanel::cancel);
    connect(m_markButton, &QPushButton::clicked, this, &QueryPanel::showOnTimeline);
    connect(m_exportButton, &QPushButton::clicked, this, &QueryPanel::exportCsv);
    connect(m_saveButton, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString first = m_editor->toPlainText().trimmed().section(QLatin1Char('\n'), 0, 0).left(40);
        const QString name =
            QInputDialog::getText(this, tr("Save Query"), tr("Name:"), QLineEdit::Normal,
                                  m_savedBox->currentIndex() > 0 ? m_savedBox->currentText() : first, &ok);
        if (ok && !name.trimmed().isEmpty())
            saveQuery(name.trimmed());
    });
    connect(m_deleteButton, &QPushButton::clicked, this, [this] {
        const int i = m_savedBox->currentIndex() - 1;
        if (i < 0 || i >= static_cast<int>(m_saved.size()))
            return;
        m_saved.erase(m_saved.begin() + i);
        setSavedQueries(m_saved);
        Q_EMIT savedQueriesChanged();
    });
    connect(m_savedBox, &QComboBox::activated, this, [this](int index) {
        if (index > 0 && index <= static_cast<int>(m_saved.size()))
            m_editor->setSql(m_saved[static_cast<std::size_t>(index - 1)].sql);
        updateButtons();
    });
    connect(m_table, &QTableView::clicked, this, &QueryPanel::rowActivated);
    connect(m_table, &QTableView::activated, this, &QueryPanel::rowActivated);
    connect(m_pivot, &QueryPivot::runRequested, this, [this](const QString &sql) {
        m_editor->setSql(sql);
        m_tabs->setCurrentWidget(m_table);
        run();
    });
    connect(m_batchTimer, &QTimer::timeout, this, &QueryPanel::drainRows);
    connect(m_watcher, &QFutureWatcher<query::QueryOutcome>::finished, this, &QueryPanel::runFinished);
    m_batchTimer->setInterval(kBatchIntervalMs);
    retranslate();
    setSavedQueries({});
    updateButtons();
}

QueryPanel::~QueryPanel()
{
    stopAndWait();
}

void QueryPanel::setSourceProvider(SourceProvider provider)
{
    m_provider = std::move(provider);
}

void QueryPanel::setModel(const TraceModel *model)
{
    if (model == m_timelineModel)
        return;
    m_timelineModel = model;
    stopAndWait();
    // The rows of the old model link to nothing now; the engine is made again on the next run.
    m_result->reset({});
    m_chart->refresh();
    m_engine.reset();
    if (isVisible()) {
        QString why;
        ensureEngine(&why);
    }
    setStatus(QString());
    updateButtons();
}

bool QueryPanel::ensureEngine(QString *why)
{
    QuerySources sources = m_provider ? m_provider() : QuerySources{};
    if (!sources.model && !sources.cluster) {
        m_engine.reset();
        *why = tr("Nothing is open: open a profile or a cluster folder first");
        return false;
    }
    if (m_engine && m_engine->sources.model == sources.model && m_engine->sources.cluster == sources.cluster)
        return m_engine->engine->isReady() || (*why = m_engine->engine->error(), false);
    auto engine = std::make_shared<Engine>();
    engine->sources = std::move(sources);
    // The cluster page alone: the summary tables over every rank, the timeline tables empty.
    engine->model = engine->sources.model ? engine->sources.model : std::make_shared<const TraceModel>();
    engine->engine = std::make_unique<query::QueryEngine>(*engine->model, engine->sources.cluster);
    m_engine = std::move(engine);
    updateCompletion();
    updatePivotSources();
    if (!m_engine->engine->isReady()) {
        *why = m_engine->engine->error();
        return false;
    }
    return true;
}

void QueryPanel::updateCompletion()
{
    QStringList words;
    if (m_engine)
        for (const query::QueryTableInfo &table : m_engine->engine->tables()) {
            words << table.name;
            for (const query::QueryColumnInfo &column : table.columns)
                words << column.name;
        }
    for (const char *f : {"percentile", "p50", "p90", "p99", "fmt_dur", "step_of", "ancestor"})
        words << QString::fromLatin1(f);
    m_editor->setCompletionWords(words);
}

void QueryPanel::updatePivotSources()
{
    std::vector<QueryPivot::Source> sources;
    if (m_engine)
        for (const query::QueryTableInfo &table : m_engine->engine->tables()) {
            if (table.name != QLatin1String("slice") && table.name != QLatin1String("kernel"))
                continue;
            QueryPivot::Source s{table.name, table.name, {}, {}};
            for (const query::QueryColumnInfo &column : table.columns) {
                if (column.name == QLatin1String("args"))
                    continue; // JSON re-read per slice: no group key
                s.columns << column.name;
                if (column.type == QLatin1String("INTEGER") || column.type == QLatin1String("REAL"))
                    s.numericColumns << column.name;
            }
            sources.push_back(std::move(s));
        }
    // The last result as a source: its SQL becomes a subquery.
    if (!m_lastSql.isEmpty() && !m_result->columns().isEmpty() &&
        query::QueryEngine::isCompleteStatement(m_lastSql) && m_lastSql.count(QLatin1Char(';')) <= 1) {
        QueryPivot::Source s{tr("the last result"), m_lastSql, m_result->columns(), {}};
        for (int c = 0; c < m_result->columnCount(); ++c)
            if (m_result->isNumeric(c))
                s.numericColumns << m_result->columns()[c];
        sources.push_back(std::move(s));
    }
    m_pivot->setSources(std::move(sources));
}

bool QueryPanel::isRunning() const
{
    return m_watcher->isRunning();
}

QString QueryPanel::statusText() const
{
    return m_status->text();
}

void QueryPanel::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setToolTip(text);
    QPalette palette = m_status->palette();
    palette.setColor(QPalette::WindowText,
                     error ? QColor(0xD6, 0x27, 0x28) : QApplication::palette().color(QPalette::WindowText));
    m_status->setPalette(palette);
}

void QueryPanel::updateButtons()
{
    const bool running = isRunning();
    m_runButton->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    m_progress->setVisible(running);
    m_markButton->setEnabled(!running && m_result->rowCount() > 0);
    m_exportButton->setEnabled(!running && m_result->rowCount() > 0);
    m_deleteButton->setEnabled(m_savedBox->currentIndex() > 0);
}

void QueryPanel::run()
{
    if (isRunning())
        return;
    const QString sql = m_editor->toPlainText();
    if (sql.trimmed().isEmpty())
        return;
    QString why;
    if (!ensureEngine(&why)) {
        setStatus(why, true);
        return;
    }
    m_editor->addToHistory(sql);
    m_lastSql = sql.trimmed();
    m_result->reset({});
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_shownResult = 0;
    m_totalRows = 0;
    m_run = std::make_shared<QueryRunState>();
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    setStatus(tr("Running…"));
    // The worker holds the engine (and through it the model) and the hand-over state until it returns.
    std::shared_ptr<Engine> engine = m_engine;
    std::shared_ptr<QueryRunState> state = m_run;
    m_watcher->setFuture(QtConcurrent::run([engine, state, sql] {
        StreamingSink sink(state);
        query::QueryControl control;
        control.cancel = &state->cancel;
        query::QueryOutcome outcome = engine->engine->run(sql, sink, control);
        sink.flush();
        return outcome;
    }));
    m_batchTimer->start();
    updateButtons();
}

void QueryPanel::cancel()
{
    if (m_run)
        m_run->cancel = true;
}

void QueryPanel::stopAndWait()
{
    if (!isRunning())
        return;
    cancel();
    m_watcher->waitForFinished(); // SQLite polls the flag every 10,000 steps: prompt
    m_batchTimer->stop();
    m_run.reset(); // its rows and its finished() are dropped
    setStatus(tr("Cancelled"));
    updateButtons();
}

void QueryPanel::drainRows()
{
    if (!m_run)
        return;
    std::vector<QVariant> cells;
    {
        const std::lock_guard lock(m_run->mutex);
        if (m_run->result != m_shownResult) {
            // A new statement's result replaces the shown one (the last statement's result stays).
            m_shownResult = m_run->result;
            m_result->reset(m_run->columns);
            m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
        }
        cells.swap(m_run->pending);
    }
    const bool first = m_result->rowCount() == 0;
    m_result->appendRows(std::move(cells));
    if (first && m_result->rowCount() > 0)
        m_table->resizeColumnsToContents();
    m_totalRows = m_run->rows;
    if (isRunning())
        setStatus(tr("Running… %1 rows, %2 s")
                      .arg(formatCount(m_totalRows))
                      .arg(static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_startedMs) / 1000.0, 0,
                           'f', 1));
}

void QueryPanel::runFinished()
{
    if (!m_run)
        return; // stopped and waited for (a new model, the window closing)
    m_batchTimer->stop();
    const query::QueryOutcome outcome = m_watcher->result();
    drainRows();
    const double seconds = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_startedMs) / 1000.0;
    const qint64 kept = m_result->rowCount();
    if (outcome.cancelled) {
        setStatus(tr("Cancelled after %1 rows (%2 s)").arg(formatCount(m_totalRows)).arg(seconds, 0, 'f', 2));
    } else if (!outcome.ok) {
        setStatus(outcome.line > 0 ? tr("Error at line %1, column %2: %3")
                                         .arg(outcome.line)
                                         .arg(outcome.column)
                                         .arg(outcome.message)
                                   : tr("Error: %1").arg(outcome.message),
                  true);
        if (outcome.line > 0)
            m_editor->moveCursorTo(outcome.line, outcome.column);
        m_editor->setFocus();
    } else if (m_totalRows > kept) {
        setStatus(tr("%1 rows in %2 s; the table keeps the first %3, %4 rows were not kept")
                      .arg(formatCount(m_totalRows))
                      .arg(seconds, 0, 'f', 2)
                      .arg(formatCount(kept))
                      .arg(formatCount(m_totalRows - kept)));
    } else {
        setStatus(tr("%n row(s) in %1 s", nullptr, static_cast<int>(std::min<qint64>(kept, INT_MAX)))
                      .arg(seconds, 0, 'f', 2));
    }
    m_chart->refresh();
    updatePivotSources();
    if (!m_chartColumnAfterRun.isEmpty() && outcome.ok) {
        m_chart->setKind(QueryChart::Kind::Histogram);
        m_chart->setValueColumn(m_chartColumnAfterRun);
        m_tabs->setCurrentWidget(m_chart);
    }
    m_chartColumnAfterRun.clear();
    updateButtons();
    Q_EMIT finished(outcome.ok);
}

std::function<SliceRef(int)> QueryPanel::rowLinker() const
{
    const auto none = [](int) { return SliceRef{}; };
    // Linked only to the model the timeline shows, and never while the engine is busy on the worker.
    if (isRunning() || !m_engine || !m_timelineModel || m_engine->sources.model.get() != m_timelineModel)
        return none;
    const QueryResultModel *result = m_result;
    if (const int id = result->columnNamed({"slice_id", "id"}); id >= 0)
        return [result, id, engine = m_engine->engine.get()](int row) {
            const QVariant v = result->value(row, id);
            return v.typeId() == QMetaType::LongLong ? engine->sliceOfId(v.toLongLong()) : SliceRef{};
        };
    const int ts = result->columnNamed({"ts"}), dur = result->columnNamed({"dur"});
    if (ts < 0 || dur < 0)
        return none;
    const int track = result->columnNamed({"track"});
    return [result, ts, dur, track, model = m_timelineModel](int row) {
        const QVariant t = result->value(row, ts), d = result->value(row, dur);
        if (t.typeId() != QMetaType::LongLong || d.typeId() != QMetaType::LongLong)
            return SliceRef{};
        // A track that is no integer (NULL, text) does not narrow the search, as in SQL's "limit 1" query.
        const QVariant k = track >= 0 ? result->value(row, track) : QVariant();
        std::optional<int> thread;
        if (k.typeId() == QMetaType::LongLong) {
            const qlonglong id = k.toLongLong();
            if (id < 0 || id > std::numeric_limits<int>::max())
                return SliceRef{};
            thread = static_cast<int>(id);
        }
        return sliceStartingAt(*model, t.toLongLong(), d.toLongLong(), thread);
    };
}

SliceRef QueryPanel::sliceOfRow(int row)
{
    return rowLinker()(row);
}

void QueryPanel::rowActivated(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const SliceRef ref = sliceOfRow(index.row());
    if (ref.isValid())
        Q_EMIT sliceActivated(ref);
}

void QueryPanel::showOnTimeline()
{
    const bool byId = m_result->columnNamed({"slice_id", "id"}) >= 0;
    const int rows = byId ? m_result->rowCount() : std::min(m_result->rowCount(), kMaxLookups);
    const std::function<SliceRef(int)> sliceOf = rowLinker();
    std::vector<SliceRef> slices;
    slices.reserve(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r)
        if (const SliceRef ref = sliceOf(r); ref.isValid())
            slices.push_back(ref);
    std::sort(slices.begin(), slices.end(), [](SliceRef a, SliceRef b) {
        return a.thread != b.thread ? a.thread < b.thread : a.index < b.index;
    });
    slices.erase(std::unique(slices.begin(), slices.end()), slices.end());
    if (slices.empty()) {
        setStatus(tr("No row of this result is a slice of the timeline (it needs a slice_id or id column, or "
                     "ts and dur)"),
                  true);
        return;
    }
    QString text =
        tr("%1 slices marked on the timeline").arg(formatCount(static_cast<qint64>(slices.size())));
    if (rows < m_result->rowCount())
        text +=
            QLatin1Char(' ') + tr("(the first %1 rows were looked up by ts and dur)").arg(formatCount(rows));
    setStatus(text);
    Q_EMIT slicesMarked(slices);
}

void QueryPanel::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Result as CSV"),
                                                      QStringLiteral("query.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writeModelCsv(*m_result, path, &error))
        setStatus(error, true);
    else
        setStatus(tr("Wrote %1 rows to %2").arg(formatCount(m_result->rowCount())).arg(path));
}

void QueryPanel::copySelection() const
{
    QStringList lines{m_result->columns().join(QLatin1Char('\t'))};
    QList<int> rows;
    if (m_table->selectionModel())
        for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
            rows << index.row();
    if (rows.isEmpty())
        for (int r = 0; r < m_result->rowCount(); ++r)
            rows << r;
    std::sort(rows.begin(), rows.end());
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < m_result->columnCount(); ++c)
            cells << QueryResultModel::text(m_result->value(r, c));
        lines << cells.join(QLatin1Char('\t'));
    }
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

void QueryPanel::setSavedQueries(std::vector<SavedQuery> queries)
{
    m_saved = std::move(queries);
    const QSignalBlocker block(m_savedBox);
    m_savedBox->clear();
    m_savedBox->addItem(tr("Saved queries"));
    for (const SavedQuery &q : m_saved)
        m_savedBox->addItem(q.name);
    m_savedBox->setCurrentIndex(0);
    updateButtons();
}

void QueryPanel::addSavedQueries(const std::vector<SavedQuery> &queries)
{
    std::vector<SavedQuery> all = m_saved;
    for (const SavedQuery &q : queries) {
        const auto same = std::ranges::find(all, q.name, &SavedQuery::name);
        if (same != all.end())
            *same = q;
        else
            all.push_back(q);
    }
    setSavedQueries(std::move(all));
}

void QueryPanel::saveQuery(const QString &name)
{
    addSavedQueries({{name, m_editor->toPlainText().trimmed()}});
    m_savedBox->setCurrentIndex(m_savedBox->findText(name));
    updateButtons();
    Q_EMIT savedQueriesChanged();
}

QString QueryPanel::querySlicesNamedText()
{
    return tr("Query Slices Named Like This");
}

void QueryPanel::querySlicesNamed(const QString &name)
{
    Q_EMIT showRequested();
    stopAndWait();
    m_editor->setSql(
        tr("-- every slice named like the one clicked: the histogram of its durations") +
        QStringLiteral("\nselect id, ts, dur, name\nfrom slice\nwhere name = %1\norder by dur desc;\n")
            .arg(sqlString(name)));
    m_chartColumnAfterRun = QStringLiteral("dur");
    run();
}

bool QueryPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
        copySelection();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void QueryPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // The stretch factors share only what is beyond the size hints: place the split once, 2 : 3.
    if (!m_splitPlaced && m_splitter->width() > 0) {
        m_splitPlaced = true;
        const int width = m_splitter->width();
        m_splitter->setSizes({width * 2 / 5, width - width * 2 / 5});
    }
    if (!m_engine) {
        QString why;
        ensureEngine(&why); // completion and the pivot's columns before the first run
    }
}

void QueryPanel::retranslate()
{
    m_runButton->setText(tr("Run"));
    m_runButton->setToolTip(tr("Run the query (Ctrl+Enter)"));
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop the running query"));
    m_markButton->setText(tr("Show on Timeline"));
    m_markButton->setToolTip(
        tr("Mark the slice of every row on the timeline (rows with slice_id or id, or ts "
           "and dur)"));
    m_exportButton->setText(tr("Export CSV…"));
    m_exportButton->setToolTip(tr("Write the result as a CSV file"));
    m_saveButton->setText(tr("Save…"));
    m_saveButton->setToolTip(tr("Save the query under a name (kept with the session)"));
    m_deleteButton->setText(tr("Delete"));
    m_deleteButton->setToolTip(tr("Delete the chosen saved query"));
    m_savedBox->setToolTip(tr("Saved queries: choose one to put it into the editor"));
    if (m_savedBox->count() > 0)
        m_savedBox->setItemText(0, tr("Saved queries"));
    m_editor->setToolTip(tr("SQL over everything loaded (docs/QUERY.md). Ctrl+Enter runs, Ctrl+Space "
                            "completes, Up and Down walk the history"));
    m_tabs->setTabText(0, tr("Table"));
    m_tabs->setTabText(1, tr("Chart"));
    m_tabs->setTabText(2, tr("Pivot"));
    m_table->setToolTip(tr("Click a row to select its slice on the timeline"));
}

void QueryPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        updatePivotSources();
        retranslateCommandActions(this);
    }
}

} // namespace at
