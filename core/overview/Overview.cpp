#include "Overview.h"

#include "InsightChecks.h"
#include "OverviewInternal.h"
#include "OverviewIntervals.h"
#include "Steps.h"
#include "TraceModel.h"

#include <algorithm>

namespace at {

QString overviewPartId(OverviewPart part)
{
    switch (part) {
    case OverviewPart::Computing:
        return QStringLiteral("computing");
    case OverviewPart::CommunicationNotOverlapped:
        return QStringLiteral("communication_not_overlapped");
    case OverviewPart::Free:
        return QStringLiteral("free");
    case OverviewPart::Preparing:
        return QStringLiteral("preparing");
    case OverviewPart::Bubble:
        return QStringLiteral("bubble");
    }
    return {};
}

QString overviewPartName(OverviewPart part)
{
    switch (part) {
    case OverviewPart::Computing:
        return OverviewText::tr("Computing");
    case OverviewPart::CommunicationNotOverlapped:
        return OverviewText::tr("Communication (not overlapped)");
    case OverviewPart::Free:
        return OverviewText::tr("Free");
    case OverviewPart::Preparing:
        return OverviewText::tr("Preparing");
    case OverviewPart::Bubble:
        return OverviewText::tr("Bubble");
    }
    return {};
}

StepPart stepPartOf(OverviewPart part)
{
    switch (part) {
    case OverviewPart::Computing:
        return StepPart::Computing;
    case OverviewPart::CommunicationNotOverlapped:
        return StepPart::CommunicationNotOverlapped;
    case OverviewPart::Free:
        return StepPart::Free;
    case OverviewPart::Preparing:
    case OverviewPart::Bubble:
        break;
    }
    return StepPart::Unknown;
}

bool isAdditivePart(OverviewPart part)
{
    return part != OverviewPart::Bubble;
}

QString overviewItemKindId(OverviewItemKind kind)
{
    switch (kind) {
    case OverviewItemKind::KernelType:
        return QStringLiteral("kernel_type");
    case OverviewItemKind::CommunicationOp:
        return QStringLiteral("communication_op");
    case OverviewItemKind::WaitingForRank:
        return QStringLiteral("waiting_for_rank");
    case OverviewItemKind::HostDispatch:
        return QStringLiteral("host_dispatch");
    case OverviewItemKind::Synchronisation:
        return QStringLiteral("synchronisation");
    case OverviewItemKind::DataLoading:
        return QStringLiteral("data_loading");
    case OverviewItemKind::NothingRecorded:
        return QStringLiteral("nothing_recorded");
    case OverviewItemKind::NotAttributed:
        return QStringLiteral("not_attributed");
    }
    return {};
}

QString overviewPartsSourceId(OverviewPartsSource source)
{
    switch (source) {
    case OverviewPartsSource::StepTraceCsv:
        return QStringLiteral("step_trace_time.csv");
    case OverviewPartsSource::Cluster:
        return QStringLiteral("cluster");
    case OverviewPartsSource::Timeline:
        return QStringLiteral("timeline");
    }
    return {};
}

TimeNs OverviewStep::total() const
{
    TimeNs sum = 0;
    for (const OverviewPartValue &p : parts)
        if (p.present && isAdditivePart(p.part))
            sum += p.time;
    return sum;
}

OverviewPart OverviewStep::largestPart() const
{
    OverviewPart best = OverviewPart::Computing;
    TimeNs bestTime = -1;
    for (const OverviewPartValue &p : parts)
        if (p.present && isAdditivePart(p.part) && p.time > bestTime) {
            best = p.part;
            bestTime = p.time;
        }
    return best;
}

const OverviewRank *Overview::rank(int id) const
{
    for (const OverviewRank &r : ranks)
        if (r.rank == id)
            return &r;
    return nullptr;
}

namespace overview {

QString notAttributedName()
{
    return OverviewText::tr("Other / not attributed");
}

QString rankName(int rank)
{
    return OverviewText::tr("Rank %1").arg(rank);
}

QString opKind(const QString &opName)
{
    const qsizetype cut = opName.indexOf(QLatin1String("__"));
    return cut > 0 ? opName.left(cut) : opName;
}

void setPartsFromRankStep(OverviewStep &step, const cluster::RankStep &row)
{
    auto set = [&](OverviewPart p, TimeNs t, bool present) {
        OverviewPartValue &v = step.part(p);
        v.present = present;
        v.time = t;
    };
    set(OverviewPart::Computing, row.computing, true);
    set(OverviewPart::CommunicationNotOverlapped, row.communicationNotOverlapped, true);
    set(OverviewPart::Free, row.free, true);
    set(OverviewPart::Bubble, row.bubble, true);
    set(OverviewPart::Preparing, row.preparing, row.hasPreparing);
}

void completeParts(OverviewStep &step)
{
    for (OverviewPartValue &p : step.parts) {
        if (!p.present) {
            p.items.clear();
            p.byRank.clear();
            continue;
        }
        fitItems(p.items, p.time, notAttributedName());
    }
}

std::optional<OverviewStep> meanStep(const std::vector<OverviewStep> &steps)
{
    if (steps.empty())
        return std::nullopt;
    const auto n = static_cast<std::int64_t>(steps.size());
    OverviewStep mean;
    mean.label = OverviewText::tr("Mean of %n step(s)", nullptr, static_cast<int>(n));
    mean.source = steps.front().source;
    mean.target = steps.front().target;
    mean.target.begin = steps.front().begin;
    mean.target.end = steps.back().end;
    for (std::size_t pi = 0; pi < mean.parts.size(); ++pi) {
        OverviewPartValue &m = mean.parts[pi];
        m.part = steps.front().parts[pi].part;
        TimeNs sum = 0;
        std::vector<const std::vector<OverviewItem> *> items, byRank;
        bool allByRank = true;
        for (const OverviewStep &s : steps) {
            const OverviewPartValue &p = s.parts[pi];
            m.present = m.present || p.present;
            sum += p.time;
            items.push_back(&p.items);
            byRank.push_back(&p.byRank);
            allByRank = allByRank && !p.byRank.empty();
        }
        m.time = sum / n;
        if (!m.present)
            continue;
        m.items = overview::meanItems(items, sum, n);
        if (allByRank)
            m.byRank = overview::meanItems(byRank, sum, n);
    }
    // The kernels summed over the steps (counts and totals of every step), largest total first.
    std::map<QString, OverviewKernel> kernels;
    for (const OverviewStep &s : steps)
        for (const OverviewKernel &k : s.topKernels) {
            auto [it, added] = kernels.emplace(k.name, k);
            if (!added) {
                it->second.count += k.count;
                it->second.total += k.total;
            }
        }
    for (auto &[name, k] : kernels)
        mean.topKernels.push_back(k);
    std::sort(mean.topKernels.begin(), mean.topKernels.end(),
              [](const OverviewKernel &a, const OverviewKernel &b) {
                  return a.total != b.total ? a.total > b.total : a.name < b.name;
              });
    if (mean.topKernels.size() > kOverviewTopKernels)
        mean.topKernels.resize(kOverviewTopKernels);
    return mean;
}

namespace {

OverviewFinding overviewFinding(const Finding &f, int index, const InsightContext &context, bool hasGroups)
{
    OverviewFinding o;
    o.index = index;
    o.check = f.check;
    o.title = f.title;
    o.severity = f.severity;
    o.part = f.part;
    // Finding::rank is the rank id (the checks set it through InsightContext::rankOfGroup).
    o.rank = f.rank;
    o.time = f.timeAtStake;
    o.shareOfPart = f.shareOfPart();
    o.shareOfStep = f.shareOfStep();
    if (!f.occurrences.empty()) {
        const FindingOccurrence &first = f.occurrences.front();
        o.target.kind = OverviewTarget::Kind::TimeRange;
        o.target.group = first.rank >= 0 && !hasGroups ? -1 : first.group;
        o.target.rank = context.rankOf(first);
        o.target.begin = first.start;
        o.target.end = first.start + first.duration;
        o.target.name = first.name;
    } else {
        o.target.kind = OverviewTarget::Kind::Finding;
    }
    o.target.finding = index;
    return o;
}

} // namespace

} // namespace overview

Overview buildOverview(const OverviewInputs &inputs)
{
    Overview ov;
    static const TraceModel kEmpty;
    const TraceModel &model = inputs.model ? *inputs.model : kEmpty;
    const bool hasGroups = !model.groups().empty();
    const std::vector<Step> &steps = inputs.steps ? *inputs.steps : model.steps();

    if (hasGroups) {
        ov.ranks = overview::modelRanks(model, steps, inputs.cluster);
        ov.scope = ov.ranks.size() > 1 ? Overview::Scope::SeveralRanks : Overview::Scope::SingleRank;
    } else if (inputs.cluster) {
        ov.ranks = overview::clusterRanks(*inputs.cluster);
        ov.scope = Overview::Scope::Cluster;
    }

    ov.warnings = model.warnings();
    if (inputs.cluster)
        for (const QString &w : inputs.cluster->warnings)
            if (!ov.warnings.contains(w))
                ov.warnings << w;

    if (inputs.sharedFindings)
        ov.sourceFindings = inputs.sharedFindings;
    else
        ov.sourceFindings = std::make_shared<const std::vector<Finding>>(
            inputs.findings ? *inputs.findings : runInsightChecks(model, nullptr, inputs.cluster));
    const std::vector<Finding> &findings = *ov.sourceFindings;
    const InsightContext context(model, inputs.cluster);
    for (std::size_t i = 0; i < findings.size(); ++i) {
        ov.findings.push_back(
            overview::overviewFinding(findings[i], static_cast<int>(i), context, hasGroups));
        for (OverviewRank &r : ov.ranks)
            if (ov.findings.back().rank == r.rank)
                r.findings.push_back(static_cast<int>(i));
    }

    if (ov.ranks.empty())
        ov.missing << OverviewText::tr("No rank: the input has no timeline and no cluster summary files.");
    else if (std::all_of(ov.ranks.begin(), ov.ranks.end(),
                         [](const OverviewRank &r) { return r.steps.empty(); }))
        ov.missing << OverviewText::tr("No steps in any rank: the parts of a step cannot be shown. Profile "
                                       "with a schedule (torch_npu: schedule=…, prof.step() every step).");
    return ov;
}

} // namespace at
