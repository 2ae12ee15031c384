// What a finding explains (issue #28 item 2, docs/INSIGHTS.md "What a finding explains"): on every sample
// --advise accepts, the invariants (a finding within its part, the findings of a part within the part, no
// host verdict without the host side, the largest part explained or said to be unexplained); on synthetic
// traces made for each rule, exact values; and the cases on the real samples.

#include "CommandLine.h"
#include "FindingJson.h"
#include "FindingText.h"
#include "InsightChecks.h"
#include "Steps.h"
#include "TestSupport.h"
#include "TraceBuilder.h"
#include "cluster/ClusterReader.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace at;
using namespace at::test;

namespace {

constexpr TimeNs kT0 = 1'000'000'000'000'000; // absolute ns of the synthetic traces

bool isTimePart(StepPart part)
{
    return part == StepPart::Computing || part == StepPart::CommunicationNotOverlapped ||
           part == StepPart::Free;
}

std::vector<Finding> findingsOf(const std::vector<Finding> &all, const QString &check)
{
    std::vector<Finding> out;
    for (const Finding &f : all)
        if (f.check == check)
            out.push_back(f);
    return out;
}

// The inputs of /work/baseline/outputs.sh: the sample folders, the result folders inside them and the
// timeline / summary files below 20 MB.
QStringList adviseInputs()
{
    const QString root = samplePath(QString());
    QStringList inputs;
    for (const QFileInfo &top : QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
        inputs << top.absoluteFilePath();
    QDirIterator it(root, QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        const QString name = info.fileName();
        if (info.isDir()) {
            if (name.startsWith(QLatin1String("PROF_")) || name.endsWith(QLatin1String("ascend_pt")) ||
                name.startsWith(QLatin1String("level")) || name == QLatin1String("text") ||
                name == QLatin1String("db") || name == QLatin1String("mindstudio_profiler_output"))
                inputs << info.absoluteFilePath();
        } else if ((name.endsWith(QLatin1String(".json")) || name.endsWith(QLatin1String(".json.gz")) ||
                    name.endsWith(QLatin1String(".db")) || name.endsWith(QLatin1String(".csv"))) &&
                   info.size() < 20 * 1024 * 1024 && !name.contains(QLatin1String("PROVENANCE"))) {
            inputs << info.absoluteFilePath();
        }
    }
    inputs.removeDuplicates();
    inputs.sort();
    return inputs;
}

// What --advise reads for a path (app/AdviseCommand.cpp): a cluster of summary-only ranks alone, else the
// model and the communication data of its folder.
struct Advised
{
    std::unique_ptr<TraceModel> model;
    std::shared_ptr<const cluster::ClusterModel> data;
};

Advised advise(const QString &path)
{
    Advised out;
    if (cluster::isClusterFolder(path)) {
        auto ranks = std::make_shared<cluster::ClusterModel>(cluster::readCluster(path));
        if (std::any_of(ranks->ranks.begin(), ranks->ranks.end(),
                        [](const cluster::Rank &r) { return !r.hasTimeline; })) {
            out.model = std::make_unique<TraceModel>();
            out.data = ranks;
            return out;
        }
    }
    CommandLineOptions options;
    options.noCache = true;
    QString errors;
    QTextStream err(&errors);
    out.model = loadForCommand(path, options, err);
    if (out.model)
        out.data = readCommunicationData(*out.model);
    return out;
}

// The checks whose verdict is that the host is the cause.
bool isHostVerdict(const QString &check)
{
    return check == QLatin1String("host_bound") || check == QLatin1String("idle_attribution");
}

// Every invariant of docs/INSIGHTS.md on one set of findings; the failure names the input.
void checkInvariants(const QString &input, const InsightContext &context,
                     const std::vector<Finding> &findings)
{
    const QByteArray where = input.toUtf8();
    std::map<std::pair<int, StepPart>, TimeNs> sums;
    for (const Finding &f : findings) {
        const QByteArray what = where + " " + f.check.toUtf8() + " rank " + QByteArray::number(f.rank);
        QVERIFY2(f.part != StepPart::Unknown, what.constData());
        QVERIFY2(f.timeAtStake >= 0, what.constData());
        if (!isTimePart(f.part)) {
            QVERIFY2(f.timeAtStake == 0 || f.part == StepPart::Memory, what.constData());
            continue;
        }
        // A finding that measured a time but explains none of its part is not listed (attributeFindings).
        QVERIFY2(f.timeAtStake > 0 || !f.data.contains(QStringLiteral("measured_us")), what.constData());
        // A finding of one rank quotes that rank: its occurrences are that rank's, and its explanation is
        // not a sum over the ranks loaded.
        if (f.rank >= 0) {
            for (const FindingOccurrence &o : f.occurrences)
                QVERIFY2(context.rankOf(o) == f.rank, what.constData());
            QVERIFY2(!f.explanation.contains(QStringLiteral("ranks loaded")), what.constData());
        }
        const RankStepParts *parts = context.partsOfRank(f.rank);
        if (f.rank >= 0 && parts) {
            QVERIFY2(f.stepTime == parts->step, what.constData());
            QVERIFY2(f.partTime == parts->part(f.part), what.constData());
        }
        if (parts && parts->hasParts) {
            QVERIFY2(f.timeAtStake <= f.partTime, what.constData()); // share of the part ≤ 1
            QVERIFY2(f.shareOfPart() <= 1.0, what.constData());
            QVERIFY2(qAbs(f.stepPercent - 100.0 * f.shareOfStep()) < 1e-9, what.constData());
        }
        sums[{f.rank, f.part}] += f.timeAtStake;
        // No host verdict on a rank whose host side was not loaded.
        if (isHostVerdict(f.check))
            QVERIFY2(parts && parts->hasHostData, what.constData());
    }
    for (const auto &[key, sum] : sums) {
        const RankStepParts *parts = context.partsOfRank(key.first);
        if (parts && parts->hasParts)
            QVERIFY2(sum <= parts->part(key.second),
                     (where + " part sum of rank " + QByteArray::number(key.first) + " " +
                      stepPartId(key.second).toUtf8())
                         .constData());
    }
    // The largest part of every rank: explained, or its rest in an unexplained_part finding.
    for (const RankStepParts &rank : context.ranks) {
        const StepPart largest = rank.largestPart();
        if (largest == StepPart::Unknown)
            continue;
        TimeNs explained = 0, unexplained = 0;
        for (const Finding &f : findings) {
            if (f.rank != rank.rank || f.part != largest)
                continue;
            (f.check == QLatin1String("unexplained_part") ? unexplained : explained) += f.timeAtStake;
        }
        const TimeNs rest = rank.part(largest) - explained;
        const QByteArray what = where + " largest part of rank " + QByteArray::number(rank.rank);
        QVERIFY2(unexplained == 0 || unexplained == rest, what.constData());
        QVERIFY2(unexplained == rest || static_cast<double>(rest) < 0.01 * static_cast<double>(rank.step),
                 what.constData());
    }
    // Ranked by the time they explain: the explaining findings first, most first, then the unexplained
    // rests, then the informational ones.
    const auto classOf = [](const Finding &f) {
        return f.check == QLatin1String("unexplained_part") ? 1 : f.timeAtStake > 0 ? 0 : 2;
    };
    for (std::size_t i = 1; i < findings.size(); ++i) {
        const Finding &a = findings[i - 1], &b = findings[i];
        QVERIFY2(classOf(a) < classOf(b) || (classOf(a) == classOf(b) && a.timeAtStake >= b.timeAtStake),
                 where.constData());
    }
    // --advise --json carries the same fields.
    const QJsonArray list = QJsonDocument::fromJson(findingsToJson(context, findings))
                                .object()
                                .value(QStringLiteral("findings"))
                                .toArray();
    QCOMPARE(list.size(), qsizetype(findings.size()));
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject json = list[i].toObject();
        const Finding &f = findings[static_cast<std::size_t>(i)];
        QCOMPARE(json.value(QStringLiteral("part")).toString(), stepPartId(f.part));
        QCOMPARE(json.value(QStringLiteral("rank")).toInt(), f.rank);
        QVERIFY(qAbs(json.value(QStringLiteral("share_of_part")).toDouble() - f.shareOfPart()) <= 5e-7);
        QVERIFY(qAbs(json.value(QStringLiteral("share_of_step")).toDouble() - f.shareOfStep()) <= 5e-7);
    }
}

// One step [0, 1000] µs of one rank with its parts written as Overlap Analysis lanes (what torch_npu
// writes; the breakdown is then exact) and device tasks at both ends of the stage.
struct StepTrace
{
    TraceBuilder b;
    int group = 0;
    std::int64_t pidBase = 0;

    explicit StepTrace(int rank = 0, bool hostSide = true)
    {
        SourceGroup g;
        g.label = QStringLiteral("Rank %1").arg(rank);
        g.collection.properties.append({QStringLiteral("rank"), QString::number(rank)});
        group = b.addGroup(g);
        pidBase = 100 * (rank + 1);
        if (hostSide)
            slice(thread(1, "Python"), 0, 1000, "ProfilerStep#1");
        else
            b.addDeclaredStep(DeclaredStep{group, 1, kT0, kT0 + 1'000'000, QStringLiteral("synthetic"), -1});
    }
    StringId name(const char *s) { return b.strings().intern(s); }
    int thread(std::int64_t pid, const char *process, const char *threadName = nullptr)
    {
        const int p = b.process(b.numberKey(pidBase + pid));
        b.setProcessName(p, name(process));
        const auto tid = threadName ? static_cast<std::int64_t>(qHash(QByteArray(threadName)) % 100000) : 1;
        const int t = b.thread(b.numberKey(pidBase + pid), b.numberKey(tid));
        if (threadName)
            b.setThreadName(t, name(threadName));
        return t;
    }
    void slice(int thread, TimeNs startUs, TimeNs durUs, const char *n, SourceLocation source = kNoSource)
    {
        b.addSlice(thread, kT0 + startUs * 1000, durUs * 1000, name(n), 0, source);
    }
    // The step's parts, each a list of [begin, end) µs.
    void parts(std::initializer_list<std::pair<TimeNs, TimeNs>> computing,
               std::initializer_list<std::pair<TimeNs, TimeNs>> communication,
               std::initializer_list<std::pair<TimeNs, TimeNs>> free)
    {
        const auto lane = [&](const char *laneName, std::initializer_list<std::pair<TimeNs, TimeNs>> spans) {
            const int t = thread(9, "Overlap Analysis", laneName);
            for (const auto &[begin, end] : spans)
                slice(t, begin, end - begin, laneName);
        };
        lane("Computing", computing);
        lane("Communication(Not Overlapped)", communication);
        lane("Free", free);
    }
    void launch(int host, int device, TimeNs atUs, TimeNs deviceUs, TimeNs durUs, const char *task)
    {
        slice(host, atUs, 1, "Node@launch");
        slice(device, deviceUs, durUs, task);
        const StringId cat = name("HostToDevice");
        const StringId id = b.strings().intern(std::to_string(++m_flows + 1000 * pidBase));
        b.addFlowHalf(FlowPhase::Start, cat, cat, id, host, kT0 + atUs * 1000, true);
        b.addFlowHalf(FlowPhase::End, cat, cat, id, device, kT0 + deviceUs * 1000, false);
    }

private:
    int m_flows = 0;
};

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

} // namespace

class TestFindingsInvariants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every sample --advise accepts: the invariants hold on each.
    void invariantsOnEverySample()
    {
        const QStringList inputs = adviseInputs();
        QVERIFY(inputs.size() > 50);
        int advised = 0, withParts = 0;
        for (const QString &input : inputs) {
            const Advised a = advise(input);
            if (!a.model)
                continue;
            ++advised;
            const InsightContext context(*a.model, a.data.get());
            const std::vector<Finding> findings = runInsightChecks(*a.model, nullptr, a.data.get());
            withParts += std::any_of(context.ranks.begin(), context.ranks.end(),
                                     [](const RankStepParts &r) { return r.hasParts; });
            checkInvariants(input, context, findings);
            if (QTest::currentTestFailed())
                return;
        }
        qInfo("%d of %lld inputs advised, %d with step parts", advised, static_cast<long long>(inputs.size()),
              withParts);
        QVERIFY(advised >= 26); // --advise accepts 26 of the baseline's 104 inputs
        QVERIFY(withParts >= 15);
    }

    // alexnet level1 rank 0: 101.963 of the step's ms are communication not overlapped (step_trace_time.csv)
    // and a communication finding leads, measured against rank 0's own step.
    void communicationLeadsOnAlexnetLevel1()
    {
        const Advised a = advise(samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt")));
        QVERIFY(a.model);
        const InsightContext context(*a.model, a.data.get());
        const std::vector<Finding> findings = runInsightChecks(*a.model, nullptr, a.data.get());
        checkInvariants(QStringLiteral("alexnet level1 rank 0"), context, findings);
        QVERIFY(!findings.empty());
        const Finding &first = findings.front();
        QCOMPARE(first.check, QStringLiteral("exposed_communication"));
        QCOMPARE(first.part, StepPart::CommunicationNotOverlapped);
        QCOMPARE(first.rank, 0);
        QVERIFY(qAbs(first.partTime - 101'963'203) <= 10);
        const Step &step = a.model->steps().front();
        QCOMPARE(first.stepTime, step.duration());
        QVERIFY(first.shareOfStep() > 0.5); // most of the step
        // The Free findings together never pass the step's Free time (25.744050 ms).
        TimeNs free = 0;
        for (const Finding &f : findings)
            if (f.part == StepPart::Free)
                free += f.timeAtStake;
        QVERIFY(free <= step.breakdown.free);
        // "Device streams wait for the host" quotes no more than the Free time.
        const auto idle = findingsOf(findings, QStringLiteral("idle_attribution"));
        for (const Finding &f : idle) {
            const double quoted = f.data.value(QStringLiteral("waiting_for_host_us")).toDouble() +
                                  f.data.value(QStringLiteral("waiting_for_event_us")).toDouble() +
                                  f.data.value(QStringLiteral("other_us")).toDouble();
            QVERIFY(quoted <= static_cast<double>(step.breakdown.free) / 1000.0 + 0.001);
        }
        // The 512-byte alignment finding claims only its transfers' time not overlapped by computing.
        const auto alignment = findingsOf(findings, QStringLiteral("byte_alignment"));
        QCOMPARE(alignment.size(), std::size_t(1));
        TimeNs transfers = 0;
        for (const FindingOccurrence &o : alignment.front().occurrences)
            transfers += o.duration;
        QVERIFY(alignment.front().timeAtStake <= transfers);
    }

    // Findings split per rank quote that rank's figures: on alexnet level1 (two ranks on one timeline), each
    // rank's finding of a check says exactly what the same check says when that rank's folder is loaded
    // alone (its counts, its times, its occurrences), never the two ranks' sums.
    void perRankFindingsQuoteTheirRank()
    {
        const QString level1 = QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1");
        const Advised both = advise(samplePath(level1));
        QVERIFY(both.model);
        QCOMPARE(both.model->groups().size(), std::size_t(2));
        const std::vector<Finding> together = runInsightChecks(*both.model, nullptr, both.data.get());
        int compared = 0;
        for (int rank : {0, 1}) {
            const Advised one = advise(samplePath(level1 + QStringLiteral("/rank%1_ascend_pt").arg(rank)));
            QVERIFY(one.model);
            const InsightContext context(*one.model, one.data.get());
            QCOMPARE(context.rankOfGroup(0), rank);
            for (const Finding &alone : runInsightChecks(*one.model, nullptr, one.data.get())) {
                const QByteArray what = alone.check.toUtf8() + " rank " + QByteArray::number(rank);
                const auto same = std::find_if(together.begin(), together.end(), [&](const Finding &f) {
                    return f.check == alone.check && f.rank == rank && f.title == alone.title;
                });
                QVERIFY2(same != together.end(), what.constData());
                QCOMPARE(same->explanation, alone.explanation);
                QCOMPARE(same->occurrences.size(), alone.occurrences.size());
                QCOMPARE(same->timeAtStake, alone.timeAtStake);
                ++compared;
            }
        }
        QVERIFY(compared >= 16); // every check that found something on either rank
        // The sums over both ranks appear nowhere: dynamic_shape's 38 compile calls were 19 per rank.
        for (const Finding &f : findingsOf(together, QStringLiteral("dynamic_shape")))
            QVERIFY2(f.explanation.contains(QStringLiteral(": 19 operator compilation call(s)")),
                     qPrintable(f.explanation));
    }

    // The Qwen3 cluster (summary-only ranks, as --advise reads it): the stage split leads, on rank 0 (stage
    // 0 waits in its pipeline communication), measured against rank 0's step; no host verdict anywhere.
    void stageSplitLeadsOnQwen3()
    {
        const QString folder =
            samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
        const Advised a = advise(folder);
        QVERIFY(a.model && a.data);
        const InsightContext context(*a.model, a.data.get());
        const std::vector<Finding> findings = runInsightChecks(*a.model, nullptr, a.data.get());
        checkInvariants(QStringLiteral("qwen3 cluster"), context, findings);
        QVERIFY(!findings.empty());
        const Finding &first = findings.front();
        QCOMPARE(first.check, QStringLiteral("stage_imbalance"));
        QCOMPARE(first.rank, 0);
        QCOMPARE(first.part, StepPart::CommunicationNotOverlapped);
        QCOMPARE(first.timeAtStake, TimeNs(169'693'070));
        QVERIFY(qAbs(first.partTime - 420'174'260) <= 10); // step_trace_time.csv
        QVERIFY(qAbs(first.stepTime - (231'290'100 + 420'174'260 + 158'558'000)) <= 30); // its own step
        for (const Finding &f : findings)
            QVERIFY(!isHostVerdict(f.check));
        // Ranks 2 and 3 compute most of their step: no check explains that, and a line says so.
        const auto unexplained = findingsOf(findings, QStringLiteral("unexplained_part"));
        std::set<int> ranks;
        for (const Finding &f : unexplained)
            ranks.insert(f.rank);
        QVERIFY(ranks.count(2) && ranks.count(3));
    }

    // Qwen3 rank 0 alone: its timeline comes from kernel_details.csv (no host lanes), so its idle device
    // gets no "host dispatches too slowly" verdict but a finding that says what to collect.
    void noHostVerdictWithoutHostData()
    {
        const Advised a = advise(samplePath(
            QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt")));
        QVERIFY(a.model);
        const InsightContext context(*a.model, a.data.get());
        const std::vector<Finding> findings = runInsightChecks(*a.model, nullptr, a.data.get());
        checkInvariants(QStringLiteral("qwen3 rank 0"), context, findings);
        QVERIFY(findingsOf(findings, QStringLiteral("host_bound")).empty());
        const auto missing = findingsOf(findings, QStringLiteral("host_data_missing"));
        QCOMPARE(missing.size(), std::size_t(1));
        QCOMPARE(missing.front().rank, 0);
        QCOMPARE(missing.front().timeAtStake, TimeNs(0));
        QVERIFY(missing.front().fix.contains(QStringLiteral("ProfilerActivity.CPU")));
    }

    // The two dynamic-shape findings count the same compile calls once (dynamic_shape claims them first),
    // and host_bound takes only the rest of the Free time. Step 1000 µs: computing 200, Free 800; 20
    // compile calls of 10 µs in the Free time.
    void compileTimeCountedOnce()
    {
        StepTrace s;
        const int device = s.thread(2, "Ascend Hardware", "stream 1");
        s.slice(device, 0, 100, "MatMul");
        s.slice(device, 900, 100, "MatMul");
        s.parts({{0, 100}, {900, 1000}}, {}, {{100, 900}});
        const int cann = s.thread(3, "CANN", "api");
        for (int i = 0; i < 20; ++i)
            s.slice(cann, 200 + 20 * i, 10, "AscendCL@aclopCompileAndExecute");
        for (TimeNs start : {0, 900}) {
            KernelRecord r;
            r.group = s.group;
            r.name = s.name("MatMul");
            r.type = s.name("AI_CORE");
            r.start = kT0 + start * 1000;
            r.duration = 100'000;
            r.opState = s.name("dynamic");
            s.b.kernels().addRow(r);
        }
        const auto model = s.b.build();
        const InsightContext context(*model);
        QCOMPARE(context.ranks.size(), std::size_t(1));
        QCOMPARE(context.ranks.front().free, TimeNs(800'000));
        std::vector<Finding> withoutTime;
        const auto findings = runInsightChecks(*model, nullptr, nullptr, &withoutTime);
        checkInvariants(QStringLiteral("compile synthetic"), context, findings);
        const auto dynamic = findingsOf(findings, QStringLiteral("dynamic_shape"));
        const auto host = findingsOf(findings, QStringLiteral("host_bound"));
        QCOMPARE(dynamic.size(), std::size_t(1));
        QCOMPARE(host.size(), std::size_t(1));
        QCOMPARE(dynamic.front().timeAtStake, TimeNs(200'000));
        // operator_compile measured the same 200 µs: nothing left to explain, so it is not listed but named
        // on the "also checked" line.
        QVERIFY(findingsOf(findings, QStringLiteral("operator_compile")).empty());
        const auto compile = findingsOf(withoutTime, QStringLiteral("operator_compile"));
        QCOMPARE(compile.size(), std::size_t(1));
        QCOMPARE(compile.front().timeAtStake, TimeNs(0));
        QCOMPARE(compile.front().data.value(QStringLiteral("already_counted_us")).toDouble(), 200.0);
        QCOMPARE(
            alsoCheckedText(withoutTime),
            QStringLiteral("Also checked, no time of their own left to explain (another finding counts it, "
                           "or it lies outside the part): operator_compile (rank 0)."));
        QCOMPARE(host.front().timeAtStake, TimeNs(600'000));
        QCOMPARE(host.front().shareOfPart(), 0.75);
        QCOMPARE(host.front().shareOfStep(), 0.6);
        QCOMPARE(findings.front().check, QStringLiteral("host_bound")); // ranked by the time explained
        QVERIFY(findingsOf(findings, QStringLiteral("unexplained_part")).empty()); // Free fully explained
    }

    // A rank without host lanes: no verdict, a host_data_missing finding, and the Free time (its largest
    // part) stated as unexplained.
    void hostVerdictNeedsHostData()
    {
        StepTrace s(3, false);
        const int device = s.thread(2, "Ascend Hardware", "stream 1");
        s.slice(device, 0, 100, "MatMul");
        s.slice(device, 900, 100, "MatMul");
        s.parts({{0, 100}, {900, 1000}}, {}, {{100, 900}});
        const auto model = s.b.build();
        QCOMPARE(model->steps().size(), std::size_t(1));
        const InsightContext context(*model);
        QVERIFY(!context.ranks.front().hasHostData);
        const auto findings = runInsightChecks(*model);
        checkInvariants(QStringLiteral("no host synthetic"), context, findings);
        QVERIFY(findingsOf(findings, QStringLiteral("host_bound")).empty());
        const auto missing = findingsOf(findings, QStringLiteral("host_data_missing"));
        QCOMPARE(missing.size(), std::size_t(1));
        QCOMPARE(missing.front().rank, 3);
        QCOMPARE(missing.front().part, StepPart::Free);
        const auto unexplained = findingsOf(findings, QStringLiteral("unexplained_part"));
        QCOMPARE(unexplained.size(), std::size_t(1));
        QCOMPARE(unexplained.front().rank, 3);
        QCOMPARE(unexplained.front().part, StepPart::Free);
        QCOMPARE(unexplained.front().timeAtStake, TimeNs(800'000));
        QCOMPARE(unexplained.front().shareOfStep(), 0.8);
    }

    // Waits inside communication are not Free time: "device streams wait for the host" quotes only the
    // Free time. Step: computing [0,100] and [900,1000], communication not overlapped [100,500), Free
    // [500,900). Stream 1 waits on an event through the communication, then its next task is launched at
    // 850 µs and starts at 900 (a 400 µs host wait); stream 2's Notify Wait runs to 700 µs.
    void idleQuotesOnlyFreeTime()
    {
        StepTrace s;
        const int host = s.thread(3, "CANN", "api");
        const int stream1 = s.thread(2, "Ascend Hardware", "stream 1");
        const int stream2 = s.thread(2, "Ascend Hardware", "stream 2");
        s.launch(host, stream1, 0, 0, 100, "MatMul");
        s.slice(stream1, 100, 400, "EVENT_WAIT");
        s.launch(host, stream1, 850, 900, 100, "MatMul");
        s.slice(stream2, 100, 600, "Notify Wait");
        s.slice(s.thread(4, "HCCL", "group"), 100, 400, "hcom_allReduce__1_1_1");
        s.parts({{0, 100}, {900, 1000}}, {{100, 500}}, {{500, 900}});
        const auto model = s.b.build();
        const InsightContext context(*model);
        QCOMPARE(context.ranks.front().free, TimeNs(400'000));
        QCOMPARE(context.ranks.front().communicationNotOverlapped, TimeNs(400'000));
        const auto findings = runInsightChecks(*model);
        checkInvariants(QStringLiteral("idle synthetic"), context, findings);
        const auto idle = findingsOf(findings, QStringLiteral("idle_attribution"));
        QCOMPARE(idle.size(), std::size_t(1));
        QCOMPARE(idle.front().timeAtStake, TimeNs(400'000));
        QCOMPARE(idle.front().data.value(QStringLiteral("waiting_for_host_us")).toDouble(), 400.0);
        QCOMPARE(idle.front().data.value(QStringLiteral("waiting_for_event_us")).toDouble(), 0.0);
        QCOMPARE(idle.front().data.value(QStringLiteral("other_us")).toDouble(), 0.0);
        QCOMPARE(idle.front().shareOfPart(), 1.0);
        // The communication part is explained by the collective that fills it.
        const auto exposed = findingsOf(findings, QStringLiteral("exposed_communication"));
        QCOMPARE(exposed.size(), std::size_t(1));
        QCOMPARE(exposed.front().timeAtStake, TimeNs(400'000));
        QCOMPARE(exposed.front().data.value(QStringLiteral("wait_us")).toDouble(), 400.0);
        // host_bound takes nothing more: the Free time is already explained.
        for (const Finding &f : findingsOf(findings, QStringLiteral("host_bound")))
            QCOMPARE(f.timeAtStake, TimeNs(0));
    }

    // Two devices (the CANN 6 two-device export's case): each rank's 512-byte alignment finding claims
    // only its own transfers' time outside computing, against its own step. Device 0: a 200 µs transfer
    // [700, 900) of which [800, 900) is not overlapped; device 1: a transfer inside computing only.
    void alignmentWithinItsPartPerRank()
    {
        StepTrace s(0);
        auto args = std::make_shared<FakeArgs>();
        const auto file = s.b.addSource(QStringLiteral("synthetic.json"), args);
        args->args[1] = {{QStringLiteral("transport type"), QStringLiteral("SDMA")},
                         {QStringLiteral("link type"), QStringLiteral("HCCS")},
                         {QStringLiteral("size(Byte)"), QStringLiteral("1000")}};
        const auto device = [&](StepTrace &t, TimeNs transferStart) {
            const int stream = t.thread(2, "Ascend Hardware", "stream 1");
            t.slice(stream, 0, 800, "MatMul");
            t.slice(stream, 900, 100, "MatMul");
            t.slice(t.thread(4, "HCCL", "Plane 0"), transferStart, 200, "Memcpy",
                    makeSourceLocation(file, 1));
            t.parts({{0, 800}, {900, 1000}}, {{800, 900}}, {});
        };
        device(s, 700);
        // The second device: a group of its own in the same builder.
        SourceGroup second;
        second.collection.properties.append({QStringLiteral("rank"), QStringLiteral("1")});
        s.group = s.b.addGroup(second);
        s.pidBase = 200;
        s.slice(s.thread(1, "Python"), 0, 1000, "ProfilerStep#1");
        device(s, 100);
        const auto model = s.b.build();
        const InsightContext context(*model);
        QCOMPARE(context.ranks.size(), std::size_t(2));
        std::vector<Finding> withoutTime;
        const auto findings = runInsightChecks(*model, nullptr, nullptr, &withoutTime);
        checkInvariants(QStringLiteral("two devices"), context, findings);
        // One finding per rank, each quoting its own transfer: device 0 [800, 900) of it; device 1 none
        // (inside computing), so its finding explains nothing and is only named as also checked.
        const auto alignment = findingsOf(findings, QStringLiteral("byte_alignment"));
        QCOMPARE(alignment.size(), std::size_t(1));
        const Finding &f = alignment.front();
        QCOMPARE(f.rank, 0);
        QCOMPARE(f.part, StepPart::CommunicationNotOverlapped);
        QCOMPARE(f.stepTime, TimeNs(1'000'000));
        QCOMPARE(f.partTime, TimeNs(100'000));
        QCOMPARE(f.timeAtStake, TimeNs(100'000));
        QCOMPARE(f.occurrences.size(), std::size_t(1));
        QVERIFY2(f.explanation.startsWith(QStringLiteral("1 SDMA transfer(s) across chips (0.200 ms, ")),
                 qPrintable(f.explanation));
        const auto none = findingsOf(withoutTime, QStringLiteral("byte_alignment"));
        QCOMPARE(none.size(), std::size_t(1));
        QCOMPARE(none.front().rank, 1);
        QCOMPARE(none.front().data.value(QStringLiteral("outside_part_us")).toDouble(), 200.0);
        QVERIFY(none.front().explanation.startsWith(
            QStringLiteral("1 SDMA transfer(s) across chips (0.200 ms, ")));
    }

    // Clipping: a finding never explains more than its part. The SGD optimizer step [50, 950) µs claims
    // only the computing inside it ([50, 700) = 650 µs), and says what it measured.
    void clippedToThePart()
    {
        StepTrace s;
        const int device = s.thread(2, "Ascend Hardware", "stream 1");
        s.slice(device, 0, 700, "MatMul");
        s.slice(device, 999, 1, "MatMul");
        s.parts({{0, 700}, {999, 1000}}, {}, {{700, 999}});
        s.slice(s.thread(1, "Python"), 50, 900, "Optimizer.step#SGD.step");
        const auto model = s.b.build();
        const InsightContext context(*model);
        const auto findings = runInsightChecks(*model);
        checkInvariants(QStringLiteral("clip synthetic"), context, findings);
        const auto optimizer = findingsOf(findings, QStringLiteral("affinity_optimizer"));
        QCOMPARE(optimizer.size(), std::size_t(1));
        QCOMPARE(optimizer.front().timeAtStake, TimeNs(650'000));
        QCOMPARE(optimizer.front().data.value(QStringLiteral("measured_us")).toDouble(), 900.0);
        QCOMPARE(optimizer.front().part, StepPart::Computing);
        QCOMPARE(optimizer.front().rank, 0);
        const QString text = timeAtStakeText(optimizer.front());
        QVERIFY2(text.contains(QStringLiteral("of rank 0's computing")), qPrintable(text));
        // The rest of the computing (51 µs of 701, 5.1 % of the step) is stated as unexplained.
        const auto unexplained = findingsOf(findings, QStringLiteral("unexplained_part"));
        QCOMPARE(unexplained.size(), std::size_t(1));
        QCOMPARE(unexplained.front().timeAtStake, TimeNs(51'000));
    }
};

QTEST_GUILESS_MAIN(TestFindingsInvariants)
#include "tst_findings_invariants.moc"
