// What each finding explains (issue #28 item 2, docs/INSIGHTS.md "What a finding explains"): the rank it
// names, the part of that rank's step, and a time that never counts an interval of the part twice nor
// sums past the part.

#include "ExactText.h"
#include "FindingText.h"
#include "InsightChecks.h"
#include "InsightSupport.h"

#include "Steps.h"

#include <QJsonArray>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace at {

using namespace insights;

namespace {

// The rest of a rank's largest part gets an unexplained_part finding from this share of its step.
constexpr double kUnexplainedMinShareOfStep = 0.01;

struct CheckRule
{
    const char *id;
    StepPart part;
};

// The part each check explains (a check may set another, e.g. slow_rank's dimension) in precedence order
// within the part: specific, measured causes claim their intervals before the broader findings that take
// what is left (exposed_communication, host_bound).
const std::vector<CheckRule> &checkRules()
{
    static const std::vector<CheckRule> rules = {
        {"rdma_retransmission", StepPart::CommunicationNotOverlapped},
        {"stage_imbalance", StepPart::CommunicationNotOverlapped},
        {"slow_rank", StepPart::CommunicationNotOverlapped},
        {"slow_rank_vote", StepPart::CommunicationNotOverlapped}, // the others' wait for the voted rank
        {"comm_bound", StepPart::CommunicationNotOverlapped}, // the wait a late launch / busy stream caused
        {"slow_link", StepPart::CommunicationNotOverlapped},
        {"slow_link_transit", StepPart::CommunicationNotOverlapped},
        {"collective_wait", StepPart::CommunicationNotOverlapped},
        {"plain_rule", StepPart::CommunicationNotOverlapped},
        {"byte_alignment", StepPart::CommunicationNotOverlapped},
        {"small_packets", StepPart::CommunicationNotOverlapped},
        {"exposed_communication", StepPart::CommunicationNotOverlapped},
        {"synchronize", StepPart::Free},
        {"slow_dataloader", StepPart::Free},
        {"dynamic_shape", StepPart::Free},
        {"operator_compile", StepPart::Free},
        {"idle_attribution", StepPart::Free},
        {"host_bound", StepPart::Free},
        {"host_data_missing", StepPart::Free},
        {"launch_delay", StepPart::Free},
        {"aicpu", StepPart::Computing},
        {"moe_load", StepPart::Computing}, // the loaded rank's grouped-matmul time above its group's mean
        {"bandwidth_contention", StepPart::Computing}, // the MatMul time an SDMA transfer overlaps
        {"aicore_frequency", StepPart::Computing},
        {"block_dim", StepPart::Computing},
        {"operator_no_bound", StepPart::Computing},
        {"sync_batch_norm", StepPart::Computing},
        {"affinity_optimizer", StepPart::Computing},
        {"kernel_sequences", StepPart::Computing},
        {"memory_churn", StepPart::Memory},
    };
    return rules;
}

StepPart defaultPart(const QString &check)
{
    for (const CheckRule &rule : checkRules())
        if (check == QLatin1String(rule.id))
            return rule.part;
    return StepPart::Unknown;
}

bool isTimePart(StepPart part)
{
    return part == StepPart::Computing || part == StepPart::CommunicationNotOverlapped ||
           part == StepPart::Free;
}

// A part's region per group, built once (partRegion()).
class PartRegions
{
public:
    explicit PartRegions(const TraceModel &model) : m_model(model) {}

    // The segments of [begin, end) inside the part's region of the group; the whole interval when the
    // region is unknown.
    std::vector<Interval> within(int group, StepPart part, TimeNs begin, TimeNs end)
    {
        const auto key = std::make_pair(group, part);
        auto it = m_regions.find(key);
        if (it == m_regions.end())
            it = m_regions.emplace(key, partRegion(m_model, group, part)).first;
        if (!it->second)
            return {{begin, end}};
        if (it->second->empty())
            return {}; // the part is empty: nothing of it to claim
        return idleSegments({}, *it->second, begin, end);
    }

private:
    const TraceModel &m_model;
    std::map<std::pair<int, StepPart>, std::optional<std::vector<Interval>>> m_regions;
};

// The one rank a finding without a rank of its own is about: that of all its occurrences, or the only
// rank loaded; -1 when it spans several.
int rankOfOccurrences(const InsightContext &context, const Finding &f)
{
    std::set<int> ranks;
    for (const FindingOccurrence &o : f.occurrences)
        ranks.insert(context.rankOf(o));
    if (ranks.size() == 1)
        return *ranks.begin();
    if (ranks.empty() && context.ranks.size() == 1)
        return context.ranks.front().rank;
    return -1;
}

// A finding whose pieces lie on several ranks becomes one finding per rank.
void splitByRank(const InsightContext &context, Finding &&f, std::vector<Finding> &out)
{
    if (f.rank >= 0 || f.pieces.empty()) {
        if (f.rank < 0)
            f.rank = rankOfOccurrences(context, f);
        out.push_back(std::move(f));
        return;
    }
    std::map<int, std::vector<Finding::Piece>> byGroup;
    for (const Finding::Piece &p : f.pieces)
        byGroup[p.group].push_back(p);
    if (byGroup.size() == 1) {
        f.rank = context.rankOfGroup(byGroup.begin()->first);
        out.push_back(std::move(f));
        return;
    }
    for (auto &[group, pieces] : byGroup) {
        Finding one = f;
        one.rank = context.rankOfGroup(group);
        one.timeAtStake = 0;
        for (const Finding::Piece &p : pieces)
            one.timeAtStake += p.time;
        one.timeAtStake = std::min(one.timeAtStake, f.timeAtStake);
        one.pieces = std::move(pieces);
        one.occurrences.clear();
        for (const FindingOccurrence &o : f.occurrences)
            if (context.rankOf(o) == one.rank)
                one.occurrences.push_back(o);
        one.data.insert(QStringLiteral("all_ranks_us"), toUs(f.timeAtStake));
        // The check's own words count every rank loaded; this finding is one rank's share.
        one.explanation += QLatin1Char(' ') + InsightText::tr("(These numbers are over the %1 ranks loaded; "
                                                              "this finding counts rank %2's time.)")
                                                  .arg(byGroup.size())
                                                  .arg(one.rank);
        out.push_back(std::move(one));
    }
}

void setDenominators(const InsightContext &context, Finding &f)
{
    if (const RankStepParts *parts = context.partsOfRank(f.rank)) {
        f.partTime = parts->part(f.part);
        f.stepTime = parts->step;
        return;
    }
    // About no single rank: the sums over the ranks.
    f.partTime = 0;
    f.stepTime = 0;
    for (const RankStepParts &r : context.ranks) {
        f.partTime += r.part(f.part);
        f.stepTime += r.step;
    }
    if (f.stepTime <= 0)
        f.stepTime = context.stepTime;
}

bool hasKnownParts(const InsightContext &context, int rank)
{
    if (const RankStepParts *parts = context.partsOfRank(rank))
        return parts->hasParts;
    return !context.ranks.empty() && std::all_of(context.ranks.begin(), context.ranks.end(),
                                                 [](const RankStepParts &r) { return r.hasParts; });
}

struct PartLedger
{
    IntervalSet claimed;
    TimeNs total = 0;
};

// Counts the finding's time once within its rank's part: its pieces inside the part's region and not yet
// claimed by a finding of higher precedence, then no more than what is left of the part.
void claim(const InsightContext &context, PartRegions &regions, PartLedger &ledger, Finding &f)
{
    const TimeNs measured = f.timeAtStake;
    TimeNs time = measured;
    TimeNs inside = measured; // what of it lies inside the part's region
    if (!f.pieces.empty()) {
        std::sort(f.pieces.begin(), f.pieces.end(),
                  [](const Finding::Piece &a, const Finding::Piece &b) { return a.begin < b.begin; });
        TimeNs insideSum = 0, openSum = 0;
        for (const Finding::Piece &p : f.pieces) {
            TimeNs length = 0, open = 0;
            for (const Interval &segment : regions.within(p.group, f.part, p.begin, p.end)) {
                length += segment.second - segment.first;
                open += ledger.claimed.uncovered(segment.first, segment.second);
                ledger.claimed.add(segment.first, segment.second);
            }
            insideSum += std::min(p.time, length);
            openSum += std::min(p.time, open);
        }
        inside = std::min(measured, insideSum);
        time = std::min(measured, openSum);
    }
    const TimeNs counted = time;
    if (hasKnownParts(context, f.rank))
        time = std::clamp<TimeNs>(f.partTime - ledger.total, 0, time);
    ledger.total += time;
    f.timeAtStake = time;
    if (time < measured) {
        f.data.insert(QStringLiteral("measured_us"), toUs(measured));
        if (inside < measured)
            f.data.insert(QStringLiteral("outside_part_us"), toUs(measured - inside));
        if (counted < inside)
            f.data.insert(QStringLiteral("already_counted_us"), toUs(inside - counted));
        if (time < counted)
            f.data.insert(QStringLiteral("clipped_to_part_us"), toUs(counted - time));
        // Never more severe than the share of the step the finding still explains.
        if (f.stepTime > 0)
            f.severity = std::max(f.severity, severityForPercent(100.0 * f.shareOfStep()));
    }
}

Finding unexplainedFinding(const RankStepParts &rank, StepPart part, TimeNs rest, TimeNs explained)
{
    Finding f;
    f.check = QStringLiteral("unexplained_part");
    f.part = part;
    f.rank = rank.rank;
    f.partTime = rank.part(part);
    f.stepTime = rank.step;
    f.timeAtStake = rest;
    f.severity = Severity::Low;
    // Times as the time at stake is written (durationText): "440.895 ms", "822.980 µs".
    f.title = InsightText::tr("Rank %1: %2 of %3 that no check explains")
                  .arg(rank.rank)
                  .arg(durationText(rest), stepPartText(part));
    f.explanation =
        InsightText::tr("The largest part of rank %1's step is %2: %3 of %4. The checks explain %5 of "
                        "it; no check explains the other %6.")
            .arg(rank.rank)
            .arg(stepPartText(part), durationText(f.partTime), durationText(rank.step),
                 durationText(explained), durationText(rest));
    switch (part) {
    case StepPart::Computing:
        f.fix = InsightText::tr("Open the Kernels panel sorted by total time: the longest kernels are where "
                                "computing goes; compare their time with the expected FLOPs and bytes.");
        break;
    case StepPart::CommunicationNotOverlapped:
        f.fix = InsightText::tr("Open the rank's communication lanes and the cluster page: exposed "
                                "communication is transfer time or waiting for a slower rank.");
        break;
    default:
        f.fix = InsightText::tr("Look at the idle gaps of the device lanes and at what the host does during "
                                "them; collect the host side (CPU activity) if it is missing.");
        break;
    }
    f.data = QJsonObject{{QStringLiteral("part_us"), toUs(f.partTime)},
                         {QStringLiteral("explained_us"), toUs(explained)},
                         {QStringLiteral("min_share_of_step"), kUnexplainedMinShareOfStep}};
    return f;
}

// Findings that explain time first, most time first; then the unexplained rests; then the
// informational ones.
int rankClass(const Finding &f)
{
    if (f.check == QLatin1String("unexplained_part"))
        return 1;
    return f.timeAtStake > 0 ? 0 : 2;
}

} // namespace

int insightPrecedence(const QString &check)
{
    const auto &rules = checkRules();
    for (std::size_t i = 0; i < rules.size(); ++i)
        if (check == QLatin1String(rules[i].id))
            return static_cast<int>(i);
    return static_cast<int>(rules.size());
}

void describeFindings(const InsightContext &context, std::vector<Finding> &findings)
{
    std::vector<Finding> split;
    for (Finding &f : findings) {
        if (f.part == StepPart::Unknown)
            f.part = defaultPart(f.check);
        splitByRank(context, std::move(f), split);
    }
    findings = std::move(split);
    for (Finding &f : findings) {
        setDenominators(context, f);
        f.stepPercent = f.stepTime > 0 ? 100.0 * f.shareOfStep() : context.percentOfSteps(f.timeAtStake);
    }
}

void attributeFindings(const InsightContext &context, std::vector<Finding> &findings,
                       std::vector<Finding> *withoutTime)
{
    describeFindings(context, findings);
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        return insightPrecedence(a.check) < insightPrecedence(b.check);
    });
    PartRegions regions(context.model);
    std::map<std::pair<int, StepPart>, PartLedger> ledgers;
    std::vector<Finding> kept;
    for (Finding &f : findings) {
        const bool measured = isTimePart(f.part) && f.timeAtStake > 0;
        if (measured)
            claim(context, regions, ledgers[{f.rank, f.part}], f);
        f.pieces.clear();
        f.stepPercent = f.stepTime > 0 ? 100.0 * f.shareOfStep() : context.percentOfSteps(f.timeAtStake);
        // A measured time that another finding counts, or that lies outside the part: nothing to explain.
        if (measured && f.timeAtStake <= 0) {
            if (withoutTime)
                withoutTime->push_back(std::move(f));
            continue;
        }
        kept.push_back(std::move(f));
    }
    findings = std::move(kept);
    for (const RankStepParts &rank : context.ranks) {
        const StepPart largest = rank.largestPart();
        if (largest == StepPart::Unknown)
            continue;
        const auto ledger = ledgers.find({rank.rank, largest});
        const TimeNs explained = ledger == ledgers.end() ? 0 : ledger->second.total;
        const TimeNs rest = rank.part(largest) - explained;
        if (rest > 0 &&
            static_cast<double>(rest) >= kUnexplainedMinShareOfStep * static_cast<double>(rank.step)) {
            Finding f = unexplainedFinding(rank, largest, rest, explained);
            f.stepPercent = 100.0 * f.shareOfStep();
            findings.push_back(std::move(f));
        }
    }
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        if (rankClass(a) != rankClass(b))
            return rankClass(a) < rankClass(b);
        if (a.timeAtStake != b.timeAtStake)
            return a.timeAtStake > b.timeAtStake;
        return a.severity < b.severity;
    });
}

} // namespace at

namespace at::insights {

namespace {

const char *overlapLaneName(StepPart part)
{
    switch (part) {
    case StepPart::Computing:
        return "Computing";
    case StepPart::CommunicationNotOverlapped:
        return "Communication(Not Overlapped)";
    case StepPart::Free:
        return "Free";
    case StepPart::Memory:
    case StepPart::Unknown:
        break;
    }
    return "";
}

std::vector<Interval> depthZero(const TraceModel &model, int thread)
{
    std::vector<Interval> out;
    const SliceTable &slices = model.threads()[static_cast<std::size_t>(thread)].slices;
    if (slices.depthCount() == 0)
        return out;
    for (std::uint32_t i = slices.depthRange(0).first; i < slices.depthRange(0).second; ++i)
        out.push_back({slices.start(i), slices.end(i)});
    return out;
}

// Kernel-table compute rows of the group (not HCCL / communication ops).
std::vector<Interval> computeRows(const TraceModel &model, int group)
{
    std::vector<Interval> out;
    for (const KernelRecord &row : model.kernels().rows()) {
        if (row.group != group)
            continue;
        const QString core = model.strings().qstring(row.acceleratorCore);
        if (core.compare(QLatin1String("HCCL"), Qt::CaseInsensitive) == 0 ||
            core.compare(QLatin1String("COMMUNICATION"), Qt::CaseInsensitive) == 0 ||
            containsNoCase(model.strings().view(row.name), "hcom_"))
            continue;
        out.push_back({row.start, row.start + row.duration});
    }
    return mergeIntervals(std::move(out));
}

} // namespace

std::optional<std::vector<Interval>> partRegion(const TraceModel &model, int group, StepPart part)
{
    // 1. The Overlap Analysis lane of the part.
    std::vector<Interval> lane;
    bool hasLanes = false;
    for (int t = 0; t < static_cast<int>(model.threads().size()); ++t) {
        if (groupOfThread(model, t) != group || layerOfThread(model, t) != Layer::OverlapAnalysis)
            continue;
        hasLanes = true;
        if (model.threadDisplayName(t) == QLatin1String(overlapLaneName(part))) {
            const auto intervals = depthZero(model, t);
            lane.insert(lane.end(), intervals.begin(), intervals.end());
        }
    }
    if (hasLanes)
        return mergeIntervals(std::move(lane));
    // 2. Derived from the tasks.
    std::vector<Interval> compute = computeRows(model, group);
    if (part == StepPart::Computing)
        return compute.empty() ? std::nullopt : std::optional(compute);
    std::vector<Interval> windows;
    for (const Step &step : model.steps())
        if (step.group == group && step.stageEnd > step.stageBegin)
            windows.push_back({step.stageBegin, step.stageEnd});
    windows = mergeIntervals(std::move(windows));
    if (part == StepPart::CommunicationNotOverlapped) {
        if (compute.empty())
            return std::nullopt;
        // Not overlapped: outside every compute task (inside the steps when there are steps).
        if (windows.empty())
            windows.push_back(
                {std::numeric_limits<TimeNs>::min() / 2, std::numeric_limits<TimeNs>::max() / 2});
        return idleSegments(compute, windows, windows.front().first, windows.back().second);
    }
    if (part != StepPart::Free || windows.empty())
        return std::nullopt;
    // Free: inside the steps' stages, outside every device task and communication op.
    const auto busyByGroup = deviceBusyByGroup(model);
    std::vector<Interval> busy = group >= 0 && group < static_cast<int>(busyByGroup.size())
                                     ? busyByGroup[static_cast<std::size_t>(group)]
                                     : std::vector<Interval>{};
    for (int t : threadsOfLayers(model, {Layer::Communication})) {
        if (groupOfThread(model, t) != group || model.threadDisplayName(t).startsWith(QLatin1String("Plane")))
            continue;
        const auto intervals = depthZero(model, t);
        busy.insert(busy.end(), intervals.begin(), intervals.end());
    }
    return idleSegments(mergeIntervals(std::move(busy)), windows, windows.front().first,
                        windows.back().second);
}

} // namespace at::insights
