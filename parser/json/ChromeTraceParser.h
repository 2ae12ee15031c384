#pragma once

#include "JsonEventScanner.h"
#include "TraceBuilder.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace at {

namespace jsonkernel {
struct ChunkResult;
struct Span;
} // namespace jsonkernel

// The text of a chunk being merged: the file's bytes and the spans of the chunk's events, in file order.
// A dialect reads here what the chunk kernel does not keep (the args of slices) while the chunk's pages
// are still mapped: they are dropped right after the merge (ParseControl::releaseParsedPages).
struct ChunkText
{
    const char *data = nullptr;
    const jsonkernel::Span *spans = nullptr;
    std::size_t spanCount = 0;
    // The text of the chunk's event at this byte offset (ParsedEvent::offset), or empty.
    std::string_view event(std::uint64_t offset) const;
};

// What a dialect read of one chunk on the parse's worker thread (EventDialect::prepare), handed to its
// merge with the chunk. One per slot of the parse, reused from chunk to chunk.
struct PreparedChunk
{
    virtual ~PreparedChunk() = default;
};

// A Chrome-trace dialect whose events need rules of their own (parser/kineto): it turns each parsed
// chunk into the model instead of the generic merge. Chunks arrive in file order; globalIds maps the
// chunk's local strings to the builder's pool.
class EventDialect
{
public:
    virtual ~EventDialect() = default;
    // The dialect's per-chunk work that needs nothing but the chunk (its records, local strings and text):
    // prepare() runs on the parse's worker threads, several chunks at once, right after a chunk was parsed,
    // so it may touch neither the builder nor the dialect's state. A dialect without such work returns null
    // from newPreparedChunk() (merge then gets null).
    virtual std::unique_ptr<PreparedChunk> newPreparedChunk() const { return nullptr; }
    virtual void prepare(const jsonkernel::ChunkResult &chunk, const ChunkText &text,
                         PreparedChunk &out) const
    {
        (void)chunk;
        (void)text;
        (void)out;
    }
    virtual void merge(const jsonkernel::ChunkResult &chunk, const std::vector<StringId> &globalIds,
                       std::uint32_t sourceIndex, const ChunkText &text, const PreparedChunk *prepared) = 0;
};

struct ParseControl
{
    const std::atomic<bool> *cancel = nullptr;
    std::atomic<std::uint64_t> *bytesDone = nullptr;
    std::uint64_t bytesBase = 0; // added to this file's position (several files in one load)
    // Parser threads: 0 = automatic (up to 2, or AT_PARSE_THREADS; 1 for files of less than two
    // chunks). The model is the same for every count: chunks are merged in file order.
    int threads = 0;
    std::size_t chunkBytes = 0;  // 0 = kChunkBytes (tests use small chunks)
    bool portableKernel = false; // use the portable SIMD kernel even when AVX2 is there (tests)
    // The data is a read-only mapping of a file: drop the pages of parsed chunks from the process
    // (they stay in the page cache; args are re-read from the file by offset when asked), so that
    // peak memory does not grow with the file. Never for heap buffers (their pages would be zeroed).
    bool releaseParsedPages = false;
    // An event larger than this is skipped with a warning instead of read (0 = no cap): parsing one
    // event takes several times its size at once (the copy, simdjson's index and strings, the string
    // pool), between two checks of the memory guard. The loader sets it from the memory limit.
    std::size_t maxEventBytes = 0;
};

// The flow phase of an 's' (start), 't' (step) or 'f' (finish) event, counted in `counts`.
inline FlowPhase countedFlowPhase(char phase, EventCounts &counts)
{
    if (phase == 's') {
        ++counts.flowStart;
        return FlowPhase::Start;
    }
    if (phase == 't') {
        ++counts.flowStep;
        return FlowPhase::Step;
    }
    ++counts.flowEnd;
    return FlowPhase::End;
}

// Reads one Chrome Trace Event file (array or {"traceEvents": [...]} form, all the shapes Ascend
// tools write: string or numeric ts, large or string pid/tid, string or >2^53 integer flow ids)
// into a TraceBuilder. Events are cut into chunks of a few MB at event boundaries and each chunk is
// parsed by simdjson's On-Demand API (the AVX2 kernel when the CPU has it, see ChunkKernel.h) on up
// to two threads into plain records, which are merged into the builder in file order; a chunk that
// fails is re-read event by event so that one bad event costs only itself. Args of slices are not kept: the
// builder records each event's byte offset and JsonArgsReader re-reads them when asked.
class ChromeTraceParser
{
public:
    ChromeTraceParser(TraceBuilder &builder, std::uint32_t sourceIndex, QString displayName);
    ~ChromeTraceParser();

    enum class Result
    {
        Ok,     // read (warnings may have been added to the builder)
        Failed, // nothing readable: *error says why
        Cancelled
    };
    Result parse(const char *data, std::size_t size, const ParseControl &control, QString *error);
    // Events go through the dialect (not owned; null = the generic rules).
    void setDialect(EventDialect *dialect);

    std::size_t eventsRead() const { return m_eventsRead; }
    // One past the event array's closing ']' once parse() reached it (the object form's later keys
    // follow), else 0.
    std::size_t eventArrayEnd() const { return m_eventArrayEnd; }
    // Threads the last parse() used, and the name of the SIMD kernel ("haswell", "generic").
    int threadsUsed() const { return m_threadsUsed; }
    static const char *kernelName();

    static constexpr std::size_t kChunkBytes = 4 << 20;

private:
    void addContentWarnings(const JsonEventScanner &scanner);

    struct Impl;
    std::unique_ptr<Impl> d;
    bool m_textReadAsGb18030 = false;
    std::size_t m_eventsRead = 0;
    std::size_t m_eventArrayEnd = 0;
    int m_threadsUsed = 1;
};

} // namespace at
