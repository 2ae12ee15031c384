// Cluster findings (FORMATS.md §9.3, §9.4): slow ranks within their pipeline stage / data-parallel group,
// pipeline stage imbalance, msprof-analyze's plain rule, slow links and collective waits, from core/cluster's
// analyses of the ranks' summary files. The judgement and its words exist only here: the Insights panel and
// --advise run the registered checks, the cluster page and --cluster show clusterFindings() (all of them),
// both through FindingText / FindingJson.

#include "InsightChecks.h"
#include "InsightSupport.h"

#include "Steps.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/CommBoundAnalysis.h"
#include "cluster/MoeLoad.h"
#include "cluster/SlowLinkTransit.h"
#include "cluster/SlowRankVoting.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

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

// A finding names at most this many ranks, then "and N more ranks" (issue #32: at 1,024 ranks the slow
// rank's explanation named about 200 waiting ranks).
constexpr std::size_t kNamedRanks = 5;

// The first kNamedRanks of names, then "and N more ranks" for the rest of total (total ≥ names.size()).
QString namedRanksText(const QStringList &names, std::size_t total)
{
    const auto named = std::min<qsizetype>(names.size(), static_cast<qsizetype>(kNamedRanks));
    const QString list = names.mid(0, named).join(QStringLiteral(", "));
    if (total <= static_cast<std::size_t>(named))
        return list;
    return InsightText::tr("%1 and %n more rank(s)", nullptr,
                           static_cast<int>(total) - static_cast<int>(named))
        .arg(list);
}

// The ranks waiting for a slow rank that the finding names: all of them in rank order when they are few,
// else the kNamedRanks whose not-overlapped communication in that step is the longest, longest first.
std::vector<int> namedWaiters(const cluster::ClusterModel &model, const cluster::SlowRank &s)
{
    if (s.waiting.size() <= kNamedRanks)
        return s.waiting;
    std::map<int, TimeNs> communication;
    for (const cluster::Rank &r : model.ranks)
        for (const cluster::RankStep &step : r.steps)
            if (step.step == s.step)
                communication[r.rank] = step.communicationNotOverlapped;
    std::vector<int> named = s.waiting;
    std::stable_sort(named.begin(), named.end(),
                     [&](int a, int b) { return communication[a] > communication[b]; });
    named.resize(kNamedRanks);
    return named;
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

// findSlowRanks gives one entry per slow rank and step: the explanation counts ranks.
int distinctRanks(const std::vector<cluster::SlowRank> &slow)
{
    std::set<int> ranks;
    for (const cluster::SlowRank &s : slow)
        ranks.insert(s.rank);
    return static_cast<int>(ranks.size());
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
        for (int r : namedWaiters(*context.cluster, s))
            waiting.append(r);
        list.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(s.step)},
                                {QStringLiteral("rank"), s.rank},
                                {QStringLiteral("compared_with"), s.group},
                                {QStringLiteral("dimension"), cluster::dimensionKey(s.dimension)},
                                {QStringLiteral("gap_us"), toUs(s.gap)},
                                {QStringLiteral("waiting_ranks"), waiting},
                                {QStringLiteral("waiting_count"), static_cast<int>(s.waiting.size())}});
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
            nullptr, distinctRanks(slow))
            .arg(worst.rank)
            .arg(toUs(worst.gap) / 1000.0, 0, 'f', 3)
            .arg(dimensionText(worst.dimension), worst.group);
    // Only the ranks the data shows waiting (their communication is longer than the slow rank's) are named.
    if (!worst.waiting.empty()) {
        QStringList waiting;
        for (int r : namedWaiters(*context.cluster, worst))
            waiting << QString::number(r);
        finding.explanation += QLatin1Char(' ') + InsightText::tr("Ranks %1 communicate longer in that step: "
                                                                  "they wait for it in their collectives.")
                                                      .arg(namedRanksText(waiting, worst.waiting.size()));
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
    std::optional<std::vector<cluster::SlowLink>> own;
    const std::vector<cluster::SlowLink> &links =
        context.slowLinks ? *context.slowLinks : own.emplace(cluster::findSlowLinks(*context.cluster));
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
    std::optional<std::vector<cluster::CollectiveWait>> own;
    const std::vector<cluster::CollectiveWait> &waits =
        context.collectiveWaits ? *context.collectiveWaits
                                : own.emplace(cluster::findWaits(*context.cluster));
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
                               .arg(stepText(w.step), w.op, namedRanksText(waiting, w.waiting.size()))
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

namespace {

// The cluster page opens the ranks of an occurrence side by side: a large group is cut to this many.
constexpr std::size_t kMaxRanksOpened = 8;

QString testText(cluster::OutlierTest test)
{
    return test == cluster::OutlierTest::ThreeSigma ? InsightText::tr("3σ")
                                                    : InsightText::tr("Dixon Q at 99.5 %");
}

QString ranksText(const std::vector<int> &ranks)
{
    QStringList list;
    for (int r : ranks)
        list << QString::number(r);
    return list.join(QStringLiteral(", "));
}

QJsonArray ranksJson(const std::vector<int> &ranks)
{
    QJsonArray array;
    for (int r : ranks)
        array.append(r);
    return array;
}

} // namespace

void checkSlowRankVote(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || context.cluster->ranks.size() < 3)
        return;
    std::optional<cluster::SlowRankVoting> own;
    const cluster::SlowRankVoting &voting = context.slowRankVoting
                                                ? *context.slowRankVoting
                                                : own.emplace(cluster::voteSlowRanks(*context.cluster));
    if (voting.votes.empty())
        return;
    Finding finding;
    // The late arriver costs the others their wait inside the voted ops (Wait Time of communication.json):
    // a rank waits in its ops one after another, the ranks side by side, so per step the time at stake is
    // the largest of the ranks' summed waits.
    std::map<std::pair<std::int64_t, int>, TimeNs> waitOfRank;
    std::map<int, TimeNs> waitAllSteps;
    QJsonArray collectives;
    for (const cluster::TestedCollective &c : voting.collectives) {
        if (c.voted.empty())
            continue;
        for (std::size_t i = 0; i < c.ranks.size(); ++i) {
            const int rank = c.ranks[i];
            if (std::find(c.voted.begin(), c.voted.end(), rank) != c.voted.end())
                continue;
            waitOfRank[{c.step, rank}] += c.waits[i];
            waitAllSteps[rank] += c.waits[i];
        }
        std::vector<int> ranks = c.voted;
        if (c.longestWaiter >= 0)
            ranks.push_back(c.longestWaiter);
        FindingOccurrence o = stepOccurrence(
            context, c.voted.front(), c.step,
            InsightText::tr("%1%2 (%3): rank %4 %5 ms against a mean of %6 ms over %7 ranks, %8 = %9 > %10; "
                            "the other ranks waited %11 ms in all, rank %12 longest")
                .arg(stepText(c.step), c.op, cluster::groupLabel(*context.cluster, c.group))
                .arg(c.voted.front())
                .arg(msText(c.votedElapse), msText(c.meanElapse))
                .arg(c.ranks.size())
                .arg(c.result.test == cluster::OutlierTest::ThreeSigma ? QStringLiteral("z")
                                                                       : QStringLiteral("Q"))
                .arg(c.result.statistic, 0, 'f', 3)
                .arg(c.result.critical, 0, 'f', 3)
                .arg(msText(c.othersWait))
                .arg(c.longestWaiter),
            c.longestWait, std::move(ranks));
        o.op = c.op;
        finding.occurrences.push_back(std::move(o));
        collectives.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(c.step)},
                                       {QStringLiteral("op"), c.op},
                                       {QStringLiteral("group"), c.group},
                                       {QStringLiteral("test"), cluster::outlierTestKey(c.result.test)},
                                       {QStringLiteral("ranks"), static_cast<int>(c.ranks.size())},
                                       {QStringLiteral("voted"), ranksJson(c.voted)},
                                       {QStringLiteral("statistic"), c.result.statistic},
                                       {QStringLiteral("critical"), c.result.critical},
                                       {QStringLiteral("voted_elapse_us"), toUs(c.votedElapse)},
                                       {QStringLiteral("mean_elapse_us"), toUs(c.meanElapse)},
                                       {QStringLiteral("others_wait_us"), toUs(c.othersWait)}});
    }
    PerStepLargest atStake;
    for (const auto &[key, wait] : waitOfRank)
        atStake.add(key.first, wait);
    finding.timeAtStake = atStake.total();
    keepLongest(finding.occurrences, kMaxOccurrences);

    const cluster::RankGroupVotes &top = voting.votes.front();
    cluster::OutlierTest test = cluster::OutlierTest::Dixon;
    for (const cluster::TestedCollective &c : voting.collectives)
        if (c.group == top.group) {
            test = c.result.test;
            break;
        }
    const QString group = cluster::groupLabel(*context.cluster, top.group);
    finding.title = InsightText::tr("Rank %1 voted slow in %2 of %3 collectives of group %4 (%5)")
                        .arg(top.rank)
                        .arg(top.votes)
                        .arg(top.collectives)
                        .arg(group, testText(test));
    // The time is spent by the ranks that wait: the finding is measured against the one that waited most.
    const auto mostWaiting =
        std::max_element(waitAllSteps.begin(), waitAllSteps.end(),
                         [](const auto &a, const auto &b) { return a.second < b.second; });
    finding.rank = mostWaiting != waitAllSteps.end() ? mostWaiting->first : top.rank;
    finding.part = StepPart::CommunicationNotOverlapped;
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    QStringList others;
    for (std::size_t i = 1; i < voting.votes.size(); ++i)
        others << InsightText::tr("rank %1: %2 of %3 in %4")
                      .arg(voting.votes[i].rank)
                      .arg(voting.votes[i].votes)
                      .arg(voting.votes[i].collectives)
                      .arg(cluster::groupLabel(*context.cluster, voting.votes[i].group));
    finding.explanation =
        InsightText::tr("msprof-analyze's slow-rank vote: in each collective of a group (send/receive and "
                        "groups whose ranks have unequal op counts left out) the rank whose op time "
                        "(Elapse Time) is abnormally short arrived last, the others waited for it inside "
                        "the op; Dixon's Q-test at 99.5 % up to %1 ranks, 3σ above. Rank %2 got %3 vote(s) "
                        "in the %4 collectives of group %5 tested; in those ops the other ranks waited "
                        "%6 ms (Σ Wait Time), rank %7 longest.")
            .arg(cluster::kDixonMaxRanks)
            .arg(top.rank)
            .arg(top.votes)
            .arg(top.collectives)
            .arg(group, msText(top.othersWait))
            .arg(finding.rank);
    if (!others.isEmpty())
        finding.explanation +=
            QLatin1Char(' ') + InsightText::tr("Also voted: %1.").arg(others.join(QStringLiteral("; ")));
    finding.fix = InsightText::tr("Open the voted rank and a waiting rank at the op (double-click the "
                                  "occurrence on the cluster page) and compare what each ran before the "
                                  "collective: the voted rank computed longer, its host dispatched later, or "
                                  "it was held by another collective.");
    QJsonArray votes;
    for (const cluster::RankGroupVotes &v : voting.votes)
        votes.append(QJsonObject{{QStringLiteral("rank"), v.rank},
                                 {QStringLiteral("group"), v.group},
                                 {QStringLiteral("votes"), v.votes},
                                 {QStringLiteral("collectives"), v.collectives},
                                 {QStringLiteral("others_wait_us"), toUs(v.othersWait)}});
    QJsonArray leftOut;
    for (const QString &g : voting.leftOutGroups)
        leftOut.append(g);
    finding.data = QJsonObject{{QStringLiteral("votes"), votes},
                               {QStringLiteral("collectives"), collectives},
                               {QStringLiteral("confidence"), 0.995},
                               {QStringLiteral("dixon_max_ranks"), cluster::kDixonMaxRanks},
                               {QStringLiteral("sigma_threshold"), cluster::kSigmaThreshold},
                               {QStringLiteral("left_out_groups"), leftOut},
                               {QStringLiteral("left_out_p2p"), voting.leftOutP2p}};
    findings.push_back(std::move(finding));
}

void checkSlowLinkTransit(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || context.cluster->ranks.size() < 2)
        return;
    std::optional<cluster::SlowLinkTransit> own;
    const cluster::SlowLinkTransit &transit = context.slowLinkTransit
                                                  ? *context.slowLinkTransit
                                                  : own.emplace(cluster::findSlowTransits(*context.cluster));
    if (transit.slow.empty())
        return;
    Finding finding;
    QJsonArray slow;
    PerStepLargest atStake;
    for (const cluster::SlowTransit &s : transit.slow) {
        const cluster::TransitSet &set = transit.sets[s.set];
        atStake.add(s.op.step, s.excess);
        // The rank whose op time is the transit time first, then the others of the group.
        std::vector<int> ranks{s.op.transitRank};
        for (int r : s.op.ranks)
            if (r != s.op.transitRank && ranks.size() < kMaxRanksOpened)
                ranks.push_back(r);
        FindingOccurrence o = stepOccurrence(
            context, s.op.transitRank, s.op.step,
            InsightText::tr("%1%2 (%3, ranks %4): transit %5 ms against a mean of %6 ms over %7 ops, z = %8")
                .arg(stepText(s.op.step), s.op.op, cluster::groupLabel(*context.cluster, s.op.group),
                     ranksText(s.op.ranks), msText(s.op.transit),
                     msText(static_cast<TimeNs>(std::llround(set.mean))))
                .arg(set.ops.size())
                .arg(s.z, 0, 'f', 2),
            s.excess, std::move(ranks));
        o.op = s.op.op;
        finding.occurrences.push_back(std::move(o));
        slow.append(QJsonObject{{QStringLiteral("step"), static_cast<double>(s.op.step)},
                                {QStringLiteral("op"), s.op.op},
                                {QStringLiteral("group"), s.op.group},
                                {QStringLiteral("ranks"), ranksJson(s.op.ranks)},
                                {QStringLiteral("transit_rank"), s.op.transitRank},
                                {QStringLiteral("transit_us"), toUs(s.op.transit)},
                                {QStringLiteral("mean_us"), set.mean / 1000.0},
                                {QStringLiteral("sigma_us"), set.sigma / 1000.0},
                                {QStringLiteral("z"), s.z},
                                {QStringLiteral("op_type"), set.opType},
                                {QStringLiteral("data_bytes"), static_cast<double>(set.dataBytes)},
                                {QStringLiteral("related_ranks"), set.relatedRanks},
                                {QStringLiteral("ops_in_set"), static_cast<int>(set.ops.size())},
                                {QStringLiteral("offset_ratio"), set.offsetRatio}});
    }
    finding.timeAtStake = atStake.total();
    keepLongest(finding.occurrences, kMaxOccurrences);
    const cluster::SlowTransit &worst = transit.slow.front(); // largest z
    const cluster::TransitSet &set = transit.sets[worst.set];
    finding.rank = worst.op.transitRank;
    finding.part = StepPart::CommunicationNotOverlapped;
    finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
    finding.title = InsightText::tr("Slow link by transit time: %1 in group %2")
                        .arg(worst.op.op, cluster::groupLabel(*context.cluster, worst.op.group));
    finding.explanation =
        InsightText::tr("msprof-analyze's slow-link rule: an op's transit time is the shortest op time "
                        "(Elapse Time) over its group's ranks, the time of the rank that waited for no one; "
                        "ops of the same kind, data size and number of ranks should transfer alike, and a "
                        "transit time more than %1σ above their mean marks a slow link. %n op(s) found. "
                        "The largest: %2 on ranks %3 took %4 ms against a mean of %5 ms over %6 %7 ops of "
                        "%8 MB on %9 ranks (z = %10).",
                        nullptr, static_cast<int>(transit.slow.size()))
            .arg(cluster::kTransitZThreshold, 0, 'f', 0)
            .arg(worst.op.op, ranksText(worst.op.ranks), msText(worst.op.transit),
                 msText(static_cast<TimeNs>(std::llround(set.mean))))
            .arg(set.ops.size())
            .arg(set.opType)
            .arg(static_cast<double>(set.dataBytes) / 1e6, 0, 'f', 3)
            .arg(set.relatedRanks)
            .arg(worst.z, 0, 'f', 2);
    finding.fix =
        InsightText::tr("Open the op's ranks at the op and check the links between them (HCCS / RDMA "
                        "port errors, a link running at reduced width, traffic from other jobs) and "
                        "the communication matrix of that step.");
    QJsonArray sets;
    for (const cluster::TransitSet &t : transit.sets)
        sets.append(QJsonObject{{QStringLiteral("op_type"), t.opType},
                                {QStringLiteral("data_bytes"), static_cast<double>(t.dataBytes)},
                                {QStringLiteral("related_ranks"), t.relatedRanks},
                                {QStringLiteral("ops"), static_cast<int>(t.ops.size())},
                                {QStringLiteral("mean_us"), t.mean / 1000.0},
                                {QStringLiteral("min_us"), toUs(t.min)},
                                {QStringLiteral("max_us"), toUs(t.max)},
                                {QStringLiteral("offset_ratio"), t.offsetRatio},
                                {QStringLiteral("min_rank"), t.minRank},
                                {QStringLiteral("max_rank"), t.maxRank}});
    finding.data = QJsonObject{{QStringLiteral("slow"), slow},
                               {QStringLiteral("sets"), sets},
                               {QStringLiteral("z_threshold"), cluster::kTransitZThreshold}};
    findings.push_back(std::move(finding));
}

namespace {

// A rank at twice its EP group's mean tokens does the work of two: the finding is high from there (viewer's
// choice, docs/INSIGHTS.md), medium from cluster::kMoeMaxOverMeanThreshold.
constexpr double kMoeHighMaxOverMean = 2.0;

// The opened ranks of a MoE load occurrence: the most loaded rank, then the least loaded of its group.
std::vector<int> mostAndLeast(const cluster::MoeGroupStep &s)
{
    std::vector<int> ranks{s.mostLoaded};
    if (s.leastLoaded >= 0 && s.leastLoaded != s.mostLoaded)
        ranks.push_back(s.leastLoaded);
    return ranks;
}

// The kernel name of the most loaded rank's heaviest grouped-matmul call in the step (the op to open at).
QString heaviestCall(const cluster::ClusterModel &model, const cluster::MoeGroupStep &s)
{
    if (const cluster::Rank *rank = model.rank(s.mostLoaded))
        for (const cluster::GroupedMatmulStep &g : rank->groupedMatmul)
            if (g.step == s.step)
                return g.largestName;
    return {};
}

QJsonObject moeGroupStepJson(const cluster::MoeLoad &load, const cluster::MoeGroupStep &s)
{
    return QJsonObject{{QStringLiteral("step"), static_cast<double>(s.step)},
                       {QStringLiteral("group"), load.groups[static_cast<std::size_t>(s.group)].name},
                       {QStringLiteral("most_loaded_rank"), s.mostLoaded},
                       {QStringLiteral("least_loaded_rank"), s.leastLoaded},
                       {QStringLiteral("max_tokens"), static_cast<double>(s.maxTokens)},
                       {QStringLiteral("min_tokens"), static_cast<double>(s.minTokens)},
                       {QStringLiteral("mean_tokens"), s.meanTokens},
                       {QStringLiteral("max_over_mean"), s.maxOverMean},
                       {QStringLiteral("cv"), s.coefficientOfVariation},
                       {QStringLiteral("excess_us"), toUs(s.excessTime())}};
}

QJsonObject commBoundJson(const cluster::CommBoundResult &r)
{
    QJsonObject o{{QStringLiteral("step"), static_cast<double>(r.op.step)},
                  {QStringLiteral("op"), r.op.op},
                  {QStringLiteral("group"), r.op.group},
                  {QStringLiteral("fast_rank"), r.op.fastRank},
                  {QStringLiteral("slow_rank"), r.op.slowRank},
                  {QStringLiteral("gap_us"), toUs(r.op.gap())},
                  {QStringLiteral("fast_wait_us"), toUs(r.op.fastWait)},
                  {QStringLiteral("verdict"), cluster::commBoundVerdictKey(r.verdict)},
                  {QStringLiteral("latency_us"), toUs(r.latency)},
                  {QStringLiteral("reason"), r.reason}};
    return o;
}

// One examined op as an occurrence: the slow rank and the fast rank opened on one timeline at the op.
FindingOccurrence commBoundOccurrence(const InsightContext &context, const cluster::CommBoundResult &r)
{
    // The host- and device-bound reasons start with their verdict; an undetermined one says why.
    const QString verdict =
        r.verdict == cluster::CommBoundVerdict::Undetermined
            ? InsightText::tr("%1: %2").arg(cluster::commBoundVerdictText(r.verdict), r.reason)
            : r.reason;
    FindingOccurrence o = stepOccurrence(
        context, r.op.slowRank, r.op.step,
        InsightText::tr("%1%2 (%3): rank %4 arrived %5 ms after rank %6 — %7")
            .arg(stepText(r.op.step), r.op.op, cluster::groupLabel(*context.cluster, r.op.group))
            .arg(r.op.slowRank)
            .arg(msText(r.op.gap()))
            .arg(r.op.fastRank)
            .arg(verdict),
        r.claimed(), {r.op.slowRank, r.op.fastRank});
    o.op = r.op.op;
    return o;
}

} // namespace

void checkMoeLoad(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster)
        return;
    const cluster::MoeLoad load = cluster::moeLoad(*context.cluster);
    std::vector<const cluster::MoeGroupStep *> flagged;
    for (const cluster::MoeGroupStep &s : load.groupSteps)
        if (s.maxOverMean > cluster::kMoeMaxOverMeanThreshold)
            flagged.push_back(&s);
    if (flagged.empty())
        return;
    Finding finding;
    QJsonArray list;
    PerStepLargest atStake; // the groups of a step run side by side
    for (const cluster::MoeGroupStep *s : flagged) {
        atStake.add(s->step, s->excessTime());
        FindingOccurrence o = stepOccurrence(
            context, s->mostLoaded, s->step,
            InsightText::tr("%1rank %2: %3 tokens, %4 × the mean of %5 (least: rank %6, %7 tokens)")
                .arg(stepText(s->step))
                .arg(s->mostLoaded)
                .arg(s->maxTokens)
                .arg(s->maxOverMean, 0, 'f', 2)
                .arg(load.groups[static_cast<std::size_t>(s->group)].name)
                .arg(s->leastLoaded)
                .arg(s->minTokens),
            s->excessTime(), mostAndLeast(*s));
        o.op = heaviestCall(*context.cluster, *s);
        finding.occurrences.push_back(std::move(o));
        list.append(moeGroupStepJson(load, *s));
    }
    finding.timeAtStake = atStake.total();
    keepLongest(finding.occurrences, kMaxOccurrences);
    const cluster::MoeGroupStep &worst =
        **std::max_element(flagged.begin(), flagged.end(),
                           [](const auto *a, const auto *b) { return a->maxOverMean < b->maxOverMean; });
    const QString group = load.groups[static_cast<std::size_t>(worst.group)].name;
    finding.title = InsightText::tr("MoE load imbalance: rank %1 gets %2 × the mean tokens of %3")
                        .arg(worst.mostLoaded)
                        .arg(worst.maxOverMean, 0, 'f', 2)
                        .arg(group);
    finding.rank = worst.mostLoaded;
    finding.part = StepPart::Computing;
    finding.severity = worst.maxOverMean >= kMoeHighMaxOverMean ? Severity::High : Severity::Medium;
    finding.explanation =
        InsightText::tr("The tokens routed to each rank's experts (the first input dimension of its "
                        "GroupedMatmul kernels, summed per step) are uneven in %n step(s) of an "
                        "expert-parallel group: above %1 × the group's mean. The worst: %2rank %3 got %4 "
                        "tokens against a mean of %5 (rank %6 the least, %7; coefficient of variation %8); "
                        "its grouped matmuls took %9 ms more than the group's mean, which the others wait "
                        "for in the next all-to-all.",
                        nullptr, static_cast<int>(flagged.size()))
            .arg(cluster::kMoeMaxOverMeanThreshold, 0, 'f', 2)
            .arg(stepText(worst.step))
            .arg(worst.mostLoaded)
            .arg(worst.maxTokens)
            .arg(worst.meanTokens, 0, 'f', 0)
            .arg(worst.leastLoaded)
            .arg(worst.minTokens)
            .arg(worst.coefficientOfVariation, 0, 'f', 3)
            .arg(msText(worst.excessTime()));
    finding.fix =
        InsightText::tr("Balance the router: raise the auxiliary load-balancing loss coefficient "
                        "or use aux-loss-free bias balancing, set an expert capacity factor (token "
                        "dropping), or re-place hot experts (redundant experts on the loaded rank's "
                        "peers); open the most and the least loaded rank at the op to compare.");
    finding.data = QJsonObject{{QStringLiteral("imbalanced"), list},
                               {QStringLiteral("max_over_mean_threshold"), cluster::kMoeMaxOverMeanThreshold},
                               {QStringLiteral("high_max_over_mean"), kMoeHighMaxOverMean}};
    findings.push_back(std::move(finding));
}

void checkCommBound(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster || !context.commBound || context.commBound->ops.empty())
        return;
    const cluster::CommBoundAnalysis &analysis = *context.commBound;
    Finding finding;
    QJsonArray ops;
    PerStepLargest atStake;
    std::map<int, TimeNs> waitOf; // the claimed time per waiting (fast) rank
    int host = 0, device = 0;
    for (const cluster::CommBoundResult &r : analysis.ops) {
        host += r.verdict == cluster::CommBoundVerdict::HostBound ? 1 : 0;
        device += r.verdict == cluster::CommBoundVerdict::DeviceBound ? 1 : 0;
        atStake.add(r.op.step, r.claimed());
        waitOf[r.op.fastRank] += r.claimed();
        finding.occurrences.push_back(commBoundOccurrence(context, r));
        ops.append(commBoundJson(r));
    }
    finding.timeAtStake = atStake.total();
    keepLongest(finding.occurrences, kMaxOccurrences);
    const cluster::CommBoundResult &first =
        *std::max_element(analysis.ops.begin(), analysis.ops.end(),
                          [](const auto &a, const auto &b) { return a.claimed() < b.claimed(); });
    // The time is the fast rank's wait: the finding is measured against the rank that waited most.
    finding.rank = std::max_element(waitOf.begin(), waitOf.end(), [](const auto &a, const auto &b) {
                       return a.second < b.second;
                   })->first;
    finding.part = StepPart::CommunicationNotOverlapped;
    finding.severity = finding.timeAtStake > 0
                           ? severityForPercent(context.percentOfSteps(finding.timeAtStake))
                           : Severity::Low;
    finding.title = InsightText::tr("Late arrivals at collectives: %1 host-bound, %2 device-bound of %3 ops")
                        .arg(host)
                        .arg(device)
                        .arg(analysis.ops.size());
    finding.explanation =
        InsightText::tr(
            "For the %1 longest communication ops whose fastest and slowest rank differ by more than "
            "%2 % (of %3 such ops), the two ranks' timelines were compared at the op's end (a "
            "collective ends together on every rank): the slow rank is host-bound when its host "
            "launched the op after the fast rank had arrived while its stream was free, device-bound "
            "when its stream ran the tasks before the op past that arrival; a cause must explain at "
            "least half the gap. The largest: %4")
            .arg(analysis.ops.size())
            .arg(100.0 * cluster::kCommBoundGapShare, 0, 'f', 0)
            .arg(analysis.opsWithGap)
            .arg(first.reason);
    finding.fix =
        InsightText::tr("Host-bound: shorten what the slow rank's host does before the collective (CPU "
                        "binding, data loading, Python overhead, the task queue); device-bound: balance "
                        "the work before the collective (uneven shapes, a slower device); undetermined: "
                        "collect what the reason names.");
    finding.data = QJsonObject{{QStringLiteral("ops"), ops},
                               {QStringLiteral("gap_share"), cluster::kCommBoundGapShare},
                               {QStringLiteral("explained_share"), cluster::kCommBoundExplainedShare},
                               {QStringLiteral("ops_with_gap"), analysis.opsWithGap}};
    findings.push_back(std::move(finding));
}

std::vector<Finding> clusterFindings(const InsightContext &context)
{
    // The cluster page's order: the stage split first (it explains the gaps after it), then the ranks, the
    // reference rule, the links and the waits.
    const std::pair<const char *, InsightCheckFunction> checks[] = {
        {"stage_imbalance", checkStageImbalance},
        {"slow_rank", checkSlowRank},
        {"slow_rank_vote", checkSlowRankVote},
        {"plain_rule", checkPlainRule},
        {"slow_link", checkSlowLink},
        {"slow_link_transit", checkSlowLinkTransit},
        {"collective_wait", checkCollectiveWait},
        {"comm_bound", checkCommBound},
        {"moe_load", checkMoeLoad},
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
