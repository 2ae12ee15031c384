#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace at {

// Longest common subsequence of two symbol sequences, as index pairs (i into a, j into b),
// strictly increasing in both. Common prefix and suffix are matched directly; the rest uses
// Hirschberg's linear-space algorithm (O(n·m) time, O(n + m) memory). Beyond maxCells cells the
// middle is matched by the k-th occurrence of each symbol on both sides, kept order-preserving by a
// longest increasing subsequence: a common subsequence, not always the longest.
std::vector<std::pair<std::size_t, std::size_t>>
longestCommonSubsequence(const std::vector<std::int32_t> &a, const std::vector<std::int32_t> &b,
                         std::uint64_t maxCells = 400'000'000);

// The longest subsequence of `pairs` (given in increasing first) whose second is strictly increasing, in
// order (patience sorting, O(n log n)): the order-preserving part of a set of candidate matches.
std::vector<std::pair<std::size_t, std::size_t>>
longestIncreasingChain(const std::vector<std::pair<std::size_t, std::size_t>> &pairs);

} // namespace at
