#include "cluster/ParallelStrategy.h"

#include "cluster/ClusterAnalysis.h"

#include <QCoreApplication>
#include <QHash>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <set>

namespace at::cluster {

namespace {

constexpr int index(ParallelDimension d)
{
    return static_cast<int>(d);
}

constexpr std::array<ParallelDimension, kParallelDimensionCount> kAllDimensions{
    ParallelDimension::TP, ParallelDimension::CP, ParallelDimension::EP, ParallelDimension::DP,
    ParallelDimension::PP};

// The pg names (FORMATS.md §9.3) whose groups are a dimension's, in order of preference. dp_cp is DP only
// while the job has no CP (then its groups are the dp groups: Qwen3's ranks 0/1 list dp_cp but no dp);
// dp_modulo_exp is DP beside an expert-parallel dimension (EP is carved out of DP in Megatron).
std::vector<QString> pgNamesOf(ParallelDimension d)
{
    switch (d) {
    case ParallelDimension::TP:
        return {QStringLiteral("tp")};
    case ParallelDimension::CP:
        return {QStringLiteral("cp"), QStringLiteral("cp_ulysses"), QStringLiteral("cp_ring")};
    case ParallelDimension::EP:
        return {QStringLiteral("exp"), QStringLiteral("ep")};
    case ParallelDimension::DP:
        return {QStringLiteral("dp"), QStringLiteral("dp_cp"), QStringLiteral("dp_modulo_exp")};
    case ParallelDimension::PP:
        return {QStringLiteral("pp")};
    }
    return {};
}

// One way to read a dimension: from the groups of one pg name that partition the ranks, each rank's
// position inside its group.
struct DimensionOption
{
    ParallelDimension dimension = ParallelDimension::TP;
    QString pgName;
    int size = 1;
    QHash<int, int> coordinate; // rank → position in its group
};

QString rankList(const std::vector<int> &ranks)
{
    QStringList parts;
    const std::size_t shown = std::min<std::size_t>(ranks.size(), 8);
    for (std::size_t i = 0; i < shown; ++i)
        parts << QString::number(ranks[i]);
    if (ranks.size() > shown)
        parts << QStringLiteral("…");
    return parts.join(QStringLiteral(", "));
}

// The groups of `name` when they partition `universe` into groups of one size; else nullopt and, in
// *problem, what is missing (the first incomplete pg name is the reason given for falling back).
std::optional<DimensionOption> partition(const ClusterModel &model, ParallelDimension d, const QString &name,
                                         const std::set<int> &universe, QString *problem)
{
    std::set<std::vector<int>> groups; // the same members under two keys count once
    for (const ParallelGroup *g : model.groupsNamed(name)) {
        std::vector<int> members = g->globalRanks;
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
        if (!members.empty())
            groups.insert(std::move(members));
    }
    if (groups.empty())
        return std::nullopt;
    DimensionOption option{d, name, static_cast<int>(groups.begin()->size()), {}};
    for (const std::vector<int> &members : groups) {
        if (static_cast<int>(members.size()) != option.size) {
            if (problem->isEmpty())
                *problem =
                    QCoreApplication::translate("Core", "the %1 groups differ in size (%2 and %3 ranks)")
                        .arg(name)
                        .arg(option.size)
                        .arg(members.size());
            return std::nullopt;
        }
        for (std::size_t i = 0; i < members.size(); ++i)
            if (option.coordinate.contains(members[i])) {
                if (problem->isEmpty())
                    *problem = QCoreApplication::translate("Core", "rank %1 is in two %2 groups")
                                   .arg(members[i])
                                   .arg(name);
                return std::nullopt;
            } else
                option.coordinate.insert(members[i], static_cast<int>(i));
    }
    std::vector<int> missing;
    for (int rank : universe)
        if (!option.coordinate.contains(rank))
            missing.push_back(rank);
    if (!missing.empty()) {
        if (problem->isEmpty())
            *problem = QCoreApplication::translate("Core", "no %1 group lists rank(s) %2 (each rank's "
                                                           "profiler_metadata.json lists only some groups)")
                           .arg(name, rankList(missing));
        return std::nullopt;
    }
    return option;
}

// Row and column of every rank: the dimensions in columns vary along a row (fastest first), the others
// down. The split is the one whose grid is closest to `aspect`; on a tie PP goes to rows (stages read top
// to bottom, as a pipeline flows) and TP to columns (a TP group, neighbouring devices, is a run in a row).
void layOut(ParallelStrategy &s, double aspect)
{
    const auto count = static_cast<int>(s.dimensions.size());
    double best = 0;
    unsigned bestMask = 0;
    for (unsigned mask = 0; mask < (1u << count); ++mask) {
        double columns = 1, rows = 1, penalty = 0;
        for (int i = 0; i < count; ++i) {
            const StrategyDimension &d = s.dimensions[static_cast<std::size_t>(i)];
            const bool inColumns = (mask >> i) & 1u;
            (inColumns ? columns : rows) *= d.size;
            if (d.dimension == ParallelDimension::PP && inColumns)
                penalty += 0.01;
            if (d.dimension == ParallelDimension::TP && !inColumns)
                penalty += 0.02;
        }
        const double cost = std::abs(std::log(columns / rows / aspect)) + penalty;
        if (mask == 0 || cost < best) {
            best = cost;
            bestMask = mask;
        }
    }
    s.rows = s.columns = 1;
    for (int i = 0; i < count; ++i) {
        StrategyDimension &d = s.dimensions[static_cast<std::size_t>(i)];
        d.inColumns = (bestMask >> i) & 1u;
        (d.inColumns ? s.columns : s.rows) *= d.size;
    }
    s.cells.assign(static_cast<std::size_t>(s.rows) * static_cast<std::size_t>(s.columns), -1);
    for (RankPlacement &p : s.ranks) {
        int row = 0, column = 0, rowStride = 1, columnStride = 1;
        for (const StrategyDimension &d : s.dimensions) {
            const int c = p.coordinate[static_cast<std::size_t>(index(d.dimension))];
            if (d.inColumns) {
                column += c * columnStride;
                columnStride *= d.size;
            } else {
                row += c * rowStride;
                rowStride *= d.size;
            }
        }
        p.row = row;
        p.column = column;
        s.cells[static_cast<std::size_t>(row) * static_cast<std::size_t>(s.columns) +
                static_cast<std::size_t>(column)] = p.rank;
    }
}

// The combination of options (one per dimension, or none) that places every rank of `universe` in its own
// cell of a full grid, preferring the earlier options and more dimensions.
std::optional<ParallelStrategy> fromGroups(const ClusterModel &model, const std::set<int> &universe,
                                           QString *problem)
{
    std::array<std::vector<std::optional<DimensionOption>>, kParallelDimensionCount> options;
    bool anyGroup = false;
    for (ParallelDimension d : kAllDimensions) {
        auto &list = options[static_cast<std::size_t>(index(d))];
        for (const QString &name : pgNamesOf(d)) {
            if (!model.groupsNamed(name).empty())
                anyGroup = true;
            if (std::optional<DimensionOption> o = partition(model, d, name, universe, problem)) {
                if (o->size > 1)
                    list.push_back(std::move(o));
                else
                    break; // size 1 (tp [0], [1], ...): the dimension is known to be absent
            }
        }
        list.push_back(std::nullopt); // the dimension absent
    }
    if (!anyGroup)
        return std::nullopt;
    const auto world = static_cast<double>(universe.size());
    std::array<std::size_t, kParallelDimensionCount> pick{};
    while (true) {
        double product = 1;
        for (std::size_t i = 0; i < pick.size(); ++i)
            if (const auto &o = options[i][pick[i]])
                product *= o->size;
        if (product == world && world > 1) {
            ParallelStrategy s;
            s.source = StrategySource::Groups;
            for (std::size_t i = 0; i < pick.size(); ++i)
                if (const auto &o = options[i][pick[i]])
                    s.dimensions.push_back({o->dimension, o->size, o->pgName, false});
            std::set<std::array<int, kParallelDimensionCount>> seen;
            bool unique = true;
            for (int rank : universe) {
                RankPlacement p;
                p.rank = rank;
                p.inModel = model.rank(rank) != nullptr;
                for (std::size_t i = 0; i < pick.size(); ++i)
                    if (const auto &o = options[i][pick[i]])
                        p.coordinate[i] = o->coordinate.value(rank);
                unique = unique && seen.insert(p.coordinate).second;
                s.ranks.push_back(p);
            }
            if (unique)
                return s;
        }
        // Next combination: the last dimension's options advance first.
        std::size_t i = pick.size();
        while (i > 0) {
            --i;
            if (++pick[i] < options[i].size())
                break;
            pick[i] = 0;
            if (i == 0)
                return std::nullopt;
        }
    }
}

std::optional<ParallelStrategy> fromDistributedArgs(const ClusterModel &model, QString *problem)
{
    const DistributedArgs &a = model.distributed;
    if (!a.present)
        return std::nullopt;
    const long long product = static_cast<long long>(a.tp) * a.cp * a.dp * a.pp;
    if (a.tp < 1 || a.cp < 1 || a.dp < 1 || a.pp < 1 || (a.worldSize > 0 && product != a.worldSize)) {
        *problem =
            QCoreApplication::translate("Core", "distributed_args: tp %1 × cp %2 × dp %3 × pp %4 is not "
                                                "the world size %5")
                .arg(a.tp)
                .arg(a.cp)
                .arg(a.dp)
                .arg(a.pp)
                .arg(a.worldSize);
        return std::nullopt;
    }
    const int world = static_cast<int>(product);
    for (const Rank &r : model.ranks)
        if (r.rank < 0 || r.rank >= world) {
            *problem =
                QCoreApplication::translate("Core", "rank %1 is beyond distributed_args' world size %2")
                    .arg(r.rank)
                    .arg(world);
            return std::nullopt;
        }
    // EP is carved out of DP (Megatron's tp-ep-dp-pp order of the expert groups): only without CP and
    // when it divides DP.
    const int ep = a.ep > 1 && a.cp == 1 && a.dp % a.ep == 0 ? a.ep : 1;
    const int dp = a.dp / ep;
    ParallelStrategy s;
    s.source = StrategySource::DistributedArgs;
    for (const auto &[d, size] :
         {std::pair{ParallelDimension::TP, a.tp}, std::pair{ParallelDimension::CP, a.cp},
          std::pair{ParallelDimension::EP, ep}, std::pair{ParallelDimension::DP, dp},
          std::pair{ParallelDimension::PP, a.pp}})
        if (size > 1)
            s.dimensions.push_back({d, size, QString(), false});
    if (s.dimensions.empty())
        return std::nullopt;
    for (int rank = 0; rank < world; ++rank) {
        RankPlacement p;
        p.rank = rank;
        p.inModel = model.rank(rank) != nullptr;
        const int dpIndex = rank / (a.tp * a.cp) % a.dp;
        const std::array<int, kParallelDimensionCount> c{rank % a.tp, rank / a.tp % a.cp, dpIndex % ep,
                                                         dpIndex / ep, rank / (a.tp * a.cp * a.dp)};
        for (const StrategyDimension &d : s.dimensions)
            p.coordinate[static_cast<std::size_t>(index(d.dimension))] =
                c[static_cast<std::size_t>(index(d.dimension))];
        s.ranks.push_back(p);
    }
    return s;
}

} // namespace

QString parallelDimensionName(ParallelDimension d)
{
    static const char *const names[] = {"TP", "CP", "EP", "DP", "PP"};
    return QString::fromLatin1(names[index(d)]);
}

QString parallelDimensionKey(ParallelDimension d)
{
    return parallelDimensionName(d).toLower();
}

QString strategySourceKey(StrategySource s)
{
    switch (s) {
    case StrategySource::Groups:
        return QStringLiteral("groups");
    case StrategySource::DistributedArgs:
        return QStringLiteral("distributed_args");
    case StrategySource::None:
        break;
    }
    return QStringLiteral("none");
}

const StrategyDimension *ParallelStrategy::dimension(ParallelDimension d) const
{
    for (const StrategyDimension &x : dimensions)
        if (x.dimension == d)
            return &x;
    return nullptr;
}

const RankPlacement *ParallelStrategy::placement(int rank) const
{
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank,
                                     [](const RankPlacement &p, int r) { return p.rank < r; });
    return it != ranks.end() && it->rank == rank ? &*it : nullptr;
}

int ParallelStrategy::rankAt(int row, int column) const
{
    if (row < 0 || column < 0 || row >= rows || column >= columns)
        return -1;
    return cells[static_cast<std::size_t>(row) * static_cast<std::size_t>(columns) +
                 static_cast<std::size_t>(column)];
}

std::vector<int> ParallelStrategy::groupAlong(int rank, ParallelDimension d) const
{
    const RankPlacement *p = placement(rank);
    if (!p || !dimension(d))
        return {};
    std::vector<int> group;
    for (const RankPlacement &q : ranks) {
        bool same = true;
        for (std::size_t i = 0; i < q.coordinate.size() && same; ++i)
            same = static_cast<int>(i) == index(d) || q.coordinate[i] == p->coordinate[i];
        if (same)
            group.push_back(q.rank);
    }
    return group;
}

QString ParallelStrategy::shapeText() const
{
    QStringList parts;
    for (const StrategyDimension &d : dimensions)
        parts << QStringLiteral("%1 %2").arg(parallelDimensionName(d.dimension)).arg(d.size);
    return parts.join(QStringLiteral(" × "));
}

ParallelStrategy parallelStrategy(const ClusterModel &model, double aspect)
{
    std::set<int> universe;
    for (const Rank &r : model.ranks)
        universe.insert(r.rank);
    for (const ParallelGroup &g : model.groups)
        universe.insert(g.globalRanks.begin(), g.globalRanks.end());
    universe.erase(-1);
    QString groupProblem, argsProblem;
    std::optional<ParallelStrategy> s = fromGroups(model, universe, &groupProblem);
    QString reason;
    if (!s) {
        reason = model.groups.empty()
                     ? QCoreApplication::translate("Core", "no parallel_group_info in the ranks' metadata")
                 : groupProblem.isEmpty()
                     ? QCoreApplication::translate("Core",
                                                   "the parallel groups do not place the %1 ranks on a grid")
                           .arg(universe.size())
                     : groupProblem;
        s = fromDistributedArgs(model, &argsProblem);
        if (!s) {
            ParallelStrategy none;
            const QString args =
                !model.distributed.present ? QCoreApplication::translate("Core", "no distributed_args")
                : argsProblem.isEmpty()
                    ? QCoreApplication::translate("Core", "distributed_args has no dimension "
                                                          "above 1")
                    : argsProblem;
            none.reason = QStringLiteral("%1; %2").arg(reason, args);
            return none;
        }
    }
    s->reason = reason;
    layOut(*s, aspect);
    return std::move(*s);
}

QString rankFigureName(RankFigure f)
{
    switch (f) {
    case RankFigure::StepTime:
        return QCoreApplication::translate("Core", "Mean step time");
    case RankFigure::Computing:
        return QCoreApplication::translate("Core", "Computing");
    case RankFigure::CommunicationNotOverlapped:
        return QCoreApplication::translate("Core", "Communication (not overlapped)");
    case RankFigure::Free:
        return QCoreApplication::translate("Core", "Free");
    case RankFigure::WaitRatio:
        return QCoreApplication::translate("Core", "Wait ratio");
    case RankFigure::PeakMemory:
        return QCoreApplication::translate("Core", "Peak memory");
    }
    return {};
}

RankFigureValues rankFigure(const ClusterModel &model, RankFigure f)
{
    RankFigureValues out;
    out.values.resize(model.ranks.size());
    switch (f) {
    case RankFigure::WaitRatio: {
        out.unit = QStringLiteral("%");
        QHash<int, std::pair<TimeNs, TimeNs>> sums; // rank → (wait, wait + transit)
        for (const RankCommunication &c : rankCommunication(model)) {
            auto &[wait, total] = sums[c.rank];
            wait += c.wait;
            total += c.wait + c.transit;
        }
        for (std::size_t i = 0; i < model.ranks.size(); ++i)
            if (const auto it = sums.constFind(model.ranks[i].rank); it != sums.constEnd() && it->second > 0)
                out.values[i] = 100.0 * static_cast<double>(it->first) / static_cast<double>(it->second);
        return out;
    }
    case RankFigure::PeakMemory:
        out.unit = QStringLiteral("MB");
        for (std::size_t i = 0; i < model.ranks.size(); ++i)
            if (const auto &peak = model.ranks[i].memoryPeak)
                out.values[i] = static_cast<double>(peak->bytes) / (1024.0 * 1024.0);
        return out;
    default:
        break;
    }
    out.unit = QStringLiteral("ms");
    for (std::size_t i = 0; i < model.ranks.size(); ++i) {
        const std::vector<RankStep> &steps = model.ranks[i].steps;
        if (steps.empty())
            continue;
        double sum = 0;
        for (const RankStep &s : steps)
            sum += static_cast<double>(f == RankFigure::StepTime    ? rankTotal(s)
                                       : f == RankFigure::Computing ? s.computing
                                       : f == RankFigure::CommunicationNotOverlapped
                                           ? s.communicationNotOverlapped
                                           : s.free);
        out.values[i] = sum / static_cast<double>(steps.size()) / 1e6;
    }
    return out;
}

} // namespace at::cluster
