#include "snapshot/SnapshotCodec.h"

#include "HugePages.h"
#include "SnapshotAccess.h"
#include "Steps.h"
#include "snapshot/SnapshotArgs.h"
#include "snapshot/SnapshotBytes.h"

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
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

private:
    ZSTD_CCtx *m_c = nullptr;
    ZSTD_DCtx *m_d = nullptr;
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

void writeSlices(ByteWriter &w, const SliceTable &t)
{
    const std::uint32_t n = static_cast<std::uint32_t>(t.size());
    w.u64(n);
    for (std::uint32_t i = 0; i < n; ++i)
        w.i64(t.start(i));
    for (std::uint32_t i = 0; i < n; ++i)
        w.i64(t.duration(i));
    for (std::uint32_t i = 0; i < n; ++i)
        w.u32(t.name(i));
    for (std::uint32_t i = 0; i < n; ++i)
        w.u32(t.category(i));
    for (std::uint32_t i = 0; i < n; ++i)
        w.i32(t.parent(i));
    for (std::uint32_t i = 0; i < n; ++i)
        w.u64(t.source(i));
    writeVector(w, A::depthBegin(t), [&](std::uint32_t d) { w.u32(d); });
}

void writeFlowIndex(ByteWriter &w, const A::FlowIndex &index)
{
    writeVector(w, index, [&](const auto &p) {
        w.u64(p.first);
        w.u32(p.second);
    });
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
            writeVector(w, c.times, [&](TimeNs t) { w.i64(t); });
            for (double v : c.values)
                w.f64(v);
        });
    }
    {
        SectionWriter s(w, tag("FLOW"));
        writeVector(w, m.flows(), [&](const FlowInfo &f) {
            w.u32(f.category);
            w.u32(f.name);
            w.u32(f.id);
            writeRef(w, f.from);
            writeRef(w, f.to);
            w.i64(f.fromTime);
            w.i64(f.toTime);
        });
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

bool readSlices(ByteReader &r, SliceTable &t)
{
    const std::size_t n = r.count(36);
    if (!r.ok() || n > 0xFFFFFFFFu)
        return false;
    r.column<8>(A::start(t), n);
    r.column<8>(A::duration(t), n);
    r.column<4>(A::name(t), n);
    r.column<4>(A::category(t), n);
    r.column<4>(A::parent(t), n);
    r.column<8>(A::source(t), n);
    readVector(r, A::depthBegin(t), 4, [&] { return r.u32(); });
    return r.ok();
}

void readFlowIndex(ByteReader &r, A::FlowIndex &index)
{
    readVector(r, index, 12, [&] {
        const std::uint64_t key = r.u64();
        const std::uint32_t flow = r.u32();
        return std::make_pair(key, flow);
    });
}

// Every section must parse and be consumed exactly.
bool complete(const ByteReader &section)
{
    return section.ok() && section.atEnd();
}

// THRD: the threads and their slice tables, most of a payload.
bool readThreadSection(ByteReader &s, TraceModel &m)
{
    readVector(s, A::threads(m), 41, [&] {
        ThreadInfo t;
        t.process = s.i32();
        t.tid = readKey(s);
        t.name = s.u32();
        t.sortIndex = readOptional(s);
        if (!readSlices(s, t.slices))
            s.fail();
        return t;
    });
    return complete(s);
}

// Every section but THRD (see readModel).
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
        ByteReader &s = sections.at(tag("CNTR"));
        readVector(s, A::counters(m), 36, [&] {
            CounterSeries c;
            c.process = s.i32();
            c.name = s.u32();
            c.seriesKey = s.u32();
            c.minValue = s.f64();
            c.maxValue = s.f64();
            const std::size_t samples = s.count(16);
            s.column<8>(c.times, samples);
            s.column<8>(c.values, samples);
            return c;
        });
        if (!complete(s))
            return failed("counters");
    }
    {
        ByteReader &s = sections.at(tag("FLOW"));
        readVector(s, A::flows(m), 44, [&] {
            FlowInfo f;
            f.category = s.u32();
            f.name = s.u32();
            f.id = s.u32();
            f.from = readRef(s);
            f.to = readRef(s);
            f.fromTime = s.i64();
            f.toTime = s.i64();
            return f;
        });
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

bool readModel(ByteReader &r, TraceModel &m, QString *reason)
{
    // The section table first (tag, length, bytes, in this order), then the thread section on a
    // second core while this one reads the rest: the sections fill disjoint parts of the model.
    std::map<std::uint32_t, ByteReader> sections;
    for (const std::uint32_t t :
         {tag("STRS"), tag("META"), tag("GRPS"), tag("SRCS"), tag("PROC"), tag("THRD"), tag("CNTR"),
          tag("FLOW"), tag("KERN"), tag("SUMT"), tag("STEP")}) {
        sections.emplace(t, expectSection(r, t));
        if (!r.ok()) {
            *reason = QStringLiteral("corrupt section table");
            return false;
        }
    }
    if (!r.atEnd()) {
        *reason = QStringLiteral("trailing bytes after the last section");
        return false;
    }
    bool threadsOk = false;
    std::thread threadReader;
    ByteReader &threadSection = sections.at(tag("THRD"));
    if (std::thread::hardware_concurrency() > 1)
        threadReader = std::thread([&] { threadsOk = readThreadSection(threadSection, m); });
    else
        threadsOk = readThreadSection(threadSection, m);
    const bool othersOk = readOtherSections(sections, m, reason);
    if (threadReader.joinable())
        threadReader.join();
    if (othersOk && !threadsOk) {
        *reason = QStringLiteral("corrupt threads section");
        return false;
    }
    return othersOk;
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
            if (!sliceTableValid(t.slices, strings))
                return QStringLiteral("bad slice table");
        }
        for (const CounterSeries &c : m_m.counters()) {
            if (!index(c.process, processes) || !str(c.name) || !str(c.seriesKey) ||
                c.times.size() != c.values.size() || !std::isfinite(c.minValue) || !std::isfinite(c.maxValue))
                return QStringLiteral("bad counter");
            for (std::size_t i = 0; i < c.times.size(); ++i)
                if (!time(c.times[i]) || !std::isfinite(c.values[i]))
                    return QStringLiteral("bad counter sample");
        }
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

    bool sliceTableValid(const SliceTable &t, std::size_t strings) const
    {
        const auto &depths = SnapshotAccess::depthBegin(t);
        const std::size_t n = t.size();
        if (depths.empty() || depths.front() != 0 || depths.back() != n)
            return false;
        for (std::size_t d = 1; d < depths.size(); ++d)
            if (depths[d] < depths[d - 1])
                return false;
        const std::size_t sources = m_m.sources().size();
        for (std::uint32_t i = 0; i < n; ++i) {
            const SourceLocation loc = t.source(i);
            if (t.name(i) >= strings || t.category(i) >= strings || t.parent(i) < -1 || !time(t.start(i)) ||
                t.duration(i) < 0 || !time(t.duration(i)) ||
                (t.parent(i) >= 0 && static_cast<std::size_t>(t.parent(i)) >= n) ||
                (loc != kNoSource && sourceFile(loc) >= sources))
                return false;
        }
        return true;
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
    auto model = std::make_unique<TraceModel>();
    ByteReader r(payload.data(), payload.size());
    if (!readModel(r, *model, reason))
        return nullptr;
    const QString invalid = Validator(*model).check();
    if (!invalid.isEmpty()) {
        *reason = invalid;
        return nullptr;
    }
    A::kernels(*model).rebuildSliceIndex();
    return model;
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
    const std::size_t frames = std::max<std::size_t>(1, (payload.size() + kFrameBytes - 1) / kFrameBytes);
    std::vector<std::string> compressed(frames);
    std::vector<std::size_t> errors(frames, 0);
    forEachInParallel(frames, [&](std::size_t i, ZstdContexts &z) {
        const std::size_t begin = i * kFrameBytes, size = std::min(kFrameBytes, payload.size() - begin);
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
    w.u64(frames);
    for (std::size_t i = 0; i < frames; ++i) {
        w.u64(std::min(kFrameBytes, payload.size() - i * kFrameBytes));
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
    readVector(r, header.frames, 16, [&] {
        SnapshotFrame f;
        f.rawSize = r.u64();
        f.compressed = r.bytes();
        return f;
    });
    if (!r.ok() || !k.ok() || !k.atEnd() || !r.atEnd()) {
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
    if (sum != header.payloadSize || header.payloadSize > kMaxPayload) {
        *reason = QStringLiteral("corrupt payload size");
        return nullptr;
    }
    const std::size_t total = static_cast<std::size_t>(header.payloadSize);
    auto failed = [&](std::size_t error) {
        *reason = QStringLiteral("payload does not decompress: %1")
                      .arg(ZSTD_isError(error) ? QString::fromUtf8(ZSTD_getErrorName(error))
                                               : QStringLiteral("short frame"));
        return nullptr;
    };
    // A plausible size (payloads compress about 6x) is decompressed into one uninitialised buffer,
    // frames on both cores at once; a larger claim is decompressed frame by frame into a buffer that
    // grows only with what really decompressed, so a corrupt size cannot allocate gigabytes up front.
    if (header.payloadSize <= compressedBytes * std::uint64_t(64) + (std::uint64_t(1) << 20)) {
        const std::unique_ptr<char, void (*)(void *) noexcept> buffer(
            static_cast<char *>(allocateLarge(total)), freeLarge);
        std::vector<std::size_t> offsets(header.frames.size() + 1, 0);
        for (std::size_t i = 0; i < header.frames.size(); ++i)
            offsets[i + 1] = offsets[i] + static_cast<std::size_t>(header.frames[i].rawSize);
        std::vector<std::size_t> results(header.frames.size(), 0);
        forEachInParallel(header.frames.size(), [&](std::size_t i, ZstdContexts &z) {
            const SnapshotFrame &f = header.frames[i];
            results[i] = ZSTD_decompressDCtx(z.decompressor(), buffer.get() + offsets[i], f.rawSize,
                                             f.compressed.data(), f.compressed.size());
        });
        for (std::size_t i = 0; i < results.size(); ++i)
            if (ZSTD_isError(results[i]) || results[i] != header.frames[i].rawSize)
                return failed(results[i]);
        return decodePayload(std::string_view(buffer.get(), total), reason);
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
