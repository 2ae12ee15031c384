#include "AppTestSupport.h"
#include "ChangeColors.h"
#include "CompareWindow.h"
#include "ExactText.h"
#include "MainWindow.h"
#include "OpDiffCurve.h"
#include "OpDiffTableModel.h"
#include "OpDiffView.h"
#include "OpDiffWindow.h"
#include "StepCompareView.h"
#include "TestSupport.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <map>
#include <set>

using namespace at;

namespace {

constexpr TimeNs kSlowdownNs = 7000; // added to the dur of every task the chosen op launched

TimeNs ns(const QString &micros)
{
    return parseMicrosToNs(micros.toStdString()).value_or(-1);
}

// "840.07675" + 7 µs → "847.07675": the dur text lengthened without going through a double.
QString plusMicros(const QString &micros, int add)
{
    const qsizetype dot = micros.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? micros : micros.left(dot);
    return QString::number(whole.toLongLong() + add) + (dot < 0 ? QString() : micros.mid(dot));
}

// A copy of a torch_npu trace_view.json in which every device task one framework op launched (through its
// async_npu flows) lasts kSlowdownNs longer: the op of the step with the most such tasks. Found from the
// JSON text itself: the op is the innermost cpu_op starting where the flow starts (FORMATS.md §11.5).
struct SlowedCopy
{
    QString opName;
    TimeNs opStart = 0; // absolute ns
    int tasks = 0;
    bool written = false;
};

SlowedCopy writeSlowedCopy(const QString &from, const QString &to)
{
    SlowedCopy out;
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return out;
    QString text = QString::fromUtf8(in.readAll());
    const QRegularExpression stepRe(
        QString::fromUtf8("\"name\": \"ProfilerStep#\\d+\", \"pid\": \\d+, \"tid\": \\d+, \"ts\": "
                          "\"([0-9.]+)\", \"dur\": ([0-9.]+)"));
    const QRegularExpressionMatch step = stepRe.match(text);
    if (!step.hasMatch())
        return out;
    const TimeNs stepBegin = ns(step.captured(1)), stepEnd = stepBegin + ns(step.captured(2));
    struct Op
    {
        QString name;
        TimeNs dur;
    };
    std::map<std::tuple<QString, QString, TimeNs>, Op> innermost; // (pid, tid, ts) → shortest op there
    const QRegularExpression opRe(
        QString::fromUtf8("\\{\"ph\": \"X\", \"name\": \"([^\"]*)\", \"pid\": (\\d+), \"tid\": (\\d+), "
                          "\"ts\": \"([0-9.]+)\", \"dur\": ([0-9.]+), \"cat\": \"cpu_op\""));
    for (auto it = opRe.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const auto key = std::make_tuple(m.captured(2), m.captured(3), ns(m.captured(4)));
        const Op op{m.captured(1), ns(m.captured(5))};
        if (auto found = innermost.find(key); found == innermost.end() || op.dur < found->second.dur)
            innermost[key] = op;
    }
    struct Half
    {
        QString pid, tid, ts;
    };
    std::map<QString, Half> starts, finishes;
    const QRegularExpression flowRe(QString::fromUtf8(
        "\\{\"ph\": \"([sf])\", \"bp\": \"e\", \"name\": \"torch_to_npu\", \"id\": (\\d+), \"pid\": (\\d+), "
        "\"tid\": (\\d+), \"ts\": \"([0-9.]+)\", \"cat\": \"async_npu\"\\}"));
    for (auto it = flowRe.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        (m.captured(1) == QLatin1String("s") ? starts : finishes)[m.captured(2)] = {
            m.captured(3), m.captured(4), m.captured(5)};
    }
    // The tasks (as "pid, tid, ts" of their X event) of each op of the step.
    std::map<std::tuple<QString, QString, TimeNs>, std::set<QString>> tasksOf;
    for (const auto &[id, s] : starts) {
        const auto f = finishes.find(id);
        const auto key = std::make_tuple(s.pid, s.tid, ns(s.ts));
        if (f == finishes.end() || !innermost.count(key) || std::get<2>(key) < stepBegin ||
            std::get<2>(key) >= stepEnd)
            continue;
        const QString task = QString::fromUtf8("\"pid\": %1, \"tid\": %2, \"ts\": \"%3\", \"dur\": ")
                                 .arg(f->second.pid, f->second.tid, f->second.ts);
        if (text.count(task) == 1) // an X event of the task, and only one
            tasksOf[key].insert(task);
    }
    const auto chosen = std::max_element(tasksOf.begin(), tasksOf.end(), [](const auto &a, const auto &b) {
        return a.second.size() < b.second.size();
    });
    if (chosen == tasksOf.end())
        return out;
    for (const QString &task : chosen->second) {
        const qsizetype at = text.indexOf(task) + task.size();
        qsizetype end = at;
        while (end < text.size() && (text[end].isDigit() || text[end] == QLatin1Char('.')))
            ++end;
        text.replace(at, end - at, plusMicros(text.mid(at, end - at), kSlowdownNs / 1000));
    }
    out.opName = innermost[chosen->first].name;
    out.opStart = std::get<2>(chosen->first);
    out.tasks = static_cast<int>(chosen->second.size());
    QFile file(to);
    out.written = file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) > 0;
    return out;
}

// A copy of the trace in which the op (the innermost cpu_op of that name starting at opStart, absolute ns) is
// called "renamed_op": the diff must list it as an op of one side only on both sides.
bool writeRenamedCopy(const QString &from, const QString &to, const QString &opName, TimeNs opStart)
{
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QString text = QString::fromUtf8(in.readAll());
    const QRegularExpression opRe(
        QString::fromUtf8("\\{\"ph\": \"X\", \"name\": \"([^\"]*)\", \"pid\": \\d+, \"tid\": \\d+, \"ts\": "
                          "\"([0-9.]+)\", \"dur\": ([0-9.]+), \"cat\": \"cpu_op\""));
    qsizetype at = -1;
    TimeNs shortest = std::numeric_limits<TimeNs>::max();
    for (auto it = opRe.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (m.captured(1) == opName && ns(m.captured(2)) == opStart && ns(m.captured(3)) < shortest) {
            shortest = ns(m.captured(3));
            at = m.capturedStart(1);
        }
    }
    if (at < 0)
        return false;
    text.replace(at, opName.size(), QStringLiteral("renamed_op"));
    QFile file(to);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) > 0;
}

template <class T> QList<T *> topLevel()
{
    QList<T *> out;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *t = qobject_cast<T *>(w))
            out << t;
    return out;
}

void closeDiffWindows()
{
    for (OpDiffWindow *w : topLevel<OpDiffWindow>())
        delete w;
    test::closeCompareWindows();
}

// Both axes of the curve: round, distinct tick labels, each with its unit.
bool curveAxesRead(const OpDiffCurve &curve, QString *why)
{
    for (const Qt::Orientation axis : {Qt::Horizontal, Qt::Vertical}) {
        QStringList labels = curve.tickLabels(axis);
        static const QRegularExpression withUnit(QStringLiteral("^-?[0-9,.]+ (ns|µs|ms|s)$"));
        if (labels.size() < 3 || labels.removeDuplicates() > 0) {
            *why = labels.join(QStringLiteral(" | "));
            return false;
        }
        for (const QString &label : labels)
            if (!withUnit.match(label).hasMatch()) {
                *why = label;
                return false;
            }
    }
    return true;
}

qlonglong raw(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data(Qt::UserRole).toLongLong();
}

} // namespace

// Issue 30 item 2: the diff by framework op as the user opens it from the menu, on the level-1 sample's
// trace_view.json (torch_npu cpu_ops with async_npu flows) against itself and against a copy whose op was
// slowed.
class TestOpDiffWindow : public QObject, protected test::WindowFixture
{
    Q_OBJECT
    std::vector<std::unique_ptr<MainWindow>> m_others;
    SlowedCopy m_slowed;
    QString m_slowedPath;

    // Opens path in another main window (its steps join the dialog's choices).
    bool openOther(const QString &path)
    {
        auto window = std::make_unique<MainWindow>();
        window->resize(900, 600);
        window->show();
        if (!test::openAndWait(*window, path))
            return false;
        m_others.push_back(std::move(window));
        return true;
    }

    // View ▸ Diff by Framework Op…: the dialog (base = this window's step), the comparison chosen, Diff.
    OpDiffWindow *diffFromMenu(int comparison, bool keyboard)
    {
        QAction *action = m_window->findChild<QAction *>(QStringLiteral("view.diffByOp"));
        if (!action)
            return nullptr;
        action->trigger();
        CompareStepsDialog *dialog = nullptr;
        for (CompareStepsDialog *d : m_window->findChildren<CompareStepsDialog *>())
            if (d->isVisible())
                dialog = d;
        if (!dialog)
            return nullptr;
        if (dialog->windowTitle() != QLatin1String("Diff by Framework Op"))
            return nullptr;
        if (keyboard) {
            // Tab from the base step to the comparison step, Tab to "match shapes", Space, Enter.
            dialog->activateWindow();
            if (!QTest::qWaitForWindowActive(dialog))
                return nullptr;
            dialog->baseChooser()->setFocus();
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            if (QApplication::focusWidget() != dialog->comparisonChooser())
                return nullptr;
            dialog->comparisonChooser()->setCurrentIndex(comparison);
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            if (!qobject_cast<QCheckBox *>(QApplication::focusWidget()))
                return nullptr;
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        } else {
            dialog->comparisonChooser()->setCurrentIndex(comparison);
            dialog->accept();
        }
        const QList<OpDiffWindow *> windows = topLevel<OpDiffWindow>();
        if (windows.size() != 1)
            return nullptr;
        OpDiffWindow *w = windows.front();
        if (!QTest::qWaitFor([w] { return w->result() != nullptr; }, 60000))
            return nullptr;
        return w;
    }

    // The choice index of the step of `window` (the dialog lists this window's steps first).
    int choiceOf(const MainWindow *window) const
    {
        const std::vector<StepChoice> choices = m_window->stepChoices();
        for (std::size_t i = 0; i < choices.size(); ++i)
            if (choices[i].model == window->sharedModel())
                return static_cast<int>(i);
        return -1;
    }

    // The slowed copy's diff: base = the sample, comparison = the copy.
    OpDiffWindow *slowedDiff() { return diffFromMenu(choiceOf(m_others[1].get()), false); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpWindowSuite());
        QVERIFY(openWindow(test::level1Rank0Trace()));
        QCOMPARE(m_window->model()->steps().size(), std::size_t(1));
        QVERIFY(openOther(test::level1Rank0Trace())); // the same file again
        m_slowedPath = m_dir.filePath(QStringLiteral("slowed_trace_view.json"));
        m_slowed = writeSlowedCopy(test::level1Rank0Trace(), m_slowedPath);
        QVERIFY(m_slowed.written);
        QVERIFY2(m_slowed.tasks >= 1, qPrintable(m_slowed.opName));
        QVERIFY(openOther(m_slowedPath));
        const QString renamed = m_dir.filePath(QStringLiteral("renamed_trace_view.json"));
        QVERIFY(writeRenamedCopy(test::level1Rank0Trace(), renamed, m_slowed.opName, m_slowed.opStart));
        QVERIFY(openOther(renamed));
    }

    void cleanup() { closeDiffWindows(); }

    void cleanupTestCase()
    {
        m_others.clear();
        closeWindow();
    }

    // Against the same file, through the dialog by keyboard (shapes matched): nothing changes, every op
    // is matched, and each side's device column sums to its step time.
    void theSameStepDiffsToZeroAndSumsToTheStepTime()
    {
        OpDiffWindow *w = diffFromMenu(choiceOf(m_others[0].get()), true);
        QVERIFY(w);
        QVERIFY(w->matchShapes());
        qInfo("diff of the level-1 step with itself: %s (%zu rows)",
              qPrintable(formatDurationNs(w->computeTime())), w->result()->rows.size());
        const diff::DiffResult &r = *w->result();
        QVERIFY(r.base.stepTime > 0);
        QCOMPARE(r.comparison.stepTime, r.base.stepTime);
        QVERIFY(r.unmatchedBase.empty());
        QVERIFY(r.unmatchedComparison.empty());
        const QAbstractItemModel *table = w->view()->table()->model();
        int matched = 0;
        qlonglong base = 0, comparison = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            QCOMPARE(raw(table, row, OpDiffTableModel::DeltaColumn), 0);
            base += raw(table, row, OpDiffTableModel::BaseDeviceColumn);
            comparison += raw(table, row, OpDiffTableModel::ComparisonDeviceColumn);
            matched += !w->view()->tableModel()->isTotalRow(
                w->view()->proxy()->mapToSource(table->index(row, 0)).row());
        }
        QVERIFY2(matched > 50, qPrintable(QString::number(matched)));
        QCOMPARE(base, r.base.stepTime);
        QCOMPARE(comparison, r.comparison.stepTime);
        // The headline gives both step times.
        QVERIFY(w->view()->headline()->text().contains(
            formatDurationNs(r.base.stepTime).replace(QLatin1Char(' '), QStringLiteral("&nbsp;"))));
        // A flat curve: every accumulated delta 0.
        QVERIFY(!w->view()->curve()->points().empty());
        for (const OpDiffCurve::Point &p : w->view()->curve()->points())
            QCOMPARE(p.delta, TimeNs(0));
        QString why;
        QVERIFY2(curveAxesRead(*w->view()->curve(), &why), qPrintable(why));
    }

    // The op whose tasks were slowed is the top row with exactly the added time, and heads the headline.
    void theSlowedOpIsTheTopRow()
    {
        OpDiffWindow *w = slowedDiff();
        QVERIFY(w);
        QVERIFY(!w->matchShapes());
        const diff::DiffResult &r = *w->result();
        const QAbstractItemModel *table = w->view()->table()->model();
        QCOMPARE(w->view()->table()->horizontalHeader()->sortIndicatorSection(),
                 static_cast<int>(OpDiffTableModel::DeltaColumn));
        const int top =
            w->view()->tableModel()->entry(w->view()->proxy()->mapToSource(table->index(0, 0)).row()).index;
        const diff::DiffRow &row = r.rows[static_cast<std::size_t>(top)];
        QCOMPARE(row.kind, diff::RowKind::MatchedOp);
        QCOMPARE(row.name, m_slowed.opName);
        QCOMPARE(row.deltaNs, kSlowdownNs * m_slowed.tasks);
        QCOMPARE(raw(table, 0, OpDiffTableModel::DeltaColumn), kSlowdownNs * m_slowed.tasks);
        const TraceModel &model = *m_window->model();
        QCOMPARE(r.baseTree.ops[static_cast<std::size_t>(row.base.op)].start + model.origin(),
                 m_slowed.opStart);
        // Every other matched op is unchanged.
        for (int i = 1; i < table->rowCount(); ++i)
            if (!w->view()->tableModel()->isTotalRow(
                    w->view()->proxy()->mapToSource(table->index(i, 0)).row()))
                QCOMPARE(raw(table, i, OpDiffTableModel::DeltaColumn), 0);
        QVERIFY(!r.topRows.empty());
        QCOMPARE(r.topRows.front(), top);
        QVERIFY(w->view()->headline()->text().contains(QStringLiteral("href=\"row:%1\"").arg(top)));
        // The curve ends at the total delta of the matched ops.
        QCOMPARE(w->view()->curve()->points().back().delta, kSlowdownNs * m_slowed.tasks);
        QString why;
        QVERIFY2(curveAxesRead(*w->view()->curve(), &why), qPrintable(why));
    }

    // A row click selects the op on both panes, highlights its kernels there, and puts the comparison op
    // at the base op's x; op slices are coloured by their change.
    void aRowClickSelectsTheOpOnBothPanes()
    {
        OpDiffWindow *w = slowedDiff();
        QVERIFY(w);
        QVERIFY(!w->sideBySide());
        QTableView *table = w->view()->table();
        table->scrollToTop();
        const QRect cell = table->visualRect(table->model()->index(0, OpDiffTableModel::OpColumn));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        CompareWindow *compare = w->sideBySide();
        QVERIFY(compare);
        QVERIFY(QTest::qWaitForWindowExposed(compare));
        const diff::DiffResult &r = *w->result();
        const int top = w->view()->currentDiffRow();
        QVERIFY(top >= 0);
        const diff::DiffRow &row = r.rows[static_cast<std::size_t>(top)];
        QCOMPARE(row.name, m_slowed.opName);
        const diff::FrameworkOp &baseOp = r.baseTree.ops[static_cast<std::size_t>(row.base.op)];
        const diff::FrameworkOp &comparisonOp =
            r.comparisonTree.ops[static_cast<std::size_t>(row.comparison.op)];
        TimelineView *panes[2] = {compare->view()->basePane(), compare->view()->comparisonPane()};
        QCOMPARE(panes[0]->state()->selection(), baseOp.slice);
        QCOMPARE(panes[1]->state()->selection(), comparisonOp.slice);
        for (int side = 0; side < 2; ++side) {
            std::vector<SliceRef> kernels = diff::rowSlices(r, top, side == 1);
            QCOMPARE(static_cast<int>(kernels.size()), m_slowed.tasks);
            std::vector<SliceRef> shown = panes[side]->highlightedSlices();
            const auto order = [](SliceRef a, SliceRef b) { return sliceKey(a) < sliceKey(b); };
            std::sort(kernels.begin(), kernels.end(), order);
            std::sort(shown.begin(), shown.end(), order);
            QVERIFY(shown == kernels);
        }
        // Aligned by the matched op: both op starts at the same distance from their pane's left edge.
        QCOMPARE(panes[1]->zoom()->range().start - comparisonOp.start,
                 panes[0]->zoom()->range().start - baseOp.start);
        QVERIFY(panes[0]->zoom()->range().start <= baseOp.start);
        QVERIFY(panes[0]->zoom()->range().end > baseOp.start);
        // Op slices coloured by the change: the slowed op red-ward, an unchanged one neutral.
        const QColor slowed = durationChangeColor(row.base.deviceNs, row.comparison.deviceNs);
        QCOMPARE(panes[0]->sliceColor(baseOp.slice), slowed);
        QCOMPARE(panes[1]->sliceColor(comparisonOp.slice), slowed);
        QVERIFY(slowed != durationChangeColor(1000, 1000));
        // The curve marks the op's base time.
        QCOMPARE(w->view()->curve()->markedTime(), std::optional<TimeNs>(row.baseOffset));
    }

    // An op renamed in the comparison is an op of one side only on both sides, listed apart in the
    // Unmatched tab (its device time in the total row of such ops); a click there selects it in its pane.
    void aRenamedOpIsListedApart()
    {
        OpDiffWindow *w = diffFromMenu(choiceOf(m_others[2].get()), false);
        QVERIFY(w);
        const diff::DiffResult &r = *w->result();
        QCOMPARE(r.unmatchedBase.size(), std::size_t(1));
        QCOMPARE(r.unmatchedComparison.size(), std::size_t(1));
        QCOMPARE(r.unmatchedBase.front().name, m_slowed.opName);
        QCOMPARE(r.unmatchedComparison.front().name, QStringLiteral("renamed_op"));
        // Its tasks are still counted: each side's rows sum to its step.
        const QAbstractItemModel *table = w->view()->table()->model();
        qlonglong base = 0, comparison = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            base += raw(table, row, OpDiffTableModel::BaseDeviceColumn);
            comparison += raw(table, row, OpDiffTableModel::ComparisonDeviceColumn);
        }
        QCOMPARE(base, r.base.stepTime);
        QCOMPARE(comparison, r.comparison.stepTime);
        QTableView *unmatched = w->view()->unmatchedTable();
        QCOMPARE(unmatched->model()->rowCount(), 2);
        QCOMPARE(w->view()->tabs()->tabText(1), QStringLiteral("Unmatched (2)"));
        w->view()->tabs()->setCurrentWidget(unmatched);
        for (int row = 0; row < 2; ++row) {
            const QString op = unmatched->model()->index(row, 1).data().toString();
            const bool comparisonSide = op == QLatin1String("renamed_op");
            QTest::mouseClick(unmatched->viewport(), Qt::LeftButton, {},
                              unmatched->visualRect(unmatched->model()->index(row, 1)).center());
            QVERIFY(w->sideBySide());
            const diff::UnmatchedOp &u =
                comparisonSide ? r.unmatchedComparison.front() : r.unmatchedBase.front();
            const diff::OpTree &tree = comparisonSide ? r.comparisonTree : r.baseTree;
            TimelineView *pane = comparisonSide ? w->sideBySide()->view()->comparisonPane()
                                                : w->sideBySide()->view()->basePane();
            QCOMPARE(pane->selectedSlice(), tree.ops[static_cast<std::size_t>(u.op)].slice);
        }
    }

    void sortingIsNumericWithTheTotalsLast()
    {
        OpDiffWindow *w = slowedDiff();
        QVERIFY(w);
        QTableView *table = w->view()->table();
        const QAbstractItemModel *model = table->model();
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            table->sortByColumn(OpDiffTableModel::BaseDeviceColumn, order);
            bool inTotals = false;
            qlonglong previous = order == Qt::AscendingOrder ? std::numeric_limits<qlonglong>::min()
                                                             : std::numeric_limits<qlonglong>::max();
            int checked = 0;
            for (int i = 0; i < model->rowCount(); ++i) {
                const bool total = w->view()->tableModel()->isTotalRow(
                    w->view()->proxy()->mapToSource(model->index(i, 0)).row());
                QVERIFY2(!inTotals || total, "a total row above an op");
                inTotals = total;
                if (total)
                    continue;
                const qlonglong v = raw(model, i, OpDiffTableModel::BaseDeviceColumn);
                QVERIFY2(order == Qt::AscendingOrder ? v >= previous : v <= previous,
                         qPrintable(QString::number(i)));
                previous = v;
                ++checked;
            }
            QVERIFY(checked > 50);
            QVERIFY(inTotals);
        }
        // Numbers sort as numbers: in µs text "9.000 µs" would sort after "10.000 µs".
        table->sortByColumn(OpDiffTableModel::BaseDeviceColumn, Qt::AscendingOrder);
        QVERIFY(raw(model, 0, OpDiffTableModel::BaseDeviceColumn) <=
                raw(model, model->rowCount() / 2, OpDiffTableModel::BaseDeviceColumn));
    }

    void filterAndGroupingKeepTheTotals()
    {
        OpDiffWindow *w = slowedDiff();
        QVERIFY(w);
        OpDiffView *view = w->view();
        const QAbstractItemModel *model = view->table()->model();
        const int all = model->rowCount();
        QTest::keyClicks(view->filterBox(), m_slowed.opName);
        QVERIFY(model->rowCount() < all);
        int ops = 0;
        for (int i = 0; i < model->rowCount(); ++i) {
            if (view->tableModel()->isTotalRow(view->proxy()->mapToSource(model->index(i, 0)).row()))
                continue;
            ++ops;
            bool found = false;
            for (int c = 0; c < model->columnCount(); ++c)
                found = found ||
                        model->index(i, c).data().toString().contains(m_slowed.opName, Qt::CaseInsensitive);
            QVERIFY(found);
        }
        QVERIFY(ops >= 1);
        view->filterBox()->clear();
        QCOMPARE(model->rowCount(), all);
        // By op name: one row per name, its totals the sum of its ops.
        view->groupChooser()->setCurrentIndex(1);
        QCOMPARE(view->tableModel()->grouping(), OpDiffTableModel::Grouping::ByName);
        const diff::DiffResult &r = *w->result();
        bool sawSlowed = false;
        for (int i = 0; i < model->rowCount(); ++i) {
            const int source = view->proxy()->mapToSource(model->index(i, 0)).row();
            const OpDiffTableModel::Entry &e = view->tableModel()->entry(source);
            if (!e.group)
                continue;
            qlonglong base = 0, delta = 0;
            for (const int row : view->tableModel()->rowsOfGroup(e.index)) {
                base += r.rows[static_cast<std::size_t>(row)].base.deviceNs;
                delta += r.rows[static_cast<std::size_t>(row)].deltaNs;
            }
            QCOMPARE(raw(model, i, OpDiffTableModel::BaseDeviceColumn), base);
            QCOMPARE(raw(model, i, OpDiffTableModel::DeltaColumn), delta);
            if (model->index(i, OpDiffTableModel::OpColumn).data().toString() == m_slowed.opName) {
                sawSlowed = true;
                QCOMPARE(delta, kSlowdownNs * m_slowed.tasks);
                QCOMPARE(i, 0); // sorted by delta, descending
            }
        }
        QVERIFY(sawSlowed);
        // A headline op shows itself per op again.
        view->selectDiffRow(r.topRows.front());
        QCOMPARE(view->tableModel()->grouping(), OpDiffTableModel::Grouping::PerOp);
        QCOMPARE(view->currentDiffRow(), r.topRows.front());
    }

    // A headline op and a click on the curve select their row; by module, the groups total the matched ops.
    void headlineCurveAndModulesSelectAndTotal()
    {
        OpDiffWindow *w = slowedDiff();
        QVERIFY(w);
        OpDiffView *view = w->view();
        const diff::DiffResult &r = *w->result();
        const int top = r.topRows.front();
        Q_EMIT view->headline()->linkActivated(QStringLiteral("row:%1").arg(top));
        QCOMPARE(view->currentDiffRow(), top);
        QVERIFY(w->sideBySide());
        // The curve: the x whose time is nearest the slowed op's base offset, clicked.
        view->table()->clearSelection();
        view->selectDiffRow(r.rows.size() > 1 && top == 0 ? 1 : 0);
        OpDiffCurve *curve = view->curve();
        const QRect plot = curve->plotRect();
        const TimeNs target = r.rows[static_cast<std::size_t>(top)].baseOffset;
        int best = plot.left();
        for (int x = plot.left(); x <= plot.right(); ++x)
            if (std::abs(curve->timeAt(x) - target) < std::abs(curve->timeAt(best) - target))
                best = x;
        QTest::mouseClick(curve, Qt::LeftButton, {}, QPoint(best, plot.center().y()));
        const int picked = view->currentDiffRow();
        QVERIFY(picked >= 0);
        // The op nearest the click: within one pixel's time of the slowed op.
        const TimeNs pixel = curve->timeAt(plot.left() + 1) - curve->timeAt(plot.left());
        QVERIFY2(std::abs(r.rows[static_cast<std::size_t>(picked)].baseOffset - target) <= pixel,
                 qPrintable(r.rows[static_cast<std::size_t>(picked)].name));
        // By module: the groups' base device time is the matched ops' total.
        view->groupChooser()->setCurrentIndex(2);
        const QAbstractItemModel *model = view->table()->model();
        qlonglong groups = 0, ops = 0;
        int groupRows = 0;
        for (int i = 0; i < model->rowCount(); ++i)
            if (view->tableModel()->entry(view->proxy()->mapToSource(model->index(i, 0)).row()).group) {
                groups += raw(model, i, OpDiffTableModel::BaseDeviceColumn);
                ++groupRows;
            }
        for (const diff::DiffRow &row : r.rows)
            if (row.kind == diff::RowKind::MatchedOp)
                ops += row.base.deviceNs;
        QVERIFY(groupRows >= 2); // at least one module and "(no module)"
        QCOMPARE(groups, ops);
    }

    // The CSV has the rows as shown, with exact µs.
    void csvExportHasTheRowsAsShown()
    {
        OpDiffWindow *w = slowedDiff();
        QVERIFY(w);
        const QString csv = QString::fromUtf8(w->view()->tableCsv());
        const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QAbstractItemModel *model = w->view()->table()->model();
        QCOMPARE(lines.size(), model->rowCount() + 1);
        const QStringList header = lines.front().split(QLatin1Char(','));
        const int delta = static_cast<int>(header.indexOf(QStringLiteral("Delta (us)")));
        const int base = static_cast<int>(header.indexOf(QStringLiteral("Base device (us)")));
        QCOMPARE(delta, static_cast<int>(OpDiffTableModel::DeltaColumn));
        QCOMPARE(base, static_cast<int>(OpDiffTableModel::BaseDeviceColumn));
        QVERIFY(lines[1].startsWith(m_slowed.opName + QLatin1Char(',')));
        const diff::DiffResult &r = *w->result();
        const int top = r.topRows.front();
        const QString expected =
            microsText(r.rows[static_cast<std::size_t>(top)].base.deviceNs) + QLatin1Char(',') +
            microsText(r.rows[static_cast<std::size_t>(top)].comparison.deviceNs) + QLatin1Char(',') +
            microsText(kSlowdownNs * m_slowed.tasks) + QLatin1Char(',');
        QVERIFY2(lines[1].contains(expected), qPrintable(lines[1] + QStringLiteral(" lacks ") + expected));
    }

    // Two ranks of one profile (the level-1 folder's rank 0 and rank 1): each side reads its own rank's ops,
    // most ops match, and each side's rows sum to its own step time.
    void twoRanksOfOneProfile()
    {
        MainWindow folder;
        folder.show();
        QVERIFY(
            test::openAndWait(folder, test::samplePath(QStringLiteral(
                                          "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"))));
        std::vector<StepChoice> steps;
        for (const StepChoice &c : folder.stepChoices())
            if (c.model == folder.sharedModel())
                steps.push_back(c);
        QCOMPARE(steps.size(), std::size_t(2)); // the step on rank 0 and on rank 1
        const Step &rank0 = steps[0].model->steps()[static_cast<std::size_t>(steps[0].step)];
        const Step &rank1 = steps[1].model->steps()[static_cast<std::size_t>(steps[1].step)];
        QVERIFY(rank0.group != rank1.group);
        auto *w = new OpDiffWindow(steps[0], steps[1], false);
        w->show();
        QVERIFY(QTest::qWaitFor([w] { return w->result() != nullptr; }, 60000));
        const diff::DiffResult &r = *w->result();
        // Every op of a side is on its own rank's threads.
        const TraceModel &model = *folder.model();
        for (const auto &[tree, group] :
             {std::pair{&r.baseTree, rank0.group}, std::pair{&r.comparisonTree, rank1.group}}) {
            QVERIFY(tree->ops.size() > 100);
            for (const diff::FrameworkOp &op : tree->ops)
                QCOMPARE(model
                             .processes()[static_cast<std::size_t>(
                                 model.threads()[static_cast<std::size_t>(op.slice.thread)].process)]
                             .group,
                         group);
        }
        std::size_t matched = 0;
        qlonglong base = 0, comparison = 0;
        for (const diff::DiffRow &row : r.rows) {
            matched += row.kind == diff::RowKind::MatchedOp;
            base += row.base.deviceNs;
            comparison += row.comparison.deviceNs;
        }
        QVERIFY2(matched * 10 >= r.baseTree.ops.size() * 9,
                 qPrintable(QStringLiteral("%1 of %2 matched").arg(matched).arg(r.baseTree.ops.size())));
        QCOMPARE(base, r.base.stepTime);
        QCOMPARE(comparison, r.comparison.stepTime);
        QVERIFY(r.base.stepTime != r.comparison.stepTime); // two ranks, two step times
        delete w;
    }

    // The real PyTorch GPU trace (Kineto) against itself: every delta 0, the rows sum to the step, and a row
    // selects its op in both panes. Its steps (ProfilerStep#4..6) come from the Kineto reader (branch
    // kineto).
    void gpuSampleAgainstItself()
    {
        const QString gpu = test::samplePath(QStringLiteral("hta_kineto_gpu_traces/nccl_data.json.gz"));
        MainWindow a, b;
        a.show();
        b.show();
        QVERIFY(test::openAndWait(a, gpu));
        QVERIFY(test::openAndWait(b, gpu));
        if (a.model()->steps().empty())
            QSKIP("this build reads no steps from Kineto traces (the Kineto reader is not merged)");
        std::vector<StepChoice> mine, theirs;
        for (const StepChoice &c : a.stepChoices()) {
            if (c.model == a.sharedModel())
                mine.push_back(c);
            if (c.model == b.sharedModel())
                theirs.push_back(c);
        }
        QCOMPARE(mine.size(), std::size_t(3)); // ProfilerStep#4, #5, #6
        QCOMPARE(theirs.size(), std::size_t(3));
        auto *w = new OpDiffWindow(mine.front(), theirs.front(), false);
        w->show();
        QVERIFY(QTest::qWaitFor([w] { return w->result() != nullptr; }, 60000));
        qInfo("diff of the GPU step with itself: %s (%zu rows)",
              qPrintable(formatDurationNs(w->computeTime())), w->result()->rows.size());
        const diff::DiffResult &r = *w->result();
        QVERIFY(r.base.stepTime > 0);
        QVERIFY(r.unmatchedBase.empty());
        QVERIFY(r.unmatchedComparison.empty());
        qlonglong base = 0;
        for (const diff::DiffRow &row : r.rows) {
            QCOMPARE(row.deltaNs, 0);
            base += row.base.deviceNs;
        }
        QCOMPARE(base, r.base.stepTime);
        const QString dir = qEnvironmentVariable("AT_SCREENSHOT_DIR");
        int first = -1;
        for (std::size_t i = 0; i < r.rows.size() && first < 0; ++i)
            if (r.rows[i].kind == diff::RowKind::MatchedOp && !r.rows[i].base.work.empty())
                first = static_cast<int>(i);
        QVERIFY(first >= 0);
        w->view()->selectDiffRow(first);
        QVERIFY(w->sideBySide());
        QCOMPARE(
            w->sideBySide()->view()->basePane()->selectedSlice(),
            r.baseTree.ops[static_cast<std::size_t>(r.rows[static_cast<std::size_t>(first)].base.op)].slice);
        QCOMPARE(w->sideBySide()->view()->comparisonPane()->selectedSlice(),
                 r.comparisonTree
                     .ops[static_cast<std::size_t>(r.rows[static_cast<std::size_t>(first)].comparison.op)]
                     .slice);
        QCOMPARE(w->sideBySide()->view()->comparisonPane()->highlightedSlices().size(),
                 r.rows[static_cast<std::size_t>(first)].comparison.work.size());
        w->resize(1600, 1000);
        w->sideBySide()->resize(1600, 1000);
        QTest::qWait(300);
        if (!dir.isEmpty()) {
            w->grab().save(dir + QStringLiteral("/gpu-op-diff.png"));
            w->sideBySide()->grab().save(dir + QStringLiteral("/gpu-side-by-side.png"));
        }
        delete w;
        test::closeCompareWindows();
    }

    // The window at its two sizes, light and dark, English and Chinese (AT_SCREENSHOT_DIR to keep them):
    // the headline is never cut and the curve keeps a readable height.
    void screenshots()
    {
        OpDiffWindow *w = slowedDiff();
        QVERIFY(w);
        w->view()->selectDiffRow(w->result()->topRows.front());
        w->raise();
        const QString dir = qEnvironmentVariable("AT_SCREENSHOT_DIR");
        for (const QSize size : {QSize(1600, 1000), QSize(900, 700)})
            for (const UiTheme theme : {UiTheme::Light, UiTheme::Dark})
                for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
                    applyUiTheme(theme);
                    QVERIFY(setUiLanguage(language));
                    w->resize(size);
                    QTest::qWait(300);
                    if (!dir.isEmpty())
                        w->grab().save(QStringLiteral("%1/op-diff-%2x%3-%4-%5.png")
                                           .arg(dir)
                                           .arg(size.width())
                                           .arg(size.height())
                                           .arg(uiThemeName(theme), language));
                    QLabel *headline = w->view()->headline();
                    const QString config = QStringLiteral("%1x%2 %3 %4")
                                               .arg(size.width())
                                               .arg(size.height())
                                               .arg(uiThemeName(theme), language);
                    // The layout settles after the resize and the language's new text (QTRY_: up to 5 s under
                    // the sanitizers on a loaded machine, where 300 ms was once not enough).
                    QTRY_VERIFY2(headline->height() >= headline->heightForWidth(headline->width()),
                                 qPrintable(QStringLiteral("%1: the headline needs %2 px, has %3")
                                                .arg(config)
                                                .arg(headline->heightForWidth(headline->width()))
                                                .arg(headline->height())));
                    QVERIFY(w->view()->curve()->height() >= w->view()->curve()->minimumSizeHint().height());
                }
        // The side-by-side window the row opened, aligned on the op.
        QVERIFY(w->sideBySide());
        w->sideBySide()->resize(1600, 1000);
        QTest::qWait(50);
        if (!dir.isEmpty())
            w->sideBySide()->grab().save(dir + QStringLiteral("/op-diff-side-by-side.png"));
        resetAppearance();
    }
};

QTEST_MAIN(TestOpDiffWindow)
#include "tst_op_diff_window.moc"
