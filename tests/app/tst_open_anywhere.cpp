// Issue #28 item 4, through the real main window: held w zooms at a capped speed, Find zooms to a
// slice that would be thinner than a few pixels, and the open dialogs take profiling folders.

#include "KernelTablePanel.h"
#include "SearchBar.h"
#include "TestSupport.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLineEdit>
#include <QPointer>
#include <QSignalSpy>
#include <QTimer>

#include <cmath>

using namespace at;

namespace {

// The result folder that level1Rank0Trace() is in: trace, kernel details and memory together.
QString level1Rank0Folder()
{
    return test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
}

// Types path into the next modal file dialog's name field, as a user does, and presses Open.
void answerNextFileDialog(const QString &path)
{
    auto *poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, path] {
        auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        poll->stop();
        poll->deleteLater();
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
        QVERIFY(name);
        name->setText(path);
        QMetaObject::invokeMethod(dialog, "accept"); // a public slot of QDialog
    });
    poll->start();
}

double pixelWidth(TimelineView *view, TimeNs duration)
{
    const double lanes = view->viewport()->width() - view->timelineLeft();
    return static_cast<double>(duration) * lanes / static_cast<double>(view->zoom()->range().width());
}

} // namespace

class TestOpenAnywhere : public QObject, protected test::WindowFixture
{
    Q_OBJECT

    static void key(QWidget *receiver, Qt::Key k, bool press, bool autoRepeat)
    {
        QTest::simulateEvent(receiver, press, k, Qt::NoModifier, QString(QChar(k)).toLower(), autoRepeat);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }
    void init() { QVERIFY(openWindow(test::level1Rank0Trace())); }
    void cleanup() { closeWindow(); }

    void heldZoomKeyStaysUnderItsSpeedLimit()
    {
        TimelineView *t = m_window->timeline();
        t->showAll();
        t->setFocus();
        const double before = static_cast<double>(t->zoom()->range().width());
        // Held w for ~2 s, repeats every 30 ms: the view measures the same clock.
        QElapsedTimer held;
        key(t, Qt::Key_W, true, false);
        held.start();
        while (held.elapsed() < 2000) {
            QTest::qWait(30);
            key(t, Qt::Key_W, true, true);
        }
        const double seconds = static_cast<double>(held.elapsed()) / 1000.0;
        key(t, Qt::Key_W, false, false);
        const double factor = before / static_cast<double>(t->zoom()->range().width());
        // The press's step, then at most ~4.5x in the first second and 10x a second after it.
        const double limit =
            ZoomController::kZoomStep *
            std::sqrt(TimelineView::kHeldZoomStartPerSecond * TimelineView::kHeldZoomMaxPerSecond) *
            std::pow(TimelineView::kHeldZoomMaxPerSecond, seconds - 1);
        QVERIFY2(
            factor <= limit * 1.001,
            qPrintable(QStringLiteral("zoomed %1x in %2 s, limit %3x").arg(factor).arg(seconds).arg(limit)));
        // It did zoom, and faster than single presses at that rate would not.
        QVERIFY2(factor > 5, qPrintable(QString::number(factor)));
        // Released: the next press is one step again.
        const double width = static_cast<double>(t->zoom()->range().width());
        QTest::keyClick(t, Qt::Key_W);
        QVERIFY(std::abs(width / static_cast<double>(t->zoom()->range().width()) -
                         ZoomController::kZoomStep) < 1e-3);
    }

    void findZoomsToASliceThinnerThanAFewPixels()
    {
        TimelineView *t = m_window->timeline();
        t->showAll();
        const TraceModel &model = *m_window->model();
        // The shortest named slice with a duration: a sub-pixel line at full view.
        SliceRef shortest;
        TimeNs duration = 0;
        for (std::size_t i = 0; i < model.threads().size(); ++i) {
            const SliceTable &s = model.threads()[i].slices;
            for (std::uint32_t k = 0; k < s.size(); ++k)
                if (s.duration(k) > 0 && (!shortest.isValid() || s.duration(k) < duration)) {
                    shortest = {static_cast<int>(i), k};
                    duration = s.duration(k);
                }
        }
        QVERIFY(shortest.isValid());
        QVERIFY2(pixelWidth(t, duration) < 1, qPrintable(QString::number(pixelWidth(t, duration))));
        // Find it by its name, as a user does (Enter on the first match).
        SearchBar *find = m_window->searchBar();
        find->activate();
        find->lineEdit()->setText(model.sliceName(shortest));
        find->runSearch();
        find->next();
        const SliceRef found = t->state()->selection();
        QVERIFY(found.isValid());
        const TimeNs foundDuration =
            model.threads()[static_cast<std::size_t>(found.thread)].slices.duration(found.index);
        QVERIFY2(pixelWidth(t, foundDuration) >= 4,
                 qPrintable(QStringLiteral("%1 px").arg(pixelWidth(t, foundDuration))));
        // Its middle is in the middle of the view.
        const TimeNs start =
            model.threads()[static_cast<std::size_t>(found.thread)].slices.start(found.index);
        const TimeRange r = t->zoom()->range();
        QVERIFY(start >= r.start && start + foundDuration <= r.end);
        // Undo zoom goes back to the view the Find started from.
        const TimeNs full = r.width();
        t->undoZoom();
        QVERIFY(t->zoom()->range().width() > full);
        // Zoomed in further than needed, going to it again (what Find calls) keeps that zoom.
        t->selectSlice(found, true);
        QCOMPARE(t->zoom()->range().width(), r.width());
        t->zoom()->zoom(4.0, start);
        const TimeNs width = t->zoom()->range().width();
        QVERIFY(width < r.width());
        t->selectSlice(found, true);
        QCOMPARE(t->zoom()->range().width(), width);
    }

    void openInNewWindowTakesAFolder()
    {
        // A trace file alone has no kernel details: the folder brings them.
        QVERIFY(m_window->model()->kernels().empty());
        auto *action = m_window->findChild<QAction *>(QStringLiteral("file.openInNewWindow"));
        QVERIFY(action);
        const QList<MainWindow *> before = MainWindow::openWindows();
        answerNextFileDialog(level1Rank0Folder());
        action->trigger();
        QPointer<MainWindow> opened;
        for (MainWindow *w : MainWindow::openWindows())
            if (!before.contains(w))
                opened = w;
        QVERIFY(opened);
        QSignalSpy loaded(opened.data(), &MainWindow::loadFinished);
        QVERIFY(!loaded.isEmpty() || loaded.wait(60000));
        QVERIFY(loaded.first().first().toBool());
        QCOMPARE(opened->currentPath(), level1Rank0Folder());
        QVERIFY(!opened->model()->kernels().empty());
        delete opened.data();
    }

    void openTakesAFolderAndStillAFile()
    {
        auto *action = m_window->findChild<QAction *>(QStringLiteral("file.open"));
        QVERIFY(action);
        QSignalSpy loaded(m_window.get(), &MainWindow::loadFinished);
        answerNextFileDialog(level1Rank0Folder());
        action->trigger();
        QVERIFY(!loaded.isEmpty() || loaded.wait(60000));
        QVERIFY(loaded.takeFirst().first().toBool());
        QCOMPARE(m_window->currentPath(), level1Rank0Folder());
        QVERIFY(!m_window->model()->kernels().empty());
        // A file is still a file.
        answerNextFileDialog(test::level1Rank0Trace());
        action->trigger();
        QVERIFY(!loaded.isEmpty() || loaded.wait(60000));
        QVERIFY(loaded.takeFirst().first().toBool());
        QCOMPARE(m_window->currentPath(), test::level1Rank0Trace());
        QVERIFY(m_window->model()->kernels().empty());
    }
};

QTEST_MAIN(TestOpenAnywhere)
#include "tst_open_anywhere.moc"
