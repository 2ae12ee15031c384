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
    // the ops of one step; the totals have no start and come last), then the instance key itself.
    // Each row's instance is looked up once and ranked by the key's order, so that the sort compares
    // integers: comparing the keys' strings in every comparison was 14 % of `--cluster --json` at 24,576
    // rows (issue #32). The order is the same as sorting by (step, total, first start, key, rank).
    std::map<InstanceKey, std::size_t> instanceOfKey; // the key -> its index in firstStart
    std::vector<TimeNs> firstStart;
    std::vector<std::size_t> rowInstance(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto [it, inserted] = instanceOfKey.try_emplace(instanceOf(rows[i]), firstStart.size());
        if (inserted)
            firstStart.push_back(rows[i].start);
        else
            firstStart[it->second] = std::min(firstStart[it->second], rows[i].start);
        rowInstance[i] = it->second;
    }
    std::vector<std::size_t> keyRank(firstStart.size()); // the instance's place in key order
    std::size_t place = 0;
    for (const auto &entry : instanceOfKey)
        keyRank[entry.second] = place++;
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto sortKey = [&](std::size_t i) {
        const std::size_t instance = rowInstance[i];
        return std::make_tuple(rows[i].step, rows[i].total, firstStart[instance], keyRank[instance],
                               rows[i].rank);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sortKey(a) < sortKey(b); });
    // The rows move into that order in place, along the permutation's cycles: a sorted copy would hold
    // the rows twice (--cluster keeps a communication file's reading under twice its size).
    std::vector<std::size_t> destination(rows.size());
    for (std::size_t position = 0; position < order.size(); ++position)
        destination[order[position]] = position;
    for (std::size_t i = 0; i < rows.size(); ++i)
        while (destination[i] != i) {
            const std::size_t to = destination[i];
            std::swap(rows[i], rows[to]);
            std::swap(destination[i], destination[to]);
        }
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
