// The Query dock (issue #31 items 2–4, docs/QUERY.md "In the window") through the real main window on a real
// sample: every expected value is computed here from the trace JSON text, never taken from the engine.
#include "MainWindow.h"
#include "PanelRegistry.h"
#include "QueryChart.h"
#include "QueryEditor.h"
#include "QueryPanel.h"
#include "QueryPivot.h"
#include "QueryResultModel.h"
#include "QuerySyntaxHighlighter.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"
#include "WindowFixture.h"

#include <QAbstractBarSeries>
#include <QAction>
#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsTextItem>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QStringListModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QValueAxis>

#include <charconv>
#include <map>

using namespace at;

namespace {

// A JSON number or string of µs as ns, through its shortest decimal text (as the reader rounds).
TimeNs micros(const QJsonValue &value)
{
    if (value.isString())
        return parseMicrosToNs(value.toString().toStdString(), FractionRounding::HalfUp).value_or(-1);
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value.toDouble()).ptr;
    return parseMicrosToNs(std::string_view(buffer, static_cast<std::size_t>(end - buffer)),
                           FractionRounding::HalfUp)
        .value_or(-1);
}

struct NameTotals
{
    qint64 count = 0;
    TimeNs dur = 0;
};

// Count and duration sum of the X events of each name, from the trace's JSON text.
std::map<QString, NameTotals> totalsByName(const QString &path)
{
    std::map<QString, NameTotals> totals;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return totals;
    for (const QJsonValue &v : QJsonDocument::fromJson(file.readAll()).array()) {
        const QJsonObject e = v.toObject();
        if (e.value(QStringLiteral("ph")).toString() != QStringLiteral("X"))
            continue;
        NameTotals &t = totals[e.value(QStringLiteral("name")).toString()];
        ++t.count;
        t.dur += micros(e.value(QStringLiteral("dur")));
    }
    return totals;
}

} // namespace

class TestQueryDock : public QObject, protected test::WindowFixture
{
    Q_OBJECT

    QueryPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    std::map<QString, NameTotals> m_expected;

    // Types the query into the editor (after clearing it) and runs it with Ctrl+Enter; true when it ended
    // without an error.
    bool typeAndRun(const QString &sql)
    {
        m_panel->editor()->clear();
        m_panel->editor()->setFocus();
        const QStringList lines = sql.split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (i > 0)
                QTest::keyClick(m_panel->editor(), Qt::Key_Return);
            QTest::keyClicks(m_panel->editor(), lines[i]);
        }
        QSignalSpy finished(m_panel, &QueryPanel::finished);
        QTest::keyClick(m_panel->editor(), Qt::Key_Return, Qt::ControlModifier);
        if (finished.isEmpty() && !finished.wait(60000))
            return false;
        return finished.first().first().toBool();
    }

    int column(const char *name) const { return m_panel->result()->columnNamed({name}); }

private slots:
    void initTestCase()
    {
        QVERIFY(setUpWindowSuite());
        m_expected = totalsByName(test::level1Rank0Trace());
        QVERIFY(m_expected.size() > 100);
    }

    void init()
    {
        QVERIFY(openWindow(test::level1Rank0Trace()));
        m_dock = m_window->findChild<QDockWidget *>(QStringLiteral("QueryDock"));
        QVERIFY(m_dock);
        m_panel = qobject_cast<QueryPanel *>(m_dock->widget());
        QVERIFY(m_panel);
    }

    void cleanup() { closeWindow(); }

    // Hidden by default; Ctrl+Shift+Q (View ▸ Panels ▸ Query) shows it.
    void hiddenUntilAskedFor()
    {
        QVERIFY(!m_dock->isVisible());
        QAction *toggle = m_dock->toggleViewAction();
        QCOMPARE(toggle->objectName(), QStringLiteral("panel.query"));
        QVERIFY(toggle->shortcuts().contains(QKeySequence(QStringLiteral("Ctrl+Shift+Q"))));
        toggle->trigger();
        QVERIFY(m_dock->isVisible());
    }

    // Ctrl+Enter runs what was typed; the rows equal the counts and duration sums of the JSON.
    void typedQueryMatchesTheJson()
    {
        m_dock->show();
        QVERIFY(typeAndRun(
            QStringLiteral("select name, count(*) as n, sum(dur) as total from slice group by name;")));
        const QueryResultModel *r = m_panel->result();
        QCOMPARE(r->rowCount(), static_cast<int>(m_expected.size()));
        QCOMPARE(r->columns(),
                 (QStringList{QStringLiteral("name"), QStringLiteral("n"), QStringLiteral("total")}));
        for (int row = 0; row < r->rowCount(); ++row) {
            const QString name = r->value(row, 0).toString();
            const auto it = m_expected.find(name);
            QVERIFY2(it != m_expected.end(), qPrintable(name));
            QCOMPARE(r->value(row, 1).toLongLong(), it->second.count);
            QCOMPARE(r->value(row, 2).toLongLong(), it->second.dur);
        }
        QVERIFY2(m_panel->statusText().contains(QString::number(m_expected.size())),
                 qPrintable(m_panel->statusText()));
        // Sorting by the sum puts the largest first.
        m_panel->table()->sortByColumn(2, Qt::DescendingOrder);
        TimeNs largest = 0;
        for (const auto &[name, t] : m_expected)
            largest = std::max(largest, t.dur);
        QCOMPARE(r->value(0, 2).toLongLong(), largest);
        // Ctrl+C copies the selected rows as TSV (exact values).
        m_panel->table()->selectRow(0);
        m_panel->table()->setFocus();
        QTest::keyClick(m_panel->table(), Qt::Key_C, Qt::ControlModifier);
        const QStringList lines =
            QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], QStringLiteral("name\tn\ttotal"));
        QVERIFY(lines[1].endsWith(QLatin1Char('\t') + QString::number(largest)));
        // The history has the query: Up on the first line brings it back.
        m_panel->editor()->clear();
        QTest::keyClick(m_panel->editor(), Qt::Key_Up);
        QVERIFY(m_panel->editor()->toPlainText().startsWith(QStringLiteral("select name, count(*)")));
    }

    // A row with an id selects and reveals that slice; one with ts and dur finds it too.
    void clickedRowSelectsItsSlice()
    {
        m_dock->show();
        QVERIFY(typeAndRun(QStringLiteral(
            "select id, name, ts, dur from slice where name = 'Node@launch' order by dur desc limit 5;")));
        QCOMPARE(m_panel->result()->rowCount(), 5);
        QTableView *table = m_panel->table();
        const QRect cell = table->visualRect(m_panel->result()->index(2, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        const SliceRef selected = m_window->timeline()->selectedSlice();
        QVERIFY(selected.isValid());
        const TraceModel *model = m_window->model();
        const SliceTable &slices = model->threads()[static_cast<std::size_t>(selected.thread)].slices;
        QCOMPARE(model->sliceName(selected), QStringLiteral("Node@launch"));
        QCOMPARE(slices.start(selected.index), m_panel->result()->value(2, column("ts")).toLongLong());
        QCOMPARE(slices.duration(selected.index), m_panel->result()->value(2, column("dur")).toLongLong());

        // Without an id: ts and dur (and the track) find the slice.
        QVERIFY(typeAndRun(
            QStringLiteral("select ts, dur, track, name from slice where name = 'ProfilerStep#50';")));
        QCOMPARE(m_panel->result()->rowCount(),
                 static_cast<int>(m_expected[QStringLiteral("ProfilerStep#50")].count));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(m_panel->result()->index(0, 0)).center());
        QCOMPARE(model->sliceName(m_window->timeline()->selectedSlice()), QStringLiteral("ProfilerStep#50"));
    }

    // "Show on Timeline" marks the slice of every row.
    void showOnTimelineMarksEveryRow()
    {
        m_dock->show();
        QVERIFY(typeAndRun(QStringLiteral("select id, dur from slice where name = 'Node@launch';")));
        const qint64 expected = m_expected[QStringLiteral("Node@launch")].count;
        QVERIFY(expected > 10);
        QCOMPARE(m_panel->result()->rowCount(), static_cast<int>(expected));
        m_window->timeline()->clearHighlights();
        m_panel->findChild<QPushButton *>(QStringLiteral("queryShowOnTimeline"))->click();
        const std::vector<SliceRef> &marked = m_window->timeline()->highlightedSlices();
        QCOMPARE(static_cast<qint64>(marked.size()), expected);
        for (const SliceRef ref : marked)
            QCOMPARE(m_window->model()->sliceName(ref), QStringLiteral("Node@launch"));
    }

    // A numeric column as a histogram (its bins hold every row) and as a bar chart, its axis in a duration
    // unit.
    void histogramAndBarChart()
    {
        m_dock->show();
        QVERIFY(typeAndRun(QStringLiteral("select name, dur from slice where name = 'Node@launch';")));
        QueryChart *chart = m_panel->chart();
        m_panel->tabs()->setCurrentWidget(chart);
        chart->setKind(QueryChart::Kind::Histogram);
        QVERIFY(chart->setValueColumn(QStringLiteral("dur")));
        qint64 binned = 0;
        for (qint64 c : chart->binCounts())
            binned += c;
        QCOMPARE(binned, m_expected[QStringLiteral("Node@launch")].count);
        const QList<QAbstractSeries *> series = chart->view()->chart()->series();
        QCOMPARE(series.size(), 1);
        auto *area = qobject_cast<QAreaSeries *>(series.first());
        QVERIFY(area);
        QCOMPARE(area->upperSeries()->count(), 4 * static_cast<int>(chart->binCounts().size()));
        const QString axis = chart->view()->chart()->axes(Qt::Horizontal).first()->titleText();
        QVERIFY2(axis.startsWith(QStringLiteral("dur (")) &&
                     (axis.contains(QStringLiteral("µs")) || axis.contains(QStringLiteral("ms")) ||
                      axis.contains(QStringLiteral("ns"))),
                 qPrintable(axis));

        QVERIFY(typeAndRun(QStringLiteral(
            "select name, sum(dur) as total_dur from slice group by name order by 2 desc limit 8;")));
        chart->setKind(QueryChart::Kind::Bars);
        QCOMPARE(chart->valueColumn(), QStringLiteral("total_dur"));
        auto *bars = qobject_cast<QAbstractBarSeries *>(chart->view()->chart()->series().first());
        QVERIFY(bars);
        QCOMPARE(bars->barSets().first()->count(), 8);
    }

    // The bar chart of a realistic result (the 20 names with the most time, many of them long) at 900×700,
    // light and dark, English and Chinese: no label drawn elided by Qt Charts ("..." or a lone "…"), every
    // bar's label drawn, each the whole name or its head and tail around "…" with the whole name in the
    // bar's tool tip, and the value axis on round ticks.
    void barLabelsReadAt900x700()
    {
        m_window->resize(900, 700);
        m_dock->show();
        m_dock->raise();
        QVERIFY(typeAndRun(
            QStringLiteral("select name, count(*) as n, sum(dur) as total_dur, p90(dur) as p90_dur "
                           "from slice group by name order by 3 desc limit 20;")));
        QueryChart *chart = m_panel->chart();
        m_panel->tabs()->setCurrentWidget(chart);
        chart->setKind(QueryChart::Kind::Bars);
        QCOMPARE(chart->valueColumn(), QStringLiteral("p90_dur"));
        int longNames = 0;
        for (const char *language : {"en", "zh_CN"})
            for (const UiTheme theme : {UiTheme::Light, UiTheme::Dark}) {
                setUiLanguage(QString::fromLatin1(language));
                applyUiTheme(theme);
                QTest::qWait(50); // the layout settles: the chart gets its width
                QChart *drawn = chart->view()->chart();
                auto *axis = qobject_cast<QBarCategoryAxis *>(drawn->axes(Qt::Vertical).first());
                QVERIFY(axis);
                const QStringList labels = axis->categories();
                QCOMPARE(labels.size(), 20);
                QCOMPARE(chart->barToolTips().size(), 20);
                QStringList texts;
                for (QGraphicsItem *item : drawn->scene()->items())
                    if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
                        texts << text->toPlainText();
                for (const QString &text : texts)
                    QVERIFY2(!text.contains(QLatin1String("...")) && text != QString(QChar(0x2026)),
                             qPrintable(QStringLiteral("%1: %2").arg(QString::fromLatin1(language), text)));
                for (int bar = 0; bar < labels.size(); ++bar) {
                    // The axis takes HTML ("<built-in method …>" is escaped so that it is drawn).
                    const QString label = QTextDocumentFragment::fromHtml(labels[bar]).toPlainText();
                    QVERIFY2(texts.contains(label), qPrintable(label));
                    // The row of this bar (the first row is the top bar): its name, whole or head…tail.
                    const QString name = m_panel->result()->value(19 - bar, column("name")).toString();
                    QVERIFY2(chart->barToolTips()[bar].startsWith(name + QLatin1Char('\n')),
                             qPrintable(chart->barToolTips()[bar]));
                    if (label != name) {
                        const qsizetype cut = label.indexOf(QChar(0x2026));
                        QVERIFY2(cut > 8 && name.startsWith(label.left(cut)) &&
                                     name.endsWith(label.mid(cut + 1)),
                                 qPrintable(label + QStringLiteral(" / ") + name));
                        ++longNames;
                    }
                }
                auto *values = qobject_cast<QValueAxis *>(drawn->axes(Qt::Horizontal).first());
                QVERIFY(values);
                QCOMPARE(values->min(), 0.0);
                QCOMPARE(values->tickType(), QValueAxis::TicksFixed);
            }
        QVERIFY(longNames > 0); // the result has names too long for the width: the case of the issue
    }

    // Bad SQL: SQLite's message and its position; the cursor goes there.
    void badSqlShowsWhere()
    {
        m_dock->show();
        QVERIFY(!typeAndRun(QStringLiteral("select id,\n  nme from slice;")));
        QVERIFY2(m_panel->statusText().contains(QStringLiteral("no such column: nme")),
                 qPrintable(m_panel->statusText()));
        QVERIFY2(m_panel->statusText().contains(QStringLiteral("line 2, column 3")),
                 qPrintable(m_panel->statusText()));
        const QTextCursor cursor = m_panel->editor()->textCursor();
        QCOMPARE(cursor.blockNumber(), 1);
        QCOMPARE(cursor.positionInBlock(), 2);
    }

    // A query that would run for hours stops promptly on Cancel, and the window stayed responsive.
    void cancelStopsALongQuery()
    {
        m_dock->show();
        m_panel->editor()->setPlainText(
            QStringLiteral("select count(*) from slice a cross join slice b cross join slice c;"));
        QSignalSpy finished(m_panel, &QueryPanel::finished);
        m_panel->findChild<QPushButton *>(QStringLiteral("queryRun"))->click();
        QVERIFY(m_panel->isRunning());
        QTest::qWait(300); // the GUI thread keeps running events meanwhile
        QVERIFY(m_panel->isRunning());
        QElapsedTimer clock;
        clock.start();
        m_panel->findChild<QPushButton *>(QStringLiteral("queryCancel"))->click();
        QVERIFY(!finished.isEmpty() || finished.wait(5000));
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY2(m_panel->statusText().startsWith(QStringLiteral("Cancelled")),
                 qPrintable(m_panel->statusText()));
        // The engine answers again afterwards.
        QVERIFY(typeAndRun(QStringLiteral("select count(*) from slice;")));
        qint64 all = 0;
        for (const auto &[name, t] : m_expected)
            all += t.count;
        QCOMPARE(m_panel->result()->value(0, 0).toLongLong(), all);
    }

    // The pivot writes its SQL into the editor and runs it: sums by name as in the JSON.
    void pivotBuildsAndRunsSql()
    {
        m_dock->show();
        QueryPivot *pivot = m_panel->pivot();
        QVERIFY(pivot->choose(QStringLiteral("slice"), {QStringLiteral("name")}, PivotSpec::Aggregate::Sum,
                              QStringLiteral("dur")));
        QSignalSpy finished(m_panel, &QueryPanel::finished);
        pivot->findChild<QPushButton *>(QStringLiteral("pivotRun"))->click();
        QVERIFY(!finished.isEmpty() || finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        const QString sql = m_panel->editor()->toPlainText();
        QCOMPARE(sql, pivotSql(pivot->spec()));
        QVERIFY2(sql.contains(QStringLiteral("sum(\"dur\")")) &&
                     sql.contains(QStringLiteral("group by \"name\"")),
                 qPrintable(sql));
        const QueryResultModel *r = m_panel->result();
        QCOMPARE(r->rowCount(), static_cast<int>(m_expected.size()));
        for (int row = 0; row < r->rowCount(); ++row)
            QCOMPARE(r->value(row, 1).toLongLong(), m_expected[r->value(row, 0).toString()].dur);
        // p90 by two columns runs as well (the engine's percentile), one row per (name, depth).
        QVERIFY(pivot->choose(QStringLiteral("slice"), {QStringLiteral("name"), QStringLiteral("depth")},
                              PivotSpec::Aggregate::P90, QStringLiteral("dur")));
        QSignalSpy again(m_panel, &QueryPanel::finished);
        pivot->findChild<QPushButton *>(QStringLiteral("pivotRun"))->click();
        QVERIFY(!again.isEmpty() || again.wait(60000));
        QVERIFY(again.first().first().toBool());
        QCOMPARE(r->columns(),
                 (QStringList{QStringLiteral("name"), QStringLiteral("depth"), QStringLiteral("p90_dur")}));
        QVERIFY(r->rowCount() >= static_cast<int>(m_expected.size()));
    }

    // Right-click on a slice: "Query Slices Named Like This" shows the dock with the durations of that name
    // as a histogram.
    void contextMenuQueriesTheName()
    {
        QVERIFY(!m_dock->isVisible());
        TimelineView *t = m_window->timeline();
        // A slice in view: the longest Node@launch, selected and revealed.
        m_dock->show();
        QVERIFY(typeAndRun(
            QStringLiteral("select id from slice where name = 'Node@launch' order by dur desc limit 1;")));
        QTest::mouseClick(m_panel->table()->viewport(), Qt::LeftButton, {},
                          m_panel->table()->visualRect(m_panel->result()->index(0, 0)).center());
        m_dock->hide();
        QApplication::processEvents();
        const SliceRef ref = t->selectedSlice();
        QVERIFY(ref.isValid());
        const QPoint at = t->sliceRect(ref).center().toPoint();
        const SliceRef under = t->sliceAt(at);
        QVERIFY(under.isValid());
        const QString name = m_window->model()->sliceName(under);
        bool triggered = false;
        QTimer::singleShot(200, this, [&triggered] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            for (QAction *a : menu->actions())
                if (a->text() == QueryPanel::querySlicesNamedText()) {
                    triggered = true;
                    a->trigger();
                }
            menu->close();
        });
        QSignalSpy finished(m_panel, &QueryPanel::finished);
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, t->viewport()->mapToGlobal(at));
        QApplication::sendEvent(t->viewport(), &event);
        QVERIFY(triggered);
        QVERIFY(!finished.isEmpty() || finished.wait(60000));
        QVERIFY(m_dock->isVisible());
        QCOMPARE(m_panel->result()->rowCount(), static_cast<int>(m_expected[name].count));
        QCOMPARE(m_panel->tabs()->currentWidget(), m_panel->chart());
        QCOMPARE(m_panel->chart()->kind(), QueryChart::Kind::Histogram);
        QCOMPARE(m_panel->chart()->valueColumn(), QStringLiteral("dur"));
        qint64 binned = 0;
        for (qint64 c : m_panel->chart()->binCounts())
            binned += c;
        QCOMPARE(binned, m_expected[name].count);
    }

    // Completion offers the engine's table and column names.
    void completionListsTables()
    {
        m_dock->show();
        QApplication::processEvents();
        const auto *words = qobject_cast<QStringListModel *>(m_panel->editor()->completer()->model());
        QVERIFY(words);
        for (const char *name : {"slice", "kernel", "comm_op", "step", "rank", "self_time", "slice_id"})
            QVERIFY2(words->stringList().contains(QString::fromLatin1(name)), name);
        m_panel->editor()->clear();
        m_panel->editor()->setFocus();
        QTest::keyClicks(m_panel->editor(), QStringLiteral("select * from comm_"));
        QVERIFY(m_panel->editor()->completer()->popup()->isVisible());
        QCOMPARE(m_panel->editor()->completer()->currentCompletion(), QStringLiteral("comm_op"));
        QTest::keyClick(m_panel->editor()->completer()->popup(), Qt::Key_Return);
        QCOMPARE(m_panel->editor()->toPlainText(), QStringLiteral("select * from comm_op"));
    }

    // Light and dark: the editor's colours follow the theme; Chinese: every text of the dock is translated.
    void themesAndChinese()
    {
        m_dock->show();
        applyUiTheme(UiTheme::Dark);
        QApplication::processEvents();
        const QColor darkComment = m_panel->editor()->highlighter()->commentFormat().foreground().color();
        QCOMPARE(darkComment, QApplication::palette().color(QPalette::PlaceholderText));
        applyUiTheme(UiTheme::Light);
        QApplication::processEvents();
        const QColor lightComment = m_panel->editor()->highlighter()->commentFormat().foreground().color();
        QCOMPARE(lightComment, QApplication::palette().color(QPalette::PlaceholderText));
        QVERIFY(darkComment != lightComment);

        QVERIFY(typeAndRun(QStringLiteral("select name, dur from slice limit 3;")));
        setUiLanguage(QStringLiteral("zh_CN"));
        QApplication::processEvents();
        for (const char *button : {"queryRun", "queryCancel", "queryShowOnTimeline", "queryExportCsv",
                                   "querySave", "queryDeleteSaved", "pivotRun"}) {
            const QString text = m_panel->findChild<QPushButton *>(QString::fromLatin1(button))->text();
            bool chinese = false;
            for (const QChar c : text)
                chinese = chinese || (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF);
            QVERIFY2(chinese, qPrintable(QString::fromLatin1(button) + QStringLiteral(": ") + text));
        }
        for (int tab = 0; tab < m_panel->tabs()->count(); ++tab)
            QVERIFY2(m_panel->tabs()->tabText(tab) != QStringLiteral("Table") &&
                         m_panel->tabs()->tabText(tab) != QStringLiteral("Chart") &&
                         m_panel->tabs()->tabText(tab) != QStringLiteral("Pivot"),
                     qPrintable(m_panel->tabs()->tabText(tab)));
        QVERIFY(m_dock->windowTitle() != QStringLiteral("Query"));
    }

    // Saved queries go with the session: saved, then back in a new window that opens the session.
    void savedQueriesKeptWithTheSession()
    {
        m_dock->show();
        m_panel->editor()->setPlainText(QStringLiteral("select count(*) from kernel;"));
        m_panel->saveQuery(QStringLiteral("kernels"));
        m_panel->editor()->setPlainText(QStringLiteral("select name from slice where depth = 0;"));
        m_panel->saveQuery(QStringLiteral("top level"));
        const std::vector<SavedQuery> saved = m_panel->savedQueries();
        QCOMPARE(saved.size(), std::size_t(2));
        const QString path = m_dir.filePath(QStringLiteral("queries.atsession"));
        QString error;
        QVERIFY2(m_window->saveSession(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("select count(*) from kernel;"));
        closeWindow();
        QVERIFY(showWindow());
        QSignalSpy loaded(m_window.get(), &MainWindow::loadFinished);
        QVERIFY(m_window->openSession(path));
        QVERIFY(!loaded.isEmpty() || loaded.wait(60000));
        auto *panel = m_window->findChild<QueryPanel *>();
        QTRY_COMPARE_WITH_TIMEOUT(panel->savedQueries(), saved, 10000);
        auto *box = panel->findChild<QComboBox *>(QStringLiteral("querySaved"));
        QCOMPARE(box->count(), 3); // the prompt, then the two queries
        box->setCurrentIndex(2);
        Q_EMIT box->activated(2);
        QCOMPARE(panel->editor()->toPlainText(), QStringLiteral("select name from slice where depth = 0;"));
    }

    // With AT_QUERY_DOCK_SHOTS=DIR: the window with the dock and a result, at the two sizes the layout is
    // made for, light and dark, English and Chinese, for a person to look at (nothing is compared).
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("AT_QUERY_DOCK_SHOTS");
        if (dir.isEmpty())
            QSKIP("AT_QUERY_DOCK_SHOTS is not set");
        m_dock->show();
        m_dock->raise();
        for (const QSize size : {QSize(900, 700), QSize(1600, 1000)})
            for (const char *language : {"en", "zh_CN"})
                for (const UiTheme theme : {UiTheme::Light, UiTheme::Dark}) {
                    m_window->resize(size);
                    setUiLanguage(QString::fromLatin1(language));
                    applyUiTheme(theme);
                    QVERIFY(
                        typeAndRun(QStringLiteral("select name, count(*) as n, sum(dur) as total_dur, "
                                                  "p90(dur) as p90_dur from slice group by name order by 3 "
                                                  "desc limit 20;")));
                    for (const int tab : {0, 1}) {
                        m_panel->tabs()->setCurrentIndex(tab);
                        if (tab == 1)
                            m_panel->chart()->setKind(QueryChart::Kind::Bars);
                        QTest::qWait(200);
                        const QString name =
                            QStringLiteral("%1/query-%2-%3-%4x%5-%6.png")
                                .arg(dir, QString::fromLatin1(language),
                                     theme == UiTheme::Dark ? QStringLiteral("dark")
                                                            : QStringLiteral("light"))
                                .arg(size.width())
                                .arg(size.height())
                                .arg(tab == 0 ? QStringLiteral("table") : QStringLiteral("chart"));
                        QVERIFY(m_window->grab().save(name));
                    }
                }
    }

    // The cluster page alone (no timeline): the summary tables hold every rank.
    void clusterPageAlone()
    {
        closeWindow();
        QVERIFY(showWindow());
        const QString root =
            test::samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
        m_window->openPath(root);
        QVERIFY(m_window->showsOverview()); // a cluster opens on its Overview
        m_window->showClusterPage();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->showsCluster() && !m_window->isLoading(), 60000);
        QVERIFY(!m_window->model());
        m_dock = m_window->findChild<QDockWidget *>(QStringLiteral("QueryDock"));
        m_panel = qobject_cast<QueryPanel *>(m_dock->widget());
        m_dock->toggleViewAction()->trigger();
        QVERIFY(typeAndRun(QStringLiteral("select rank, count(*) from step group by rank order by rank;")));
        QCOMPARE(m_panel->result()->rowCount(), 4);
        QVERIFY(typeAndRun(QStringLiteral("select count(distinct rank) from comm_op where total = 0;")));
        QCOMPARE(m_panel->result()->value(0, 0).toLongLong(), 4);
        QVERIFY(typeAndRun(QStringLiteral("select count(*) from slice;")));
        QCOMPARE(m_panel->result()->value(0, 0).toLongLong(), 0);
    }
};

QTEST_MAIN(TestQueryDock)
#include "tst_query_dock.moc"
