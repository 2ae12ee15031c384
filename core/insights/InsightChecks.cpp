#include "InsightChecks.h"

#include "Steps.h"

#include <algorithm>
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
        {"host_bound", checkHostBound},
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
        {"small_packets", checkSmallPackets},
        {"rdma_retransmission", checkRdmaRetransmission},
        {"bandwidth_contention", checkBandwidthContention},
        {"slow_rank", checkSlowRank},
        {"stage_imbalance", checkStageImbalance},
        {"slow_link", checkSlowLink},
        {"memory_churn", checkMemoryChurn},
    };
    return checks;
}

std::vector<Finding> runInsightChecks(const TraceModel &model, const std::atomic_bool *cancel,
                                      const cluster::ClusterModel *cluster)
{
    const InsightContext context(model, cluster);
    std::vector<Finding> findings;
    for (const InsightCheck &check : insightChecks()) {
        if (cancel && cancel->load())
            return {};
        const std::size_t before = findings.size();
        check.run(context, findings);
        for (std::size_t i = before; i < findings.size(); ++i) {
            findings[i].check = QString::fromLatin1(check.id);
            findings[i].stepPercent = context.percentOfSteps(findings[i].timeAtStake);
        }
    }
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        if (a.timeAtStake != b.timeAtStake)
            return a.timeAtStake > b.timeAtStake;
        return a.severity < b.severity;
    });
    return findings;
}

} // namespace at
