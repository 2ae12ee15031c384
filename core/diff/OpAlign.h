#pragma once
// How the levels of a diff were aligned (internal to core/diff; the API is alignLevel in OpDiff.h).

#include "OpDiff.h"

namespace at::diff {

struct AlignStats
{
    std::size_t exactGaps = 0;      // middles aligned by the exact LCS
    std::size_t anchoredGaps = 0;   // long middles cut at unique keys (patience)
    std::size_t bandedGaps = 0;     // long middles without unique keys: exact LCS inside a diagonal band
    std::size_t occurrenceGaps = 0; // ... too lopsided for the band: k-th occurrence + LIS
};

std::vector<std::pair<std::size_t, std::size_t>> alignLevelCounted(const std::vector<std::int32_t> &a,
                                                                   const std::vector<std::int32_t> &b,
                                                                   std::uint64_t exactCells,
                                                                   AlignStats &stats);

} // namespace at::diff
