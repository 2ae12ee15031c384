// Cluster analyses (FORMATS.md §9.3, §9.4) on the real Qwen3 PP=2 sample and on synthetic clusters.
#include "SyntheticCluster.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"

#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace at;
using namespace at::cluster;
using namespace at::test;

class TstClusterAnalysis : public QObject
{
    Q_OBJECT

private slots:
    // Stage 1 (ranks 2/3) computes ≈400 ms against ≈231 ms on stage 0: load imbalance between pipeline
    // stages, not a slow rank; inside each stage the ranks agree within 5 %.
    void qwen3StageImbalance()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        const std::vector<ComparisonGroup> groups = comparisonGroups(model);
        QCOMPARE(groups.size(), std::size_t(2));
        QCOMPARE(groups[0].ranks, (std::vector<int>{0, 1}));
        QCOMPARE(groups[1].ranks, (std::vector<int>{2, 3}));
        QVERIFY(findSlowRanks(model).empty());
        const std::vector<StageImbalance> imbalance = findStageImbalance(model);
        QCOMPARE(imbalance.size(), std::size_t(1));
        QCOMPARE(imbalance[0].step, std::int64_t(13));
        QCOMPARE(imbalance[0].heavierStage, 1);
        QCOMPARE(imbalance[0].lighterStage, 0);
        QCOMPARE(imbalance[0].heavierComputing, TimeNs((400448260 + 401131700) / 2));
        QCOMPARE(imbalance[0].lighterComputing, TimeNs((231290100 + 230903720) / 2));
        QCOMPARE(imbalance[0].gap, TimeNs(169693070));
    }

    // Issue 29 item 3: each time below the reader's 2^62 ns limit, but a rank's computing + communication +
    // free passes int64 (it wrapped to a negative mean step and the imbalance went unreported).
    void sumsBeyondInt64DoNotWrap()
    {
        ClusterModel model = readCluster(qwen3Cluster());
        const TimeNs big = TimeNs(4'500'000'000'000'000'000);
        for (Rank &r : model.ranks)
            for (RankStep &s : r.steps)
                if (r.stage == 1) {
                    s.computing = big;
                    s.communicationNotOverlapped = big;
                    s.free = big;
                }
        QCOMPARE(rankTotal(model.ranks[2].steps[0]), std::numeric_limits<TimeNs>::max());
        const std::vector<StageImbalance> imbalance = findStageImbalance(model);
        QCOMPARE(imbalance.size(), std::size_t(1));
        QCOMPARE(imbalance[0].heavierStage, 1);
        QCOMPARE(imbalance[0].heavierComputing, big);
        QCOMPARE(imbalance[0].gap, big - TimeNs((231290100 + 230903720) / 2));
    }

    // msprof-analyze's plain rule on the same data (its advisor HTML: Computing 170.228 ms, Communication
    // 180.21 ms flagged, Free not).
    void qwen3PlainRule()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        const std::vector<PlainRuleFlag> flags = plainRule(model);
        QCOMPARE(flags.size(), std::size_t(2));
        QCOMPARE(flags[0].dimension, Dimension::Computing);
        QCOMPARE(flags[0].gap, TimeNs(170227980));
        QCOMPARE(flags[0].maxRank, 3);
        QCOMPARE(flags[0].minRank, 1);
        QCOMPARE(flags[1].dimension, Dimension::Communication);
        QCOMPARE(flags[1].gap, TimeNs(180209940));
        QCOMPARE(flags[1].maxRank, 1);
        QCOMPARE(flags[1].minRank, 3);
    }

    void qwen3Communication()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        const std::vector<RankCommunication> comm = rankCommunication(model);
        QCOMPARE(comm.size(), std::size_t(4));
        // Rank 0: 15 ops (17 entries minus the two Total Op Info); Σ Elapse = 420174.26 µs (FORMATS.md §9.2).
        QCOMPARE(comm[0].ops, 15);
        QVERIFY2(std::abs(comm[0].elapse - 420174260) < 1000, qPrintable(QString::number(comm[0].elapse)));
        // msprof-analyze's slow-link input (§9.3) is SDMA 3533.11 MB over 185.95 ms on rank 0, summed with
        // the Total Op Info entries, which doubles both; without them: half of each, the same 19.0 GB/s.
        const auto sdma =
            std::find_if(comm[0].transports.begin(), comm[0].transports.end(),
                         [](const TransportTotal &t) { return t.transport == QLatin1String("SDMA"); });
        QVERIFY(sdma != comm[0].transports.end());
        QVERIFY2(std::abs(sdma->sizeMb * 2 - 3533.11) < 0.01, qPrintable(QString::number(sdma->sizeMb)));
        QVERIFY2(std::abs(sdma->time * 2 - 185950000) < 10000, qPrintable(QString::number(sdma->time)));
        QVERIFY(sdma->bandwidthGbps() > 18.99 && sdma->bandwidthGbps() < 19.01);
        // The matrix links are global: rank 0's pp partner is rank 2.
        const std::vector<LinkTotal> links = matrixLinks(model, 13, {}, QStringLiteral("batchsendrecv"));
        QVERIFY(std::any_of(links.begin(), links.end(), [](const LinkTotal &l) {
            return l.src == 0 && l.dst == 2 && l.transport == QLatin1String("HCCS");
        }));
        QVERIFY(findSlowLinks(model).empty());
    }

    // One slowed rank and one slow link: exactly those are named.
    void syntheticSlowRankAndLink()
    {
        QTemporaryDir dir;
        writeSyntheticCluster(dir.path());
        const ClusterModel model = readCluster(dir.path());
        QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), std::size_t(4));
        const std::vector<SlowRank> slow = findSlowRanks(model);
        QCOMPARE(slow.size(), std::size_t(1));
        QCOMPARE(slow[0].step, std::int64_t(1));
        QCOMPARE(slow[0].rank, 2);
        QCOMPARE(slow[0].dimension, Dimension::Computing);
        QCOMPARE(slow[0].gap, TimeNs(30000250));
        QCOMPARE(slow[0].group, QStringLiteral("all ranks"));
        QCOMPARE(slow[0].waiting, (std::vector<int>{0, 1, 3}));

        const std::vector<SlowLink> links = findSlowLinks(model);
        QCOMPARE(links.size(), std::size_t(1));
        QCOMPARE(links[0].src, 1);
        QCOMPARE(links[0].dst, 2);
        QCOMPARE(links[0].transport, QStringLiteral("HCCS"));
        QVERIFY(std::abs(links[0].bandwidthGbps - 8.0) < 1e-9);
        QVERIFY(std::abs(links[0].medianGbps - 20.0) < 1e-9);

        const std::vector<CollectiveWait> waits = findWaits(model);
        QCOMPARE(waits.size(), std::size_t(1));
        QCOMPARE(waits[0].waitedFor, 2);
        QCOMPARE(waits[0].waiting.size(), std::size_t(3));
        QCOMPARE(waits[0].waiting[0].wait, TimeNs(30000000));
    }

    // Other positions of the slowed rank and the slow link: still exactly those.
    void syntheticOtherPositions()
    {
        QTemporaryDir dir;
        writeSyntheticCluster(dir.path(), 6, 5, 0);
        const ClusterModel model = readCluster(dir.path());
        const std::vector<SlowRank> slow = findSlowRanks(model);
        QCOMPARE(slow.size(), std::size_t(1));
        QCOMPARE(slow[0].rank, 5);
        const std::vector<SlowLink> links = findSlowLinks(model);
        QCOMPARE(links.size(), std::size_t(1));
        QCOMPARE(links[0].src, 0);
        QCOMPARE(links[0].dst, 1);
    }
};

QTEST_GUILESS_MAIN(TstClusterAnalysis)
#include "tst_cluster_analysis.moc"
