#include "snapshot/SnapshotCodec.h"

#include "HugePages.h"
#include "SnapshotAccess.h"
#include "Steps.h"
#include "snapshot/SnapshotArgs.h"
#include "snapshot/SnapshotBytes.h"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <latch>
#include <map>
#include <memory>
#include <span>
#include <thread>

namespace at::snapshot {

namespace {

constexpr char kMagic[8] = {'A', 'T', 'S', 'N', 'A', 'P', '\r', '\n'};
// A snapshot of a huge trace is still far below this; a corrupt size must not allocate more.
constexpr std::uint64_t kMaxPayload = std::uint64_t(16) << 30;
// Sets the zstd level: 3 compresses the columns about as well as 9 at a fraction of the time.
constexpr int kZstdLevel = 3;
// The payload is compressed in frames of this many bytes, decompressed in parallel on reopen.
constexpr std::size_t kFrameBytes = std::size_t(4) << 20;
// A frame claiming more than this is corrupt (the writer never makes one above kFrameBytes).
constexpr std::uint64_t kMaxFrameBytes = std::uint64_t(64) << 20;
// A column of the column stream at least this large gets frames of its own (decompressed straight
// into its vector); smaller ones share frames (decompressed aside and copied, cheap at this size).
constexpr std::size_t kOwnFramesBytes = std::size_t(64) << 10;

// One zstd compression and one decompression context per worker thread, created on first use.
class ZstdContexts
{
public:
    ZstdContexts() = default;
    ZstdContexts(const ZstdContexts &) = delete;
    ZstdContexts &operator=(const ZstdContexts &) = delete;
    ~ZstdContexts()
    {
        ZSTD_freeCCtx(m_c);
        ZSTD_freeDCtx(m_d);
    }
    ZSTD_CCtx *compressor()
    {
        if (!m_c) {
            m_c = ZSTD_createCCtx();
            ZSTD_CCtx_setParameter(m_c, ZSTD_c_compressionLevel, kZstdLevel);
            ZSTD_CCtx_setParameter(m_c, ZSTD_c_checksumFlag, 1); // flipped bits are caught on reopen
        }
        return m_c;
    }
    ZSTD_DCtx *decompressor()
    {
        if (!m_d)
            m_d = ZSTD_createDCtx();
        return m_d;
    }
    // A reusable buffer of at least n bytes (for frames that hold several small columns).
    char *scratch(std::size_t n)
    {
        if (n > m_scratchSize) {
            m_scratch.reset(new char[n]);
            m_scratchSize = n;
        }
        return m_scratch.get();
    }

private:
    ZSTD_CCtx *m_c = nullptr;
    ZSTD_DCtx *m_d = nullptr;
    std::unique_ptr<char[]> m_scratch;
    std::size_t m_scratchSize = 0;
};

// Runs work(i, contexts) for i in [0, n) on this thread and, when there is more than one item and
// more than one core, one more thread; items are taken in order from a shared counter.
template <typename Work> void forEachInParallel(std::size_t n, Work work)
{
    std::atomic<std::size_t> next{0};
    auto run = [&] {
        ZstdContexts contexts;
        for (std::size_t i = next++; i < n; i = next++)
            work(i, contexts);
    };
    std::thread helper;
    if (n > 1 && std::thread::hardware_concurrency() > 1)
        helper = std::thread(run);
    run();
    if (helper.joinable())
        helper.join();
}

// Section tags, in file order ("STRS" etc. as little-endian u32s).
constexpr std::uint32_t tag(const char (&t)[5])
{
    return static_cast<std::uint32_t>(static_cast<unsigned char>(t[0])) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(t[1])) << 8 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(t[2])) << 16 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(t[3])) << 24;
}

// The sections in file order. The last one, COLS, holds the column stream (see ColumnClaims).
constexpr std::array<std::uint32_t, 11> kSections = {tag("STRS"), tag("META"), tag("GRPS"), tag("SRCS"),
                                                     tag("PROC"), tag("THRD"), tag("CNTR"), tag("FLOW"),
                                                     tag("KERN"), tag("SUMT"), tag("STEP")};
constexpr std::uint32_t kColumnSection = tag("COLS");

// The column stream holds each column's values as consecutive little-endian numbers, which on a
// little-endian host are the bytes of the vector itself: written and read with one copy (or one
// decompression) per column. A big-endian host swaps each value after the bytes are in place.
constexpr bool kLittleEndianHost = std::endian::native == std::endian::little;
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
constexpr std::size_t kDeltaBlockValues = kFrameBytes / 8;

// Replaces n 64-bit values (host order) by their differences; `first` is the index of p's value in
// its column.
void deltaEncode(char *p, std::size_t first, std::size_t n)
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
void deltaDecode(char *p, std::size_t first, std::size_t n)
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

using A = SnapshotAccess;

// ---------------------------------------------------------------- writing

class SectionWriter
{
public:
    SectionWriter(ByteWriter &w, std::uint32_t t) : m_w(w)
    {
        m_w.u32(t);
        m_lengthAt = m_w.size();
        m_w.u64(0);
    }
    ~SectionWriter() { m_w.patchU64(m_lengthAt, m_w.size() - m_lengthAt - 8); }

private:
    ByteWriter &m_w;
    std::size_t m_lengthAt;
};

// Calls fn(column, delta) for every column of the column stream in stream order: the slice columns of
// each thread, then the samples of each counter, as the THRD and CNTR readers claim them. delta: the
// column is stored as differences (deltaEncode).
template <typename Fn> void forEachStreamColumn(const TraceModel &m, Fn &&fn)
{
    for (const ThreadInfo &t : m.threads()) {
        const SliceTable &s = t.slices;
        fn(A::start(s), true);
        fn(A::duration(s), false);
        fn(A::name(s), false);
        fn(A::category(s), false);
        fn(A::parent(s), false);
        fn(A::source(s), true);
    }
    for (const CounterSeries &c : m.counters()) {
        fn(c.times, true);
        fn(c.values, false);
    }
}

// COLS: the number of columns, their sizes in bytes (frameSnapshot cuts frames at column boundaries
// with them, the reader checks them against what the sections claimed), then the column stream, each
// column as consecutive little-endian values (one copy per column on a little-endian host).
void writeColumnStream(ByteWriter &w, const TraceModel &m)
{
    std::uint64_t count = 0;
    forEachStreamColumn(m, [&](const auto &, bool) { ++count; });
    w.u64(count);
    forEachStreamColumn(m, [&](const auto &column, bool) { w.u64(column.size() * sizeof(column[0])); });
    forEachStreamColumn(m, [&](const auto &column, bool delta) {
        constexpr std::size_t width = sizeof(column[0]);
        static_assert(width == 4 || width == 8);
        std::string &out = w.buffer();
        const std::size_t at = out.size(), bytes = column.size() * width;
        out.resize(at + bytes);
        if (bytes)
            std::memcpy(out.data() + at, column.data(), bytes);
        if (delta && width == 8) // only 64-bit columns are delta-coded (ColumnClaims::claim agrees)
            deltaEncode(out.data() + at, 0, column.size());
        if constexpr (!kLittleEndianHost)
            swapBytes<width>(out.data() + at, column.size());
    });
}

void writeRef(ByteWriter &w, SliceRef ref)
{
    w.i32(ref.thread);
    w.u32(ref.index);
}

void writeOptional(ByteWriter &w, const std::optional<std::int64_t> &v)
{
    w.u8(v ? 1 : 0);
    w.i64(v.value_or(0));
}

void writeKey(ByteWriter &w, const LaneKey &k)
{
    w.i64(k.number);
    w.u32(k.text);
}

template <typename T, typename Fn> void writeVector(ByteWriter &w, const std::vector<T> &v, Fn &&fn)
{
    w.u64(v.size());
    for (const T &x : v)
        fn(x);
}

void writeCollection(ByteWriter &w, const CollectionInfo &c)
{
    w.string(c.sourceLabel);
    w.string(c.profilerLevel);
    w.string(c.metricGroup);
    w.strings(c.metrics);
    w.strings(c.switchesOn);
    w.strings(c.switchesOff);
    w.u64(static_cast<std::uint64_t>(c.properties.size()));
    for (const auto &p : c.properties) {
        w.string(p.first);
        w.string(p.second);
    }
    w.strings(c.warnings);
    w.strings(c.files);
}

// The slice count and depth index; the columns are in the column stream.
void writeSlices(ByteWriter &w, const SliceTable &t)
{
    w.u64(t.size());
    writeVector(w, A::depthBegin(t), [&](std::uint32_t d) { w.u32(d); });
}

// A 64-bit field of every element, as differences to the previous element's (see deltaEncode).
template <typename T, typename Get> void writeDeltas(ByteWriter &w, const std::vector<T> &v, Get get)
{
    std::uint64_t previous = 0;
    for (const T &x : v) {
        const auto value = static_cast<std::uint64_t>(get(x));
        w.u64(value - previous);
        previous = value;
    }
}

void writeFlowIndex(ByteWriter &w, const A::FlowIndex &index)
{
    w.u64(index.size());
    writeDeltas(w, index, [](const auto &p) { return p.first; }); // sorted keys
    for (const auto &p : index)
        w.u32(p.second);
}

void writeModel(ByteWriter &w, const TraceModel &m)
{
    {
        SectionWriter s(w, tag("STRS"));
        const StringPool &pool = m.strings();
        w.u64(pool.size());
        for (StringId id = 1; id < pool.size(); ++id)
            w.bytes(pool.view(id));
    }
    {
        SectionWriter s(w, tag("META"));
        w.i64(m.origin());
        w.i64(m.dataBegin());
        w.i64(m.dataEnd());
        w.i64(m.fullBegin());
        w.i64(m.fullEnd());
        w.u64(m.outlierCount());
        const EventCounts &c = m.eventCounts();
        for (std::size_t v : {c.complete, c.begin, c.end, c.instant, c.counter, c.flowStart, c.flowStep,
                              c.flowEnd, c.metadata, c.other})
            w.u64(v);
        w.strings(m.warnings());
    }
    {
        SectionWriter s(w, tag("GRPS"));
        writeVector(w, m.groups(), [&](const SourceGroup &g) {
            w.string(g.label);
            w.string(g.layout);
            w.string(g.path);
            w.strings(g.timelineFiles);
            w.strings(g.summaryFiles);
            writeCollection(w, g.collection);
        });
    }
    {
        SectionWriter s(w, tag("SRCS"));
        writeVector(w, m.sources(), [&](const SourceFile &f) {
            w.u8(static_cast<std::uint8_t>(*argsKindOf(f.argsReader.get())));
            w.string(f.path);
        });
    }
    {
        SectionWriter s(w, tag("PROC"));
        writeVector(w, m.processes(), [&](const ProcessInfo &p) {
            w.i32(p.group);
            writeKey(w, p.pid);
            w.u32(p.name);
            w.u32(p.labels);
            writeOptional(w, p.sortIndex);
            w.u8(static_cast<std::uint8_t>(p.layer));
            writeVector(w, p.threads, [&](int t) { w.i32(t); });
            writeVector(w, p.counters, [&](int c) { w.i32(c); });
        });
        writeVector(w, m.processOrder(), [&](int p) { w.i32(p); });
    }
    {
        SectionWriter s(w, tag("THRD"));
        writeVector(w, m.threads(), [&](const ThreadInfo &t) {
            w.i32(t.process);
            writeKey(w, t.tid);
            w.u32(t.name);
            writeOptional(w, t.sortIndex);
            writeSlices(w, t.slices);
        });
    }
    {
        SectionWriter s(w, tag("CNTR"));
        writeVector(w, m.counters(), [&](const CounterSeries &c) {
            w.i32(c.process);
            w.u32(c.name);
            w.u32(c.seriesKey);
            w.f64(c.minValue);
            w.f64(c.maxValue);
            w.u64(c.times.size()); // the samples are in the column stream
        });
    }
    {
        // Field after field, not flow after flow: like values side by side compress (and decompress)
        // several times better, the times even more as differences.
        SectionWriter s(w, tag("FLOW"));
        const std::vector<FlowInfo> &flows = m.flows();
        w.u64(flows.size());
        for (const FlowInfo &f : flows)
            w.u32(f.category);
        for (const FlowInfo &f : flows)
            w.u32(f.name);
        for (const FlowInfo &f : flows)
            w.u32(f.id);
        for (const FlowInfo &f : flows)
            w.i32(f.from.thread);
        for (const FlowInfo &f : flows)
            w.u32(f.from.index);
        for (const FlowInfo &f : flows)
            w.i32(f.to.thread);
        for (const FlowInfo &f : flows)
            w.u32(f.to.index);
        writeDeltas(w, flows, [](const FlowInfo &f) { return f.fromTime; });
        writeDeltas(w, flows, [](const FlowInfo &f) { return f.toTime; });
        writeFlowIndex(w, A::flowsBySource(m));
        writeFlowIndex(w, A::flowsByTarget(m));
    }
    {
        SectionWriter s(w, tag("KERN"));
        const KernelTable &k = m.kernels();
        writeVector(w, k.columns(), [&](const KernelMetricColumn &c) {
            w.string(c.header);
            w.string(c.name);
            w.string(c.core);
            w.string(c.unit);
        });
        writeVector(w, k.rows(), [&](const KernelRecord &r) {
            w.i32(r.group);
            w.i32(r.thread);
            w.u32(r.slice);
            w.i64(r.start);
            w.i64(r.duration);
            w.i64(r.wait);
            for (StringId id : {r.name, r.type, r.acceleratorCore, r.inputShapes, r.inputTypes})
                w.u32(id);
            for (std::int64_t v : {r.streamId, r.taskId, r.contextId, r.blockDim, r.stepId})
                w.i64(v);
        });
        writeVector(w, A::values(k), [&](double v) { w.f64(v); });
        writeVector(w, A::metricGroups(k), [&](const QString &g) { w.string(g); });
    }
    {
        SectionWriter s(w, tag("SUMT"));
        writeVector(w, m.summaryTables(), [&](const SummaryTable &t) {
            w.i32(t.group);
            w.string(t.type);
            w.strings(t.files);
            w.strings(t.header);
            writeVector(w, t.cells, [&](const QString &c) { w.string(c); });
        });
    }
    {
        SectionWriter s(w, tag("STEP"));
        writeVector(w, m.declaredSteps(), [&](const DeclaredStep &d) {
            w.i32(d.group);
            w.i64(d.number);
            w.i64(d.begin);
            w.i64(d.end);
            w.string(d.source);
            w.i64(d.spanOfSource);
        });
        writeVector(w, m.steps(), [&](const Step &st) {
            w.i32(st.group);
            w.i64(st.number);
            w.string(st.label);
            w.u8(static_cast<std::uint8_t>(st.source));
            writeRef(w, st.marker);
            for (TimeNs t :
                 {st.hostBegin, st.hostEnd, st.deviceBegin, st.deviceEnd, st.stageBegin, st.stageEnd})
                w.i64(t);
            const StepBreakdown &b = st.breakdown;
            for (TimeNs t : {b.computing, b.communication, b.communicationNotOverlapped, b.free})
                w.i64(t);
            w.u8(b.fromOverlapAnalysis ? 1 : 0);
            writeVector(w, st.deviceTasks, [&](SliceRef r) { writeRef(w, r); });
            w.u64(st.flowAttributedTasks);
        });
    }
    {
        SectionWriter s(w, kColumnSection);
        writeColumnStream(w, m);
    }
}

// ---------------------------------------------------------------- reading

// Reads one section's tag and length; the returned reader covers exactly its bytes.
ByteReader expectSection(ByteReader &r, std::uint32_t expected)
{
    const std::uint32_t t = r.u32();
    const std::uint64_t length = r.u64();
    if (!r.ok() || t != expected) {
        r.fail();
        return ByteReader(nullptr, 0);
    }
    return r.section(length);
}

SliceRef readRef(ByteReader &r)
{
    SliceRef ref;
    ref.thread = r.i32();
    ref.index = r.u32();
    return ref;
}

std::optional<std::int64_t> readOptional(ByteReader &r)
{
    const std::uint8_t has = r.u8();
    const std::int64_t v = r.i64();
    if (has > 1)
        r.fail();
    return has ? std::optional<std::int64_t>(v) : std::nullopt;
}

LaneKey readKey(ByteReader &r)
{
    LaneKey k;
    k.number = r.i64();
    k.text = r.u32();
    return k;
}

// Reads a count then n elements (each at least minBytes long) with fn.
template <typename T, typename Fn>
void readVector(ByteReader &r, std::vector<T> &out, std::size_t minBytes, Fn &&fn)
{
    const std::size_t n = r.count(minBytes);
    out.clear();
    out.reserve(n);
    for (std::size_t i = 0; i < n && r.ok(); ++i)
        out.push_back(fn());
}

CollectionInfo readCollection(ByteReader &r)
{
    CollectionInfo c;
    c.sourceLabel = r.string();
    c.profilerLevel = r.string();
    c.metricGroup = r.string();
    c.metrics = r.strings();
    c.switchesOn = r.strings();
    c.switchesOff = r.strings();
    const std::size_t n = r.count(16);
    for (std::size_t i = 0; i < n && r.ok(); ++i) {
        QString key = r.string();
        QString value = r.string();
        c.properties.append({key, value});
    }
    c.warnings = r.strings();
    c.files = r.strings();
    return c;
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

bool readSlices(ByteReader &r, ColumnClaims &columns, SliceTable &t)
{
    const std::uint64_t n = r.u64();
    if (!r.ok() || n > 0xFFFFFFFFu)
        return false;
    const bool claimed = columns.claim(A::start(t), n, true) && columns.claim(A::duration(t), n) &&
                         columns.claim(A::name(t), n) && columns.claim(A::category(t), n) &&
                         columns.claim(A::parent(t), n) && columns.claim(A::source(t), n, true);
    readVector(r, A::depthBegin(t), 4, [&] { return r.u32(); });
    return claimed && r.ok();
}

// One field of n elements written field after field (the FLOW section): n little-endian values of
// Width bytes, checked once; null (and r failed) when they are not all there.
template <std::size_t Width> const unsigned char *field(ByteReader &r, std::size_t n)
{
    if (n > r.remaining() / Width) {
        r.fail();
        return nullptr;
    }
    return reinterpret_cast<const unsigned char *>(r.raw(n * Width).data());
}

// Value i of such a field.
template <std::size_t Width> std::uint64_t load(const unsigned char *field, std::size_t i)
{
    return readLittleEndian<Width>(field + i * Width);
}

void readFlowIndex(ByteReader &r, A::FlowIndex &index)
{
    const std::size_t n = r.count(12);
    const unsigned char *keys = field<8>(r, n), *flows = field<4>(r, n);
    index.clear();
    if (!r.ok())
        return;
    index.reserve(n);
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < n; ++i) {
        key += load<8>(keys, i); // sorted keys, as differences
        index.emplace_back(key, static_cast<std::uint32_t>(load<4>(flows, i)));
    }
}

// Every section must parse and be consumed exactly.
bool complete(const ByteReader &section)
{
    return section.ok() && section.atEnd();
}

// THRD: the threads and their slice tables (whose columns are claimed from the column stream).
bool readThreadSection(ByteReader &s, ColumnClaims &columns, TraceModel &m)
{
    std::vector<ThreadInfo> &threads = A::threads(m);
    const std::size_t n = s.count(41);
    threads.clear();
    threads.reserve(n); // never reallocated below: the claims point into these elements
    for (std::size_t i = 0; i < n && s.ok(); ++i) {
        ThreadInfo &t = threads.emplace_back();
        t.process = s.i32();
        t.tid = readKey(s);
        t.name = s.u32();
        t.sortIndex = readOptional(s);
        if (!readSlices(s, columns, t.slices))
            s.fail();
    }
    return complete(s);
}

// CNTR: the counter series (whose samples are claimed from the column stream).
bool readCounterSection(ByteReader &s, ColumnClaims &columns, TraceModel &m)
{
    std::vector<CounterSeries> &counters = A::counters(m);
    const std::size_t n = s.count(36);
    counters.clear();
    counters.reserve(n); // never reallocated below: the claims point into these elements
    for (std::size_t i = 0; i < n && s.ok(); ++i) {
        CounterSeries &c = counters.emplace_back();
        c.process = s.i32();
        c.name = s.u32();
        c.seriesKey = s.u32();
        c.minValue = s.f64();
        c.maxValue = s.f64();
        const std::uint64_t samples = s.u64();
        if (!columns.claim(c.times, samples, true) || !columns.claim(c.values, samples))
            s.fail();
    }
    return complete(s);
}

// Every section but THRD and CNTR (see readModel).
bool readOtherSections(std::map<std::uint32_t, ByteReader> &sections, TraceModel &m, QString *reason)
{
    auto failed = [&](const char *what) {
        *reason = QStringLiteral("corrupt %1 section").arg(QLatin1String(what));
        return false;
    };
    {
        ByteReader &s = sections.at(tag("STRS"));
        StringPool &pool = A::strings(m);
        const std::uint64_t n = s.u64();
        if (!s.ok() || n == 0 || n - 1 > s.remaining() / 8)
            return failed("strings");
        for (std::uint64_t id = 1; id < n && s.ok(); ++id) {
            const std::string_view text = s.bytes();
            if (s.ok())
                pool.append(text); // the table was written from a pool, so its texts are distinct
        }
        if (!complete(s))
            return failed("strings");
    }
    {
        ByteReader &s = sections.at(tag("META"));
        A::origin(m) = s.i64();
        A::dataBegin(m) = s.i64();
        A::dataEnd(m) = s.i64();
        A::fullBegin(m) = s.i64();
        A::fullEnd(m) = s.i64();
        A::outliers(m) = s.u64();
        EventCounts &c = A::counts(m);
        for (std::size_t *v : {&c.complete, &c.begin, &c.end, &c.instant, &c.counter, &c.flowStart,
                               &c.flowStep, &c.flowEnd, &c.metadata, &c.other})
            *v = s.u64();
        A::warnings(m) = s.strings();
        if (!complete(s))
            return failed("summary");
    }
    {
        ByteReader &s = sections.at(tag("GRPS"));
        readVector(s, A::groups(m), 8, [&] {
            SourceGroup g;
            g.label = s.string();
            g.layout = s.string();
            g.path = s.string();
            g.timelineFiles = s.strings();
            g.summaryFiles = s.strings();
            g.collection = readCollection(s);
            return g;
        });
        if (!complete(s))
            return failed("groups");
    }
    {
        ByteReader &s = sections.at(tag("SRCS"));
        readVector(s, A::sources(m), 9, [&] {
            const std::uint8_t kind = s.u8();
            SourceFile f;
            f.path = s.string();
            if (kind > static_cast<std::uint8_t>(ArgsKind::Database))
                s.fail();
            else
                f.argsReader = makeArgsReader(static_cast<ArgsKind>(kind), f.path);
            return f;
        });
        if (!complete(s))
            return failed("sources");
    }
    {
        ByteReader &s = sections.at(tag("PROC"));
        readVector(s, A::processes(m), 50, [&] {
            ProcessInfo p;
            p.group = s.i32();
            p.pid = readKey(s);
            p.name = s.u32();
            p.labels = s.u32();
            p.sortIndex = readOptional(s);
            const std::uint8_t layer = s.u8();
            if (layer > static_cast<std::uint8_t>(Layer::Other))
                s.fail();
            p.layer = static_cast<Layer>(layer);
            readVector(s, p.threads, 4, [&] { return s.i32(); });
            readVector(s, p.counters, 4, [&] { return s.i32(); });
            return p;
        });
        readVector(s, A::processOrder(m), 4, [&] { return s.i32(); });
        if (!complete(s))
            return failed("processes");
    }
    {
        ByteReader &s = sections.at(tag("FLOW"));
        std::vector<FlowInfo> &flows = A::flows(m);
        const std::size_t n = s.count(44);
        const unsigned char *category = field<4>(s, n), *name = field<4>(s, n), *id = field<4>(s, n),
                            *fromThread = field<4>(s, n), *fromIndex = field<4>(s, n),
                            *toThread = field<4>(s, n), *toIndex = field<4>(s, n), *fromTime = field<8>(s, n),
                            *toTime = field<8>(s, n);
        flows.clear();
        if (s.ok()) {
            // One pass building whole flows (a pass per field would miss the cache on every one).
            flows.reserve(n);
            std::uint64_t from = 0, to = 0;
            for (std::size_t i = 0; i < n; ++i) {
                FlowInfo f;
                f.category = static_cast<StringId>(load<4>(category, i));
                f.name = static_cast<StringId>(load<4>(name, i));
                f.id = static_cast<StringId>(load<4>(id, i));
                f.from = {static_cast<std::int32_t>(load<4>(fromThread, i)),
                          static_cast<std::uint32_t>(load<4>(fromIndex, i))};
                f.to = {static_cast<std::int32_t>(load<4>(toThread, i)),
                        static_cast<std::uint32_t>(load<4>(toIndex, i))};
                from += load<8>(fromTime, i); // times as differences
                to += load<8>(toTime, i);
                f.fromTime = static_cast<TimeNs>(from);
                f.toTime = static_cast<TimeNs>(to);
                flows.push_back(f);
            }
        }
        readFlowIndex(s, A::flowsBySource(m));
        readFlowIndex(s, A::flowsByTarget(m));
        if (!complete(s))
            return failed("flows");
    }
    {
        ByteReader &s = sections.at(tag("KERN"));
        KernelTable &k = A::kernels(m);
        readVector(s, A::columns(k), 32, [&] {
            KernelMetricColumn c;
            c.header = s.string();
            c.name = s.string();
            c.core = s.string();
            c.unit = s.string();
            return c;
        });
        readVector(s, A::rows(k), 96, [&] {
            KernelRecord rec;
            rec.group = s.i32();
            rec.thread = s.i32();
            rec.slice = s.u32();
            rec.start = s.i64();
            rec.duration = s.i64();
            rec.wait = s.i64();
            for (StringId *id :
                 {&rec.name, &rec.type, &rec.acceleratorCore, &rec.inputShapes, &rec.inputTypes})
                *id = s.u32();
            for (std::int64_t *v : {&rec.streamId, &rec.taskId, &rec.contextId, &rec.blockDim, &rec.stepId})
                *v = s.i64();
            return rec;
        });
        s.column<8>(A::values(k), s.count(8));
        readVector(s, A::metricGroups(k), 8, [&] { return s.string(); });
        if (!complete(s))
            return failed("kernels");
    }
    {
        ByteReader &s = sections.at(tag("SUMT"));
        readVector(s, A::summaryTables(m), 36, [&] {
            SummaryTable t;
            t.group = s.i32();
            t.type = s.string();
            t.files = s.strings();
            t.header = s.strings();
            readVector(s, t.cells, 8, [&] { return s.string(); });
            return t;
        });
        if (!complete(s))
            return failed("summary tables");
    }
    {
        ByteReader &s = sections.at(tag("STEP"));
        readVector(s, A::declaredSteps(m), 44, [&] {
            DeclaredStep d;
            d.group = s.i32();
            d.number = s.i64();
            d.begin = s.i64();
            d.end = s.i64();
            d.source = s.string();
            d.spanOfSource = s.i64();
            return d;
        });
        readVector(s, A::steps(m), 126, [&] {
            Step st;
            st.group = s.i32();
            st.number = s.i64();
            st.label = s.string();
            const std::uint8_t source = s.u8();
            if (source > static_cast<std::uint8_t>(StepSource::KernelStepId))
                s.fail();
            st.source = static_cast<StepSource>(source);
            st.marker = readRef(s);
            for (TimeNs *t :
                 {&st.hostBegin, &st.hostEnd, &st.deviceBegin, &st.deviceEnd, &st.stageBegin, &st.stageEnd})
                *t = s.i64();
            StepBreakdown &b = st.breakdown;
            for (TimeNs *t : {&b.computing, &b.communication, &b.communicationNotOverlapped, &b.free})
                *t = s.i64();
            const std::uint8_t overlap = s.u8();
            if (overlap > 1)
                s.fail();
            b.fromOverlapAnalysis = overlap == 1;
            readVector(s, st.deviceTasks, 8, [&] { return readRef(s); });
            st.flowAttributedTasks = s.u64();
            return st;
        });
        if (!complete(s))
            return failed("steps");
    }
    return true;
}

// Where the column stream's bytes are: right after the COLS section's size list in a bare payload
// (decodePayload), or in the zstd frames that follow the structure's in a snapshot file (decodeBody).
struct ColumnSource
{
    bool framed = false;
    std::span<const SnapshotFrame> frames;
    std::uint64_t framedBytes = 0; // the frames' raw sizes together
};

// Decompresses the column frames into the claimed vectors (already sized), both cores at once: a
// frame inside one column (every big column's, as frameSnapshot cuts them) straight into the
// vector, a frame of several small columns aside and then copied.
bool fillFromFrames(ColumnClaims &columns, const ColumnSource &source, QString *reason)
{
    const std::span<const SnapshotFrame> frames = source.frames;
    std::vector<std::uint64_t> offsets(frames.size() + 1, 0);
    for (std::size_t i = 0; i < frames.size(); ++i)
        offsets[i + 1] = offsets[i] + frames[i].rawSize;
    std::vector<ColumnClaims::Claim> &claims = columns.claims();
    std::vector<std::size_t> results(frames.size(), 0);
    forEachInParallel(frames.size(), [&](std::size_t i, ZstdContexts &z) {
        const SnapshotFrame &f = frames[i];
        const std::uint64_t begin = offsets[i], end = offsets[i + 1];
        std::size_t c = columns.claimAt(begin);
        if (c < claims.size() && claims[c].offset <= begin && end <= claims[c].offset + claims[c].bytes) {
            results[i] = ZSTD_decompressDCtx(z.decompressor(), claims[c].data + (begin - claims[c].offset),
                                             f.rawSize, f.compressed.data(), f.compressed.size());
            if (!ZSTD_isError(results[i]))
                claims[c].decode(begin, end);
            return;
        }
        char *scratch = z.scratch(static_cast<std::size_t>(f.rawSize));
        results[i] = ZSTD_decompressDCtx(z.decompressor(), scratch, f.rawSize, f.compressed.data(),
                                         f.compressed.size());
        if (ZSTD_isError(results[i]) || results[i] != f.rawSize)
            return;
        for (; c < claims.size() && claims[c].offset < end; ++c) {
            const ColumnClaims::Claim &claim = claims[c];
            const std::uint64_t from = std::max(begin, claim.offset),
                                to = std::min(end, claim.offset + claim.bytes);
            if (to > from) {
                std::memcpy(claim.data + (from - claim.offset), scratch + (from - begin), to - from);
                claim.decode(from, to);
            }
        }
    });
    for (std::size_t i = 0; i < results.size(); ++i)
        if (ZSTD_isError(results[i]) || results[i] != frames[i].rawSize) {
            *reason = QStringLiteral("columns do not decompress: %1")
                          .arg(ZSTD_isError(results[i]) ? QString::fromUtf8(ZSTD_getErrorName(results[i]))
                                                        : QStringLiteral("short frame"));
            return false;
        }
    return true;
}

// The head of the COLS section: its length and the size of every column in the stream after it.
struct ColumnList
{
    std::uint64_t length = 0;    // of the whole section
    std::uint64_t listBytes = 0; // of the size list
    std::vector<std::uint64_t> sizes;
};

// Reads the COLS tag, length and size list; false when they are malformed.
bool readColumnList(ByteReader &r, ColumnList &out)
{
    const bool isColumns = r.u32() == kColumnSection;
    out.length = r.u64();
    const std::size_t listStart = r.remaining();
    readVector(r, out.sizes, 8, [&] { return r.u64(); });
    out.listBytes = listStart - r.remaining();
    return r.ok() && isColumns && out.length >= out.listBytes;
}

bool readModel(ByteReader &r, const ColumnSource &source, TraceModel &m, QString *reason)
{
    // The section table first (tag, length, bytes, in this order).
    std::map<std::uint32_t, ByteReader> sections;
    for (const std::uint32_t t : kSections) {
        sections.emplace(t, expectSection(r, t));
        if (!r.ok()) {
            *reason = QStringLiteral("corrupt section table");
            return false;
        }
    }
    // COLS: the column sizes, then the stream (here only in a bare payload).
    ColumnList list;
    if (!readColumnList(r, list)) {
        *reason = QStringLiteral("corrupt section table");
        return false;
    }
    const std::vector<std::uint64_t> &sizes = list.sizes;
    const std::uint64_t streamBytes = list.length - list.listBytes;
    std::string_view stream;
    if (source.framed) {
        if (streamBytes != source.framedBytes) {
            *reason = QStringLiteral("corrupt column stream size");
            return false;
        }
    } else {
        stream = r.raw(streamBytes);
        if (!r.ok()) {
            *reason = QStringLiteral("corrupt section table");
            return false;
        }
    }
    if (!r.atEnd()) {
        *reason = QStringLiteral("trailing bytes after the last section");
        return false;
    }

    // A second core reads the thread and counter sections (short: their columns are in the stream),
    // then starts sizing the claimed columns (the first touch of most of the model's memory) while
    // this core reads the other sections and then helps: the sections fill disjoint parts of the model.
    ColumnClaims columns(streamBytes);
    bool threadsOk = false, countersOk = false, columnsOk = false;
    std::atomic<std::size_t> nextClaim{0};
    auto prepareColumns = [&] {
        std::vector<ColumnClaims::Claim> &claims = columns.claims();
        for (std::size_t i = nextClaim++; i < claims.size(); i = nextClaim++) {
            ColumnClaims::Claim &c = claims[i];
            c.data = c.allocate(c.column, c.count);
            if (!source.framed && c.bytes) {
                std::memcpy(c.data, stream.data() + c.offset, static_cast<std::size_t>(c.bytes));
                c.decode(c.offset, c.offset + c.bytes);
            }
        }
    };
    std::latch claimed(1);
    auto readColumnSections = [&] {
        threadsOk = readThreadSection(sections.at(tag("THRD")), columns, m);
        countersOk = threadsOk && readCounterSection(sections.at(tag("CNTR")), columns, m);
        columnsOk = countersOk && columns.matches(sizes);
        claimed.count_down();
        if (columnsOk)
            prepareColumns();
    };
    std::thread helper;
    if (std::thread::hardware_concurrency() > 1)
        helper = std::thread(readColumnSections);
    else
        readColumnSections();
    const bool othersOk = readOtherSections(sections, m, reason);
    claimed.wait();
    if (othersOk && columnsOk)
        prepareColumns();
    if (helper.joinable())
        helper.join();
    if (!othersOk)
        return false;
    if (!columnsOk) {
        *reason = !threadsOk    ? QStringLiteral("corrupt threads section")
                  : !countersOk ? QStringLiteral("corrupt counters section")
                                : QStringLiteral("column stream does not match the sections");
        return false;
    }
    if (source.framed && !fillFromFrames(columns, source, reason))
        return false;
    if constexpr (!kLittleEndianHost)
        for (ColumnClaims::Claim &c : columns.claims()) {
            c.fixByteOrder(c.data, c.count);
            if (c.delta)
                deltaDecode(c.data, 0, c.count);
        }
    return true;
}

// ---------------------------------------------------------------- validation

// Checks every index the viewer follows without a bounds check, so that a snapshot that decodes
// but was tampered with cannot make the viewer read out of bounds.
class Validator
{
public:
    explicit Validator(const TraceModel &m) : m_m(m) {}

    QString check() const
    {
        const std::size_t strings = m_m.strings().size();
        auto str = [&](StringId id) { return id < strings; };
        auto key = [&](const LaneKey &k) { return str(k.text); };
        const std::size_t groups = m_m.groups().size();
        auto group = [&](int g) { return g >= 0 && static_cast<std::size_t>(g) < groups; };
        auto index = [](int i, std::size_t n) { return i >= 0 && static_cast<std::size_t>(i) < n; };
        const std::size_t processes = m_m.processes().size(), threads = m_m.threads().size(),
                          counters = m_m.counters().size();
        for (TimeNs t : {m_m.origin(), m_m.dataBegin(), m_m.dataEnd(), m_m.fullBegin(), m_m.fullEnd()})
            if (!time(t))
                return QStringLiteral("bad time span");

        for (const ProcessInfo &p : m_m.processes()) {
            if (!group(p.group) || !key(p.pid) || !str(p.name) || !str(p.labels))
                return QStringLiteral("bad process");
            for (int t : p.threads)
                if (!index(t, threads))
                    return QStringLiteral("bad process thread");
            for (int c : p.counters)
                if (!index(c, counters))
                    return QStringLiteral("bad process counter");
        }
        for (int p : m_m.processOrder())
            if (!index(p, processes))
                return QStringLiteral("bad process order");
        for (const ThreadInfo &t : m_m.threads()) {
            if (!index(t.process, processes) || !key(t.tid) || !str(t.name))
                return QStringLiteral("bad thread");
            if (!depthsValid(t.slices))
                return QStringLiteral("bad slice table");
        }
        for (const CounterSeries &c : m_m.counters())
            if (!index(c.process, processes) || !str(c.name) || !str(c.seriesKey) ||
                c.times.size() != c.values.size() || !std::isfinite(c.minValue) || !std::isfinite(c.maxValue))
                return QStringLiteral("bad counter");
        if (const QString bad = checkColumns(strings); !bad.isEmpty())
            return bad;
        const std::size_t flows = m_m.flows().size();
        for (const FlowInfo &f : m_m.flows())
            if (!str(f.category) || !str(f.name) || !str(f.id) || !refOrNone(f.from) || !refOrNone(f.to) ||
                !time(f.fromTime) || !time(f.toTime))
                return QStringLiteral("bad flow");
        for (const auto *flowIndex :
             {&SnapshotAccess::flowsBySource(m_m), &SnapshotAccess::flowsByTarget(m_m)})
            for (const auto &[sliceKey, flow] : *flowIndex)
                if (flow >= flows)
                    return QStringLiteral("bad flow index");
        const KernelTable &k = m_m.kernels();
        if (SnapshotAccess::values(k).size() != k.rows().size() * k.columns().size())
            return QStringLiteral("bad kernel metric matrix");
        for (const KernelRecord &r : k.rows())
            if (!group(r.group) || !str(r.name) || !str(r.type) || !str(r.acceleratorCore) ||
                !str(r.inputShapes) || !str(r.inputTypes) || !time(r.start) || !time(r.duration) ||
                !time(r.wait) || (r.thread != -1 && !ref(SliceRef{r.thread, r.slice})))
                return QStringLiteral("bad kernel row");
        for (const SummaryTable &t : m_m.summaryTables())
            if (!group(t.group) ||
                (t.header.isEmpty() ? !t.cells.empty()
                                    : t.cells.size() % static_cast<std::size_t>(t.header.size())))
                return QStringLiteral("bad summary table");
        for (const DeclaredStep &d : m_m.declaredSteps())
            if (!group(d.group) || !time(d.begin) || !time(d.end))
                return QStringLiteral("bad declared step");
        for (const Step &s : m_m.steps()) {
            if (!group(s.group) || !refOrNone(s.marker))
                return QStringLiteral("bad step");
            for (TimeNs t : {s.hostBegin, s.hostEnd, s.deviceBegin, s.deviceEnd, s.stageBegin, s.stageEnd,
                             s.breakdown.computing, s.breakdown.communication,
                             s.breakdown.communicationNotOverlapped, s.breakdown.free})
                if (!time(t))
                    return QStringLiteral("bad step time");
            for (SliceRef r : s.deviceTasks)
                if (!ref(r))
                    return QStringLiteral("bad step task");
        }
        return {};
    }

private:
    // The loader keeps every time within ±2^62 ns, so sums of two (start + duration, origin + t)
    // cannot overflow; a snapshot must not bring larger ones in.
    static bool time(TimeNs t) { return t > -kTimeLimit && t < kTimeLimit; }
    static constexpr TimeNs kTimeLimit = TimeNs(1) << 62;

    bool ref(SliceRef r) const
    {
        return r.thread >= 0 && static_cast<std::size_t>(r.thread) < m_m.threads().size() &&
               r.index < m_m.threads()[static_cast<std::size_t>(r.thread)].slices.size();
    }
    bool refOrNone(SliceRef r) const { return r.thread == -1 || ref(r); }

    static bool depthsValid(const SliceTable &t)
    {
        const auto &depths = SnapshotAccess::depthBegin(t);
        if (depths.empty() || depths.front() != 0 || depths.back() != t.size())
            return false;
        for (std::size_t d = 1; d < depths.size(); ++d)
            if (depths[d] < depths[d - 1])
                return false;
        return true;
    }

    bool slicesValid(const SliceTable &t, std::size_t begin, std::size_t end, std::size_t strings) const
    {
        const std::size_t n = t.size(), sources = m_m.sources().size();
        for (auto i = static_cast<std::uint32_t>(begin); i < end; ++i) {
            const SourceLocation loc = t.source(i);
            if (t.name(i) >= strings || t.category(i) >= strings || t.parent(i) < -1 || !time(t.start(i)) ||
                t.duration(i) < 0 || !time(t.duration(i)) ||
                (t.parent(i) >= 0 && static_cast<std::size_t>(t.parent(i)) >= n) ||
                (loc != kNoSource && sourceFile(loc) >= sources))
                return false;
        }
        return true;
    }

    static bool samplesValid(const CounterSeries &c, std::size_t begin, std::size_t end)
    {
        for (std::size_t i = begin; i < end; ++i)
            if (!time(c.times[i]) || !std::isfinite(c.values[i]))
                return false;
        return true;
    }

    // Every slice and counter sample (most of the checking), in chunks on both cores.
    QString checkColumns(std::size_t strings) const
    {
        struct Chunk
        {
            const SliceTable *slices;
            const CounterSeries *counter;
            std::size_t begin, end;
        };
        constexpr std::size_t kChunk = std::size_t(1) << 17;
        std::vector<Chunk> chunks;
        for (const ThreadInfo &t : m_m.threads())
            for (std::size_t b = 0; b < t.slices.size(); b += kChunk)
                chunks.push_back({&t.slices, nullptr, b, std::min(b + kChunk, t.slices.size())});
        for (const CounterSeries &c : m_m.counters())
            for (std::size_t b = 0; b < c.times.size(); b += kChunk)
                chunks.push_back({nullptr, &c, b, std::min(b + kChunk, c.times.size())});
        std::atomic<bool> badSlice{false}, badSample{false};
        forEachInParallel(chunks.size(), [&](std::size_t i, ZstdContexts &) {
            const Chunk &c = chunks[i];
            if (c.slices && !slicesValid(*c.slices, c.begin, c.end, strings))
                badSlice = true;
            if (c.counter && !samplesValid(*c.counter, c.begin, c.end))
                badSample = true;
        });
        return badSlice    ? QStringLiteral("bad slice table")
               : badSample ? QStringLiteral("bad counter sample")
                           : QString();
    }

    const TraceModel &m_m;
};

void writeKeyBytes(ByteWriter &w, const SnapshotKey &key)
{
    w.string(key.canonicalPath);
    w.u8(key.preferredSource);
    writeVector(w, key.files, [&](const FileStamp &f) {
        w.string(f.path);
        w.i64(f.size);
        w.i64(f.mtimeNs);
    });
    w.u64(key.sourceBytes);
}

// The structure (the whole payload, or the part before the column stream) read, the columns filled
// from source, every index checked.
std::unique_ptr<TraceModel> decodeModel(std::string_view structure, const ColumnSource &source,
                                        QString *reason)
{
    auto model = std::make_unique<TraceModel>();
    ByteReader r(structure.data(), structure.size());
    if (!readModel(r, source, *model, reason))
        return nullptr;
    const QString invalid = Validator(*model).check();
    if (!invalid.isEmpty()) {
        *reason = invalid;
        return nullptr;
    }
    A::kernels(*model).rebuildSliceIndex();
    return model;
}

// Where frames are cut (begin, size in the payload): the structure every kFrameBytes; in the column
// stream, a column of at least kOwnFramesBytes in frames of its own (so that a reopen decompresses
// them straight into its vector), runs of smaller ones packed up to kFrameBytes a frame.
// nullopt when the payload's COLS section is malformed (encodePayload never makes one).
std::optional<std::vector<std::pair<std::size_t, std::size_t>>> frameCuts(std::string_view payload,
                                                                          std::size_t *structureFrames)
{
    ByteReader r(payload.data(), payload.size());
    for (const std::uint32_t t : kSections)
        (void)expectSection(r, t);
    ColumnList list;
    if (!readColumnList(r, list))
        return std::nullopt;
    const std::vector<std::uint64_t> &sizes = list.sizes;
    std::uint64_t streamBytes = 0;
    for (std::uint64_t size : sizes)
        streamBytes += size;
    if (streamBytes != r.remaining())
        return std::nullopt;

    std::vector<std::pair<std::size_t, std::size_t>> cuts;
    auto cut = [&](std::size_t begin, std::size_t size) {
        for (std::size_t at = begin; at < begin + size; at += kFrameBytes)
            cuts.emplace_back(at, std::min(kFrameBytes, begin + size - at));
    };
    const std::size_t structureEnd = payload.size() - r.remaining();
    cut(0, structureEnd);
    *structureFrames = cuts.size();
    std::size_t packBegin = structureEnd, packSize = 0, at = structureEnd;
    for (const std::uint64_t s : sizes) {
        const auto size = static_cast<std::size_t>(s);
        if (size >= kOwnFramesBytes || packSize + size > kFrameBytes) {
            cut(packBegin, packSize);
            packBegin = at;
            packSize = 0;
        }
        if (size >= kOwnFramesBytes) {
            cut(at, size);
            packBegin = at + size;
        } else {
            packSize += size;
        }
        at += size;
    }
    cut(packBegin, packSize);
    return cuts;
}

} // namespace

std::optional<std::string> encodePayload(const TraceModel &model, QString *reason)
{
    for (const SourceFile &f : model.sources())
        if (!argsKindOf(f.argsReader.get())) {
            *reason = QStringLiteral("%1: its args cannot be re-read from a snapshot").arg(f.path);
            return std::nullopt;
        }
    ByteWriter w;
    writeModel(w, model);
    return std::move(w.buffer());
}

std::unique_ptr<TraceModel> decodePayload(std::string_view payload, QString *reason)
{
    return decodeModel(payload, ColumnSource{}, reason);
}

std::optional<std::string> encodeSnapshot(const TraceModel &model, const SnapshotKey &key, QString *reason)
{
    const std::optional<std::string> payload = encodePayload(model, reason);
    if (!payload)
        return std::nullopt;
    return frameSnapshot(*payload, key, reason);
}

std::optional<std::string> frameSnapshot(const std::string &payload, const SnapshotKey &key, QString *reason)
{
    std::size_t structureFrames = 0;
    const auto cuts = frameCuts(payload, &structureFrames);
    if (!cuts) {
        *reason = QStringLiteral("malformed payload (no column stream)");
        return std::nullopt;
    }
    const std::size_t frames = cuts->size();
    std::vector<std::string> compressed(frames);
    std::vector<std::size_t> errors(frames, 0);
    forEachInParallel(frames, [&](std::size_t i, ZstdContexts &z) {
        const auto [begin, size] = (*cuts)[i];
        std::string &out = compressed[i];
        out.resize(ZSTD_compressBound(size));
        const std::size_t n =
            ZSTD_compress2(z.compressor(), out.data(), out.size(), payload.data() + begin, size);
        if (ZSTD_isError(n))
            errors[i] = n;
        else
            out.resize(n);
    });
    for (std::size_t e : errors)
        if (e) {
            *reason = QStringLiteral("zstd: %1").arg(QString::fromUtf8(ZSTD_getErrorName(e)));
            return std::nullopt;
        }

    ByteWriter w;
    w.buffer().append(kMagic, sizeof kMagic);
    w.u32(kFormatVersion);
    ByteWriter keyBytes;
    writeKeyBytes(keyBytes, key);
    w.bytes(keyBytes.buffer());
    w.u64(payload.size());
    w.u64(structureFrames);
    w.u64(frames);
    for (std::size_t i = 0; i < frames; ++i) {
        w.u64((*cuts)[i].second);
        w.bytes(compressed[i]);
    }
    return std::move(w.buffer());
}

std::optional<SnapshotHeader> readHeader(std::string_view file, QString *reason)
{
    ByteReader r(file.data(), file.size());
    if (file.size() < sizeof kMagic ||
        file.substr(0, sizeof kMagic) != std::string_view(kMagic, sizeof kMagic)) {
        *reason = QStringLiteral("not a snapshot (bad magic)");
        return std::nullopt;
    }
    (void)r.section(sizeof kMagic);
    const std::uint32_t version = r.u32();
    if (!r.ok()) {
        *reason = QStringLiteral("truncated header");
        return std::nullopt;
    }
    if (version != kFormatVersion) {
        *reason = QStringLiteral("format version %1, expected %2").arg(version).arg(kFormatVersion);
        return std::nullopt;
    }
    const std::string_view keyBytes = r.bytes();
    ByteReader k(keyBytes.data(), keyBytes.size());
    SnapshotHeader header;
    header.key.canonicalPath = k.string();
    header.key.preferredSource = k.u8();
    readVector(k, header.key.files, 24, [&] {
        FileStamp f;
        f.path = k.string();
        f.size = k.i64();
        f.mtimeNs = k.i64();
        return f;
    });
    header.key.sourceBytes = k.u64();
    header.payloadSize = r.u64();
    header.structureFrames = r.u64();
    readVector(r, header.frames, 16, [&] {
        SnapshotFrame f;
        f.rawSize = r.u64();
        f.compressed = r.bytes();
        return f;
    });
    if (!r.ok() || !k.ok() || !k.atEnd() || !r.atEnd() || header.structureFrames == 0 ||
        header.structureFrames > header.frames.size()) {
        *reason = QStringLiteral("truncated or corrupt header");
        return std::nullopt;
    }
    return header;
}

std::unique_ptr<TraceModel> decodeBody(const SnapshotHeader &header, QString *reason)
{
    std::uint64_t sum = 0, compressedBytes = 0;
    for (const SnapshotFrame &f : header.frames) {
        const unsigned long long declared =
            ZSTD_getFrameContentSize(f.compressed.data(), f.compressed.size());
        // zstd cannot expand more than ~32000x; a larger claim is corrupt and must not allocate.
        if (declared != f.rawSize || f.rawSize > kMaxFrameBytes || f.rawSize / 32768 > f.compressed.size()) {
            *reason = QStringLiteral("corrupt payload size");
            return nullptr;
        }
        sum += f.rawSize;
        compressedBytes += f.compressed.size();
    }
    if (sum != header.payloadSize ||
        header.payloadSize > kMaxPayload) { // structureFrames: readHeader checked it
        *reason = QStringLiteral("corrupt payload size");
        return nullptr;
    }
    auto failed = [&](std::size_t error) {
        *reason = QStringLiteral("payload does not decompress: %1")
                      .arg(ZSTD_isError(error) ? QString::fromUtf8(ZSTD_getErrorName(error))
                                               : QStringLiteral("short frame"));
        return nullptr;
    };
    // A plausible size (payloads compress about 6x): the structure's frames are decompressed into
    // one uninitialised buffer, on both cores at once, and the column frames straight into the
    // model's vectors once the structure has claimed them. A larger claim is decompressed frame by
    // frame into a buffer that grows only with what really decompressed, so a corrupt size cannot
    // allocate gigabytes up front.
    if (header.payloadSize <= compressedBytes * std::uint64_t(64) + (std::uint64_t(1) << 20)) {
        const auto structureFrames = static_cast<std::size_t>(header.structureFrames);
        std::vector<std::size_t> offsets(structureFrames + 1, 0);
        for (std::size_t i = 0; i < structureFrames; ++i)
            offsets[i + 1] = offsets[i] + static_cast<std::size_t>(header.frames[i].rawSize);
        const std::size_t structureSize = offsets.back();
        const std::unique_ptr<char, void (*)(void *) noexcept> buffer(
            static_cast<char *>(allocateLarge(structureSize)), freeLarge);
        std::vector<std::size_t> results(structureFrames, 0);
        forEachInParallel(structureFrames, [&](std::size_t i, ZstdContexts &z) {
            const SnapshotFrame &f = header.frames[i];
            results[i] = ZSTD_decompressDCtx(z.decompressor(), buffer.get() + offsets[i], f.rawSize,
                                             f.compressed.data(), f.compressed.size());
        });
        for (std::size_t i = 0; i < results.size(); ++i)
            if (ZSTD_isError(results[i]) || results[i] != header.frames[i].rawSize)
                return failed(results[i]);
        ColumnSource columns;
        columns.framed = true;
        columns.frames = std::span<const SnapshotFrame>(header.frames).subspan(structureFrames);
        columns.framedBytes = header.payloadSize - structureSize;
        return decodeModel(std::string_view(buffer.get(), structureSize), columns, reason);
    }
    std::string payload;
    ZstdContexts z;
    for (const SnapshotFrame &f : header.frames) {
        const std::size_t at = payload.size();
        payload.resize(at + static_cast<std::size_t>(f.rawSize));
        const std::size_t n = ZSTD_decompressDCtx(z.decompressor(), payload.data() + at, f.rawSize,
                                                  f.compressed.data(), f.compressed.size());
        if (ZSTD_isError(n) || n != f.rawSize)
            return failed(n);
    }
    return decodePayload(payload, reason);
}

} // namespace at::snapshot
