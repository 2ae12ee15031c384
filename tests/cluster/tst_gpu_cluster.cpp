// A folder of PyTorch profiler GPU traces as a cluster (docs/CLUSTER.md "GPU rank traces"): the layouts the
// folder detector finds (rank-N folders, flat, the TensorBoard plugin's plugins/profile/<run>/), the rank
// from distributedInfo (and its fallbacks), the per-step breakdown against unions of kernels computed here
// from the JSON text, `--cluster --json` through the real binary, and the Cluster page of the real window.
// Test folders are made in a temporary folder from the two real traces of hta_kineto_gpu_traces (links to
// them, or unpacked copies); nothing is written into the samples.
#include "AppProcess.h"
#include "AppTestSupport.h"
#include "ClusterTestSupport.h"
#include "InputReader.h"
#include "InsightChecks.h"
#include "Steps.h"
#include "TestSupport.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "folder/ProfileLayoutDetector.h"
#include "overview/Overview.h"

#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

using namespace at;
using namespace at::test;

namespace {

QString gpuSample(const char *name)
{
    return samplePath(QStringLiteral("hta_kineto_gpu_traces/") + QLatin1String(name));
}
QString rank0Sample() // nccl_data.json.gz: distributedInfo.rank 0
{
    return gpuSample("nccl_data.json.gz");
}
QString rank1Sample() // df_index_resolver.json.gz: distributedInfo.rank 1
{
    return gpuSample("df_index_resolver.json.gz");
}

QByteArray gunzip(const QString &path)
{
    QByteArray out;
    gzFile file = gzopen(QFile::encodeName(path).constData(), "rb");
    if (!file)
        return out;
    char buffer[1 << 16];
    for (int n = 0; (n = gzread(file, buffer, sizeof buffer)) > 0;)
        out.append(buffer, n);
    gzclose(file);
    return out;
}

// The trace's text without its distributedInfo member (one line in both samples).
QByteArray withoutDistributedInfo(const QByteArray &text)
{
    QList<QByteArray> lines = text.split('\n');
    lines.removeIf([](const QByteArray &line) { return line.trimmed().startsWith("\"distributedInfo\""); });
    return lines.join('\n');
}

bool link(const QString &target, const QString &path)
{
    return QDir().mkpath(QFileInfo(path).absolutePath()) && QFile::link(target, path);
}

// ns from a ts/dur the JSON reader gave as a double. Both samples' values survive the double: integer µs
// below 2^53, or µs with 3 decimals below 2^43 (spacing 2^-10 µs < 0.001 / 2), so the 3-decimal text of
// the double is the text the file wrote, and that text is converted without floating point.
qint64 nsOf(const QJsonValue &value)
{
    const QStringList parts = QString::number(value.toDouble(), 'f', 3).split(QLatin1Char('.'));
    return parts[0].toLongLong() * 1000 + parts[1].toLongLong();
}

// A sample whose steps only the GPU marks: the host ProfilerStep#N events removed and, per stream, a
// gpu_user_annotation "ProfilerStep#N" over the GPU work launched inside host step N, as PyTorch writes one
// when the step is the innermost annotation of a launch (FORMATS.md §10.8). `spans`: step → [first start,
// last end] over its streams, in ns as the text says.
struct GpuMarkedSteps
{
    QByteArray text;
    std::map<qint64, std::pair<qint64, qint64>> spans;
};

QJsonValue microsText(qint64 ns) // the double whose shortest text is ns / 1000 with 3 decimals
{
    return ns % 1000 == 0 ? QJsonValue(ns / 1000)
                          : QJsonValue(QString::number(ns / 1000) + QLatin1Char('.') +
                                       QString::number(ns % 1000).rightJustified(3, QLatin1Char('0')))
                                .toString()
                                .toDouble();
}

GpuMarkedSteps markStepsOnTheGpuOnly(const QByteArray &text)
{
    QJsonObject root = QJsonDocument::fromJson(text).object();
    const QJsonArray events = root[QStringLiteral("traceEvents")].toArray();
    std::vector<std::array<qint64, 3>> hosts; // number, start, end
    std::map<qint64, qint64> launches;        // correlation → runtime call's start
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        const QString cat = e[QStringLiteral("cat")].toString(), name = e[QStringLiteral("name")].toString();
        const qint64 ts = nsOf(e[QStringLiteral("ts")]);
        if (cat == QStringLiteral("user_annotation") && name.startsWith(QStringLiteral("ProfilerStep#")))
            hosts.push_back({name.mid(13).toLongLong(), ts, ts + nsOf(e[QStringLiteral("dur")])});
        else if (cat == QStringLiteral("cuda_runtime") || cat == QStringLiteral("cuda_driver"))
            launches[e[QStringLiteral("args")][QStringLiteral("correlation")].toInteger()] = ts;
    }
    std::map<std::array<qint64, 3>, std::pair<qint64, qint64>> pieces; // (step, device, stream) → span
    QJsonArray out;
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        const QString cat = e[QStringLiteral("cat")].toString();
        if (cat == QStringLiteral("user_annotation") &&
            e[QStringLiteral("name")].toString().startsWith(QStringLiteral("ProfilerStep#")))
            continue;
        out.append(e);
        if (cat != QStringLiteral("kernel") && cat != QStringLiteral("gpu_memcpy") &&
            cat != QStringLiteral("gpu_memset"))
            continue;
        const auto launch =
            launches.find(e[QStringLiteral("args")][QStringLiteral("correlation")].toInteger(-1));
        if (launch == launches.end())
            continue;
        for (const auto &h : hosts)
            if (launch->second >= h[1] && launch->second < h[2]) {
                const qint64 ts = nsOf(e[QStringLiteral("ts")]), end = ts + nsOf(e[QStringLiteral("dur")]);
                auto [it, added] = pieces.try_emplace(
                    {h[0], e[QStringLiteral("pid")].toInteger(), e[QStringLiteral("tid")].toInteger()}, ts,
                    end);
                it->second = {std::min(it->second.first, ts), std::max(it->second.second, end)};
            }
    }
    GpuMarkedSteps marked;
    for (const auto &[key, span] : pieces) {
        out.append(QJsonObject{{QStringLiteral("ph"), QStringLiteral("X")},
                               {QStringLiteral("cat"), QStringLiteral("gpu_user_annotation")},
                               {QStringLiteral("name"), QStringLiteral("ProfilerStep#%1").arg(key[0])},
                               {QStringLiteral("pid"), key[1]},
                               {QStringLiteral("tid"), key[2]},
                               {QStringLiteral("ts"), microsText(span.first)},
                               {QStringLiteral("dur"), microsText(span.second - span.first)}});
        auto [it, added] = marked.spans.try_emplace(key[0], span);
        it->second = {std::min(it->second.first, span.first), std::max(it->second.second, span.second)};
    }
    root[QStringLiteral("traceEvents")] = out;
    marked.text = QJsonDocument(root).toJson(QJsonDocument::Compact);
    return marked;
}

struct ExpectedStep
{
    qint64 step = -1;
    qint64 computing = 0, communication = 0, notOverlapped = 0, free = 0, span = 0, preparing = 0;
};

// The breakdown of docs/CLUSTER.md computed independently of the reader: host ProfilerStep#N widened to
// [max(previous end, host start), max(host end, last end of GPU work launched inside it)], then a sweep
// over the start/end points of the kernels clipped to each step (NCCL kernels: communication; other kernels:
// computing; memcpy/memset: neither).
std::vector<ExpectedStep> expectedBreakdown(const QByteArray &text)
{
    const QJsonArray events = QJsonDocument::fromJson(text).object()[QStringLiteral("traceEvents")].toArray();
    struct Host
    {
        qint64 number, start, end, deviceStart = 0, deviceEnd = 0;
    };
    struct Gpu
    {
        qint64 start, end, correlation;
        int kind; // 0 compute, 1 communication, 2 memory
    };
    std::vector<Host> hosts;
    std::vector<Gpu> gpu;
    std::map<qint64, qint64> launches;
    static const QRegularExpression nccl(QStringLiteral("^nccl|ncclKernel|^hccl"));
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        if (e[QStringLiteral("ph")].toString() != QStringLiteral("X"))
            continue;
        const QString cat = e[QStringLiteral("cat")].toString(), name = e[QStringLiteral("name")].toString();
        const qint64 ts = nsOf(e[QStringLiteral("ts")]), end = ts + nsOf(e[QStringLiteral("dur")]);
        const QJsonObject args = e[QStringLiteral("args")].toObject();
        if ((cat == QStringLiteral("user_annotation") || cat == QStringLiteral("cpu_op")) &&
            name.startsWith(QStringLiteral("ProfilerStep#")))
            hosts.push_back({name.mid(13).toLongLong(), ts, end});
        else if (cat == QStringLiteral("cuda_runtime") || cat == QStringLiteral("cuda_driver"))
            launches[args[QStringLiteral("correlation")].toInteger()] = ts;
        else if (cat == QStringLiteral("kernel") || cat == QStringLiteral("gpu_memcpy") ||
                 cat == QStringLiteral("gpu_memset"))
            gpu.push_back({ts, end, args[QStringLiteral("correlation")].toInteger(-1),
                           cat != QStringLiteral("kernel") ? 2
                           : name.contains(nccl)           ? 1
                                                           : 0});
    }
    std::sort(hosts.begin(), hosts.end(), [](const Host &a, const Host &b) { return a.start < b.start; });
    for (Host &h : hosts) {
        h.deviceEnd = h.end;
        for (const Gpu &g : gpu) {
            const auto launch = launches.find(g.correlation);
            if (launch != launches.end() && launch->second >= h.start && launch->second < h.end)
                h.deviceEnd = std::max(h.deviceEnd, g.end);
        }
    }
    qint64 previous = std::numeric_limits<qint64>::min();
    std::vector<ExpectedStep> out;
    for (Host &h : hosts) {
        h.deviceStart = std::max(previous, h.start);
        previous = h.deviceEnd = std::max(h.deviceEnd, h.deviceStart);
        std::vector<std::pair<qint64, int>> points; // (time, +1/-1 compute as ±1, communication as ±2)
        qint64 firstBusy = h.deviceEnd;
        for (const Gpu &g : gpu) {
            const qint64 from = std::max(g.start, h.deviceStart), to = std::min(g.end, h.deviceEnd);
            if (g.kind == 2 || to <= from)
                continue;
            const int weight = g.kind == 0 ? 1 : 2;
            points.emplace_back(from, weight);
            points.emplace_back(to, -weight);
            firstBusy = std::min(firstBusy, from);
        }
        std::sort(points.begin(), points.end());
        ExpectedStep s;
        s.step = h.number;
        int compute = 0, communication = 0;
        qint64 at = h.deviceStart;
        for (const auto &[time, delta] : points) {
            if (compute > 0)
                s.computing += time - at;
            if (communication > 0)
                s.communication += time - at;
            if (communication > 0 && compute == 0)
                s.notOverlapped += time - at;
            at = time;
            (std::abs(delta) == 1 ? compute : communication) += delta > 0 ? 1 : -1;
        }
        s.span = h.deviceEnd - h.deviceStart;
        s.free = s.span - s.computing - s.notOverlapped;
        s.preparing = points.empty() ? 0 : firstBusy - h.start;
        out.push_back(s);
    }
    return out;
}

const std::vector<ExpectedStep> &expectedOf(const QString &sample)
{
    static std::map<QString, std::vector<ExpectedStep>> cache; // QJsonDocument of 54 MB: once per sample
    auto it = cache.find(sample);
    if (it == cache.end())
        it = cache.emplace(sample, expectedBreakdown(gunzip(sample))).first;
    return it->second;
}

// Both ranks in one of the layouts; the trace each rank's file is, by rank.
struct Layout
{
    QString root;
    QString rank0, rank1;
};

Layout makeLayout(const QString &dir, const QString &kind)
{
    Layout l{dir, {}, {}};
    if (kind == QStringLiteral("rank folders")) {
        l.rank0 = dir + QStringLiteral("/rank-0/x.pt.trace.json.gz");
        l.rank1 = dir + QStringLiteral("/rank-1/x.pt.trace.json.gz");
    } else if (kind ==
               QStringLiteral("flat")) { // file order is not rank order: the rank comes from the trace
        l.rank0 = dir + QStringLiteral("/b.pt.trace.json.gz");
        l.rank1 = dir + QStringLiteral("/a.pt.trace.json.gz");
    } else if (kind == QStringLiteral("tensorboard")) { // one unpacked: both kinds of file
        l.rank0 = dir + QStringLiteral("/plugins/profile/run1/worker0.1698925322189.pt.trace.json");
        l.rank1 = dir + QStringLiteral("/plugins/profile/run1/worker1.1698925322190.pt.trace.json.gz");
    } else { // plain *.json names: recognised by their first bytes
        l.rank0 = dir + QStringLiteral("/r0.json");
        l.rank1 = dir + QStringLiteral("/r1.json.gz");
    }
    if (l.rank0.endsWith(QStringLiteral(".gz")))
        link(rank0Sample(), l.rank0);
    else
        writeTextFile(l.rank0, gunzip(rank0Sample())); // makes the folder
    if (QFileInfo(l.rank0).size() == 0 || !link(rank1Sample(), l.rank1))
        return {};
    return l;
}

const cluster::Rank *rankOf(const cluster::ClusterModel &model, int id)
{
    return model.rank(id);
}

void compareSteps(const cluster::Rank &rank, const std::vector<ExpectedStep> &expected)
{
    QCOMPARE(rank.steps.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const cluster::RankStep &s = rank.steps[i];
        const ExpectedStep &e = expected[i];
        QCOMPARE(s.step, e.step);
        QCOMPARE(s.computing, e.computing);
        QCOMPARE(s.communication, e.communication);
        QCOMPARE(s.communicationNotOverlapped, e.notOverlapped);
        QCOMPARE(s.overlapped, e.communication - e.notOverlapped);
        QCOMPARE(s.free, e.free);
        QCOMPARE(s.stage, e.span);
        QCOMPARE(s.preparing, e.preparing);
        QVERIFY(s.computing > 0 && s.communication > 0 && s.free > 0); // the samples have all three
    }
}

} // namespace

class TstGpuCluster : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private slots:
    void initTestCase()
    {
        useScratchSettings(m_settings.path());
        QVERIFY2(QFileInfo::exists(rank0Sample()) && QFileInfo::exists(rank1Sample()),
                 "the GPU samples are missing");
    }

    void eachLayoutIsFound_data()
    {
        QTest::addColumn<QString>("kind");
        for (const char *kind : {"rank folders", "flat", "tensorboard", "plain json names"})
            QTest::newRow(kind) << QString::fromLatin1(kind);
    }
    // The folder detector gives one source per trace, in one run, ranks from distributedInfo; the cluster
    // reader reads the same two ranks from the same files.
    void eachLayoutIsFound()
    {
        QFETCH(QString, kind);
        QTemporaryDir dir;
        const Layout layout = makeLayout(dir.path(), kind);
        QVERIFY(!layout.root.isEmpty());

        const DetectedProfile found = ProfileLayoutDetector::detect(layout.root, inputFormats());
        QCOMPARE(found.sources.size(), 2);
        QVERIFY(!found.hasDiagnostic(DiagnosticCode::MultipleRuns));
        QVERIFY(!found.hasDiagnostic(DiagnosticCode::NothingRecognised));
        for (int i = 0; i < 2; ++i) {
            const DataSource &s = found.sources[i];
            QCOMPARE(s.rankId, std::optional<int>(i));
            QCOMPARE(s.format, QStringLiteral("json"));
            QCOMPARE(s.label, QStringLiteral("Rank %1").arg(i));
            QCOMPARE(s.timelineFiles, QStringList{i == 0 ? layout.rank0 : layout.rank1});
        }
        QVERIFY(cluster::isClusterFolder(layout.root));

        const cluster::ClusterModel model = cluster::readCluster(layout.root);
        QCOMPARE(model.ranks.size(), std::size_t(2));
        QCOMPARE(model.ranks[0].rank, 0);
        QCOMPARE(model.ranks[0].folder, layout.rank0);
        QCOMPARE(model.ranks[1].rank, 1);
        QCOMPARE(model.ranks[1].folder, layout.rank1);
        QVERIFY(model.ranks[0].hasTimeline && model.ranks[1].hasTimeline);
        QVERIFY(model.ranks[0].links.empty() && model.ranks[1].links.empty());
        QVERIFY(model.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("do not record the links")));
    }

    // One trace (beside JSON files that are no Kineto trace) is a profile, not a cluster.
    void oneTraceIsAProfile()
    {
        QTemporaryDir dir;
        QVERIFY(link(rank1Sample(), dir.filePath(QStringLiteral("run/rank-1/worker.pt.trace.json.gz"))));
        writeTextFile(dir.filePath(QStringLiteral("run/rank-1/meta.json")), "{\"schemaVersion\": 1}");
        writeTextFile(dir.filePath(QStringLiteral("run/rank-1/events.json")), "[{\"traceEvents\": []}]");
        const DetectedProfile found = ProfileLayoutDetector::detect(dir.path(), inputFormats());
        QCOMPARE(found.sources.size(), 1);
        QCOMPARE(found.sources.front().rankId, std::optional<int>(1));
        QCOMPARE(found.sources.front().timelineFiles.size(), 1);
        QVERIFY(!cluster::isClusterFolder(dir.path()));
        const cluster::ClusterModel model = cluster::readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(1));
        QCOMPARE(model.ranks.front().rank, 1);
    }

    // The same trace opened as one profile: the Overview's computing and communication not overlapped per
    // step equal the unions computed here (the NCCL kernels are communication there too, through the kernel
    // rows' HTA class; they were counted as computing before). Free and preparing are not compared: the
    // single-profile step (core/Steps) and the cluster's widened step differ in where preparing goes.
    void overviewOfOneTraceCountsNcclAsCommunication()
    {
        const std::unique_ptr<TraceModel> model = loadOrFail(rank0Sample());
        QVERIFY(model);
        OverviewInputs inputs;
        inputs.model = model.get();
        const Overview overview = buildOverview(inputs);
        QCOMPARE(overview.ranks.size(), std::size_t(1));
        const std::vector<ExpectedStep> &expected = expectedOf(rank0Sample());
        const std::vector<OverviewStep> &steps = overview.ranks.front().steps;
        QCOMPARE(steps.size(), expected.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].number, expected[i].step);
            QCOMPARE(steps[i].part(OverviewPart::Computing).time, expected[i].computing);
            QCOMPARE(steps[i].part(OverviewPart::CommunicationNotOverlapped).time, expected[i].notOverlapped);
            QVERIFY(expected[i].notOverlapped > 0);
        }
    }

    // Per rank and step, to the ns, against the unions computed here from the JSON text; the NCCL kernels
    // are the communication ops (one per kernel, its duration, the process group of distributedInfo).
    void breakdownFromTheKernels()
    {
        QTemporaryDir dir;
        const Layout layout = makeLayout(dir.path(), QStringLiteral("flat"));
        QElapsedTimer timer;
        timer.start();
        const cluster::ClusterModel model = cluster::readCluster(layout.root);
        qInfo("both GPU ranks read in %lld ms", static_cast<long long>(timer.elapsed()));
        QVERIFY(rankOf(model, 0) && rankOf(model, 1));
        compareSteps(*rankOf(model, 0), expectedOf(rank0Sample()));
        compareSteps(*rankOf(model, 1), expectedOf(rank1Sample()));
        QCOMPARE(rankOf(model, 0)->steps.front().step, 4); // ProfilerStep#4-#6 and #2-#6 (FORMATS.md §10.10)
        QCOMPARE(rankOf(model, 1)->steps.front().step, 2);

        // NCCL kernels counted here: every "kernel" event whose name says nccl.
        const QByteArray text = gunzip(rank0Sample());
        const QJsonArray events =
            QJsonDocument::fromJson(text).object()[QStringLiteral("traceEvents")].toArray();
        qint64 ncclCount = 0, ncclTime = 0;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            if (e[QStringLiteral("cat")].toString() == QStringLiteral("kernel") &&
                e[QStringLiteral("name")].toString().startsWith(QStringLiteral("ncclKernel"))) {
                ++ncclCount;
                ncclTime += nsOf(e[QStringLiteral("dur")]);
            }
        }
        const std::vector<cluster::CommOp> &ops = rankOf(model, 0)->ops;
        QCOMPARE(qint64(ops.size()), ncclCount);
        qint64 opTime = 0;
        for (const cluster::CommOp &op : ops)
            opTime += op.elapse;
        QCOMPARE(opTime, ncclTime);
        QVERIFY(ops.front().name.startsWith(QStringLiteral("ncclKernel_")));
        QVERIFY(ops.front().name.endsWith(QStringLiteral("#1")));
        QCOMPARE(ops.front().group, QStringLiteral("0")); // "Process Group Name" (FORMATS.md §10.9)
        const cluster::ParallelGroup *group = model.groupByHash(QStringLiteral("0"));
        QVERIFY(group);
        QCOMPARE(group->name, QStringLiteral("default_pg"));
        QCOMPARE(group->globalRanks, (std::vector<int>{0, 1}));
    }

    // The slow-rank finding counts ranks, not (rank, step) entries: rank 1 (a larger workload than rank 0's)
    // is slower in every common step, and the finding says one slow rank, not one per step.
    void slowRankFindingCountsRanks()
    {
        QTemporaryDir dir;
        const Layout layout = makeLayout(dir.path(), QStringLiteral("flat"));
        const cluster::ClusterModel model = cluster::readCluster(layout.root);
        const std::vector<cluster::SlowRank> slow = cluster::findSlowRanks(model);
        std::set<int> ranks;
        for (const cluster::SlowRank &s : slow)
            ranks.insert(s.rank);
        QVERIFY2(slow.size() > ranks.size(), "the samples have one rank slow in several steps");
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        const std::vector<Finding> findings = clusterFindings(context);
        const auto finding = std::find_if(findings.begin(), findings.end(), [](const Finding &f) {
            return f.check == QLatin1String("slow_rank");
        });
        QVERIFY(finding != findings.end());
        QVERIFY2(finding->explanation.startsWith(QStringLiteral("%1 slow rank(s) found").arg(ranks.size())),
                 qPrintable(finding->explanation));
    }

    // Steps that only the GPU marks (gpu_user_annotation "ProfilerStep#N", the host steps missing): one
    // step per number over its pieces on every stream, to the ns, in the single-trace timeline and in the
    // cluster; with the host steps present, they win (the GPU pieces are partial, FORMATS.md §10.8).
    void stepsMarkedOnlyOnTheGpu()
    {
        QTemporaryDir dir;
        const GpuMarkedSteps one = markStepsOnTheGpuOnly(gunzip(rank1Sample())); // integer µs
        QCOMPARE(one.spans.size(), std::size_t(5)); // ProfilerStep#2-#6 all launch work
        const QString single = dir.filePath(QStringLiteral("single/gpu_marked.pt.trace.json"));
        writeTextFile(single, one.text);
        const std::unique_ptr<TraceModel> model = loadOrFail(single);
        QVERIFY(model);
        QCOMPARE(model->steps().size(), one.spans.size());
        auto expected = one.spans.begin();
        for (const Step &s : model->steps()) {
            QCOMPARE(s.source, StepSource::GpuAnnotation);
            QCOMPARE(s.number, expected->first);
            QCOMPARE(s.label, QStringLiteral("ProfilerStep#%1").arg(expected->first));
            QCOMPARE(model->origin() + s.hostBegin, expected->second.first);
            QCOMPARE(model->origin() + s.hostEnd, expected->second.second);
            QVERIFY(!s.deviceTasks.empty());
            QCOMPARE(s.flowAttributedTasks, std::size_t(0)); // by device time, not by launch
            for (const SliceRef &task : s.deviceTasks) {
                const SliceTable &table = model->threads()[static_cast<std::size_t>(task.thread)].slices;
                QVERIFY(table.start(task.index) >= s.deviceBegin && table.start(task.index) <= s.deviceEnd);
            }
            ++expected;
        }
        // Host and GPU marks together: the host steps.
        QByteArray both = gunzip(rank1Sample());
        const int close = both.lastIndexOf(']');
        both.insert(close,
                    QByteArray(",{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"ProfilerStep#9\","
                               "\"pid\":0,\"tid\":7,\"ts\":1669783687389324,\"dur\":5}"));
        const QString hostAndGpu = dir.filePath(QStringLiteral("both/both.pt.trace.json"));
        writeTextFile(hostAndGpu, both);
        const std::unique_ptr<TraceModel> withHost = loadOrFail(hostAndGpu);
        QVERIFY(withHost && !withHost->steps().empty());
        for (const Step &s : withHost->steps())
            QCOMPARE(s.source, StepSource::ProfilerStep);

        // Two ranks, both marked on the GPU only: each rank's steps are the GPU spans, not one step over all.
        const GpuMarkedSteps zero = markStepsOnTheGpuOnly(gunzip(rank0Sample())); // µs with 3 decimals
        QVERIFY(zero.spans.size() >= 2);
        writeTextFile(dir.filePath(QStringLiteral("cluster/rank-0/r.pt.trace.json")), zero.text);
        writeTextFile(dir.filePath(QStringLiteral("cluster/rank-1/r.pt.trace.json")), one.text);
        const cluster::ClusterModel cluster = cluster::readCluster(dir.filePath(QStringLiteral("cluster")));
        for (const auto &[id, marked] : {std::pair{0, &zero}, std::pair{1, &one}}) {
            const cluster::Rank *rank = rankOf(cluster, id);
            QVERIFY(rank);
            QCOMPARE(rank->steps.size(), marked->spans.size());
            auto span = marked->spans.begin();
            for (const cluster::RankStep &s : rank->steps) {
                QCOMPARE(s.step, span->first);
                QCOMPARE(s.stage, span->second.second - span->second.first);
                QVERIFY(s.computing > 0 && s.computing <= s.stage);
                ++span;
            }
        }
    }

    // Without distributedInfo: the rank-N folder names, else the file order, each with a warning; two traces
    // claiming one rank: the second gets the next free one, with a warning (and the detector warns too).
    void fallbackRanks()
    {
        QTemporaryDir dir;
        const QByteArray bare0 = withoutDistributedInfo(gunzip(rank0Sample()));
        const QByteArray bare1 = withoutDistributedInfo(gunzip(rank1Sample()));
        QVERIFY(!bare0.contains("\"distributedInfo\"") && !bare1.contains("\"distributedInfo\""));

        // rank-N folders, rank 1 first in file order would be wrong: the folder names win.
        const QString folders = dir.filePath(QStringLiteral("folders"));
        writeTextFile(folders + QStringLiteral("/rank-1/a.pt.trace.json"), bare0);
        writeTextFile(folders + QStringLiteral("/rank-0/b.pt.trace.json"), bare1);
        cluster::ClusterModel model = cluster::readCluster(folders);
        QCOMPARE(model.ranks.size(), std::size_t(2));
        QCOMPARE(QFileInfo(model.ranks[0].folder).fileName(), QStringLiteral("b.pt.trace.json"));
        QCOMPARE(QFileInfo(model.ranks[1].folder).fileName(), QStringLiteral("a.pt.trace.json"));
        QCOMPARE(model.warnings.filter(QStringLiteral("taken from its folder name")).size(), 2);
        compareSteps(model.ranks[1], expectedOf(rank0Sample())); // the same steps without distributedInfo

        // Flat: the file order.
        const QString flat = dir.filePath(QStringLiteral("flat"));
        writeTextFile(flat + QStringLiteral("/b.pt.trace.json"), bare0);
        writeTextFile(flat + QStringLiteral("/a.pt.trace.json"), bare1);
        model = cluster::readCluster(flat);
        QCOMPARE(model.ranks.size(), std::size_t(2));
        QCOMPARE(QFileInfo(model.ranks[0].folder).fileName(), QStringLiteral("a.pt.trace.json"));
        QCOMPARE(model.warnings.filter(QStringLiteral("(file order)")).size(), 2);
        const DetectedProfile found = ProfileLayoutDetector::detect(flat, inputFormats());
        QCOMPARE(found.sources.size(), 2);
        QVERIFY(!found.sources[0].rankId && !found.sources[1].rankId);

        // Two traces of rank 0 (and a link to the first, which is no third rank).
        const QString twice = dir.filePath(QStringLiteral("twice"));
        QVERIFY(link(rank0Sample(), twice + QStringLiteral("/a.pt.trace.json.gz")));
        // (a copy: two links to one file are one source to the detector)
        writeTextFile(twice + QStringLiteral("/b.pt.trace.json"), gunzip(rank0Sample()));
        QVERIFY(link(twice + QStringLiteral("/a.pt.trace.json.gz"),
                     twice + QStringLiteral("/c.pt.trace.json.gz")));
        model = cluster::readCluster(twice);
        QCOMPARE(model.ranks.size(), std::size_t(2));
        QCOMPARE(model.ranks[1].rank, 1);
        QCOMPARE(QFileInfo(model.ranks[1].folder).fileName(), QStringLiteral("b.pt.trace.json"));
        QCOMPARE(model.warnings.filter(QStringLiteral("is already the rank of")).size(), 1);
        const DetectedProfile both = ProfileLayoutDetector::detect(twice, inputFormats());
        QCOMPARE(both.diagnosticsWith(DiagnosticCode::DuplicateRank).size(), 1);
        QVERIFY(both.diagnosticsWith(DiagnosticCode::DuplicateRank)
                    .first()
                    .message.contains(twice + QStringLiteral("/b.pt.trace.json")));
    }

    // A trace cut in the middle, and a file that only looks like one: warnings naming the file, no crash.
    void badTraces()
    {
        QTemporaryDir dir;
        const QByteArray text = gunzip(rank0Sample());
        writeTextFile(dir.filePath(QStringLiteral("cut.pt.trace.json")), text.left(text.size() / 2));
        QVERIFY(link(rank1Sample(), dir.filePath(QStringLiteral("ok.pt.trace.json.gz"))));
        const cluster::ClusterModel model = cluster::readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(2));
        const QStringList named = model.warnings.filter(dir.filePath(QStringLiteral("cut.pt.trace.json")));
        QVERIFY(!named.isEmpty());
        QVERIFY(rankOf(model, 1) && !rankOf(model, 1)->steps.empty());
    }

    // `--cluster --json` on the folder, through the real command line: both ranks with the figures above as
    // exact µs decimals.
    void clusterJsonOnTheCommandLine()
    {
        QTemporaryDir dir;
        const Layout layout = makeLayout(dir.path(), QStringLiteral("rank folders"));
        const at_test::AppRun run =
            at_test::runApp({QStringLiteral("--cluster"), layout.root, QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonArray ranks = root[QStringLiteral("ranks")].toArray();
        QCOMPARE(ranks.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject rank = ranks[i].toObject();
            QCOMPARE(rank[QStringLiteral("rank")].toInt(), i);
            QCOMPARE(rank[QStringLiteral("folder")].toString(), i == 0 ? layout.rank0 : layout.rank1);
            const std::vector<ExpectedStep> &expected = expectedOf(i == 0 ? rank0Sample() : rank1Sample());
            const QJsonArray steps = rank[QStringLiteral("steps")].toArray();
            QCOMPARE(std::size_t(steps.size()), expected.size());
            for (std::size_t s = 0; s < expected.size(); ++s) {
                const QJsonObject step = steps[qsizetype(s)].toObject();
                auto ns = [&](const char *key) {
                    return std::llround(step[QLatin1String(key)].toDouble() * 1000);
                };
                QCOMPARE(step[QStringLiteral("step")].toInteger(), expected[s].step);
                QCOMPARE(step[QStringLiteral("source")].toString(), QStringLiteral("timeline"));
                QCOMPARE(ns("computing_us"), expected[s].computing);
                QCOMPARE(ns("communication_not_overlapped_us"), expected[s].notOverlapped);
                QCOMPARE(ns("communication_us"), expected[s].communication);
                QCOMPARE(ns("free_us"), expected[s].free);
                QCOMPARE(ns("stage_us"), expected[s].span);
            }
        }
        QVERIFY(!root[QStringLiteral("communication_ops")].toArray().isEmpty());
    }

    // The window: the folder opens (both ranks on one timeline, as a two-rank Ascend folder does), its
    // Cluster page lists the two ranks, and a rank's row opens that rank's trace alone.
    void clusterPageInTheWindow()
    {
        QTemporaryDir dir;
        const Layout layout = makeLayout(dir.path(), QStringLiteral("flat"));
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openOnOverview(window, layout.root));
        QCOMPARE(window.model()->groups().size(), std::size_t(2));
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        ClusterView *view = window.clusterView();
        QVERIFY(view && view->model());
        QCOMPARE(view->model()->ranks.size(), std::size_t(2));
        QCOMPARE(view->rankTable()->model()->rowCount(), 2);
        QCOMPARE(view->rankAtRow(0), 0);
        QCOMPARE(view->rankAtRow(1), 1);

        // Both rows selected: the two traces open on one timeline, a group each.
        view->rankTable()->selectRow(0);
        view->rankTable()->selectionModel()->select(view->rankTable()->model()->index(1, 0),
                                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(view->selectedRanks(), (QList<int>{0, 1}));
        QSignalSpy both(&window, &MainWindow::loadFinished);
        QTest::mouseClick(view->openSelectedButton(), Qt::LeftButton);
        QVERIFY(both.wait(120000));
        QVERIFY(both.first().first().toBool());
        QCOMPARE(window.model()->groups().size(), std::size_t(2));
        QCOMPARE(window.loadedRankFolders(), (QStringList{layout.rank0, layout.rank1}));

        // One rank's row: that trace alone.
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        view->openRank(1);
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.first().first().toBool());
        QVERIFY(!window.showsCluster());
        QCOMPARE(window.currentPath(), layout.rank1);
        QCOMPARE(window.model()->groups().size(), std::size_t(1));
        QVERIFY(window.model()->threads().size() > 1);
    }

    // More than 8 GPU ranks open as the Cluster page straight away, as Ascend clusters do (no timeline load).
    void manyRanksOpenAsThePage()
    {
        QTemporaryDir dir;
        const QByteArray text = gunzip(rank0Sample());
        const QByteArray rankZero = "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0,";
        QVERIFY(text.contains(rankZero));
        for (int rank = 0; rank < 9; ++rank) {
            QByteArray copy = text;
            copy.replace(rankZero, QByteArray(rankZero).replace("\"rank\": 0",
                                                                "\"rank\": " + QByteArray::number(rank)));
            writeTextFile(dir.filePath(QStringLiteral("worker%1.pt.trace.json").arg(rank)), copy);
        }
        MainWindow window;
        window.show();
        window.openPath(dir.path());
        QVERIFY(!window.isLoading());
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QVERIFY(!window.model());
        const cluster::ClusterModel *model = window.clusterView()->model();
        QCOMPARE(model->ranks.size(), std::size_t(9));
        QCOMPARE(model->ranks.back().rank, 8);
        compareSteps(model->ranks.back(), expectedOf(rank0Sample()));
    }
};

QTEST_MAIN(TstGpuCluster)
#include "tst_gpu_cluster.moc"
