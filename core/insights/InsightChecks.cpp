#include "InsightChecks.h"

#include "Steps.h"

#include <algorithm>

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

Severity severityForPercent(double percent)
{
    if (percent >= kHighSeverityPercent)
        return Severity::High;
    if (percent >= kMediumSeverityPercent)
        return Severity::Medium;
    return Severity::Low;
}

InsightContext::InsightContext(const TraceModel &m) : model(m)
{
    for (const Step &step : model.steps())
        stepTime += step.duration();
    if (stepTime <= 0)
        stepTime = model.dataEnd() - model.dataBegin();
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
        {"block_dim", checkBlockDim},
        {"operator_no_bound", checkOperatorNoBound},
        {"aicore_frequency", checkAiCoreFrequency},
        {"byte_alignment", checkByteAlignment},
        {"idle_attribution", checkIdleAttribution},
        {"launch_delay", checkLaunchDelay},
        {"kernel_sequences", checkKernelSequences},
    };
    return checks;
}

std::vector<Finding> runInsightChecks(const TraceModel &model, const std::atomic_bool *cancel)
{
    const InsightContext context(model);
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
