#include "SliceLod.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace at {

namespace {

// Appends the records of one level in time order. Pieces must arrive in time order and disjoint;
// a summary piece lies inside one bucket, a full piece is covered for all of its length.
class LevelWriter
{
public:
    LevelWriter(int shift, TimeNs origin, std::vector<SliceLod::Record> &out)
        : m_shift(shift), m_origin(origin), m_out(out)
    {}

    std::int64_t bucketOf(TimeNs t) const { return (t - m_origin) >> m_shift; }
    TimeNs bucketStart(std::int64_t b) const { return m_origin + (b << m_shift); }

    void addSummary(TimeNs first, TimeNs last, float busy, StringId name, float weight)
    {
        const std::int64_t b = bucketOf(first);
        if (!m_open || b != m_bucket) {
            flush();
            m_open = true;
            m_bucket = b;
            m_acc = {first, last, busy, name};
            m_weight = weight;
            return;
        }
        m_acc.last = std::max(m_acc.last, last);
        m_acc.busy += busy;
        if (weight > m_weight) {
            m_weight = weight;
            m_acc.name = name;
        }
    }

    // [begin, end) fully covered by one slice (end > begin).
    void addFull(TimeNs begin, TimeNs end, StringId name)
    {
        const std::int64_t b0 = bucketOf(begin);
        const std::int64_t b1 = bucketOf(end - 1);
        if (b0 == b1) {
            const auto len = static_cast<float>(end - begin);
            addSummary(begin, end - 1, len, name, len);
            return;
        }
        TimeNs runBegin = begin;
        if (begin > bucketStart(b0)) { // head: the part of the first bucket
            runBegin = bucketStart(b0 + 1);
            const auto len = static_cast<float>(runBegin - begin);
            addSummary(begin, runBegin - 1, len, name, len);
        }
        const TimeNs runEnd = end == bucketStart(b1 + 1) ? end : bucketStart(b1);
        if (runEnd > runBegin) { // whole buckets: one record however many
            flush();
            m_out.push_back({runBegin, runEnd - 1, static_cast<float>(runEnd - runBegin), name});
        }
        if (runEnd < end) { // tail: opens the last bucket's summary
            const auto len = static_cast<float>(end - runEnd);
            addSummary(runEnd, end - 1, len, name, len);
        }
    }

    void flush()
    {
        if (m_open)
            m_out.push_back(m_acc);
        m_open = false;
    }

private:
    int m_shift;
    TimeNs m_origin;
    std::vector<SliceLod::Record> &m_out;
    bool m_open = false;
    std::int64_t m_bucket = 0;
    SliceLod::Record m_acc;
    float m_weight = 0;
};

void addTo(SliceLod::Column &col, float share, StringId name)
{
    col.work = true;
    col.busy += share;
    if (share > col.weight || col.name == 0) {
        col.weight = std::max(col.weight, share);
        col.name = name;
    }
}

int floorLog2(std::uint64_t v)
{
    return v == 0 ? 0 : 63 - std::countl_zero(v);
}

// Base bucket: the finest power of two at which the slices start in at most n / kSlicesPerBaseBucket
// distinct buckets. Counting buckets (not averaging gaps) keeps the memory bounded however the
// slices cluster: a lane busy in short bursts far apart still gets few records.
int baseShift(const SliceTable &t, std::uint32_t first, std::uint32_t last)
{
    const TimeNs origin = t.start(first);
    const std::uint32_t budget = std::max<std::uint32_t>(1, (last - first) / SliceLod::kSlicesPerBaseBucket);
    auto fits = [&](int shift) {
        std::uint32_t buckets = 0;
        std::int64_t previous = -1;
        for (std::uint32_t i = first; i < last && buckets <= budget; ++i) {
            const std::int64_t b = (t.start(i) - origin) >> shift;
            buckets += b != previous;
            previous = b;
        }
        return buckets <= budget;
    };
    int lo = 0, hi = 62; // fits(62) always: every start is in bucket 0
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (fits(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

} // namespace

SliceLod SliceLod::build(const SliceTable &table)
{
    SliceLod lod;
    lod.m_depths.resize(static_cast<std::size_t>(std::max(0, table.depthCount())));
    for (int d = 0; d < table.depthCount(); ++d) {
        const auto [first, last] = table.depthRange(d);
        if (last - first < kMinSlices)
            continue;
        Depth &depth = lod.m_depths[static_cast<std::size_t>(d)];
        depth.shift = baseShift(table, first, last);
        depth.origin = table.start(first);
        TimeNs spanEnd = depth.origin;

        // Level 0 from the slices. Slices at one depth only overlap when the input nests
        // improperly; each is clipped to what is not covered yet, so pieces stay disjoint.
        std::vector<Record> level;
        LevelWriter writer(depth.shift, depth.origin, level);
        TimeNs coveredUntil = depth.origin;
        for (std::uint32_t i = first; i < last; ++i) {
            const TimeNs s = std::max(table.start(i), coveredUntil);
            const TimeNs e = table.end(i);
            spanEnd = std::max(spanEnd, e);
            if (table.duration(i) == 0) {
                if (table.start(i) >= coveredUntil) {
                    writer.addSummary(s, s, 0, table.name(i), 0);
                    coveredUntil = s + 1;
                }
            } else if (e > s) {
                writer.addFull(s, e, table.name(i));
                coveredUntil = e;
            }
        }
        writer.flush();
        depth.levels.push_back(std::move(level));

        // Each next level from the one below: summaries fit in one parent bucket; a record that
        // spans two parent buckets can only be a run, so it is split as a covered interval.
        for (int shift = depth.shift + kLevelStep; shift < 62; shift += kLevelStep) {
            const std::vector<Record> &below = depth.levels.back();
            if (below.size() <= 1 || (spanEnd - depth.origin) >> (shift - kLevelStep) == 0)
                break;
            std::vector<Record> next;
            next.reserve(below.size() / 2 + 2);
            LevelWriter up(shift, depth.origin, next);
            for (const Record &r : below) {
                if (up.bucketOf(r.first) == up.bucketOf(r.last))
                    up.addSummary(r.first, r.last, r.busy, r.name, r.busy);
                else
                    up.addFull(r.first, r.last + 1, r.name);
            }
            up.flush();
            next.shrink_to_fit();
            depth.levels.push_back(std::move(next));
        }
    }
    return lod;
}

TimeNs SliceLod::baseBucket(int depth) const
{
    if (depth < 0 || static_cast<std::size_t>(depth) >= m_depths.size())
        return 0;
    const Depth &d = m_depths[static_cast<std::size_t>(depth)];
    return d.shift < 0 ? 0 : TimeNs(1) << d.shift;
}

int SliceLod::levelCount(int depth) const
{
    return static_cast<int>(m_depths[static_cast<std::size_t>(depth)].levels.size());
}

const std::vector<SliceLod::Record> &SliceLod::level(int depth, int level) const
{
    return m_depths[static_cast<std::size_t>(depth)].levels[static_cast<std::size_t>(level)];
}

bool SliceLod::columns(int depth, TimeNs start, double nsPerPixel, int count, std::vector<Column> &out) const
{
    const TimeNs base = baseBucket(depth);
    if (base == 0 || count <= 0 || !(nsPerPixel >= static_cast<double>(base)))
        return false;
    const Depth &dl = m_depths[static_cast<std::size_t>(depth)];
    // The coarsest level whose bucket is at most a column wide: a summary then touches at most
    // two columns, and its first and last ns (both covered) say which.
    const int wanted = (floorLog2(static_cast<std::uint64_t>(nsPerPixel)) - dl.shift) / kLevelStep;
    const int l = std::clamp(wanted, 0, static_cast<int>(dl.levels.size()) - 1);
    const std::vector<Record> &records = dl.levels[static_cast<std::size_t>(l)];

    out.assign(static_cast<std::size_t>(count), Column{});
    const ColumnGrid grid{start, nsPerPixel};
    const TimeNs end = grid.columnStart(count); // first ns after the last column
    auto it = std::lower_bound(records.begin(), records.end(), start,
                               [](const Record &r, TimeNs t) { return r.last < t; });
    if (it == records.end() || it->first >= end)
        return true;
    // Records are sorted and disjoint: walk the columns along with them instead of dividing.
    std::int64_t c = grid.columnOf(std::max(it->first, start));
    TimeNs columnEnd = grid.columnStart(c + 1);
    for (; it != records.end() && it->first < end; ++it) {
        const TimeNs from = std::max(it->first, start);
        while (from >= columnEnd)
            columnEnd = grid.columnStart(++c + 1);
        const double extent = static_cast<double>(it->last - it->first + 1);
        if (it->last < columnEnd) { // the common case: inside one column
            const float share =
                from == it->first
                    ? it->busy
                    : static_cast<float>(it->busy * static_cast<double>(it->last + 1 - from) / extent);
            addTo(out[static_cast<std::size_t>(c)], share, it->name);
            continue;
        }
        TimeNs columnBegin = from;
        for (std::int64_t k = c; k < count && columnBegin <= it->last; ++k) {
            const TimeNs kEnd = grid.columnStart(k + 1);
            const TimeNs to = std::min(it->last + 1, kEnd);
            addTo(out[static_cast<std::size_t>(k)],
                  static_cast<float>(it->busy * static_cast<double>(to - columnBegin) / extent), it->name);
            columnBegin = kEnd;
        }
    }
    return true;
}

std::size_t SliceLod::memoryBytes() const
{
    std::size_t bytes = m_depths.capacity() * sizeof(Depth);
    for (const Depth &d : m_depths) {
        bytes += d.levels.capacity() * sizeof(std::vector<Record>);
        for (const auto &l : d.levels)
            bytes += l.capacity() * sizeof(Record);
    }
    return bytes;
}

} // namespace at
