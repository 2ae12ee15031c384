#include "KinetoTrace.h"

#include "LayerWording.h"
#include "TraceBuilder.h"
#include "kineto/KinetoFlows.h"
#include "json/ChunkKernel.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace at {

namespace jk = jsonkernel;

namespace {

std::uint64_t packLane(const LaneKey &key)
{
    return key.text != 0 ? (0x8000000000000000ull | key.text) : static_cast<std::uint64_t>(key.number);
}

struct LanePair
{
    std::uint64_t pid = 0, tid = 0;
    bool annotation = false; // the gpu_user_annotation lane of stream tid
    friend bool operator==(const LanePair &, const LanePair &) = default;
};

struct LanePairHash
{
    std::size_t operator()(const LanePair &k) const noexcept
    {
        return std::hash<std::uint64_t>()((k.pid * 0x9E3779B97F4A7C15ull) ^ k.tid ^ (k.annotation ? 1 : 0));
    }
};

struct ProcessMeta
{
    StringId name = 0;
    StringId labels = 0;
    std::optional<std::int64_t> sortIndex;
};

struct ThreadMeta
{
    StringId name = 0;
    std::optional<std::int64_t> sortIndex;
};

struct SeenProcess
{
    LaneKey pid;
    bool device = false; // has GPU activity (kernel, memcpy, memset, ...)
};

struct SeenThread
{
    LaneKey pid, tid;
    int thread = -1;
    bool annotation = false;
    bool nccl = false;         // a stream running NCCL kernels
    bool deviceMarked = false; // its process is marked as a GPU (once, not per event)
};

bool isNcclKernel(std::string_view name)
{
    // HTA and msprof-analyze classify communication kernels by name (FORMATS.md §10.9).
    return name.size() >= 4 && (name[0] == 'n' || name[0] == 'N') && (name[1] == 'c' || name[1] == 'C') &&
           (name[2] == 'c' || name[2] == 'C') && (name[3] == 'l' || name[3] == 'L');
}

QString laneKeyText(const StringPool &strings, const LaneKey &key)
{
    return key.text != 0 ? strings.qstring(key.text) : QString::number(key.number);
}

} // namespace

struct KinetoTrace::Impl
{
    TraceBuilder &builder;
    int group;
    QString file;
    std::int64_t offset = 0;
    const StringId processNameId, processLabelsId, processSortId;
    std::vector<StringId> deviceCategories;
    const StringId kernelCategory, annotationCategory;
    std::unordered_map<std::uint64_t, ProcessMeta> processMeta;
    std::unordered_map<LanePair, ThreadMeta, LanePairHash> threadMeta;
    std::map<std::uint64_t, SeenProcess> processes; // ordered: lanes are named in a stable order
    std::unordered_map<LanePair, SeenThread, LanePairHash> threads;
    KinetoFlows flows;
    std::vector<std::uint8_t> isDeviceCategory; // by StringId, grown on demand
    // Lane cache: consecutive events mostly share their lane.
    jk::Lane lastPid, lastTid;
    bool lastAnnotation = false, lastMarker = false;
    SeenThread *lastLane = nullptr;
    // The last complete slice, to name the runtime call a flow start sits on.
    int lastSliceThread = -1;
    TimeNs lastSliceTs = 0;
    StringId lastSliceName = 0;
    TimeNs firstTs = std::numeric_limits<TimeNs>::max();

    Impl(TraceBuilder &b, int g, QString f)
        : builder(b), group(g), file(std::move(f)), processNameId(b.strings().intern("process_name")),
          processLabelsId(b.strings().intern("process_labels")),
          processSortId(b.strings().intern("process_sort_index")),
          kernelCategory(b.strings().intern("kernel")),
          annotationCategory(b.strings().intern("gpu_user_annotation"))
    {
        // GPU activity categories (FORMATS.md §10.4): their pid is a device index, their tid a stream.
        for (const char *category :
             {"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "cuda_sync", "cuda_event"})
            deviceCategories.push_back(b.strings().intern(category));
    }

    bool deviceCategory(StringId category)
    {
        if (category >= isDeviceCategory.size())
            isDeviceCategory.resize(std::max<std::size_t>(category + 1, isDeviceCategory.size() * 2), 2);
        std::uint8_t &known = isDeviceCategory[category];
        if (known == 2)
            known = std::find(deviceCategories.begin(), deviceCategories.end(), category) !=
                            deviceCategories.end()
                        ? 1
                        : 0;
        return known == 1;
    }

    LaneKey laneKey(const jk::Lane &lane, const std::vector<StringId> &ids) const
    {
        return lane.text != jk::kNone ? LaneKey{0, ids[lane.text]} : builder.numberKey(lane.number);
    }

    SeenThread &lane(const jk::ParsedEvent &e, const std::vector<StringId> &ids, bool annotation, bool marker)
    {
        if (lastLane && e.pid.number == lastPid.number && e.pid.text == lastPid.text &&
            e.tid.number == lastTid.number && e.tid.text == lastTid.text && annotation == lastAnnotation &&
            marker == lastMarker)
            return *lastLane;
        LaneKey pid = laneKey(e.pid, ids), tid = laneKey(e.tid, ids);
        if (marker) // "Record Window End" is written with pid "" and tid "" (FORMATS.md §10.3)
            pid = tid = builder.textKey("Markers");
        const LanePair key{packLane(pid), packLane(tid), annotation};
        auto found = threads.find(key);
        if (found == threads.end()) {
            SeenThread seen{pid, tid, -1, annotation, false, false};
            const LaneKey threadTid = annotation
                                          ? builder.textKey(QStringLiteral("%1 annotations")
                                                                .arg(laneKeyText(builder.strings(), tid))
                                                                .toStdString())
                                          : tid;
            seen.thread = builder.thread(pid, threadTid);
            found = threads.emplace(key, seen).first;
            processes.try_emplace(packLane(pid), SeenProcess{pid, false});
        }
        lastPid = e.pid;
        lastTid = e.tid;
        lastAnnotation = annotation;
        lastMarker = marker;
        lastLane = &found->second;
        return found->second;
    }

    void metadata(const jk::ParsedEvent &e, const std::vector<StringId> &ids)
    {
        const LaneKey pid = laneKey(e.pid, ids);
        const StringId name = ids[e.name];
        const bool processLevel = name == processNameId || name == processLabelsId || name == processSortId;
        if (processLevel) {
            ProcessMeta &meta = processMeta[packLane(pid)];
            if ((e.flags & jk::ParsedEvent::HasLabel) && name == processNameId)
                meta.name = ids[e.label];
            else if ((e.flags & jk::ParsedEvent::HasLabel) && name == processLabelsId)
                meta.labels = ids[e.label];
            else if (e.flags & jk::ParsedEvent::HasSort)
                meta.sortIndex = e.sortIndex;
            return;
        }
        // thread_name / thread_sort_index; a later thread_name of the same tid wins (FORMATS.md §10.3).
        ThreadMeta &meta = threadMeta[LanePair{packLane(pid), packLane(laneKey(e.tid, ids)), false}];
        if (e.flags & jk::ParsedEvent::HasLabel)
            meta.name = ids[e.label];
        else if (e.flags & jk::ParsedEvent::HasSort)
            meta.sortIndex = e.sortIndex;
    }

    // Relative times whose base may still follow the events (FORMATS.md §10.1) keep their chunks here
    // until finish() has read the keys after the array.
    enum class Mode
    {
        Undecided,
        Direct,
        Deferred
    } mode = Mode::Undecided;
    struct DeferredChunk
    {
        std::vector<jk::ParsedEvent> events;
        std::vector<jk::CounterSample> samples;
        std::vector<StringId> ids;
        std::uint32_t source;
    };
    std::vector<DeferredChunk> deferred;

    void merge(const jk::ChunkResult &r, const std::vector<StringId> &ids, std::uint32_t sourceIndex)
    {
        merge(r.events, r.samples, ids, sourceIndex);
    }

    void merge(const std::vector<jk::ParsedEvent> &events, const std::vector<jk::CounterSample> &samples,
               const std::vector<StringId> &ids, std::uint32_t sourceIndex)
    {
        lastLane = nullptr; // local lane strings are renumbered per chunk
        EventCounts &counts = builder.counts();
        for (const jk::ParsedEvent &e : events) {
            const bool timeOk = e.flags & jk::ParsedEvent::TimeOk;
            const TimeNs ts = e.ts + offset;
            const StringId name = ids[e.name];
            const StringId category = ids[e.category];
            switch (e.phase) {
            case 'X':
            case 'B':
            case 'E':
            case 'i':
            case 'I': {
                if (!timeOk)
                    break;
                const bool instant = e.phase == 'i' || e.phase == 'I';
                // pid "" reads as lane 0 (the pool's empty string is id 0).
                const bool marker = instant && category == 0 && laneKey(e.pid, ids) == LaneKey{} &&
                                    laneKey(e.tid, ids) == LaneKey{};
                const bool device = category != 0 && deviceCategory(category);
                SeenThread &seen = lane(e, ids, category == annotationCategory, marker);
                if (device && !seen.deviceMarked) {
                    processes[packLane(seen.pid)].device = true;
                    seen.deviceMarked = true;
                }
                firstTs = std::min(firstTs, ts);
                const SourceLocation source = makeSourceLocation(sourceIndex, e.offset);
                if (e.phase == 'X') {
                    ++counts.complete;
                    builder.addSlice(seen.thread, ts, e.dur, name, category, source);
                    lastSliceThread = seen.thread;
                    lastSliceTs = ts;
                    lastSliceName = name;
                    if (category == kernelCategory && !seen.nccl &&
                        isNcclKernel(builder.strings().view(name)))
                        seen.nccl = true;
                } else if (e.phase == 'B') {
                    ++counts.begin;
                    builder.addBegin(seen.thread, ts, name, category, source);
                } else if (e.phase == 'E') {
                    ++counts.end;
                    builder.addEnd(seen.thread, ts);
                } else {
                    ++counts.instant;
                    builder.addSlice(seen.thread, ts, 0, name, category, source);
                }
                break;
            }
            case 'C': {
                if (!timeOk)
                    break;
                ++counts.counter;
                const LaneKey pid = laneKey(e.pid, ids);
                processes.try_emplace(packLane(pid), SeenProcess{pid, false});
                const int process = builder.process(pid);
                for (std::uint32_t k = 0; k < e.sampleCount; ++k) {
                    const jk::CounterSample &sample = samples[e.firstSample + k];
                    builder.addCounterSample(process, name, ids[sample.seriesKey], ts, sample.value);
                }
                break;
            }
            case 's':
            case 't':
            case 'f': {
                if (!timeOk)
                    break;
                const FlowPhase phase = countedFlowPhase(e.phase, counts);
                const SeenThread &seen = lane(e, ids, false, false);
                // libkineto writes a flow start right after the runtime call it leaves from.
                const StringId launcher =
                    seen.thread == lastSliceThread && ts == lastSliceTs ? lastSliceName : StringId(0);
                // As in the generic reader: starts bind to the slice at ts, finishes with bp:"e" too, other
                // finishes to the next slice, which on a stream lane is the GPU activity starting at ts
                // (the stream's gpu_user_annotation spans, which start earlier, are on a lane of their own).
                const bool enclosing = e.phase != 'f' || (e.flags & jk::ParsedEvent::BindEnd);
                flows.add({ts, category, name, ids[e.id], seen.thread, launcher,
                           static_cast<std::uint8_t>(phase), enclosing});
                break;
            }
            case 'M':
                ++counts.metadata;
                metadata(e, ids);
                break;
            default:
                ++counts.other;
                break;
            }
        }
    }

    // The events the kernel table and the memory profile need (KinetoGpuEvents.h), as a parse worker picked
    // and read them (prepareGpuEvents): kernels and [memory] instants read from their text (their args),
    // CPU operators as parsed; here only their names are interned and what the text reading left (events
    // not written the plain way) is read. Times stay as written: the base is added when the rows are made.
    static void gatherGpuEvents(const jk::ChunkResult &chunk, const std::vector<StringId> &ids,
                                const ChunkText &text, const kineto::PreparedGpuEvents &prepared,
                                kineto::GpuEventCollector &gpu, StringPool &strings)
    {
        using Step = kineto::PreparedGpuEvents::Step;
        std::size_t kernel = 0, allocator = 0;
        for (const kineto::PreparedGpuEvents::Item &item : prepared.items) {
            const jk::ParsedEvent &e = chunk.events[item.event];
            switch (item.step) {
            case Step::Kernel: {
                const kineto::PreparedGpuEvents::Kernel &k = prepared.kernels[kernel++];
                kineto::KernelEvent row = k.row;
                row.name = k.localName != jk::kNone ? ids[k.localName] : strings.intern(k.rawName);
                gpu.addKernelRow(row);
                break;
            }
            case Step::Allocator:
                gpu.addAllocatorRow(prepared.allocators[allocator++]);
                break;
            case Step::CpuOp:
                gpu.addCpuOp({laneNumber(e.pid, ids), laneNumber(e.tid, ids)}, e.ts, e.ts + e.dur,
                             ids[e.name]);
                break;
            case Step::KernelText:
                gpu.addKernel(text.event(e.offset), e.offset);
                break;
            case Step::AllocatorText:
                gpu.addAllocatorEvent(text.event(e.offset), e.offset);
                break;
            case Step::CpuOpText:
                gpu.addCpuOpText(text.event(e.offset), e.offset);
                break;
            }
        }
    }

    static std::int64_t laneNumber(const jk::Lane &lane, const std::vector<StringId> &ids)
    {
        return lane.text != jk::kNone ? kineto::LaneId::kTextLane | static_cast<std::int64_t>(ids[lane.text])
                                      : lane.number;
    }

    QString processName(const SeenProcess &p, const ProcessMeta &meta) const
    {
        const StringPool &strings = builder.strings();
        const QString labels = meta.labels ? strings.qstring(meta.labels) : QString();
        const QString name = meta.name ? strings.qstring(meta.name) : QString();
        if (labels.startsWith(QLatin1String("GPU ")))
            return labels; // process_name of a GPU is the Python process name (FORMATS.md §10.3)
        if (p.pid.text != 0)
            return name.isEmpty() ? strings.qstring(p.pid.text) : name; // "Spans", "Traces", counters
        if (p.device)
            return QStringLiteral("GPU %1").arg(p.pid.number);
        // Host processes carry process_labels "CPU"; older PyTorch exports have only a process_name, kept.
        if (labels == QLatin1String("CPU") || (name.isEmpty() && p.pid.number > 0))
            return QStringLiteral("CPU · %1 (pid %2)")
                .arg(name.isEmpty() ? QCoreApplication::translate("Parser", "process") : name)
                .arg(p.pid.number);
        return name.isEmpty() ? QStringLiteral("pid %1").arg(p.pid.number) : name; // CUPTI Overhead (pid -1)
    }

    void nameLanes()
    {
        StringPool &strings = builder.strings();
        for (const auto &[key, p] : processes) {
            const int process = builder.process(p.pid);
            const auto meta = processMeta.find(key);
            const ProcessMeta none;
            const ProcessMeta &m = meta != processMeta.end() ? meta->second : none;
            builder.setProcessName(process, strings.intern(processName(p, m).toStdString()));
            if (m.labels)
                builder.setProcessLabels(process, m.labels);
            if (m.sortIndex)
                builder.setProcessSortIndex(process, *m.sortIndex);
        }
        for (const auto &[key, t] : threads) {
            const auto meta = threadMeta.find(LanePair{key.pid, key.tid, false});
            const ThreadMeta none;
            const ThreadMeta &m = meta != threadMeta.end() ? meta->second : none;
            QString name = m.name ? strings.qstring(m.name).trimmed() : QString(); // "stream 7 " → "stream 7"
            const bool device = processes[key.pid].device;
            if (name.isEmpty() && device && t.tid.text == 0)
                name = QStringLiteral("stream %1").arg(t.tid.number);
            if (t.annotation)
                name = QCoreApplication::translate("Parser", "%1 · GPU annotations")
                           .arg(name.isEmpty() ? laneKeyText(strings, t.tid) : name);
            else if (t.nccl)
                name = QStringLiteral("%1 (NCCL)").arg(name);
            if (!name.isEmpty())
                builder.setThreadName(t.thread, strings.intern(name.toStdString()));
            // The annotation lane sorts with its stream (the stream's numeric tid orders first on ties).
            if (m.sortIndex)
                builder.setThreadSortIndex(t.thread, *m.sortIndex);
            else if (t.tid.text == 0 && device)
                builder.setThreadSortIndex(t.thread, t.tid.number);
        }
    }
};

KinetoTrace::KinetoTrace(TraceBuilder &builder, int group, QString file, KinetoMetadata metadata)
    : d(std::make_unique<Impl>(builder, group, std::move(file))), m_metadata(std::move(metadata)),
      m_gpuEvents(builder.strings())
{
    m_offset = m_metadata.baseTimeNs.value_or(0);
    d->offset = m_offset;
}

KinetoTrace::~KinetoTrace() = default;

std::unique_ptr<KinetoTrace> KinetoTrace::recognise(const char *data, std::size_t size, TraceBuilder &builder,
                                                    int group, const QString &file)
{
    if (!looksLikeKinetoTrace(data, size))
        return nullptr;
    std::unique_ptr<KinetoTrace> trace(new KinetoTrace(builder, group, file, readKinetoMetadata(data, size)));
    trace->m_gpuEvents.reserveFor(size);
    trace->d->flows.reserveFor(size);
    return trace;
}

QString KinetoTrace::layoutText()
{
    return kinetoLayoutText();
}

namespace {

// A relative ts stays below 7.9 × 10^12 µs (the 3-month base unit, FORMATS.md §10.2).
constexpr TimeNs kRelativeLimitNs = 10'000'000'000'000'000;

} // namespace

std::unique_ptr<PreparedChunk> KinetoTrace::newPreparedChunk() const
{
    return std::make_unique<kineto::PreparedGpuEvents>();
}

void KinetoTrace::prepare(const jsonkernel::ChunkResult &chunk, const ChunkText &text,
                          PreparedChunk &out) const
{
    kineto::prepareGpuEvents(chunk, text, static_cast<kineto::PreparedGpuEvents &>(out));
}

void KinetoTrace::merge(const jsonkernel::ChunkResult &chunk, const std::vector<StringId> &globalIds,
                        std::uint32_t sourceIndex, const ChunkText &text, const PreparedChunk *prepared)
{
    if (prepared) {
        Impl::gatherGpuEvents(chunk, globalIds, text,
                              static_cast<const kineto::PreparedGpuEvents &>(*prepared), m_gpuEvents,
                              d->builder.strings());
    } else {
        kineto::PreparedGpuEvents here;
        prepare(chunk, text, here);
        Impl::gatherGpuEvents(chunk, globalIds, text, here, m_gpuEvents, d->builder.strings());
    }
    using Mode = Impl::Mode;
    if (d->mode == Mode::Undecided) {
        // The base is known, or the times are absolute (before libkineto wrote a base): merge at once.
        // Otherwise the base may follow the events: keep the chunks until finish().
        const auto timed = std::ranges::find_if(
            chunk.events, [](const jk::ParsedEvent &e) { return e.flags & jk::ParsedEvent::TimeOk; });
        if (m_metadata.baseTimeNs || (timed != chunk.events.end() && timed->ts >= kRelativeLimitNs))
            d->mode = Mode::Direct;
        else if (timed != chunk.events.end())
            d->mode = Mode::Deferred;
    }
    if (d->mode == Mode::Direct)
        d->merge(chunk, globalIds, sourceIndex);
    else
        d->deferred.push_back({chunk.events, chunk.samples, globalIds, sourceIndex});
}

namespace {

QString deviceText(const KinetoDevice &device)
{
    QStringList parts;
    if (!device.name.isEmpty())
        parts << device.name;
    if (device.totalGlobalMemBytes > 0)
        parts << QCoreApplication::translate("Parser", "%1 GiB")
                     .arg(static_cast<double>(device.totalGlobalMemBytes) / (1 << 30), 0, 'f', 1);
    if (device.numSms > 0)
        parts << QCoreApplication::translate("Parser", "%1 SMs").arg(device.numSms);
    if (device.computeMajor >= 0)
        parts << QCoreApplication::translate("Parser", "compute capability %1.%2")
                     .arg(device.computeMajor)
                     .arg(std::max<std::int64_t>(0, device.computeMinor));
    return parts.join(QStringLiteral(", "));
}

QString distributedKey(const QString &key)
{
    if (key == QLatin1String("rank"))
        return QStringLiteral("rank");
    if (key == QLatin1String("world_size"))
        return QStringLiteral("world size");
    if (key == QLatin1String("backend"))
        return QStringLiteral("backend");
    if (key == QLatin1String("pg_count"))
        return QStringLiteral("process group count");
    if (key == QLatin1String("pg_config"))
        return QStringLiteral("process groups");
    if (key == QLatin1String("nccl_version"))
        return QStringLiteral("NCCL version");
    return key;
}

} // namespace

void KinetoTrace::finish(const char *data, std::size_t size, std::size_t eventArrayEnd)
{
    TraceBuilder &builder = d->builder;
    if (eventArrayEnd > 0)
        m_metadata = readKinetoMetadata(data, size, eventArrayEnd);
    if (d->mode != Impl::Mode::Direct) {
        m_offset = m_metadata.baseTimeNs.value_or(0);
        d->offset = m_offset;
        for (Impl::DeferredChunk &chunk : d->deferred) {
            d->merge(chunk.events, chunk.samples, chunk.ids, chunk.source);
            chunk = {};
        }
        d->deferred = {};
    }
    d->nameLanes();
    QList<QPair<QString, QString>> rows;
    rows.append({QStringLiteral("trace"),
                 m_metadata.schemaVersion
                     ? QCoreApplication::translate("Parser", "PyTorch profiler (Kineto) GPU trace, schema %1")
                           .arg(*m_metadata.schemaVersion)
                     : QCoreApplication::translate("Parser", "PyTorch profiler (Kineto) GPU trace")});
    const bool anyEvent = d->firstTs != std::numeric_limits<TimeNs>::max();
    if (m_metadata.baseTimeNs) {
        rows.append({QStringLiteral("time base"),
                     QCoreApplication::translate("Parser", "baseTimeNanoseconds %1: ts are µs relative to it")
                         .arg(*m_metadata.baseTimeNs)});
    } else if (anyEvent && d->firstTs < kRelativeLimitNs) {
        rows.append(
            {QStringLiteral("time base"),
             QCoreApplication::translate("Parser", "none recorded: times are relative to an unknown start")});
        builder.addWarning(
            QCoreApplication::translate("Parser",
                                        "%1: the timestamps are relative and no baseTimeNanoseconds could be "
                                        "read (libkineto of 2024-04/05 wrote none): times are shown from an "
                                        "unknown start, not as wall-clock time")
                .arg(d->file));
    } else {
        rows.append({QStringLiteral("time base"),
                     QCoreApplication::translate("Parser", "ts are absolute µs since the Unix epoch")});
    }
    for (const auto &[key, value] : m_metadata.distributed)
        rows.append({distributedKey(key), value});
    for (const auto &[key, p] : d->processes) {
        if (!p.device || p.pid.text != 0)
            continue;
        for (const KinetoDevice &device : m_metadata.devices)
            if (device.id == p.pid.number)
                rows.append({QStringLiteral("GPU %1").arg(device.id), deviceText(device)});
    }
    if (!m_metadata.devices.isEmpty())
        rows.append({QStringLiteral("GPUs on the node"), QString::number(m_metadata.devices.size())});
    rows.append({QStringLiteral("flows"), d->flows.bind(builder)});
    if (!m_metadata.traceName.isEmpty())
        rows.append({QStringLiteral("trace name"), m_metadata.traceName});
    if (!m_metadata.problem.isEmpty())
        builder.addWarning(
            QCoreApplication::translate(
                "Parser", "%1: the keys beside \"traceEvents\" could not all be read (%2); the events were "
                          "read with their times as written")
                .arg(d->file, m_metadata.problem));
    SourceGroup &group = builder.group(d->group);
    group.layout = layoutText();
    for (const auto &row : rows)
        if (group.collection.property(row.first).isEmpty())
            group.collection.properties.append(row);
}

void KinetoTrace::addGpuData()
{
    kineto::addKinetoGpuData(d->builder, d->group, m_gpuEvents.take(m_offset), d->file);
}

} // namespace at
