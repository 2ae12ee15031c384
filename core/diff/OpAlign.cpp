// Alignment of one level of the two op trees: a common subsequence of the two key sequences.
//
// Common prefix and suffix are matched first (O(n)). A middle of at most `exactCells` cells (n·m) gets the
// exact LCS (core/Lcs.h, Hirschberg: O(n·m) time, O(n + m) memory). A longer middle is cut at anchors, the
// keys that occur exactly once on each side, kept order-preserving by a longest increasing subsequence
// (patience diff, O(n log n)); each gap between anchors is aligned the same way. A long gap without any
// unique key (a repeated layer: the same few names over and over) gets the exact LCS inside a band of
// W = kBandWidth cells around the gap's diagonal (O(n·W) time, one byte a cell; W shrinks down to
// kMinBandWidth beyond kBandCells / kBandWidth keys so the band stays under 64 MB): exact as long as the
// two sides never drift more than W/2 ops apart from that diagonal. A gap whose sides differ too much in
// length for the band is matched by the k-th occurrence of each key on both sides, made order-preserving by a
// longest increasing subsequence (O(n log n)): a common subsequence, not always the longest.

#include "OpAlign.h"

#include "Lcs.h"

#include <algorithm>
#include <unordered_map>

namespace at::diff {

namespace {

using Sequence = std::vector<std::int32_t>;
using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

// Past this recursion depth a long gap is matched by occurrence directly (keeps the cost n log n).
constexpr int kMaxAnchorDepth = 24;
// Cells per row of the banded LCS (W): 100,000 × 512 one-byte directions = 51 MB at most.
constexpr std::size_t kBandWidth = 512;
constexpr std::size_t kMinBandWidth = 64;
constexpr std::size_t kBandCells = std::size_t(64) << 20;

class LevelAligner
{
public:
    LevelAligner(const Sequence &a, const Sequence &b, std::uint64_t exactCells, AlignStats &stats)
        : m_a(a), m_b(b), m_exactCells(exactCells), m_stats(stats)
    {}

    void align(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, int depth, Pairs &out)
    {
        while (a0 < a1 && b0 < b1 && m_a[a0] == m_b[b0])
            out.emplace_back(a0++, b0++);
        std::size_t suffix = 0;
        while (a1 - suffix > a0 && b1 - suffix > b0 && m_a[a1 - suffix - 1] == m_b[b1 - suffix - 1])
            ++suffix;
        a1 -= suffix;
        b1 -= suffix;
        if (a0 < a1 && b0 < b1) {
            const std::uint64_t cells = static_cast<std::uint64_t>(a1 - a0) * (b1 - b0);
            if (cells <= m_exactCells)
                exact(a0, a1, b0, b1, out);
            else if (depth >= kMaxAnchorDepth || !anchored(a0, a1, b0, b1, depth, out)) {
                if (!banded(a0, a1, b0, b1, out))
                    byOccurrence(a0, a1, b0, b1, out);
            }
        }
        for (std::size_t s = 0; s < suffix; ++s)
            out.emplace_back(a1 + s, b1 + s);
    }

private:
    void exact(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, Pairs &out)
    {
        ++m_stats.exactGaps;
        const Sequence a(m_a.begin() + static_cast<std::ptrdiff_t>(a0),
                         m_a.begin() + static_cast<std::ptrdiff_t>(a1));
        const Sequence b(m_b.begin() + static_cast<std::ptrdiff_t>(b0),
                         m_b.begin() + static_cast<std::ptrdiff_t>(b1));
        for (const auto &[i, j] : longestCommonSubsequence(a, b, ~std::uint64_t(0)))
            out.emplace_back(a0 + i, b0 + j);
    }

    // Exact LCS restricted to a band of kBandWidth cells around the diagonal from (a0, b0) to (a1, b1). False
    // when the band cannot follow that diagonal (one side more than W/2 times as long as the other).
    bool banded(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, Pairs &out)
    {
        const std::size_t n = a1 - a0, m = b1 - b0;
        const std::size_t band = std::clamp(kBandCells / (n + 1), kMinBandWidth, kBandWidth);
        const std::size_t half = band / 2;
        if (m / n + 2 >= half)
            return false;
        ++m_stats.bandedGaps;
        const auto low = [&](std::size_t i) -> std::size_t {
            const std::size_t centre = static_cast<std::size_t>(static_cast<unsigned __int128>(i) * m / n);
            return centre > half ? centre - half : 0;
        };
        const std::size_t width = band + 1;
        // dir: 0 unset, 1 diagonal (a match), 2 up (skip a[i-1]), 3 left (skip b[j-1]).
        std::vector<std::uint8_t> dir((n + 1) * width, 0);
        std::vector<std::uint32_t> previous(width, 0), current(width, 0);
        std::size_t previousLow = low(0);
        constexpr std::uint32_t kNone = 0; // scores are stored + 1 so that 0 means "outside the band"
        for (std::size_t k = 0; k < width; ++k)
            previous[k] = previousLow + k <= m ? 1 : kNone;
        for (std::size_t i = 1; i <= n; ++i) {
            const std::size_t lo = low(i);
            const std::int32_t ai = m_a[a0 + i - 1];
            for (std::size_t k = 0; k < width; ++k) {
                const std::size_t j = lo + k;
                current[k] = kNone;
                if (j > m)
                    continue;
                const auto at = [&](const std::vector<std::uint32_t> &row, std::size_t rowLow,
                                    std::size_t col) {
                    return col >= rowLow && col - rowLow < width ? row[col - rowLow] : kNone;
                };
                std::uint32_t best = kNone;
                std::uint8_t how = 0;
                if (j == 0) {
                    best = 1; // LCS of a prefix against nothing
                    how = 2;
                } else {
                    if (ai == m_b[b0 + j - 1]) {
                        if (const std::uint32_t diagonal = at(previous, previousLow, j - 1);
                            diagonal != kNone) {
                            best = diagonal + 1;
                            how = 1;
                        }
                    }
                    if (const std::uint32_t up = at(previous, previousLow, j); up > best) {
                        best = up;
                        how = 2;
                    }
                    if (const std::uint32_t left = k > 0 ? current[k - 1] : kNone; left > best) {
                        best = left;
                        how = 3;
                    }
                }
                current[k] = best;
                dir[i * width + k] = how;
            }
            std::swap(previous, current);
            previousLow = lo;
        }
        Pairs reversed;
        std::size_t i = n, j = m;
        while (i > 0 && j > 0) {
            const std::size_t lo = low(i);
            const std::uint8_t how = j >= lo && j - lo < width ? dir[i * width + (j - lo)] : 2;
            if (how == 1) {
                reversed.emplace_back(a0 + i - 1, b0 + j - 1);
                --i, --j;
            } else if (how == 3) {
                --j;
            } else {
                --i;
            }
        }
        out.insert(out.end(), reversed.rbegin(), reversed.rend());
        return true;
    }

    void byOccurrence(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, Pairs &out)
    {
        ++m_stats.occurrenceGaps;
        const Sequence a(m_a.begin() + static_cast<std::ptrdiff_t>(a0),
                         m_a.begin() + static_cast<std::ptrdiff_t>(a1));
        const Sequence b(m_b.begin() + static_cast<std::ptrdiff_t>(b0),
                         m_b.begin() + static_cast<std::ptrdiff_t>(b1));
        // maxCells 0: longestCommonSubsequence goes straight to its occurrence match for any non-empty
        // middle.
        for (const auto &[i, j] : longestCommonSubsequence(a, b, 0))
            out.emplace_back(a0 + i, b0 + j);
    }

    // Patience: the keys unique on both sides, order-preserving by a longest increasing subsequence; then
    // every gap recursively. False when there is no such key.
    bool anchored(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, int depth, Pairs &out)
    {
        struct Seen
        {
            std::uint32_t inA = 0, inB = 0;
            std::size_t i = 0, j = 0;
        };
        std::unordered_map<std::int32_t, Seen> seen;
        seen.reserve((a1 - a0) + (b1 - b0));
        for (std::size_t i = a0; i < a1; ++i) {
            Seen &s = seen[m_a[i]];
            ++s.inA;
            s.i = i;
        }
        for (std::size_t j = b0; j < b1; ++j) {
            Seen &s = seen[m_b[j]];
            ++s.inB;
            s.j = j;
        }
        Pairs candidates;
        for (std::size_t i = a0; i < a1; ++i) {
            const Seen &s = seen[m_a[i]];
            if (s.inA == 1 && s.inB == 1)
                candidates.emplace_back(i, s.j);
        }
        if (candidates.empty())
            return false;
        ++m_stats.anchoredGaps;
        const Pairs anchors = longestIncreasingChain(candidates); // candidates are increasing in i
        std::size_t i = a0, j = b0;
        for (const auto &[ai, bj] : anchors) {
            align(i, ai, j, bj, depth + 1, out);
            out.emplace_back(ai, bj);
            i = ai + 1;
            j = bj + 1;
        }
        align(i, a1, j, b1, depth + 1, out);
        return true;
    }

    const Sequence &m_a;
    const Sequence &m_b;
    const std::uint64_t m_exactCells;
    AlignStats &m_stats;
};

} // namespace

std::vector<std::pair<std::size_t, std::size_t>> alignLevelCounted(const std::vector<std::int32_t> &a,
                                                                   const std::vector<std::int32_t> &b,
                                                                   std::uint64_t exactCells,
                                                                   AlignStats &stats)
{
    Pairs out;
    LevelAligner(a, b, exactCells, stats).align(0, a.size(), 0, b.size(), 0, out);
    return out;
}

std::vector<std::pair<std::size_t, std::size_t>>
alignLevel(const std::vector<std::int32_t> &a, const std::vector<std::int32_t> &b, std::uint64_t exactCells)
{
    AlignStats stats;
    return alignLevelCounted(a, b, exactCells, stats);
}

} // namespace at::diff
