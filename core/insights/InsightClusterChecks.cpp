// Cluster checks (FORMATS.md §9.3): slow ranks within their pipeline stage / data-parallel group,
// pipeline stage imbalance and slow links, from core/cluster's analyses of the ranks' summary files.

#include "InsightChecks.h"
#include "InsightSupport.h"

#include "Steps.h"
#include "cluster/ClusterAnalysis.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace at {

using namespace insights;

namespace {

// Severity of a cluster finding: the gap as a share of the step time; the analyses only report gaps
// above cluster::kSlowRankThreshold (5 %), so high starts at twice that.
constexpr double kClusterHighShare = 2 * cluster::kSlowRankThreshold;

QString dimensionText(cluster::Dimension d)
{
    switch (d) {
    case cluster::Dimension::Computing:
        return InsightText::tr("computing");
    case cluster::Dimension::Communication:
        return InsightText::tr("communication");
    case cluster::Dimension::Free:
        break;
    }
    return InsightText::tr("free time");
}

// A rank's step as an occurrence: the rank's step marker and stage when the model has the rank,
// else the rank alone (a cluster page has no timeline).
FindingOccurrence stepOccurrence(const InsightContext &context, int rank, std::int64_t step,
                                 const QString &name, TimeNs duration)
{
    FindingOccurrence o;
    o.group = context.groupOfRank(rank);
    o.name = name;
    o.duration = duration;
    if (o.group < 0) {
        o.group = 0;
        o.rank = rank;
        return o;
    }
    for (const Step &s : context.model.steps()) {
        if (s.group == o.group && (s.number == step || step == cluster::kNoStep)) {
            o.slice = s.marker;
            o.start = s.stageBegin;
            break;
        }
    }
    return o;
}

QString stepText(std::int64_t step)
{
    return step == cluster::kNoStep ? QString() : InsightText::tr("step %1: ").arg(step);
}

Severity shareSeverity(TimeNs gap, TimeNs total)
{
    return total > 0 && static_cast<double>(gap) >= kClusterHighShare * static_cast<double>(total)
               ? Severity::High
               : Severity::Medium;
}

TimeNs meanRankTotal(const cluster::ClusterModel &model, std::int64_t step)
{
    TimeNs sum = 0;
    int n = 0;
    for (const cluster::Rank &r : model.ranks)
        for (const cluster::RankStep &s : r.steps)
            if (s.step == step) {
                sum += cluster::rankTotal(s);
                ++n;
            }
    return n > 0 ? sum / n : 0;
}

} // namespace

void checkSlowRank(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || context.cluster->ranks.size() < 2)
        return;
    const std::vector<cluster::SlowRank> slow = cluster::findSlowRanks(*context.cluster);
    if (slow.empty())
        return;
    Finding finding;
    QJsonArray list;
    Severity severity = Severity::Medium;
    for (const cluster::SlowRank &s : slow) {
        finding.timeAtStake += s.gap;
        const TimeNs mean = meanRankTotal(*context.cluster, s.step);
        severity = std::min(severity, shareSeverity(s.gap, mean));
        finding.occurrences.push_back(stepOccurrence(context, s.rank, s.step,
                                                     InsightText::tr("%1rank %2, %3 longer than its %4")
                                                         .arg(stepText(s.step))
                                                         .arg(s.rank)
                                                         .arg(dimensionText(s.dimension), s.group),
                                                     s.gap));
        QJsonArray waiting;
        for (int r : s.waiting)
            waiting.append(r);
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(s.step)},
                                {QStringLiteral("rank"), s.rank},
                                {QStringLiteral("compared_with"), s.group},
                                {QStringLiteral("dimension"), cluster::dimensionKey(s.dimension)},
                                {QStringLiteral("gap_us"), toUs(s.gap)},
                                {QStringLiteral("waiting_ranks"), waiting}});
    }
    keepLongest(finding.occurrences, kMaxOccurrences);
    const cluster::SlowRank &worst = *std::max_element(
        slow.begin(), slow.end(), [](const auto &a, const auto &b) { return a.gap < b.gap; });
    finding.title = InsightText::tr("Slow rank: rank %1").arg(worst.rank);
    finding.severity = severity;
    finding.explanation =
        InsightText::tr(
            "%n slow rank(s) found among ranks that should run alike (the same pipeline stage or "
            "data-parallel group). The worst: rank %1 spends %2 ms more on %3 than the fastest of "
            "its %4, and the others wait for it in their collectives.",
            nullptr, static_cast<int>(slow.size()))
            .arg(worst.rank)
            .arg(toUs(worst.gap) / 1000.0, 0, 'f', 3)
            .arg(dimensionText(worst.dimension), worst.group);
    finding.fix = InsightText::tr("Open the slow rank's timeline and compare it with a fast rank of the same "
                                  "group (Compare steps): look for a slower device (frequency, temperature), "
                                  "more or longer kernels (uneven data), or host-side stalls.");
    finding.data = QJsonObject{{QStringLiteral("slow_ranks"), list},
                               {QStringLiteral("threshold"), cluster::kSlowRankThreshold}};
    findings.push_back(std::move(finding));
}

void checkStageImbalance(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || context.cluster->ranks.size() < 2)
        return;
    const std::vector<cluster::StageImbalance> imbalance = cluster::findStageImbalance(*context.cluster);
    if (imbalance.empty())
        return;
    Finding finding;
    QJsonArray list;
    Severity severity = Severity::Medium;
    for (const cluster::StageImbalance &s : imbalance) {
        finding.timeAtStake += s.gap;
        severity = std::min(severity, shareSeverity(s.gap, meanRankTotal(*context.cluster, s.step)));
        // The lighter stage's ranks wait: point at the first of them.
        int lighterRank = -1;
        for (const cluster::Rank &r : context.cluster->ranks)
            if (r.stage == s.lighterStage && lighterRank < 0)
                lighterRank = r.rank;
        finding.occurrences.push_back(
            stepOccurrence(context, lighterRank, s.step,
                           InsightText::tr("%1stage %2 computes %3 ms more than stage %4")
                               .arg(stepText(s.step))
                               .arg(s.heavierStage)
                               .arg(toUs(s.gap) / 1000.0, 0, 'f', 3)
                               .arg(s.lighterStage),
                           s.gap));
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(s.step)},
                                {QStringLiteral("heavier_stage"), s.heavierStage},
                                {QStringLiteral("lighter_stage"), s.lighterStage},
                                {QStringLiteral("heavier_computing_us"), toUs(s.heavierComputing)},
                                {QStringLiteral("lighter_computing_us"), toUs(s.lighterComputing)},
                                {QStringLiteral("gap_us"), toUs(s.gap)}});
    }
    const cluster::StageImbalance &first = imbalance.front();
    finding.title = InsightText::tr("Pipeline stages are unbalanced");
    finding.severity = severity;
    finding.explanation =
        InsightText::tr("Pipeline stage %1 computes %2 ms per step against %3 ms for stage %4, so the "
                        "lighter stage waits about %5 ms in its pipeline communication.")
            .arg(first.heavierStage)
            .arg(toUs(first.heavierComputing) / 1000.0, 0, 'f', 3)
            .arg(toUs(first.lighterComputing) / 1000.0, 0, 'f', 3)
            .arg(first.lighterStage)
            .arg(toUs(first.gap) / 1000.0, 0, 'f', 3);
    finding.fix =
        InsightText::tr("Move layers from the heavier stage to the lighter one (e.g. Megatron's "
                        "--decoder-first-pipeline-num-layers / an uneven layer split), or account for "
                        "the embedding and loss layers of the first and last stage.");
    finding.data = QJsonObject{{QStringLiteral("stages"), list}};
    findings.push_back(std::move(finding));
}

void checkSlowLink(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || context.cluster->ranks.size() < 2)
        return;
    const std::vector<cluster::SlowLink> links = cluster::findSlowLinks(*context.cluster);
    if (links.empty())
        return;
    Finding finding;
    QJsonArray list;
    for (const cluster::SlowLink &link : links) {
        // The time the link lost against the median bandwidth of its transport: time − size / median.
        TimeNs lost = 0;
        for (const cluster::LinkTotal &total : cluster::matrixLinks(*context.cluster, link.step)) {
            if (total.src == link.src && total.dst == link.dst && total.transport == link.transport &&
                link.medianGbps > 0) {
                const auto atMedian = static_cast<TimeNs>(std::llround(total.sizeMb / link.medianGbps * 1e6));
                lost = std::max<TimeNs>(0, total.time - atMedian);
            }
        }
        finding.timeAtStake += lost;
        finding.occurrences.push_back(
            stepOccurrence(context, link.src, link.step,
                           InsightText::tr("%1%2 link %3 → %4: %5 GB/s (median %6 GB/s)")
                               .arg(stepText(link.step), link.transport)
                               .arg(link.src)
                               .arg(link.dst)
                               .arg(link.bandwidthGbps, 0, 'f', 2)
                               .arg(link.medianGbps, 0, 'f', 2),
                           lost));
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(link.step)},
                                {QStringLiteral("src"), link.src},
                                {QStringLiteral("dst"), link.dst},
                                {QStringLiteral("transport"), link.transport},
                                {QStringLiteral("bandwidth_gbps"), link.bandwidthGbps},
                                {QStringLiteral("median_gbps"), link.medianGbps},
                                {QStringLiteral("lost_us"), toUs(lost)}});
    }
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.title = InsightText::tr("Slow communication link(s)");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr("%n link(s) run below %1 % of the median bandwidth of their transport type; moving "
                        "their data at the median bandwidth would have saved %2 ms.",
                        nullptr, static_cast<int>(links.size()))
            .arg(100.0 * cluster::kSlowLinkRatio, 0, 'f', 0)
            .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3);
    finding.fix = InsightText::tr("Check the slow link's hardware and topology (HCCS / RDMA port errors, a "
                                  "link running at reduced width, traffic from other jobs), and the HCCL "
                                  "algorithm chosen (HCCL_ALGO).");
    finding.data = QJsonObject{{QStringLiteral("links"), list},
                               {QStringLiteral("ratio_threshold"), cluster::kSlowLinkRatio}};
    findings.push_back(std::move(finding));
}

} // namespace at
