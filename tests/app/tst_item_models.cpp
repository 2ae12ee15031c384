// Issue 27 item 5: QAbstractItemModelTester on every item model the real windows create (the main window
// on one rank, on a cluster, and the step compare window), while the models are exercised the way a user
// does: a range selected (statistics and slice list fill), every column sorted both ways, the filters
// typed into and cleared, the table choosers switched, the language switched to Chinese and back. The
// tester fails the test on any broken contract (bad parents, row counts, signals out of order, ...).
#include "AppTestSupport.h"
#include "CompareWindow.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "TimelineView.h"
#include "Translations.h"
#include "WindowFixture.h"

#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPointer>
#include <QSet>
#include <QTest>

#include <vector>

using namespace at;

class TestItemModels : public QObject, protected test::WindowFixture
{
    Q_OBJECT

    QSet<const QAbstractItemModel *> m_tested;
    // Deleted before the window: Qt's item-widget models reset themselves while being destroyed, when a
    // tester can no longer query them.
    std::vector<QPointer<QAbstractItemModelTester>> m_testers;
    QStringList m_testedClasses;

    static QList<QWidget *> windows()
    {
        QList<QWidget *> out;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (qobject_cast<MainWindow *>(w) || qobject_cast<CompareWindow *>(w))
                out << w;
        return out;
    }

    static QList<QAbstractItemModel *> modelsOfWindows()
    {
        QList<QAbstractItemModel *> models;
        for (QWidget *w : windows())
            models << w->findChildren<QAbstractItemModel *>();
        return models;
    }

    // Attaches a tester (owned by its model) to every model of the windows not tested yet: models made
    // later (a panel built on first show) are picked up by the next call.
    void attachTesters()
    {
        for (QAbstractItemModel *model : modelsOfWindows()) {
            // QTreeWidget's private model counts an item's children under every column, which the tester's
            // "second column has no children" check rejects: Qt's own, not a model of ours.
            if (m_tested.contains(model) || qstrcmp(model->metaObject()->className(), "QTreeModel") == 0)
                continue;
            m_tested.insert(model);
            m_testedClasses << QString::fromLatin1(model->metaObject()->className());
            connect(model, &QObject::destroyed, this, [this, model] { m_tested.remove(model); });
            m_testers.emplace_back(new QAbstractItemModelTester(
                model, QAbstractItemModelTester::FailureReportingMode::QtTest, model));
        }
    }

    // Lets queued work (background computations, deferred refreshes) reach the models.
    static void settle() { QTest::qWait(50); }

    // Every column of every model sorted ascending and descending (proxies re-sort; a source model that
    // sorts itself moves its rows), then back to the first column.
    void sortEveryColumn()
    {
        for (QAbstractItemModel *model : modelsOfWindows()) {
            const int columns = model->columnCount();
            for (int c = 0; c < columns; ++c) {
                model->sort(c, Qt::AscendingOrder);
                model->sort(c, Qt::DescendingOrder);
                if (QTest::currentTestFailed())
                    return;
            }
            if (columns > 0)
                model->sort(0, Qt::AscendingOrder);
        }
    }

    // Every editable line (filters, the search field) gets text that matches something, text that
    // matches nothing, and is cleared again.
    void typeIntoEveryFilter()
    {
        for (QWidget *w : windows())
            for (QLineEdit *edit : w->findChildren<QLineEdit *>()) {
                if (edit->isReadOnly() || !edit->isEnabled() ||
                    qobject_cast<QComboBox *>(edit->parentWidget()))
                    continue;
                for (const QString &text :
                     {QStringLiteral("a"), QStringLiteral("no such name \u00e9"), QString()}) {
                    edit->setText(text);
                    settle();
                    attachTesters();
                    if (QTest::currentTestFailed())
                        return;
                }
            }
    }

    // Every choice of every combo box (the summary table chooser, kernel filters, alignment, ...).
    void chooseEveryComboEntry()
    {
        for (QWidget *w : windows())
            for (QComboBox *combo : w->findChildren<QComboBox *>()) {
                if (!combo->isEnabled() || combo->isEditable())
                    continue;
                const int original = combo->currentIndex();
                for (int i = 0; i < combo->count(); ++i) {
                    combo->setCurrentIndex(i);
                    settle();
                    attachTesters();
                    if (QTest::currentTestFailed())
                        return;
                }
                combo->setCurrentIndex(original);
            }
    }

    void switchLanguage()
    {
        QVERIFY(setUiLanguage(QStringLiteral("zh_CN")));
        settle();
        attachTesters();
        QVERIFY(setUiLanguage(QStringLiteral("en")));
        settle();
    }

    // A range over the middle of the timeline's first lanes: statistics and the slice list fill.
    void selectRange(TimelineView *t)
    {
        const int left = t->timelineLeft(), width = t->viewport()->width() - left, y = 80;
        QTest::mousePress(t->viewport(), Qt::LeftButton, {}, QPoint(left + width / 4, y));
        QTest::mouseMove(t->viewport(), QPoint(left + width / 3, y));
        QTest::mouseMove(t->viewport(), QPoint(left + width / 2, y));
        QTest::mouseRelease(t->viewport(), Qt::LeftButton, {}, QPoint(left + width / 2, y));
        settle();
    }

    // The whole exercise on the windows open now.
    void exercise()
    {
        attachTesters();
        QVERIFY(!m_tested.isEmpty());
        sortEveryColumn();
        if (QTest::currentTestFailed())
            return;
        typeIntoEveryFilter();
        if (QTest::currentTestFailed())
            return;
        chooseEveryComboEntry();
        if (QTest::currentTestFailed())
            return;
        switchLanguage();
        if (QTest::currentTestFailed())
            return;
        sortEveryColumn();
    }

    // Fails unless a model of each of these classes was tested (so the test cannot pass by finding none).
    void expectTested(const QStringList &classes)
    {
        for (const QString &c : classes)
            QVERIFY2(m_testedClasses.contains(c), qPrintable(c + QStringLiteral(" not found among ") +
                                                             m_testedClasses.join(QStringLiteral(", "))));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }
    void init()
    {
        m_tested.clear();
        m_testedClasses.clear();
    }
    void cleanup()
    {
        for (const QPointer<QAbstractItemModelTester> &tester : m_testers)
            delete tester.data();
        m_testers.clear();
        closeWindow();
    }

    // One rank with kernel table, summary CSVs and memory data: every dock's model.
    void singleRank()
    {
        QVERIFY(openWindow(test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"))));
        attachTesters(); // before the range: the statistics models are tested while they fill
        selectRange(m_window->timeline());
        QVERIFY(m_window->timeline()->selectedRange().has_value());
        exercise();
        if (QTest::currentTestFailed())
            return;
        // Reopening replaces every model's contents (resets while the testers watch).
        QVERIFY(test::openAndWait(*m_window, test::level1Rank0Trace()));
        settle();
        attachTesters();
        expectTested({QStringLiteral("at::KernelTableModel"), QStringLiteral("at::KernelGroupModel"),
                      QStringLiteral("at::StatisticsModel"), QStringLiteral("at::RangeSliceListModel"),
                      QStringLiteral("at::SummaryTableModel"), QStringLiteral("at::MemoryAllocationModel"),
                      QStringLiteral("QSortFilterProxyModel")});
    }

    // The cluster page of the four-rank Qwen3 profile (summary files: opened at once).
    void cluster()
    {
        QVERIFY(showWindow());
        m_window->openPath(
            test::samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2")));
        QVERIFY(m_window->showsOverview()); // a cluster opens on its Overview
        m_window->showClusterPage();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->showsCluster() && !m_window->isLoading(), 60000);
        settle();
        exercise();
        if (QTest::currentTestFailed())
            return;
        expectTested({QStringLiteral("QStandardItemModel")});
    }

    // The compare window of the level-1 step on rank 0 against rank 1.
    void stepCompare()
    {
        QVERIFY(openWindow(test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"))));
        attachTesters();
        const std::vector<StepChoice> choices = m_window->stepChoices();
        QCOMPARE(choices.size(), std::size_t(2));
        CompareWindow *compare = m_window->compareSteps(choices[0], choices[1], false);
        QVERIFY(compare);
        compare->resize(1400, 950);
        QVERIFY(QTest::qWaitForWindowExposed(compare));
        settle();
        exercise();
        if (QTest::currentTestFailed())
            return;
        expectTested({QStringLiteral("at::ComparisonTableModel")});
    }
};

QTEST_MAIN(TestItemModels)
#include "tst_item_models.moc"
