// msprof-analyze's slow_rank (voting) and slow_link (transit time) recipes, core/cluster/SlowRankVoting.h and
// SlowLinkTransit.h: synthetic clusters built here where exactly one rank arrives late / one op transfers
// slowly, the clean and the left-out cases, the 3σ path; the real Qwen3 and alexnet clusters against values
// computed here from their communication.json; the findings and `--cluster --json`.
#include "AppProcess.h"
#include "ClusterTestSupport.h"

#include "InsightChecks.h"
#include "cluster/ClusterReader.h"
#include "cluster/SlowLinkTransit.h"
#include "cluster/SlowRankVoting.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace at;
using namespace at::test;

namespace {

constexpr TimeNs kMs = 1000000;
const QString kGroup = QStringLiteral("4242");

// One collective entry of one rank: elapse and wait in ns.
cluster::CommOp op(const QString &name, TimeNs elapse, TimeNs wait, std::int64_t step = 1, int index = 0)
{
    cluster::CommOp o;
    o.step = step;
    o.name = name;
    o.group = kGroup;
    o.elapse = elapse;
    o.wait = wait;
    o.startAbsolute = 1700000000000000000LL + index * 50 * kMs;
    return o;
}

QString allReduce(int i)
{
    return QStringLiteral("hcom_allReduce__242_%1_1").arg(i);
}

// `ranks` ranks in one group "dp", `collectives` allreduces each; rank `late` (−1: none) arrives last, so its
// op time is short (1 ms) and the others wait; the others' times differ by rank and op (all distinct).
cluster::ClusterModel lateRankCluster(int ranks, int collectives, int late, int spreadModulo = 1 << 30)
{
    cluster::ClusterModel model;
    cluster::ParallelGroup g;
    g.key = QStringLiteral("group_name_1");
    g.hash = kGroup;
    g.name = QStringLiteral("dp");
    for (int r = 0; r < ranks; ++r)
        g.globalRanks.push_back(r);
    model.groups.push_back(g);
    for (int r = 0; r < ranks; ++r) {
        cluster::Rank rank;
        rank.rank = r;
        for (int i = 0; i < collectives; ++i) {
            const TimeNs elapse = r == late ? 1 * kMs : 10 * kMs + (r % spreadModulo) * 100000 + i * 10000;
            rank.ops.push_back(op(allReduce(i), elapse, r == late ? 10000 : elapse - kMs, 1, i));
        }
        model.ranks.push_back(rank);
    }
    return model;
}

// Dixon's r10 / r11 / r21 / r22 for the lowest value, written out here from the definition.
double dixonQ(std::vector<double> x)
{
    std::sort(x.begin(), x.end());
    const std::size_t n = x.size();
    double gap = 0, range = 0;
    if (n <= 7) {
        gap = x[1] - x[0];
        range = x[n - 1] - x[0];
    } else if (n <= 10) {
        gap = x[1] - x[0];
        range = x[n - 2] - x[0];
    } else if (n <= 13) {
        gap = x[2] - x[0];
        range = x[n - 2] - x[0];
    } else {
        gap = x[2] - x[0];
        range = x[n - 3] - x[0];
    }
    return range != 0 ? gap / range : 0.0;
}

// step → op key "<op>@<group>" → rank → elapse (ns), read from the ranks' communication.json on their own.
struct JsonOp
{
    bool p2p = false;
    std::map<int, TimeNs> elapse;
};
std::map<QString, JsonOp> readOpsIndependently(const QString &root)
{
    std::map<QString, JsonOp> ops;
    QDirIterator it(root, {QStringLiteral("communication.json")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        // rank_2_ascend_pt / rank0_ascend_pt
        QString folder = QFileInfo(QFileInfo(path).absolutePath()).absolutePath();
        folder = QFileInfo(folder).fileName();
        folder.remove(QStringLiteral("_ascend_pt")).remove(QStringLiteral("rank")).remove(QLatin1Char('_'));
        const int rank = folder.toInt();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject steps = QJsonDocument::fromJson(file.readAll()).object();
        for (auto step = steps.begin(); step != steps.end(); ++step)
            for (const QString &kind : {QStringLiteral("collective"), QStringLiteral("p2p")}) {
                const QJsonObject entries = step.value().toObject().value(kind).toObject();
                for (auto e = entries.begin(); e != entries.end(); ++e) {
                    if (e.key().startsWith(QLatin1String("Total Op Info")))
                        continue;
                    const double ms = e.value()
                                          .toObject()
                                          .value(QStringLiteral("Communication Time Info"))
                                          .toObject()
                                          .value(QStringLiteral("Elapse Time(ms)"))
                                          .toDouble();
                    JsonOp &o = ops[step.key() + QLatin1Char('/') + e.key()];
                    o.p2p = kind == QLatin1String("p2p");
                    o.elapse[rank] = std::llround(ms * 1e6);
                }
            }
    }
    return ops;
}

const Finding *findingOf(const std::vector<Finding> &findings, const QString &check)
{
    for (const Finding &f : findings)
        if (f.check == check)
            return &f;
    return nullptr;
}

} // namespace

class TstSlowRankVoting : public QObject
{
    Q_OBJECT

private slots:
    void dixonTable()
    {
        QCOMPARE(cluster::dixonCritical995(2), 0.0);
        QCOMPARE(cluster::dixonCritical995(3), 0.994);
        QCOMPARE(cluster::dixonCritical995(7), 0.680);
        QCOMPARE(cluster::dixonCritical995(8), 0.723);  // r11 from here
        QCOMPARE(cluster::dixonCritical995(14), 0.672); // r22 from here
        QCOMPARE(cluster::dixonCritical995(100), 0.341);
        QCOMPARE(cluster::dixonCritical995(101), 0.0);
        // n = 5 (r10): (10 − 1) / (13 − 1) = 0.75 is below 0.823; (12 − 1) / (13.5 − 1) = 0.88 above.
        cluster::OutlierResult r = cluster::dixonTest({10, 1, 11, 12, 13});
        QCOMPARE(r.test, cluster::OutlierTest::Dixon);
        QCOMPARE(r.statistic, 0.75);
        QVERIFY(r.outliers.empty());
        r = cluster::dixonTest({12, 12.5, 1, 13, 13.5});
        QCOMPARE(r.statistic, 11.0 / 12.5);
        QCOMPARE(r.outliers, std::vector<std::size_t>{2});
        // At most 3 distinct values: not tested (the denominator could be 0).
        QCOMPARE(cluster::dixonTest({1, 10, 10, 11, 11}).test, cluster::OutlierTest::None);
        QCOMPARE(cluster::dixonTest({1, 10}).test, cluster::OutlierTest::None);
    }

    // 8 ranks × 20 collectives, rank 5 arrives last in every one: 20 votes for rank 5, none for the others.
    void oneLateRankIsVoted()
    {
        const cluster::ClusterModel model = lateRankCluster(8, 20, 5);
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        QCOMPARE(voting.collectives.size(), std::size_t(20));
        QCOMPARE(voting.votes.size(), std::size_t(1));
        QCOMPARE(voting.votes.front().rank, 5);
        QCOMPARE(voting.votes.front().votes, 20);
        QCOMPARE(voting.votes.front().collectives, 20);
        QCOMPARE(voting.votesPerRank, (std::vector<std::pair<int, int>>{{5, 20}}));
        TimeNs othersWait = 0;
        TimeNs rank7Wait = 0; // the longest waiter in every op: its op time is the longest
        for (const cluster::Rank &r : model.ranks)
            for (const cluster::CommOp &o : r.ops)
                if (r.rank != 5) {
                    othersWait += o.wait;
                    if (r.rank == 7)
                        rank7Wait += o.wait;
                }
        QCOMPARE(voting.votes.front().othersWait, othersWait);
        for (const cluster::TestedCollective &c : voting.collectives) {
            QCOMPARE(c.result.test, cluster::OutlierTest::Dixon);
            QCOMPARE(c.voted, std::vector<int>{5});
            QCOMPARE(c.votedElapse, 1 * kMs);
            QCOMPARE(c.result.critical, 0.723);
            std::vector<double> times;
            for (const cluster::Rank &r : model.ranks)
                for (const cluster::CommOp &o : r.ops)
                    if (o.name == c.op)
                        times.push_back(static_cast<double>(o.elapse));
            QCOMPARE(c.result.statistic, dixonQ(times));
            QVERIFY(c.result.statistic > c.result.critical);
            QCOMPARE(c.longestWaiter, 7);
        }

        // The finding: the rule, the votes, the others' measured wait, the ranks opened at the op.
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        const std::vector<Finding> findings = clusterFindings(context);
        const Finding *f = findingOf(findings, QStringLiteral("slow_rank_vote"));
        QVERIFY(f);
        QCOMPARE(
            f->title,
            QStringLiteral("Rank 5 voted slow in 20 of 20 collectives of group dp 0,1,2,3,4,5,6,7 (Dixon Q "
                           "at 99.5 %)"));
        // All in step 1: the time at stake is the largest of the ranks' summed waits (rank 7's), never
        // the sum over the waiting ranks, which wait side by side.
        QCOMPARE(f->timeAtStake, rank7Wait);
        QCOMPARE(f->rank, 7);
        QCOMPARE(f->part, StepPart::CommunicationNotOverlapped);
        QVERIFY(f->explanation.contains(QStringLiteral("Rank 5 got 20 vote(s)")));
        QCOMPARE(f->occurrences.size(), std::size_t(20));
        std::set<QString> opsOpened;
        for (const FindingOccurrence &o : f->occurrences) {
            QCOMPARE(o.ranks, (std::vector<int>{5, 7}));
            QVERIFY2(o.name.contains(QStringLiteral("Q = ")) && o.name.contains(QStringLiteral("> 0.723")) &&
                         o.name.endsWith(QStringLiteral("rank 7 longest")),
                     qPrintable(o.name));
            opsOpened.insert(o.op);
        }
        QCOMPARE(opsOpened.size(), std::size_t(20));
        // Through the registry too (--advise, the Insights panel).
        std::vector<Finding> withoutTime;
        const std::vector<Finding> registered = runInsightChecks(noTimeline, nullptr, &model, &withoutTime);
        QVERIFY(findingOf(registered, QStringLiteral("slow_rank_vote")) ||
                findingOf(withoutTime, QStringLiteral("slow_rank_vote")));
    }

    void noLateRankNoVotes()
    {
        const cluster::ClusterModel model = lateRankCluster(8, 20, -1);
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        QCOMPARE(voting.collectives.size(), std::size_t(20)); // tested, none flagged
        QVERIFY(voting.votes.empty());
        for (const cluster::TestedCollective &c : voting.collectives) {
            QVERIFY(c.voted.empty());
            QVERIFY(c.result.statistic < c.result.critical);
        }
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        QVERIFY(!findingOf(clusterFindings(context), QStringLiteral("slow_rank_vote")));
    }

    // One op recorded on 7 of the 8 ranks: the group cannot be compared op by op and is left out.
    void unequalOpCountsLeaveTheGroupOut()
    {
        cluster::ClusterModel model = lateRankCluster(8, 20, 5);
        auto &ops = model.ranks[3].ops;
        ops.erase(ops.begin() + 4);
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        QVERIFY(voting.collectives.empty());
        QVERIFY(voting.votes.empty());
        QCOMPARE(voting.leftOutGroups, std::vector<QString>{kGroup});
    }

    // Send / receive ops (by name, as msprof-analyze) and p2p ops are never tested.
    void sendReceiveLeftOut()
    {
        cluster::ClusterModel model = lateRankCluster(8, 3, 5);
        for (cluster::Rank &r : model.ranks) {
            r.ops[0].name = QStringLiteral("hcom_send__242_0_1");
            r.ops[1].name = QStringLiteral("hcom_receive__242_1_1");
            r.ops[2].name = QStringLiteral("hcom_batchSendRecv__242_2_1");
            r.ops[2].p2p = true;
        }
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        QVERIFY(voting.collectives.empty());
        QVERIFY(voting.votes.empty());
        QCOMPARE(voting.leftOutP2p, 3);
        QVERIFY(cluster::findSlowTransits(model).slow.empty());
        QCOMPARE(cluster::findSlowTransits(model).leftOutP2p, 3);
    }

    // Above 100 ranks the 3σ rule decides; at 100 still Dixon.
    void threeSigmaAboveDixonsLimit()
    {
        const cluster::ClusterModel model = lateRankCluster(120, 4, 77);
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        QCOMPARE(voting.collectives.size(), std::size_t(4));
        QCOMPARE(voting.votesPerRank, (std::vector<std::pair<int, int>>{{77, 4}}));
        for (const cluster::TestedCollective &c : voting.collectives) {
            QCOMPARE(c.result.test, cluster::OutlierTest::ThreeSigma);
            QCOMPARE(c.result.critical, 3.0);
            // z of the late rank, from the population σ.
            std::vector<double> times;
            for (const cluster::Rank &r : model.ranks)
                for (const cluster::CommOp &o : r.ops)
                    if (o.name == c.op)
                        times.push_back(static_cast<double>(o.elapse));
            double mean = 0, sq = 0;
            for (double t : times)
                mean += t / static_cast<double>(times.size());
            for (double t : times)
                sq += (t - mean) * (t - mean);
            const double sigma = std::sqrt(sq / static_cast<double>(times.size()));
            QVERIFY(std::abs(c.result.statistic - (mean - 1e6) / sigma) < 1e-9);
            QVERIFY(c.result.statistic > 3.0);
        }
        const cluster::SlowRankVoting hundred = cluster::voteSlowRanks(lateRankCluster(100, 2, 10));
        QCOMPARE(hundred.collectives.front().result.test, cluster::OutlierTest::Dixon);
        QCOMPARE(hundred.collectives.front().result.critical, 0.341);
        QCOMPARE(hundred.votesPerRank, (std::vector<std::pair<int, int>>{{10, 2}}));
        // 3σ alone: a long outlier votes for the shortest rank too.
        const cluster::OutlierResult longOutlier = cluster::threeSigmaTest(
            {5, 5.1, 5.2, 5.1, 5, 5.2, 5.1, 5, 5.2, 5.1, 5, 5.2, 5.1, 5, 5.2, 5.1, 5, 5.2, 60});
        QCOMPARE(longOutlier.outliers.size(), std::size_t(1));
        QCOMPARE(longOutlier.outliers.front(), std::size_t(0)); // the first of the shortest (5)
    }

    // 1,024 ranks × 50 collectives (51,200 op entries): the 3σ path names the late rank; the time is logged.
    void largeCluster()
    {
        const cluster::ClusterModel model = lateRankCluster(1024, 50, 300, 10);
        QElapsedTimer timer;
        timer.start();
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        const qint64 votingMs = timer.restart();
        const cluster::SlowLinkTransit transit = cluster::findSlowTransits(model);
        const qint64 transitMs = timer.elapsed();
        qInfo("1024 ranks x 50 collectives: voting %lld ms, transit %lld ms", votingMs, transitMs);
        QCOMPARE(voting.votesPerRank, (std::vector<std::pair<int, int>>{{300, 50}}));
        QCOMPARE(voting.collectives.front().result.test, cluster::OutlierTest::ThreeSigma);
        QCOMPARE(transit.setsTested, 1); // one set of 50 ops, each with the late rank's 1 ms as its transit
        QVERIFY(transit.slow.empty());
    }

    // 8 ranks × 20 allreduces of 100 MB; op 13 transfers in 9 ms against about 5 ms: named, and only it.
    void oneSlowLinkIsNamed()
    {
        cluster::ClusterModel model = lateRankCluster(8, 20, -1);
        for (cluster::Rank &r : model.ranks)
            for (std::size_t i = 0; i < r.ops.size(); ++i) {
                cluster::CommOp &o = r.ops[i];
                // The transit time (min over ranks) is rank 0's: 5 ms + 10 µs · (i mod 3), 9 ms for op 13.
                const TimeNs transit = i == 13 ? 9 * kMs : 5 * kMs + 10000 * static_cast<TimeNs>(i % 3);
                o.elapse = transit + r.rank * 200000;
                cluster::TransportBandwidth hccs;
                hccs.transport = QStringLiteral("HCCS");
                hccs.sizeMb = 100;
                cluster::TransportBandwidth sdma = hccs; // repeats HCCS: not counted twice
                sdma.transport = QStringLiteral("SDMA");
                o.bandwidth = {hccs, sdma};
            }
        // Another kind of op with even transfers: tested, no outlier.
        for (cluster::Rank &r : model.ranks)
            for (int i = 0; i < 12; ++i)
                r.ops.push_back(op(QStringLiteral("hcom_allGather__242_%1_1").arg(100 + i),
                                   2 * kMs + (i % 2) * 1000 + r.rank * 1000, 0, 1, 100 + i));
        const cluster::SlowLinkTransit transit = cluster::findSlowTransits(model);
        QCOMPARE(transit.setsTested, 2);
        QCOMPARE(transit.slow.size(), std::size_t(1));
        const cluster::SlowTransit &s = transit.slow.front();
        QCOMPARE(s.op.op, allReduce(13));
        QCOMPARE(s.op.transit, 9 * kMs);
        QCOMPARE(s.op.transitRank, 0);
        QCOMPARE(transit.sets.size(), std::size_t(1));
        const cluster::TransitSet &set = transit.sets.front();
        QCOMPARE(set.opType, QStringLiteral("hcom_allReduce"));
        QCOMPARE(set.dataBytes, std::int64_t(100000000));
        QCOMPARE(set.relatedRanks, 8);
        // Mean, σ, z and msprof-analyze's offset ratio from the 20 transit times.
        std::vector<double> t;
        for (int i = 0; i < 20; ++i)
            t.push_back(i == 13 ? 9e6 : 5e6 + 1e4 * (i % 3));
        double mean = 0, sq = 0;
        for (double x : t)
            mean += x / 20;
        for (double x : t)
            sq += (x - mean) * (x - mean);
        const double sigma = std::sqrt(sq / 20);
        QVERIFY(std::abs(set.mean - mean) < 1e-6);
        QVERIFY(std::abs(s.z - (9e6 - mean) / sigma) < 1e-9);
        QVERIFY(s.z > 3);
        QCOMPARE(s.excess, static_cast<TimeNs>(std::llround(9e6 - mean)));
        const double rowStd = std::sqrt(sq * 8 / (160 - 1)); // one row per rank: 160 rows
        QVERIFY(std::abs(set.offsetRatio - (9e6 - mean) / rowStd) < 1e-9);
        QCOMPARE(set.maxRank, 0);

        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        const std::vector<Finding> findings = clusterFindings(context);
        const Finding *f = findingOf(findings, QStringLiteral("slow_link_transit"));
        QVERIFY(f);
        QCOMPARE(f->occurrences.size(), std::size_t(1));
        QCOMPARE(f->occurrences.front().op, allReduce(13));
        QCOMPARE(f->occurrences.front().ranks, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(f->timeAtStake, s.excess);
        QCOMPARE(
            f->title,
            QStringLiteral("Slow link by transit time: %1 in group dp 0,1,2,3,4,5,6,7").arg(allReduce(13)));
    }

    // Qwen3 (tp1 pp2 dp2): its 2-rank pp / dp groups cannot be tested (Dixon needs 3 ranks); the 4-rank
    // world group's 4 collectives are, and none is an outlier at 99.5 % (rank 3 is the shortest in each,
    // but n = 4 needs Q > 0.920). No slow rank by voting: the pp gap is stage imbalance.
    void qwen3()
    {
        const cluster::ClusterModel model = cluster::readCluster(qwen3Cluster());
        QCOMPARE(model.ranks.size(), std::size_t(4));
        const std::map<QString, JsonOp> ops = readOpsIndependently(qwen3Cluster());
        QVERIFY(!ops.empty());
        int tested = 0, tooFew = 0, p2p = 0, notDistinct = 0;
        std::map<QString, double> expectedQ; // op name → Q
        for (const auto &[key, o] : ops) {
            if (o.p2p) {
                ++p2p;
                continue;
            }
            if (o.elapse.size() < 3) {
                ++tooFew;
                continue;
            }
            std::vector<double> times;
            for (const auto &[rank, elapse] : o.elapse)
                times.push_back(static_cast<double>(elapse));
            if (std::set<double>(times.begin(), times.end()).size() <= 3) {
                ++notDistinct;
                continue;
            }
            ++tested;
            expectedQ[key.section(QLatin1Char('/'), 1).section(QLatin1Char('@'), 0, 0)] = dixonQ(times);
        }
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        QCOMPARE(tested, 4);
        QCOMPARE(static_cast<int>(voting.collectives.size()), tested);
        QCOMPARE(voting.tooFewRanks, tooFew);
        QCOMPARE(voting.tooFewDistinct, notDistinct);
        QCOMPARE(voting.leftOutP2p, p2p);
        QVERIFY(voting.leftOutGroups.empty());
        for (const cluster::TestedCollective &c : voting.collectives) {
            QCOMPARE(c.ranks, (std::vector<int>{0, 1, 2, 3}));
            QCOMPARE(c.result.critical, 0.920);
            QVERIFY(std::abs(c.result.statistic - expectedQ.at(c.op)) < 1e-6);
            QVERIFY(c.result.statistic < c.result.critical);
        }
        QVERIFY(voting.votes.empty());
        // Slow link: at most 4 ops share a (type, size, ranks) set, so no z can exceed 3 (√(n − 1) ≤ √3).
        const cluster::SlowLinkTransit transit = cluster::findSlowTransits(model);
        QVERIFY(transit.slow.empty());
        QVERIFY(transit.sets.empty());
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        const std::vector<Finding> findings = clusterFindings(context);
        QVERIFY(!findingOf(findings, QStringLiteral("slow_rank_vote")));
        QVERIFY(!findingOf(findings, QStringLiteral("slow_link_transit")));
    }

    // alexnet level1: 2 ranks, so every collective has 2 ranks and none can be tested.
    void alexnetTwoRanks()
    {
        const cluster::ClusterModel model = cluster::readCluster(alexnetTextCluster());
        QCOMPARE(model.ranks.size(), std::size_t(2));
        const std::map<QString, JsonOp> ops = readOpsIndependently(alexnetTextCluster());
        int collectives = 0;
        for (const auto &[key, o] : ops)
            if (!o.p2p)
                ++collectives;
        QVERIFY(collectives > 0);
        const cluster::SlowRankVoting voting = cluster::voteSlowRanks(model);
        QVERIFY(voting.collectives.empty());
        QVERIFY(voting.votes.empty());
        QCOMPARE(voting.tooFewRanks, collectives);
    }

    // `--cluster --json`: the voting block of a cluster written to disk with one late rank, and Qwen3's.
    void cliJson()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 8; ++r) {
            const QString rankDir = QStringLiteral("%1/node0/rank%2_ascend_pt").arg(dir.path()).arg(r);
            writeTextFile(rankDir + QStringLiteral("/profiler_info_%1.json").arg(r), "{\"rank_id\": 0}");
            QStringList entries;
            for (int i = 0; i < 12; ++i) {
                const double elapse = r == 6 ? 1.0 : 10.0 + 0.1 * r + 0.01 * i;
                const double wait = r == 6 ? 0.01 : elapse - 1.0;
                entries << QStringLiteral(
                               "\"%1@%2\": {\"Communication Time Info\": {\"Start Timestamp(us)\": "
                               "%3, \"Elapse Time(ms)\": %4, \"Transit Time(ms)\": 0, \"Wait "
                               "Time(ms)\": %5, \"Synchronization Time(ms)\": 0, \"Idle Time(ms)\": "
                               "0, \"Wait Time Ratio\": 0, \"Synchronization Time Ratio\": 0}, "
                               "\"Communication Bandwidth Info\": {}}")
                               .arg(allReduce(i), kGroup)
                               .arg(1700000000000000.0 + 100000.0 * i, 0, 'f', 1)
                               .arg(elapse, 0, 'f', 2)
                               .arg(wait, 0, 'f', 2);
            }
            writeTextFile(
                rankDir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json"),
                QStringLiteral("{\"step1\": {\"collective\": {%1}}}").arg(entries.join(", ")).toUtf8());
        }
        const at_test::AppRun run =
            at_test::runApp({QStringLiteral("--cluster"), dir.path(), QStringLiteral("--json")}, 60000);
        QCOMPARE(run.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonObject voting = root[QStringLiteral("slow_rank_voting")].toObject();
        const QJsonArray perRank = voting[QStringLiteral("per_rank")].toArray();
        QCOMPARE(perRank.size(), 1);
        QCOMPARE(perRank[0].toObject()[QStringLiteral("rank")].toInt(), 6);
        QCOMPARE(perRank[0].toObject()[QStringLiteral("votes")].toInt(), 12);
        const QJsonObject group = voting[QStringLiteral("per_group")].toArray()[0].toObject();
        QCOMPARE(group[QStringLiteral("group")].toString(), kGroup);
        QCOMPARE(group[QStringLiteral("collectives")].toInt(), 12);
        // Σ Wait Time of ranks 0–5 and 7 over the 12 ops, exact µs: Σ (9 + 0.1 r + 0.01 i) ms.
        TimeNs wait = 0;
        for (int r = 0; r < 8; ++r)
            for (int i = 0; i < 12; ++i)
                if (r != 6)
                    wait += 9000000 + 100000 * r + 10000 * i;
        QCOMPARE(group[QStringLiteral("others_wait_us")].toDouble(), static_cast<double>(wait) / 1000.0);
        const QJsonArray collectives = voting[QStringLiteral("collectives")].toArray();
        QCOMPARE(collectives.size(), 12);
        const QJsonObject first = collectives[0].toObject();
        QCOMPARE(first[QStringLiteral("test")].toString(), QStringLiteral("dixon"));
        QCOMPARE(first[QStringLiteral("voted")].toArray(), QJsonArray{6});
        QCOMPARE(first[QStringLiteral("critical")].toDouble(), 0.723);
        QCOMPARE(first[QStringLiteral("voted_elapse_us")].toDouble(), 1000.0);
        QCOMPARE(first[QStringLiteral("ranks")].toArray().size(), 8);
        QVERIFY(
            root[QStringLiteral("slow_link_transit")].toObject()[QStringLiteral("slow")].toArray().isEmpty());
        bool finding = false;
        for (const QJsonValue &f : root[QStringLiteral("findings")].toArray())
            finding |= f.toObject()[QStringLiteral("check")].toString() == QLatin1String("slow_rank_vote");
        QVERIFY(finding);

        // --advise runs the registered checks: the same finding, with its rule and evidence.
        const at_test::AppRun advise =
            at_test::runApp({QStringLiteral("--advise"), dir.path(), QStringLiteral("--json")}, 60000);
        QCOMPARE(advise.exitCode, 0);
        QJsonObject advised;
        for (const QJsonValue &f :
             QJsonDocument::fromJson(advise.out).object()[QStringLiteral("findings")].toArray())
            if (f.toObject()[QStringLiteral("check")].toString() == QLatin1String("slow_rank_vote"))
                advised = f.toObject();
        QCOMPARE(
            advised[QStringLiteral("title")].toString(),
            QStringLiteral("Rank 6 voted slow in 12 of 12 collectives of group 4242 (Dixon Q at 99.5 %)"));
        QCOMPARE(advised[QStringLiteral("data")].toObject()[QStringLiteral("votes")].toArray().size(), 1);

        // Qwen3: 4 collectives tested with Dixon, no vote.
        const at_test::AppRun qwen =
            at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")}, 60000);
        QCOMPARE(qwen.exitCode, 0);
        const QJsonObject q =
            QJsonDocument::fromJson(qwen.out).object()[QStringLiteral("slow_rank_voting")].toObject();
        QCOMPARE(q[QStringLiteral("collectives")].toArray().size(), 4);
        QVERIFY(q[QStringLiteral("per_rank")].toArray().isEmpty());
        QCOMPARE(q[QStringLiteral("left_out_p2p")].toInt(), 6);

        // The text: the votes per rank.
        const at_test::AppRun text = at_test::runApp({QStringLiteral("--cluster"), dir.path()}, 60000);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(
            QString::fromUtf8(text.out).contains(QStringLiteral("  rank 6: 12 of 12 collectives of 4242")));
    }
};

QTEST_GUILESS_MAIN(TstSlowRankVoting)
#include "tst_slow_rank_voting.moc"
