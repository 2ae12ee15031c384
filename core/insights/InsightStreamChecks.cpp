// Where device stream time goes when a stream is idle, and how long launches take to reach the
// device (this viewer's analyses after Holistic Trace Analysis, docs/INSIGHTS.md).

#include "InsightChecks.h"
#include "InsightSupport.h"
#include "QueueDepth.h"
#include "StreamQueue.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace at {

using namespace insights;

namespace {

// Launch delay outliers: above Q3 + 3 × IQR of the delays (Tukey's far-out fence).
constexpr double kOutlierIqrFactor = 3.0;
// Fewer launches than this give no distribution worth reporting.
constexpr std::size_t kMinLaunches = 10;
// Sequences kept in a kernel_sequences finding's data.
constexpr std::size_t kMaxSequencesListed = 20;

bool isDeviceTask(const TraceModel &model, SliceRef ref)
{
    return ref.isValid() && layerOfThread(model, ref.thread) == Layer::DeviceStreams;
}

bool isHostLaunch(const TraceModel &model, SliceRef ref)
{
    if (!ref.isValid())
        return false;
    const Layer layer = layerOfThread(model, ref.thread);
    return layer == Layer::CannApi || layer == Layer::Framework;
}

// Latest host launch time of the flows entering a device task, or -1 when none.
TimeNs launchTimeOf(const TraceModel &model, SliceRef task)
{
    TimeNs latest = -1;
    for (std::uint32_t f : model.flowsTo(task)) {
        const FlowInfo &flow = model.flows()[f];
        if (isHostLaunch(model, flow.from))
            latest = std::max(latest, flow.fromTime);
    }
    return latest;
}

TimeNs percentile(const std::vector<TimeNs> &sorted, double p)
{
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

} // namespace

void checkIdleAttribution(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    const auto busy = deviceBusyByGroup(model);
    // Inside the steps' Free time when the data places it (partRegion()): the totals then never pass
    // it. A wait for another stream inside communication belongs to communication, not to Free.
    std::vector<std::vector<Interval>> windows(busy.size());
    std::vector<bool> placed(busy.size(), false);
    for (std::size_t g = 0; g < windows.size(); ++g)
        if (!context.covers(static_cast<int>(g)))
            continue;
        else if (auto free = partRegion(model, static_cast<int>(g), StepPart::Free)) {
            windows[g] = std::move(*free);
            placed[g] = true;
        }
    enum Cause
    {
        Host,
        Event,
        Other
    };
    struct Gap
    {
        int group;
        TimeNs begin, end;
        SliceRef next; // the task that ends a host wait (the occurrence)
    };
    std::vector<Gap> gaps[3];
    Finding finding;
    QJsonArray streams;
    const auto queueDepths = streamQueueDepths(model);
    for (int t : threadsOfLayers(context, {Layer::DeviceStreams})) {
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        if (slices.depthCount() == 0)
            continue;
        const int group = groupOfThread(model, t);
        TimeNs host = 0, event = 0, other = 0; // this stream's own gaps (they overlap other streams')
        const auto [first, last] = slices.depthRange(0);
        TimeNs busyUntil = -1;
        for (std::uint32_t i = first; i < last; ++i) {
            const SliceRef ref{t, i};
            if (isWaitTask(model.strings().view(slices.name(i)))) {
                event += slices.duration(i);
                gaps[Event].push_back({group, slices.start(i), slices.end(i), {}});
            }
            if (busyUntil >= 0 && slices.start(i) > busyUntil) {
                const TimeNs gap = slices.start(i) - busyUntil;
                if (launchTimeOf(model, ref) > busyUntil) {
                    host += gap;
                    gaps[Host].push_back({group, busyUntil, slices.start(i), ref});
                } else {
                    other += gap;
                    gaps[Other].push_back({group, busyUntil, slices.start(i), {}});
                }
            }
            busyUntil = std::max(busyUntil, slices.end(i));
        }
        int maxDepth = 0;
        if (const auto depth = queueDepths.find(t); depth != queueDepths.end())
            for (const auto &point : depth->second)
                maxDepth = std::max(maxDepth, point.second);
        streams.append(QJsonObject{{QStringLiteral("rank"), context.rankOfGroup(group)},
                                   {QStringLiteral("max_queue_depth"), maxDepth},
                                   {QStringLiteral("stream"), model.threadDisplayName(t)},
                                   {QStringLiteral("waiting_for_host_us"), toUs(host)},
                                   {QStringLiteral("waiting_for_event_us"), toUs(event)},
                                   {QStringLiteral("other_us"), toUs(other)}});
    }
    // The whole device's idle time, each instant counted once: host waits first, then waits for another
    // stream or an event, then the rest.
    std::vector<IntervalSet> counted(busy.size());
    TimeNs idle[3] = {0, 0, 0};
    for (int cause : {Host, Event, Other}) {
        for (const Gap &gap : gaps[cause]) {
            const auto g = static_cast<std::size_t>(gap.group);
            if (g >= busy.size())
                continue;
            TimeNs open = 0;
            if (placed[g] && windows[g].empty())
                continue; // no Free time at all
            for (const Interval &segment : idleSegments(busy[g], windows[g], gap.begin, gap.end)) {
                const TimeNs fresh = counted[g].uncovered(segment.first, segment.second);
                counted[g].add(segment.first, segment.second);
                open += fresh;
                if (cause == Host && fresh > 0)
                    finding.pieces.push_back({gap.group, segment.first, segment.second, fresh});
            }
            idle[cause] += open;
            if (cause == Host && open > 0) {
                FindingOccurrence o = occurrenceOf(model, gap.next);
                o.start = gap.begin;
                o.duration = gap.end - gap.begin;
                finding.occurrences.push_back(o);
            }
        }
    }
    finding.timeAtStake = idle[Host];
    if (finding.timeAtStake <= 0)
        return;
    finding.title = InsightText::tr("Device streams wait for the host");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr(
            "While the whole device was idle (in the steps' Free time when there are steps), it was "
            "waiting for the host for %1 ms (the next task was launched after the previous "
            "one ended), for another stream or an event for %2 ms (EVENT_WAIT, Notify Wait) "
            "and for nothing recorded for %3 ms; each instant is counted once.")
            .arg(toUs(idle[Host]) / 1000.0, 0, 'f', 3)
            .arg(toUs(idle[Event]) / 1000.0, 0, 'f', 3)
            .arg(toUs(idle[Other]) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Launch work earlier: enable the task queue (TASK_QUEUE_ENABLE=2), remove host "
                        "synchronisation from the step, and overlap data loading with compute.");
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.data = QJsonObject{{QStringLiteral("waiting_for_host_us"), toUs(idle[Host])},
                               {QStringLiteral("waiting_for_event_us"), toUs(idle[Event])},
                               {QStringLiteral("other_us"), toUs(idle[Other])},
                               {QStringLiteral("streams"), streams}};
    findings.push_back(std::move(finding));
}

void checkLaunchDelay(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    struct Launch
    {
        SliceRef task;
        TimeNs delay;
    };
    std::vector<Launch> launches;
    for (const FlowInfo &flow : model.flows()) {
        if (!isHostLaunch(model, flow.from) || !isDeviceTask(model, flow.to) ||
            !context.covers(groupOfThread(model, flow.to.thread)))
            continue;
        const TimeNs start =
            model.threads()[static_cast<std::size_t>(flow.to.thread)].slices.start(flow.to.index);
        launches.push_back({flow.to, start - flow.fromTime});
    }
    if (launches.size() < kMinLaunches)
        return;
    std::vector<TimeNs> delays;
    delays.reserve(launches.size());
    for (const Launch &l : launches)
        delays.push_back(l.delay);
    std::sort(delays.begin(), delays.end());
    const TimeNs p25 = percentile(delays, 0.25), p50 = percentile(delays, 0.5),
                 p75 = percentile(delays, 0.75);
    const TimeNs p90 = percentile(delays, 0.9), p99 = percentile(delays, 0.99);
    const auto fence = p75 + static_cast<TimeNs>(kOutlierIqrFactor * static_cast<double>(p75 - p25));
    Finding finding;
    std::size_t outliers = 0;
    for (const Launch &l : launches) {
        if (l.delay <= fence)
            continue;
        ++outliers;
        FindingOccurrence o = occurrenceOf(model, l.task);
        o.start -= l.delay; // the launch → start interval
        o.duration = l.delay;
        finding.occurrences.push_back(o);
    }
    if (outliers == 0)
        return;
    finding.title = InsightText::tr("Launch delay outliers");
    // A distribution, not a cost: the delay overlaps other work, so no time is claimed for it.
    finding.severity = Severity::Low;
    finding.explanation =
        InsightText::tr("Of %1 launches, the delay from host launch to device start has median %2 µs, "
                        "p90 %3 µs, p99 %4 µs, max %5 µs; %6 launch(es) lie above %7 µs (Q3 + 3 IQR).")
            .arg(launches.size())
            .arg(toUs(p50), 0, 'f', 1)
            .arg(toUs(p90), 0, 'f', 1)
            .arg(toUs(p99), 0, 'f', 1)
            .arg(toUs(delays.back()), 0, 'f', 1)
            .arg(outliers)
            .arg(toUs(fence), 0, 'f', 1);
    finding.fix =
        InsightText::tr("A long delay means the stream was still busy with earlier work (a deep queue) or "
                        "the task waited for an event; look at what ran on the stream before each outlier.");
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.data = QJsonObject{{QStringLiteral("launches"), static_cast<int>(launches.size())},
                               {QStringLiteral("p50_us"), toUs(p50)},
                               {QStringLiteral("p90_us"), toUs(p90)},
                               {QStringLiteral("p99_us"), toUs(p99)},
                               {QStringLiteral("max_us"), toUs(delays.back())},
                               {QStringLiteral("outlier_fence_us"), toUs(fence)},
                               {QStringLiteral("outliers"), static_cast<int>(outliers)}};
    findings.push_back(std::move(finding));
}

void checkKernelSequences(const InsightContext &context, std::vector<Finding> &findings)
{
    // Informational (no time claimed): what each host operator launches, most frequent sequence first,
    // so a repeated pattern (a fusion candidate) is easy to spot.
    const TraceModel &model = context.model;
    const std::vector<KernelSequence> sequences = frequentKernelSequences(model, 1, context.onlyGroup);
    if (sequences.empty())
        return;
    Finding finding;
    QJsonArray list;
    for (std::size_t i = 0; i < sequences.size() && i < kMaxSequencesListed; ++i) {
        const KernelSequence &seq = sequences[i];
        list.append(QJsonObject{{QStringLiteral("host_operator"), seq.hostOperator},
                                {QStringLiteral("kernels"), QJsonArray::fromStringList(seq.kernels)},
                                {QStringLiteral("count"), seq.count},
                                {QStringLiteral("instances"), seq.instances}});
    }
    const KernelSequence &top = sequences.front();
    for (const SliceRef &ref : top.example)
        finding.occurrences.push_back(occurrenceOf(model, ref));
    finding.title = InsightText::tr("Most frequent kernel sequences per host operator");
    finding.severity = Severity::Low;
    finding.explanation =
        InsightText::tr("The most frequent sequence is %1 → [%2], launched %3 of %4 times; the "
                        "occurrences are its first instance. The data lists the top sequence of "
                        "each host operator.")
            .arg(top.hostOperator, top.kernels.join(QStringLiteral(", ")))
            .arg(top.count)
            .arg(top.instances);
    finding.fix =
        InsightText::tr("A long sequence repeated many times is a candidate for a fused operator or a "
                        "torch_npu fused API.");
    finding.data = QJsonObject{{QStringLiteral("sequences"), list}};
    findings.push_back(std::move(finding));
}

} // namespace at
