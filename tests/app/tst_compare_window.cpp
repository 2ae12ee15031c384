#include "AppTestSupport.h"
#include "ChangeColors.h"
#include "CompareWindow.h"
#include "MainWindow.h"
#include "StepCompareView.h"
#include "TestSupport.h"
#include "TimelineView.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

using namespace at;

// Issue 17: the compare window of one step on two ranks of one profile (the level-1 sample's rank 0
// and rank 1), as the user sees it.
class TestCompareWindow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    CompareWindow *m_compare = nullptr;

    StepCompareView *view() const { return m_compare->view(); }

    // Content y of the first device lane (a DeviceStreams process) of the pane's step's rank.
    int firstDeviceRowY(TimelineView *pane) const
    {
        const int group = (pane == view()->basePane() ? view()->baseStep() : view()->comparisonStep()).group;
        for (const LaneRow &row : pane->layout().rows()) {
            if (row.kind != LaneRow::Kind::ProcessHeader)
                continue;
            const ProcessInfo &p = pane->model()->processes()[static_cast<std::size_t>(row.process)];
            if (p.layer == Layer::DeviceStreams && p.group == group)
                return row.y;
        }
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::useScratchSettings(m_dir.filePath(QStringLiteral("settings")));
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(test::openAndWait(
            *m_window, test::samplePath(
                           QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"))));
    }

    void init()
    {
        const std::vector<StepChoice> choices = m_window->stepChoices();
        QCOMPARE(choices.size(), std::size_t(2)); // the step on rank 0 and on rank 1
        m_compare = m_window->compareSteps(choices[0], choices[1], false);
        QVERIFY(m_compare);
        m_compare->resize(1400, 950);
        QVERIFY(QTest::qWaitForWindowExposed(m_compare));
        QTest::qWait(20);
        if (qEnvironmentVariableIsSet("AT_SCREENSHOT_DIR"))
            m_compare->grab().save(qEnvironmentVariable("AT_SCREENSHOT_DIR") +
                                   QStringLiteral("/compare-window.png"));
    }

    void cleanup() { test::closeCompareWindows(); }
    void cleanupTestCase() { m_window.reset(); }

    void bothPanesAreColouredByTheChange()
    {
        const StepComparison &c = view()->comparison();
        QVERIFY(c.matched > 10);
        int checked = 0;
        for (const KernelPair &p : c.kernels) {
            if (!p.matched())
                continue;
            QCOMPARE(view()->basePane()->sliceColor(p.base), durationChangeColor(p));
            QCOMPARE(view()->comparisonPane()->sliceColor(p.comparison), durationChangeColor(p));
            ++checked;
        }
        QCOMPARE(checked, static_cast<int>(c.matched));
        // What a pane shows is its step's rank: no lane of the other rank with name colours.
        for (TimelineView *pane : {view()->basePane(), view()->comparisonPane()}) {
            const int group =
                (pane == view()->basePane() ? view()->baseStep() : view()->comparisonStep()).group;
            for (const LaneRow &row : pane->layout().rows())
                if (row.kind == LaneRow::Kind::ProcessHeader)
                    QCOMPARE(pane->model()->processes()[static_cast<std::size_t>(row.process)].group, group);
        }
        QVERIFY(view()->baseStep().group != view()->comparisonStep().group);
    }

    void bothPanesOpenOnTheDeviceLanes()
    {
        for (TimelineView *pane : {view()->basePane(), view()->comparisonPane()}) {
            const int device = firstDeviceRowY(pane);
            QVERIFY(device > 0);
            QCOMPARE(pane->verticalScrollBar()->value(),
                     std::min(device, pane->verticalScrollBar()->maximum()));
        }
    }

    void verticalScrollingIsSynchronised()
    {
        TimelineView *base = view()->basePane(), *other = view()->comparisonPane();
        base->verticalScrollBar()->setValue(base->verticalScrollBar()->value() - 30);
        const int baseShift = firstDeviceRowY(base) - base->verticalScrollBar()->value();
        QCOMPARE(firstDeviceRowY(other) - other->verticalScrollBar()->value(), baseShift);
        other->verticalScrollBar()->setValue(0);
        QCOMPARE(base->verticalScrollBar()->value(),
                 std::clamp(firstDeviceRowY(base) - firstDeviceRowY(other), 0,
                            base->verticalScrollBar()->maximum()));
    }

    void theSummaryNeverSplitsAValue()
    {
        QTextDocument html;
        html.setHtml(view()->summary()->text());
        const QString plain = html.toRawText(); // toPlainText() would turn no-break spaces into spaces
        const StepComparison &c = view()->comparison();
        for (const TimePair &t : {c.stepTime, c.computing, c.communication, c.free}) {
            for (const TimeNs ns : {t.base, t.comparison}) {
                QString value = formatDuration(ns);
                value.replace(QLatin1Char(' '), QChar(0x00A0));
                QVERIFY2(plain.contains(value), qPrintable(plain + QStringLiteral(" lacks ") + value));
            }
        }
    }

    void perKernelIsSortedByTheSizeOfTheChange()
    {
        QTableView *table = view()->kernelTable();
        QAbstractItemModel *model = table->model();
        QVERIFY(model->rowCount() > 10);
        const int diff = table->horizontalHeader()->sortIndicatorSection();
        QCOMPARE(model->headerData(diff, Qt::Horizontal).toString(), QStringLiteral("Diff"));
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        qlonglong previous = std::numeric_limits<qlonglong>::max();
        for (int r = 0; r < model->rowCount(); ++r) {
            const QVariant v = model->index(r, diff).data(Qt::UserRole);
            if (!v.isValid())
                continue; // unmatched kernels have no diff: last
            QVERIFY2(std::abs(v.toLongLong()) <= previous, qPrintable(QString::number(r)));
            previous = std::abs(v.toLongLong());
        }
    }

    void keysNavigateAfterClickingADiffRow()
    {
        QTableView *table = view()->kernelTable();
        const QRect row = table->visualRect(table->model()->index(3, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, row.center());
        QCOMPARE(table->currentIndex().row(), 3);
        const TimeRange before = view()->basePane()->zoom()->range();
        QTest::keyClick(table, Qt::Key_W);
        QCOMPARE(table->currentIndex().row(), 3); // not the type-ahead ("Write Value")
        QVERIFY(view()->basePane()->zoom()->range().width() < before.width());
        const TimeRange zoomed = view()->basePane()->zoom()->range();
        QTest::keyClick(table, Qt::Key_D);
        QVERIFY(view()->basePane()->zoom()->range().start > zoomed.start);
        QCOMPARE(table->currentIndex().row(), 3);
    }
};

QTEST_MAIN(TestCompareWindow)
#include "tst_compare_window.moc"
