// The cluster summary reader on the real Qwen3 4-rank PP=2 and AlexNet 2-rank samples (FORMATS.md §9.1).
#include "ClusterTestSupport.h"
#include "ExactText.h"
#include "cluster/ClusterNumbers.h"
#include "cluster/ClusterReader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::cluster;
using namespace at::test;

class TstClusterReader : public QObject
{
    Q_OBJECT

private slots:
    void decimalsToNs()
    {
        QCOMPARE(parseDecimalToNs("231290.09999999995", TimeUnit::Microseconds), TimeNs(231290100));
        QCOMPARE(parseDecimalToNs("810022.25", TimeUnit::Microseconds), TimeNs(810022250));
        QCOMPARE(parseDecimalToNs("88.75099321875", TimeUnit::Milliseconds), TimeNs(88750993));
        QCOMPARE(parseDecimalToNs("6.000000000000001e-05", TimeUnit::Milliseconds), TimeNs(60));
        QCOMPARE(parseDecimalToNs("1764246877147674.5", TimeUnit::Microseconds), TimeNs(1764246877147674500));
        QCOMPARE(parseDecimalToNs("-3", TimeUnit::Microseconds), TimeNs(-3000));
        QCOMPARE(parseDecimalToNs("0", TimeUnit::Milliseconds), TimeNs(0));
        QVERIFY(!parseDecimalToNs("", TimeUnit::Microseconds));
        QVERIFY(!parseDecimalToNs("abc", TimeUnit::Microseconds));
        QVERIFY(!parseDecimalToNs("1e30", TimeUnit::Microseconds));
        QCOMPARE(microsText(231290100), QStringLiteral("231290.1"));
        QCOMPARE(microsText(810022250), QStringLiteral("810022.25"));
        QCOMPARE(microsText(-1500), QStringLiteral("-1.5"));
        QCOMPARE(microsText(0), QStringLiteral("0"));
        QCOMPARE(doubleHash(QStringLiteral("group_name_19")), QStringLiteral("3985310405473756128"));
    }

    // All four ranks, summary-only ranks 1 and 3 included; devices 0,1,4,5 apart from ranks 0..3; each
    // rank's breakdown equal to its step_trace_time.csv to the µs; stages from the pp groups.
    void qwen3AllRanks()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), std::size_t(4));
        const int devices[] = {0, 1, 4, 5};
        const int stages[] = {0, 0, 1, 1};
        for (int r = 0; r < 4; ++r) {
            const Rank &rank = model.ranks[static_cast<std::size_t>(r)];
            QCOMPARE(rank.rank, r);
            QCOMPARE(rank.device, devices[r]);
            QCOMPARE(rank.stage, stages[r]);
            QCOMPARE(rank.hasTimeline, r == 0 || r == 2); // ranks 1/3: summary files only
            const auto csv = readStepTraceCsvIndependently(
                rank.folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
            QCOMPARE(csv.size(), std::size_t(1));
            QCOMPARE(rank.steps.size(), std::size_t(1));
            const RankStep &s = rank.steps.front();
            auto row = csv.front();
            QCOMPARE(s.source, BreakdownSource::StepTraceCsv);
            QCOMPARE(s.step, std::int64_t(13));
            QCOMPARE(s.computing, row[QStringLiteral("Computing")]);
            QCOMPARE(s.communicationNotOverlapped, row[QStringLiteral("Communication(Not Overlapped)")]);
            QCOMPARE(s.overlapped, row[QStringLiteral("Overlapped")]);
            QCOMPARE(s.communication, row[QStringLiteral("Communication")]);
            QCOMPARE(s.free, row[QStringLiteral("Free")]);
            QCOMPARE(s.stage, row[QStringLiteral("Stage")]);
            QCOMPARE(s.bubble, row[QStringLiteral("Bubble")]);
            QCOMPARE(s.communicationNotOverlappedExcludeReceive,
                     row[QStringLiteral("Communication(Not Overlapped and Exclude Receive)")]);
            QCOMPARE(s.preparing, row[QStringLiteral("Preparing")]);
            QVERIFY(s.hasPreparing);
        }
        QCOMPARE(model.ranks[0].steps[0].computing, TimeNs(231290100));
        QCOMPARE(model.ranks[2].steps[0].computing, TimeNs(400448260));

        // Groups merged over the ranks by key: dp [2,3] only ranks 2/3 list.
        QVERIFY(model.distributed.present);
        QCOMPARE(model.distributed.pp, 2);
        QCOMPARE(model.distributed.dp, 2);
        QCOMPARE(model.groupsNamed(QStringLiteral("pp")).size(), std::size_t(2));
        QCOMPARE(model.groupsNamed(QStringLiteral("dp")).size(), std::size_t(1));
        QCOMPARE(model.groupsNamed(QStringLiteral("dp")).front()->globalRanks, (std::vector<int>{2, 3}));
        const ParallelGroup *pp = model.groupByHash(QStringLiteral("3985310405473756128"));
        QVERIFY(pp);
        QCOMPARE(pp->name, QStringLiteral("pp"));
        QCOMPARE(pp->globalRanks, (std::vector<int>{0, 2}));

        // communication.json: 17 entries on rank 0 (two of them Total Op Info), exact ms.
        const Rank &r0 = model.ranks[0];
        QCOMPARE(r0.ops.size(), std::size_t(17));
        QCOMPARE(std::count_if(r0.ops.begin(), r0.ops.end(), [](const CommOp &o) { return o.total; }), 2);
        const CommOp &first = r0.ops.front();
        QCOMPARE(first.name, QStringLiteral("hcom_batchSendRecv__128_3_1"));
        QCOMPARE(first.group, QStringLiteral("3985310405473756128"));
        QVERIFY(first.p2p);
        QCOMPARE(first.step, std::int64_t(13));
        QCOMPARE(first.startAbsolute, TimeNs(1764246877147674500));
        QCOMPARE(first.elapse, TimeNs(436140));
        QCOMPARE(first.wait, TimeNs(403500));
        QCOMPARE(first.idle, TimeNs(32640));
        QCOMPARE(first.waitRatio, 1.0);
        QCOMPARE(first.bandwidth.size(), std::size_t(5));
        const CommOp &rs = r0.ops[4];
        QCOMPARE(rs.name, QStringLiteral("hcom_reduceScatter__097_4_1"));
        const TransportBandwidth *hccs = rs.transport(QStringLiteral("HCCS"));
        QVERIFY(hccs);
        QCOMPARE(hccs->time, TimeNs(23565600));
        QCOMPARE(*hccs->bandwidthGbps, 18.6911);
        QCOMPARE(hccs->sizes.size(), std::size_t(2));
        QCOMPARE(hccs->sizes[0].count, std::int64_t(3));
        QCOMPARE(hccs->sizes[0].time, TimeNs(20196340));

        // communication_matrix.json: group-local ranks mapped to global ones through the pp group [0, 2].
        QCOMPARE(r0.links.size(), std::size_t(67));
        const MatrixLink &link = r0.links[1];
        QCOMPARE(link.opKey, QStringLiteral("batchsendrecv-top1"));
        QCOMPARE(link.srcLocal, 0);
        QCOMPARE(link.dstLocal, 1);
        QCOMPARE(link.src, 0);
        QCOMPARE(link.dst, 2);
        QCOMPARE(link.transport, QStringLiteral("HCCS"));
        QCOMPARE(link.bandwidthGbps, 20.9349);
        QCOMPARE(link.time, TimeNs(400700));
        QCOMPARE(model.ranks[2].links.size(), std::size_t(90));
    }

    // AlexNet text: two ranks, no Device_id column (a bare "NPU" label) → device -1.
    void alexnetText()
    {
        const ClusterModel model = readCluster(alexnetTextCluster());
        QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), std::size_t(2));
        QCOMPARE(model.ranks[0].device, -1);
        QCOMPARE(model.ranks[0].stage, -1);
        QCOMPARE(model.ranks[0].steps[0].step, std::int64_t(50));
        QCOMPARE(model.ranks[0].steps[0].computing, TimeNs(8873756));
        QCOMPARE(model.ranks[0].steps[0].overlapped, TimeNs(4028675));
        QCOMPARE(model.ranks[1].steps[0].free, TimeNs(26675274));
        QCOMPARE(model.ranks[1].steps[0].preparing, TimeNs(20433250));
        QVERIFY(!model.distributed.present);
        QVERIFY(model.ranks[0].hasTimeline);
        QVERIFY(!model.ranks[0].ops.empty());
    }

    // AlexNet db: analysis.db StepTraceTime and CommAnalyzer tables (exact decimals of the REAL values).
    void alexnetDatabase()
    {
        const ClusterModel model = readCluster(alexnetDbCluster());
        QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), std::size_t(1));
        const Rank &r = model.ranks[0];
        QCOMPARE(r.rank, 0);
        QCOMPARE(r.steps.size(), std::size_t(1));
        const RankStep &s = r.steps[0];
        QCOMPARE(s.source, BreakdownSource::Database);
        QCOMPARE(s.step, std::int64_t(50));
        QCOMPARE(s.computing, TimeNs(8903431));
        QCOMPARE(s.communicationNotOverlapped, TimeNs(98071947));
        QCOMPARE(s.overlapped, TimeNs(4036153));
        QCOMPARE(s.communication, TimeNs(102108100));
        QCOMPARE(s.free, TimeNs(25258144));
        QCOMPARE(s.stage, TimeNs(132233522));
        QCOMPARE(s.preparing, TimeNs(18055693));
        QCOMPARE(r.ops.size(), std::size_t(4));
        QCOMPARE(r.ops[0].name, QStringLiteral("hcom_allReduce__210_0_1"));
        QCOMPARE(r.ops[0].elapse, TimeNs(88750993));
        const TransportBandwidth *hccs = r.ops[0].transport(QStringLiteral("HCCS"));
        QVERIFY(hccs);
        QCOMPARE(hccs->sizes.size(), std::size_t(2));
        QCOMPARE(r.links.size(), std::size_t(48));
        QVERIFY(r.hasTimeline);
    }

    // Without analysis.db the profiler database's STEP_TIME + OVERLAP_ANALYSIS give the same breakdown
    // (analysis.db rounds to 0.01 µs).
    void profilerDatabaseOnly()
    {
        QTemporaryDir dir;
        const QString rankDir = dir.filePath(QStringLiteral("rank0_ascend_pt"));
        QDir().mkpath(rankDir + QStringLiteral("/ASCEND_PROFILER_OUTPUT"));
        const QString source = alexnetDbCluster() + QStringLiteral("/rank0_ascend_pt");
        QVERIFY(QFile::copy(source + QStringLiteral("/profiler_info_0.json"),
                            rankDir + QStringLiteral("/profiler_info_0.json")));
        QVERIFY(
            QFile::copy(source + QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"),
                        rankDir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db")));
        const ClusterModel model = readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(1));
        QCOMPARE(model.ranks[0].steps.size(), std::size_t(1));
        const RankStep &s = model.ranks[0].steps[0];
        QCOMPARE(s.source, BreakdownSource::Database);
        QCOMPARE(s.step, std::int64_t(50));
        auto near = [](TimeNs a, TimeNs b) { return std::abs(a - b) <= 5; };
        QVERIFY2(near(s.computing, 8903431), qPrintable(QString::number(s.computing)));
        QVERIFY2(near(s.communicationNotOverlapped, 98071947),
                 qPrintable(QString::number(s.communicationNotOverlapped)));
        QVERIFY2(near(s.communication, 102108100), qPrintable(QString::number(s.communication)));
        QVERIFY2(near(s.free, 25258144), qPrintable(QString::number(s.free)));
        QVERIFY2(near(s.stage, 132233522), qPrintable(QString::number(s.stage)));
        QVERIFY2(near(s.preparing, 18055693), qPrintable(QString::number(s.preparing)));
    }

    // Bad input: a broken communication.json is named in a warning; the rank and its steps stay.
    void brokenFilesKeepTheRest()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("r0_ascend_pt/ASCEND_PROFILER_OUTPUT/"));
        writeTextFile(dir.filePath(QStringLiteral("r0_ascend_pt/profiler_info_7.json")), "{}");
        writeTextFile(
            out + QStringLiteral("step_trace_time.csv"),
            "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive)\n3,10.5,2,0,2,1,13.5,0,2\n");
        writeTextFile(out + QStringLiteral("communication.json"), "{\"step3\": {\"collective\": {");
        writeTextFile(dir.filePath(QStringLiteral("nothing_ascend_pt/readme.txt")), "x");
        const ClusterModel model = readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(1));
        QCOMPARE(model.ranks[0].rank, 7);
        QCOMPARE(model.ranks[0].steps[0].computing, TimeNs(10500));
        QVERIFY(!model.ranks[0].steps[0].hasPreparing);
        QCOMPARE(model.warnings.size(), 2);
        QVERIFY(model.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("communication.json")));
        QVERIFY(model.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("nothing_ascend_pt")));
        QVERIFY(isClusterFolder(qwen3Cluster()));
        QVERIFY(!isClusterFolder(dir.path()));
    }
};

QTEST_GUILESS_MAIN(TstClusterReader)
#include "tst_cluster_reader.moc"
