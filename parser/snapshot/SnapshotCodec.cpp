#include "snapshot/SnapshotCodec.h"

#include "HugePages.h"
#include "snapshot/SnapshotArgs.h"
#include "snapshot/SnapshotBytes.h"
#include "snapshot/SnapshotColumns.h"
#include "snapshot/SnapshotLayout.h"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <latch>
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

using schema::kSectionTags;
constexpr std::uint32_t kColumnSection = schema::tag("COLS");

// Calls fn(section) for every section of the layout table (SnapshotLayout.h), in file order.
template <typename Fn> void forEachSection(Fn &&fn)
{
    std::apply([&](const auto &...s) { (fn(s), ...); }, schema::kSections);
}

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

void writeModel(ByteWriter &w, const TraceModel &m)
{
    forEachSection([&](const auto &s) {
        SectionWriter section(w, s.tag);
        schema::writeSection(w, s, m);
    });
    SectionWriter s(w, kColumnSection);
    writeColumnStream(w, m);
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

// Reads the sections that claim columns (`claiming`) or all the others, each from its own bytes, each
// consumed exactly; false with the reason at the first that is not.
bool readSections(std::vector<ByteReader> &sections, bool claiming, ColumnClaims &columns, TraceModel &m,
                  QString *reason)
{
    bool ok = true;
    std::size_t i = 0;
    forEachSection([&](const auto &s) {
        ByteReader &r = sections[i++];
        if (!ok || s.claimsColumns != claiming)
            return;
        schema::Input in{r, claiming ? &columns : nullptr};
        schema::readSection(in, s, m);
        if (!r.ok() || !r.atEnd()) {
            ok = false;
            *reason = QStringLiteral("corrupt %1 section").arg(QLatin1String(s.name));
        }
    });
    return ok;
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
    std::vector<ByteReader> sections;
    for (const std::uint32_t t : kSectionTags) {
        sections.push_back(expectSection(r, t));
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
    bool sectionsOk = false, columnsOk = false;
    QString columnReason;
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
        sectionsOk = readSections(sections, true, columns, m, &columnReason);
        columnsOk = sectionsOk && columns.matches(sizes);
        claimed.count_down();
        if (columnsOk)
            prepareColumns();
    };
    std::thread helper;
    if (std::thread::hardware_concurrency() > 1)
        helper = std::thread(readColumnSections);
    else
        readColumnSections();
    const bool othersOk = readSections(sections, false, columns, m, reason);
    claimed.wait();
    if (othersOk && columnsOk)
        prepareColumns();
    if (helper.joinable())
        helper.join();
    if (!othersOk)
        return false;
    if (!columnsOk) {
        *reason = !sectionsOk ? columnReason : QStringLiteral("column stream does not match the sections");
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
// but was tampered with cannot make the viewer read out of bounds: the layout table's checks per
// field and record, then every slice and counter sample on both cores.
class Validator
{
public:
    explicit Validator(const TraceModel &m) : m_m(m)
    {
        m_b.strings = m.strings().size();
        m_b.groups = m.groups().size();
        m_b.processes = m.processes().size();
        m_b.threads = m.threads().size();
        m_b.counters = m.counters().size();
        m_b.flows = m.flows().size();
        m_b.sources = m.sources().size();
        m_b.threadList = &m.threads();
    }

    QString check() const
    {
        const char *bad = nullptr;
        forEachSection([&](const auto &s) {
            if (!bad && !schema::validSection(m_b, s, m_m))
                bad = m_b.failed ? m_b.failed : s.name;
        });
        if (bad)
            return QStringLiteral("bad %1").arg(QLatin1String(bad));
        return checkColumns();
    }

private:
    static bool time(TimeNs t) { return schema::Bounds::time(t); }

    bool slicesValid(const SliceTable &t, std::size_t begin, std::size_t end) const
    {
        const std::size_t n = t.size(), sources = m_b.sources, strings = m_b.strings;
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
    QString checkColumns() const
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
            if (c.slices && !slicesValid(*c.slices, c.begin, c.end))
                badSlice = true;
            if (c.counter && !samplesValid(*c.counter, c.begin, c.end))
                badSample = true;
        });
        return badSlice    ? QStringLiteral("bad slice table")
               : badSample ? QStringLiteral("bad counter sample")
                           : QString();
    }

    const TraceModel &m_m;
    schema::Bounds m_b;
};

// The structure (the whole payload, or the part before the column stream) read, the columns filled
// from source, every index checked.
std::unique_ptr<TraceModel> decodeModel(std::string_view structure, const ColumnSource &source,
                                        QString *reason, const PathMove &move = {})
{
    auto model = std::make_unique<TraceModel>();
    ByteReader r(structure.data(), structure.size());
    r.movePaths(move.from, move.to);
    if (!readModel(r, source, *model, reason))
        return nullptr;
    const QString invalid = Validator(*model).check();
    if (!invalid.isEmpty()) {
        *reason = invalid;
        return nullptr;
    }
    SnapshotAccess::kernels(*model).rebuildSliceIndex();
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
    for (const std::uint32_t t : kSectionTags)
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
    schema::writeRecord(keyBytes, key);
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
    schema::Input key{k};
    schema::readRecord(key, header.key);
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

std::unique_ptr<TraceModel> decodeBody(const SnapshotHeader &header, QString *reason, const PathMove &move)
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
        return decodeModel(std::string_view(buffer.get(), structureSize), columns, reason, move);
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
    return decodeModel(payload, ColumnSource{}, reason, move);
}

} // namespace at::snapshot
