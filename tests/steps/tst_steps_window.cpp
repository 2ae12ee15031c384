#include "AppTestSupport.h"
#include "CompareWindow.h"
#include "MainWindow.h"
#include "StepCompareView.h"
#include "Steps.h"
#include "StepsPanel.h"
#include "TestPaths.h"
#include "TestSupport.h"
#include "TiledTrace.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// Steps in the application: a three-step trace file (the real step tiled), the step list, [ and ],
// the compare dialog and window, and --compare-steps on the command line.
class TestStepsWindow : public QObject, protected test::WindowFixture
{
    Q_OBJECT
    QString m_threeSteps;

    static bool waitForLoad(MainWindow &window, const QString &path)
    {
        QSignalSpy spy(&window, &MainWindow::loadFinished);
        window.openPath(path);
        return spy.wait(60000) && spy.first().first().toBool();
    }

    static QString run(const QStringList &args, int *exitCode)
    {
        QProcess process;
        process.start(at::test::appBinary(), args);
        process.waitForFinished(60000);
        *exitCode = process.exitCode();
        return QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpWindowSuite());
        m_threeSteps = m_dir.filePath(QStringLiteral("three_steps.json"));
        QVERIFY(test::writeTiledSample(m_threeSteps, 3)); // one step a second
    }

    void init() { QVERIFY(openWindow(m_threeSteps)); }
    void cleanup() { closeWindow(); }

    void stepListShowsEveryStep()
    {
        const TraceModel *model = m_window->model();
        QCOMPARE(model->steps().size(), std::size_t(3));
        QTableWidget *table = m_window->steps()->table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("ProfilerStep#50"));
        QCOMPARE(table->item(2, 1)->text(), QStringLiteral("ProfilerStep#52"));
        // Each copy is the same step: same computing time in every row.
        QCOMPARE(table->item(0, 6)->text(), formatDuration(model->steps()[0].breakdown.computing));
        QCOMPARE(table->item(1, 6)->text(), table->item(0, 6)->text());
        // Activating a row fits the timeline to that step.
        emit table->itemActivated(table->item(1, 3));
        const TimeRange r = m_window->timeline()->zoom()->range();
        const Step &s = model->steps()[1];
        QVERIFY(r.start <= s.begin() && r.end >= s.end());
        QVERIFY(r.width() < s.duration() * 2);
    }

    void bracketKeysStepThroughSteps()
    {
        const auto &steps = m_window->model()->steps();
        TimelineView *timeline = m_window->timeline();
        m_window->showStep(0);
        timeline->setFocus();
        auto centredOn = [&](int i) {
            const TimeNs c = timeline->zoom()->range().center();
            return steps[static_cast<std::size_t>(i)].begin() <= c &&
                   c <= steps[static_cast<std::size_t>(i)].end();
        };
        QVERIFY(centredOn(0));
        QTest::keyClick(timeline, Qt::Key_BracketRight);
        QVERIFY(centredOn(1));
        QTest::keyClick(timeline, Qt::Key_BracketRight);
        QVERIFY(centredOn(2));
        QTest::keyClick(timeline, Qt::Key_BracketRight); // no step 53: stays
        QVERIFY(centredOn(2));
        QTest::keyClick(timeline, Qt::Key_BracketLeft);
        QVERIFY(centredOn(1));
        QCOMPARE(m_window->steps()->selectedSteps(), std::vector<int>{1});
    }

    void compareTwoStepsFromTheList()
    {
        QTableWidget *table = m_window->steps()->table();
        table->clearSelection();
        table->selectionModel()->select(table->model()->index(0, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        table->selectionModel()->select(table->model()->index(2, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QVERIFY(m_window->steps()->compareButton()->isEnabled());
        QTest::mouseClick(m_window->steps()->compareButton(), Qt::LeftButton);
        auto *dialog = m_window->findChild<CompareStepsDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->baseChooser()->currentText().endsWith(QStringLiteral("ProfilerStep#50")));
        QVERIFY(dialog->comparisonChooser()->currentText().endsWith(QStringLiteral("ProfilerStep#52")));
        dialog->accept();
        CompareWindow *compare = nullptr;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *c = qobject_cast<CompareWindow *>(w))
                compare = c;
        QVERIFY(compare);
        const StepComparison &c = compare->view()->comparison();
        QCOMPARE(c.onlyInBase + c.onlyInComparison, std::size_t(0));
        QCOMPARE(c.matched, m_window->model()->steps()[0].deviceTasks.size());
        QCOMPARE(compare->view()->comparisonStep().number, 52);
    }

    void compareWithAnotherOpenProfile()
    {
        // A second window with the level2 profile: its step is offered after this window's.
        MainWindow other;
        QVERIFY(waitForLoad(
            other, test::samplePath(QStringLiteral(
                       "msinsight_alexnet_1step_levels/test/data/pytorch/text/level2/rank0_ascend_pt"))));
        const std::vector<StepChoice> choices = m_window->stepChoices();
        QCOMPARE(choices.size(), std::size_t(4));
        QVERIFY(choices[3].label.startsWith(
            QStringLiteral("rank0_ascend_pt · Rank 0 / Device 0 · ProfilerStep#50")));
        CompareWindow *compare = m_window->compareSteps(choices[0], choices[3], false);
        QVERIFY(compare->view()->comparison().matched >= 180);
        // The compare window keeps the other profile alive after its window reloads.
        QVERIFY(waitForLoad(other, m_threeSteps));
        QVERIFY(compare->view()->comparisonStep().number == 50);
        QVERIFY(!compare->view()->comparisonPane()->model()->steps().empty());
        delete compare;
    }

    void commandLineCompare()
    {
        const QString byName = m_dir.filePath(QStringLiteral("by_name.csv"));
        const QString perKernel = m_dir.filePath(QStringLiteral("kernels.csv"));
        int code = -1;
        const QString out =
            run({QStringLiteral("--compare-steps"), QStringLiteral("50,52"), QStringLiteral("--csv"), byName,
                 QStringLiteral("--kernels-csv"), perKernel, m_threeSteps},
                &code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("Kernels: %1 matched, 0 only in base, 0 only in comparison")
                                  .arg(m_window->model()->steps()[0].deviceTasks.size())),
                 qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("ProfilerStep#52")));
        QFile names(byName), kernels(perKernel);
        QVERIFY(names.open(QIODevice::ReadOnly) && kernels.open(QIODevice::ReadOnly));
        QVERIFY(names.readLine().startsWith("Name,Base Count,Comparison Count"));
        QCOMPARE(kernels.readAll().count('\n'),
                 qsizetype(m_window->model()->steps()[0].deviceTasks.size() + 1));
        // Against another profile, and a step that does not exist.
        const QString level2 = test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level2/rank0_ascend_pt"));
        const QString against = run({QStringLiteral("--compare-steps"), QStringLiteral("51,50"),
                                     QStringLiteral("--against"), level2, m_threeSteps},
                                    &code);
        QCOMPARE(code, 0);
        QVERIFY(against.contains(QStringLiteral("Comparison: %1").arg(level2)));
        const QString missing =
            run({QStringLiteral("--compare-steps"), QStringLiteral("50,60"), m_threeSteps}, &code);
        QCOMPARE(code, 1);
        QVERIFY2(missing.contains(QStringLiteral("no step '60' (steps found: 0:50, 0:51, 0:52)")),
                 qPrintable(missing));
    }
};

QTEST_MAIN(TestStepsWindow)
#include "tst_steps_window.moc"
