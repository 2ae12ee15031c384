#include "InsightChecks.h"

#include "Steps.h"

#include <algorithm>
#include <limits>
#include <map>

namespace at {

QString severityId(Severity severity)
{
    switch (severity) {
    case Severity::High:
        return QStringLiteral("high");
    case Severity::Medium:
        return QStringLiteral("medium");
    case Severity::Low:
        break;
    }
    return QStringLiteral("low");
}

QString stepPartId(StepPart part)
{
    switch (part) {
    case StepPart::Computing:
        return QStringLiteral("computing");
    case StepPart::CommunicationNotOverlapped:
        return QStringLiteral("communication_not_overlapped");
    case StepPart::Free:
        return QStringLiteral("free");
    case StepPart::Memory:
        return QStringLiteral("memory");
    case StepPart::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

Severity severityForPercent(double percent)
{
    if (percent >= kHighSeverityPercent)
        return Severity::High;
    if (percent >= kMediumSeverityPercent)
        return Severity::Medium;
    return Severity::Low;
}

namespace {

void addClusterSteps(RankStepParts &parts, const cluster::Rank &rank)
{
    for (const cluster::RankStep &s : rank.steps) {
        parts.computing += s.computing;
        parts.communicationNotOverlapped += s.communicationNotOverlapped;
        parts.free += s.free;
        parts.step += s.computing + s.communicationNotOverlapped + s.free;
        parts.hasParts = true;
    }
}

// Per source group: whether host-side lanes (framework, CANN API) hold slices, and the data span.
void scanGroups(const TraceModel &model, std::vector<RankStepParts> &ranks)
{
    std::vector<TimeNs> first(ranks.size(), std::numeric_limits<TimeNs>::max()), last(ranks.size(), 0);
    for (const ThreadInfo &thread : model.threads()) {
        const ProcessInfo &process = model.processes()[static_cast<std::size_t>(thread.process)];
        const auto g = static_cast<std::size_t>(process.group);
        if (g >= ranks.size() || thread.slices.size() == 0)
            continue;
        if (process.layer == Layer::Framework || process.layer == Layer::CannApi)
            ranks[g].hasHostData = true;
        for (std::uint32_t i = 0; i < thread.slices.size(); ++i) {
            first[g] = std::min(first[g], thread.slices.start(i));
            last[g] = std::max(last[g], thread.slices.end(i));
        }
    }
    for (std::size_t g = 0; g < ranks.size(); ++g)
        if (ranks[g].step <= 0 && last[g] > first[g])
            ranks[g].step = last[g] - first[g];
}

} // namespace

InsightContext::InsightContext(const TraceModel &m, const cluster::ClusterModel *c) : model(m), cluster(c)
{
    for (const Step &step : model.steps())
        stepTime += step.duration();
    if (stepTime <= 0)
        stepTime = model.dataEnd() - model.dataBegin();
    if (stepTime <= 0 && cluster) {
        // A cluster page without a timeline: per step, the longest rank's Stage (its device span).
        std::map<std::int64_t, TimeNs> longest;
        for (const cluster::Rank &rank : cluster->ranks)
            for (const cluster::RankStep &step : rank.steps)
                longest[step.step] = std::max(longest[step.step], step.stage);
        for (const auto &[step, stage] : longest)
            stepTime += stage;
    }
    // The step parts of every rank: its steps' breakdowns, else its step_trace_time.csv.
    const auto groups = static_cast<int>(model.groups().size());
    for (int g = 0; g < groups; ++g) {
        RankStepParts parts;
        parts.rank = rankOfGroup(g);
        parts.group = g;
        for (const Step &step : model.steps()) {
            if (step.group != g)
                continue;
            parts.computing += step.breakdown.computing;
            parts.communicationNotOverlapped += step.breakdown.communicationNotOverlapped;
            parts.free += step.breakdown.free;
            parts.step += step.duration();
            parts.hasParts = true;
        }
        if (!parts.hasParts && cluster)
            for (const cluster::Rank &rank : cluster->ranks)
                if (groupOfRank(rank.rank) == g)
                    addClusterSteps(parts, rank);
        ranks.push_back(parts);
    }
    scanGroups(model, ranks);
    if (cluster)
        for (const cluster::Rank &rank : cluster->ranks) {
            if (groupOfRank(rank.rank) >= 0)
                continue;
            RankStepParts parts;
            parts.rank = rank.rank;
            addClusterSteps(parts, rank);
            ranks.push_back(parts);
        }
}

TimeNs RankStepParts::part(StepPart p) const
{
    switch (p) {
    case StepPart::Computing:
        return computing;
    case StepPart::CommunicationNotOverlapped:
        return communicationNotOverlapped;
    case StepPart::Free:
        return free;
    case StepPart::Memory:
    case StepPart::Unknown:
        break;
    }
    return 0;
}

StepPart RankStepParts::largestPart() const
{
    if (!hasParts)
        return StepPart::Unknown;
    StepPart largest = StepPart::Computing;
    for (StepPart p : {StepPart::CommunicationNotOverlapped, StepPart::Free})
        if (part(p) > part(largest))
            largest = p;
    return part(largest) > 0 ? largest : StepPart::Unknown;
}

const RankStepParts *InsightContext::partsOfRank(int rank) const
{
    for (const RankStepParts &r : ranks)
        if (r.rank == rank)
            return &r;
    const int group = groupOfRank(rank);
    for (const RankStepParts &r : ranks)
        if (group >= 0 && r.group == group)
            return &r;
    return nullptr;
}

int InsightContext::groupOfRank(int rank) const
{
    const auto groups = static_cast<int>(model.groups().size());
    for (int g = 0; g < groups; ++g) {
        if (rankOfGroup(g) == rank)
            return g;
    }
    // One rank folder read as one group whose collection names no rank.
    if (groups == 1 && cluster && cluster->ranks.size() == 1 && cluster->ranks.front().rank == rank)
        return 0;
    return -1;
}

int InsightContext::rankOfGroup(int group) const
{
    if (group >= 0 && group < static_cast<int>(model.groups().size())) {
        bool ok = false;
        const int rank = model.groups()[static_cast<std::size_t>(group)]
                             .collection.property(QStringLiteral("rank"))
                             .toInt(&ok);
        if (ok)
            return rank;
    }
    return group;
}

double InsightContext::percentOfSteps(TimeNs time) const
{
    return stepTime > 0 ? 100.0 * static_cast<double>(time) / static_cast<double>(stepTime) : 0.0;
}

const std::vector<InsightCheck> &insightChecks()
{
    static const std::vector<InsightCheck> checks = {
        {"host_bound", checkHostBound, true},
        {"synchronize", checkSynchronize},
        {"operator_compile", checkOperatorCompile},
        {"affinity_optimizer", checkAffinityOptimizer},
        {"sync_batch_norm", checkSyncBatchNorm},
        {"slow_dataloader", checkSlowDataloader},
        {"aicpu", checkAiCpu},
        {"dynamic_shape", checkDynamicShape},
        {"block_dim", checkBlockDim},
        {"operator_no_bound", checkOperatorNoBound},
        {"aicore_frequency", checkAiCoreFrequency},
        {"byte_alignment", checkByteAlignment},
        {"idle_attribution", checkIdleAttribution},
        {"launch_delay", checkLaunchDelay},
        {"kernel_sequences", checkKernelSequences},
        {"small_packets", checkSmallPackets, true},
        {"rdma_retransmission", checkRdmaRetransmission, true},
        {"bandwidth_contention", checkBandwidthContention, true},
        {"slow_rank", checkSlowRank, true},
        {"stage_imbalance", checkStageImbalance, true},
        {"slow_link", checkSlowLink, true},
        {"slow_rank_vote", checkSlowRankVote, true},
        {"slow_link_transit", checkSlowLinkTransit, true},
        {"moe_load", checkMoeLoad, true},
        {"memory_churn", checkMemoryChurn},
        {"exposed_communication", checkExposedCommunication, true},
    };
    return checks;
}

std::vector<Finding> runInsightChecks(const TraceModel &model, const std::atomic_bool *cancel,
                                      const cluster::ClusterModel *cluster, std::vector<Finding> *withoutTime)
{
    const InsightContext context(model, cluster);
    std::vector<Finding> findings;
    for (const InsightCheck &check : insightChecks()) {
        if (cancel && cancel->load())
            return {};
        const std::size_t before = findings.size();
        const auto groups = static_cast<int>(model.groups().size());
        if (check.ranksItself || groups <= 1) {
            check.run(context, findings);
        } else {
            // One run per rank: its finding states its own counts and times, not the sums of all ranks.
            for (int g = 0; g < groups; ++g) {
                InsightContext rank = context;
                rank.onlyGroup = g;
                if (const RankStepParts *parts = context.partsOfRank(context.rankOfGroup(g));
                    parts && parts->step > 0)
                    rank.stepTime = parts->step;
                const std::size_t first = findings.size();
                check.run(rank, findings);
                for (std::size_t i = first; i < findings.size(); ++i)
                    if (findings[i].rank < 0)
                        findings[i].rank = context.rankOfGroup(g);
            }
        }
        // A check may name another id for a finding of its own (host_bound's host_data_missing).
        for (std::size_t i = before; i < findings.size(); ++i)
            if (findings[i].check.isEmpty())
                findings[i].check = QString::fromLatin1(check.id);
    }
    attributeFindings(context, findings, withoutTime);
    return findings;
}

} // namespace at
