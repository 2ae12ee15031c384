#pragma once

// The chunk-parsing kernel of ChromeTraceParser: turns one chunk of event objects (cut at event
// boundaries by JsonEventScanner) into plain records, without touching the TraceBuilder, so that
// chunks can be parsed on several threads and merged into the builder in file order.
//
// ChunkKernel.cpp is compiled twice: once for the default target and, on x86-64, once more with
// AVX2/BMI/PCLMUL (ChunkKernelHaswell.cpp), because simdjson's On-Demand API picks its SIMD kernel
// at compile time. kernel() picks the fastest one the CPU supports at run time. This header and
// ChunkKernel.cpp must stay free of Qt and of anything whose inline code could be shared with other
// translation units (the AVX2 copy would otherwise be allowed to replace the generic one): helpers
// that need the rest of the project are out-of-line functions in ChunkSupport.cpp.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <vector>

namespace at::jsonkernel {

struct Span
{
    std::size_t begin = 0; // offset of '{' in the file
    std::size_t end = 0;   // one past the matching '}'
};

constexpr std::uint32_t kNone = 0; // "no string": local string indices start at 1

// A pid/tid: a number, or the (1-based) index of a local string.
struct Lane
{
    std::int64_t number = 0;
    std::uint32_t text = kNone;
};

struct ParsedEvent
{
    enum Flags : std::uint8_t
    {
        TimeOk = 1,   // ts parsed
        BindEnd = 2,  // "bp": "e"
        HasSort = 4,  // metadata: sort index in sortIndex
        HasLabel = 8, // metadata: name/labels text in label
    };
    std::uint64_t offset = 0; // byte offset of the event in the file
    std::int64_t ts = 0;
    std::int64_t dur = 0; // 0 when absent or invalid
    std::int64_t sortIndex = 0;
    Lane pid;
    Lane tid;
    std::uint32_t name = kNone;
    std::uint32_t category = kNone;
    std::uint32_t id = kNone;      // flows: the id's text
    std::uint32_t label = kNone;   // metadata: process/thread name or labels
    std::uint32_t firstSample = 0; // counters: index into ChunkResult::samples
    std::uint32_t sampleCount = 0;
    char phase = '\0'; // '\0' when "ph" is not one character
    std::uint8_t flags = 0;
};

struct CounterSample
{
    std::uint32_t seriesKey; // local string
    double value;
};

// What one chunk turned into. Reused from chunk to chunk (clear() keeps the capacity).
struct ChunkResult
{
    std::vector<ParsedEvent> events;
    std::vector<CounterSample> samples;
    // Local strings, deduplicated within the chunk, in order of first use: index i + 1 is
    // [stringBegin[i], stringBegin[i + 1]) of arena.
    std::vector<char> arena;
    std::vector<std::uint32_t> stringBegin;
    std::vector<std::uint32_t> table; // open addressing: local index, 0 = empty
    std::uint32_t tableMask = 0;
    std::size_t eventsRead = 0;
    std::size_t badEvents = 0;
    std::size_t firstBadOffset = 0;
    const char *firstBadProblem = nullptr;
    std::size_t badTimes = 0;
    std::size_t argsProblems = 0;
    // Events kept after their text was repaired (not valid UTF-8, lone surrogate escapes).
    std::size_t repairedEvents = 0;
    std::size_t firstRepairedOffset = 0;
    // X events whose end (ts + dur) lay beyond kTimeLimitNs: dur saturated so the end is the limit.
    std::size_t saturatedDurations = 0;
    std::size_t firstSaturatedOffset = 0;
    bool cancelled = false;

    void clear();
    std::size_t stringCount() const { return stringBegin.empty() ? 0 : stringBegin.size() - 1; }
    std::string_view string(std::uint32_t local) const
    {
        return {arena.data() + stringBegin[local - 1], stringBegin[local] - stringBegin[local - 1]};
    }
};

// Times beyond ±2^62 ns (±146 years around 1970) are out of the model's range (TraceBuilder::build).
constexpr std::int64_t kTimeLimitNs = std::int64_t(1) << 62;

// How events whose text is not valid UTF-8 are read, decided once per file (ChunkSupport.cpp): as
// GB18030 (a superset of GBK) when the whole file decodes as GB18030, else with each invalid sequence
// replaced by U+FFFD. Lone UTF-16 surrogate escapes (\ud800) become \ufffd either way.
struct TextRepair
{
    const char *file = nullptr;
    std::size_t fileSize = 0;
    std::once_flag decided;
    bool gb18030 = false; // valid after `decided`
};

// Out-of-line helpers for the kernels (ChunkSupport.cpp, compiled for the default target).
// Writes `event` repaired as valid UTF-8 JSON into `out`; false when there was nothing to repair.
bool repairEventText(TextRepair &repair, std::string_view event, std::vector<char> &out);
std::uint32_t internLocal(ChunkResult &out, std::string_view text);
ParsedEvent &appendEvent(ChunkResult &out);
// Decimal microseconds text to ns (Time.h); false when not a number.
bool parseTimeNs(std::string_view text, bool roundHalfUp, std::int64_t *ns);
bool parseInteger(std::string_view text, std::int64_t *value);
struct CounterArg
{
    std::string_view key;
    double value;
};
void appendCounterArg(std::vector<CounterArg> &args, std::string_view key, double value);
// Interns "key acc_id N" (or the key alone) for each argument and appends the samples.
void appendCounterSamples(ChunkResult &out, ParsedEvent &event, const std::vector<CounterArg> &args,
                          std::string_view accId);
void truncate(ChunkResult &out, std::size_t events, std::size_t samples);
void recordBadEvent(ChunkResult &out, std::size_t offset, const char *problem);
void reserveBuffer(std::vector<char> &buffer, std::size_t size);

// One kernel: per-thread state (simdjson parsers and buffers) and the chunk parser.
struct Kernel
{
    const char *name;
    void *(*create)();
    void (*destroy)(void *state);
    // Parses spans[0..count) (contiguous in data) into out (cleared first). Checks cancel every
    // 1,024 events. An event that fails is retried with its text repaired (`repair`, may be null).
    void (*parseChunk)(void *state, const char *data, const Span *spans, std::size_t count,
                       const std::atomic<bool> *cancel, TextRepair *repair, ChunkResult &out);
};

// The best kernel for this CPU ("haswell" or "generic"); AT_JSON_KERNEL=generic forces the generic one.
const Kernel &kernel();
// Whether AT_JSON_KERNEL=generic asks for the portable code paths (the kernels and the event scanner).
bool genericForced();
// Both, for tests: the generic one, and the AVX2 one when built and supported (else nullptr).
const Kernel &genericKernel();
const Kernel *haswellKernel();

} // namespace at::jsonkernel
