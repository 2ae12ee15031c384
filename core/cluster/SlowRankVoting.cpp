#include "cluster/SlowRankVoting.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace at::cluster {

namespace {

// One-sided Dixon critical values at 99.5 % for n = 3 … 100 (the published table msprof-analyze's
// recipes/slow_rank/dixon_table.py holds). The jumps at n = 8, 11 and 14 are where the statistic changes
// from r10 to r11, r21 and r22.
constexpr std::array<double, 98> kDixon995 = {
    0.994, 0.920, 0.823, 0.744, 0.680, 0.723, 0.676, 0.638, 0.707, 0.675, 0.649, 0.672, 0.649, 0.629,
    0.611, 0.595, 0.580, 0.568, 0.556, 0.545, 0.536, 0.526, 0.519, 0.510, 0.503, 0.496, 0.489, 0.484,
    0.478, 0.473, 0.468, 0.463, 0.458, 0.454, 0.450, 0.446, 0.442, 0.439, 0.435, 0.432, 0.429, 0.425,
    0.423, 0.420, 0.417, 0.414, 0.412, 0.409, 0.407, 0.405, 0.402, 0.400, 0.398, 0.396, 0.394, 0.392,
    0.391, 0.388, 0.387, 0.385, 0.383, 0.382, 0.380, 0.379, 0.377, 0.376, 0.374, 0.372, 0.371, 0.370,
    0.368, 0.368, 0.366, 0.365, 0.364, 0.363, 0.361, 0.360, 0.359, 0.358, 0.356, 0.356, 0.355, 0.353,
    0.352, 0.352, 0.351, 0.350, 0.349, 0.348, 0.347, 0.346, 0.345, 0.344, 0.344, 0.343, 0.341, 0.341};

// Dixon's statistic for the lowest value changes with n (r10 up to 7 values, r11 up to 10, r21 up to 13,
// r22 above): the gap skips one more neighbour and the range one more extreme, so that a second outlier
// does not hide the first.
constexpr int kDixonR10Max = 7, kDixonR11Max = 10, kDixonR21Max = 13;

} // namespace

double dixonCritical995(int n)
{
    return n >= 3 && n <= kDixonMaxRanks ? kDixon995[static_cast<std::size_t>(n - 3)] : 0.0;
}

bool isPointToPoint(const CommOp &op)
{
    return op.p2p || op.name.contains(QLatin1String("send"), Qt::CaseInsensitive) ||
           op.name.contains(QLatin1String("receive"), Qt::CaseInsensitive);
}

QString outlierTestKey(OutlierTest test)
{
    switch (test) {
    case OutlierTest::Dixon:
        return QStringLiteral("dixon");
    case OutlierTest::ThreeSigma:
        return QStringLiteral("3sigma");
    case OutlierTest::None:
        break;
    }
    return QStringLiteral("none");
}

OutlierResult dixonTest(const std::vector<double> &times)
{
    OutlierResult r;
    const auto n = static_cast<int>(times.size());
    if (n < 3 || n > kDixonMaxRanks)
        return r;
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    // With at most 3 distinct values a denominator may be 0: not tested (msprof-analyze's guard).
    if (std::set<double>(sorted.begin(), sorted.end()).size() <= 3)
        return r;
    r.test = OutlierTest::Dixon;
    const auto at = [&](int i) { return sorted[static_cast<std::size_t>(i)]; };
    double gap = 0, range = 0;
    if (n <= kDixonR10Max) {
        gap = at(1) - at(0);
        range = at(n - 1) - at(0);
    } else if (n <= kDixonR11Max) {
        gap = at(1) - at(0);
        range = at(n - 2) - at(0);
    } else if (n <= kDixonR21Max) {
        gap = at(2) - at(0);
        range = at(n - 2) - at(0);
    } else {
        gap = at(2) - at(0);
        range = at(n - 3) - at(0);
    }
    r.statistic = range != 0 ? gap / range : 0.0;
    r.critical = dixonCritical995(n);
    if (r.statistic > r.critical) // the first of the shortest, in the times' order
        r.outliers.push_back(
            static_cast<std::size_t>(std::find(times.begin(), times.end(), at(0)) - times.begin()));
    return r;
}

OutlierResult threeSigmaTest(const std::vector<double> &times)
{
    OutlierResult r;
    if (times.empty())
        return r;
    r.test = OutlierTest::ThreeSigma;
    r.critical = kSigmaThreshold;
    const double n = static_cast<double>(times.size());
    const double mean = std::accumulate(times.begin(), times.end(), 0.0) / n;
    double squares = 0;
    for (double t : times)
        squares += (t - mean) * (t - mean);
    const double sigma = std::sqrt(squares / n);
    const auto minIt = std::min_element(times.begin(), times.end());
    const auto maxIt = std::max_element(times.begin(), times.end());
    r.statistic = sigma > 0 ? (mean - *minIt) / sigma : 0.0;
    const double low = mean - kSigmaThreshold * sigma, high = mean + kSigmaThreshold * sigma;
    for (std::size_t i = 0; i < times.size(); ++i)
        if (times[i] < low)
            r.outliers.push_back(i);
    // A long outlier means the others waited for the shortest rank as well (msprof-analyze's rule).
    const auto shortest = static_cast<std::size_t>(minIt - times.begin());
    if (*maxIt > high && std::find(r.outliers.begin(), r.outliers.end(), shortest) == r.outliers.end())
        r.outliers.push_back(shortest);
    return r;
}

OutlierResult shortOutliers(const std::vector<double> &times)
{
    return static_cast<int>(times.size()) <= kDixonMaxRanks ? dixonTest(times) : threeSigmaTest(times);
}

const TestedCollective *SlowRankVoting::collective(std::int64_t step, const QString &op,
                                                   const QString &group) const
{
    for (const TestedCollective &c : collectives)
        if (c.step == step && c.op == op && c.group == group)
            return &c;
    return nullptr;
}

SlowRankVoting voteSlowRanks(const ClusterModel &model)
{
    SlowRankVoting voting;
    // group → (step, op) → the ranks' entries, in rank order
    using Entries = std::vector<std::pair<int, const CommOp *>>;
    std::map<QString, std::map<std::pair<std::int64_t, QString>, Entries>> byGroup;
    std::set<std::tuple<std::int64_t, QString, QString>> p2pInstances;
    for (const Rank &r : model.ranks)
        for (const CommOp &op : r.ops) {
            if (op.total)
                continue;
            if (isPointToPoint(op)) {
                p2pInstances.insert({op.step, op.name, op.group});
                continue;
            }
            byGroup[op.group][{op.step, op.name}].push_back({r.rank, &op});
        }
    voting.leftOutP2p = static_cast<int>(p2pInstances.size());

    std::map<std::pair<int, QString>, RankGroupVotes> votes;
    for (const auto &[group, ops] : byGroup) {
        // A group whose ops were not recorded on the same number of ranks cannot be compared op by op.
        std::set<std::size_t> counts;
        for (const auto &[key, entries] : ops)
            counts.insert(entries.size());
        if (counts.size() > 1) {
            voting.leftOutGroups.push_back(group);
            continue;
        }
        for (const auto &[key, entries] : ops) {
            if (entries.size() < 3) {
                ++voting.tooFewRanks;
                continue;
            }
            std::vector<double> times;
            times.reserve(entries.size());
            for (const auto &entry : entries)
                times.push_back(static_cast<double>(entry.second->elapse));
            TestedCollective c;
            c.step = key.first;
            c.op = key.second;
            c.group = group;
            c.result = shortOutliers(times);
            if (c.result.test == OutlierTest::None) {
                ++voting.tooFewDistinct;
                continue;
            }
            TimeNs sum = 0;
            c.start = entries.front().second->startAbsolute;
            for (const auto &[rank, op] : entries) {
                c.ranks.push_back(rank);
                c.waits.push_back(op->wait);
                sum += op->elapse;
                c.start = std::min(c.start, op->startAbsolute);
            }
            c.meanElapse = sum / static_cast<TimeNs>(entries.size());
            std::vector<std::size_t> outliers = c.result.outliers;
            std::sort(outliers.begin(), outliers.end(),
                      [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
            for (std::size_t i : outliers)
                c.voted.push_back(entries[i].first);
            if (!outliers.empty()) {
                c.votedElapse = entries[outliers.front()].second->elapse;
                c.start = entries[outliers.front()].second->startAbsolute;
            }
            for (std::size_t i = 0; i < entries.size(); ++i) {
                if (std::find(outliers.begin(), outliers.end(), i) != outliers.end())
                    continue;
                const CommOp &op = *entries[i].second;
                c.othersWait += op.wait;
                if (c.longestWaiter < 0 || op.wait > c.longestWait) {
                    c.longestWaiter = entries[i].first;
                    c.longestWait = op.wait;
                }
            }
            for (int rank : c.ranks) {
                RankGroupVotes &v = votes[{rank, group}];
                v.rank = rank;
                v.group = group;
                ++v.collectives;
            }
            for (int rank : c.voted) {
                RankGroupVotes &v = votes[{rank, group}];
                ++v.votes;
                v.othersWait += c.othersWait;
            }
            voting.collectives.push_back(std::move(c));
        }
    }
    std::sort(voting.collectives.begin(), voting.collectives.end(),
              [](const TestedCollective &a, const TestedCollective &b) {
                  return std::tie(a.step, a.start, a.op, a.group) < std::tie(b.step, b.start, b.op, b.group);
              });
    std::map<int, int> perRank;
    for (const auto &[key, v] : votes)
        if (v.votes > 0) {
            voting.votes.push_back(v);
            perRank[v.rank] += v.votes;
        }
    std::stable_sort(voting.votes.begin(), voting.votes.end(),
                     [](const RankGroupVotes &a, const RankGroupVotes &b) { return a.votes > b.votes; });
    voting.votesPerRank.assign(perRank.begin(), perRank.end());
    std::stable_sort(voting.votesPerRank.begin(), voting.votesPerRank.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    return voting;
}

QString groupLabel(const ClusterModel &model, const QString &hash)
{
    const ParallelGroup *g = model.groupByHash(hash);
    if (!g || g->name.isEmpty())
        return hash;
    QStringList ranks;
    for (int r : g->globalRanks)
        ranks << QString::number(r);
    return QStringLiteral("%1 %2").arg(g->name, ranks.join(QLatin1Char(',')));
}

} // namespace at::cluster
