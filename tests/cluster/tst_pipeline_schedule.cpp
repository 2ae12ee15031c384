// The pipeline view's schedule (core/cluster/PipelineSchedule.h, docs/CLUSTER.md "Pipeline view"): the real
// Qwen3 pp2 sample checked against its kernel_details.csv read here on its own, a synthetic 1F1B schedule
// of 2 stages × 4 micro-batches with known blocks, the reasons when no view can be built, and the view
// through the real window.
#include "AppProcess.h"
#include "ClusterTestSupport.h"

#include "ExactText.h"
#include "TraceBuilder.h"
#include "TraceLoader.h"
#include "cluster/ClusterModel.h"
#include "cluster/ClusterReader.h"
#include "cluster/PipelineSchedule.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>

using namespace at;
using namespace at::cluster;

namespace {

// One row of kernel_details.csv: name and exact ns from the "Start Time(us)" / "Duration(us)" text.
struct CsvTask
{
    QString name;
    TimeNs start = 0;
    TimeNs end = 0;
};

// "1764246877073569.640\t" → ns, from the decimal text (3 decimals at most in these files).
TimeNs microsTextToNs(QString text)
{
    text = text.trimmed();
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? text : text.left(dot);
    QString fraction = dot < 0 ? QString() : text.mid(dot + 1);
    fraction = (fraction + QStringLiteral("000")).left(3);
    return whole.toLongLong() * 1000 + fraction.toLongLong();
}

// Compute tasks (rows with a Stream ID) and the pipeline send/receive rows, each sorted by start.
struct CsvRank
{
    std::vector<CsvTask> kernels;
    std::vector<CsvTask> sendRecv;
};

CsvRank readKernelDetails(const QString &rankFolder)
{
    CsvRank rank;
    QFile file(rankFolder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
    if (!file.open(QIODevice::ReadOnly))
        return rank;
    const QStringList header = QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(','));
    const qsizetype name = header.indexOf(QStringLiteral("Name"));
    const qsizetype stream = header.indexOf(QStringLiteral("Stream ID"));
    const qsizetype start = header.indexOf(QStringLiteral("Start Time(us)"));
    const qsizetype duration = header.indexOf(QStringLiteral("Duration(us)"));
    while (!file.atEnd()) {
        // The columns used come before the quoted shapes, so a plain split is exact for them.
        const QStringList cells = QString::fromUtf8(file.readLine()).split(QLatin1Char(','));
        if (cells.size() <= std::max({name, stream, start, duration}))
            continue;
        const TimeNs s = microsTextToNs(cells[start]);
        CsvTask task{cells[name], s, s + microsTextToNs(cells[duration])};
        if (task.name.startsWith(QLatin1String("hcom_batchSendRecv")))
            rank.sendRecv.push_back(task);
        else if (cells[stream].trimmed() != QLatin1String("N/A"))
            rank.kernels.push_back(task);
    }
    const auto byStart = [](const CsvTask &a, const CsvTask &b) { return a.start < b.start; };
    std::sort(rank.kernels.begin(), rank.kernels.end(), byStart);
    std::sort(rank.sendRecv.begin(), rank.sendRecv.end(), byStart);
    return rank;
}

bool isGradientName(const QString &name)
{
    return name.contains(QLatin1String("Grad")) || name.contains(QLatin1String("Backward"));
}

// Kernels starting in [from, to), as indices.
std::vector<const CsvTask *> kernelsBetween(const CsvRank &rank, TimeNs from, TimeNs to)
{
    std::vector<const CsvTask *> found;
    for (const CsvTask &k : rank.kernels)
        if (k.start >= from && k.start < to)
            found.push_back(&k);
    return found;
}

TimeNs lastEnd(const std::vector<const CsvTask *> &tasks)
{
    TimeNs end = 0;
    for (const CsvTask *t : tasks)
        end = std::max(end, t->end);
    return end;
}

int groupOfFolder(const TraceModel &model, const QString &folder)
{
    for (std::size_t g = 0; g < model.groups().size(); ++g)
        if (QFileInfo(model.groups()[g].path).canonicalFilePath() == QFileInfo(folder).canonicalFilePath())
            return static_cast<int>(g);
    return -1;
}

// The synthetic 1F1B job: 2 stages, 4 micro-batches, forward 10 µs, backward 20 µs, send/receive 1 µs.
// Stage 0: F0 F1 | B0 F2 | B1 F3 | B2 | B3 ; stage 1 receives each forward and answers with its backward.
struct SyntheticBlock
{
    int stage;
    PipelinePass pass;
    int microBatch;
    TimeNs startUs;
    TimeNs durationUs;
};

// The known schedule (µs): stage 1 runs F(m) as soon as stage 0's F(m) and its send are done, then B(m);
// stage 0 runs B(m) once stage 1's B(m) and its send are done.
std::vector<SyntheticBlock> knownOneFOneB()
{
    return {
        {0, PipelinePass::Forward, 0, 0, 10},    {0, PipelinePass::Forward, 1, 11, 10},
        {1, PipelinePass::Forward, 0, 11, 10},   {1, PipelinePass::Backward, 0, 21, 20},
        {0, PipelinePass::Backward, 0, 42, 20},  {1, PipelinePass::Forward, 1, 42, 10},
        {1, PipelinePass::Backward, 1, 52, 20},  {0, PipelinePass::Forward, 2, 63, 10},
        {0, PipelinePass::Backward, 1, 74, 20},  {1, PipelinePass::Forward, 2, 74, 10},
        {1, PipelinePass::Backward, 2, 84, 20},  {0, PipelinePass::Forward, 3, 95, 10},
        {0, PipelinePass::Backward, 2, 106, 20}, {1, PipelinePass::Forward, 3, 106, 10},
        {1, PipelinePass::Backward, 3, 116, 20}, {0, PipelinePass::Backward, 3, 137, 20},
    };
}

constexpr TimeNs kSyntheticBase = 1'736'408'883'000'000'000;

// Each block is 2 kernels (forward: "MatMul", "RmsNorm"; backward: "RmsNormGrad", "MatMul"); a 1 µs
// batchSendRecv between the phases of a stage (after each block except the last stage's forward, which its
// backward follows at once); an optimizer kernel after the last backward of each stage.
std::unique_ptr<TraceModel> syntheticOneFOneB()
{
    TraceBuilder b;
    const auto name = [&b](const char *s) { return b.strings().intern(s); };
    for (int stage = 0; stage < 2; ++stage) {
        SourceGroup group;
        group.label = QStringLiteral("Rank %1").arg(stage);
        b.addGroup(group);
        const int stream = b.thread(b.numberKey(1), b.numberKey(2));
        b.setProcessName(b.process(b.numberKey(1)), name("Ascend Hardware"));
        b.setThreadName(stream, name("Stream 2"));
        const int comm = b.thread(b.numberKey(2), b.numberKey(0));
        b.setProcessName(b.process(b.numberKey(2)), name("Communication"));
        TimeNs last = 0;
        for (const SyntheticBlock &k : knownOneFOneB()) {
            if (k.stage != stage)
                continue;
            const TimeNs start = kSyntheticBase + k.startUs * 1000;
            const TimeNs half = k.durationUs * 500;
            const bool forward = k.pass == PipelinePass::Forward;
            b.addSlice(stream, start, half, name(forward ? "MatMul" : "aclnnRmsNormGrad_RmsNormGrad"), 0,
                       kNoSource);
            b.addSlice(stream, start + half, half, name(forward ? "RmsNorm" : "MatMul"), 0, kNoSource);
            const bool lastStageForward = stage == 1 && k.pass == PipelinePass::Forward;
            if (!lastStageForward)
                b.addSlice(comm, start + k.durationUs * 1000, 1000, name("hcom_batchSendRecv__128_1_1"), 0,
                           kNoSource);
            last = std::max(last, start + k.durationUs * 1000 + 1000);
        }
        b.addSlice(stream, last + 5000, 3000, name("ApplyAdamWV2"), 0, kNoSource);
    }
    return b.build();
}

} // namespace

class TstPipelineSchedule : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nameRules()
    {
        QVERIFY(isPipelineSendRecv("hcom_batchSendRecv__128_3_1"));
        QVERIFY(isPipelineSendRecv("hcom_receive__1_2"));
        QVERIFY(!isPipelineSendRecv("hcom_allReduce__534_6_1"));
        QVERIFY(isGradientKernel("SwiGluGrad"));
        QVERIFY(isGradientKernel("aclnnEmbeddingDenseBackward_CastAiCore_Cast"));
        QVERIFY(!isGradientKernel("RmsNorm"));
    }

    void syntheticOneFOneBSchedule()
    {
        const std::unique_ptr<TraceModel> model = syntheticOneFOneB();
        const PipelineSchedule s = buildPipelineSchedule(*model, {{0, 0, 0, 0}, {1, 1, 1, 0}});
        QVERIFY2(s.isValid(), qPrintable(s.reason));
        QCOMPARE(s.stages.size(), std::size_t(2));
        QCOMPARE(s.microBatches, 4);
        const TimeNs origin = model->origin();
        std::vector<SyntheticBlock> known = knownOneFOneB();
        for (const PipelineStage &stage : s.stages) {
            std::vector<SyntheticBlock> expected;
            std::copy_if(known.begin(), known.end(), std::back_inserter(expected),
                         [&stage](const SyntheticBlock &k) { return k.stage == stage.stage; });
            QCOMPARE(stage.blocks.size(), expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i) {
                const PipelineBlock &got = stage.blocks[i];
                QCOMPARE(got.pass, expected[i].pass);
                QCOMPARE(got.microBatch, expected[i].microBatch);
                QCOMPARE(got.start + origin, kSyntheticBase + expected[i].startUs * 1000);
                QCOMPARE(got.duration(), expected[i].durationUs * 1000);
                QCOMPARE(got.kernels, 2);
            }
            // Blocks and bubbles fill the span [0, 157 µs) on each stage.
            QCOMPARE(stage.blockTotal + stage.bubbleTotal, s.spanEnd - s.spanStart);
        }
        QCOMPARE(s.spanStart + origin, kSyntheticBase);
        QCOMPARE(s.spanEnd + origin, kSyntheticBase + 157'000);
        // Stage 0 idles between F1 and B0 (21..42 µs), ... : 157 − 4 × 30 = 37 µs of bubble each.
        QCOMPARE(s.stages[0].bubbleTotal, TimeNs(37'000));
        QCOMPARE(s.stages[1].bubbleTotal, TimeNs(37'000));
        QCOMPARE(s.stages[1].bubbles.front().start, s.spanStart);
        QCOMPARE(s.stages[1].bubbles.front().duration(), TimeNs(11'000)); // waiting for the first forward
        // An offset moves a stage's blocks: rank 1 drawn 5 µs later.
        const PipelineSchedule moved = buildPipelineSchedule(*model, {{0, 0, 0, 0}, {1, 1, 1, 5000}});
        QCOMPARE(moved.stages[1].blocks.front().start, s.stages[1].blocks.front().start + 5000);
    }

    void qwen3Schedule()
    {
        const QString root = test::qwen3Cluster();
        if (!QFileInfo::exists(root))
            QSKIP("the Qwen3 sample is not beside the checkout");
        const ClusterModel cluster = readCluster(root, {});
        const PipelineRankChoice choice = choosePipelineRanks(cluster);
        QVERIFY2(choice.reason.isEmpty(), qPrintable(choice.reason));
        // Stages {0,1} and {2,3}; ranks 1 and 3 have no timeline (only their communication files).
        QCOMPARE(choice.stageRanks, (std::vector<std::pair<int, int>>{{0, 0}, {1, 2}}));
        LoadOptions options;
        const QString folder0 = cluster.rank(0)->folder, folder2 = cluster.rank(2)->folder;
        options.rankFolders = {folder0, folder2};
        LoadControl control;
        const LoadResult loaded = loadTrace(root, options, control);
        QVERIFY2(loaded.model, qPrintable(loaded.error));
        const TraceModel &model = *loaded.model;
        const int g0 = groupOfFolder(model, folder0), g2 = groupOfFolder(model, folder2);
        QVERIFY(g0 >= 0 && g2 >= 0);
        const std::vector<PipelineRank> ranks = pipelineRanksOnModel(model, cluster, choice);
        QCOMPARE(ranks.size(), std::size_t(2));
        QCOMPARE(ranks[0].group, g0);
        QCOMPARE(ranks[1].group, g2);
        const PipelineSchedule s = buildPipelineSchedule(model, ranks);
        QVERIFY2(s.isValid(), qPrintable(s.reason));
        QCOMPARE(s.microBatches, 2); // GBS 4 / (DP 2 × MBS 1)
        const TimeNs origin = model.origin();

        // Stage 0 (rank 0): F0 before the first batchSendRecv, F1 between the first and second, B0 between
        // the second and third, B1 after the third up to its last gradient kernel.
        const CsvRank r0 = readKernelDetails(folder0);
        QCOMPARE(r0.sendRecv.size(), std::size_t(3));
        const std::vector<const CsvTask *> f0 = kernelsBetween(r0, 0, r0.sendRecv[0].start);
        const std::vector<const CsvTask *> f1 =
            kernelsBetween(r0, r0.sendRecv[0].start, r0.sendRecv[1].start);
        const std::vector<const CsvTask *> b0 =
            kernelsBetween(r0, r0.sendRecv[1].start, r0.sendRecv[2].start);
        std::vector<const CsvTask *> b1 = kernelsBetween(r0, r0.sendRecv[2].start, INT64_MAX);
        while (!b1.empty() && !isGradientName(b1.back()->name))
            b1.pop_back();
        const PipelineStage &stage0 = s.stages[0];
        QCOMPARE(stage0.rank, 0);
        QCOMPARE(stage0.blocks.size(), std::size_t(4));
        const std::vector<std::vector<const CsvTask *>> expected0{f0, f1, b0, b1};
        const PipelinePass passes0[] = {PipelinePass::Forward, PipelinePass::Forward, PipelinePass::Backward,
                                        PipelinePass::Backward};
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(stage0.blocks[i].pass, passes0[i]);
            QCOMPARE(stage0.blocks[i].microBatch, static_cast<int>(i % 2));
            QCOMPARE(stage0.blocks[i].start + origin, expected0[i].front()->start);
            QCOMPARE(stage0.blocks[i].end + origin, lastEnd(expected0[i]));
            QCOMPARE(stage0.blocks[i].kernels, static_cast<int>(expected0[i].size()));
        }

        // Stage 1 (rank 2): nothing but zeroing before the first receive; between the receives, a micro-
        // batch's forward (up to the first gradient kernel) and its backward.
        const CsvRank r2 = readKernelDetails(folder2);
        QCOMPARE(r2.sendRecv.size(), std::size_t(3));
        const PipelineStage &stage1 = s.stages[1];
        QCOMPARE(stage1.rank, 2);
        QCOMPARE(stage1.blocks.size(), std::size_t(4));
        for (std::size_t m = 0; m < 2; ++m) {
            const std::vector<const CsvTask *> phase =
                kernelsBetween(r2, r2.sendRecv[m].start, r2.sendRecv[m + 1].start);
            const auto firstGradient = std::find_if(phase.begin(), phase.end(),
                                                    [](const CsvTask *k) { return isGradientName(k->name); });
            QVERIFY(firstGradient != phase.begin() && firstGradient != phase.end());
            const std::vector<const CsvTask *> forward(phase.begin(), firstGradient);
            const std::vector<const CsvTask *> backward(firstGradient, phase.end());
            const PipelineBlock &f = stage1.blocks[2 * m];
            const PipelineBlock &b = stage1.blocks[2 * m + 1];
            QCOMPARE(f.pass, PipelinePass::Forward);
            QCOMPARE(b.pass, PipelinePass::Backward);
            QCOMPARE(f.microBatch, static_cast<int>(m));
            QCOMPARE(b.microBatch, static_cast<int>(m));
            QCOMPARE(f.start + origin, forward.front()->start);
            QCOMPARE(f.end + origin, lastEnd(forward));
            QCOMPARE(b.start + origin, backward.front()->start);
            QCOMPARE(b.end + origin, lastEnd(backward));
        }
        // The span: stage 0's first kernel to stage 0's last gradient kernel (stage 1 starts later and ends
        // earlier: its first micro-batch waits for stage 0's forward, stage 0's last backward waits for it).
        QCOMPARE(s.spanStart + origin, f0.front()->start);
        QCOMPARE(s.spanEnd + origin, lastEnd(b1));
        for (const PipelineStage &stage : s.stages)
            QCOMPARE(stage.blockTotal + stage.bubbleTotal, s.spanEnd - s.spanStart);
        // Stage 1's first bubble is the warm-up: from the span's start to its first forward.
        QCOMPARE(stage1.bubbles.front().start, s.spanStart);
        QCOMPARE(stage1.bubbles.front().end + origin, stage1.blocks.front().start + origin);
        // The send/receive ops that delimit the phases are kept, at the CSV's times.
        QCOMPARE(stage0.sendRecv.size(), std::size_t(3));
        QCOMPARE(stage0.sendRecv[1].start + origin, r0.sendRecv[1].start);
        QCOMPARE(stage0.sendRecv[1].end + origin, r0.sendRecv[1].end);
    }

    // `--cluster --json --pipeline`: the same schedule as the core's on the same load, in absolute µs.
    void clusterJsonPipelineBlock()
    {
        const QString root = test::qwen3Cluster();
        if (!QFileInfo::exists(root))
            QSKIP("the Qwen3 sample is not beside the checkout");
        const at_test::AppRun run = at_test::runApp(
            {QStringLiteral("--cluster"), root, QStringLiteral("--json"), QStringLiteral("--pipeline")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject pipeline =
            QJsonDocument::fromJson(run.out).object().value(QStringLiteral("pipeline")).toObject();
        QVERIFY(pipeline.value(QStringLiteral("reason")).isNull());
        QCOMPARE(pipeline.value(QStringLiteral("micro_batches")).toInt(), 2);

        const ClusterModel cluster = readCluster(root, {});
        const PipelineRankChoice choice = choosePipelineRanks(cluster);
        LoadOptions options;
        options.rankFolders = {cluster.rank(0)->folder, cluster.rank(2)->folder};
        LoadControl control;
        const LoadResult loaded = loadTrace(root, options, control);
        QVERIFY(loaded.model);
        const PipelineSchedule s =
            buildPipelineSchedule(*loaded.model, pipelineRanksOnModel(*loaded.model, cluster, choice));
        const TimeNs origin = loaded.model->origin();
        // Exact decimals of the ns: compare the text the writer makes with the numbers the JSON holds.
        const auto micros = [](TimeNs ns) { return microsText(ns).toDouble(); };
        QCOMPARE(pipeline.value(QStringLiteral("span_start_us")).toDouble(), micros(s.spanStart + origin));
        const QJsonArray stages = pipeline.value(QStringLiteral("stages")).toArray();
        QCOMPARE(stages.size(), qsizetype(2));
        for (qsizetype i = 0; i < stages.size(); ++i) {
            const QJsonObject stage = stages[i].toObject();
            const PipelineStage &expected = s.stages[static_cast<std::size_t>(i)];
            QCOMPARE(stage.value(QStringLiteral("rank")).toInt(), expected.rank);
            QCOMPARE(stage.value(QStringLiteral("bubble_total_us")).toDouble(), micros(expected.bubbleTotal));
            const QJsonArray blocks = stage.value(QStringLiteral("blocks")).toArray();
            QCOMPARE(blocks.size(), static_cast<qsizetype>(expected.blocks.size()));
            for (qsizetype b = 0; b < blocks.size(); ++b) {
                const QJsonObject block = blocks[b].toObject();
                const PipelineBlock &e = expected.blocks[static_cast<std::size_t>(b)];
                QCOMPARE(block.value(QStringLiteral("pass")).toString(), pipelinePassKey(e.pass));
                QCOMPARE(block.value(QStringLiteral("micro_batch")).toInt(), e.microBatch);
                QCOMPARE(block.value(QStringLiteral("start_us")).toDouble(), micros(e.start + origin));
                QCOMPARE(block.value(QStringLiteral("duration_us")).toDouble(), micros(e.duration()));
            }
            QCOMPARE(stage.value(QStringLiteral("bubbles")).toArray().size(),
                     static_cast<qsizetype>(expected.bubbles.size()));
        }
        // Without --json, --pipeline is refused; without pp groups, the reason.
        QCOMPARE(at_test::runApp({QStringLiteral("--cluster"), root, QStringLiteral("--pipeline")}).exitCode,
                 2);
        const at_test::AppRun alexnet =
            at_test::runApp({QStringLiteral("--cluster"), test::alexnetTextCluster(),
                             QStringLiteral("--json"), QStringLiteral("--pipeline")});
        QCOMPARE(alexnet.exitCode, 0);
        const QJsonObject none =
            QJsonDocument::fromJson(alexnet.out).object().value(QStringLiteral("pipeline")).toObject();
        QVERIFY(none.value(QStringLiteral("reason")).toString().contains(QLatin1String("(pp) group")));
        QVERIFY(none.value(QStringLiteral("stages")).toArray().isEmpty());
    }

    void reasonsWhenNoView()
    {
        ClusterModel noPp;
        Rank r;
        r.rank = 0;
        r.hasTimeline = true;
        noPp.ranks.push_back(r);
        PipelineRankChoice choice = choosePipelineRanks(noPp);
        QVERIFY(choice.stageRanks.empty());
        QVERIFY2(choice.reason.contains(QLatin1String("pp")), qPrintable(choice.reason));

        ClusterModel noTimeline;
        for (int i = 0; i < 2; ++i) {
            Rank x;
            x.rank = i;
            x.stage = i;
            x.hasTimeline = i == 0;
            noTimeline.ranks.push_back(x);
        }
        choice = choosePipelineRanks(noTimeline);
        QVERIFY(choice.stageRanks.empty());
        QVERIFY2(choice.reason.contains(QLatin1String("stage 1")), qPrintable(choice.reason));

        // A timeline without gradient kernels: no block, and the note says why.
        TraceBuilder b;
        b.addGroup(SourceGroup{});
        const int stream = b.thread(b.numberKey(1), b.numberKey(2));
        b.setProcessName(b.process(b.numberKey(1)), b.strings().intern("Ascend Hardware"));
        b.addSlice(stream, kSyntheticBase, 1000, b.strings().intern("MatMul"), 0, kNoSource);
        const std::unique_ptr<TraceModel> model = b.build();
        const PipelineSchedule s = buildPipelineSchedule(*model, {{0, 0, 0, 0}});
        QVERIFY(!s.isValid());
        QVERIFY(!s.reason.isEmpty());
        QCOMPARE(s.notes.size(), 1);
        QVERIFY2(s.notes.front().contains(QLatin1String("gradient")), qPrintable(s.notes.front()));
    }
};

QTEST_GUILESS_MAIN(TstPipelineSchedule)
#include "tst_pipeline_schedule.moc"
