#pragma once

#include "SliceTable.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace at {

// Level of detail for one SliceTable: per depth, the slices summarised into power-of-two time
// buckets (level l has buckets of 2^(shift + 2l) ns, up to one bucket for the whole depth), so that a
// zoomed-out lane is drawn from O(pixels) summaries instead of O(slices).
//
// Each level is a sorted list of disjoint records. A record is either the summary of one bucket
// (first covered ns, last covered ns, busy ns, dominant name) or a run of whole buckets covered by
// one slice. Because a record's first and last ns are covered for real and a summary never spans
// more than one bucket, choosing a level whose bucket is at most one pixel column makes "this
// column has work" exact: no column gains or loses work compared to drawing every slice.
// The view's pixel columns in time: column c holds the ns t with columnStart(c) <= t < columnStart(c + 1).
struct ColumnGrid
{
    TimeNs start = 0;
    double nsPerPixel = 1;
    TimeNs columnStart(std::int64_t c) const
    {
        return start + static_cast<TimeNs>(std::ceil(static_cast<double>(c) * nsPerPixel));
    }
    // floor((t - start) / nsPerPixel), corrected so that it agrees with columnStart exactly.
    std::int64_t columnOf(TimeNs t) const
    {
        auto c = static_cast<std::int64_t>(std::floor(static_cast<double>(t - start) / nsPerPixel));
        while (columnStart(c + 1) <= t)
            ++c;
        while (columnStart(c) > t)
            --c;
        return c;
    }
};

class SliceLod
{
public:
    // Depths with fewer slices are drawn slice by slice (cheap) and get no summary.
    static constexpr std::uint32_t kMinSlices = 256;
    // Slices per non-empty base bucket: memory (~24 B per record) against how early the summaries
    // take over from drawing slices (from one base bucket per pixel column on).
    static constexpr std::uint32_t kSlicesPerBaseBucket = 16;
    // Each level's bucket is 2^kLevelStep times the one below: half the memory of halving, and a
    // column still reads at most 2^(kLevelStep + 1) summaries.
    static constexpr int kLevelStep = 2;

    struct Record
    {
        TimeNs first = 0;  // first covered ns
        TimeNs last = 0;   // last covered ns (inclusive; == first for a zero-length slice)
        float busy = 0;    // covered ns inside [first, last] (union of the slices)
        StringId name = 0; // name of the slice covering the most of it
    };

    // What one pixel column shows.
    struct Column
    {
        float busy = 0;   // covered ns in the column
        float weight = 0; // busy of the record that named the column
        StringId name = 0;
        bool work = false; // some slice (even zero-length) lies in the column
    };

    static SliceLod build(const SliceTable &table);

    // Base bucket of depth d in ns, or 0 when the depth has no summary.
    TimeNs baseBucket(int depth) const;
    // Fills out[c] for the columns c = 0..count-1 of ColumnGrid{start, nsPerPixel} (the view's
    // floor((t - start) / nsPerPixel) mapping). False (out untouched) when the depth
    // has no summary or its base bucket is wider than a column: draw the slices instead.
    bool columns(int depth, TimeNs start, double nsPerPixel, int count, std::vector<Column> &out) const;

    int levelCount(int depth) const;
    const std::vector<Record> &level(int depth, int level) const;
    std::size_t memoryBytes() const;

private:
    struct Depth
    {
        int shift = -1; // log2 of the base bucket; -1: no summary
        TimeNs origin = 0;
        std::vector<std::vector<Record>> levels;
    };
    std::vector<Depth> m_depths;
};

} // namespace at
