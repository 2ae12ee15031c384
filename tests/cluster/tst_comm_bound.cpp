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

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <memory>

using namespace at;
using namespace at::test;

namespace {

// A trace_view.json "ts" / "dur" µs decimal as ns, from its text (a double cannot hold 1.7e15 µs to the ns).
TimeNs microsTextToNs(const QString &text)
{
    const QStringList parts = text.split(QLatin1Char('.'));
    QString fraction = parts.value(1).left(3);
    while (fraction.size() < 3)
        fraction += QLatin1Char('0');
    return parts[0].toLongLong() * 1000 + fraction.toLongLong();
}

// The first X event named `name` in a rank's trace_view.json: (start, end) in ns.
std::pair<TimeNs, TimeNs> eventSpan(const QString &rankFolder, const QString &name)
{
    QFile file(rankFolder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {0, 0};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    const QJsonArray events =
        doc.isArray() ? doc.array() : doc.object()[QStringLiteral("traceEvents")].toArray();
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        if (e[QStringLiteral("ph")].toString() != QStringLiteral("X") ||
            e[QStringLiteral("name")].toString() != name)
            continue;
        const QJsonValue ts = e[QStringLiteral("ts")];
        const TimeNs start =
            microsTextToNs(ts.isString() ? ts.toString() : QString::number(ts.toDouble(), 'f', 3));
        return {start, start + std::llround(e[QStringLiteral("dur")].toDouble() * 1000.0)};
    }
    return {0, 0};
}

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

    // The real 2-rank AlexNet level1 text export: rank 1 arrived 5.614 ms after rank 0 at the first
    // allreduce; its comm stream (Stream 4) waited on an EVENT_WAIT (the compute stream's gradients) that
    // ended 4.954 ms after rank 0 had arrived, and its host launch (AscendCL@hcom_allReduce_) came earlier
    // than that: device-bound. The op's times are checked against the trace files' own text.
    void alexnetAllreduce()
    {
        LoadedCluster c;
        c.model = cluster::readCluster(alexnetTextCluster());
        const cluster::CommBoundAnalysis a = c.analyse();
        QCOMPARE(a.opsWithGap, 1);
        QCOMPARE(a.ops.size(), std::size_t(1));
        const cluster::CommBoundResult &r = a.ops.front();
        QCOMPARE(r.op.op, QStringLiteral("hcom_allReduce__586_0_1"));
        QCOMPARE(r.op.fastRank, 0);
        QCOMPARE(r.op.slowRank, 1);
        QVERIFY2(r.verdict == cluster::CommBoundVerdict::DeviceBound, qPrintable(r.reason));
        QCOMPARE(r.slow.stream, QStringLiteral("Stream 4"));
        QVERIFY(!r.slow.streamInferred);
        QCOMPARE(r.slow.preceding.back().name, QStringLiteral("EVENT_WAIT"));
        QCOMPARE(r.slow.launchApi, QStringLiteral("Node@launch")); // the CANN node launch the flow starts on
        const auto [fastStart, fastEnd] =
            eventSpan(c.model.rank(0)->folder, QStringLiteral("hcom_allReduce__586_0_1"));
        const auto [slowStart, slowEnd] =
            eventSpan(c.model.rank(1)->folder, QStringLiteral("hcom_allReduce__586_0_1"));
        QCOMPARE(r.fast.opStart, fastStart);
        QCOMPARE(r.slow.opStart, slowStart);
        QVERIFY(std::abs(r.fast.opEnd - fastEnd) <= 1 && std::abs(r.slow.opEnd - slowEnd) <= 1);
        const TimeNs expected =
            (r.slow.preceding.back().end - r.slow.opEnd) - (r.fast.opStart - r.fast.opEnd);
        QCOMPARE(*r.deviceAfterFastArrival, expected);
        QVERIFY(expected > 4'900'000 && expected < 5'000'000); // 4.954 ms
        QCOMPARE(r.latency, expected);
        QVERIFY(*r.launchAfterFastArrival > 0 && *r.slow.launch < r.slow.preceding.back().end);
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

    // The real Qwen3 pipeline: no rank has host data, so no op is host-bound; the ops whose slow rank (3)
    // keeps no timeline are undetermined and say so; rank 2's kernel rows give device-bound verdicts on the
    // stream busy last before the op (the rows write no stream for HCCL ops).
    void qwen3NeverHostBound()
    {
        const at_test::AppRun r = at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(),
                                                   QStringLiteral("--comm-bound"), QStringLiteral("--json")},
                                                  60000);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject block =
            QJsonDocument::fromJson(r.out).object()[QStringLiteral("comm_bound")].toObject();
        const QJsonArray ops = block[QStringLiteral("ops")].toArray();
        QCOMPARE(ops.size(), cluster::kCommBoundDefaultOps);
        QVERIFY(block[QStringLiteral("ops_with_gap")].toInt() >= ops.size());
        int undetermined = 0, device = 0;
        for (const QJsonValue &v : ops) {
            const QJsonObject op = v.toObject();
            const QString verdict = op[QStringLiteral("verdict")].toString();
            QVERIFY(verdict != QStringLiteral("host_bound"));
            const QJsonObject slow = op[QStringLiteral("slow")].toObject();
            QVERIFY(!slow[QStringLiteral("has_host_data")].toBool());
            if (op[QStringLiteral("slow_rank")].toInt() == 3) {
                QCOMPARE(verdict, QStringLiteral("undetermined"));
                QVERIFY(op[QStringLiteral("reason")].toString().contains(
                    QStringLiteral("rank 3 has no timeline")));
                ++undetermined;
            } else {
                QCOMPARE(verdict, QStringLiteral("device_bound"));
                QVERIFY(slow[QStringLiteral("stream_inferred")].toBool());
                QVERIFY(op[QStringLiteral("claimed_us")].toDouble() <=
                        op[QStringLiteral("fast_wait_us")].toDouble());
                ++device;
            }
        }
        QCOMPARE(undetermined, 2);
        QCOMPARE(device, 3);
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
