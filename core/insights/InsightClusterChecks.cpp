// Cluster findings (FORMATS.md §9.3, §9.4): slow ranks within their pipeline stage / data-parallel group,
// pipeline stage imbalance, msprof-analyze's plain rule, slow links and collective waits, from core/cluster's
// analyses of the ranks' summary files. The judgement and its words exist only here: the Insights panel and
// --advise run the registered checks, the cluster page and --cluster show clusterFindings() (all of them),
// both through FindingText / FindingJson.

#include "InsightChecks.h"
#include "InsightSupport.h"

#include "Steps.h"
#include "cluster/ClusterAnalysis.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>

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
                                 const QString &name, TimeNs duration, std::vector<int> ranks)
{
    FindingOccurrence o;
    o.group = context.groupOfRank(rank);
    o.name = name;
    o.duration = duration;
    o.ranks = std::move(ranks);
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

// The slow rank and the fastest of its group (the gap is measured against it), to open side by side.
std::vector<int> slowAndFastest(const cluster::SlowRank &s)
{
    std::vector<int> ranks{s.rank};
    if (s.fastest >= 0 && s.fastest != s.rank)
        ranks.push_back(s.fastest);
    return ranks;
}

Severity shareSeverity(TimeNs gap, TimeNs total)
{
    return total > 0 && static_cast<double>(gap) >= kClusterHighShare * static_cast<double>(total)
               ? Severity::High
               : Severity::Medium;
}

// The time a cluster finding puts at stake: per step the largest of its gaps (the ranks, stages and links
// of one step run side by side, so their gaps overlap; the step waits for the largest), summed over the
// steps.
class PerStepLargest
{
public:
    void add(std::int64_t step, TimeNs gap)
    {
        TimeNs &largest = m_byStep[step];
        largest = std::max(largest, gap);
    }
    TimeNs total() const
    {
        TimeNs sum = 0;
        for (const auto &[step, gap] : m_byStep)
            sum += gap;
        return sum;
    }

private:
    std::map<std::int64_t, TimeNs> m_byStep;
};

// The part of the named rank's step a dimension of the cluster analyses is.
StepPart partOf(cluster::Dimension d)
{
    switch (d) {
    case cluster::Dimension::Computing:
        return StepPart::Computing;
    case cluster::Dimension::Communication:
        return StepPart::CommunicationNotOverlapped;
    case cluster::Dimension::Free:
        break;
    }
    return StepPart::Free;
}

QString msText(TimeNs ns)
{
    return QString::number(toUs(ns) / 1000.0, 'f', 3);
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
    PerStepLargest atStake;
    for (const cluster::SlowRank &s : slow) {
        atStake.add(s.step, s.gap);
        const TimeNs mean = meanRankTotal(*context.cluster, s.step);
        severity = std::min(severity, shareSeverity(s.gap, mean));
        finding.occurrences.push_back(
            stepOccurrence(context, s.rank, s.step,
                           InsightText::tr("%1rank %2, %3 longer than the fastest of %4")
                               .arg(stepText(s.step))
                               .arg(s.rank)
                               .arg(dimensionText(s.dimension), s.group),
                           s.gap, slowAndFastest(s)));
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
    finding.timeAtStake = atStake.total();
    keepLongest(finding.occurrences, kMaxOccurrences);
    const cluster::SlowRank &worst = *std::max_element(
        slow.begin(), slow.end(), [](const auto &a, const auto &b) { return a.gap < b.gap; });
    finding.title = InsightText::tr("Slow rank: rank %1").arg(worst.rank);
    finding.rank = worst.rank;
    finding.part = partOf(worst.dimension);
    finding.severity = severity;
    finding.explanation =
        InsightText::tr(
            "%n slow rank(s) found among ranks that should run alike (the same pipeline stage or "
            "data-parallel group). The worst: rank %1 spends %2 ms more on %3 than the fastest of "
            "%4.",
            nullptr, static_cast<int>(slow.size()))
            .arg(worst.rank)
            .arg(toUs(worst.gap) / 1000.0, 0, 'f', 3)
            .arg(dimensionText(worst.dimension), worst.group);
    // Only the ranks the data shows waiting (their communication is longer than the slow rank's) are named.
    if (!worst.waiting.empty()) {
        QStringList waiting;
        for (int r : worst.waiting)
            waiting << QString::number(r);
        finding.explanation += QLatin1Char(' ') + InsightText::tr("Ranks %1 communicate longer in that step: "
                                                                  "they wait for it in their collectives.")
                                                      .arg(waiting.join(QStringLiteral(", ")));
    }
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
    PerStepLargest atStake;
    for (const cluster::StageImbalance &s : imbalance) {
        atStake.add(s.step, s.gap);
        severity = std::min(severity, shareSeverity(s.gap, meanRankTotal(*context.cluster, s.step)));
        // The lighter stage's ranks wait: point at the first of them.
        int lighterRank = -1, heavierRank = -1;
        for (const cluster::Rank &r : context.cluster->ranks) {
            if (r.stage == s.lighterStage && lighterRank < 0)
                lighterRank = r.rank;
            if (r.stage == s.heavierStage && heavierRank < 0)
                heavierRank = r.rank;
        }
        finding.occurrences.push_back(
            stepOccurrence(context, lighterRank, s.step,
                           InsightText::tr("%1stage %2 computes %3 ms more than stage %4")
                               .arg(stepText(s.step))
                               .arg(s.heavierStage)
                               .arg(toUs(s.gap) / 1000.0, 0, 'f', 3)
                               .arg(s.lighterStage),
                           s.gap, {lighterRank, heavierRank}));
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(s.step)},
                                {QStringLiteral("heavier_stage"), s.heavierStage},
                                {QStringLiteral("lighter_stage"), s.lighterStage},
                                {QStringLiteral("heavier_computing_us"), toUs(s.heavierComputing)},
                                {QStringLiteral("lighter_computing_us"), toUs(s.lighterComputing)},
                                {QStringLiteral("gap_us"), toUs(s.gap)}});
    }
    finding.timeAtStake = atStake.total();
    const cluster::StageImbalance &first = imbalance.front();
    finding.title = InsightText::tr("Pipeline stages are unbalanced");
    // What the split costs shows on the lighter stage: it waits in its pipeline communication.
    for (const cluster::Rank &r : context.cluster->ranks)
        if (r.stage == first.lighterStage) {
            finding.rank = r.rank;
            break;
        }
    finding.part = StepPart::CommunicationNotOverlapped;
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
    PerStepLargest atStake;
    for (const cluster::SlowLink &link : links) {
        // The time the link lost against the median bandwidth of its transport: time − size / median.
        const TimeNs lost = link.lost;
        atStake.add(link.step, lost);
        finding.occurrences.push_back(
            stepOccurrence(context, link.src, link.step,
                           InsightText::tr("%1%2 link %3 → %4: %5 GB/s (median %6 GB/s)")
                               .arg(stepText(link.step), link.transport)
                               .arg(link.src)
                               .arg(link.dst)
                               .arg(link.bandwidthGbps, 0, 'f', 2)
                               .arg(link.medianGbps, 0, 'f', 2),
                           lost, {link.src, link.dst}));
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(link.step)},
                                {QStringLiteral("src"), link.src},
                                {QStringLiteral("dst"), link.dst},
                                {QStringLiteral("transport"), link.transport},
                                {QStringLiteral("bandwidth_gbps"), link.bandwidthGbps},
                                {QStringLiteral("median_gbps"), link.medianGbps},
                                {QStringLiteral("lost_us"), toUs(lost)}});
    }
    finding.timeAtStake = atStake.total();
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.rank = context.rankOf(finding.occurrences.front()); // the source of the link that lost most
    finding.title = InsightText::tr("Slow communication link(s)");
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr(
            "%n link(s) run below %1 % of the median bandwidth of their transport type. At the "
            "median bandwidth the one that lost most in each step would have finished %2 ms sooner "
            "(summed over the steps; the links of one step run side by side).",
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

void checkPlainRule(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || context.cluster->ranks.size() < 2)
        return;
    const std::vector<cluster::PlainRuleFlag> flags = cluster::plainRule(*context.cluster);
    if (flags.empty())
        return;
    Finding finding;
    QJsonArray list;
    for (const cluster::PlainRuleFlag &f : flags) {
        finding.occurrences.push_back(stepOccurrence(
            context, f.maxRank, f.step,
            InsightText::tr("%1%2 of rank %3 exceeds rank %4's by %5 ms (%6 % of the mean step)")
                .arg(stepText(f.step), dimensionText(f.dimension))
                .arg(f.maxRank)
                .arg(f.minRank)
                .arg(msText(f.gap))
                .arg(f.ratio * 100, 0, 'f', 1),
            f.gap, {f.maxRank, f.minRank}));
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(f.step)},
                                {QStringLiteral("dimension"), cluster::dimensionKey(f.dimension)},
                                {QStringLiteral("max_rank"), f.maxRank},
                                {QStringLiteral("min_rank"), f.minRank},
                                {QStringLiteral("gap_us"), toUs(f.gap)},
                                {QStringLiteral("ratio"), f.ratio}});
    }
    const cluster::PlainRuleFlag &largest = *std::max_element(
        flags.begin(), flags.end(), [](const auto &a, const auto &b) { return a.ratio < b.ratio; });
    finding.rank = largest.maxRank;
    finding.part = partOf(largest.dimension);
    finding.title = InsightText::tr("msprof-analyze's rule: ranks differ by more than %1 %")
                        .arg(100.0 * cluster::kSlowRankThreshold, 0, 'f', 0);
    // Informational: the same gaps are judged (and their time counted) by slow_rank and stage_imbalance,
    // which compare only ranks that should run alike.
    finding.severity = Severity::Low;
    finding.explanation =
        InsightText::tr("msprof-analyze's advisor compares all ranks at once: (max − min) / mean step time "
                        "above %1 % in %n step dimension(s). The largest: %2 of rank %3 exceeds rank %4's "
                        "by %5 ms (%6 % of the mean step). Ranks of different pipeline stages do different "
                        "work, so this rule alone names no slow rank.",
                        nullptr, static_cast<int>(flags.size()))
            .arg(100.0 * cluster::kSlowRankThreshold, 0, 'f', 0)
            .arg(dimensionText(largest.dimension))
            .arg(largest.maxRank)
            .arg(largest.minRank)
            .arg(msText(largest.gap))
            .arg(largest.ratio * 100, 0, 'f', 1);
    finding.fix = InsightText::tr("Shown to match msprof-analyze's cluster report; act on the slow rank and "
                                  "stage imbalance findings, which compare ranks of one stage or group.");
    finding.data = QJsonObject{{QStringLiteral("flags"), list},
                               {QStringLiteral("threshold"), cluster::kSlowRankThreshold}};
    findings.push_back(std::move(finding));
}

void checkCollectiveWait(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || context.cluster->ranks.size() < 2)
        return;
    const std::vector<cluster::CollectiveWait> waits = cluster::findWaits(*context.cluster);
    if (waits.empty())
        return;
    Finding finding;
    QJsonArray list;
    // A rank waits in its collectives one after another, while the ranks wait side by side: per step the
    // time at stake is the longest of the ranks' summed waits.
    std::map<std::pair<std::int64_t, int>, TimeNs> waitOfRank;
    std::map<int, TimeNs> waitedFor; // Σ waits per rank waited for
    for (const cluster::CollectiveWait &w : waits) {
        QStringList waiting;
        QJsonArray waiters;
        std::vector<int> ranks{w.waitedFor};
        for (const cluster::CollectiveWait::Waiter &x : w.waiting) {
            waiting << InsightText::tr("%1 (%2 ms)").arg(x.rank).arg(msText(x.wait));
            waiters.append(QJsonObject{{QStringLiteral("rank"), x.rank},
                                       {QStringLiteral("wait_us"), toUs(x.wait)},
                                       {QStringLiteral("wait_ratio"), x.waitRatio}});
            ranks.push_back(x.rank);
            waitOfRank[{w.step, x.rank}] += x.wait;
            waitedFor[w.waitedFor] += x.wait;
        }
        const cluster::CollectiveWait::Waiter &longest = w.waiting.front(); // longest wait first
        FindingOccurrence o =
            stepOccurrence(context, longest.rank, w.step,
                           InsightText::tr("%1%2: ranks %3 wait for rank %4")
                               .arg(stepText(w.step), w.op, waiting.join(QStringLiteral(", ")))
                               .arg(w.waitedFor),
                           longest.wait, std::move(ranks));
        o.op = w.op;
        finding.occurrences.push_back(std::move(o));
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(w.step)},
                                {QStringLiteral("op"), w.op},
                                {QStringLiteral("group"), w.group},
                                {QStringLiteral("waited_for"), w.waitedFor},
                                {QStringLiteral("waiting"), waiters}});
    }
    PerStepLargest atStake;
    for (const auto &[key, wait] : waitOfRank)
        atStake.add(key.first, wait);
    finding.timeAtStake = atStake.total();
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.rank = context.rankOf(finding.occurrences.front()); // the rank that waits longest
    const auto mostWaitedFor = std::max_element(
        waitedFor.begin(), waitedFor.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    const FindingOccurrence &first = finding.occurrences.front();
    finding.title = InsightText::tr("Ranks wait in collectives, most for rank %1").arg(mostWaitedFor->first);
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.explanation =
        InsightText::tr(
            "In %n collective(s) a rank's Wait Time Ratio (wait / (wait + transit) of "
            "communication.json) exceeds %1: it waited for the rank that waited least. The "
            "longest: rank %2 waits %3 ms for rank %4 in %5. The data shows who arrived late, not "
            "why.",
            nullptr, static_cast<int>(waits.size()))
            .arg(cluster::kWaitRatioThreshold, 0, 'f', 1)
            .arg(context.rankOf(first))
            .arg(msText(first.duration))
            .arg(first.ranks.front())
            .arg(first.op);
    finding.fix =
        InsightText::tr("Open the waiting rank and the rank it waits for on one timeline at that op "
                        "(double-click the occurrence on the cluster page) and compare what each ran "
                        "before the collective.");
    finding.data = QJsonObject{{QStringLiteral("waits"), list},
                               {QStringLiteral("wait_ratio_threshold"), cluster::kWaitRatioThreshold}};
    findings.push_back(std::move(finding));
}

std::vector<Finding> clusterFindings(const InsightContext &context)
{
    // The cluster page's order: the stage split first (it explains the gaps after it), then the ranks, the
    // reference rule, the links and the waits.
    const std::pair<const char *, InsightCheckFunction> checks[] = {
        {"stage_imbalance", checkStageImbalance}, {"slow_rank", checkSlowRank},
        {"plain_rule", checkPlainRule},           {"slow_link", checkSlowLink},
        {"collective_wait", checkCollectiveWait},
    };
    std::vector<Finding> findings;
    for (const auto &[id, run] : checks) {
        const std::size_t before = findings.size();
        run(context, findings);
        for (std::size_t i = before; i < findings.size(); ++i)
            findings[i].check = QString::fromLatin1(id);
    }
    describeFindings(context, findings);
    return findings;
}

} // namespace at
