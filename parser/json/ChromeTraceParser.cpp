#include "ChromeTraceParser.h"

#include "ChunkKernel.h"
#include "LoadMemoryGuard.h"

#include <QCoreApplication>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace at {

namespace jk = jsonkernel;

namespace {

int automaticThreads()
{
    if (const char *env = std::getenv("AT_PARSE_THREADS")) {
        const int n = std::atoi(env);
        if (n > 0)
            return std::min(n, 16);
    }
    const unsigned cores = std::thread::hardware_concurrency();
    return cores >= 2 ? 2 : 1;
}

// Drops the pages of [from, to) of a read-only file mapping from the process, in whole pages, and
// remembers how far it got (*released).
void releasePages(const char *data, std::size_t to, std::size_t *released)
{
#if defined(__linux__)
    static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto base = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (base + *released + page - 1) & ~(page - 1);
    const std::uintptr_t end = (base + to) & ~(page - 1);
    if (end > begin) {
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
        *released = end - base;
    }
#else
    (void)data;
    (void)to;
    (void)released;
#endif
}

// Per-thread kernel state (simdjson parsers and buffers), reused for every chunk of one parse().
class KernelState
{
public:
    explicit KernelState(const jk::Kernel &kernel) : m_kernel(kernel), m_state(kernel.create()) {}
    ~KernelState() { m_kernel.destroy(m_state); }
    KernelState(const KernelState &) = delete;
    KernelState &operator=(const KernelState &) = delete;
    void parse(const char *data, const std::vector<jk::Span> &spans, const std::atomic<bool> *cancel,
               jk::TextRepair *repair, jk::ChunkResult &out)
    {
        m_kernel.parseChunk(m_state, data, spans.data(), spans.size(), cancel, repair, out);
    }

private:
    const jk::Kernel &m_kernel;
    void *m_state;
};

// Says how the event array ended when it did not end normally (cut off, or malformed at a byte).
void addEndOfArrayWarning(TraceBuilder &builder, const QString &file, const JsonEventScanner &scanner,
                          std::size_t size, std::size_t eventsRead)
{
    switch (scanner.state()) {
    case JsonEventScanner::State::Finished:
    case JsonEventScanner::State::Events:
        break;
    case JsonEventScanner::State::Truncated:
        if (scanner.problemOffset() >= size) {
            builder.addWarning(QCoreApplication::translate(
                                   "Parser",
                                   "%1: the event array is not closed with ']' (the file may have been "
                                   "cut off when the job ended); all %2 events in it were read")
                                   .arg(file)
                                   .arg(eventsRead));
        } else {
            builder.addWarning(QCoreApplication::translate(
                                   "Parser", "%1: truncated at byte %2 of %3: %4; the %5 complete events "
                                             "before it were kept")
                                   .arg(file)
                                   .arg(scanner.problemOffset())
                                   .arg(size)
                                   .arg(scanner.problem())
                                   .arg(eventsRead));
        }
        break;
    case JsonEventScanner::State::Malformed:
        builder.addWarning(QCoreApplication::translate(
                               "Parser", "%1: byte %2: %3; reading stopped there and the %4 events before it "
                                         "were kept")
                               .arg(file)
                               .arg(scanner.problemOffset())
                               .arg(scanner.problem())
                               .arg(eventsRead));
        break;
    }
}

// Parses the chunks `nextChunk` cuts on `threads` workers and hands them to `consume` in file order
// (the single-threaded loop of ChromeTraceParser::parse, spread over a ring of slots). Returns true
// when `consume` said the load was cancelled; rethrows a worker's exception (bad_alloc) here.
template <class NextChunk, class Consume>
bool parseOnWorkers(int threads, const jk::Kernel &kernel, const char *data, const std::atomic<bool> *cancel,
                    jk::TextRepair &repair, const JsonEventScanner &scanner, NextChunk &nextChunk,
                    const EventDialect *dialect, Consume &consume)
{
    bool cancelled = false;
    // Workers take turns cutting the next chunk (the scanner is sequential), parse it into their
    // slot, and the calling thread merges the ring in chunk order.
    struct Slot
    {
        enum class Status
        {
            Free,
            Parsing,
            Ready
        } status = Status::Free;
        std::size_t sequence = 0;
        std::size_t scanPosition = 0;
        std::vector<jk::Span> spans;
        jk::ChunkResult result;
        std::unique_ptr<PreparedChunk> prepared; // the dialect's reading of the chunk, if it has one
    };
    const std::size_t slotCount = static_cast<std::size_t>(threads) * 2;
    std::vector<Slot> ring(slotCount);
    if (dialect)
        for (Slot &slot : ring)
            slot.prepared = dialect->newPreparedChunk();
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t nextSequence = 0;
    bool scanDone = false;
    bool stop = false;
    std::exception_ptr failure; // an exception of a worker (bad_alloc), rethrown here
    auto work = [&] {
        try {
            KernelState state(kernel);
            std::unique_lock lock(mutex);
            while (true) {
                changed.wait(lock, [&] {
                    return stop || scanDone || ring[nextSequence % slotCount].status == Slot::Status::Free;
                });
                if (stop || scanDone)
                    return;
                Slot &slot = ring[nextSequence % slotCount];
                if (!nextChunk(slot.spans)) {
                    scanDone = true;
                    changed.notify_all();
                    return;
                }
                slot.sequence = nextSequence++;
                slot.scanPosition = scanner.position();
                slot.status = Slot::Status::Parsing;
                lock.unlock();
                state.parse(data, slot.spans, cancel, &repair, slot.result);
                if (slot.prepared)
                    dialect->prepare(slot.result, ChunkText{data, slot.spans.data(), slot.spans.size()},
                                     *slot.prepared);
                lock.lock();
                slot.status = Slot::Status::Ready;
                changed.notify_all();
            }
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!failure)
                failure = std::current_exception();
            stop = true;
            changed.notify_all();
        }
    };
    std::vector<std::thread> workers;
    auto stopWorkers = [&] {
        {
            std::lock_guard lock(mutex);
            stop = true;
            changed.notify_all();
        }
        for (std::thread &worker : workers)
            worker.join();
    };
    try {
        for (int t = 0; t < threads; ++t)
            workers.emplace_back(work);
        for (std::size_t sequence = 0;; ++sequence) {
            Slot &slot = ring[sequence % slotCount];
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] {
                    return failure || (slot.status == Slot::Status::Ready && slot.sequence == sequence) ||
                           (scanDone && sequence >= nextSequence);
                });
                if (failure || slot.status != Slot::Status::Ready || slot.sequence != sequence)
                    break;
            }
            cancelled = consume(slot.result, slot.spans, slot.prepared.get(), slot.scanPosition);
            std::lock_guard lock(mutex);
            slot.status = Slot::Status::Free;
            changed.notify_all();
            if (cancelled)
                break;
        }
    } catch (...) {
        stopWorkers();
        throw;
    }
    stopWorkers();
    if (failure)
        std::rethrow_exception(failure);
    return cancelled;
}

} // namespace

struct ChromeTraceParser::Impl
{
    TraceBuilder &builder;
    std::uint32_t sourceIndex;
    QString fileName;
    std::size_t badEvents = 0;
    std::size_t firstBadOffset = 0;
    QString firstBadProblem;
    std::size_t badTimes = 0;
    std::size_t argsProblems = 0;
    std::size_t repairedEvents = 0;
    std::size_t firstRepairedOffset = 0;
    std::size_t saturatedDurations = 0;
    std::size_t firstSaturatedOffset = 0;
    std::vector<StringId> globalIds; // local string -> pool id, per merged chunk
    EventDialect *dialect = nullptr;
    // The last (pid, tid) -> thread lookup: consecutive events mostly share their thread.
    jk::Lane lastPid, lastTid;
    int lastThread = -1;

    // Interned first, as the parser always did, so that string ids do not change.
    Impl(TraceBuilder &b, std::uint32_t source, QString name)
        : builder(b), sourceIndex(source), fileName(std::move(name)),
          processNameId(b.strings().intern("process_name")),
          processLabelsId(b.strings().intern("process_labels")),
          processSortId(b.strings().intern("process_sort_index"))
    {
        for (const char *key : {"thread_name", "thread_sort_index"})
            builder.strings().intern(key);
    }
    const StringId processNameId, processLabelsId, processSortId; // metadata names that pick the setter

    LaneKey laneKey(const jk::Lane &lane) const
    {
        return lane.text != jk::kNone ? LaneKey{0, globalIds[lane.text]} : builder.numberKey(lane.number);
    }

    int thread(const jk::ParsedEvent &e)
    {
        if (lastThread >= 0 && e.pid.number == lastPid.number && e.pid.text == lastPid.text &&
            e.tid.number == lastTid.number && e.tid.text == lastTid.text)
            return lastThread;
        lastThread = builder.thread(laneKey(e.pid), laneKey(e.tid));
        lastPid = e.pid;
        lastTid = e.tid;
        return lastThread;
    }

    // Feeds one parsed chunk to the builder, exactly as if its events were read one by one here.
    void merge(const jk::ChunkResult &r, const ChunkText &text, const PreparedChunk *prepared)
    {
        StringPool &strings = builder.strings();
        const std::size_t n = r.stringCount();
        globalIds.resize(n + 1);
        globalIds[0] = 0;
        for (std::uint32_t local = 1; local <= n; ++local)
            globalIds[local] = strings.intern(r.string(local));
        if (dialect)
            dialect->merge(r, globalIds, sourceIndex, text, prepared);
        else
            mergeEvents(r);
        addChunkProblems(r);
    }

    // The generic rules: every event as written.
    void mergeEvents(const jk::ChunkResult &r)
    {
        // Local lane strings are renumbered per chunk: the cache compares local indices.
        lastThread = -1;
        EventCounts &counts = builder.counts();
        for (const jk::ParsedEvent &e : r.events) {
            const bool timeOk = e.flags & jk::ParsedEvent::TimeOk;
            const StringId name = globalIds[e.name];
            const StringId category = globalIds[e.category];
            const SourceLocation source = makeSourceLocation(sourceIndex, e.offset);
            switch (e.phase) {
            case 'X':
            case 'B':
            case 'E':
            case 'i':
            case 'I': {
                if (!timeOk)
                    break;
                const int t = thread(e);
                if (e.phase == 'X') {
                    ++counts.complete;
                    builder.addSlice(t, e.ts, e.dur, name, category, source);
                } else if (e.phase == 'B') {
                    ++counts.begin;
                    builder.addBegin(t, e.ts, name, category, source);
                } else if (e.phase == 'E') {
                    ++counts.end;
                    builder.addEnd(t, e.ts);
                } else {
                    ++counts.instant;
                    builder.addSlice(t, e.ts, 0, name, category, source);
                }
                break;
            }
            case 'C': {
                if (!timeOk)
                    break;
                ++counts.counter;
                const int process = builder.process(laneKey(e.pid));
                for (std::uint32_t k = 0; k < e.sampleCount; ++k) {
                    const jk::CounterSample &sample = r.samples[e.firstSample + k];
                    builder.addCounterSample(process, name, globalIds[sample.seriesKey], e.ts, sample.value);
                }
                break;
            }
            case 's':
            case 't':
            case 'f': {
                if (!timeOk)
                    break;
                const FlowPhase flowPhase = countedFlowPhase(e.phase, counts);
                // Starts and steps bind to their enclosing slice (as in Chrome); finishes only with
                // bp:"e", else to the next slice.
                const bool enclosing = e.phase != 'f' || (e.flags & jk::ParsedEvent::BindEnd);
                builder.addFlowHalf(flowPhase, category, name, globalIds[e.id], thread(e), e.ts, enclosing);
                break;
            }
            case 'M':
                ++counts.metadata;
                handleMetadata(e);
                break;
            default:
                ++counts.other;
                break;
            }
        }
    }

    void addChunkProblems(const jk::ChunkResult &r)
    {
        badTimes += r.badTimes;
        argsProblems += r.argsProblems;
        if (r.repairedEvents && repairedEvents == 0)
            firstRepairedOffset = r.firstRepairedOffset;
        repairedEvents += r.repairedEvents;
        if (r.saturatedDurations && saturatedDurations == 0)
            firstSaturatedOffset = r.firstSaturatedOffset;
        saturatedDurations += r.saturatedDurations;
        if (r.badEvents) {
            if (badEvents == 0) {
                firstBadOffset = r.firstBadOffset;
                firstBadProblem = r.firstBadProblem
                                      ? QString::fromUtf8(r.firstBadProblem)
                                      : QCoreApplication::translate("Parser", "unreadable event");
            }
            badEvents += r.badEvents;
        }
    }

    void handleMetadata(const jk::ParsedEvent &e)
    {
        const int process = builder.process(laneKey(e.pid));
        const StringId name = globalIds[e.name];
        if (e.flags & jk::ParsedEvent::HasLabel) {
            const StringId label = globalIds[e.label];
            if (name == processNameId)
                builder.setProcessName(process, label);
            else if (name == processLabelsId)
                builder.setProcessLabels(process, label);
            else
                builder.setThreadName(thread(e), label);
        } else if (e.flags & jk::ParsedEvent::HasSort) {
            if (name == processSortId)
                builder.setProcessSortIndex(process, e.sortIndex);
            else
                builder.setThreadSortIndex(thread(e), e.sortIndex);
        }
    }
};

// The warnings about content that was kept in a changed form or skipped without stopping the read.
void ChromeTraceParser::addContentWarnings(const JsonEventScanner &scanner)
{
    TraceBuilder &builder = d->builder;
    const QString &file = d->fileName;
    if (d->badEvents)
        builder.addWarning(
            QCoreApplication::translate(
                "Parser", "%1: %2 events could not be read and were skipped (first at byte %3: %4)")
                .arg(file)
                .arg(d->badEvents)
                .arg(d->firstBadOffset)
                .arg(d->firstBadProblem));
    if (d->badTimes)
        builder.addWarning(QCoreApplication::translate(
                               "Parser",
                               "%1: %2 events have a missing or invalid ts/dur (events without a valid "
                               "ts were skipped, invalid dur read as 0)")
                               .arg(file)
                               .arg(d->badTimes));
    if (d->argsProblems)
        builder.addWarning(
            QCoreApplication::translate("Parser", "%1: %2 metadata/counter events have unreadable args")
                .arg(file)
                .arg(d->argsProblems));
    if (scanner.skippedElements())
        builder.addWarning(QCoreApplication::translate(
                               "Parser", "%1: %2 elements of the event array are not event objects and "
                                         "were skipped (first at byte %3: %4); the events after them "
                                         "were read")
                               .arg(file)
                               .arg(scanner.skippedElements())
                               .arg(scanner.firstSkippedOffset())
                               .arg(scanner.firstSkippedKind()));
    if (d->repairedEvents)
        builder.addWarning(
            QCoreApplication::translate("Parser",
                                        "%1: %2 events have text that is not valid UTF-8 (first at byte "
                                        "%3); they were kept, their text read %4")
                .arg(file)
                .arg(d->repairedEvents)
                .arg(d->firstRepairedOffset)
                .arg(m_textReadAsGb18030
                         ? QCoreApplication::translate("Parser", "as GB18030 (GBK), as the whole "
                                                                 "file decodes that way")
                         : QCoreApplication::translate("Parser", "with U+FFFD replacing each invalid "
                                                                 "byte sequence")));
    if (d->saturatedDurations)
        builder.addWarning(QCoreApplication::translate(
                               "Parser", "%1: %2 events have a dur so large (more than 73 years, or ending "
                                         "beyond 2^62 ns) that their end was clamped to the last time the "
                                         "timeline can hold (first at byte %3)")
                               .arg(file)
                               .arg(d->saturatedDurations)
                               .arg(d->firstSaturatedOffset));
    if (scanner.secondEventArrayOffset())
        builder.addWarning(QCoreApplication::translate(
                               "Parser", "%1: a second \"traceEvents\" key at byte %2 was ignored; only the "
                                         "first event array was read")
                               .arg(file)
                               .arg(scanner.secondEventArrayOffset()));
}

std::string_view ChunkText::event(std::uint64_t offset) const
{
    const jk::Span *end = spans + spanCount;
    const jk::Span *span = std::lower_bound(
        spans, end, offset, [](const jk::Span &s, std::uint64_t begin) { return s.begin < begin; });
    if (span == end || span->begin != offset)
        return {};
    return {data + span->begin, span->end - span->begin};
}

ChromeTraceParser::ChromeTraceParser(TraceBuilder &builder, std::uint32_t sourceIndex, QString displayName)
    : d(std::make_unique<Impl>(builder, sourceIndex, std::move(displayName)))
{}

ChromeTraceParser::~ChromeTraceParser() = default;

void ChromeTraceParser::setDialect(EventDialect *dialect)
{
    d->dialect = dialect;
}

const char *ChromeTraceParser::kernelName()
{
    return jk::kernel().name;
}

ChromeTraceParser::Result ChromeTraceParser::parse(const char *data, std::size_t size,
                                                   const ParseControl &control, QString *error)
{
    const QString &file = d->fileName;
    JsonEventScanner scanner(data, size);
    QString problem;
    if (!scanner.locateEvents(&problem)) {
        *error = QStringLiteral("%1: %2").arg(file, problem);
        return Result::Failed;
    }
    const std::size_t chunkBytes = control.chunkBytes ? control.chunkBytes : kChunkBytes;
    // At most one slice per 256 bytes: Kineto traces have one per ~360, Ascend ones one per ~500.
    d->builder.expectSlices(size / 256);
    // Cuts the next chunk of events; false when there are none.
    const std::size_t maxEventBytes = control.maxEventBytes;
    std::size_t oversized = 0, firstOversizedOffset = 0, firstOversizedBytes = 0; // under the scanner's lock
    auto nextChunk = [&scanner, chunkBytes, maxEventBytes, &oversized, &firstOversizedOffset,
                      &firstOversizedBytes](std::vector<jk::Span> &spans) {
        spans.clear();
        JsonEventScanner::Span span;
        while (scanner.next(span)) {
            if (maxEventBytes && span.end - span.begin > maxEventBytes) {
                if (oversized++ == 0) {
                    firstOversizedOffset = span.begin;
                    firstOversizedBytes = span.end - span.begin;
                }
                // A chunk is one contiguous copy from its first span to its last: end it before the
                // skipped event, or its bytes would be copied and parsed after all.
                if (!spans.empty())
                    break;
                continue;
            }
            spans.push_back(span);
            if (span.end - spans.front().begin >= chunkBytes)
                break;
        }
        return !spans.empty();
    };
    const jk::Kernel &kernel = control.portableKernel ? jk::genericKernel() : jk::kernel();
    jk::TextRepair repair;
    repair.file = data;
    repair.fileSize = size;
    int threads = control.threads > 0 ? control.threads : automaticThreads();
    if (control.threads <= 0 && size < 2 * chunkBytes)
        threads = 1;
    m_threadsUsed = threads;
    std::size_t released = 0;
    auto reportProgress = [&control](std::size_t position) {
        if (control.bytesDone)
            control.bytesDone->store(control.bytesBase + position, std::memory_order_relaxed);
    };
    // Merges one parsed chunk (chunks arrive in file order); true when the load was cancelled, in the
    // chunk or since.
    auto consume = [&](const jk::ChunkResult &result, const std::vector<jk::Span> &spans,
                       const PreparedChunk *prepared, std::size_t position) {
        d->merge(result, ChunkText{data, spans.data(), spans.size()}, prepared);
        if (control.releaseParsedPages && !spans.empty())
            releasePages(data, spans.back().end, &released);
        m_eventsRead += result.eventsRead;
        if (result.cancelled) {
            // Stopped inside the chunk: its first eventsRead events were kept, so that is where reading
            // stopped (not the previous chunk's end, which read "byte 0" for a stop in the first chunk).
            if (result.eventsRead > 0 && result.eventsRead <= spans.size())
                reportProgress(spans[result.eventsRead - 1].end);
            return true;
        }
        reportProgress(position);
        return control.cancel && control.cancel->load(std::memory_order_relaxed);
    };

    if (threads == 1) {
        KernelState state(kernel);
        std::vector<jk::Span> spans;
        jk::ChunkResult result;
        const std::unique_ptr<PreparedChunk> prepared = d->dialect ? d->dialect->newPreparedChunk() : nullptr;
        while (nextChunk(spans)) {
            state.parse(data, spans, control.cancel, &repair, result);
            if (prepared)
                d->dialect->prepare(result, ChunkText{data, spans.data(), spans.size()}, *prepared);
            if (consume(result, spans, prepared.get(), scanner.position()))
                return Result::Cancelled;
        }
    } else if (parseOnWorkers(threads, kernel, data, control.cancel, repair, scanner, nextChunk, d->dialect,
                              consume)) {
        return Result::Cancelled;
    }
    reportProgress(scanner.position());
    m_textReadAsGb18030 = d->repairedEvents && repair.gb18030;
    if (oversized)
        d->builder.addWarning(
            QCoreApplication::translate("Parser",
                                        "%1: %2 events were skipped because each is larger than %3, more "
                                        "than reading one event may take under the memory limit (first at "
                                        "byte %4: %5); raise it with --memory-limit or AT_MEMORY_LIMIT")
                .arg(file)
                .arg(oversized)
                .arg(formatByteSize(maxEventBytes))
                .arg(firstOversizedOffset)
                .arg(formatByteSize(firstOversizedBytes)));

    if (scanner.state() == JsonEventScanner::State::Finished)
        m_eventArrayEnd = scanner.position();
    addEndOfArrayWarning(d->builder, file, scanner, size, m_eventsRead);
    addContentWarnings(scanner);

    if (m_eventsRead == 0 && scanner.state() != JsonEventScanner::State::Finished &&
        scanner.state() != JsonEventScanner::State::Events) {
        *error = QCoreApplication::translate("Parser", "%1: byte %2: %3; no complete event could be read")
                     .arg(file)
                     .arg(scanner.problemOffset())
                     .arg(scanner.problem());
        return Result::Failed;
    }
    if (m_eventsRead == 0 && d->badEvents == 0 && scanner.skippedElements() > 0) {
        *error = QCoreApplication::translate(
                     "Parser", "%1: none of the %2 elements of the event array is an event object "
                               "(first at byte %3: %4)")
                     .arg(file)
                     .arg(scanner.skippedElements())
                     .arg(scanner.firstSkippedOffset())
                     .arg(scanner.firstSkippedKind());
        return Result::Failed;
    }
    if (m_eventsRead == 0 && d->badEvents > 0) {
        *error = QCoreApplication::translate("Parser",
                                             "%1: none of the %2 events could be read (first at byte %3: %4)")
                     .arg(file)
                     .arg(d->badEvents)
                     .arg(d->firstBadOffset)
                     .arg(d->firstBadProblem);
        return Result::Failed;
    }
    return Result::Ok;
}

} // namespace at
