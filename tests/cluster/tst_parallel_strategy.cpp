// The parallel strategy (core/cluster/ParallelStrategy.h): each rank's coordinates from the real Qwen3
// sample's parallel groups, from synthetic Megatron groups (tp × pp × dp, expert parallel, context-parallel
// aliases, 1,024 ranks), the fallback to distributed_args when the groups are incomplete, and no strategy
// with its reason when neither serves.
#include "AppProcess.h"
#include "ClusterTestSupport.h"
#include "MegatronCluster.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"
#include "cluster/ParallelStrategy.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <set>

using namespace at;
using namespace at::cluster;
using namespace at::test;

namespace {

int coordinate(const ParallelStrategy &s, int rank, ParallelDimension d)
{
    const RankPlacement *p = s.placement(rank);
    return p ? p->coordinate[static_cast<std::size_t>(d)] : -2;
}

// Every cell of the grid holds one rank and every rank one cell.
void verifyFullGrid(const ParallelStrategy &s, int world)
{
    QCOMPARE(s.rows * s.columns, world);
    QCOMPARE(static_cast<int>(s.ranks.size()), world);
    std::set<int> seen;
    for (int row = 0; row < s.rows; ++row)
        for (int column = 0; column < s.columns; ++column) {
            const int rank = s.rankAt(row, column);
            QVERIFY(rank >= 0);
            QVERIFY(seen.insert(rank).second);
            QCOMPARE(s.placement(rank)->row, row);
            QCOMPARE(s.placement(rank)->column, column);
        }
}

void verifyMegatron(const ParallelStrategy &s, const Megatron &m)
{
    for (int r = 0; r < m.world(); ++r) {
        QCOMPARE(coordinate(s, r, ParallelDimension::TP), m.tp > 1 ? m.tpOf(r) : -1);
        QCOMPARE(coordinate(s, r, ParallelDimension::CP), m.cp > 1 ? m.cpOf(r) : -1);
        QCOMPARE(coordinate(s, r, ParallelDimension::DP), m.dp > 1 ? m.dpOf(r) : -1);
        QCOMPARE(coordinate(s, r, ParallelDimension::PP), m.pp > 1 ? m.ppOf(r) : -1);
    }
}

} // namespace

class TstParallelStrategy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The real 4-rank Qwen3 job (FORMATS.md §9.3: tp1 pp2 dp2): ranks 0/1 list dp_cp but no dp group, so
    // DP comes from dp_cp; tp groups are single ranks, so TP is omitted; PP is each rank's stage.
    void qwen3FromItsGroups()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        QCOMPARE(model.ranks.size(), std::size_t(4));
        const ParallelStrategy s = parallelStrategy(model);
        QCOMPARE(s.source, StrategySource::Groups);
        QVERIFY2(s.reason.isEmpty(), qPrintable(s.reason));
        QCOMPARE(s.shapeText(), QStringLiteral("DP 2 × PP 2"));
        QCOMPARE(s.dimension(ParallelDimension::DP)->pgName, QStringLiteral("dp_cp"));
        QVERIFY(!s.dimension(ParallelDimension::TP));
        const int expectedDp[] = {0, 1, 0, 1}, expectedPp[] = {0, 0, 1, 1};
        for (const Rank &r : model.ranks) {
            QCOMPARE(coordinate(s, r.rank, ParallelDimension::DP), expectedDp[r.rank]);
            QCOMPARE(coordinate(s, r.rank, ParallelDimension::PP), expectedPp[r.rank]);
            QCOMPARE(coordinate(s, r.rank, ParallelDimension::PP), r.stage); // the reader's pp group_rank
            QVERIFY(s.placement(r.rank)->inModel);
        }
        // Rows are the stages, columns the DP index: 0 1 / 2 3.
        QCOMPARE(s.rows, 2);
        QCOMPARE(s.columns, 2);
        QCOMPARE(s.rankAt(0, 0), 0);
        QCOMPARE(s.rankAt(0, 1), 1);
        QCOMPARE(s.rankAt(1, 0), 2);
        QCOMPARE(s.rankAt(1, 1), 3);
        QCOMPARE(s.groupAlong(0, ParallelDimension::PP), (std::vector<int>{0, 2}));
        QCOMPARE(s.groupAlong(3, ParallelDimension::DP), (std::vector<int>{2, 3}));
        QVERIFY(s.groupAlong(0, ParallelDimension::TP).empty());

        // distributed_args alone (the groups dropped) place the ranks the same way.
        ClusterModel argsOnly = model;
        argsOnly.groups.clear();
        const ParallelStrategy fromArgs = parallelStrategy(argsOnly);
        QCOMPARE(fromArgs.source, StrategySource::DistributedArgs);
        QVERIFY(fromArgs.reason.contains(QStringLiteral("parallel_group_info")));
        for (const Rank &r : model.ranks)
            for (ParallelDimension d : {ParallelDimension::DP, ParallelDimension::PP})
                QCOMPARE(coordinate(fromArgs, r.rank, d), coordinate(s, r.rank, d));

        // The figures: step time is the sum of its three parts, peak memory the rank's peak in MB.
        const RankFigureValues step = rankFigure(model, RankFigure::StepTime);
        const RankFigureValues computing = rankFigure(model, RankFigure::Computing);
        const RankFigureValues comm = rankFigure(model, RankFigure::CommunicationNotOverlapped);
        const RankFigureValues free = rankFigure(model, RankFigure::Free);
        const RankFigureValues wait = rankFigure(model, RankFigure::WaitRatio);
        const RankFigureValues memory = rankFigure(model, RankFigure::PeakMemory);
        QCOMPARE(step.unit, QStringLiteral("ms"));
        QCOMPARE(wait.unit, QStringLiteral("%"));
        QCOMPARE(memory.unit, QStringLiteral("MB"));
        for (std::size_t i = 0; i < model.ranks.size(); ++i) {
            QVERIFY(step.values[i] && computing.values[i] && comm.values[i] && free.values[i]);
            QVERIFY(qAbs(*step.values[i] - (*computing.values[i] + *comm.values[i] + *free.values[i])) <
                    1e-6);
            QVERIFY(*step.values[i] > 100); // Qwen3's steps are ~800 ms
            QVERIFY(wait.values[i] && *wait.values[i] >= 0 && *wait.values[i] <= 100);
            QCOMPARE(memory.values[i].has_value(), model.ranks[i].memoryPeak.has_value());
            if (memory.values[i])
                QCOMPARE(*memory.values[i], model.ranks[i].memoryPeak->bytes / (1024.0 * 1024.0));
        }
        // Stage 1 (ranks 2, 3) computes longer than stage 0 (§9.3: stage imbalance).
        QVERIFY(*computing.values[2] > *computing.values[0] && *computing.values[3] > *computing.values[1]);
    }

    // tp 2 × pp 2 × dp 2 groups as Megatron builds them: every rank's coordinates in Megatron order.
    void megatronTpPpDp()
    {
        const Megatron m{2, 1, 2, 2};
        ClusterModel model = megatronModel(m);
        std::reverse(model.groups.begin(), model.groups.end()); // the order of the groups does not matter
        const ParallelStrategy s = parallelStrategy(model);
        QCOMPARE(s.source, StrategySource::Groups);
        QCOMPARE(s.shapeText(), QStringLiteral("TP 2 × DP 2 × PP 2"));
        verifyMegatron(s, m);
        verifyFullGrid(s, 8);
        // Columns TP (fastest) and DP; rows PP: the grid reads in rank order, 0..3 / 4..7.
        QCOMPARE(s.rows, 2);
        QCOMPARE(s.columns, 4);
        for (int r = 0; r < 8; ++r)
            QCOMPARE(s.rankAt(r / 4, r % 4), r);
        QCOMPARE(s.groupAlong(5, ParallelDimension::TP), (std::vector<int>{4, 5}));
        QCOMPARE(s.groupAlong(5, ParallelDimension::DP), (std::vector<int>{5, 7}));
        QCOMPARE(s.groupAlong(5, ParallelDimension::PP), (std::vector<int>{1, 5}));
    }

    // One dp group missing (no rank file listed it): the groups do not place every rank, distributed_args
    // do, and the reason names the pg name and the ranks; without distributed_args there is no strategy.
    void incompleteGroupsFallBack()
    {
        const Megatron m{2, 1, 2, 2};
        ClusterModel model = megatronModel(m);
        const auto dropped =
            std::find_if(model.groups.begin(), model.groups.end(), [](const ParallelGroup &g) {
                return g.name == QLatin1String("dp") && g.globalRanks == std::vector<int>{4, 6};
            });
        QVERIFY(dropped != model.groups.end());
        model.groups.erase(dropped);
        const ParallelStrategy s = parallelStrategy(model);
        QCOMPARE(s.source, StrategySource::DistributedArgs);
        QVERIFY2(s.reason.contains(QStringLiteral("dp")) && s.reason.contains(QStringLiteral("4, 6")),
                 qPrintable(s.reason));
        verifyMegatron(s, m);
        verifyFullGrid(s, 8);

        model.distributed.present = false;
        const ParallelStrategy none = parallelStrategy(model);
        QCOMPARE(none.source, StrategySource::None);
        QVERIFY(!none.known());
        QVERIFY2(none.reason.contains(QStringLiteral("4, 6")) &&
                     none.reason.contains(QStringLiteral("distributed_args")),
                 qPrintable(none.reason));
        QVERIFY(none.ranks.empty() && none.cells.empty());

        // distributed_args whose sizes do not multiply to the world size: no strategy, saying so.
        model.distributed = {2, 2, 3, 1, 1, 8, true};
        const ParallelStrategy wrong = parallelStrategy(model);
        QCOMPARE(wrong.source, StrategySource::None);
        QVERIFY2(wrong.reason.contains(QStringLiteral("world size 8")), qPrintable(wrong.reason));

        // A cluster without any group or distributed_args (the AlexNet pair): no strategy.
        ClusterModel bare = megatronModel(m);
        bare.groups.clear();
        bare.distributed = {};
        QCOMPARE(parallelStrategy(bare).source, StrategySource::None);
        QVERIFY(parallelStrategy(bare).reason.contains(QStringLiteral("parallel_group_info")));
    }

    // Expert parallel is carved out of DP: with exp groups, DP is read from dp_modulo_exp; the alias
    // cp_ulysses is CP.
    void expertAndContextAliases()
    {
        const Megatron m{2, 1, 4, 1};
        ClusterModel model = megatronModel(m);
        // ep index = dp index % 2, dp_modulo_exp = dp index / 2 (Megatron's tp-ep-dp-pp expert order).
        addGroups(model, QStringLiteral("exp"), 8, [&](int r) {
            return std::vector<int>{m.tpOf(r), m.dpOf(r) / 2};
        });
        addGroups(model, QStringLiteral("dp_modulo_exp"), 8, [&](int r) {
            return std::vector<int>{m.tpOf(r), m.dpOf(r) % 2};
        });
        const ParallelStrategy s = parallelStrategy(model);
        QCOMPARE(s.source, StrategySource::Groups);
        QCOMPARE(s.shapeText(), QStringLiteral("TP 2 × EP 2 × DP 2"));
        QCOMPARE(s.dimension(ParallelDimension::DP)->pgName, QStringLiteral("dp_modulo_exp"));
        QCOMPARE(s.dimension(ParallelDimension::EP)->pgName, QStringLiteral("exp"));
        verifyFullGrid(s, 8);
        for (int r = 0; r < 8; ++r) {
            QCOMPARE(coordinate(s, r, ParallelDimension::EP), m.dpOf(r) % 2);
            QCOMPARE(coordinate(s, r, ParallelDimension::DP), m.dpOf(r) / 2);
        }

        const Megatron c{2, 2, 2, 1};
        ClusterModel context = megatronModel(c);
        for (ParallelGroup &g : context.groups)
            if (g.name == QLatin1String("cp"))
                g.name = QStringLiteral("cp_ulysses");
        const ParallelStrategy withCp = parallelStrategy(context);
        QCOMPARE(withCp.source, StrategySource::Groups);
        QCOMPARE(withCp.dimension(ParallelDimension::CP)->pgName, QStringLiteral("cp_ulysses"));
        verifyMegatron(withCp, c);
        verifyFullGrid(withCp, 8);
    }

    // 1,024 ranks, tp 8 × pp 4 × dp 32: coordinates in Megatron order, a square-ish grid (not 4 rows of
    // 256), computed quickly.
    void thousandRanks()
    {
        const Megatron m{8, 1, 32, 4};
        const ClusterModel model = megatronModel(m);
        QElapsedTimer timer;
        timer.start();
        const ParallelStrategy s = parallelStrategy(model);
        const qint64 ms = timer.elapsed();
        QCOMPARE(s.source, StrategySource::Groups);
        QCOMPARE(s.shapeText(), QStringLiteral("TP 8 × DP 32 × PP 4"));
        verifyMegatron(s, m);
        verifyFullGrid(s, 1024);
        QCOMPARE(s.rows, 32);
        QCOMPARE(s.columns, 32);
        QVERIFY(s.dimension(ParallelDimension::TP)->inColumns);
        QCOMPARE(s.groupAlong(1000, ParallelDimension::TP).size(), std::size_t(8));
        QCOMPARE(s.groupAlong(1000, ParallelDimension::DP).size(), std::size_t(32));
        QCOMPARE(s.groupAlong(1000, ParallelDimension::PP),
                 (std::vector<int>{1000 % 256, 1000 % 256 + 256, 1000 % 256 + 512, 1000 % 256 + 768}));
        qInfo("1,024 ranks placed in %lld ms", ms);
        QVERIFY2(ms < 2000, qPrintable(QString::number(ms)));
        // The figure follows the rank: rank r computes r ms longer than rank 0.
        const RankFigureValues computing = rankFigure(model, RankFigure::Computing);
        QCOMPARE(*computing.values[1023] - *computing.values[0], 1023.0);
        QVERIFY(!rankFigure(model, RankFigure::PeakMemory).values[0].has_value());
    }

    // `--cluster --json` writes the strategy: the Qwen3 job's dimensions and every rank's cell and
    // coordinates, the same as parallelStrategy() of the model read here.
    void clusterJson()
    {
        const at_test::AppRun run =
            at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")}, 60000);
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject strategy = doc.object().value(QStringLiteral("strategy")).toObject();
        QCOMPARE(strategy.value(QStringLiteral("source")).toString(), QStringLiteral("groups"));
        QVERIFY(strategy.value(QStringLiteral("reason")).isNull());
        QCOMPARE(strategy.value(QStringLiteral("shape")).toString(), QStringLiteral("DP 2 × PP 2"));
        const QJsonArray dimensions = strategy.value(QStringLiteral("dimensions")).toArray();
        QCOMPARE(dimensions.size(), 2);
        QCOMPARE(dimensions[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("dp"));
        QCOMPARE(dimensions[0].toObject().value(QStringLiteral("pg_name")).toString(),
                 QStringLiteral("dp_cp"));
        QCOMPARE(dimensions[0].toObject().value(QStringLiteral("axis")).toString(),
                 QStringLiteral("columns"));
        QCOMPARE(dimensions[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("pp"));
        QCOMPARE(dimensions[1].toObject().value(QStringLiteral("size")).toInt(), 2);
        const ParallelStrategy expected = parallelStrategy(readCluster(qwen3Cluster()));
        const QJsonArray ranks = strategy.value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const QJsonObject r = ranks[i].toObject();
            const RankPlacement &p = expected.ranks[static_cast<std::size_t>(i)];
            QCOMPARE(r.value(QStringLiteral("rank")).toInt(), i);
            QVERIFY(r.value(QStringLiteral("in_folder")).toBool());
            QCOMPARE(r.value(QStringLiteral("row")).toInt(), p.row);
            QCOMPARE(r.value(QStringLiteral("column")).toInt(), p.column);
            QCOMPARE(r.value(QStringLiteral("dp")).toInt(), i % 2);
            QCOMPARE(r.value(QStringLiteral("pp")).toInt(), i / 2);
            QVERIFY(!r.contains(QStringLiteral("tp")));
        }
    }
};

QTEST_GUILESS_MAIN(TstParallelStrategy)
#include "tst_parallel_strategy.moc"
