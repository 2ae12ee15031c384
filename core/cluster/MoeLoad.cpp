#include "cluster/MoeLoad.h"

#include "cluster/ParallelStrategy.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace at::cluster {

namespace {

// The pg names whose groups are the EP groups to compare, in order of preference: "exp" is the expert group
// itself; tp_exp / mp_exp hold the EP ranks of several TP ranks (they route the same tokens).
const char *const kComparedPgNames[] = {"exp", "tp_exp", "mp_exp"};

QString memberText(const std::vector<int> &ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return parts.join(QLatin1Char(','));
}

// The ranks with grouped-matmul rows, for restricting the groups to them.
std::set<int> ranksWithRows(const ClusterModel &model)
{
    std::set<int> ranks;
    for (const Rank &r : model.ranks)
        if (!r.groupedMatmul.empty())
            ranks.insert(r.rank);
    return ranks;
}

// The groups of one of kComparedPgNames (restricted to `withRows`, two ranks at least, each member set once).
std::vector<MoeGroup> groupsFromPgNames(const ClusterModel &model, const std::set<int> &withRows)
{
    for (const char *pg : kComparedPgNames) {
        std::set<std::vector<int>> seen;
        std::vector<MoeGroup> groups;
        for (const ParallelGroup *g : model.groupsNamed(QString::fromLatin1(pg))) {
            std::vector<int> members;
            for (int r : g->globalRanks)
                if (withRows.count(r) > 0)
                    members.push_back(r);
            std::sort(members.begin(), members.end());
            members.erase(std::unique(members.begin(), members.end()), members.end());
            if (members.size() < 2 || !seen.insert(members).second)
                continue;
            groups.push_back({QString::fromLatin1(pg) + QLatin1Char(' ') + memberText(members), members});
        }
        if (!groups.empty())
            return groups;
    }
    return {};
}

// The EP groups the strategy grid places (distributed_args' expert_model_parallel_size), else all ranks.
std::vector<MoeGroup> groupsFromStrategy(const ClusterModel &model, const std::set<int> &withRows)
{
    const ParallelStrategy strategy = parallelStrategy(model);
    std::vector<MoeGroup> groups;
    if (strategy.dimension(ParallelDimension::EP)) {
        std::set<std::vector<int>> seen;
        for (int rank : withRows) {
            std::vector<int> members;
            for (int r : strategy.groupAlong(rank, ParallelDimension::EP))
                if (withRows.count(r) > 0)
                    members.push_back(r);
            if (members.size() >= 2 && seen.insert(members).second)
                groups.push_back({QStringLiteral("EP ") + memberText(members), members});
        }
    }
    if (groups.empty() && withRows.size() >= 2)
        groups.push_back({QCoreApplication::translate("Core", "all ranks"),
                          std::vector<int>(withRows.begin(), withRows.end())});
    return groups;
}

const GroupedMatmulStep *stepOf(const Rank &rank, std::int64_t step)
{
    const auto it = std::lower_bound(rank.groupedMatmul.begin(), rank.groupedMatmul.end(), step,
                                     [](const GroupedMatmulStep &s, std::int64_t v) { return s.step < v; });
    return it != rank.groupedMatmul.end() && it->step == step ? &*it : nullptr;
}

// The spread of one group in one step; ranks == 0 when fewer than two of its ranks have rows there.
MoeGroupStep spreadOf(const ClusterModel &model, const MoeGroup &group, std::int64_t step)
{
    MoeGroupStep s;
    s.step = step;
    double sum = 0, sumSquares = 0, timeSum = 0;
    for (int r : group.ranks) {
        const Rank *rank = model.rank(r);
        const GroupedMatmulStep *g = rank ? stepOf(*rank, step) : nullptr;
        if (!g)
            continue;
        if (s.ranks == 0 || g->tokens > s.maxTokens) {
            s.maxTokens = g->tokens;
            s.mostLoaded = r;
            s.mostLoadedTime = g->time;
        }
        if (s.ranks == 0 || g->tokens < s.minTokens) {
            s.minTokens = g->tokens;
            s.leastLoaded = r;
        }
        const auto tokens = static_cast<double>(g->tokens);
        sum += tokens;
        sumSquares += tokens * tokens;
        timeSum += static_cast<double>(g->time);
        ++s.ranks;
    }
    if (s.ranks < 2)
        return MoeGroupStep{};
    const double n = s.ranks;
    s.meanTokens = sum / n;
    s.meanTime = timeSum / n;
    if (s.meanTokens > 0) {
        s.maxOverMean = static_cast<double>(s.maxTokens) / s.meanTokens;
        const double variance = std::max(0.0, sumSquares / n - s.meanTokens * s.meanTokens);
        s.coefficientOfVariation = std::sqrt(variance) / s.meanTokens;
    }
    if (s.minTokens > 0)
        s.maxOverMin = static_cast<double>(s.maxTokens) / static_cast<double>(s.minTokens);
    return s;
}

} // namespace

bool isExpertParallelGroupName(const QString &pgName)
{
    return pgName == QLatin1String("exp") || pgName == QLatin1String("tp_exp") ||
           pgName == QLatin1String("mp_exp") || pgName.startsWith(QLatin1String("dp_modulo_exp"));
}

bool hasExpertParallelGroup(const ClusterModel &model)
{
    if (model.distributed.present && model.distributed.ep > 1)
        return true;
    return std::any_of(model.groups.begin(), model.groups.end(),
                       [](const ParallelGroup &g) { return isExpertParallelGroupName(g.name); });
}

bool isGroupedMatmul(const QString &typeOrName)
{
    return typeOrName.startsWith(QLatin1String("GroupedMatmul")) ||
           typeOrName.startsWith(QLatin1String("aclnnGroupedMatmul"));
}

std::optional<std::int64_t> firstInputRows(const QString &inputShapes)
{
    // The profiler writes the list quoted ("""8192,2048;16,2048""" in the file, "8192,2048;..." once read).
    QStringView text = QStringView(inputShapes).trimmed();
    while (text.startsWith(QLatin1Char('"')))
        text = text.mid(1);
    const qsizetype end = text.indexOf(QLatin1Char(','));
    const qsizetype input = text.indexOf(QLatin1Char(';'));
    const qsizetype cut = end < 0 ? input : (input < 0 ? end : std::min(end, input));
    QStringView first = (cut < 0 ? text : text.left(cut)).trimmed();
    while (first.endsWith(QLatin1Char('"')))
        first.chop(1);
    bool ok = false;
    const qint64 rows = first.toLongLong(&ok);
    if (!ok || rows < 0)
        return std::nullopt;
    return rows;
}

TimeNs MoeGroupStep::excessTime() const
{
    const double excess = static_cast<double>(mostLoadedTime) - meanTime;
    return excess > 0 ? static_cast<TimeNs>(std::llround(excess)) : 0;
}

std::optional<std::int64_t> MoeLoad::tokens(const ClusterModel &model, int rank, std::int64_t step) const
{
    const Rank *r = model.rank(rank);
    const GroupedMatmulStep *s = r ? stepOf(*r, step) : nullptr;
    return s ? std::optional<std::int64_t>(s->tokens) : std::nullopt;
}

MoeLoad moeLoad(const ClusterModel &model)
{
    MoeLoad load;
    if (!hasExpertParallelGroup(model)) {
        load.reason = QCoreApplication::translate(
            "Core", "no expert-parallel group: no exp / tp_exp / mp_exp / dp_modulo_exp group in "
                    "parallel_group_info and no expert_model_parallel_size above 1 in distributed_args");
        return load;
    }
    const std::set<int> withRows = ranksWithRows(model);
    if (withRows.empty()) {
        load.reason = QCoreApplication::translate(
            "Core", "no GroupedMatmul op in the ranks' kernel tables (kernel_details.csv): the MoE layers' "
                    "tokens per rank come from its rows");
        return load;
    }
    load.ranks.assign(withRows.begin(), withRows.end());
    std::set<std::int64_t> steps;
    for (const Rank &r : model.ranks)
        for (const GroupedMatmulStep &s : r.groupedMatmul)
            steps.insert(s.step);
    load.steps.assign(steps.begin(), steps.end());
    load.groups = groupsFromPgNames(model, withRows);
    if (load.groups.empty())
        load.groups = groupsFromStrategy(model, withRows);
    for (std::int64_t step : load.steps)
        for (std::size_t g = 0; g < load.groups.size(); ++g) {
            MoeGroupStep s = spreadOf(model, load.groups[g], step);
            if (s.ranks < 2)
                continue;
            s.group = static_cast<int>(g);
            load.groupSteps.push_back(s);
        }
    return load;
}

} // namespace at::cluster
