#pragma once

#include "StringPool.h"
#include "Time.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace at {

// Where an event's full text lives, so that args can be re-read on demand instead of being kept
// in memory: source file index (16 bits) and byte offset of the event in that file (48 bits).
using SourceLocation = std::uint64_t;
constexpr SourceLocation kNoSource = ~SourceLocation(0);
constexpr SourceLocation makeSourceLocation(std::uint32_t file, std::uint64_t offset)
{
    return (static_cast<std::uint64_t>(file) << 48) | (offset & 0xFFFFFFFFFFFFull);
}
constexpr std::uint32_t sourceFile(SourceLocation loc)
{
    return static_cast<std::uint32_t>(loc >> 48);
}
constexpr std::uint64_t sourceOffset(SourceLocation loc)
{
    return loc & 0xFFFFFFFFFFFFull;
}

// The slices of one thread track, in columns, ordered by (depth, start).
//
// The nesting pass keeps both the starts and the ends sorted at each depth (slices at one depth
// only overlap when the input itself nests improperly), so "which slices overlap [t0, t1] at
// depth d" is one binary search plus a scan of the k results, O(log n + k), with no index memory
// beyond the columns (36 bytes a slice).
class SliceTable
{
public:
    std::size_t size() const { return m_start.size(); }
    bool empty() const { return m_start.empty(); }
    int depthCount() const { return static_cast<int>(m_depthBegin.size()) - 1; }
    // Index range [first, second) of the slices at depth d.
    std::pair<std::uint32_t, std::uint32_t> depthRange(int d) const
    {
        return {m_depthBegin[static_cast<std::size_t>(d)], m_depthBegin[static_cast<std::size_t>(d) + 1]};
    }
    int depthOf(std::uint32_t index) const;

    TimeNs start(std::uint32_t i) const { return m_start[i]; }
    TimeNs duration(std::uint32_t i) const { return m_duration[i]; }
    TimeNs end(std::uint32_t i) const { return m_start[i] + m_duration[i]; }
    StringId name(std::uint32_t i) const { return m_name[i]; }
    StringId category(std::uint32_t i) const { return m_category[i]; }
    // Index of the enclosing slice one level up, or -1 at depth 0.
    std::int32_t parent(std::uint32_t i) const { return m_parent[i]; }
    SourceLocation source(std::uint32_t i) const { return m_source[i]; }
    const std::vector<StringId> &names() const { return m_name; }

    // First slice at depth d whose end is >= t (touching counts as overlapping).
    std::uint32_t firstEndingAtOrAfter(int d, TimeNs t) const;
    // First slice at depth d whose start is >= t.
    std::uint32_t firstStartingAtOrAfter(int d, TimeNs t) const;

    // Calls fn(index) for each slice at depth d overlapping [t0, t1], in start order.
    template <typename Fn> void forEachOverlapping(int d, TimeNs t0, TimeNs t1, Fn &&fn) const
    {
        const auto last = depthRange(d).second;
        for (auto i = firstEndingAtOrAfter(d, t0); i < last && m_start[i] <= t1; ++i)
            fn(i);
    }

    // The slice at depth d covering time t (start <= t <= end), or -1.
    std::int64_t sliceAt(int d, TimeNs t) const;

    std::size_t memoryBytes() const;

    // Input for build(): one raw slice in any order.
    struct Raw
    {
        TimeNs start;
        TimeNs duration;
        StringId name;
        StringId category;
        SourceLocation source;
    };
    // Sorts, nests by a stack (a slice becomes the child of the innermost open slice that contains
    // it), and stores the result. A slice that starts inside another but ends after it (improper
    // nesting, e.g. Python frames around ProfilerStep) is placed beside it at the same depth rather
    // than under it; times are never altered, so no data is dropped.
    static SliceTable build(std::vector<Raw> raw);

private:
    friend class SnapshotAccess; // parser/snapshot saves and restores the columns
    std::vector<TimeNs> m_start;
    std::vector<TimeNs> m_duration;
    std::vector<StringId> m_name;
    std::vector<StringId> m_category;
    std::vector<std::int32_t> m_parent;
    std::vector<SourceLocation> m_source;
    std::vector<std::uint32_t> m_depthBegin{0};
};

} // namespace at
