// The insight checks (core/insights, docs/INSIGHTS.md) on the alexnet samples, where the problems are
// present, and on synthetic models built here with exact expected values, plus clean models that must
// give no finding of the check.

#include "FindingJson.h"
#include "InsightChecks.h"
#include "QueueDepth.h"
#include "Steps.h"
#include "TestSupport.h"
#include "TraceBuilder.h"
#include "cluster/ClusterReader.h"

#include "../cluster/SyntheticCluster.h"
#include "../sqlite/SqliteTestUtil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace at;
using namespace at::test;

namespace {

QString level1Rank0Folder()
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
}

std::vector<Finding> findingsOf(const std::vector<Finding> &all, const QString &check)
{
    std::vector<Finding> out;
    for (const Finding &f : all)
        if (f.check == check)
            out.push_back(f);
    return out;
}

QString qwen3Folder()
{
    return samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
}

// Runs one check alone (with the cluster / communication data when given).
std::vector<Finding> runCheck(const TraceModel &model, const char *id,
                              const cluster::ClusterModel *clusterData = nullptr)
{
    std::vector<Finding> out;
    const InsightContext context(model, clusterData);
    for (const InsightCheck &check : insightChecks()) {
        if (QByteArray(check.id) == id)
            check.run(context, out);
    }
    return out;
}

constexpr TimeNs kT0 = 1'000'000'000'000'000; // absolute ns of the synthetic models

// Args by byte offset, as a parser's reader would give them.
class FakeArgs : public EventArgsReader
{
public:
    std::map<std::uint64_t, std::vector<std::pair<QString, QString>>> args;
    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override
    {
        const auto it = args.find(offset);
        return it == args.end() ? std::vector<std::pair<QString, QString>>{} : it->second;
    }
};

struct Synthetic
{
    TraceBuilder b;
    StringId name(const char *s) { return b.strings().intern(s); }
    int thread(std::int64_t pid, const char *process, std::int64_t tid)
    {
        b.setProcessName(b.process(b.numberKey(pid)), name(process));
        return b.thread(b.numberKey(pid), b.numberKey(tid));
    }
    void slice(int thread, TimeNs startUs, TimeNs durUs, const char *n, SourceLocation source = kNoSource)
    {
        b.addSlice(thread, kT0 + startUs * 1000, durUs * 1000, name(n), 0, source);
    }
};

} // namespace

class TestInsights : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_level1 = loadOrFail(level1Rank0Folder());
        QVERIFY(m_level1);
        QCOMPARE(m_level1->steps().size(), std::size_t(1));
        m_findings = runInsightChecks(*m_level1);
    }

    // Host bound on the real step: the time at stake is the step's Free, which torch_npu wrote as
    // 25744.050 µs into step_trace_time.csv (FORMATS.md §9.2 worked check).
    void hostBoundOnLevel1()
    {
        const auto found = runCheck(*m_level1, "host_bound"); // what the check measured
        const auto attributed = findingsOf(m_findings, QStringLiteral("host_bound"));
        QCOMPARE(attributed.size(), std::size_t(1));
        // runInsightChecks() gives host_bound only the Free time the specific causes left (docs/INSIGHTS.md).
        QVERIFY(attributed.front().timeAtStake < found.front().timeAtStake);
        QCOMPARE(attributed.front().data.value(QStringLiteral("measured_us")).toDouble(),
                 found.front().timeAtStake / 1000.0);
        QCOMPARE(found.size(), std::size_t(1));
        const Finding &f = found.front();
        QVERIFY(std::abs(f.timeAtStake - 25'744'050) <= 10); // ns rounding of the lane sums
        const Step &step = m_level1->steps().front();
        QCOMPARE(f.timeAtStake, step.breakdown.free);
        QCOMPARE(f.severity, Severity::High); // 18.2 % of the 141.164 ms stage
        QVERIFY(qAbs(f.data.value(QStringLiteral("free_ratio")).toDouble() - 25744.050 / 141164.0) < 1e-3);
        // Occurrences are idle gaps inside the stage, longest first, each ending at a device task.
        QVERIFY(!f.occurrences.empty());
        for (std::size_t i = 0; i < f.occurrences.size(); ++i) {
            const FindingOccurrence &o = f.occurrences[i];
            QVERIFY(o.slice.isValid());
            QVERIFY(o.start >= step.stageBegin && o.start + o.duration <= step.stageEnd);
            QCOMPARE(o.start + o.duration,
                     m_level1->threads()[std::size_t(o.slice.thread)].slices.start(o.slice.index));
            if (i > 0)
                QVERIFY(o.duration <= f.occurrences[i - 1].duration);
        }
        // No gap is larger than the step's whole Free time.
        QVERIFY(f.occurrences.front().duration <= f.timeAtStake);
    }

    // The SGD optimizer of the sample: one Optimizer.step#SGD.step slice → NpuFusedSGD.
    void fusedOptimizerOnLevel1()
    {
        const auto found = runCheck(*m_level1, "affinity_optimizer"); // measured, before attribution
        QCOMPARE(found.size(), std::size_t(1));
        // Attributed: only the computing inside the optimizer step counts (docs/INSIGHTS.md).
        const auto attributed = findingsOf(m_findings, QStringLiteral("affinity_optimizer"));
        QCOMPARE(attributed.size(), std::size_t(1));
        QCOMPARE(attributed.front().part, StepPart::Computing);
        QVERIFY(attributed.front().timeAtStake <= attributed.front().partTime);
        const SliceRef sgd = uniqueSlice(*m_level1, QStringLiteral("Optimizer.step#SGD.step"));
        QVERIFY(sgd.isValid());
        const Finding &f = found.front();
        QCOMPARE(f.occurrences.size(), std::size_t(1));
        QCOMPARE(f.occurrences.front().slice, sgd);
        QCOMPARE(f.timeAtStake, m_level1->threads()[std::size_t(sgd.thread)].slices.duration(sgd.index));
        QCOMPARE(f.timeAtStake, TimeNs(10'512'400)); // dur 10512.4 µs in trace_view.json
        QCOMPARE(f.data.value(QStringLiteral("fused_api")).toString(),
                 QStringLiteral("torch_npu.optim.NpuFusedSGD"));
        QVERIFY(f.fix.contains(QStringLiteral("torch_npu.optim.NpuFusedSGD")));
    }

    // 19 aclopCompileAndExecute calls in the sample: one below MAX_OP_COMPILE_NUM (20), no finding.
    void operatorCompileBelowThresholdOnLevel1()
    {
        int calls = 0;
        for (const SliceRef &ref :
             searchSlices(*m_level1, QStringLiteral("AscendCL@aclopCompileAndExecute"), {true}))
            calls += m_level1->sliceName(ref) == QStringLiteral("AscendCL@aclopCompileAndExecute");
        QCOMPARE(calls, 19);
        QVERIFY(findingsOf(m_findings, QStringLiteral("operator_compile")).empty());
    }

    // The sample's transfers are ON_CHIP or 512-aligned except four cross-chip SDMA ones.
    void byteAlignmentOnLevel1()
    {
        const auto found = findingsOf(m_findings, QStringLiteral("byte_alignment"));
        QCOMPARE(found.size(), std::size_t(1));
        TimeNs expected = 0;
        int count = 0;
        for (const char *name : {"Memcpy", "Reduce_Inline"}) {
            for (const SliceRef &ref : searchSlices(*m_level1, QString::fromLatin1(name), {true})) {
                if (m_level1->sliceName(ref) != QLatin1String(name))
                    continue;
                QString transport, link;
                qint64 size = 0;
                for (const auto &[k, v] : m_level1->sliceArgs(ref)) {
                    transport = k == QLatin1String("transport type") ? v : transport;
                    link = k == QLatin1String("link type") ? v : link;
                    size = k == QLatin1String("size(Byte)") ? v.toLongLong() : size;
                }
                if (transport == QLatin1String("SDMA") && link != QLatin1String("ON_CHIP") && size > 512 &&
                    size % 512 != 0) {
                    expected += m_level1->threads()[std::size_t(ref.thread)].slices.duration(ref.index);
                    ++count;
                }
            }
        }
        QCOMPARE(count, 4);
        QCOMPARE(found.front().occurrences.size(), std::size_t(4));
        QCOMPARE(found.front().timeAtStake, expected);
        QCOMPARE(found.front().severity, Severity::Low); // 1.5 % of the SDMA time < 0.2
    }

    // Both alexnet ranks run every operator with a dynamic shape (OP State "dynamic" on 187 rows, "N/A"
    // on the 4 communication rows, none "static": FORMATS.md §9.6); what it costs is the operator
    // compilation, 19 AscendCL@aclopCompileAndExecute calls in this sample.
    void dynamicShapeOnLevel1()
    {
        const auto found = runCheck(*m_level1, "dynamic_shape"); // measured, before attribution
        // Attributed: only the compile time inside the step's Free time counts.
        const auto attributed = findingsOf(m_findings, QStringLiteral("dynamic_shape"));
        QCOMPARE(attributed.size(), std::size_t(1));
        QVERIFY(attributed.front().timeAtStake <= found.front().timeAtStake);
        QCOMPARE(attributed.front().part, StepPart::Free);
        QCOMPARE(found.size(), std::size_t(1));
        const Finding &f = found.front();
        QCOMPARE(f.data.value(QStringLiteral("dynamic_ops")).toInt(), 187);
        QCOMPARE(f.data.value(QStringLiteral("other_ops")).toInt(), 4);
        QCOMPARE(f.data.value(QStringLiteral("compile_calls")).toInt(), 19);
        TimeNs compile = 0;
        int calls = 0;
        for (const SliceRef &ref : searchSlices(*m_level1, QStringLiteral("AscendCL@aclopCompile"), {true})) {
            if (!m_level1->sliceName(ref).startsWith(QStringLiteral("AscendCL@aclopCompile")))
                continue;
            compile += m_level1->threads()[std::size_t(ref.thread)].slices.duration(ref.index);
            ++calls;
        }
        QCOMPARE(calls, 19);
        QCOMPARE(f.timeAtStake, compile);
        QCOMPARE(f.occurrences.size(), std::size_t(19));
        QVERIFY(f.fix.contains(QStringLiteral("jit_compile=False")));
        // The kernel rows keep the column (snapshot format 7 stores it).
        int dynamicRows = 0;
        for (const KernelRecord &row : m_level1->kernels().rows())
            dynamicRows += m_level1->strings().view(row.opState) == "dynamic";
        QCOMPARE(dynamicRows, 187);
        // §9.6: Block Dim and operator-no-bound are skipped for a dynamic-shape profile.
        QVERIFY(findingsOf(m_findings, QStringLiteral("block_dim")).empty());
        QVERIFY(findingsOf(m_findings, QStringLiteral("operator_no_bound")).empty());
    }

    // OP State from a profiler database: COMPUTE_TASK_INFO.opState (a STRING_IDS id) when the column
    // exists. No sample database has it, so a copy of the alexnet one gets it, every row "dynamic".
    void dynamicShapeFromDatabase()
    {
        QTemporaryDir dir;
        const QString db = copyInto(torchDb(), dir.path());
        QVERIFY(!db.isEmpty());
        int rows = 0;
        {
            ExpectDb edit(db, true);
            QVERIFY(edit.ok());
            const qint64 id = edit.value(QStringLiteral("SELECT MAX(id) + 1 FROM STRING_IDS")).toLongLong();
            QVERIFY(edit.exec(
                QStringLiteral("INSERT INTO STRING_IDS (id, value) VALUES (%1, 'dynamic')").arg(id)));
            QVERIFY(edit.exec(QStringLiteral("ALTER TABLE COMPUTE_TASK_INFO ADD COLUMN opState INTEGER")));
            QVERIFY(edit.exec(QStringLiteral("UPDATE COMPUTE_TASK_INFO SET opState = %1").arg(id)));
            rows = edit.value(QStringLiteral("SELECT COUNT(*) FROM COMPUTE_TASK_INFO")).toInt();
        }
        QVERIFY(rows > 0);
        const auto model = loadOrFail(db);
        QVERIFY(model);
        int dynamicRows = 0;
        for (const KernelRecord &row : model->kernels().rows())
            dynamicRows += model->strings().view(row.opState) == "dynamic";
        QCOMPARE(dynamicRows, rows);
        const auto found = runCheck(*model, "dynamic_shape");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().data.value(QStringLiteral("dynamic_ops")).toInt(), rows);
        // The unmodified database has no OP State: not judged.
        const auto plain = loadOrFail(torchDb());
        QVERIFY(runCheck(*plain, "dynamic_shape").empty());
    }

    // operator_memory.csv of alexnet level1 rank 0: aten::_foreach_add allocates and frees 17 blocks
    // (245276160 B) inside ProfilerStep#50, cann::ReduceSum7 10 blocks (3735552 B); the longest-lived
    // block lives 5665.090 µs. Informational: no time claimed.
    void memoryChurnOnLevel1()
    {
        const auto found = findingsOf(m_findings, QStringLiteral("memory_churn"));
        QCOMPARE(found.size(), std::size_t(1));
        const Finding &f = found.front();
        QCOMPARE(f.timeAtStake, TimeNs(0));
        QCOMPARE(f.severity, Severity::Low);
        const QJsonArray ops = f.data.value(QStringLiteral("operators")).toArray();
        QCOMPARE(ops.size(), qsizetype(2));
        QCOMPARE(ops[0].toObject().value(QStringLiteral("operator")).toString(),
                 QStringLiteral("aten::_foreach_add"));
        QCOMPARE(ops[0].toObject().value(QStringLiteral("allocations_freed_in_step")).toInt(), 17);
        QCOMPARE(ops[0].toObject().value(QStringLiteral("bytes")).toDouble(), 245276160.0);
        QCOMPARE(ops[0].toObject().value(QStringLiteral("step")).toInt(), 50);
        QCOMPARE(ops[1].toObject().value(QStringLiteral("operator")).toString(),
                 QStringLiteral("cann::ReduceSum7"));
        QCOMPARE(ops[1].toObject().value(QStringLiteral("allocations_freed_in_step")).toInt(), 10);
        QCOMPARE(ops[1].toObject().value(QStringLiteral("bytes")).toDouble(), 3735552.0);
        QCOMPARE(f.occurrences.size(), std::size_t(27));
        QCOMPARE(f.occurrences.front().duration, TimeNs(5'665'090));
        // Each aten:: occurrence is on its operator's slice of the Python lane.
        QCOMPARE(m_level1->sliceName(f.occurrences.front().slice), QStringLiteral("aten::_foreach_add"));
    }

    // One static row among dynamic ones: not a dynamic-shape profile. No OP State at all: not judged.
    void dynamicShapeCleanSynthetic()
    {
        for (const char *second : {"static", ""}) {
            Synthetic s;
            s.b.addGroup(SourceGroup{});
            s.slice(s.thread(1, "CANN", 1), 0, 50, "AscendCL@aclopCompileAndExecute");
            for (const char *state : {"dynamic", second}) {
                KernelRecord r;
                r.name = s.name("Add");
                r.type = s.name("AI_VECTOR_CORE");
                r.start = kT0;
                r.duration = 10'000;
                r.opState = *state ? s.name(state) : 0;
                s.b.kernels().addRow(r);
            }
            const auto model = s.b.build();
            QCOMPARE(runCheck(*model, "dynamic_shape").size(), std::size_t(*second ? 0 : 1));
        }
        Synthetic none;
        none.slice(none.thread(1, "CANN", 1), 0, 50, "AscendCL@aclopCompileAndExecute");
        QVERIFY(runCheck(*none.b.build(), "dynamic_shape").empty());
    }

    // Mix Block Dim (§9.6): MIX_AIC with Block Dim 30 on 48 AIV cores is flagged unless its Mix Block Dim
    // fills them (96); dynamic-shape rows are skipped. Block Dim 30 of 48: 18/48 idle → 0.375 × 80 µs.
    void blockDimMixAndDynamicSynthetic()
    {
        struct Case
        {
            const char *type;
            std::int64_t mix;
            const char *state;
            bool flagged;
        };
        for (const Case c : {Case{"MIX_AIC", 31, "static", true}, Case{"MIX_AIC", 96, "static", false},
                             Case{"MIX_AIC", KernelRecord::kNone, "static", true},
                             Case{"AI_VECTOR_CORE", KernelRecord::kNone, "dynamic", false}}) {
            Synthetic s;
            SourceGroup g;
            g.collection.properties.append({QStringLiteral("aiv_num"), QStringLiteral("48")});
            s.b.addGroup(g);
            s.slice(s.thread(2, "Ascend Hardware", 1), 0, 80, "FlashAttention");
            KernelRecord r;
            r.name = s.name("FlashAttention");
            r.type = s.name(c.type);
            r.start = kT0;
            r.duration = 80'000;
            r.blockDim = 30;
            r.mixBlockDim = c.mix;
            r.opState = s.name(c.state);
            s.b.kernels().addRow(r);
            const auto model = s.b.build();
            const auto found = runCheck(*model, "block_dim");
            QCOMPARE(found.size(), std::size_t(c.flagged ? 1 : 0));
            if (c.flagged)
                QCOMPARE(found.front().timeAtStake, TimeNs(30'000));
        }
    }

    // Qwen3 rank 0's communication.json (FORMATS.md §9.6 "Qwen3: 30.00 % … less than 16.0 MB, 0.8065 ms"):
    // of the 8 ops with SDMA data, 3 move less than 16 MB (two 8.39 MB batchSendRecv, one 288 B
    // allGather), 0.40168 + 0.4007 + 0.00414 ms. msprof-analyze also counts the two Total Op Info entries
    // (3 of 10); they are sums, not ops, so the ratio here is 3 of 8.
    void smallPacketsOnQwen3()
    {
        const QString rank0 = qwen3Folder() + QStringLiteral("/rank_0_ascend_pt");
        const auto model = loadOrFail(rank0);
        QVERIFY(model);
        const cluster::ClusterModel data = cluster::readCluster(rank0);
        QCOMPARE(data.ranks.size(), std::size_t(1));
        const auto found = runCheck(*model, "small_packets", &data);
        QCOMPARE(found.size(), std::size_t(1));
        const Finding &f = found.front();
        QCOMPARE(f.timeAtStake, TimeNs(806'520));
        QCOMPARE(f.data.value(QStringLiteral("transport")).toString(), QStringLiteral("SDMA"));
        QCOMPARE(f.data.value(QStringLiteral("ops")).toInt(), 8);
        QCOMPARE(f.data.value(QStringLiteral("small_ops")).toInt(), 3);
        QCOMPARE(f.occurrences.size(), std::size_t(3));
        QCOMPARE(f.occurrences[0].name, QStringLiteral("hcom_batchSendRecv__128_4_1"));
        QCOMPARE(f.occurrences[1].name, QStringLiteral("hcom_batchSendRecv__128_5_1"));
        QCOMPARE(f.occurrences[2].name, QStringLiteral("hcom_allGather__612_7_1"));
        // Rank 0 has no trace_view.json: its timeline is drawn from kernel_details.csv, and the occurrence is
        // the op's slice there (its HCCL row starts at 1764246877872978.740 µs, 60 ns before
        // communication.json's Start Timestamp 1764246877872978.8; both say Elapse / Duration 541.58 µs).
        QVERIFY(f.occurrences[2].slice.isValid());
        QCOMPARE(model->origin() + f.occurrences[2].start, TimeNs(1'764'246'877'872'978'740));
        QCOMPARE(f.occurrences[2].duration, TimeNs(541'580)); // Elapse Time 0.54158 ms
        // No low-bandwidth SDMA op of this rank overlaps a MatMul: no contention.
        QVERIFY(runCheck(*model, "bandwidth_contention", &data).empty());
        // The alexnet ranks move 17–264 MB per allreduce: no small packets.
        const cluster::ClusterModel alexnet = cluster::readCluster(level1Rank0Folder());
        QCOMPARE(alexnet.ranks.size(), std::size_t(1));
        QVERIFY(runCheck(*m_level1, "small_packets", &alexnet).empty());
        QVERIFY(runCheck(*m_level1, "bandwidth_contention", &alexnet).empty());
        QVERIFY(runCheck(*m_level1, "rdma_retransmission", &alexnet).empty());
    }

    // The 20 % boundary (§9.6: flagged above 20 %): 1 small RDMA op (0.5 MB < 1 MB) of 4 is flagged with its
    // 2 ms transit; 1 of 5 is not. An SDMA op of 16 MB is not small.
    void smallPacketsBoundarySynthetic()
    {
        for (const int ops : {4, 5}) {
            cluster::ClusterModel data;
            cluster::Rank rank;
            rank.rank = 5;
            for (int i = 0; i < ops; ++i) {
                cluster::CommOp op;
                op.name = QStringLiteral("hcom_allReduce__5_%1_1").arg(i);
                for (const char *transport : {"RDMA", "SDMA"}) {
                    cluster::TransportBandwidth b;
                    b.transport = QString::fromLatin1(transport);
                    b.sizeMb = transport[0] == 'R' ? (i == 0 ? 0.5 : 4.0) : 16.0;
                    b.time = transport[0] == 'R' && i == 0 ? 2'000'000 : 1'000'000;
                    op.bandwidth.push_back(b);
                }
                rank.ops.push_back(op);
            }
            data.ranks.push_back(rank);
            const TraceModel empty;
            const auto found = runCheck(empty, "small_packets", &data);
            QCOMPARE(found.size(), std::size_t(ops == 4 ? 1 : 0));
            if (found.empty())
                continue;
            QCOMPARE(found.front().data.value(QStringLiteral("transport")).toString(),
                     QStringLiteral("RDMA"));
            QCOMPARE(found.front().timeAtStake, TimeNs(2'000'000));
            QCOMPARE(found.front().occurrences.front().rank, 5);
            QCOMPARE(found.front().occurrences.front().name, QStringLiteral("hcom_allReduce__5_0_1"));
        }
    }

    // A synthetic rank: an SDMA allreduce of 100 MB in 10 ms (10 GB/s < 14.4) over [100, 600) µs
    // (elapse 500 µs) while MatMul kernels run [50, 150) and [400, 450) µs: 100 µs of overlap. A 20 GB/s
    // op overlapping a MatMul is not flagged; neither is a slow one beside no MatMul.
    void bandwidthContentionSynthetic()
    {
        Synthetic s;
        s.b.addGroup(SourceGroup{});
        const int core = s.thread(2, "Ascend Hardware", 1);
        for (const auto &[start, dur] : {std::pair<TimeNs, TimeNs>{50, 100}, {400, 50}}) {
            s.slice(core, start, dur, "MatMulV2");
            KernelRecord r;
            r.name = s.name("MatMulV2");
            r.type = s.name("AI_CORE");
            r.start = kT0 + start * 1000;
            r.duration = dur * 1000;
            s.b.kernels().addRow(r);
        }
        const int hccl = s.thread(4, "HCCL", 1);
        s.slice(hccl, 100, 500, "hcom_allReduce__1_0_1");
        const auto model = s.b.build();
        const auto op = [](const char *name, TimeNs startUs, double sizeMb, TimeNs transitNs) {
            cluster::CommOp o;
            o.step = 1;
            o.name = QString::fromLatin1(name);
            o.group = QStringLiteral("7");
            o.startAbsolute = kT0 + startUs * 1000;
            o.elapse = 500'000;
            cluster::TransportBandwidth b;
            b.transport = QStringLiteral("SDMA");
            b.sizeMb = sizeMb;
            b.time = transitNs;
            o.bandwidth.push_back(b);
            return o;
        };
        cluster::ClusterModel data;
        cluster::Rank rank;
        rank.rank = 0;
        rank.ops = {op("hcom_allReduce__1_0_1", 100, 100, 10'000'000),
                    op("hcom_allReduce__1_1_1", 100, 200, 10'000'000),
                    op("hcom_allReduce__1_2_1", 2000, 100, 10'000'000)};
        data.ranks.push_back(rank);
        const auto found = runCheck(*model, "bandwidth_contention", &data);
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().timeAtStake, TimeNs(100'000));
        QCOMPARE(found.front().occurrences.size(), std::size_t(1));
        QCOMPARE(model->sliceName(found.front().occurrences.front().slice),
                 QStringLiteral("hcom_allReduce__1_0_1"));
        data.ranks.front().ops.erase(data.ranks.front().ops.begin()); // clean: no slow op under a MatMul
        QVERIFY(runCheck(*model, "bandwidth_contention", &data).empty());
    }

    // RDMA retransmission (§9.6): op A lasts ≥ 4000 ms on both ranks and rank 1's RDMA transit takes 4100
    // ms → flagged, time at stake the shorter elapse (4500 ms); op B lasts 3900 ms on rank 0 → not.
    void rdmaRetransmissionSynthetic()
    {
        const auto op = [](const char *name, TimeNs elapse, TimeNs rdma) {
            cluster::CommOp o;
            o.step = 3;
            o.name = QString::fromLatin1(name);
            o.group = QStringLiteral("9");
            o.elapse = elapse;
            cluster::TransportBandwidth b;
            b.transport = QStringLiteral("RDMA");
            b.sizeMb = 64;
            b.time = rdma;
            o.bandwidth.push_back(b);
            return o;
        };
        cluster::ClusterModel data;
        cluster::Rank r0, r1;
        r0.rank = 0;
        r1.rank = 1;
        r0.ops = {op("hcom_allReduce__9_0_1", 4'500'000'000, 100'000'000),
                  op("hcom_allReduce__9_1_1", 3'900'000'000, 4'100'000'000)};
        r1.ops = {op("hcom_allReduce__9_0_1", 4'800'000'000, 4'100'000'000),
                  op("hcom_allReduce__9_1_1", 4'200'000'000, 4'100'000'000)};
        data.ranks = {r0, r1};
        const TraceModel empty;
        const auto found = runCheck(empty, "rdma_retransmission", &data);
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().timeAtStake, TimeNs(4'500'000'000));
        QCOMPARE(found.front().occurrences.size(), std::size_t(1));
        QCOMPARE(found.front().occurrences.front().rank, 1);
        QCOMPARE(found.front().occurrences.front().name, QStringLiteral("hcom_allReduce__9_0_1"));
        data.ranks[1].ops[0].bandwidth[0].time = 4'000'000'000; // clean: not above 4000 ms
        QVERIFY(runCheck(empty, "rdma_retransmission", &data).empty());
    }

    // The Qwen3 cluster (PP2): no slow rank inside a stage, no slow link, but stage 1 computes 169.693 ms
    // more than stage 0 (tests/cluster: 400.448/401.132 ms against 231.290/230.904 ms).
    void clusterChecksOnQwen3()
    {
        const cluster::ClusterModel data = cluster::readCluster(qwen3Folder());
        QCOMPARE(data.ranks.size(), std::size_t(4));
        const TraceModel empty; // the cluster page: no timeline
        const std::vector<Finding> all = runInsightChecks(empty, nullptr, &data);
        QVERIFY(findingsOf(all, QStringLiteral("slow_rank")).empty());
        QVERIFY(findingsOf(all, QStringLiteral("slow_link")).empty());
        const auto stages = findingsOf(all, QStringLiteral("stage_imbalance"));
        QCOMPARE(stages.size(), std::size_t(1));
        QCOMPARE(stages.front().timeAtStake, TimeNs(169'693'070));
        QCOMPARE(stages.front().occurrences.size(), std::size_t(1));
        QCOMPARE(stages.front().occurrences.front().rank, 0); // the first rank of the waiting stage 0
        QCOMPARE(stages.front()
                     .data.value(QStringLiteral("stages"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("heavier_stage"))
                     .toInt(),
                 1);
        QCOMPARE(stages.front().severity, Severity::High); // 169.7 ms of an ~810 ms step
        // Each of the 4 ranks' SDMA small packets (rank 0: 3 of 8 ops, see smallPacketsOnQwen3).
        QCOMPARE(findingsOf(all, QStringLiteral("small_packets")).size(), std::size_t(4));
    }

    // tests/cluster's synthetic cluster: rank 2 computes 30.00025 ms longer in step 1, and the HCCS link
    // 1 → 2 moves 100 MB in 12.5 ms (8 GB/s) against a 20 GB/s median: 12.5 − 5 = 7.5 ms lost.
    void slowRankAndLinkSynthetic()
    {
        QTemporaryDir dir;
        writeSyntheticCluster(dir.path());
        const cluster::ClusterModel data = cluster::readCluster(dir.path());
        const TraceModel empty;
        const auto slow = runCheck(empty, "slow_rank", &data);
        QCOMPARE(slow.size(), std::size_t(1));
        QCOMPARE(slow.front().timeAtStake, TimeNs(30'000'250));
        QCOMPARE(slow.front().occurrences.size(), std::size_t(1));
        QCOMPARE(slow.front().occurrences.front().rank, 2);
        QVERIFY(slow.front().title.contains(QStringLiteral("rank 2")));
        const auto links = runCheck(empty, "slow_link", &data);
        QCOMPARE(links.size(), std::size_t(1));
        QCOMPARE(links.front().timeAtStake, TimeNs(7'500'000));
        QCOMPARE(links.front().occurrences.front().rank, 1);
        // Clean: no slowed rank and no slow link.
        QTemporaryDir cleanDir;
        writeSyntheticCluster(cleanDir.path(), 4, -1, -1);
        const cluster::ClusterModel clean = cluster::readCluster(cleanDir.path());
        QVERIFY(runCheck(empty, "slow_rank", &clean).empty());
        QVERIFY(runCheck(empty, "slow_link", &clean).empty());
        QVERIFY(runCheck(empty, "stage_imbalance", &clean).empty());
    }

    // Two pipeline stages, each with a slow rank in step 1 (rank 1 computes 20 ms more than rank 0, rank 3
    // 30 ms more than rank 2): the stages run side by side, so the step loses the larger gap, 30 ms, not the
    // 50 ms sum. The stages' mean computing differs by 5 ms (< 5 % of the mean step): no stage imbalance.
    void slowRankTimeIsThePerStepLargestGap()
    {
        cluster::ClusterModel data;
        const TimeNs extra[] = {0, 20'000'000, 0, 30'000'000};
        for (int r = 0; r < 4; ++r) {
            cluster::Rank rank;
            rank.rank = r;
            rank.stage = r / 2;
            cluster::RankStep step;
            step.step = 1;
            step.computing = 100'000'000 + extra[r];
            step.free = 5'000'000;
            rank.steps.push_back(step);
            data.ranks.push_back(rank);
        }
        const TraceModel empty;
        const auto slow = runCheck(empty, "slow_rank", &data);
        QCOMPARE(slow.size(), std::size_t(1));
        QCOMPARE(slow.front().occurrences.size(), std::size_t(2));
        QCOMPARE(slow.front().timeAtStake, TimeNs(30'000'000));
        QCOMPARE(slow.front().title, QStringLiteral("Slow rank: rank 3"));
        // Each occurrence opens the slow rank beside the rank its gap is measured against.
        QCOMPARE(slow.front().occurrences.front().ranks, (std::vector<int>{3, 2}));
        QCOMPARE(slow.front().occurrences.back().ranks, (std::vector<int>{1, 0}));
        QVERIFY(runCheck(empty, "stage_imbalance", &data).empty());
    }

    // The cluster page's two findings that are not Insights checks, on the Qwen3 cluster: msprof-analyze's
    // plain rule (computing rank 3 − rank 1 = 170.228 ms, communication rank 1 − rank 3 = 180.210 ms,
    // informational) and the collective waits (11 collectives; rank 2 waits 6.473 + 3.219 + 1.03948 +
    // 0.37408 + 0.42498 ms in step 13, the longest of the ranks' sums).
    void plainRuleAndWaitsOnQwen3()
    {
        const cluster::ClusterModel data = cluster::readCluster(qwen3Folder());
        const TraceModel empty;
        const InsightContext context(empty, &data);
        const std::vector<Finding> all = clusterFindings(context);
        const auto plain = findingsOf(all, QStringLiteral("plain_rule"));
        QCOMPARE(plain.size(), std::size_t(1));
        QCOMPARE(plain.front().timeAtStake, TimeNs(0));
        QCOMPARE(plain.front().severity, Severity::Low);
        QCOMPARE(plain.front().occurrences.size(), std::size_t(2));
        QCOMPARE(plain.front().occurrences[0].duration, TimeNs(170'227'980));
        QCOMPARE(plain.front().occurrences[0].ranks, (std::vector<int>{3, 1}));
        QCOMPARE(plain.front().occurrences[1].duration, TimeNs(180'209'940));
        QVERIFY(plain.front().explanation.contains(QStringLiteral("180.210 ms (22.3 % of the mean step)")));
        const auto waits = findingsOf(all, QStringLiteral("collective_wait"));
        QCOMPARE(waits.size(), std::size_t(1));
        QCOMPARE(waits.front().occurrences.size(), std::size_t(11));
        QCOMPARE(waits.front().timeAtStake, TimeNs(11'530'660));
        QCOMPARE(waits.front().title, QStringLiteral("Ranks wait in collectives, most for rank 3"));
        const FindingOccurrence &longest = waits.front().occurrences.front();
        QCOMPARE(longest.rank, 2);
        QCOMPARE(longest.duration, TimeNs(6'473'000));
        QCOMPARE(longest.op, QStringLiteral("hcom_allReduce__503_2_1"));
        QCOMPARE(longest.ranks, (std::vector<int>{3, 2}));
        QCOMPARE(waits.front().data.value(QStringLiteral("waits")).toArray().size(), 11);
        // Neither is an Insights check: --advise and the panel keep the registered three.
        const std::vector<Finding> checks = runInsightChecks(empty, nullptr, &data);
        QVERIFY(findingsOf(checks, QStringLiteral("plain_rule")).empty());
        QVERIFY(findingsOf(checks, QStringLiteral("collective_wait")).empty());
        QCOMPARE(findingsOf(all, QStringLiteral("stage_imbalance")).front().explanation,
                 findingsOf(checks, QStringLiteral("stage_imbalance")).front().explanation);
    }

    // An operator allocating and freeing 10 blocks inside one step is flagged (kMemoryChurnMinPairs);
    // 9 blocks, or blocks released after the step, are not.
    void memoryChurnSynthetic()
    {
        for (const int pairs : {10, 9}) {
            Synthetic s;
            s.b.addGroup(SourceGroup{});
            const int py = s.thread(1, "Python", 1);
            s.slice(py, 0, 1000, "ProfilerStep#1");
            s.slice(py, 100, 500, "aten::add");
            for (int i = 0; i < pairs + 3; ++i) {
                MemoryAllocation a;
                a.name = s.name("aten::add");
                a.bytes = 512;
                a.allocation = kT0 + (110 + i) * 1000;
                // The last three outlive the step.
                a.release = kT0 + (i < pairs ? 400 + i : 2000 + i) * 1000;
                s.b.memory().allocations.push_back(a);
            }
            const auto model = s.b.build();
            const auto found = runCheck(*model, "memory_churn");
            QCOMPARE(found.size(), std::size_t(pairs >= 10 ? 1 : 0));
            if (found.empty())
                continue;
            const QJsonObject op =
                found.front().data.value(QStringLiteral("operators")).toArray().first().toObject();
            QCOMPARE(op.value(QStringLiteral("operator")).toString(), QStringLiteral("aten::add"));
            QCOMPARE(op.value(QStringLiteral("allocations_freed_in_step")).toInt(), 10);
            QCOMPARE(op.value(QStringLiteral("bytes")).toDouble(), 5120.0);
            QCOMPARE(found.front().occurrences.size(), std::size_t(10));
            QCOMPARE(model->sliceName(found.front().occurrences.front().slice), QStringLiteral("aten::add"));
        }
    }

    // --advise --json prints every µs as the exact decimal of its ns, start_us absolute.
    void jsonTimesAreExactDecimals()
    {
        const auto byteFindings = runCheck(*m_level1, "affinity_optimizer");
        QCOMPARE(byteFindings.size(), std::size_t(1));
        const QByteArray text = findingsToJson(InsightContext(*m_level1), byteFindings);
        const FindingOccurrence &sgd = byteFindings.front().occurrences.front();
        const QByteArray start = formatAbsoluteMicros(m_level1->origin() + sgd.start).toLatin1();
        QVERIFY2(text.contains("\"start_us\": " + start + ","), text.constData());
        QVERIFY(text.contains("\"duration_us\": 10512.400}"));
        QVERIFY(text.contains("\"time_at_stake_us\": 10512.400,"));
        QCOMPARE(QJsonDocument::fromJson(text).object().value(QStringLiteral("findings")).toArray().size(),
                 1);
    }

    void findingsSortedAndJson()
    {
        // Ranked by the time explained; the informational ones (no time) last.
        for (std::size_t i = 1; i < m_findings.size(); ++i)
            QVERIFY(m_findings[i].timeAtStake <= m_findings[i - 1].timeAtStake ||
                    m_findings[i - 1].check == QLatin1String("unexplained_part"));
        const QJsonObject json =
            QJsonDocument::fromJson(findingsToJson(InsightContext(*m_level1), m_findings)).object();
        const QJsonArray list = json.value(QStringLiteral("findings")).toArray();
        QCOMPARE(list.size(), qsizetype(m_findings.size()));
        const QJsonObject first = list.first().toObject();
        QStringList keys = first.keys();
        keys.sort();
        QCOMPARE(keys,
                 (QStringList{"advice", "check", "data", "occurrences", "part", "part_us", "rank", "severity",
                              "share_of_part", "share_of_step", "step_us", "time_at_stake_us", "title"}));
        const QJsonObject occurrence =
            first.value(QStringLiteral("occurrences")).toArray().first().toObject();
        keys = occurrence.keys();
        keys.sort();
        QCOMPARE(keys, (QStringList{"duration_us", "name", "rank", "start_us"}));
    }

    // A sync whose return leaves the device idle until the next launch: device busy [0, 10] µs, sync
    // [5, 12] µs on the host, next task at 30 µs → idle from the drain (10 µs) to 30 µs = 20 µs.
    void synchronizeSynthetic()
    {
        Synthetic s;
        const int device = s.thread(2, "Ascend Hardware", 1);
        const int host = s.thread(1, "CANN", 1);
        s.slice(device, 0, 10, "MatMul");
        s.slice(device, 30, 10, "MatMul");
        s.slice(host, 5, 7, "AscendCL@aclrtSynchronizeStream");
        const auto model = s.b.build();
        const auto found = runCheck(*model, "synchronize");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().timeAtStake, TimeNs(20'000));
        QCOMPARE(found.front().occurrences.size(), std::size_t(1));
        QCOMPARE(model->sliceName(found.front().occurrences.front().slice),
                 QStringLiteral("AscendCL@aclrtSynchronizeStream"));
        // Clean: the device is still busy when the sync returns.
        Synthetic clean;
        const int d = clean.thread(2, "Ascend Hardware", 1);
        clean.slice(d, 0, 40, "MatMul");
        clean.slice(clean.thread(1, "CANN", 1), 5, 7, "AscendCL@aclrtSynchronizeDevice");
        QVERIFY(runCheck(*clean.b.build(), "synchronize").empty());
    }

    void operatorCompileSynthetic()
    {
        Synthetic s;
        const int host = s.thread(1, "CANN", 1);
        for (int i = 0; i < 20; ++i)
            s.slice(host, i * 100, 10 + i, "AscendCL@aclopCompileAndExecute");
        const auto model = s.b.build();
        const auto found = runCheck(*model, "operator_compile");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().timeAtStake, TimeNs((10 * 20 + 19 * 20 / 2) * 1000)); // Σ (10 + i) µs
        QCOMPARE(found.front().data.value(QStringLiteral("count")).toInt(), 20);
    }

    // An AI CPU op [100, 150] µs overlapped by an AI Core task until 120 µs: 30 µs on the critical path.
    void aiCpuOnCriticalPathSynthetic()
    {
        Synthetic s;
        const int core = s.thread(2, "Ascend Hardware", 1);
        const int aicpu = s.thread(3, "AI CPU", 1);
        s.slice(core, 90, 30, "MatMul");
        s.slice(aicpu, 100, 50, "NonZero");
        const auto model = s.b.build();
        const auto found = runCheck(*model, "aicpu");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().timeAtStake, TimeNs(30'000));
        QCOMPARE(model->sliceName(found.front().occurrences.front().slice), QStringLiteral("NonZero"));
        // Clean: the longest AI CPU op is below 20 µs (§9.6), or it is fully hidden behind AI Core work.
        Synthetic shortOp;
        shortOp.slice(shortOp.thread(3, "AI CPU", 1), 100, 19, "NonZero");
        QVERIFY(runCheck(*shortOp.b.build(), "aicpu").empty());
        Synthetic hidden;
        hidden.slice(hidden.thread(2, "Ascend Hardware", 1), 0, 200, "MatMul");
        hidden.slice(hidden.thread(3, "AI CPU", 1), 100, 50, "NonZero");
        QVERIFY(runCheck(*hidden.b.build(), "aicpu").empty());
    }

    // AI Core Freq 1800 MHz, 1200 MHz from 100 µs, back to 1800 at 200 µs. Kernel K runs [50, 150] (lowest
    // 1200) and [250, 260] (1800): drop ratio (600/1800 + 0)/2 = 0.167 ≥ 0.05; at stake 100 µs × 600/1800.
    void frequencyDropSynthetic()
    {
        for (const bool drop : {true, false}) {
            Synthetic s;
            const int core = s.thread(2, "Ascend Hardware", 1);
            s.slice(core, 50, 100, "K");
            s.slice(core, 250, 10, "K");
            const int freq = s.b.process(s.b.numberKey(5));
            s.b.setProcessName(freq, s.name("AI Core Freq"));
            const StringId series = s.name("AI Core Freq");
            s.b.addCounterSample(freq, series, 0, kT0, 1800);
            s.b.addCounterSample(freq, series, 0, kT0 + 100'000, drop ? 1200 : 1800);
            s.b.addCounterSample(freq, series, 0, kT0 + 200'000, 1800);
            const auto model = s.b.build();
            const auto found = runCheck(*model, "aicore_frequency");
            if (!drop) {
                QVERIFY(found.empty());
                continue;
            }
            QCOMPARE(found.size(), std::size_t(1));
            QCOMPARE(found.front().timeAtStake, TimeNs(33'333));
            QCOMPARE(found.front().occurrences.size(), std::size_t(1));
            QCOMPARE(found.front().occurrences.front().start, TimeNs(50'000));
            const QJsonObject op =
                found.front().data.value(QStringLiteral("ops")).toArray().first().toObject();
            QCOMPARE(op.value(QStringLiteral("min_mhz")).toDouble(), 1200.0);
            QVERIFY(qAbs(op.value(QStringLiteral("drop_ratio")).toDouble() - 1.0 / 6.0) < 1e-9);
        }
    }

    // Cross-chip SDMA transfers of 1000 B (misaligned, 30 µs) and 1024 B (aligned, 10 µs); an ON_CHIP
    // 1000 B one is not checked. Share 30/40 = 0.75 ≥ 0.7 → high.
    void byteAlignmentSynthetic()
    {
        Synthetic s;
        auto args = std::make_shared<FakeArgs>();
        const auto file = s.b.addSource(QStringLiteral("synthetic.json"), args);
        const auto sdma = [](const char *size, const char *link) {
            return std::vector<std::pair<QString, QString>>{
                {QStringLiteral("transport type"), QStringLiteral("SDMA")},
                {QStringLiteral("link type"), QString::fromLatin1(link)},
                {QStringLiteral("size(Byte)"), QString::fromLatin1(size)}};
        };
        args->args[1] = sdma("1000", "HCCS");
        args->args[2] = sdma("1024", "HCCS");
        args->args[3] = sdma("1000", "ON_CHIP");
        const int hccl = s.thread(4, "HCCL", 1);
        s.slice(hccl, 0, 30, "Memcpy", makeSourceLocation(file, 1));
        s.slice(hccl, 40, 10, "Reduce_Inline", makeSourceLocation(file, 2));
        s.slice(hccl, 60, 50, "Memcpy", makeSourceLocation(file, 3));
        const auto model = s.b.build();
        const auto found = runCheck(*model, "byte_alignment");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().timeAtStake, TimeNs(30'000));
        QCOMPARE(found.front().occurrences.size(), std::size_t(1));
        QCOMPARE(found.front().occurrences.front().start, TimeNs(0));
        QCOMPARE(found.front().severity, Severity::High);
        args->args[1] = sdma("1536", "HCCS"); // clean: every size a multiple of 512
        QVERIFY(runCheck(*model, "byte_alignment").empty());
    }

    // Block Dim 30 on 24 AI cores: 2 waves, 18 of 48 core slots idle → 0.375 × 80 µs = 30 µs.
    void blockDimSynthetic()
    {
        for (const std::int64_t blockDim : {30, 48}) {
            Synthetic s;
            SourceGroup g;
            g.collection.properties.append({QStringLiteral("ai_core_num"), QStringLiteral("24")});
            s.b.addGroup(g);
            s.slice(s.thread(2, "Ascend Hardware", 1), 0, 80, "MatMul");
            KernelRecord r;
            r.name = s.name("MatMul");
            r.type = s.name("AI_CORE");
            r.start = kT0;
            r.duration = 80'000;
            r.blockDim = blockDim;
            s.b.kernels().addRow(r);
            const auto model = s.b.build();
            const auto found = runCheck(*model, "block_dim");
            if (blockDim == 48) {
                QVERIFY(found.empty());
                continue;
            }
            QCOMPARE(found.size(), std::size_t(1));
            QCOMPARE(found.front().timeAtStake, TimeNs(30'000));
            QCOMPARE(found.front().occurrences.front().name, QStringLiteral("MatMul"));
        }
    }

    // Outermost dataloader frames of ≥ 10 ms (§9.6): a 15 ms call (with a nested dataloader frame) counts
    // once, a 5 ms call not at all.
    void slowDataloaderSynthetic()
    {
        Synthetic s;
        const int py = s.thread(1, "Python", 1);
        s.slice(py, 0, 15'000, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
        s.slice(py, 10, 14'000, "torch/utils/data/dataloader.py(625): __next__");
        s.slice(py, 20'000, 5'000, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
        const auto model = s.b.build();
        const auto found = runCheck(*model, "slow_dataloader");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().timeAtStake, TimeNs(15'000'000));
        QCOMPARE(found.front().occurrences.size(), std::size_t(1));
    }

    void syncBatchNormAndAdamSynthetic()
    {
        Synthetic s;
        const int py = s.thread(1, "Python", 1);
        for (int i = 0; i < 20; ++i)
            s.slice(py, i * 10, 5, "aten::SyncBatchNorm");
        s.slice(py, 1000, 300, "Optimizer.step#Adam.step");
        s.slice(py, 2000, 100, "Optimizer.step#MyOptimizer.step"); // no fused equivalent: ignored
        const auto model = s.b.build();
        const auto bn = runCheck(*model, "sync_batch_norm");
        QCOMPARE(bn.size(), std::size_t(1));
        QCOMPARE(bn.front().timeAtStake, TimeNs(100'000));
        const auto adam = runCheck(*model, "affinity_optimizer");
        QCOMPARE(adam.size(), std::size_t(1));
        QCOMPARE(adam.front().timeAtStake, TimeNs(300'000));
        QCOMPARE(adam.front().data.value(QStringLiteral("fused_api")).toString(),
                 QStringLiteral("torch_npu.optim.NpuFusedAdam"));
        // 19 SyncBatchNorm calls stay below the count threshold.
        Synthetic few;
        const int p = few.thread(1, "Python", 1);
        for (int i = 0; i < 19; ++i)
            few.slice(p, i * 10, 5, "aten::SyncBatchNorm");
        QVERIFY(runCheck(*few.b.build(), "sync_batch_norm").empty());
    }

    // Stream idle gaps: task A [10, 20] µs, then B [60, 70] launched at 50 µs (after A ended: waiting for
    // the host, 40 µs, the whole device idle), then C [80, 90] launched at 5 µs (early: other, 10 µs);
    // an EVENT_WAIT [90, 95] is waiting for an event. Launch delays 9, 10, 75 µs (+ 9 more of 10 µs).
    void idleAttributionAndLaunchDelaySynthetic()
    {
        Synthetic s;
        const int host = s.thread(1, "CANN", 1);
        const int device = s.thread(2, "Ascend Hardware", 1);
        const StringId cat = s.name("HostToDevice"), flowName = s.name("HostToDevice");
        int id = 0;
        const auto launch = [&](TimeNs atUs, TimeNs deviceUs, TimeNs durUs, const char *task) {
            s.slice(host, atUs, 1, "Node@launch");
            s.slice(device, deviceUs, durUs, task);
            const StringId flowId = s.b.strings().intern(std::to_string(++id));
            s.b.addFlowHalf(FlowPhase::Start, cat, flowName, flowId, host, kT0 + atUs * 1000, true);
            s.b.addFlowHalf(FlowPhase::End, cat, flowName, flowId, device, kT0 + deviceUs * 1000, false);
        };
        launch(1, 10, 10, "A");
        launch(50, 60, 10, "B");
        launch(5, 80, 10, "C");
        s.slice(device, 90, 5, "EVENT_WAIT");
        for (int i = 0; i < 9; ++i)
            launch(200 + i * 100, 210 + i * 100, 5, "D");
        const auto model = s.b.build();
        const auto idle = runCheck(*model, "idle_attribution");
        QCOMPARE(idle.size(), std::size_t(1));
        const QJsonObject data = idle.front().data;
        // Host waits: B (40 µs) and each D after the previous task (the first D after EVENT_WAIT ends at
        // 95: 210 − 95 = 115 µs, then 8 × (100 − 5) = 760 µs).
        QCOMPARE(data.value(QStringLiteral("waiting_for_host_us")).toDouble(), 40.0 + 115.0 + 760.0);
        QCOMPARE(data.value(QStringLiteral("other_us")).toDouble(), 10.0);
        QCOMPARE(data.value(QStringLiteral("waiting_for_event_us")).toDouble(), 5.0);
        QCOMPARE(idle.front().timeAtStake, TimeNs((40 + 115 + 760) * 1000));
        QCOMPARE(idle.front().occurrences.front().name, QStringLiteral("D")); // the 115 µs gap is longest
        QCOMPARE(idle.front().occurrences.front().duration, TimeNs(115'000));

        const auto delay = runCheck(*model, "launch_delay");
        QCOMPARE(delay.size(), std::size_t(1));
        QCOMPARE(delay.front().data.value(QStringLiteral("launches")).toInt(), 12);
        QCOMPARE(delay.front().data.value(QStringLiteral("p50_us")).toDouble(), 10.0);
        QCOMPARE(delay.front().data.value(QStringLiteral("max_us")).toDouble(), 75.0);
        QCOMPARE(delay.front().occurrences.size(), std::size_t(1)); // only C's 75 µs lies beyond the fence
        QCOMPARE(delay.front().occurrences.front().name, QStringLiteral("C"));
        QCOMPARE(delay.front().timeAtStake, TimeNs(0));

        // Queue depth of the stream: A and C queued at 1 and 5 µs, A starts at 10, B queued 50–60, C
        // starts 80.
        const auto depth = streamQueueDepth(*model, device);
        const std::vector<std::pair<TimeNs, int>> head(depth.begin(), depth.begin() + 8);
        const std::vector<std::pair<TimeNs, int>> expected{{0, 1},       {4'000, 2},  {9'000, 1},
                                                           {49'000, 2},  {59'000, 1}, {79'000, 0},
                                                           {199'000, 1}, {209'000, 0}};
        QCOMPARE(head, expected);
        QCOMPARE(data.value(QStringLiteral("streams"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("max_queue_depth"))
                     .toInt(),
                 2);

        // Kernel sequences: each Node@launch launches one task; [D] is the most frequent (9 of 12).
        const auto sequences = runCheck(*model, "kernel_sequences");
        QCOMPARE(sequences.size(), std::size_t(1));
        const QJsonObject top =
            sequences.front().data.value(QStringLiteral("sequences")).toArray().first().toObject();
        QCOMPARE(top.value(QStringLiteral("host_operator")).toString(), QStringLiteral("Node@launch"));
        QCOMPARE(top.value(QStringLiteral("kernels")).toArray(), QJsonArray{QStringLiteral("D")});
        QCOMPARE(top.value(QStringLiteral("count")).toInt(), 9);
        QCOMPARE(top.value(QStringLiteral("instances")).toInt(), 12);
        QCOMPARE(sequences.front().occurrences.size(), std::size_t(1));
        QCOMPARE(sequences.front().occurrences.front().start, TimeNs(209'000));
    }

    // A profile with nothing wrong: back-to-back device work, no host APIs: no finding at all.
    void cleanProfileHasNoFindings()
    {
        Synthetic s;
        const int core = s.thread(2, "Ascend Hardware", 1);
        for (int i = 0; i < 10; ++i)
            s.slice(core, i * 10, 10, "MatMul");
        const auto model = s.b.build();
        QVERIFY(runInsightChecks(*model).empty());
    }

private:
    std::unique_ptr<TraceModel> m_level1;
    std::vector<Finding> m_findings;
};

QTEST_GUILESS_MAIN(TestInsights)
#include "tst_insights.moc"
