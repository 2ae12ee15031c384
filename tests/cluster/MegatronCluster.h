#pragma once
// A synthetic cluster with Megatron's parallel groups (tp fastest, then cp, then dp, then pp) and one step
// per rank in which rank r computes r ms longer: the parallel strategy's tests and benchmark.

#include "cluster/ClusterModel.h"

#include <map>
#include <vector>

namespace at::test {

using cluster::ClusterModel;
using cluster::ParallelGroup;
using cluster::Rank;
using cluster::RankStep;

// Megatron's coordinates of a rank (tp fastest, then cp, then dp, then pp).
struct Megatron
{
    int tp = 1, cp = 1, dp = 1, pp = 1;
    int world() const { return tp * cp * dp * pp; }
    int tpOf(int r) const { return r % tp; }
    int cpOf(int r) const { return r / tp % cp; }
    int dpOf(int r) const { return r / (tp * cp) % dp; }
    int ppOf(int r) const { return r / (tp * cp * dp); }
};

// The groups of one dimension: ranks agreeing on every other coordinate, in ascending order.
template <typename Key> inline void addGroups(ClusterModel &model, const QString &name, int world, Key key)
{
    std::map<std::vector<int>, std::vector<int>> groups;
    for (int r = 0; r < world; ++r)
        groups[key(r)].push_back(r);
    int n = static_cast<int>(model.groups.size());
    for (auto &entry : groups) {
        ParallelGroup g;
        g.key = QStringLiteral("group_name_%1").arg(n++);
        g.hash = cluster::doubleHash(g.key);
        g.name = name;
        g.globalRanks = entry.second;
        model.groups.push_back(std::move(g));
    }
}

inline ClusterModel megatronModel(const Megatron &m)
{
    ClusterModel model;
    for (int r = 0; r < m.world(); ++r) {
        Rank rank;
        rank.rank = r;
        RankStep s;
        s.step = 1;
        s.computing = 100'000'000 + r * 1'000'000; // rank r computes r ms longer
        s.communicationNotOverlapped = 20'000'000;
        s.free = 5'000'000;
        rank.steps.push_back(s);
        model.ranks.push_back(std::move(rank));
    }
    const int world = m.world();
    addGroups(model, QStringLiteral("tp"), world, [&](int r) {
        return std::vector<int>{m.cpOf(r), m.dpOf(r), m.ppOf(r)};
    });
    if (m.cp > 1)
        addGroups(model, QStringLiteral("cp"), world, [&](int r) {
            return std::vector<int>{m.tpOf(r), m.dpOf(r), m.ppOf(r)};
        });
    addGroups(model, QStringLiteral("dp"), world, [&](int r) {
        return std::vector<int>{m.tpOf(r), m.cpOf(r), m.ppOf(r)};
    });
    addGroups(model, QStringLiteral("pp"), world, [&](int r) {
        return std::vector<int>{m.tpOf(r), m.cpOf(r), m.dpOf(r)};
    });
    model.distributed = {m.tp, m.pp, m.dp, m.cp, 1, world, true};
    return model;
}

} // namespace at::test
