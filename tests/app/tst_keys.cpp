#include "AppTestSupport.h"
#include "Commands.h"
#include "CompareWindow.h"
#include "DetailsPanel.h"
#include "MainWindow.h"
#include "MarkerList.h"
#include "MarkersPanel.h"
#include "SearchBar.h"
#include "ShortcutsDialog.h"
#include "StepCompareView.h"
#include "StepsPanel.h"
#include "TestPaths.h"
#include "TimelineView.h"
#include "Translations.h"
#include "WindowFixture.h"

#include <QAction>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMenuBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// Keys through the real windows: the command registry binds them once; held w/s/a/d advance by the
// time held in the main window and in the compare window, wherever the focus is (but a text field).
class TestKeys : public QObject, protected test::WindowFixture
{
    Q_OBJECT
    QString m_threeSteps;

    // Press, auto-repeat press or release, as the window system delivers them (shortcut map first).
    static void key(QWidget *receiver, Qt::Key k, bool press, bool autoRepeat)
    {
        QTest::simulateEvent(receiver, press, k, Qt::NoModifier, QString(QChar(k)).toLower(), autoRepeat);
    }

    // Zoomed in on the middle, so that panning has room both ways.
    static TimeRange zoomedIn(TimelineView *view)
    {
        view->showAll();
        const TimeRange all = view->zoom()->range();
        view->zoom()->zoom(8.0, all.start + all.width() / 2);
        return view->zoom()->range();
    }

    static double pannedSteps(const TimeRange &from, const TimeRange &to)
    {
        return static_cast<double>(to.start - from.start) /
               (ZoomController::kPanFraction * static_cast<double>(from.width()));
    }

    // Holds d for ~0.5 s of repeats 50 ms apart on receiver; returns the steps the view should have
    // moved, timed between the same events as the view times them (so a stall changes the
    // expectation, not the verdict).
    static double holdD(QWidget *receiver)
    {
        QElapsedTimer clock;
        key(receiver, Qt::Key_D, true, false);
        clock.start();
        double steps = 1;
        for (int i = 0; i < 10; ++i) {
            QTest::qWait(50);
            steps += std::min(static_cast<double>(clock.restart()) / 33.0, 8.0);
            key(receiver, Qt::Key_D, true, true);
        }
        key(receiver, Qt::Key_D, false, false);
        return steps;
    }

    static bool near(double panned, double expected)
    {
        return panned > 0.7 * expected && panned < 1.3 * expected + 1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpWindowSuite());
        m_threeSteps = m_dir.filePath(QStringLiteral("three_steps.json"));
        QVERIFY(test::writeTiledSample(m_threeSteps, 3));
    }

    void init() { QVERIFY(openWindow(m_threeSteps)); }

    void cleanup() { closeWindow(); }

    void heldKeyAdvancesByElapsedTimeInTheWindow()
    {
        TimelineView *t = m_window->timeline();
        // From the timeline and from another panel: the window binds the keys for all of them.
        for (QWidget *receiver : {static_cast<QWidget *>(t), static_cast<QWidget *>(m_window->details())}) {
            receiver->setFocus();
            const TimeRange start = zoomedIn(t);
            const double expected = holdD(receiver);
            const double panned = pannedSteps(start, t->zoom()->range());
            QVERIFY2(near(panned, expected), qPrintable(QStringLiteral("%1 steps for %2 expected from %3")
                                                            .arg(panned)
                                                            .arg(expected)
                                                            .arg(receiver->metaObject()->className())));
        }
    }

    void floatingDockStillDrivesTheTimeline()
    {
        TimelineView *t = m_window->timeline();
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("DetailsDock"));
        dock->setFloating(true);
        QVERIFY(dock->isWindow());
        const TimeRange start = zoomedIn(t);
        m_window->details()->setFocus();
        key(m_window->details(), Qt::Key_D, true, false);
        key(m_window->details(), Qt::Key_D, false, false);
        QVERIFY(std::abs(pannedSteps(start, t->zoom()->range()) - 1.0) < 1e-6);
        dock->setFloating(false);
    }

    void burstOfRepeatsCoalescesAndAStallIsCapped()
    {
        TimelineView *t = m_window->timeline();
        t->setFocus();
        TimeRange start = zoomedIn(t);
        // 40 repeats delivered at once (as after a slow frame): they add up to the time held (~0).
        key(t, Qt::Key_D, true, false);
        for (int i = 0; i < 40; ++i)
            key(t, Qt::Key_D, true, true);
        key(t, Qt::Key_D, false, false);
        double panned = pannedSteps(start, t->zoom()->range());
        QVERIFY2(panned >= 1.0 && panned < 3.0, qPrintable(QString::number(panned)));
        // One repeat after a 0.5 s stall moves at most the cap (8 steps), not 15.
        start = zoomedIn(t);
        key(t, Qt::Key_D, true, false);
        QTest::qWait(500);
        key(t, Qt::Key_D, true, true);
        key(t, Qt::Key_D, false, false);
        panned = pannedSteps(start, t->zoom()->range());
        QVERIFY2(std::abs(panned - 9.0) < 1e-6, qPrintable(QString::number(panned)));
    }

    void releaseEndsTheHold()
    {
        TimelineView *t = m_window->timeline();
        t->setFocus();
        const TimeRange start = zoomedIn(t);
        key(t, Qt::Key_D, true, false);
        QTest::qWait(40);
        key(t, Qt::Key_D, true, true);
        // X11 sends auto-repeat as release + press pairs: such a release does not end the hold.
        key(t, Qt::Key_D, false, true);
        key(t, Qt::Key_D, false, false);
        const TimeRange released = t->zoom()->range();
        QTest::qWait(300);
        QCoreApplication::processEvents();
        QCOMPARE(t->zoom()->range(), released);
        // A late repeat after the release starts a new hold: one step, not the 300 ms since.
        key(t, Qt::Key_D, true, true);
        key(t, Qt::Key_D, false, false);
        const double after = pannedSteps(start, t->zoom()->range()) - pannedSteps(start, released);
        QVERIFY2(std::abs(after - 1.0) < 1e-6, qPrintable(QString::number(after)));
    }

    void textFieldsKeepTheirLetters()
    {
        TimelineView *t = m_window->timeline();
        const TimeRange start = zoomedIn(t);
        // The find bar.
        QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
        QLineEdit *find = m_window->searchBar()->lineEdit();
        QVERIFY(find->hasFocus());
        for (Qt::Key k : {Qt::Key_W, Qt::Key_A, Qt::Key_S, Qt::Key_D}) {
            key(find, k, true, false);
            key(find, k, false, false);
        }
        QCOMPARE(find->text(), QStringLiteral("wasd"));
        QCOMPARE(t->zoom()->range(), start);
        // A marker's name being edited in the Markers table.
        m_window->markers()->add({QStringLiteral("m"), 1'000'000, 2'000'000, 0xE6550D});
        QTableView *table = m_window->markersPanel()->table();
        m_window->findChild<QDockWidget *>(QStringLiteral("MarkersDock"))->raise();
        table->setFocus();
        table->edit(table->model()->index(0, 0));
        auto *editor = qobject_cast<QLineEdit *>(QApplication::focusWidget());
        QVERIFY(editor);
        key(editor, Qt::Key_D, true, false);
        key(editor, Qt::Key_D, false, false);
        QCOMPARE(t->zoom()->range(), start);
        QVERIFY(editor->text().endsWith(QLatin1Char('d')));
    }

    void arrowKeysStayWithItemViews()
    {
        // Arrows and Esc act only in the timeline itself; a table keeps them for its rows.
        TimelineView *t = m_window->timeline();
        const TimeRange start = zoomedIn(t);
        QTableWidget *steps = m_window->steps()->table();
        m_window->findChild<QDockWidget *>(QStringLiteral("StepsDock"))->raise();
        steps->setFocus();
        steps->setCurrentCell(0, 0);
        key(steps, Qt::Key_Down, true, false);
        key(steps, Qt::Key_Down, false, false);
        QCOMPARE(steps->currentRow(), 1);
        QCOMPARE(t->zoom()->range(), start);
        // In the timeline they navigate.
        t->setFocus();
        key(t, Qt::Key_Right, true, false);
        key(t, Qt::Key_Right, false, false);
        QVERIFY(std::abs(pannedSteps(start, t->zoom()->range()) - 1.0) < 1e-6);
    }

    void menuEntriesShowTheKeysAndRunOneStep()
    {
        TimelineView *t = m_window->timeline();
        auto *zoomIn = m_window->findChild<QAction *>(QStringLiteral("view.zoomIn"));
        QVERIFY(zoomIn);
        // Bound by the timeline's key handling, not as a shortcut (which would hide the repeats).
        QVERIFY(zoomIn->shortcuts().isEmpty());
        QVERIFY(zoomIn->text().endsWith(QStringLiteral("\tW")));
        const TimeNs width = zoomedIn(t).width();
        zoomIn->trigger();
        const double factor = static_cast<double>(width) / static_cast<double>(t->zoom()->range().width());
        QVERIFY(std::abs(factor - ZoomController::kZoomStep) < 1e-3);
        // Every menu command of the registry has its action, and every action of the menus is a command.
        for (const Command &c : commands())
            if (c.scope == CommandScope::File || c.scope == CommandScope::View ||
                c.scope == CommandScope::Help || c.scope == CommandScope::Panels)
                QVERIFY2(m_window->findChild<QAction *>(QString::fromLatin1(c.id)), c.id);
        for (const QMenu *menu : m_window->menuBar()->findChildren<QMenu *>()) {
            for (const QAction *a : menu->actions()) {
                if (a->menu() || a->isSeparator() || menu->title() == QStringLiteral("Open &Recent"))
                    continue;
                QVERIFY2(qstrcmp(command(qPrintable(a->objectName())).id, qPrintable(a->objectName())) == 0,
                         qPrintable(a->text()));
            }
        }
    }

    void everyPanelIsRegisteredWithItsToggle()
    {
        for (const char *name : {"DetailsDock", "StatisticsDock", "KernelsDock", "TablesDock", "ChartsDock",
                                 "StepsDock", "MarkersDock", "CollectionDock"}) {
            auto *dock = m_window->findChild<QDockWidget *>(QString::fromLatin1(name));
            QVERIFY2(dock, name);
            QAction *toggle = dock->toggleViewAction();
            QVERIFY(toggle->objectName().startsWith(QStringLiteral("panel.")));
            QCOMPARE(dock->windowTitle(), commandTitle(command(qPrintable(toggle->objectName()))));
        }
        auto *details = m_window->findChild<QDockWidget *>(QStringLiteral("DetailsDock"));
        details->toggleViewAction()->trigger();
        QVERIFY(!details->isVisible());
        details->toggleViewAction()->trigger();
        QVERIFY(details->isVisible());
    }

    void heldKeyInTheCompareWindow()
    {
        const std::vector<StepChoice> choices = m_window->stepChoices();
        QCOMPARE(choices.size(), std::size_t(3));
        CompareWindow *compare = m_window->compareSteps(choices[0], choices[1], false);
        QVERIFY(QTest::qWaitForWindowExposed(compare));
        StepCompareView *view = compare->view();
        for (TimelineView *pane : {view->basePane(), view->comparisonPane()}) {
            // Keys go to the focused pane; the other follows it.
            pane->setFocus();
            const TimeRange start = zoomedIn(pane);
            const double expected = holdD(pane);
            const double panned = pannedSteps(start, pane->zoom()->range());
            QVERIFY2(near(panned, expected),
                     qPrintable(QStringLiteral("%1 steps for %2").arg(panned).arg(expected)));
            TimelineView *other = pane == view->basePane() ? view->comparisonPane() : view->basePane();
            QCOMPARE(other->zoom()->range().width(), pane->zoom()->range().width());
        }
        // From the diff table too (not a text field).
        view->nameTable()->setFocus();
        const TimeRange start = zoomedIn(view->basePane());
        key(view->nameTable(), Qt::Key_D, true, false);
        key(view->nameTable(), Qt::Key_D, false, false);
        QVERIFY(std::abs(pannedSteps(start, view->basePane()->zoom()->range()) - 1.0) < 1e-6);
    }

    void noKeyIsBoundTwice()
    {
        // Window-wide commands (menus, the timeline's keys) share one key space.
        QHash<QKeySequence, QString> owner;
        for (const Command &c : commands()) {
            if (c.scope != CommandScope::File && c.scope != CommandScope::View &&
                c.scope != CommandScope::Help && c.scope != CommandScope::Timeline)
                continue;
            for (const QKeySequence &k : commandKeys(c)) {
                if (k.isEmpty())
                    continue;
                QVERIFY2(!owner.contains(k), qPrintable(k.toString() + QStringLiteral(": ") + owner.value(k) +
                                                        QStringLiteral(" and ") + QString::fromLatin1(c.id)));
                owner.insert(k, QString::fromLatin1(c.id));
            }
        }
    }

    void helpDialogAndReadmeComeFromTheRegistry()
    {
        ShortcutsDialog dialog;
        QCOMPARE(dialog.table()->rowCount(), static_cast<int>(commands().size()));
        for (int r = 0; r < dialog.table()->rowCount(); ++r) {
            const Command &c = commands()[static_cast<std::size_t>(r)];
            QCOMPARE(dialog.table()->item(r, 0)->text(), commandTitle(c));
            QCOMPARE(dialog.table()->item(r, 1)->text(), commandKeysText(c));
        }
        // README's key table is commandsMarkdownTable() between its two markers.
        QFile readme((at::test::sourceDir() + QStringLiteral("/README.md")));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        const QString begin =
            QStringLiteral("<!-- commands table: generated from widgets/Commands.cpp -->\n");
        const QString end = QStringLiteral("<!-- end of commands table -->");
        const qsizetype from = text.indexOf(begin), to = text.indexOf(end);
        QVERIFY(from >= 0 && to > from);
        const QString table = text.mid(from + begin.size(), to - from - begin.size());
        if (table != commandsMarkdownTable())
            qWarning().noquote() << "README.md's key table should be:\n" << commandsMarkdownTable();
        QCOMPARE(table, commandsMarkdownTable());
    }

    // The mouse gestures are in the registry too (issue 17): Help ▸ Keyboard Shortcuts lists Ctrl+drag
    // (a range on the lanes crossed), Shift+Wheel and the all-zero counters row, in the UI language.
    void mouseGesturesAreListed()
    {
        auto rowOf = [](const ShortcutsDialog &dialog, const QString &keys) {
            for (int r = 0; r < dialog.table()->rowCount(); ++r)
                if (dialog.table()->item(r, 1)->text() == keys)
                    return r;
            return -1;
        };
        {
            ShortcutsDialog dialog;
            for (const char *keys :
                 {"Ctrl+drag across lanes", "Shift+Wheel, horizontal wheel", "Middle drag, Shift+drag",
                  "Drag across the timeline", "Drag a process header up or down",
                  "Click an \"all-zero series hidden\" row"})
                QVERIFY2(rowOf(dialog, QString::fromUtf8(keys)) >= 0, keys);
            const int row = rowOf(dialog, QStringLiteral("Ctrl+drag across lanes"));
            QCOMPARE(dialog.table()->item(row, 0)->text(), QStringLiteral("Select a Range on Chosen Lanes"));
            QVERIFY(dialog.table()->item(row, 0)->toolTip().contains(QStringLiteral("tinted")));
            QCOMPARE(commandKeysText(command("mouse.rangeLanes")), QStringLiteral("Ctrl+drag across lanes"));
        }
        QVERIFY(setUiLanguage(QStringLiteral("zh_CN")));
        ShortcutsDialog chinese;
        const int row = rowOf(chinese, QStringLiteral("Ctrl+跨泳道拖动"));
        setUiLanguage(QStringLiteral("en"));
        QVERIFY(row >= 0);
        QCOMPARE(chinese.table()->item(row, 0)->text(), QStringLiteral("在选定泳道上选择区间"));
    }
};

QTEST_MAIN(TestKeys)
#include "tst_keys.moc"
