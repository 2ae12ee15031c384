#include "KinetoGpuEvents.h"

#include "KinetoKernelRows.h"
#include "KinetoMemory.h"
#include "TraceBuilder.h"
#include "json/ChunkKernel.h"
#include "json/JsonEventScanner.h"

#include <QCoreApplication>

#include <simdjson.h>

#include <cmath>
#include <cstring>
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

// The raw bytes of a string value (escapes kept: only compared with plain words).
std::string_view stringValue(std::string_view event, std::string_view quotedKey)
{
    const std::size_t p = valueStart(event, quotedKey);
    if (p == std::string_view::npos || event[p] != '"')
        return {};
    const std::size_t close = event.find('"', p + 1);
    return close == std::string_view::npos ? std::string_view() : event.substr(p + 1, close - p - 1);
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

// The text test that picks the events worth parsing: by category, and allocator events by name
// (`[memory]`: the name is the documented key, the category changed across versions).
EventKind kindOf(std::string_view event)
{
    const std::string_view category = stringValue(event, "\"cat\"");
    if (category == "kernel")
        return EventKind::Kernel;
    if (category == "cpu_op")
        return EventKind::CpuOp;
    if (stringValue(event, "\"name\"") == "[memory]")
        return EventKind::Allocator;
    return EventKind::Other;
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

// ts / dur from their text, as the JSON reader converts them (jsonkernel::parseTimeNs): never through a
// double. The parsed element's double guards against a key found in the wrong place.
std::optional<TimeNs> timeOf(std::string_view event, std::string_view quotedKey, simdjson::dom::object parsed,
                             std::string_view key, bool isDuration)
{
    TimeNs ns = 0;
    if (!jsonkernel::parseTimeNs(numberText(event, quotedKey), isDuration, &ns))
        return std::nullopt;
    double micros = 0;
    simdjson::dom::element element;
    if (parsed.at_key(key).get(element) == simdjson::SUCCESS &&
        element.get_double().get(micros) == simdjson::SUCCESS &&
        std::fabs(static_cast<double>(ns) - micros * 1000.0) > 1000.0 + std::fabs(micros) * 1e-9)
        return std::nullopt;
    return ns;
}

class EventParser
{
public:
    explicit EventParser(StringPool &strings) : m_strings(strings) {}

    bool parse(std::string_view event, EventKind kind, GpuEvents &out)
    {
        m_buffer.resize(event.size() + simdjson::SIMDJSON_PADDING);
        std::memcpy(m_buffer.data(), event.data(), event.size());
        simdjson::dom::object object;
        if (m_parser.parse(m_buffer.data(), event.size(), false).get_object().get(object))
            return false;
        switch (kind) {
        case EventKind::Kernel:
            return readKernel(event, object, out);
        case EventKind::CpuOp:
            return readCpuOp(event, object, out);
        case EventKind::Allocator:
            return readAllocator(event, object, out);
        case EventKind::Other:
            break;
        }
        return true;
    }

private:
    bool readKernel(std::string_view text, simdjson::dom::object event, GpuEvents &out)
    {
        std::string_view phase, category, name;
        simdjson::dom::object args;
        if (event["ph"].get_string().get(phase) || phase != "X" || event["cat"].get_string().get(category) ||
            category != "kernel")
            return true; // another kind of event after all: not an error
        if (event["args"].get_object().get(args))
            return true;
        KernelEvent k;
        const bool hasGrid = dimensionsAt(args, "grid", k.grid);
        const bool hasBlock = dimensionsAt(args, "block", k.block);
        if (!hasGrid && !hasBlock)
            return true; // not a CUDA kernel launch (§10.5: kernels carry grid and block)
        const auto start = timeOf(text, "\"ts\"", event, "ts", false);
        const auto duration = timeOf(text, "\"dur\"", event, "dur", true);
        const auto pid = laneNumber(event, "pid", m_strings);
        const auto tid = laneNumber(event, "tid", m_strings);
        if (event["name"].get_string().get(name) || !start || !duration || !pid || !tid)
            return false;
        k.name = m_strings.intern(name);
        k.start = *start;
        k.duration = *duration;
        k.device = integerAt(args, "device").value_or(*pid);
        k.stream = integerAt(args, "stream").value_or(*tid);
        k.correlation = integerAt(args, "correlation").value_or(-1);
        k.registersPerThread = numberAt(args, "registers per thread");
        k.sharedMemory = numberAt(args, "shared memory");
        k.blocksPerSm = numberAt(args, "blocks per SM");
        k.warpsPerSm = numberAt(args, "warps per SM");
        k.occupancyPercent = numberAt(args, "est. achieved occupancy %");
        out.kernels.push_back(k);
        return true;
    }

    bool readCpuOp(std::string_view text, simdjson::dom::object event, GpuEvents &out)
    {
        std::string_view phase, category, name;
        if (event["ph"].get_string().get(phase) || phase != "X" || event["cat"].get_string().get(category) ||
            category != "cpu_op")
            return true;
        const auto start = timeOf(text, "\"ts\"", event, "ts", false);
        const auto duration = timeOf(text, "\"dur\"", event, "dur", true);
        const auto pid = laneNumber(event, "pid", m_strings);
        const auto tid = laneNumber(event, "tid", m_strings);
        if (event["name"].get_string().get(name) || !start || !duration || !pid || !tid)
            return false;
        out.cpuOps.push_back({{*pid, *tid}, *start, *start + *duration, m_strings.intern(name)});
        return true;
    }

    bool readAllocator(std::string_view text, simdjson::dom::object event, GpuEvents &out)
    {
        std::string_view name;
        simdjson::dom::object args;
        if (event["name"].get_string().get(name) || name != "[memory]")
            return true;
        const auto time = timeOf(text, "\"ts\"", event, "ts", false);
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
    simdjson::dom::parser m_parser;
    std::vector<char> m_buffer;
};

// baseTimeNanoseconds of the top-level object: before or after the event array (§10.1).
std::optional<TimeNs> baseTimeIn(std::string_view outsideEvents)
{
    const std::string_view text = numberText(outsideEvents, "\"baseTimeNanoseconds\"");
    return text.empty() ? std::nullopt : parseInt64(text);
}

} // namespace

bool mayHoldGpuEvents(const StringPool &strings)
{
    return strings.find("kernel") != StringPool::kNotFound ||
           strings.find("[memory]") != StringPool::kNotFound;
}

GpuEvents scanGpuEvents(const char *data, std::size_t size, StringPool &strings,
                        const std::atomic<bool> *stop)
{
    GpuEvents out;
    JsonEventScanner scanner(data, size);
    QString problem;
    if (!scanner.locateEvents(&problem))
        return out;
    EventParser parser(strings);
    JsonEventScanner::Span span;
    std::size_t firstBegin = scanner.position();
    std::size_t lastEnd = firstBegin;
    std::size_t events = 0;
    while (scanner.next(span)) {
        if (events++ == 0)
            firstBegin = span.begin;
        lastEnd = span.end;
        if ((events & 4095) == 0 && stop && *stop)
            return out;
        const std::string_view event(data + span.begin, span.end - span.begin);
        const EventKind kind = kindOf(event);
        if (kind != EventKind::Other && !parser.parse(event, kind, out) && out.unreadable++ == 0)
            out.firstUnreadableOffset = span.begin;
    }
    const std::string_view text(data, size);
    const auto base = baseTimeIn(text.substr(0, firstBegin));
    const auto baseAfter = base ? base : baseTimeIn(text.substr(lastEnd));
    out.baseTime = baseAfter.value_or(0);
    return out;
}

void addKinetoGpuData(TraceBuilder &builder, int group, const char *data, std::size_t size,
                      const QString &path, const std::atomic<bool> *stop)
{
    if (!mayHoldGpuEvents(builder.strings()))
        return;
    const GpuEvents events = scanGpuEvents(data, size, builder.strings(), stop);
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
