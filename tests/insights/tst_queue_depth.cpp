// The "Queue depth (Stream N)" counter lanes TraceBuilder::build() adds for the device streams with host
// launch flows (core/QueueDepth.h): on the alexnet level1 sample against a count made here from the
// model's flows, on a synthetic model with exact values, and absent without flows.

#include "InsightChecks.h"
#include "QueueDepth.h"
#include "TestSupport.h"
#include "TraceBuilder.h"

#include <QJsonArray>
#include <QtTest>

#include <map>
#include <set>

using namespace at;
using namespace at::test;

namespace {

constexpr TimeNs kT0 = 1'000'000'000'000'000; // absolute ns of the synthetic models

Layer layerOfThread(const TraceModel &model, int thread)
{
    return model
        .processes()[static_cast<std::size_t>(model.threads()[static_cast<std::size_t>(thread)].process)]
        .layer;
}

// The queue depth lanes of a model: device stream thread → counter index, found by name on the process.
std::map<int, int> queueLanes(const TraceModel &model)
{
    std::map<int, int> lanes;
    int found = 0;
    for (std::size_t c = 0; c < model.counters().size(); ++c)
        if (model.strings().qstring(model.counters()[c].name).startsWith(QLatin1String("Queue depth (")))
            ++found;
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const int process = model.threads()[t].process;
        const QString name =
            QStringLiteral("Queue depth (%1)").arg(model.threadDisplayName(static_cast<int>(t)));
        for (int c : model.processes()[static_cast<std::size_t>(process)].counters)
            if (model.counterDisplayName(c) == name)
                lanes.emplace(static_cast<int>(t), c);
    }
    if (static_cast<int>(lanes.size()) != found)
        qWarning("%d queue depth lanes, %d matched to a stream", found, int(lanes.size()));
    return lanes;
}

// A counter's value at t: the last sample at or before t (0 before the first).
double valueAt(const CounterSeries &series, TimeNs t)
{
    const auto it = std::upper_bound(series.times.begin(), series.times.end(), t);
    return it == series.times.begin()
               ? 0.0
               : series.values[static_cast<std::size_t>(it - series.times.begin() - 1)];
}

struct Synthetic
{
    TraceBuilder b;
    StringId name(const char *s) { return b.strings().intern(s); }
    int thread(std::int64_t pid, const char *process, std::int64_t tid, const char *threadName)
    {
        b.setProcessName(b.process(b.numberKey(pid)), name(process));
        const int t = b.thread(b.numberKey(pid), b.numberKey(tid));
        b.setThreadName(t, name(threadName));
        return t;
    }
    void slice(int thread, TimeNs startUs, TimeNs durUs, const char *n)
    {
        b.addSlice(thread, kT0 + startUs * 1000, durUs * 1000, name(n), 0, kNoSource);
    }
    void launch(int host, TimeNs atUs, int device, TimeNs deviceUs, const char *id)
    {
        const StringId cat = name("HostToDevice"), flowId = name(id);
        b.addFlowHalf(FlowPhase::Start, cat, 0, flowId, host, kT0 + atUs * 1000, true);
        b.addFlowHalf(FlowPhase::End, cat, 0, flowId, device, kT0 + deviceUs * 1000, false);
    }
};

} // namespace

class TestQueueDepth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void level1SampleHasALaneForEachLaunchedStream()
    {
        const auto model = loadOrFail(samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt")));
        QVERIFY(model);
        // Independently: the latest host launch of each device task, per stream, from the model's flows.
        std::map<int, std::map<std::uint32_t, TimeNs>> launchOf;
        for (const FlowInfo &f : model->flows()) {
            if (!f.from.isValid() || !f.to.isValid() ||
                layerOfThread(*model, f.to.thread) != Layer::DeviceStreams)
                continue;
            const Layer from = layerOfThread(*model, f.from.thread);
            if (from != Layer::CannApi && from != Layer::Framework)
                continue;
            auto [it, inserted] = launchOf[f.to.thread].emplace(f.to.index, f.fromTime);
            if (!inserted)
                it->second = std::max(it->second, f.fromTime);
        }
        QVERIFY(!launchOf.empty()); // the sample has HostToDevice flows
        // A stream gets a lane when a task of it ever waits (launched before it starts).
        std::size_t queued = 0;
        for (const auto &[thread, launches] : launchOf)
            queued +=
                std::any_of(launches.begin(), launches.end(),
                            [&, t = thread](const auto &l) {
                                return l.second <
                                       model->threads()[static_cast<std::size_t>(t)].slices.start(l.first);
                            })
                    ? 1
                    : 0;
        QCOMPARE(queued, launchOf.size());

        const std::map<int, int> lanes = queueLanes(*model);
        QCOMPARE(lanes.size(), launchOf.size());
        int maxDepth = 0, checked = 0;
        for (const auto &entry : launchOf) {
            // Named copies of the pair: clang 14 cannot capture structured bindings in the lambda below.
            const int thread = entry.first;
            const auto &launches = entry.second;
            QVERIFY2(lanes.contains(thread), qPrintable(model->threadDisplayName(thread)));
            const CounterSeries &lane = model->counters()[static_cast<std::size_t>(lanes.at(thread))];
            QCOMPARE(lane.process, model->threads()[static_cast<std::size_t>(thread)].process);
            QVERIFY(std::is_sorted(lane.times.begin(), lane.times.end()));
            const SliceTable &slices = model->threads()[static_cast<std::size_t>(thread)].slices;
            // depth(t) = tasks launched at or before t − tasks started at or before t.
            auto depthAt = [&](TimeNs t) {
                int depth = 0;
                for (const auto &[index, launched] : launches) {
                    const TimeNs start = slices.start(index);
                    depth += (std::min(launched, start) <= t ? 1 : 0) - (start <= t ? 1 : 0);
                }
                return depth;
            };
            // Every sample time, one ns before it, and the middle of every gap between samples.
            QVERIFY(lane.times.size() > 2);
            for (std::size_t i = 0; i < lane.times.size(); ++i) {
                const TimeNs t = lane.times[i];
                QCOMPARE(lane.values[i], double(depthAt(t)));
                QCOMPARE(valueAt(lane, t - 1), double(depthAt(t - 1)));
                if (i + 1 < lane.times.size())
                    QCOMPARE(valueAt(lane, (t + lane.times[i + 1]) / 2),
                             double(depthAt((t + lane.times[i + 1]) / 2)));
                checked += 3;
            }
            QCOMPARE(lane.values.back(), 0.0); // every launched task started
            QCOMPARE(lane.maxValue, *std::max_element(lane.values.begin(), lane.values.end()));
            QVERIFY(lane.maxValue >= 1);
            maxDepth = std::max(maxDepth, int(lane.maxValue));
        }
        QVERIFY2(checked > 100, qPrintable(QString::number(checked)));
        // The lanes and the idle_attribution insight share one computation: the same maximum.
        std::vector<Finding> findings;
        const InsightContext context(*model, nullptr);
        for (const InsightCheck &check : insightChecks())
            if (QByteArray(check.id) == "idle_attribution")
                check.run(context, findings);
        QCOMPARE(findings.size(), std::size_t(1));
        int reported = 0;
        for (const auto &stream : findings.front().data.value(QStringLiteral("streams")).toArray())
            reported = std::max(reported, stream.toObject().value(QStringLiteral("max_queue_depth")).toInt());
        QCOMPARE(reported, maxDepth);
    }

    void syntheticStreamHasExactValues()
    {
        Synthetic s;
        const int host = s.thread(1, "CANN", 1, "Thread 1");
        const int device = s.thread(2, "Ascend Hardware", 7, "Stream 7");
        const int idle = s.thread(2, "Ascend Hardware", 8, "Stream 8"); // device work, no launch
        for (TimeNs at : {0, 10, 20, 30})
            s.slice(host, at, 5, "aclnnAdd");
        s.slice(device, 25, 10, "A"); // launched at 0: queued 0–25
        s.slice(device, 40, 10, "B"); // launched at 10: queued 10–40
        s.slice(device, 50, 10, "C"); // launched at 20: queued 20–50
        s.slice(device, 30, 0, "D");  // launched at 30, starts at once: never queued
        s.slice(idle, 5, 10, "E");
        s.launch(host, 0, device, 25, "1");
        s.launch(host, 10, device, 40, "2");
        s.launch(host, 20, device, 50, "3");
        s.launch(host, 30, device, 30, "4");
        const auto model = s.b.build();
        const std::map<int, int> lanes = queueLanes(*model);
        QCOMPARE(lanes.size(), std::size_t(1));
        QVERIFY(lanes.contains(device));
        const CounterSeries &lane = model->counters()[static_cast<std::size_t>(lanes.at(device))];
        QCOMPARE(model->counterDisplayName(lanes.at(device)), QStringLiteral("Queue depth (Stream 7)"));
        QCOMPARE(lane.times, (std::vector<TimeNs>{0, 10'000, 20'000, 25'000, 40'000, 50'000}));
        QCOMPARE(lane.values, (std::vector<double>{1, 2, 3, 2, 1, 0}));
        QCOMPARE(lane.minValue, 0.0);
        QCOMPARE(lane.maxValue, 3.0);
        // The lane is the core series of the stream, and only that process gained a counter.
        const QueueDepthSeries series = streamQueueDepth(*model, device);
        QCOMPARE(series.size(), lane.times.size());
        QVERIFY(streamQueueDepth(*model, idle).empty());
        QCOMPARE(model->counters().size(), std::size_t(1));
    }

    void traceWithoutFlowsHasNoLane()
    {
        Synthetic s;
        const int host = s.thread(1, "CANN", 1, "Thread 1");
        const int device = s.thread(2, "Ascend Hardware", 7, "Stream 7");
        s.slice(host, 0, 5, "aclnnAdd");
        s.slice(device, 25, 10, "A");
        const auto model = s.b.build();
        QVERIFY(model->flows().empty());
        QVERIFY(model->counters().empty());
        QVERIFY(queueLanes(*model).empty());
    }
};

QTEST_GUILESS_MAIN(TestQueueDepth)
#include "tst_queue_depth.moc"
