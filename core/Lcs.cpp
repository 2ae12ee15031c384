#include "Lcs.h"

#include <algorithm>
#include <unordered_map>

namespace at {

namespace {

using Sequence = std::vector<std::int32_t>;
using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

// LCS length of a[0, an) against every prefix b[0, j), j = 0..bn. When reversed, both ranges are
// read back to front (the suffix lengths Hirschberg needs).
void lengths(const std::int32_t *a, std::size_t an, const std::int32_t *b, std::size_t bn, bool reversed,
             std::vector<std::uint32_t> &row)
{
    row.assign(bn + 1, 0);
    std::vector<std::uint32_t> prev(bn + 1, 0);
    for (std::size_t i = 0; i < an; ++i) {
        std::swap(row, prev);
        row[0] = 0;
        const std::int32_t ai = reversed ? a[an - 1 - i] : a[i];
        for (std::size_t j = 1; j <= bn; ++j) {
            const std::int32_t bj = reversed ? b[bn - j] : b[j - 1];
            row[j] = ai == bj ? prev[j - 1] + 1 : std::max(prev[j], row[j - 1]);
        }
    }
}

void hirschberg(const std::int32_t *a, std::size_t an, std::size_t aOffset, const std::int32_t *b,
                std::size_t bn, std::size_t bOffset, Pairs &out)
{
    if (an == 0 || bn == 0)
        return;
    if (an == 1) {
        const auto it = std::find(b, b + bn, a[0]);
        if (it != b + bn)
            out.emplace_back(aOffset, bOffset + static_cast<std::size_t>(it - b));
        return;
    }
    const std::size_t mid = an / 2;
    std::vector<std::uint32_t> left, right;
    lengths(a, mid, b, bn, false, left);
    lengths(a + mid, an - mid, b, bn, true, right);
    std::size_t split = 0;
    std::uint32_t best = 0;
    for (std::size_t j = 0; j <= bn; ++j) {
        const std::uint32_t total = left[j] + right[bn - j];
        if (total > best || j == 0) {
            best = total;
            split = j;
        }
    }
    hirschberg(a, mid, aOffset, b, split, bOffset, out);
    hirschberg(a + mid, an - mid, aOffset + mid, b + split, bn - split, bOffset + split, out);
}

// k-th occurrence matching made order-preserving by a longest increasing subsequence on j.
void occurrenceMatch(const std::int32_t *a, std::size_t an, std::size_t aOffset, const std::int32_t *b,
                     std::size_t bn, std::size_t bOffset, Pairs &out)
{
    std::unordered_map<std::int32_t, std::vector<std::size_t>> positionsInB;
    for (std::size_t j = 0; j < bn; ++j)
        positionsInB[b[j]].push_back(j);
    std::unordered_map<std::int32_t, std::size_t> seen;
    Pairs candidates; // increasing in i
    for (std::size_t i = 0; i < an; ++i) {
        const auto it = positionsInB.find(a[i]);
        if (it == positionsInB.end())
            continue;
        std::size_t &k = seen[a[i]];
        if (k < it->second.size())
            candidates.emplace_back(i, it->second[k++]);
    }
    for (const auto &[i, j] : longestIncreasingChain(candidates))
        out.emplace_back(aOffset + i, bOffset + j);
}

} // namespace

Pairs longestIncreasingChain(const Pairs &pairs)
{
    // Patience sorting on second, with back links to rebuild the chain.
    std::vector<std::size_t> tails, previous(pairs.size(), SIZE_MAX);
    for (std::size_t c = 0; c < pairs.size(); ++c) {
        const auto pos = std::lower_bound(tails.begin(), tails.end(), pairs[c].second,
                                          [&](std::size_t t, std::size_t j) { return pairs[t].second < j; });
        if (pos != tails.begin())
            previous[c] = *(pos - 1);
        if (pos == tails.end())
            tails.push_back(c);
        else
            *pos = c;
    }
    Pairs chain;
    for (std::size_t c = tails.empty() ? SIZE_MAX : tails.back(); c != SIZE_MAX; c = previous[c])
        chain.push_back(pairs[c]);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

Pairs longestCommonSubsequence(const Sequence &a, const Sequence &b, std::uint64_t maxCells)
{
    Pairs out;
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) {
        out.emplace_back(prefix, prefix);
        ++prefix;
    }
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::size_t an = a.size() - prefix - suffix, bn = b.size() - prefix - suffix;
    if (static_cast<std::uint64_t>(an) * bn <= maxCells)
        hirschberg(a.data() + prefix, an, prefix, b.data() + prefix, bn, prefix, out);
    else
        occurrenceMatch(a.data() + prefix, an, prefix, b.data() + prefix, bn, prefix, out);
    for (std::size_t s = suffix; s > 0; --s)
        out.emplace_back(a.size() - s, b.size() - s);
    return out;
}

} // namespace at
