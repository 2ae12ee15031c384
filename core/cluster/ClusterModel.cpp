#include "cluster/ClusterModel.h"

#include <algorithm>
#include <set>

namespace at::cluster {

QString breakdownSourceName(BreakdownSource source)
{
    switch (source) {
    case BreakdownSource::StepTraceCsv:
        return QStringLiteral("step_trace_time.csv");
    case BreakdownSource::Database:
        return QStringLiteral("database");
    case BreakdownSource::Timeline:
        return QStringLiteral("timeline");
    case BreakdownSource::ClusterAnalysisOutput:
        return QStringLiteral("cluster_step_trace_time.csv");
    case BreakdownSource::ClusterAnalysisDatabase:
        return QStringLiteral("cluster_analysis.db");
    }
    return {};
}

double TransportBandwidth::effectiveBandwidth() const
{
    if (bandwidthGbps)
        return *bandwidthGbps;
    return time > 0 ? sizeMb / (static_cast<double>(time) / 1e6) : 0.0;
}

const TransportBandwidth *CommOp::transport(const QString &name) const
{
    for (const TransportBandwidth &b : bandwidth)
        if (b.transport == name)
            return &b;
    return nullptr;
}

const Rank *ClusterModel::rank(int id) const
{
    for (const Rank &r : ranks)
        if (r.rank == id)
            return &r;
    return nullptr;
}

const ParallelGroup *ClusterModel::groupByHash(const QString &hash) const
{
    for (const ParallelGroup &g : groups)
        if (g.hash == hash)
            return &g;
    return nullptr;
}

std::vector<const ParallelGroup *> ClusterModel::groupsNamed(const QString &name) const
{
    std::vector<const ParallelGroup *> found;
    for (const ParallelGroup &g : groups)
        if (g.name == name)
            found.push_back(&g);
    return found;
}

std::vector<std::int64_t> ClusterModel::stepNumbers() const
{
    std::set<std::int64_t> steps;
    for (const Rank &r : ranks)
        for (const RankStep &s : r.steps)
            steps.insert(s.step);
    return {steps.begin(), steps.end()};
}

QString doubleHash(const QString &key)
{
    std::uint32_t h1 = 0, h2 = 0;
    for (QChar c : key) {
        h1 = h1 * 29u + c.unicode();
        h2 = h2 * 131u + c.unicode();
    }
    return QString::number((static_cast<std::uint64_t>(h1) << 32) | h2);
}

std::int64_t stepFromKey(const QString &key)
{
    if (!key.startsWith(QLatin1String("step")))
        return kNoStep;
    bool ok = false;
    const std::int64_t n = key.mid(4).toLongLong(&ok);
    return ok ? n : kNoStep;
}

} // namespace at::cluster
