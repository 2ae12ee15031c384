// Host- or device-bound communication (core/cluster/CommBoundAnalysis.h, issue #32): synthetic rank folders
// read by the real readers (the cluster reader for the summary files, loadTrace for each rank's timeline),
// the verdict of the late rank of an allreduce, and the `--cluster --comm-bound --json` block through the
// real command.
#include "AppProcess.h"
#include "CommBoundCluster.h"

#include "InsightChecks.h"
#include "TraceLoader.h"
#include "cluster/ClusterReader.h"
#include "cluster/CommBoundAnalysis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>

using namespace at;
using namespace at::test;

namespace {

constexpr const char *kOp = "hcom_allReduce__001_0_1";

// The cluster of one case with each rank's timeline loaded on its own.
struct LoadedCluster
{
    QTemporaryDir dir;
    cluster::ClusterModel model;
    std::map<int, std::unique_ptr<TraceModel>> timelines;

    cluster::CommBoundAnalysis analyse()
    {
        return cluster::analyseCommBound(model, [this](int rank) {
            cluster::RankTimeline t;
            const cluster::Rank *r = model.rank(rank);
            if (!r)
                return t;
            auto &slot = timelines[rank];
            if (!slot) {
                LoadControl control;
                slot = loadTrace(r->folder, LoadOptions{}, control).model;
            }
            t.model = slot.get();
            return t;
        });
    }
};

std::unique_ptr<LoadedCluster> loadCase(CommBoundCase c)
{
    auto cluster = std::make_unique<LoadedCluster>();
    writeCommBoundCluster(cluster->dir.path(), c);
    cluster->model = cluster::readCluster(cluster->dir.path());
    return cluster;
}

} // namespace

class TstCommBound : public QObject
{
    Q_OBJECT

private slots:
    // Only the op with a gap above 5 % is a candidate: rank 0 arrived first (2 ms), rank 2 last (1 ms).
    void candidates()
    {
        const auto c = loadCase(CommBoundCase::HostLate);
        QCOMPARE(c->model.ranks.size(), std::size_t(3));
        int withGap = 0;
        const auto ops = cluster::commBoundCandidates(c->model, 5, &withGap);
        QCOMPARE(withGap, 1);
        QCOMPARE(ops.size(), std::size_t(1));
        QCOMPARE(ops.front().op, QLatin1String(kOp));
        QCOMPARE(ops.front().fastRank, 0);
        QCOMPARE(ops.front().slowRank, kCommBoundSlowRank);
        QCOMPARE(ops.front().gap(), TimeNs(1'000'000));
        QCOMPARE(ops.front().fastWait, TimeNs(1'000'000));
        QCOMPARE(cluster::commBoundCandidates(c->model, 0).size(), std::size_t(0));
    }

    // Rank 2's host launched the op 990 µs after rank 0 arrived, its stream idle since 2.1 ms before the
    // op's end: host-bound, 990 µs, the launch API named; the clocks differ by 1 ms a rank and do not matter.
    void hostLate()
    {
        const auto c = loadCase(CommBoundCase::HostLate);
        const cluster::CommBoundAnalysis a = c->analyse();
        QCOMPARE(a.ops.size(), std::size_t(1));
        const cluster::CommBoundResult &r = a.ops.front();
        QVERIFY2(r.verdict == cluster::CommBoundVerdict::HostBound, qPrintable(r.reason));
        QCOMPARE(r.latency, TimeNs(990'000));
        QCOMPARE(r.claimed(), TimeNs(990'000));
        QVERIFY(r.slow.found && r.fast.found);
        QCOMPARE(r.slow.launchApi, QStringLiteral("AscendCL@hcom_allReduce_"));
        QCOMPARE(*r.launchDifference, TimeNs(1'490'000)); // -1010 µs against -2500 µs before the end
        QCOMPARE(*r.launchAfterFastArrival, TimeNs(990'000));
        QCOMPARE(*r.deviceAfterFastArrival, TimeNs(-100'000)); // the kernel ended before rank 0 arrived
        QCOMPARE(r.slow.stream, QStringLiteral("Stream 2"));
        QCOMPARE(r.slow.preceding.back().name, QStringLiteral("MatMul"));
        QVERIFY(r.reason.contains(QStringLiteral("host-bound")));
        QVERIFY(r.reason.contains(QStringLiteral("AscendCL@hcom_allReduce_")));
    }

    // Rank 2's stream ran MatMul until the op started, 1 ms after rank 0 arrived, though the host had
    // launched the op long before: device-bound, the kernel named.
    void deviceBusy()
    {
        const auto c = loadCase(CommBoundCase::DeviceBusy);
        const cluster::CommBoundAnalysis a = c->analyse();
        QCOMPARE(a.ops.size(), std::size_t(1));
        const cluster::CommBoundResult &r = a.ops.front();
        QVERIFY2(r.verdict == cluster::CommBoundVerdict::DeviceBound, qPrintable(r.reason));
        QCOMPARE(r.latency, TimeNs(1'000'000));
        QCOMPARE(*r.deviceAfterFastArrival, TimeNs(1'000'000));
        QCOMPARE(*r.launchAfterFastArrival, TimeNs(-500'000));
        QCOMPARE(r.slow.preceding.back().name, QStringLiteral("MatMul"));
        QCOMPARE(r.slow.preceding.back().end - r.slow.preceding.back().start, TimeNs(1'900'000));
        QVERIFY(r.reason.contains(QStringLiteral("MatMul")));
    }

    // Rank 2 has no host data: no host-bound verdict, and the reason says what to collect.
    void noHostData()
    {
        const auto c = loadCase(CommBoundCase::NoHostData);
        const cluster::CommBoundAnalysis a = c->analyse();
        QCOMPARE(a.ops.size(), std::size_t(1));
        const cluster::CommBoundResult &r = a.ops.front();
        QVERIFY2(r.verdict == cluster::CommBoundVerdict::Undetermined, qPrintable(r.reason));
        QVERIFY(!r.slow.hasHostData);
        QVERIFY(!r.slow.launch);
        QVERIFY2(r.reason.contains(QStringLiteral("rank 2 has no host data")), qPrintable(r.reason));
        QVERIFY(r.reason.contains(QStringLiteral("ProfilerActivity.CPU")));
        QCOMPARE(r.latency, TimeNs(0));
        QCOMPARE(r.claimed(), TimeNs(0));
    }

    // Without the slow rank's timeline nothing is claimed, and the reason says so.
    void noTimeline()
    {
        const auto c = loadCase(CommBoundCase::HostLate);
        const cluster::CommBoundAnalysis a = cluster::analyseCommBound(c->model, [](int rank) {
            cluster::RankTimeline t;
            t.problem = QStringLiteral("rank %1: test").arg(rank);
            return t;
        });
        QCOMPARE(a.ops.size(), std::size_t(1));
        QVERIFY(a.ops.front().verdict == cluster::CommBoundVerdict::Undetermined);
        QVERIFY2(a.ops.front().reason.contains(QStringLiteral("rank 2's timeline could not be loaded")),
                 qPrintable(a.ops.front().reason));
    }

    // The finding: its time is the latency bounded by rank 0's measured wait, its part exposed communication,
    // its occurrence opens the slow and the fast rank at the op.
    void finding()
    {
        const auto c = loadCase(CommBoundCase::HostLate);
        const cluster::CommBoundAnalysis a = c->analyse();
        const TraceModel noTimeline;
        InsightContext context(noTimeline, &c->model);
        context.commBound = &a;
        const std::vector<Finding> findings = clusterFindings(context);
        const auto it = std::find_if(findings.begin(), findings.end(),
                                     [](const Finding &f) { return f.check == QLatin1String("comm_bound"); });
        QVERIFY(it != findings.end());
        QCOMPARE(it->timeAtStake, TimeNs(990'000));
        QVERIFY(it->part == StepPart::CommunicationNotOverlapped);
        QCOMPARE(it->rank, 0); // the rank that waited
        QCOMPARE(it->occurrences.size(), std::size_t(1));
        const FindingOccurrence &o = it->occurrences.front();
        QCOMPARE(o.op, QLatin1String(kOp));
        QCOMPARE(o.ranks, (std::vector<int>{kCommBoundSlowRank, 0}));
        QVERIFY(o.duration <= TimeNs(1'000'000));
        // Without the analysis (no --comm-bound) there is no such finding.
        InsightContext without(noTimeline, &c->model);
        for (const Finding &f : clusterFindings(without))
            QVERIFY(f.check != QLatin1String("comm_bound"));
    }

    // `--cluster --comm-bound --json`: the comm_bound block with the verdict and its evidence, and the
    // finding; without --comm-bound neither.
    void cliJson()
    {
        QTemporaryDir dir;
        writeCommBoundCluster(dir.path(), CommBoundCase::DeviceBusy);
        const at_test::AppRun r = at_test::runApp({QStringLiteral("--cluster"), dir.path(),
                                                   QStringLiteral("--comm-bound"), QStringLiteral("--json")},
                                                  60000);
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject block = root[QStringLiteral("comm_bound")].toObject();
        QCOMPARE(block[QStringLiteral("ops_with_gap")].toInt(), 1);
        QCOMPARE(block[QStringLiteral("max_ops")].toInt(), cluster::kCommBoundDefaultOps);
        const QJsonArray ops = block[QStringLiteral("ops")].toArray();
        QCOMPARE(ops.size(), 1);
        const QJsonObject op = ops.first().toObject();
        QCOMPARE(op[QStringLiteral("op")].toString(), QLatin1String(kOp));
        QCOMPARE(op[QStringLiteral("fast_rank")].toInt(), 0);
        QCOMPARE(op[QStringLiteral("slow_rank")].toInt(), kCommBoundSlowRank);
        QCOMPARE(op[QStringLiteral("verdict")].toString(), QStringLiteral("device_bound"));
        QCOMPARE(op[QStringLiteral("gap_us")].toDouble(), 1000.0);
        QCOMPARE(op[QStringLiteral("latency_us")].toDouble(), 1000.0);
        QCOMPARE(op[QStringLiteral("device_after_fast_arrival_us")].toDouble(), 1000.0);
        const QJsonObject slow = op[QStringLiteral("slow")].toObject();
        QCOMPARE(slow[QStringLiteral("stream")].toString(), QStringLiteral("Stream 2"));
        QCOMPARE(
            slow[QStringLiteral("preceding")].toArray().last().toObject()[QStringLiteral("name")].toString(),
            QStringLiteral("MatMul"));
        QCOMPARE(slow[QStringLiteral("launch_api")].toString(), QStringLiteral("AscendCL@hcom_allReduce_"));
        bool found = false;
        for (const QJsonValue &f : root[QStringLiteral("findings")].toArray())
            found = found || f.toObject()[QStringLiteral("check")].toString() == QStringLiteral("comm_bound");
        QVERIFY(found);

        const at_test::AppRun plain =
            at_test::runApp({QStringLiteral("--cluster"), dir.path(), QStringLiteral("--json")}, 60000);
        QCOMPARE(plain.exitCode, 0);
        const QJsonObject plainRoot = QJsonDocument::fromJson(plain.out).object();
        QVERIFY(plainRoot.contains(QStringLiteral("ranks")));
        QVERIFY(!plainRoot.contains(QStringLiteral("comm_bound")));
        for (const QJsonValue &f : plainRoot[QStringLiteral("findings")].toArray())
            QVERIFY(f.toObject()[QStringLiteral("check")].toString() != QStringLiteral("comm_bound"));
    }

    // The text block names the verdict.
    void cliText()
    {
        QTemporaryDir dir;
        writeCommBoundCluster(dir.path(), CommBoundCase::HostLate);
        const at_test::AppRun r =
            at_test::runApp({QStringLiteral("--cluster"), dir.path(), QStringLiteral("--comm-bound")}, 60000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("host- or device-bound communication"), r.out.constData());
        QVERIFY(r.out.contains("host-bound"));
    }
};

QTEST_GUILESS_MAIN(TstCommBound)
#include "tst_comm_bound.moc"
