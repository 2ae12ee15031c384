// A 256-rank job generated from the real Qwen3 sample's summary files (tests/bench/ClusterJobGenerator.h:
// tp 8 × pp 4 × dp 8, one slow rank, one slow link), analysed and shown on the cluster page of the real
// window. Timings belong to tests/bench (bench_cluster, bench_cluster_page), not here.
#include "AppTestSupport.h"
#include "ClusterJobGenerator.h"
#include "TestPaths.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QAbstractItemModel>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QStackedBarSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace at;
using namespace at::cluster;

class TstClusterScale : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;
    QTemporaryDir m_dir;
    bench::GeneratedClusterJob m_job;
    ClusterModel m_model; // the job read once, for the tests that read no window

private Q_SLOTS:
    void initTestCase()
    {
        test::useScratchSettings(m_settings.path());
        QVERIFY(m_dir.isValid());
        QString error;
        const auto job = bench::generateClusterJob(m_dir.path(), 256,
                                                   bench::qwen3SampleLevel2(at::test::samplesDir()), &error);
        QVERIFY2(job, qPrintable(error));
        m_job = *job;
        QCOMPARE(m_job.dp, 8);
        m_model = readCluster(m_dir.path());
    }

    // Every rank, group and stage read; the ops land in the generated groups.
    void readsTheLayout()
    {
        const ClusterModel &model = m_model;
        QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), std::size_t(256));
        // The world, 32 tp groups of 8, 32 dp groups of 8, 64 pp groups of 4.
        QCOMPARE(model.groups.size(), std::size_t(1 + 32 + 32 + 64));
        QCOMPARE(model.groupsNamed(QStringLiteral("pp")).size(), std::size_t(64));
        QCOMPARE(model.distributed.tp, 8);
        QCOMPARE(model.distributed.pp, 4);
        QCOMPARE(model.distributed.dp, 8);
        for (const Rank &r : model.ranks) {
            QCOMPARE(r.stage, r.rank / 64); // rank = tp + 8 · (dp + 8 · pp)
            QVERIFY(!r.steps.empty());
            QVERIFY(!r.ops.empty());
            for (const CommOp &op : r.ops) {
                if (op.total)
                    continue;
                const ParallelGroup *g = model.groupByHash(op.group);
                QVERIFY2(g, qPrintable(op.name + QLatin1Char('@') + op.group));
                QVERIFY(std::binary_search(g->globalRanks.begin(), g->globalRanks.end(), r.rank));
            }
            for (const MatrixLink &l : r.links) {
                QVERIFY(l.src >= 0 && l.dst >= 0); // the local ranks resolved through the group
                QCOMPARE(l.src, r.rank);           // each rank writes its own outgoing links
            }
        }
    }

    // The slow rank and the slow link are found, and only them; the collectives that wait, wait for the
    // slow rank.
    void findsTheSlowRankAndTheSlowLinkOnly()
    {
        const ClusterModel &model = m_model;
        const std::vector<SlowRank> slow = findSlowRanks(model);
        QCOMPARE(slow.size(), std::size_t(1));
        QCOMPARE(slow.front().rank, m_job.slowRank);
        QCOMPARE(slow.front().dimension, Dimension::Computing);
        QVERIFY(std::abs(slow.front().gap - 60'000'000) < 1'000'000); // +60 ms, the perturbation aside
        const std::vector<SlowLink> links = findSlowLinks(model);
        QCOMPARE(links.size(), std::size_t(1));
        QCOMPARE(links.front().src, m_job.slowLinkSrc);
        QCOMPARE(links.front().dst, m_job.slowLinkDst);
        QVERIFY(links.front().bandwidthGbps < links.front().medianGbps / 2.5); // transit time × 3
        // The injected waits (60 ms): the other ranks of the slow rank's tp group and dp group, each in a
        // collective that waits for the slow rank. (The sample's synchronisation-only collectives, a wait
        // ratio of 1 on every rank of a group, stay as the sample has them.)
        std::set<int> expected;
        const int tpFirst = m_job.slowRank / 8 * 8;
        for (int r = tpFirst; r < tpFirst + 8; ++r)
            expected.insert(r);
        const int stageFirst = m_job.slowRank / (8 * m_job.dp) * 8 * m_job.dp;
        for (int d = 0; d < m_job.dp; ++d)
            expected.insert(stageFirst + d * 8 + m_job.slowRank % 8);
        expected.erase(m_job.slowRank);
        QCOMPARE(expected.size(), std::size_t(14));
        std::set<int> longWaiters;
        for (const CollectiveWait &w : findWaits(model))
            for (const CollectiveWait::Waiter &x : w.waiting)
                if (x.wait >= 55'000'000) {
                    longWaiters.insert(x.rank);
                    QCOMPARE(w.waitedFor, m_job.slowRank);
                }
        QCOMPARE(longWaiters, expected);
    }

    // The cluster page of the real window: 256 rows, a readable chart, and the matrix's choosers narrowing
    // the matrix to one group.
    void pageShowsEveryRankAndTheMatrixChooserWorks()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(m_dir.path());
        QVERIFY(window.showsOverview());
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QCoreApplication::processEvents();
        ClusterView *view = window.clusterView();
        QCOMPARE(view->rankTable()->model()->rowCount(), 256);
        QCOMPARE(view->stepHeatMap()->rowCount(), 256);
        // The chart: the 6 slowest ranks (the slow rank first), the median rank and the fastest: 8 bars.
        QChart *chart = view->breakdownChart()->chart();
        auto *x = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(x->count(), 8);
        QCOMPARE(x->at(0), QString::number(m_job.slowRank));
        auto *series = qobject_cast<QStackedBarSeries *>(chart->series().value(0));
        QVERIFY(series);
        QCOMPARE(series->barSets().first()->count(), 8);

        // All groups: every rank that has a link is a row of the matrix.
        QCOMPARE(view->matrixGroupChooser()->currentIndex(), 0);
        QCOMPARE(view->matrixHeatMap()->rowCount(), 256);
        // The slow link's dp group: its 8 ranks, the slow link the slowest cell of the group.
        const std::vector<int> &ranks = view->matrixRanks();
        QString dpHash;
        const ClusterModel *model = view->model();
        for (const ParallelGroup &g : model->groups)
            if (g.name == QLatin1String("dp") &&
                std::binary_search(g.globalRanks.begin(), g.globalRanks.end(), m_job.slowLinkSrc))
                dpHash = g.hash;
        const int at = view->matrixGroupChooser()->findData(dpHash);
        QVERIFY(at > 0);
        view->matrixGroupChooser()->setCurrentIndex(at);
        QCoreApplication::processEvents();
        QCOMPARE(view->matrixHeatMap()->rowCount(), 8);
        const auto row = std::find(ranks.begin(), ranks.end(), m_job.slowLinkSrc) - ranks.begin();
        const auto column = std::find(ranks.begin(), ranks.end(), m_job.slowLinkDst) - ranks.begin();
        QVERIFY(row < 8 && column < 8);
        const std::optional<double> slowCell = view->matrixHeatMap()->value(int(row), int(column));
        QVERIFY(slowCell);
        QCOMPARE(*slowCell, view->matrixHeatMap()->minimum());
        QVERIFY(*slowCell < view->matrixHeatMap()->maximum() / 2.5);
        // One op type of that group.
        QVERIFY(view->matrixOpChooser()->count() > 1);
        view->matrixOpChooser()->setCurrentIndex(1);
        QCoreApplication::processEvents();
        QVERIFY(view->matrixHeatMap()->rowCount() > 0);
        QVERIFY(view->matrixHeatMap()->rowCount() <= 8);
        view->matrixGroupChooser()->setCurrentIndex(0);
        view->matrixOpChooser()->setCurrentIndex(0);
        QCoreApplication::processEvents();
        QCOMPARE(view->matrixHeatMap()->rowCount(), 256);
    }
};

QTEST_MAIN(TstClusterScale)
#include "tst_cluster_scale.moc"
