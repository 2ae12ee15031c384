// The diff by framework op (core/diff) on real traces: a GPU trace against itself, the same trace with known
// kernels slowed / an op removed / every kernel renamed (rewritten as text here), and the two alexnet NPU
// ranks. Expected values come from the JSON text (KinetoText.h, QJsonDocument), never from the code under
// test.

#include "KinetoText.h"
#include "TestSupport.h"
#include "diff/OpDiff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace at;
using namespace at::diff;
using at::test::KinetoEvent;

namespace {

QString gpuTrace()
{
    return test::samplePath(QStringLiteral("hta_kineto_gpu_traces/nccl_data.json.gz"));
}

QString alexnetRank(int rank)
{
    return test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank%1_ascend_pt")
            .arg(rank));
}

TimeNs rowsSum(const DiffResult &result, bool comparison)
{
    TimeNs sum = 0;
    for (const DiffRow &row : result.rows)
        sum += comparison ? row.comparison.deviceNs : row.base.deviceNs;
    return sum;
}

// The JSON event of the model's op: same tid and the same start (model times + offset = JSON ns).
const KinetoEvent *eventOf(const test::KinetoText &trace, const TraceModel &model, const FrameworkOp &op,
                           qint64 offset)
{
    const QString tid =
        QString::number(model.threads()[static_cast<std::size_t>(op.slice.thread)].tid.number);
    for (const KinetoEvent &e : trace.events)
        if (e.isOp() && e.tid == tid && e.ts == op.start + offset && e.name == op.name)
            return &e;
    return nullptr;
}

const KinetoEvent *stepEvent(const test::KinetoText &trace, int number)
{
    for (const KinetoEvent &e : trace.events)
        if (e.ph == QLatin1String("X") && e.name == QStringLiteral("ProfilerStep#%1").arg(number))
            return &e;
    return nullptr;
}

DiffOptions noArgs()
{
    DiffOptions options;
    options.readShapes = false;
    return options;
}

} // namespace

class TestOpDiff : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_trace.read(gpuTrace()));
        m_model = test::loadOrFail(gpuTrace());
        QVERIFY(m_model);
        m_owner = test::launchingOps(m_trace);
    }

    // Every step the JSON has is a window, with its exact span.
    void stepWindowsAreTheProfilerSteps()
    {
        const std::vector<DiffWindow> windows = profilerStepWindows(*m_model);
        std::vector<const KinetoEvent *> steps;
        for (const KinetoEvent &e : m_trace.events)
            if (e.ph == QLatin1String("X") && e.name.startsWith(QLatin1String("ProfilerStep#")))
                steps.push_back(&e);
        QCOMPARE(windows.size(), steps.size());
        QCOMPARE(windows.size(), std::size_t(3));
        for (std::size_t i = 0; i < windows.size(); ++i) {
            QCOMPARE(windows[i].label, steps[i]->name);
            QCOMPARE(windows[i].end - windows[i].begin, steps[i]->dur);
        }
        QVERIFY(profilerStepWindow(*m_model, 5).has_value());
        QVERIFY(!profilerStepWindow(*m_model, 7).has_value());
    }

    // Ops and their own device time against the correlation oracle of FORMATS.md §10.7.
    void opTreeOwnsWhatTheCorrelationSays()
    {
        const DiffWindow window = *profilerStepWindow(*m_model, 5);
        const KinetoEvent *step = stepEvent(m_trace, 5);
        QVERIFY(step);
        const qint64 offset = step->ts - window.begin;
        const OpTree tree = buildOpTree(*m_model, window, noArgs());

        std::size_t expectedOps = 0;
        std::map<int, qint64> expectedSelf; // event index of op → Σ dur of the work it launched
        std::size_t expectedWork = 0;
        for (std::size_t i = 0; i < m_trace.events.size(); ++i) {
            const KinetoEvent &e = m_trace.events[i];
            if (e.isOp() && !e.name.startsWith(QLatin1String("ProfilerStep#")) && e.ts >= step->ts &&
                e.ts < step->end())
                ++expectedOps;
            const int owner = m_owner[i];
            if (owner >= 0) {
                const KinetoEvent &op = m_trace.events[static_cast<std::size_t>(owner)];
                if (op.ts >= step->ts && op.ts < step->end()) {
                    expectedSelf[owner] += e.dur;
                    ++expectedWork;
                }
            }
        }
        QVERIFY(expectedWork > 1000);
        QCOMPARE(tree.ops.size(), expectedOps);
        std::size_t owned = 0;
        for (const DeviceWork &work : tree.work)
            owned += work.owner >= 0 ? 1 : 0;
        QCOMPARE(owned, expectedWork);
        QCOMPARE(tree.flowLinked, expectedWork);
        for (const FrameworkOp &op : tree.ops) {
            const KinetoEvent *e = eventOf(m_trace, *m_model, op, offset);
            QVERIFY2(e, qPrintable(op.name));
            const auto it = expectedSelf.find(static_cast<int>(e - m_trace.events.data()));
            QCOMPARE(op.deviceSelf, it == expectedSelf.end() ? 0 : it->second);
        }
        // Parents sum their subtree; the union never exceeds the sum.
        for (const FrameworkOp &op : tree.ops) {
            TimeNs children = 0;
            for (const int c : op.children)
                children += tree.ops[static_cast<std::size_t>(c)].deviceTotal;
            QCOMPARE(op.deviceTotal, op.deviceSelf + children);
            QVERIFY(op.deviceUnion <= op.deviceTotal);
        }
        // The backward thread is where fwdbwd flows end (pt_autograd_0).
        std::size_t backward = 0;
        for (const FrameworkOp &op : tree.ops)
            if (op.backward) {
                ++backward;
                QCOMPARE(m_model->threadDisplayName(op.slice.thread).contains(QLatin1String("pt_autograd_0")),
                         true);
            }
        QVERIFY(backward > 0);
    }

    void gpuTraceAgainstItself()
    {
        const DiffWindow window = *profilerStepWindow(*m_model, 5);
        const DiffResult result = diffProfiles({m_model.get(), window}, {m_model.get(), window}, noArgs());
        QVERIFY(result.unmatchedBase.empty());
        QVERIFY(result.unmatchedComparison.empty());
        std::size_t matched = 0;
        for (const DiffRow &row : result.rows) {
            QCOMPARE(row.deltaNs, TimeNs(0));
            QCOMPARE(row.ratio, 1.0);
            matched += row.kind == RowKind::MatchedOp ? 1 : 0;
        }
        QCOMPARE(matched, result.baseTree.ops.size());
        QVERIFY(result.topRows.empty());
        QCOMPARE(rowsSum(result, false), result.base.stepTime);
        QCOMPARE(rowsSum(result, true), result.comparison.stepTime);
        // The span: the host step to the last end of the work its ops launched.
        TimeNs lastEnd = window.end;
        for (const DeviceWork &work : result.baseTree.work)
            if (work.owner >= 0)
                lastEnd = std::max(lastEnd, work.start + work.duration);
        QCOMPARE(result.base.stepTime, lastEnd - window.begin);
        QVERIFY(!result.accumulated.empty());
        QCOMPARE(result.accumulated.back().delta, TimeNs(0));
    }

    // Two steps of one profile: the rows still sum to each step, and the accumulated delta ends at the total.
    void twoStepsOfOneProfile()
    {
        const DiffResult result = diffProfiles({m_model.get(), *profilerStepWindow(*m_model, 4)},
                                               {m_model.get(), *profilerStepWindow(*m_model, 5)}, noArgs());
        QCOMPARE(rowsSum(result, false), result.base.stepTime);
        QCOMPARE(rowsSum(result, true), result.comparison.stepTime);
        TimeNs matchedDelta = 0;
        for (const DiffRow &row : result.rows)
            if (row.kind == RowKind::MatchedOp)
                matchedDelta += row.deltaNs;
        QCOMPARE(result.accumulated.back().delta, matchedDelta);
        QCOMPARE(result.topRows.size(), std::size_t(10));
        for (std::size_t i = 1; i < result.topRows.size(); ++i)
            QVERIFY(std::llabs(result.rows[static_cast<std::size_t>(result.topRows[i - 1])].deltaNs) >=
                    std::llabs(result.rows[static_cast<std::size_t>(result.topRows[i])].deltaNs));
    }

    // Slowing the kernels of two chosen ops by known ns: exactly those ops come first, with the delta to the
    // ns.
    void slowedOpsRankFirst()
    {
        const DiffWindow window = *profilerStepWindow(*m_model, 5);
        const KinetoEvent *step = stepEvent(m_trace, 5);
        const qint64 offset = step->ts - window.begin;
        const OpTree tree = buildOpTree(*m_model, window, noArgs());
        // A forward and a backward op, of different names, that launched work.
        int forward = -1, backward = -1;
        for (std::size_t i = 0; i < tree.ops.size(); ++i) {
            const FrameworkOp &op = tree.ops[i];
            if (op.work.empty() || !op.name.startsWith(QLatin1String("aten::")))
                continue;
            if (!op.backward && forward < 0)
                forward = static_cast<int>(i);
            if (op.backward && backward < 0 && forward >= 0 &&
                op.name != tree.ops[static_cast<std::size_t>(forward)].name)
                backward = static_cast<int>(i);
        }
        QVERIFY(forward >= 0 && backward >= 0);
        const std::map<int, TimeNs> slowdown{{forward, 5'000'001}, {backward, 2'000'003}};
        test::KinetoText modified = m_trace;
        std::vector<std::pair<int, TimeNs>> lengthened; // (event, extra ns)
        for (const auto &[op, extra] : slowdown) {
            const KinetoEvent *opEvent =
                eventOf(m_trace, *m_model, tree.ops[static_cast<std::size_t>(op)], offset);
            QVERIFY(opEvent);
            const int opIndex = static_cast<int>(opEvent - m_trace.events.data());
            TimeNs added = 0;
            for (std::size_t i = 0; i < m_trace.events.size(); ++i)
                if (m_owner[i] == opIndex) {
                    // All the op's kernels: the first gets the whole extra time, the others +1 ns each.
                    const TimeNs more = added == 0 ? extra : 1;
                    modified.setDuration(m_trace.events[i], m_trace.events[i].dur + more);
                    lengthened.emplace_back(static_cast<int>(i), more);
                    added += more;
                }
            QVERIFY(added >= extra);
        }
        // The later events of each lengthened kernel's stream start later by what was added before them, as a
        // real slowdown would push them (their ac2g finishes with them).
        std::size_t shifted = 0;
        for (const KinetoEvent &e : m_trace.events) {
            TimeNs shift = 0;
            for (const auto &slowed : lengthened) {
                const KinetoEvent &k = m_trace.events[static_cast<std::size_t>(slowed.first)];
                if (e.pid == k.pid && e.tid == k.tid && e.ts > k.ts)
                    shift += slowed.second;
            }
            if (shift > 0 && e.ts >= 0) {
                modified.setStart(e, e.ts + shift);
                ++shifted;
            }
        }
        QVERIFY(shifted > 100);
        const auto expectedDelta = [&](int op) {
            std::size_t kernels = 0;
            const KinetoEvent *opEvent =
                eventOf(m_trace, *m_model, tree.ops[static_cast<std::size_t>(op)], offset);
            for (std::size_t i = 0; i < m_trace.events.size(); ++i)
                kernels += m_owner[i] == static_cast<int>(opEvent - m_trace.events.data()) ? 1 : 0;
            return slowdown.at(op) + static_cast<TimeNs>(kernels) - 1;
        };
        const DiffResult result = diffModified(modified, 5, window);
        QVERIFY(result.unmatchedBase.empty());
        QVERIFY(result.unmatchedComparison.empty());
        QCOMPARE(result.topRows.size(), std::size_t(2));
        const DiffRow &first = result.rows[static_cast<std::size_t>(result.topRows[0])];
        const DiffRow &second = result.rows[static_cast<std::size_t>(result.topRows[1])];
        QCOMPARE(first.base.op, forward);
        QCOMPARE(first.deltaNs, expectedDelta(forward));
        QCOMPARE(second.base.op, backward);
        QCOMPARE(second.deltaNs, expectedDelta(backward));
        QCOMPARE(first.name, tree.ops[static_cast<std::size_t>(forward)].name);
        QCOMPARE(rowsSum(result, true), result.comparison.stepTime);
        // The slowed kernels are the row's work on both sides.
        QCOMPARE(rowSlices(result, result.topRows[0], false).size(),
                 tree.ops[static_cast<std::size_t>(forward)].work.size());
        QCOMPARE(rowSlices(result, result.topRows[0], true).size(),
                 tree.ops[static_cast<std::size_t>(forward)].work.size());
    }

    // Removing one op from the trace: it is the one op of the base side only.
    void removedOpIsUnmatched()
    {
        const DiffWindow window = *profilerStepWindow(*m_model, 5);
        const qint64 offset = stepEvent(m_trace, 5)->ts - window.begin;
        const OpTree tree = buildOpTree(*m_model, window, noArgs());
        // A leaf op with work whose name no sibling shares (so which instance went missing is unambiguous).
        int chosen = -1;
        for (std::size_t i = 0; i < tree.ops.size() && chosen < 0; ++i) {
            const FrameworkOp &op = tree.ops[i];
            if (!op.children.empty() || op.work.empty() || op.parent < 0 || op.backward)
                continue;
            int same = 0;
            for (const int s : tree.ops[static_cast<std::size_t>(op.parent)].children)
                same += tree.ops[static_cast<std::size_t>(s)].name == op.name ? 1 : 0;
            if (same == 1)
                chosen = static_cast<int>(i);
        }
        QVERIFY(chosen >= 0);
        const FrameworkOp &op = tree.ops[static_cast<std::size_t>(chosen)];
        const KinetoEvent *event = eventOf(m_trace, *m_model, op, offset);
        QVERIFY(event);
        TimeNs expectedDevice = 0;
        for (std::size_t i = 0; i < m_trace.events.size(); ++i)
            if (m_owner[i] == static_cast<int>(event - m_trace.events.data()))
                expectedDevice += m_trace.events[i].dur;
        test::KinetoText modified = m_trace;
        modified.remove(*event);
        const DiffResult result = diffModified(modified, 5, window);
        QCOMPARE(result.unmatchedBase.size(), std::size_t(1));
        QVERIFY(result.unmatchedComparison.empty());
        const UnmatchedOp &gone = result.unmatchedBase.front();
        QCOMPARE(gone.op, chosen);
        QCOMPARE(gone.name, op.name);
        QCOMPARE(gone.deviceNs, expectedDevice);
        // Its kernels now belong to its parent on the new side: the parent's row owns them on both sides.
        QVERIFY(gone.underRow >= 0);
        const DiffRow &parentRow = result.rows[static_cast<std::size_t>(gone.underRow)];
        QCOMPARE(parentRow.base.op, op.parent);
        QCOMPARE(parentRow.deltaNs, TimeNs(0));
        QCOMPARE(rowsSum(result, false), result.base.stepTime);
        QCOMPARE(rowsSum(result, true), result.comparison.stepTime);
    }

    // Renaming every kernel changes no match and no time (the match never reads kernel names).
    void renamedKernelsMatchTheSame()
    {
        test::KinetoText modified = m_trace;
        int n = 0;
        for (const KinetoEvent &e : m_trace.events)
            if (e.isDeviceWork())
                modified.rename(e, QStringLiteral("renamed_kernel_%1").arg(n++));
        QVERIFY(n > 3000);
        const DiffWindow window = *profilerStepWindow(*m_model, 5);
        const DiffResult result = diffModified(modified, 5, window);
        QVERIFY(result.unmatchedBase.empty());
        QVERIFY(result.unmatchedComparison.empty());
        for (const DiffRow &row : result.rows)
            QCOMPARE(row.deltaNs, TimeNs(0));
        QVERIFY(m_lastModified);
        // ... and the kernels of the new side do carry the new names.
        bool renamedSeen = false;
        for (const DiffRow &row : result.rows)
            for (const SliceRef ref : rowSlices(result, static_cast<int>(&row - result.rows.data()), true))
                renamedSeen = renamedSeen ||
                              m_lastModified->sliceName(ref).startsWith(QLatin1String("renamed_kernel_"));
        QVERIFY(renamedSeen);
    }

    // NPU against NPU: the two alexnet level1 ranks, ProfilerStep#50 each (torch_npu async_npu flows).
    void alexnetRanks()
    {
        const auto rank0 = test::loadOrFail(alexnetRank(0));
        const auto rank1 = test::loadOrFail(alexnetRank(1));
        QVERIFY(rank0 && rank1);
        const auto w0 = profilerStepWindow(*rank0, 50), w1 = profilerStepWindow(*rank1, 50);
        QVERIFY(w0 && w1);
        DiffOptions options;
        options.matchShapes = true;
        const DiffResult result = diffProfiles({rank0.get(), *w0}, {rank1.get(), *w1}, options);

        const QJsonArray events0 = npuEvents(0), events1 = npuEvents(1);
        QCOMPARE(result.baseTree.ops.size(), npuOpsIn(events0, *w0, *rank0));
        QCOMPARE(result.comparisonTree.ops.size(), npuOpsIn(events1, *w1, *rank1));
        QVERIFY(result.unmatchedBase.empty());
        QVERIFY(result.unmatchedComparison.empty());
        QCOMPARE(rowsSum(result, false), result.base.stepTime);
        QCOMPARE(rowsSum(result, true), result.comparison.stepTime);
        // Communication: the union of the hcom ops of "Group 0 Communication" (FORMATS.md §9.2: 105991.878
        // µs).
        QCOMPARE(result.base.communication, TimeNs(105'991'878));
        QCOMPARE(result.base.communication, communicationUnion(events0));
        QCOMPARE(result.comparison.communication, communicationUnion(events1));
        // Input shapes were read and normalised (torch_npu's ";\r\n" text).
        bool shapes = false;
        for (const FrameworkOp &op : result.baseTree.ops)
            shapes =
                shapes || (op.name == QLatin1String("aten::conv2d") && op.shapes.contains(QLatin1Char(';')) &&
                           !op.shapes.contains(QLatin1Char('\r')));
        QVERIFY(shapes);
        checkAsyncNpuOwners(events0, *rank0, result.baseTree);
        // Modules from the "nn.Module: X" Python frames (with_modules): the alexnet layers, each a group.
        std::set<QString> modules;
        for (const RowGroup &group : groupRowsByModule(result))
            modules.insert(group.key);
        for (const char *layer : {"Conv2d_0", "ReLU_0", "MaxPool2d_0", "Conv2d_4", "Linear_0"})
            QVERIFY2(modules.count(QLatin1String(layer)) == 1, layer);
        TimeNs byName = 0, matched = 0;
        for (const RowGroup &group : groupRowsByName(result))
            byName += group.baseDeviceNs;
        for (const DiffRow &row : result.rows)
            matched += row.kind == RowKind::MatchedOp ? row.base.deviceNs : 0;
        QCOMPARE(byName, matched);
    }

    // The torch_npu database of another alexnet run: its ops and flows come from tables, not JSON. Against
    // itself nothing differs, and the step's computing / communication / not overlapped are analysis.db's
    // StepTraceTime (FORMATS.md §9.2: 8903.431 / 102108.1 / 98071.947 µs).
    void databaseAgainstItself()
    {
        const auto model = test::loadOrFail(test::level1Rank0Database());
        QVERIFY(model);
        const auto window = profilerStepWindow(*model, 50);
        QVERIFY(window);
        const DiffResult result = diffProfiles({model.get(), *window}, {model.get(), *window}, noArgs());
        QVERIFY(result.baseTree.ops.size() > 800);
        QVERIFY(result.baseTree.flowLinked > 200);
        QVERIFY(result.unmatchedBase.empty() && result.unmatchedComparison.empty());
        for (const DiffRow &row : result.rows)
            QCOMPARE(row.deltaNs, TimeNs(0));
        QCOMPARE(result.base.communication, TimeNs(102'108'100));
        QCOMPARE(result.base.computing, TimeNs(8'903'431));
        QCOMPARE(result.base.communicationNotOverlapped, TimeNs(98'071'947));
        QCOMPARE(rowsSum(result, false), result.base.stepTime);
    }

    void shapesOfBothProducersAgree()
    {
        QCOMPARE(normalizedShapes(QStringLiteral("[[32, 3, 224, 224], [64, 3, 11, 11], [64], [], []]")),
                 QStringLiteral("32,3,224,224;64,3,11,11;64"));
        QCOMPARE(normalizedShapes(QStringLiteral("32,3,224,224;\r\n64,3,11,11;\r\n64;\r\n;\r\n")),
                 QStringLiteral("32,3,224,224;64,3,11,11;64"));
        QCOMPARE(normalizedShapes(QStringLiteral("[[2, 3], [[1, 2], [3]], []]")),
                 QStringLiteral("2,3;[1,2],[3]"));
        QCOMPARE(normalizedShapes(QString()), QString());
    }

    // The alignment of a level: a common subsequence, exact where small, the known answer where long.
    void alignLevelIsACommonSubsequence()
    {
        const std::vector<std::int32_t> a{1, 2, 3, 4, 2, 3, 4, 5}, b{1, 3, 4, 2, 9, 3, 4, 5};
        const auto exact = alignLevel(a, b);
        QCOMPARE(exact.size(), std::size_t(7)); // 1 3 4 2 3 4 5
        // Long levels: 200,000 keys from a small vocabulary with one key removed and one inserted far apart.
        std::vector<std::int32_t> longA, longB;
        for (int i = 0; i < 200'000; ++i)
            longA.push_back(i % 50);
        longB = longA;
        longB.erase(longB.begin() + 1000);
        longB.insert(longB.begin() + 150'000, 77);
        const auto pairs = alignLevel(longA, longB, 1u << 16);
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            QCOMPARE(longA[pairs[k].first], longB[pairs[k].second]);
            if (k > 0)
                QVERIFY(pairs[k].first > pairs[k - 1].first && pairs[k].second > pairs[k - 1].second);
        }
        QVERIFY(pairs.size() >=
                longA.size() - 60); // the LCS is 199,999; occurrence matching loses less than a period
    }

private:
    DiffResult diffModified(const test::KinetoText &modified, int step, const DiffWindow &baseWindow)
    {
        QFile file(m_dir.filePath(QStringLiteral("modified_%1.json").arg(m_written++)));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(modified.text().toUtf8());
        file.close();
        m_lastModified = test::loadOrFail(file.fileName());
        if (!m_lastModified)
            return {};
        const auto window = profilerStepWindow(*m_lastModified, step);
        if (!window)
            return {};
        return diffProfiles({m_model.get(), baseWindow}, {m_lastModified.get(), *window}, noArgs());
    }

    static QJsonArray npuEvents(int rank)
    {
        QFile file(alexnetRank(rank) + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(file.readAll()).array();
    }

    static qint64 tsNs(const QJsonValue &value)
    {
        return test::microsTextToNs(value.isString() ? value.toString()
                                                     : QString::number(value.toDouble(), 'f', 3));
    }

    static std::size_t npuOpsIn(const QJsonArray &events, const DiffWindow &window, const TraceModel &model)
    {
        std::size_t count = 0;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            if (e.value(QLatin1String("cat")).toString() != QLatin1String("cpu_op") ||
                e.value(QLatin1String("name")).toString().startsWith(QLatin1String("ProfilerStep#")))
                continue;
            const qint64 t = tsNs(e.value(QLatin1String("ts"))) - model.origin();
            count += t >= window.begin && t < window.end ? 1 : 0;
        }
        return count;
    }

    static TimeNs communicationUnion(const QJsonArray &events)
    {
        QHash<QString, QString> threadNames;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            if (e.value(QLatin1String("ph")).toString() == QLatin1String("M") &&
                e.value(QLatin1String("name")).toString() == QLatin1String("thread_name"))
                threadNames.insert(
                    e.value(QLatin1String("pid")).toVariant().toString() + QLatin1Char('/') +
                        e.value(QLatin1String("tid")).toVariant().toString(),
                    e.value(QLatin1String("args")).toObject().value(QLatin1String("name")).toString());
        }
        std::vector<std::pair<TimeNs, TimeNs>> ops;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            const QString thread = e.value(QLatin1String("pid")).toVariant().toString() + QLatin1Char('/') +
                                   e.value(QLatin1String("tid")).toVariant().toString();
            if (e.value(QLatin1String("ph")).toString() != QLatin1String("X") ||
                !threadNames.value(thread).endsWith(QLatin1String("Communication")) ||
                !threadNames.value(thread).startsWith(QLatin1String("Group")))
                continue;
            const qint64 start = tsNs(e.value(QLatin1String("ts")));
            ops.emplace_back(start, start + tsNs(e.value(QLatin1String("dur"))));
        }
        std::sort(ops.begin(), ops.end());
        TimeNs total = 0, coveredTo = std::numeric_limits<TimeNs>::min();
        for (const auto &[b, e] : ops) {
            const TimeNs from = std::max(b, coveredTo);
            if (e > from)
                total += e - from;
            coveredTo = std::max(coveredTo, e);
        }
        return total;
    }

    // Every async_npu flow of the step: the task at its finish is owned by the op whose start its start is
    // (FORMATS.md §11.5: torch_npu puts the start on the innermost op).
    static void checkAsyncNpuOwners(const QJsonArray &events, const TraceModel &model, const OpTree &tree)
    {
        std::map<qint64, std::pair<qint64, QString>> starts; // id → (ts, tid)
        std::map<qint64, qint64> finishes;                   // id → ts
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            if (e.value(QLatin1String("cat")).toString() != QLatin1String("async_npu"))
                continue;
            const qint64 id = e.value(QLatin1String("id")).toVariant().toLongLong();
            if (e.value(QLatin1String("ph")).toString() == QLatin1String("s"))
                starts[id] = {tsNs(e.value(QLatin1String("ts"))),
                              e.value(QLatin1String("tid")).toVariant().toString()};
            else
                finishes[id] = tsNs(e.value(QLatin1String("ts")));
        }
        std::size_t checked = 0;
        for (const auto &[id, start] : starts) {
            const qint64 opStart = start.first - model.origin();
            int op = -1;
            for (std::size_t i = 0; i < tree.ops.size(); ++i)
                if (tree.ops[i].start == opStart &&
                    QString::number(
                        model.threads()[static_cast<std::size_t>(tree.ops[i].slice.thread)].tid.number) ==
                        start.second)
                    op = static_cast<int>(i); // the innermost (the last in pre-order) of those starting there
            if (op < 0)
                continue; // outside the step
            const qint64 taskStart = finishes.at(id) - model.origin();
            bool owned = false;
            for (const DeviceWork &work : tree.work)
                owned = owned || (work.start == taskStart && work.owner == op && work.viaFlow);
            QVERIFY2(owned, qPrintable(QStringLiteral("async_npu %1 → %2")
                                           .arg(id)
                                           .arg(tree.ops[static_cast<std::size_t>(op)].name)));
            ++checked;
        }
        QVERIFY(checked >= 200); // 210 flows in the sample, all in ProfilerStep#50
    }

    test::KinetoText m_trace;
    std::unique_ptr<TraceModel> m_model;
    std::vector<int> m_owner;
    QTemporaryDir m_dir;
    int m_written = 0;
    std::unique_ptr<TraceModel> m_lastModified;
};

QTEST_GUILESS_MAIN(TestOpDiff)
#include "tst_op_diff.moc"
