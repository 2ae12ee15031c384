// The host- or device-bound verdicts on the cluster page through the real window (issue #32): "Host or Device
// Bound?" loads the named ranks' timelines in the background, the comm_bound finding appears in Findings, and
// double-clicking its occurrence asks for the slow and the fast rank on one timeline at the op.
#include "AppTestSupport.h"
#include "CommBoundCluster.h"

#include "cluster/ClusterView.h"

#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::test;

class TstCommBoundPage : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private Q_SLOTS:
    void initTestCase() { useScratchSettings(m_settings.path()); }

    void verdictsOpenTheirRanks()
    {
        QTemporaryDir dir;
        writeCommBoundCluster(dir.path(), CommBoundCase::HostLate, true);
        auto window = std::make_unique<MainWindow>();
        window->setLoadOptions(environmentLoadOptions());
        window->resize(1600, 1000);
        window->show();
        window->openPath(dir.path());
        window->showClusterPage();
        QVERIFY(window->showsCluster());
        ClusterView *view = window->clusterView();
        const auto commBoundItem = [view]() -> QListWidgetItem * {
            for (int i = 0; i < view->findings()->count(); ++i)
                if (view->findings()->item(i)->text().contains(QStringLiteral("— host-bound: rank 2")))
                    return view->findings()->item(i);
            return nullptr;
        };
        QVERIFY(!commBoundItem()); // nothing loaded, nothing judged
        QVERIFY(view->commBoundButton()->isEnabled());
        QTest::mouseClick(view->commBoundButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(commBoundItem() != nullptr, 30000);
        QVERIFY(view->commBoundButton()->isEnabled());
        QListWidgetItem *item = commBoundItem();
        QVERIFY2(item->text().contains(QStringLiteral("hcom_allReduce__001_0_1")), qPrintable(item->text()));
        QVERIFY(item->text().contains(QStringLiteral("rank 2 arrived 1.000 ms after rank 0")));
        QSignalSpy requested(view, &ClusterView::ranksOpenRequested);
        QSignalSpy finished(window.get(), &MainWindow::loadFinished);
        Q_EMIT view->findings()->itemActivated(item);
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.last().first().value<QList<int>>(), (QList<int>{kCommBoundSlowRank, 0}));
        QCOMPARE(requested.last().at(1).toString(), QStringLiteral("hcom_allReduce__001_0_1"));
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.last().first().toBool());
        QCOMPARE(window->model()->groups().size(), std::size_t(2));
    }
};

QTEST_MAIN(TstCommBoundPage)
#include "tst_comm_bound_page.moc"
