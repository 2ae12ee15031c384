#include "cluster/ClusterAnalysis.h"

#include "CheckedTime.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace at::cluster {

namespace {

// Every rank's steps by number, built once per analysis: a (rank, step) is found by hashing instead of
// scanning the ranks and their steps (200,000 steps per rank took two minutes, issue #29 item 7). The
// first rank with an id and the first row of a step win, as the scans they replace found them.
class StepLookup
{
public:
    explicit StepLookup(const ClusterModel &model)
    {
        for (const Rank &r : model.ranks) {
            const auto [it, added] = m_ranks.try_emplace(r.rank);
            if (!added)
                continue;
            it->second.reserve(r.steps.size());
            for (const RankStep &s : r.steps)
                it->second.try_emplace(s.step, &s);
        }
    }
    const RankStep *find(int rank, std::int64_t step) const
    {
        const auto r = m_ranks.find(rank);
        if (r == m_ranks.end())
            return nullptr;
        const auto s = r->second.find(step);
        return s == r->second.end() ? nullptr : s->second;
    }

private:
    std::unordered_map<int, std::unordered_map<std::int64_t, const RankStep *>> m_ranks;
};

struct RankValue
{
    int rank;
    const RankStep *step;
};

std::vector<RankValue> valuesOf(const StepLookup &steps, const std::vector<int> &ranks, std::int64_t step)
{
    std::vector<RankValue> out;
    for (int id : ranks)
        if (const RankStep *s = steps.find(id, step))
            out.push_back({id, s});
    return out;
}

double meanTotal(const std::vector<RankValue> &values)
{
    if (values.empty())
        return 0;
    double sum = 0;
    for (const RankValue &v : values)
        sum += static_cast<double>(rankTotal(*v.step));
    return sum / static_cast<double>(values.size());
}

QString rankList(const std::vector<int> &ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return parts.join(QLatin1Char(','));
}

// "hcom_allReduce__586_0_1" → the matrix type "allreduce" (first match, FORMATS.md §9.4).
QString opTypeOf(const QString &opKey)
{
    const qsizetype dash = opKey.lastIndexOf(QLatin1Char('-'));
    return dash < 0 ? opKey : opKey.left(dash);
}

} // namespace

QString dimensionKey(Dimension d)
{
    switch (d) {
    case Dimension::Computing:
        return QStringLiteral("computing");
    case Dimension::Communication:
        return QStringLiteral("communication");
    case Dimension::Free:
        return QStringLiteral("free");
    }
    return {};
}

TimeNs dimensionValue(const RankStep &s, Dimension d)
{
    switch (d) {
    case Dimension::Computing:
        return s.computing;
    case Dimension::Communication:
        return s.communicationNotOverlapped;
    case Dimension::Free:
        return s.free;
    }
    return 0;
}

TimeNs rankTotal(const RankStep &s)
{
    // Each field is below 2^62 ns (the reader rejects larger values), but three of them can pass int64.
    return saturatingAdd(saturatingAdd(s.computing, s.communicationNotOverlapped), s.free);
}

std::vector<ComparisonGroup> comparisonGroups(const ClusterModel &model)
{
    std::vector<ComparisonGroup> groups;
    std::map<int, std::vector<int>> byStage;
    for (const Rank &r : model.ranks)
        if (r.stage >= 0)
            byStage[r.stage].push_back(r.rank);
    if (!byStage.empty()) {
        for (const auto &[stage, ranks] : byStage)
            groups.push_back({QStringLiteral("stage %1").arg(stage), stage, ranks});
        return groups;
    }
    std::set<int> covered;
    std::set<int> ranks; // the model's rank ids: model.rank() per member scanned every rank (quadratic)
    for (const Rank &r : model.ranks)
        ranks.insert(r.rank);
    for (const char *name : {"dp", "dp_cp"}) {
        for (const ParallelGroup *g : model.groupsNamed(QLatin1String(name))) {
            std::vector<int> present;
            for (int r : g->globalRanks)
                if (ranks.count(r) && !covered.count(r))
                    present.push_back(r);
            if (present.size() < 2)
                continue;
            covered.insert(present.begin(), present.end());
            groups.push_back({QStringLiteral("dp %1").arg(rankList(present)), -1, present});
        }
        if (!groups.empty())
            return groups;
    }
    ComparisonGroup all{QStringLiteral("all ranks"), -1, {}};
    for (const Rank &r : model.ranks)
        all.ranks.push_back(r.rank);
    groups.push_back(all);
    return groups;
}

std::vector<SlowRank> findSlowRanks(const ClusterModel &model)
{
    std::vector<SlowRank> found;
    const std::vector<ComparisonGroup> groups = comparisonGroups(model);
    const StepLookup steps(model);
    for (std::int64_t step : model.stepNumbers()) {
        for (const ComparisonGroup &g : groups) {
            const std::vector<RankValue> values = valuesOf(steps, g.ranks, step);
            if (values.size() < 2)
                continue;
            const double mean = meanTotal(values);
            for (Dimension d : {Dimension::Computing, Dimension::Free, Dimension::Communication}) {
                auto byValue = [d](const RankValue &a, const RankValue &b) {
                    return dimensionValue(*a.step, d) < dimensionValue(*b.step, d);
                };
                const auto [lo, hi] = std::minmax_element(values.begin(), values.end(), byValue);
                const TimeNs gap = dimensionValue(*hi->step, d) - dimensionValue(*lo->step, d);
                if (mean <= 0 || static_cast<double>(gap) / mean <= kSlowRankThreshold)
                    continue;
                SlowRank s;
                s.step = step;
                s.group = g.name;
                s.rank = hi->rank;
                s.dimension = d;
                s.gap = gap;
                s.value = dimensionValue(*hi->step, d);
                s.fastest = lo->rank;
                for (const RankValue &v : values)
                    if (v.rank != hi->rank &&
                        v.step->communicationNotOverlapped > hi->step->communicationNotOverlapped)
                        s.waiting.push_back(v.rank);
                found.push_back(s);
                break; // one finding per group and step: the first flagged dimension
            }
        }
    }
    return found;
}

std::vector<StageImbalance> findStageImbalance(const ClusterModel &model)
{
    std::vector<StageImbalance> found;
    std::vector<ComparisonGroup> stages;
    for (const ComparisonGroup &g : comparisonGroups(model))
        if (g.stage >= 0)
            stages.push_back(g);
    if (stages.size() < 2)
        return found;
    const StepLookup steps(model);
    for (std::int64_t step : model.stepNumbers()) {
        struct StageMean
        {
            int stage;
            TimeNs computing;
        };
        std::vector<StageMean> means;
        std::vector<RankValue> everyone;
        for (const ComparisonGroup &g : stages) {
            const std::vector<RankValue> values = valuesOf(steps, g.ranks, step);
            if (values.empty())
                continue;
            // Summed in 128 bits: every rank's value is in range, so the mean is, but not their sum.
            __int128 sum = 0;
            for (const RankValue &v : values)
                sum += v.step->computing;
            means.push_back({g.stage, static_cast<TimeNs>(sum / static_cast<__int128>(values.size()))});
            everyone.insert(everyone.end(), values.begin(), values.end());
        }
        if (means.size() < 2)
            continue;
        const auto [lo, hi] =
            std::minmax_element(means.begin(), means.end(), [](const StageMean &a, const StageMean &b) {
                return a.computing < b.computing;
            });
        const double mean = meanTotal(everyone);
        const TimeNs gap = hi->computing - lo->computing;
        if (mean <= 0 || static_cast<double>(gap) / mean <= kSlowRankThreshold)
            continue;
        found.push_back({step, hi->stage, lo->stage, hi->computing, lo->computing, gap});
    }
    return found;
}

std::vector<PlainRuleFlag> plainRule(const ClusterModel &model)
{
    std::vector<PlainRuleFlag> flags;
    std::vector<int> all;
    for (const Rank &r : model.ranks)
        all.push_back(r.rank);
    const StepLookup steps(model);
    for (std::int64_t step : model.stepNumbers()) {
        const std::vector<RankValue> values = valuesOf(steps, all, step);
        if (values.size() < 2)
            continue;
        const double mean = meanTotal(values);
        for (Dimension d : {Dimension::Computing, Dimension::Communication, Dimension::Free}) {
            auto byValue = [d](const RankValue &a, const RankValue &b) {
                return dimensionValue(*a.step, d) < dimensionValue(*b.step, d);
            };
            const auto [lo, hi] = std::minmax_element(values.begin(), values.end(), byValue);
            const TimeNs gap = dimensionValue(*hi->step, d) - dimensionValue(*lo->step, d);
            const double ratio = mean > 0 ? static_cast<double>(gap) / mean : 0.0;
            if (ratio > kSlowRankThreshold)
                flags.push_back({step, d, hi->rank, lo->rank, gap, ratio});
        }
    }
    return flags;
}

double RankCommunication::waitRatio() const
{
    return wait + transit > 0 ? static_cast<double>(wait) / static_cast<double>(wait + transit) : 0.0;
}

std::vector<RankCommunication> rankCommunication(const ClusterModel &model)
{
    std::vector<RankCommunication> out;
    for (const Rank &r : model.ranks) {
        std::map<std::int64_t, RankCommunication> bySteps;
        for (const CommOp &op : r.ops) {
            if (op.total)
                continue;
            RankCommunication &c = bySteps[op.step];
            c.rank = r.rank;
            c.step = op.step;
            ++c.ops;
            c.elapse += op.elapse;
            c.transit += op.transit;
            c.wait += op.wait;
            c.synchronization += op.synchronization;
            c.idle += op.idle;
            for (const TransportBandwidth &b : op.bandwidth) {
                auto it = std::find_if(c.transports.begin(), c.transports.end(),
                                       [&](const TransportTotal &t) { return t.transport == b.transport; });
                if (it == c.transports.end()) {
                    c.transports.push_back({b.transport, 0, 0});
                    it = c.transports.end() - 1;
                }
                it->sizeMb += b.sizeMb;
                it->time += b.time;
            }
        }
        for (auto &entry : bySteps)
            out.push_back(entry.second);
    }
    return out;
}

std::vector<CollectiveWait> findWaits(const ClusterModel &model)
{
    // (step, op, group) → the ranks' entries
    std::map<std::tuple<std::int64_t, QString, QString>, std::vector<std::pair<int, const CommOp *>>>
        instances;
    for (const Rank &r : model.ranks)
        for (const CommOp &op : r.ops)
            if (!op.total && !op.p2p)
                instances[{op.step, op.name, op.group}].push_back({r.rank, &op});
    std::vector<CollectiveWait> found;
    for (const auto &[key, entries] : instances) {
        if (entries.size() < 2)
            continue;
        CollectiveWait w;
        w.step = std::get<0>(key);
        w.op = std::get<1>(key);
        w.group = std::get<2>(key);
        const auto least = std::min_element(entries.begin(), entries.end(), [](const auto &a, const auto &b) {
            return a.second->wait < b.second->wait;
        });
        w.waitedFor = least->first;
        for (const auto &[rank, op] : entries)
            if (rank != w.waitedFor && op->waitRatio > kWaitRatioThreshold)
                w.waiting.push_back({rank, op->wait, op->waitRatio});
        if (w.waiting.empty())
            continue;
        std::sort(
            w.waiting.begin(), w.waiting.end(),
            [](const CollectiveWait::Waiter &a, const CollectiveWait::Waiter &b) { return a.wait > b.wait; });
        found.push_back(std::move(w));
    }
    return found;
}

namespace {

// Which fields make two matrix entries the same link: each link is written by every rank that reports it.
enum class SameLink
{
    PerOpKey,    // (group, op key, src, dst): the "-total" entries of several ops
    PerTransport // (group, src, dst, transport): the entries of one op
};

// Sums the links of one step that `keep` accepts per (src, dst, transport), each link counted once.
template <typename Keep>
std::vector<LinkTotal> sumLinks(const ClusterModel &model, std::int64_t step, const QString &group,
                                SameLink same, Keep keep)
{
    std::set<std::tuple<QString, QString, int, int, QString>> seen;
    std::map<std::tuple<int, int, QString>, LinkTotal> totals;
    for (const Rank &r : model.ranks)
        for (const MatrixLink &l : r.links) {
            if (l.step != step || l.src < 0 || l.dst < 0 || (!group.isEmpty() && l.group != group) ||
                !keep(l) ||
                !seen.insert({l.group, same == SameLink::PerOpKey ? l.opKey : QString(), l.src, l.dst,
                              same == SameLink::PerTransport ? l.transport : QString()})
                     .second)
                continue;
            LinkTotal &t = totals[{l.src, l.dst, l.transport}];
            t.src = l.src;
            t.dst = l.dst;
            t.transport = l.transport;
            t.sizeMb += l.sizeMb;
            t.time = saturatingAdd(t.time, l.time); // ranks' links in range, their sum may not be
        }
    std::vector<LinkTotal> out;
    for (auto &entry : totals)
        out.push_back(entry.second);
    return out;
}

} // namespace

std::vector<LinkTotal> matrixLinks(const ClusterModel &model, std::int64_t step, const QString &group,
                                   const QString &opType)
{
    return sumLinks(model, step, group, SameLink::PerOpKey, [&](const MatrixLink &l) {
        return l.isTotal() && (opType.isEmpty() || opTypeOf(l.opKey) == opType);
    });
}

namespace {

// matrixLinks(model, step) of every step in one pass over the links (one pass per step made 200,000 steps
// quadratic).
std::map<std::int64_t, std::vector<LinkTotal>> totalLinksByStep(const ClusterModel &model)
{
    std::set<std::tuple<std::int64_t, QString, QString, int, int>> seen;
    std::map<std::tuple<std::int64_t, int, int, QString>, LinkTotal> totals;
    for (const Rank &r : model.ranks)
        for (const MatrixLink &l : r.links) {
            if (l.src < 0 || l.dst < 0 || !l.isTotal() ||
                !seen.insert({l.step, l.group, l.opKey, l.src, l.dst}).second)
                continue;
            LinkTotal &t = totals[{l.step, l.src, l.dst, l.transport}];
            t.src = l.src;
            t.dst = l.dst;
            t.transport = l.transport;
            t.sizeMb += l.sizeMb;
            t.time = saturatingAdd(t.time, l.time); // ranks' links in range, their sum may not be
        }
    std::map<std::int64_t, std::vector<LinkTotal>> out;
    for (auto &[key, total] : totals)
        out[std::get<0>(key)].push_back(total);
    return out;
}

} // namespace

std::vector<LinkTotal> opMatrixLinks(const ClusterModel &model, std::int64_t step, const QString &group,
                                     const QString &opName)
{
    return sumLinks(model, step, group, SameLink::PerTransport,
                    [&](const MatrixLink &l) { return !l.isTotal() && l.opName == opName; });
}

std::vector<SlowLink> findSlowLinks(const ClusterModel &model)
{
    std::vector<SlowLink> found;
    const std::map<std::int64_t, std::vector<LinkTotal>> linksByStep = totalLinksByStep(model);
    for (std::int64_t step : model.stepNumbers()) {
        const auto links = linksByStep.find(step);
        if (links == linksByStep.end())
            continue;
        std::map<QString, std::vector<const LinkTotal *>> byTransport;
        for (const LinkTotal &l : links->second)
            // A bandwidth that is not finite (1e308 MB in a nanosecond) cannot be judged, nor can it make
            // the median of the others infinite.
            if (l.src != l.dst && l.time > 0 && l.sizeMb >= kSlowLinkMinSizeMb &&
                std::isfinite(l.bandwidthGbps()))
                byTransport[l.transport].push_back(&l);
        for (const auto &[transport, ofType] : byTransport) {
            if (ofType.size() < 2)
                continue;
            std::vector<double> bandwidths;
            for (const LinkTotal *l : ofType)
                bandwidths.push_back(l->bandwidthGbps());
            std::sort(bandwidths.begin(), bandwidths.end());
            const std::size_t n = bandwidths.size();
            // Halved before the sum: two bandwidths near DBL_MAX must not add up to infinity.
            const double median =
                n % 2 ? bandwidths[n / 2] : bandwidths[n / 2 - 1] / 2 + bandwidths[n / 2] / 2;
            for (const LinkTotal *l : ofType) {
                if (l->bandwidthGbps() >= kSlowLinkRatio * median)
                    continue;
                const auto atMedian =
                    median > 0 ? static_cast<TimeNs>(std::llround(l->sizeMb / median * 1e6)) : l->time;
                found.push_back({step, l->src, l->dst, transport, l->bandwidthGbps(), median,
                                 std::max<TimeNs>(0, l->time - atMedian)});
            }
        }
    }
    return found;
}

} // namespace at::cluster
