#pragma once

// The column stream of a format-3 snapshot (section COLS): every thread's slice columns and every
// counter's samples as consecutive little-endian values, which on a little-endian host are the bytes of
// the model's vectors themselves. The sections only claim their columns (ColumnClaims); a reopen then
// decompresses the column frames straight into the claimed vectors.

#include "HugePages.h"
#include "SnapshotAccess.h"
#include "TraceModel.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace at::snapshot {

// The payload is compressed in frames of this many bytes, decompressed in parallel on reopen.
inline constexpr std::size_t kFrameBytes = std::size_t(4) << 20;

// A little-endian host reads and writes each column with one copy; a big-endian one swaps each value
// after the bytes are in place.
inline constexpr bool kLittleEndianHost = std::endian::native == std::endian::little;
static_assert(sizeof(TimeNs) == 8 && sizeof(StringId) == 4 && sizeof(SourceLocation) == 8 &&
              sizeof(double) == 8);

template <std::size_t Width> void swapBytes(char *p, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i, p += Width)
        std::reverse(p, p + Width);
}

// The sorted 64-bit columns (slice starts, source offsets, counter times) are stored as differences
// to the previous value: small repeating numbers that zstd compresses to a fraction and decompresses
// several times faster than the raw times. The differences restart every kDeltaBlockValues values,
// which is where frameSnapshot cuts a long column, so that each frame is decoded on its own.
inline constexpr std::size_t kDeltaBlockValues = kFrameBytes / 8;

// Replaces n 64-bit values (host order) by their differences; `first` is the index of p's value in
// its column.
inline void deltaEncode(char *p, std::size_t first, std::size_t n)
{
    std::uint64_t previous = 0;
    for (std::size_t i = 0; i < n; ++i, p += 8) {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        const std::uint64_t d = (first + i) % kDeltaBlockValues == 0 ? v : v - previous;
        previous = v;
        std::memcpy(p, &d, 8);
    }
}

// The inverse: running sums, restarted at p and at every block boundary.
inline void deltaDecode(char *p, std::size_t first, std::size_t n)
{
    for (std::size_t i = 0; i < n;) {
        const std::size_t blockEnd = std::min(n, i + kDeltaBlockValues - (first + i) % kDeltaBlockValues);
        std::uint64_t sum = 0;
        for (; i < blockEnd; ++i, p += 8) {
            std::uint64_t d;
            std::memcpy(&d, p, 8);
            sum += d;
            std::memcpy(p, &sum, 8);
        }
    }
}

// The stream columns of one slice table, in stream order, with whether each is delta-coded: the one
// list the writer, the claims and the validator follow. Table is SliceTable or const SliceTable.
template <typename Table, typename Fn> void forEachSliceColumn(Table &t, Fn &&fn)
{
    using A = SnapshotAccess;
    fn(A::start(t), true);
    fn(A::duration(t), false);
    fn(A::name(t), false);
    fn(A::category(t), false);
    fn(A::parent(t), false);
    fn(A::source(t), true);
}

// The same for the samples of one counter series.
template <typename Series, typename Fn> void forEachSampleColumn(Series &c, Fn &&fn)
{
    fn(c.times, true);
    fn(c.values, false);
}

// Every column of the column stream in stream order: the slice columns of each thread, then the
// samples of each counter, as the THRD and CNTR sections claim them.
template <typename Fn> void forEachStreamColumn(const TraceModel &m, Fn &&fn)
{
    for (const ThreadInfo &t : m.threads())
        forEachSliceColumn(t.slices, fn);
    for (const CounterSeries &c : m.counters())
        forEachSampleColumn(c, fn);
}

// The columns of the column stream are not read where their section mentions them: the section only
// claims them (which vector, how many values, in stream order), and they are filled once every
// section has been read. Reopening a snapshot then decompresses their zstd frames straight into the
// vectors instead of into a payload buffer that would be copied (two first-touch passes over most of
// the payload otherwise).
class ColumnClaims
{
public:
    struct Claim
    {
        void *column;                                   // a std::vector<T>
        char *(*allocate)(void *column, std::size_t n); // sizes it to n values and returns its bytes
        void (*fixByteOrder)(char *data, std::size_t n);
        std::size_t count;
        std::uint64_t offset; // in the stream
        std::uint64_t bytes;
        bool delta;           // stored as differences (deltaEncode)
        char *data = nullptr; // set by allocate

        // Decodes the bytes [from, to) of the stream, once they are in place: the differences of a
        // delta-coded column back to values (on a big-endian host, after the byte swap at the end).
        void decode(std::uint64_t from, std::uint64_t to) const
        {
            if (!delta || !kLittleEndianHost)
                return;
            const std::uint64_t first = (from - offset + 7) / 8, last = (to - offset) / 8; // whole values
            if (last > first)
                deltaDecode(data + first * 8, static_cast<std::size_t>(first),
                            static_cast<std::size_t>(last - first));
        }
    };

    // Claims past streamBytes fail, so a corrupt count never allocates more than the stream holds.
    explicit ColumnClaims(std::uint64_t streamBytes) : m_streamBytes(streamBytes) {}

    template <typename T> bool claim(std::vector<T> &column, std::uint64_t n, bool delta = false)
    {
        static_assert(sizeof(T) == 4 || sizeof(T) == 8);
        if (n > (m_streamBytes - m_used) / sizeof(T))
            return false;
        const auto count = static_cast<std::size_t>(n);
        m_claims.push_back(Claim{&column, &allocate<T>, &swapBytes<sizeof(T)>, count, m_used, n * sizeof(T),
                                 delta && sizeof(T) == 8});
        m_used += n * sizeof(T);
        return true;
    }
    // Every byte of the stream claimed, column by column as the COLS section lists them.
    bool matches(const std::vector<std::uint64_t> &sizes) const
    {
        if (m_used != m_streamBytes || sizes.size() != m_claims.size())
            return false;
        for (std::size_t i = 0; i < sizes.size(); ++i)
            if (sizes[i] != m_claims[i].bytes)
                return false;
        return true;
    }
    std::vector<Claim> &claims() { return m_claims; }
    // The first claim ending after stream offset `at` (claims are contiguous and in stream order).
    std::size_t claimAt(std::uint64_t at) const
    {
        return static_cast<std::size_t>(
            std::upper_bound(m_claims.begin(), m_claims.end(), at,
                             [](std::uint64_t a, const Claim &c) { return a < c.offset + c.bytes; }) -
            m_claims.begin());
    }

private:
    template <typename T> static char *allocate(void *column, std::size_t n)
    {
        auto &v = *static_cast<std::vector<T> *>(column);
        v.reserve(n);
        adviseHugePages(v.data(), n * sizeof(T)); // before resize touches the pages
        v.resize(n);
        return reinterpret_cast<char *>(v.data());
    }

    std::vector<Claim> m_claims;
    std::uint64_t m_streamBytes;
    std::uint64_t m_used = 0;
};

} // namespace at::snapshot
