#include "cluster/SlowLinkTransit.h"

#include "cluster/SlowRankVoting.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace at::cluster {

namespace {

// The bytes one rank moved in an op: HCCS + PCIE + SIO + RDMA of its bandwidth info (SDMA repeats the first
// three). communication.json has no element count and data type, msprof-analyze's data size.
std::int64_t bytesMoved(const CommOp &op)
{
    double mb = 0;
    for (const TransportBandwidth &b : op.bandwidth)
        if (b.transport != QLatin1String("SDMA"))
            mb += b.sizeMb;
    return std::llround(mb * 1e6);
}

} // namespace

QString transitOpType(const QString &opName)
{
    const qsizetype cut = opName.indexOf(QLatin1String("__"));
    return cut > 0 ? opName.left(cut) : opName;
}

SlowLinkTransit findSlowTransits(const ClusterModel &model)
{
    SlowLinkTransit found;
    struct Instance
    {
        TransitOp op;
        std::int64_t bytes = 0;
    };
    std::map<std::tuple<std::int64_t, QString, QString>, Instance> instances;
    std::set<std::tuple<std::int64_t, QString, QString>> p2p;
    for (const Rank &r : model.ranks)
        for (const CommOp &op : r.ops) {
            if (op.total)
                continue;
            if (isPointToPoint(op)) {
                p2p.insert({op.step, op.name, op.group});
                continue;
            }
            Instance &i = instances[{op.step, op.name, op.group}];
            if (i.op.ranks.empty() || op.elapse < i.op.transit) {
                i.op.transit = op.elapse;
                i.op.transitRank = r.rank;
            }
            i.op.start = i.op.ranks.empty() ? op.startAbsolute : std::min(i.op.start, op.startAbsolute);
            i.op.ranks.push_back(r.rank); // the ranks are visited in ascending order
            i.bytes = std::max(i.bytes, bytesMoved(op));
        }
    found.leftOutP2p = static_cast<int>(p2p.size());

    std::map<std::tuple<QString, std::int64_t, int>, TransitSet> sets;
    for (auto &[key, instance] : instances) {
        instance.op.step = std::get<0>(key);
        instance.op.op = std::get<1>(key);
        instance.op.group = std::get<2>(key);
        const QString type = transitOpType(instance.op.op);
        const int ranks = static_cast<int>(instance.op.ranks.size());
        TransitSet &s = sets[{type, instance.bytes, ranks}];
        s.opType = type;
        s.dataBytes = instance.bytes;
        s.relatedRanks = ranks;
        s.ops.push_back(instance.op);
    }

    for (auto &entry : sets) {
        TransitSet &s = entry.second; // a reference, not a binding: the lambda below captures it
        if (s.ops.size() < 2)
            continue;
        ++found.setsTested;
        const double n = static_cast<double>(s.ops.size());
        double sum = 0;
        for (const TransitOp &op : s.ops)
            sum += static_cast<double>(op.transit);
        s.mean = sum / n;
        double squares = 0;
        for (const TransitOp &op : s.ops)
            squares +=
                (static_cast<double>(op.transit) - s.mean) * (static_cast<double>(op.transit) - s.mean);
        s.sigma = std::sqrt(squares / n);
        if (s.sigma == 0)
            continue;
        const double limit = kTransitZThreshold * s.sigma;
        const bool outlier = std::any_of(s.ops.begin(), s.ops.end(), [&](const TransitOp &op) {
            return std::abs(static_cast<double>(op.transit) - s.mean) > limit;
        });
        if (!outlier)
            continue;
        std::sort(s.ops.begin(), s.ops.end(), [](const TransitOp &a, const TransitOp &b) {
            return std::tie(a.step, a.start, a.op) < std::tie(b.step, b.start, b.op);
        });
        const auto [minIt, maxIt] =
            std::minmax_element(s.ops.begin(), s.ops.end(),
                                [](const TransitOp &a, const TransitOp &b) { return a.transit < b.transit; });
        s.min = minIt->transit;
        s.max = maxIt->transit;
        s.minRank = minIt->transitRank;
        s.maxRank = maxIt->transitRank;
        // msprof-analyze's std: sample σ over one row per rank of every op.
        const double rows = n * s.relatedRanks;
        const double rowStd = rows > 1 ? s.sigma * std::sqrt(rows / (rows - 1)) : 0.0;
        const double offset = std::max(std::abs(static_cast<double>(s.max) - s.mean),
                                       std::abs(static_cast<double>(s.min) - s.mean));
        s.offsetRatio = rowStd > 0 ? offset / rowStd : 0.0;
        found.sets.push_back(std::move(s));
    }
    std::stable_sort(found.sets.begin(), found.sets.end(),
                     [](const TransitSet &a, const TransitSet &b) { return a.offsetRatio > b.offsetRatio; });
    for (std::size_t i = 0; i < found.sets.size(); ++i) {
        const TransitSet &s = found.sets[i];
        for (const TransitOp &op : s.ops) {
            const double deviation = static_cast<double>(op.transit) - s.mean;
            if (deviation > kTransitZThreshold * s.sigma)
                found.slow.push_back(
                    {op, i, deviation / s.sigma, static_cast<TimeNs>(std::llround(deviation))});
        }
    }
    std::stable_sort(found.slow.begin(), found.slow.end(),
                     [](const SlowTransit &a, const SlowTransit &b) { return a.z > b.z; });
    return found;
}

} // namespace at::cluster
