#include "cluster/CommunicationOps.h"

#include "CheckedTime.h"

#include <QHash>

#include <algorithm>
#include <map>
#include <tuple>

namespace at::cluster {

namespace {

// An op instance: the same op on each of its ranks.
using InstanceKey = std::tuple<std::int64_t, bool, bool, QString, QString>; // step, total, p2p, name, group

InstanceKey instanceOf(const CommOpRow &r)
{
    return {r.step, r.total, r.p2p, r.op, r.groupHash};
}

bool matches(const CommOp &op, const CommOpFilter &filter)
{
    if (op.total && !filter.includeTotals)
        return false;
    if (filter.step && op.step != *filter.step)
        return false;
    if (!filter.group.isEmpty() && op.group != filter.group)
        return false;
    return filter.op.isEmpty() || op.name == filter.op;
}

// All five transports are written even when zero (FORMATS.md §9.4): a cell only for what moved.
void fillTransports(const CommOp &op, CommOpRow &row)
{
    for (const TransportBandwidth &b : op.bandwidth) {
        if (b.sizeMb <= 0 && b.time <= 0)
            continue;
        const auto at = std::find_if(kCommTransports.begin(), kCommTransports.end(),
                                     [&](const char *name) { return b.transport == QLatin1String(name); });
        if (at == kCommTransports.end())
            continue;
        row.transports[static_cast<std::size_t>(at - kCommTransports.begin())] =
            CommTransportCell{b.sizeMb, b.time, b.effectiveBandwidth()};
    }
}

std::vector<PacketBucket> mergedSizes(const CommOp &op)
{
    std::map<double, PacketBucket> merged;
    for (const TransportBandwidth &b : op.bandwidth) {
        if (b.transport == QLatin1String("SDMA")) // HCCS + PCIE + SIO again
            continue;
        for (const PacketBucket &p : b.sizes) {
            PacketBucket &m = merged[p.sizeMb];
            m.sizeMb = p.sizeMb;
            m.count += p.count;
            // The reader keeps each rank's sum of bucket times within 2^62 ns (ClusterValues.h), so this
            // cannot fail for a model it read; one built otherwise stops at the int64 end.
            m.time = checkedAdd(m.time, p.time).value_or(saturatingAdd(m.time, p.time));
        }
    }
    std::vector<PacketBucket> sizes;
    sizes.reserve(merged.size());
    for (const auto &entry : merged)
        sizes.push_back(entry.second);
    return sizes;
}

} // namespace

std::vector<CommOpRow> communicationOps(const ClusterModel &model, const CommOpFilter &filter)
{
    std::vector<CommOpRow> rows;
    // The first group of each hash, as ClusterModel::groupByHash finds it, hashed once (a scan per op was
    // quadratic with 100,000 groups).
    QHash<QString, const ParallelGroup *> groups;
    for (const ParallelGroup &g : model.groups)
        if (!groups.contains(g.hash))
            groups.insert(g.hash, &g);
    for (const Rank &r : model.ranks)
        for (const CommOp &op : r.ops) {
            if (!matches(op, filter))
                continue;
            CommOpRow row;
            row.step = op.step;
            row.op = op.name;
            row.groupHash = op.group;
            const ParallelGroup *group = op.group.isEmpty() ? nullptr : groups.value(op.group, nullptr);
            row.groupName = group && !group->name.isEmpty() ? group->name : op.group;
            row.p2p = op.p2p;
            row.total = op.total;
            row.rank = r.rank;
            row.start = op.startAbsolute;
            row.elapse = op.elapse;
            row.transit = op.transit;
            row.wait = op.wait;
            row.synchronization = op.synchronization;
            row.idle = op.idle;
            row.waitRatio = op.waitRatio;
            row.synchronizationRatio = op.synchronizationRatio;
            fillTransports(op, row);
            row.sizes = mergedSizes(op);
            rows.push_back(std::move(row));
        }
    // An instance's place: its earliest start over its ranks (the ranks' clocks are close enough to order
    // the ops of one step; the totals have no start and come last).
    std::map<InstanceKey, TimeNs> firstStart;
    for (const CommOpRow &row : rows) {
        auto [it, inserted] = firstStart.try_emplace(instanceOf(row), row.start);
        if (!inserted)
            it->second = std::min(it->second, row.start);
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const CommOpRow &a, const CommOpRow &b) {
        const InstanceKey ka = instanceOf(a), kb = instanceOf(b);
        return std::tie(a.step, a.total, firstStart[ka], ka, a.rank) <
               std::tie(b.step, b.total, firstStart[kb], kb, b.rank);
    });
    return rows;
}

CommOpSummary summarizeOp(const std::vector<CommOpRow> &rows, const CommOpRow &row)
{
    CommOpSummary s;
    s.step = row.step;
    s.op = row.op;
    s.groupHash = row.groupHash;
    s.p2p = row.p2p;
    const InstanceKey key = instanceOf(row);
    for (const CommOpRow &r : rows) {
        if (instanceOf(r) != key)
            continue;
        if (s.ranks == 0 || r.elapse > s.slowestElapse ||
            (r.elapse == s.slowestElapse && r.rank < s.slowestRank)) {
            s.slowestRank = r.rank;
            s.slowestElapse = r.elapse;
        }
        if (s.ranks == 0 || r.elapse < s.fastestElapse ||
            (r.elapse == s.fastestElapse && r.rank < s.fastestRank)) {
            s.fastestRank = r.rank;
            s.fastestElapse = r.elapse;
        }
        if (s.ranks == 0 || r.wait > s.maxWait || (r.wait == s.maxWait && r.rank < s.maxWaitRank)) {
            s.maxWaitRank = r.rank;
            s.maxWait = r.wait;
        }
        ++s.ranks;
    }
    return s;
}

} // namespace at::cluster
