#include "KinetoGpuEvents.h"

#include "KinetoKernelRows.h"
#include "KinetoMemory.h"
#include "TraceBuilder.h"
#include "json/ChromeTraceParser.h"
#include "json/ChunkKernel.h"
#include "json/JsonEventScanner.h"

#include <QCoreApplication>

#include <simdjson.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace at::kineto {
namespace {

enum class EventKind
{
    Other,
    Kernel,
    CpuOp,
    Allocator
};

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Where the value of the first `"key":` of the event text starts, or npos. Inside a JSON string every
// quote is escaped, so a quoted key in the text is a key (or a string value equal to it, which the
// parse below rejects).
std::size_t valueStart(std::string_view event, std::string_view quotedKey)
{
    std::size_t p = event.find(quotedKey);
    if (p == std::string_view::npos)
        return p;
    p += quotedKey.size();
    while (p < event.size() && isSpace(event[p]))
        ++p;
    if (p >= event.size() || event[p] != ':')
        return std::string_view::npos;
    ++p;
    while (p < event.size() && isSpace(event[p]))
        ++p;
    return p < event.size() ? p : std::string_view::npos;
}

// A number's text as written ("1669783687464300", "4458676388068.751"), or a quoted number's content.
std::string_view numberText(std::string_view event, std::string_view quotedKey)
{
    std::size_t p = valueStart(event, quotedKey);
    if (p == std::string_view::npos)
        return {};
    if (event[p] == '"') {
        const std::size_t close = event.find('"', p + 1);
        return close == std::string_view::npos ? std::string_view() : event.substr(p + 1, close - p - 1);
    }
    std::size_t end = p;
    while (end < event.size() && event[end] != ',' && event[end] != '}' && !isSpace(event[end]))
        ++end;
    return event.substr(p, end - p);
}

std::optional<std::int64_t> integerOf(simdjson::dom::element element)
{
    std::int64_t i = 0;
    if (element.get_int64().get(i) == simdjson::SUCCESS)
        return i;
    std::uint64_t u = 0;
    if (element.get_uint64().get(u) == simdjson::SUCCESS)
        return static_cast<std::int64_t>(u); // a pointer above 2^63 keeps its bits
    double d = 0;
    if (element.get_double().get(d) == simdjson::SUCCESS && std::isfinite(d) && std::fabs(d) < 9.2e18)
        return static_cast<std::int64_t>(d);
    std::string_view text;
    if (element.get_string().get(text) == simdjson::SUCCESS)
        return parseInt64(text);
    return std::nullopt;
}

std::optional<std::int64_t> integerAt(simdjson::dom::object object, std::string_view key)
{
    simdjson::dom::element element;
    if (object.at_key(key).get(element))
        return std::nullopt;
    return integerOf(element);
}

double numberAt(simdjson::dom::object object, std::string_view key)
{
    simdjson::dom::element element;
    double value = 0;
    if (object.at_key(key).get(element) || element.get_double().get(value))
        return kNoValue;
    return value;
}

// A [x, y, z] launch dimension; false when absent or not three integers.
bool dimensionsAt(simdjson::dom::object object, std::string_view key, std::array<std::int64_t, 3> &out)
{
    simdjson::dom::array array;
    if (object.at_key(key).get_array().get(array) || array.size() != 3)
        return false;
    std::size_t i = 0;
    for (simdjson::dom::element element : array) {
        const auto value = integerOf(element);
        if (!value)
            return false;
        out[i++] = *value;
    }
    return true;
}

// x × y × z of a launch dimension, as the kernel rows show it.
std::int64_t volume(const std::array<std::int64_t, 3> &dims)
{
    return dims[0] * dims[1] * dims[2];
}

// A pid or tid: numbers as they are ("123" as 123, like the JSON reader), other text interned.
std::optional<std::int64_t> laneNumber(simdjson::dom::object event, std::string_view key, StringPool &strings)
{
    simdjson::dom::element element;
    if (event.at_key(key).get(element))
        return std::nullopt;
    std::string_view text;
    if (element.get_string().get(text) == simdjson::SUCCESS) {
        if (const auto number = parseInt64(text); number && !text.empty() && text.find('.') == text.npos)
            return *number;
        return LaneId::kTextLane | static_cast<std::int64_t>(strings.intern(text));
    }
    return integerOf(element);
}

// The keys the text reading uses, and the offset of each one's value in the event text.
enum Field
{
    Ph,
    Cat,
    Name,
    Pid,
    Tid,
    Ts,
    Dur,
    DeviceType,
    DeviceId,
    Addr,
    Bytes,
    TotalAllocated,
    TotalReserved,
    Grid,
    Block,
    Device,
    Stream,
    Correlation,
    Registers,
    SharedMemory,
    BlocksPerSm,
    WarpsPerSm,
    Occupancy,
    FieldCount
};
constexpr std::string_view kFieldKeys[FieldCount] = {"ph",
                                                     "cat",
                                                     "name",
                                                     "pid",
                                                     "tid",
                                                     "ts",
                                                     "dur",
                                                     "Device Type",
                                                     "Device Id",
                                                     "Addr",
                                                     "Bytes",
                                                     "Total Allocated",
                                                     "Total Reserved",
                                                     "grid",
                                                     "block",
                                                     "device",
                                                     "stream",
                                                     "correlation",
                                                     "registers per thread",
                                                     "shared memory",
                                                     "blocks per SM",
                                                     "warps per SM",
                                                     "est. achieved occupancy %"};

// The field a key names, or FieldCount: by length first, so that a key costs one or two comparisons
// (a kernel event has ~17 keys, a [memory] event ~13, and ~190,000 of them are read per 200 MB).
constexpr Field fieldOf(std::string_view key)
{
    auto pick = [key](std::initializer_list<Field> candidates) {
        for (const Field f : candidates)
            if (kFieldKeys[f] == key)
                return f;
        return FieldCount;
    };
    switch (key.size()) {
    case 2:
        return pick({Ph, Ts});
    case 3:
        return pick({Cat, Pid, Tid, Dur});
    case 4:
        return pick({Name, Addr, Grid});
    case 5:
        return pick({Bytes, Block});
    case 6:
        return pick({Device, Stream});
    case 9:
        return pick({DeviceId});
    case 11:
        return pick({DeviceType, Correlation});
    case 12:
        return pick({WarpsPerSm});
    case 13:
        return pick({SharedMemory, BlocksPerSm});
    case 14:
        return pick({TotalReserved});
    case 15:
        return pick({TotalAllocated});
    case 20:
        return pick({Registers});
    case 25:
        return pick({Occupancy});
    default:
        return FieldCount;
    }
}

constexpr bool everyKeyFindsItsField()
{
    for (std::size_t f = 0; f < FieldCount; ++f)
        if (fieldOf(kFieldKeys[f]) != static_cast<Field>(f))
            return false;
    return true;
}
static_assert(everyKeyFindsItsField(), "fieldOf must know every key of kFieldKeys");

// The first '"' or '\\' at or after p, or n: sixteen bytes at a time where SSE2 is there (every x86-64),
// as most gaps between quotes are short and a kernel's name long.
std::size_t quoteOrBackslash(const char *data, std::size_t p, std::size_t n)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    for (; p + 16 <= n; p += 16) {
        const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + p));
        const int hits =
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
        if (hits != 0)
            return p + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(hits)));
    }
#endif
    while (p < n && data[p] != '"' && data[p] != '\\')
        ++p;
    return p;
}

// Bit i set: data[from + i] is '"' or '\\' (from + i < n), for the 64 bytes from `from`.
std::uint64_t quoteAndBackslashBits(const char *data, std::size_t from, std::size_t n)
{
    std::uint64_t bits = 0;
#if defined(__SSE2__)
    if (from + 64 <= n) {
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        for (std::size_t i = 0; i < 4; ++i) {
            const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + from + 16 * i));
            const auto hits = static_cast<std::uint32_t>(_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash))));
            bits |= std::uint64_t(hits) << (16 * i);
        }
        return bits;
    }
#endif
    const std::size_t count = std::min<std::size_t>(64, n - from);
    for (std::size_t i = 0; i < count; ++i)
        if (data[from + i] == '"' || data[from + i] == '\\')
            bits |= std::uint64_t(1) << i;
    return bits;
}

// Walks the keys of an event's text in order (the args' keys too), hopping from quote to quote without
// parsing values, and notes where the value of each wanted key starts (its first occurrence: Kineto writes
// the top-level keys before "args"). Lazy: the kind test stops after "cat" and "name", the first keys.
// Quotes found by quoteOrBackslash rather than memchr: most gaps between quotes are a few bytes, where
// a call costs more than the search.
class KeyWalker
{
public:
    static constexpr std::size_t npos = std::string_view::npos;

    explicit KeyWalker(std::string_view event) : m_event(event) { m_at.fill(npos); }

    // Walks on until the field was seen; false when the event has no such key.
    bool find(Field field)
    {
        while (m_at[field] == npos)
            if (!step())
                return false;
        return true;
    }
    // The same walk to the end in one pass over the positions of the quotes and backslashes, found 64
    // bytes at a time (the walk of kernel and [memory] events, ~10 % of a Kineto load's CPU as step()
    // calls: a search started per string).
    void walkToEnd()
    {
        const char *data = m_event.data();
        const std::size_t n = m_event.size();
        bool inString = false;
        std::size_t open = 0;
        std::size_t skip = 0; // a position below it is escaped (the character after a backslash)
        for (std::size_t block = m_pos; block < n; block += 64) {
            for (std::uint64_t bits = quoteAndBackslashBits(data, block, n); bits != 0; bits &= bits - 1) {
                const std::size_t p = block + static_cast<std::size_t>(__builtin_ctzll(bits));
                if (p < skip)
                    continue;
                if (data[p] == '\\') {
                    if (inString) // else a backslash outside a string: not JSON, passed over
                        skip = p + 2;
                    continue;
                }
                if (!inString) {
                    inString = true;
                    open = p;
                    continue;
                }
                inString = false;
                const std::size_t end = p + 1;
                std::size_t value = skipSpaces(end);
                if (value >= n || data[value] != ':')
                    continue; // a string value
                value = skipSpaces(value + 1);
                const Field field = fieldOf(m_event.substr(open + 1, end - open - 2));
                if (field != FieldCount && m_at[field] == npos)
                    m_at[field] = value;
            }
        }
        m_pos = n;
    }
    std::size_t at(Field field) const { return m_at[field]; }
    const std::string_view &event() const { return m_event; }

    // One past the closing quote of the string that opens at `open`, or npos. A backslash escapes the
    // character after it (so a quote after an odd run of backslashes stays inside the string).
    static std::size_t stringEnd(std::string_view text, std::size_t open)
    {
        const char *data = text.data();
        const std::size_t n = text.size();
        for (std::size_t p = quoteOrBackslash(data, open + 1, n); p < n;
             p = quoteOrBackslash(data, p + 2, n)) {
            if (data[p] == '"')
                return p + 1;
        }
        return npos;
    }

private:
    std::size_t skipSpaces(std::size_t p) const
    {
        while (p < m_event.size() && isSpace(m_event[p]))
            ++p;
        return p;
    }

    bool step()
    {
        const char *data = m_event.data();
        const std::size_t n = m_event.size();
        while (m_pos < n) {
            std::size_t open = quoteOrBackslash(data, m_pos, n);
            while (open < n && data[open] != '"') // a backslash outside a string: not JSON, passed over
                open = quoteOrBackslash(data, open + 1, n);
            if (open >= n)
                break;
            const std::size_t end = stringEnd(m_event, open);
            if (end == npos)
                break;
            std::size_t p = skipSpaces(end);
            m_pos = p;
            if (p >= n || data[p] != ':')
                continue; // a string value
            p = skipSpaces(p + 1);
            m_pos = p;
            const Field field = fieldOf(m_event.substr(open + 1, end - open - 2));
            if (field != FieldCount && m_at[field] == npos)
                m_at[field] = p;
            return true;
        }
        m_pos = n;
        return false;
    }

    std::string_view m_event;
    std::size_t m_pos = 0;
    std::array<std::size_t, FieldCount> m_at;
};

// A string value's raw bytes (escapes kept) at a value offset; nullopt when the value is no string.
std::optional<std::string_view> rawStringAt(std::string_view event, std::size_t at)
{
    if (at == KeyWalker::npos || at >= event.size() || event[at] != '"')
        return std::nullopt;
    const std::size_t end = KeyWalker::stringEnd(event, at);
    if (end == KeyWalker::npos)
        return std::nullopt;
    return event.substr(at + 1, end - at - 2);
}

// A number's text at a value offset (or a quoted number's content).
std::string_view numberAtOffset(std::string_view event, std::size_t at)
{
    if (at == KeyWalker::npos || at >= event.size())
        return {};
    if (event[at] == '"')
        return rawStringAt(event, at).value_or(std::string_view());
    std::size_t end = at;
    while (end < event.size() && event[end] != ',' && event[end] != '}' && event[end] != ']' &&
           !isSpace(event[end]))
        ++end;
    return event.substr(at, end - at);
}

std::string_view fieldString(KeyWalker &walker, Field field)
{
    return walker.find(field) ? rawStringAt(walker.event(), walker.at(field)).value_or(std::string_view())
                              : std::string_view();
}

// The text test that picks the events worth parsing: by category, and allocator events by name
// (`[memory]`: the name is the documented key, the category changed across versions).
EventKind kindOf(KeyWalker &walker)
{
    const std::string_view category = fieldString(walker, Cat);
    if (category == "kernel")
        return EventKind::Kernel;
    if (category == "cpu_op")
        return EventKind::CpuOp;
    return fieldString(walker, Name) == "[memory]" ? EventKind::Allocator : EventKind::Other;
}

// ts / dur from their text as the JSON reader converts them (jsonkernel::parseTimeNs): never through a
// double.
std::optional<TimeNs> fieldTime(KeyWalker &walker, Field field)
{
    TimeNs ns = 0;
    if (!walker.find(field) ||
        !jsonkernel::parseTimeNs(numberAtOffset(walker.event(), walker.at(field)), field == Dur, &ns))
        return std::nullopt;
    return ns;
}

std::optional<std::int64_t> fieldInteger(KeyWalker &walker, Field field)
{
    if (!walker.find(field))
        return std::nullopt;
    const std::string_view number = numberAtOffset(walker.event(), walker.at(field));
    // Most are plain digits (pids, addresses, byte counts): read here, as parseInt64 reads them (18 digits
    // cannot overflow); the rest by the general rules. find_first_of costs a memchr per character.
    const std::size_t sign = !number.empty() && number[0] == '-' ? 1 : 0;
    if (number.size() > sign && number.size() - sign <= 18) {
        std::int64_t value = 0;
        std::size_t i = sign;
        for (; i < number.size() && number[i] >= '0' && number[i] <= '9'; ++i)
            value = value * 10 + (number[i] - '0');
        if (i == number.size())
            return sign ? -value : value;
    }
    if (number.empty() || number.find_first_of(".eE") != std::string_view::npos)
        return std::nullopt;
    return parseInt64(number);
}

// The fast path for the many small events (cpu_op, [memory]): their fields read from the text, without a
// JSON parse. False when the event is not written the plain way (a key missing, a name with an escape,
// a string pid): it is then parsed.
bool cpuOpFromText(KeyWalker &walker, StringPool &strings, GpuEventCollector &out)
{
    const std::string_view phase = fieldString(walker, Ph);
    const std::optional<std::string_view> name =
        walker.find(Name) ? rawStringAt(walker.event(), walker.at(Name)) : std::nullopt;
    const auto pid = fieldInteger(walker, Pid);
    const auto tid = fieldInteger(walker, Tid);
    const auto start = fieldTime(walker, Ts);
    const auto duration = fieldTime(walker, Dur);
    if (phase.empty() || !name || name->find('\\') != std::string_view::npos || !pid || !tid || !start ||
        !duration)
        return false;
    if (phase == "X")
        out.addCpuOp({*pid, *tid}, *start, *start + *duration, strings.intern(*name));
    return true;
}

bool allocatorFromText(KeyWalker &walker, std::vector<AllocatorEvent> &out)
{
    walker.walkToEnd();
    const auto pid = fieldInteger(walker, Pid);
    const auto tid = fieldInteger(walker, Tid);
    const auto time = fieldTime(walker, Ts);
    const auto deviceType = fieldInteger(walker, DeviceType);
    const auto deviceId = fieldInteger(walker, DeviceId);
    const auto address = fieldInteger(walker, Addr);
    const auto bytes = fieldInteger(walker, Bytes);
    const auto allocated = fieldInteger(walker, TotalAllocated);
    const auto reserved = fieldInteger(walker, TotalReserved);
    if (!pid || !tid || !time || !deviceType || !deviceId || !address || !bytes || !allocated || !reserved)
        return false;
    out.push_back({{*pid, *tid}, *time, *deviceType, *deviceId, *address, *bytes, *allocated, *reserved});
    return true;
}

// An optional integer arg for the text path: absent (nullopt, *plain stays true), or written as a plain
// integer; anything else (a quoted or fractional value) clears *plain: the event is then parsed.
std::optional<std::int64_t> plainInteger(KeyWalker &walker, Field field, bool *plain)
{
    if (walker.at(field) == KeyWalker::npos)
        return std::nullopt;
    const auto value = fieldInteger(walker, field);
    if (!value)
        *plain = false;
    return value;
}

// An optional number arg for the text path (kNoValue when absent); a value that is not a plain JSON
// number clears *plain. from_chars rounds correctly, as simdjson does.
double plainNumber(KeyWalker &walker, Field field, bool *plain)
{
    if (walker.at(field) == KeyWalker::npos)
        return kNoValue;
    const std::string_view text = numberAtOffset(walker.event(), walker.at(field));
    double value = 0;
    const char *end = text.data() + text.size();
    if (text.empty() || walker.event()[walker.at(field)] == '"' ||
        std::from_chars(text.data(), end, value).ptr != end) {
        *plain = false;
        return kNoValue;
    }
    return value;
}

// A launch dimension written [x, y, z] with plain integers; absent leaves out untouched and returns
// false; anything else clears *plain.
bool plainDimensions(KeyWalker &walker, Field field, std::array<std::int64_t, 3> &out, bool *plain)
{
    std::size_t p = walker.at(field);
    if (p == KeyWalker::npos)
        return false;
    const std::string_view event = walker.event();
    if (event[p] != '[') {
        *plain = false;
        return false;
    }
    ++p;
    for (std::size_t i = 0; i < 3; ++i) {
        while (p < event.size() && isSpace(event[p]))
            ++p;
        const std::size_t begin = p;
        while (p < event.size() && (std::isdigit(static_cast<unsigned char>(event[p])) || event[p] == '-'))
            ++p;
        const auto value = parseInt64(event.substr(begin, p - begin));
        while (p < event.size() && isSpace(event[p]))
            ++p;
        if (begin == p || !value || p >= event.size() || event[p] != (i < 2 ? ',' : ']')) {
            *plain = false;
            return false;
        }
        out[i] = *value;
        ++p;
    }
    return true;
}

// What the text reading made of a kernel event.
enum class KernelText
{
    Row,        // a launch, read: *k and *name (the raw name text, no escape in it) are set
    NotALaunch, // no grid / block in its args: no row (§10.5)
    NotPlain    // not written the plain way: parse it (readKernel)
};

// The fast path for kernels, as for the small events: the launch figures read from the text (names are
// left to the caller, who interns *name: this runs on the parse's worker threads too).
KernelText kernelFieldsFromText(KeyWalker &walker, KernelEvent *k, std::string_view *name)
{
    walker.walkToEnd();
    const std::optional<std::string_view> rawName = rawStringAt(walker.event(), walker.at(Name));
    if (fieldString(walker, Ph) != "X" || !rawName || rawName->find('\\') != std::string_view::npos)
        return KernelText::NotPlain;
    bool plain = true;
    std::array<std::int64_t, 3> grid{0, 0, 0}, block{0, 0, 0};
    const bool hasGrid = plainDimensions(walker, Grid, grid, &plain);
    const bool hasBlock = plainDimensions(walker, Block, block, &plain);
    if (!plain)
        return KernelText::NotPlain;
    if (!hasGrid && !hasBlock)
        return KernelText::NotALaunch; // not a CUDA kernel launch (§10.5)
    k->gridVolume = volume(grid);
    k->blockVolume = volume(block);
    const auto pid = fieldInteger(walker, Pid);
    const auto tid = fieldInteger(walker, Tid);
    const auto start = fieldTime(walker, Ts);
    const auto duration = fieldTime(walker, Dur);
    const auto device = plainInteger(walker, Device, &plain);
    const auto stream = plainInteger(walker, Stream, &plain);
    const auto correlation = plainInteger(walker, Correlation, &plain);
    k->registersPerThread = plainNumber(walker, Registers, &plain);
    k->sharedMemory = plainNumber(walker, SharedMemory, &plain);
    k->blocksPerSm = plainNumber(walker, BlocksPerSm, &plain);
    k->warpsPerSm = plainNumber(walker, WarpsPerSm, &plain);
    k->occupancyPercent = plainNumber(walker, Occupancy, &plain);
    if (!plain || !pid || !tid || !start || !duration)
        return KernelText::NotPlain;
    k->start = *start;
    k->duration = *duration;
    k->device = device.value_or(*pid);
    k->stream = stream.value_or(*tid);
    k->correlation = correlation.value_or(-1);
    *name = *rawName;
    return KernelText::Row;
}

// The same with the name interned and the row added. False when the event is not written the plain way
// (then it is parsed, with the same rules: readKernel).
bool kernelFromText(KeyWalker &walker, StringPool &strings, GpuEvents &out)
{
    KernelEvent k;
    std::string_view name;
    switch (kernelFieldsFromText(walker, &k, &name)) {
    case KernelText::NotPlain:
        return false;
    case KernelText::NotALaunch:
        return true;
    case KernelText::Row:
        break;
    }
    k.name = strings.intern(name);
    out.kernels.push_back(k);
    return true;
}

// ts / dur of a parsed event: from the text (fieldTime), checked against the parsed double so that a key
// found in the wrong place is not taken.
std::optional<TimeNs> timeOf(KeyWalker &walker, Field field, simdjson::dom::object parsed)
{
    const auto ns = fieldTime(walker, field);
    if (!ns)
        return std::nullopt;
    double micros = 0;
    simdjson::dom::element element;
    if (parsed.at_key(kFieldKeys[field]).get(element) == simdjson::SUCCESS &&
        element.get_double().get(micros) == simdjson::SUCCESS &&
        std::fabs(static_cast<double>(*ns) - micros * 1000.0) > 1000.0 + std::fabs(micros) * 1e-9)
        return std::nullopt;
    return ns;
}

} // namespace

class GpuEventCollector::EventParser
{
public:
    EventParser(StringPool &strings, GpuEventCollector &collector)
        : m_strings(strings), m_collector(collector)
    {}

    bool parse(KeyWalker &walker, EventKind kind, GpuEvents &out)
    {
        const std::string_view event = walker.event();
        m_buffer.resize(event.size() + simdjson::SIMDJSON_PADDING);
        std::memcpy(m_buffer.data(), event.data(), event.size());
        simdjson::dom::object object;
        if (m_parser.parse(m_buffer.data(), event.size(), false).get_object().get(object))
            return false;
        switch (kind) {
        case EventKind::Kernel:
            return readKernel(walker, object, out);
        case EventKind::CpuOp:
            return readCpuOp(walker, object);
        case EventKind::Allocator:
            return readAllocator(walker, object, out);
        case EventKind::Other:
            break;
        }
        return true;
    }

private:
    // The fields every complete ("X") event of interest needs: times from their text, lanes, name.
    struct SliceFields
    {
        TimeNs start = 0;
        TimeNs duration = 0;
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        StringId name = 0;
    };

    bool sliceFields(KeyWalker &text, simdjson::dom::object event, SliceFields &slice)
    {
        std::string_view name;
        const auto start = timeOf(text, Ts, event);
        const auto duration = timeOf(text, Dur, event);
        const auto pid = laneNumber(event, "pid", m_strings);
        const auto tid = laneNumber(event, "tid", m_strings);
        if (event["name"].get_string().get(name) || !start || !duration || !pid || !tid)
            return false;
        slice = {*start, *duration, *pid, *tid, m_strings.intern(name)};
        return true;
    }

    bool readKernel(KeyWalker &text, simdjson::dom::object event, GpuEvents &out)
    {
        std::string_view phase, category;
        simdjson::dom::object args;
        if (event["ph"].get_string().get(phase) || phase != "X" || event["cat"].get_string().get(category) ||
            category != "kernel")
            return true; // another kind of event after all: not an error
        if (event["args"].get_object().get(args))
            return true;
        KernelEvent k;
        std::array<std::int64_t, 3> grid{0, 0, 0}, block{0, 0, 0};
        const bool hasGrid = dimensionsAt(args, "grid", grid);
        const bool hasBlock = dimensionsAt(args, "block", block);
        if (!hasGrid && !hasBlock)
            return true; // not a CUDA kernel launch (§10.5: kernels carry grid and block)
        k.gridVolume = volume(grid);
        k.blockVolume = volume(block);
        SliceFields slice;
        if (!sliceFields(text, event, slice))
            return false;
        k.name = slice.name;
        k.start = slice.start;
        k.duration = slice.duration;
        k.device = integerAt(args, "device").value_or(slice.pid);
        k.stream = integerAt(args, "stream").value_or(slice.tid);
        k.correlation = integerAt(args, "correlation").value_or(-1);
        k.registersPerThread = numberAt(args, "registers per thread");
        k.sharedMemory = numberAt(args, "shared memory");
        k.blocksPerSm = numberAt(args, "blocks per SM");
        k.warpsPerSm = numberAt(args, "warps per SM");
        k.occupancyPercent = numberAt(args, "est. achieved occupancy %");
        out.kernels.push_back(k);
        return true;
    }

    bool readCpuOp(KeyWalker &text, simdjson::dom::object event)
    {
        std::string_view phase, category;
        if (event["ph"].get_string().get(phase) || phase != "X" || event["cat"].get_string().get(category) ||
            category != "cpu_op")
            return true;
        SliceFields slice;
        if (!sliceFields(text, event, slice))
            return false;
        m_collector.addCpuOp({slice.pid, slice.tid}, slice.start, slice.start + slice.duration, slice.name);
        return true;
    }

    bool readAllocator(KeyWalker &text, simdjson::dom::object event, GpuEvents &out)
    {
        std::string_view name;
        simdjson::dom::object args;
        if (event["name"].get_string().get(name) || name != "[memory]")
            return true;
        const auto time = timeOf(text, Ts, event);
        const auto pid = laneNumber(event, "pid", m_strings);
        const auto tid = laneNumber(event, "tid", m_strings);
        if (!time || !pid || !tid || event["args"].get_object().get(args))
            return false;
        AllocatorEvent a;
        a.lane = {*pid, *tid};
        a.time = *time;
        const auto deviceType = integerAt(args, "Device Type");
        const auto deviceId = integerAt(args, "Device Id");
        const auto address = integerAt(args, "Addr");
        const auto bytes = integerAt(args, "Bytes");
        const auto allocated = integerAt(args, "Total Allocated");
        const auto reserved = integerAt(args, "Total Reserved");
        if (!deviceType || !deviceId || !address || !bytes || !allocated || !reserved)
            return false;
        a.deviceType = *deviceType;
        a.deviceId = *deviceId;
        a.address = *address;
        a.bytes = *bytes;
        a.totalAllocated = *allocated;
        a.totalReserved = *reserved;
        out.allocatorEvents.push_back(a);
        return true;
    }

    StringPool &m_strings;
    GpuEventCollector &m_collector; // CPU operators go through it (their lanes are indexed)
    simdjson::dom::parser m_parser;
    std::vector<char> m_buffer;
};

GpuEventCollector::GpuEventCollector(StringPool &strings)
    : m_strings(strings), m_parser(std::make_unique<EventParser>(strings, *this))
{}

GpuEventCollector::~GpuEventCollector() = default;

void GpuEventCollector::reserveFor(std::size_t traceBytes)
{
    // Room for what a Kineto trace of this size holds (events of ~250 bytes, a quarter of them CPU
    // operators): growing the vectors by doubling copies them and faults in each new block. Pages reserved
    // but never written cost no memory.
    m_events.cpuOps.reserve(traceBytes / 800);
    m_events.kernels.reserve(traceBytes / 2000);
    m_events.allocatorEvents.reserve(traceBytes / 1600);
}

void GpuEventCollector::unreadable(std::size_t offset, std::size_t *count)
{
    if ((*count)++ == 0)
        (count == &m_unreadableOps ? m_firstUnreadableOp : m_events.firstUnreadableOffset) = offset;
}

void GpuEventCollector::addKernel(std::string_view eventText, std::size_t offset)
{
    KeyWalker walker(eventText);
    if (!kernelFromText(walker, m_strings, m_events) && !m_parser->parse(walker, EventKind::Kernel, m_events))
        unreadable(offset, &m_events.unreadable);
}

void GpuEventCollector::addAllocatorEvent(std::string_view eventText, std::size_t offset)
{
    KeyWalker walker(eventText);
    if (!allocatorFromText(walker, m_events.allocatorEvents) &&
        !m_parser->parse(walker, EventKind::Allocator, m_events))
        unreadable(offset, &m_events.unreadable);
}

void GpuEventCollector::addCpuOp(const LaneId &lane, TimeNs start, TimeNs end, StringId name)
{
    // Consecutive operators mostly share their thread: the index lookup only when it changes.
    if (m_lastCpuOpLane >= m_events.cpuOpLanes.size() || !(m_events.cpuOpLanes[m_lastCpuOpLane] == lane)) {
        const auto [found, added] =
            m_cpuOpLaneIndex.try_emplace(lane, static_cast<std::uint32_t>(m_events.cpuOpLanes.size()));
        if (added)
            m_events.cpuOpLanes.push_back(lane);
        m_lastCpuOpLane = found->second;
    }
    m_events.cpuOps.push_back({start, end, name, m_lastCpuOpLane});
}

void GpuEventCollector::addCpuOpText(std::string_view eventText, std::size_t offset)
{
    KeyWalker walker(eventText);
    if (!cpuOpFromText(walker, m_strings, *this) && !m_parser->parse(walker, EventKind::CpuOp, m_events))
        unreadable(offset, &m_unreadableOps);
}

GpuEvents GpuEventCollector::take(TimeNs baseTime)
{
    GpuEvents out = std::move(m_events);
    m_events = {};
    m_cpuOpLaneIndex.clear();
    m_lastCpuOpLane = std::numeric_limits<std::uint32_t>::max();
    out.baseTime = baseTime;
    if (out.allocatorEvents.empty()) {
        out.cpuOps = {}; // operators only name allocations
        out.cpuOpLanes = {};
    } else if (m_unreadableOps) {
        if (out.unreadable == 0 || m_firstUnreadableOp < out.firstUnreadableOffset)
            out.firstUnreadableOffset = m_firstUnreadableOp;
        out.unreadable += m_unreadableOps;
    }
    m_unreadableOps = m_firstUnreadableOp = 0;
    return out;
}

void PreparedGpuEvents::clear()
{
    items.clear();
    kernels.clear();
    allocators.clear();
}

namespace {

// The chunk's local string with this text, or kNone.
std::uint32_t localString(const jsonkernel::ChunkResult &chunk, std::string_view text)
{
    const std::size_t n = chunk.stringCount();
    for (std::uint32_t local = 1; local <= n; ++local)
        if (chunk.string(local) == text)
            return local;
    return jsonkernel::kNone;
}

} // namespace

void prepareGpuEvents(const jsonkernel::ChunkResult &chunk, const ChunkText &text, PreparedGpuEvents &out)
{
    namespace jk = jsonkernel;
    using Step = PreparedGpuEvents::Step;
    out.clear();
    // The same choice as the loading thread made by pool ids: by category, [memory] by name.
    const std::uint32_t kernelCategory = localString(chunk, "kernel");
    const std::uint32_t cpuOpCategory = localString(chunk, "cpu_op");
    const std::uint32_t memoryName = localString(chunk, "[memory]");
    // An event's text: events and spans are both in file order, so a cursor finds it (a binary search
    // per event cost 1.4 % of the load); the search where the cursor has passed it.
    std::size_t span = 0;
    auto eventText = [&text, &span](std::uint64_t offset) {
        while (span < text.spanCount && text.spans[span].begin < offset)
            ++span;
        if (span < text.spanCount && text.spans[span].begin == offset)
            return std::string_view(text.data + offset, text.spans[span].end - offset);
        return text.event(offset);
    };
    for (std::size_t i = 0; i < chunk.events.size(); ++i) {
        const jk::ParsedEvent &e = chunk.events[i];
        const auto index = static_cast<std::uint32_t>(i);
        if (kernelCategory != jk::kNone && e.category == kernelCategory) {
            if (e.phase != 'X')
                continue;
            KeyWalker walker(eventText(e.offset));
            PreparedGpuEvents::Kernel kernel;
            switch (kernelFieldsFromText(walker, &kernel.row, &kernel.rawName)) {
            case KernelText::NotALaunch:
                break;
            case KernelText::NotPlain:
                out.items.push_back({index, Step::KernelText});
                break;
            case KernelText::Row:
                if (e.name != jk::kNone && chunk.string(e.name) == kernel.rawName)
                    kernel.localName = e.name;
                out.kernels.push_back(kernel);
                out.items.push_back({index, Step::Kernel});
                break;
            }
        } else if (cpuOpCategory != jk::kNone && e.category == cpuOpCategory) {
            if (e.phase == 'X')
                out.items.push_back(
                    {index, (e.flags & jk::ParsedEvent::TimeOk) ? Step::CpuOp : Step::CpuOpText});
        } else if (memoryName != jk::kNone && e.name == memoryName) {
            KeyWalker walker(eventText(e.offset));
            out.items.push_back(
                {index, allocatorFromText(walker, out.allocators) ? Step::Allocator : Step::AllocatorText});
        }
    }
}

namespace {

// baseTimeNanoseconds of the top-level object: before or after the event array (§10.1).
std::optional<TimeNs> baseTimeIn(std::string_view outsideEvents)
{
    const std::string_view text = numberText(outsideEvents, "\"baseTimeNanoseconds\"");
    return text.empty() ? std::nullopt : parseInt64(text);
}

} // namespace

GpuEvents scanGpuEvents(const char *data, std::size_t size, StringPool &strings,
                        const std::atomic<bool> *stop)
{
    JsonEventScanner scanner(data, size);
    QString problem;
    if (!scanner.locateEvents(&problem))
        return {};
    GpuEventCollector collector(strings);
    JsonEventScanner::Span span;
    std::size_t firstBegin = scanner.position();
    std::size_t lastEnd = firstBegin;
    std::size_t events = 0;
    while (scanner.next(span)) {
        if (events++ == 0)
            firstBegin = span.begin;
        lastEnd = span.end;
        if ((events & 4095) == 0 && stop && *stop)
            break;
        const std::string_view event(data + span.begin, span.end - span.begin);
        KeyWalker walker(event);
        switch (kindOf(walker)) {
        case EventKind::Kernel:
            collector.addKernel(event, span.begin);
            break;
        case EventKind::CpuOp:
            collector.addCpuOpText(event, span.begin);
            break;
        case EventKind::Allocator:
            collector.addAllocatorEvent(event, span.begin);
            break;
        case EventKind::Other:
            break;
        }
    }
    const std::string_view text(data, size);
    const auto base = baseTimeIn(text.substr(0, firstBegin));
    const auto baseAfter = base ? base : baseTimeIn(text.substr(lastEnd));
    return collector.take(baseAfter.value_or(0));
}

void addKinetoGpuData(TraceBuilder &builder, int group, const GpuEvents &events, const QString &path)
{
    if (events.unreadable)
        builder.addWarning(QCoreApplication::translate(
                               "Parser",
                               "%1: %2 GPU kernel, CPU operator or [memory] events could not be read "
                               "for the kernel table and memory curves (the first at byte %3)")
                               .arg(path)
                               .arg(events.unreadable)
                               .arg(events.firstUnreadableOffset));
    addKinetoKernelRows(builder, group, events);
    addKinetoMemory(builder, group, events);
}

} // namespace at::kineto
