// The Overview's ranks from a cluster's summary files (step_trace_time.csv or the databases,
// communication.json, the memory summaries), for a cluster whose ranks are not loaded as timelines
// (docs/OVERVIEW.md).

#include "OverviewInternal.h"
#include "OverviewIntervals.h"

#include <algorithm>

namespace at::overview {

CollectiveWaits::CollectiveWaits(const cluster::ClusterModel *cluster)
{
    if (!cluster)
        return;
    // (step, op, group) → the ranks' (rank, wait)
    std::map<std::tuple<std::int64_t, QString, QString>, std::vector<std::pair<int, TimeNs>>> instances;
    for (const cluster::Rank &r : cluster->ranks)
        for (const cluster::CommOp &op : r.ops)
            if (!op.total && !op.p2p)
                instances[{op.step, op.name, op.group}].push_back({r.rank, op.wait});
    for (const auto &[key, entries] : instances) {
        if (entries.size() < 2)
            continue;
        const auto least = std::min_element(entries.begin(), entries.end(),
                                            [](const auto &a, const auto &b) { return a.second < b.second; });
        for (const auto &[rank, wait] : entries) {
            if (rank == least->first || wait <= 0)
                continue;
            auto &slot = m_waits[{rank, std::get<0>(key)}][least->first];
            slot.first += wait;
            ++slot.second;
        }
    }
}

std::map<int, std::pair<TimeNs, std::int64_t>> CollectiveWaits::of(int rank, std::int64_t step) const
{
    auto it = m_waits.find({rank, step});
    if (it == m_waits.end())
        it = m_waits.find({rank, cluster::kNoStep}); // communication.json without step keys
    return it == m_waits.end() ? std::map<int, std::pair<TimeNs, std::int64_t>>{} : it->second;
}

std::vector<OverviewItem> waitingItems(const std::map<int, std::pair<TimeNs, std::int64_t>> &waits,
                                       TimeNs partTime, int group)
{
    std::vector<OverviewItem> items;
    if (waits.empty())
        return items;
    for (const auto &[rank, wait] : waits) {
        OverviewItem item;
        item.kind = OverviewItemKind::WaitingForRank;
        item.name = OverviewText::tr("Waiting for rank %1").arg(rank);
        item.rank = rank;
        item.time = wait.first;
        item.count = wait.second;
        item.target.kind = OverviewTarget::Kind::Rank;
        item.target.rank = rank;
        item.target.group = group;
        items.push_back(item);
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const OverviewItem &a, const OverviewItem &b) { return a.time > b.time; });
    fitItems(items, partTime, OverviewText::tr("Transfer and other"));
    return items;
}

namespace {

OverviewRank clusterRank(const cluster::Rank &rank, const CollectiveWaits &waits)
{
    OverviewRank r;
    r.rank = rank.rank;
    r.label = rank.device >= 0 ? OverviewText::tr("Rank %1 / Device %2").arg(rank.rank).arg(rank.device)
                               : rankName(rank.rank);
    r.target.kind = OverviewTarget::Kind::Rank;
    r.target.rank = rank.rank;
    for (const cluster::RankStep &row : rank.steps) {
        OverviewStep o;
        for (std::size_t i = 0; i < o.parts.size(); ++i)
            o.parts[i].part = static_cast<OverviewPart>(i);
        o.number = row.step;
        o.label = row.step == cluster::kNoStep ? OverviewText::tr("Step")
                                               : OverviewText::tr("Step %1").arg(row.step);
        o.source = OverviewPartsSource::Cluster;
        o.target = r.target;
        setPartsFromRankStep(o, row);
        // Exposed communication by op: the ops' Elapse Time of communication.json, per op kind.
        std::map<QString, std::pair<TimeNs, std::int64_t>> byKind;
        for (const cluster::CommOp &op : rank.ops)
            if (!op.total && (op.step == row.step || row.step == cluster::kNoStep)) {
                auto &slot = byKind[opKind(op.name)];
                slot.first += op.elapse;
                ++slot.second;
            }
        OverviewPartValue &comm = o.part(OverviewPart::CommunicationNotOverlapped);
        for (const auto &[kind, value] : byKind) {
            OverviewItem item;
            item.kind = OverviewItemKind::CommunicationOp;
            item.name = kind;
            item.time = value.first;
            item.count = value.second;
            item.target = r.target;
            item.target.name = kind;
            comm.items.push_back(item);
        }
        std::stable_sort(comm.items.begin(), comm.items.end(),
                         [](const OverviewItem &a, const OverviewItem &b) { return a.time > b.time; });
        comm.byRank = waitingItems(waits.of(rank.rank, row.step), comm.time, -1);
        completeParts(o);
        r.steps.push_back(std::move(o));
    }
    r.mean = meanStep(r.steps);
    if (rank.memoryPeak) {
        OverviewMemoryPeak p;
        p.bytes = rank.memoryPeak->bytes;
        p.time = rank.memoryPeak->time;
        p.component = rank.memoryPeak->component;
        p.metric = QStringLiteral("reserved");
        p.source = rank.memoryPeak->file;
        p.target = r.target;
        r.memoryPeak = p;
    }
    if (r.steps.empty())
        r.missing << OverviewText::tr("No step breakdown (step_trace_time.csv or a profiler database) in the "
                                      "rank folder.");
    r.missing << OverviewText::tr("No timeline loaded for this rank: computing and free time are not split "
                                  "(the summary files do not show them).");
    if (!r.memoryPeak)
        r.missing << OverviewText::tr("No memory summary: no memory peak.");
    return r;
}

} // namespace

std::vector<OverviewRank> clusterRanks(const cluster::ClusterModel &cluster)
{
    const CollectiveWaits waits(&cluster);
    std::vector<OverviewRank> ranks;
    for (const cluster::Rank &rank : cluster.ranks)
        ranks.push_back(clusterRank(rank, waits));
    return ranks;
}

} // namespace at::overview
