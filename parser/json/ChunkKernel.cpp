// The chunk-parsing kernel (see ChunkKernel.h). Compiled once per SIMD target: AT_JSON_KERNEL_NS
// names the copy (generic, haswell) so that the copies never share a symbol.
#include "ChunkKernel.h"

#include <simdjson.h>

#include <cstring>

#ifndef AT_JSON_KERNEL_NS
#define AT_JSON_KERNEL_NS generic
#endif

namespace at::jsonkernel {
namespace AT_JSON_KERNEL_NS {
namespace {

namespace od = simdjson::ondemand;

// Raw tokens include the whitespace that follows a scalar in the file.
std::string_view trimToken(std::string_view token)
{
    while (!token.empty() &&
           (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    return token;
}

std::string_view unquote(std::string_view token)
{
    if (token.size() >= 2 && token.front() == '"') {
        token.remove_prefix(1);
        token.remove_suffix(token.size() - token.find_last_of('"'));
    }
    return token;
}

bool isAllDigits(std::string_view s)
{
    if (s.empty())
        return false;
    std::size_t i = (s[0] == '-') ? 1 : 0;
    if (i == s.size())
        return false;
    for (; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

enum class Key
{
    Other,
    Ph,
    Name,
    Cat,
    Pid,
    Tid,
    Ts,
    Dur,
    Id,
    Bp,
    Args
};

// The key whose raw text (after the opening quote, in the padded buffer: the closing quote and at
// least ':' and a value follow) is at k. Escaped keys ("p\u0068") are Other, as they always were.
Key classify(const char *k)
{
    auto is = [k](const char *word, std::size_t n) { return std::memcmp(k, word, n) == 0 && k[n] == '"'; };
    switch (k[0]) {
    case 'p':
        return is("ph", 2) ? Key::Ph : is("pid", 3) ? Key::Pid : Key::Other;
    case 'n':
        return is("name", 4) ? Key::Name : Key::Other;
    case 'c':
        return is("cat", 3) ? Key::Cat : Key::Other;
    case 't':
        return is("ts", 2) ? Key::Ts : is("tid", 3) ? Key::Tid : Key::Other;
    case 'd':
        return is("dur", 3) ? Key::Dur : Key::Other;
    case 'i':
        return is("id", 2) ? Key::Id : Key::Other;
    case 'b':
        return is("bp", 2) ? Key::Bp : Key::Other;
    case 'a':
        return is("args", 4) ? Key::Args : Key::Other;
    default:
        return Key::Other;
    }
}

// The fields of one event; views stay valid while its document is alive.
struct Fields
{
    std::string_view ph;
    std::string_view name;
    bool hasName = false;
    std::string_view ts;
    std::string_view dur;
    std::string_view id;
    std::string_view bp;
    std::string_view args; // raw JSON text of the args object
};

struct State
{
    od::parser chunkParser;
    od::parser argsParser;
    std::vector<char> buffer;
    const char *bufferEnd = nullptr;
    std::vector<CounterArg> counterArgs;

    // Copies [begin, end) into the padded buffer, optionally wrapped in '[' ']'.
    std::size_t fillBuffer(const char *data, std::size_t begin, std::size_t end, bool wrapInArray)
    {
        const std::size_t length = end - begin + (wrapInArray ? 2 : 0);
        if (buffer.size() < length + simdjson::SIMDJSON_PADDING)
            reserveBuffer(buffer, length + simdjson::SIMDJSON_PADDING + length / 8);
        char *out = buffer.data();
        if (wrapInArray)
            *out++ = '[';
        std::memcpy(out, data + begin, end - begin);
        if (wrapInArray)
            out[end - begin] = ']';
        std::memset(buffer.data() + length, 0, simdjson::SIMDJSON_PADDING);
        bufferEnd = buffer.data() + buffer.size();
        return length;
    }

    static Lane lane(od::value value, ChunkResult &out)
    {
        Lane lane;
        const std::string_view token = trimToken(value.raw_json_token());
        if (!token.empty() && token.front() == '"') {
            std::string_view text;
            if (value.get_string().get(text))
                return lane;
            // "123" is the same lane as 123; "123 aclGraph" keeps its text.
            if (isAllDigits(text)) {
                parseInteger(text, &lane.number);
                return lane;
            }
            lane.text = internLocal(out, text);
            return lane;
        }
        parseInteger(token, &lane.number);
        return lane;
    }

    // A number's text as written, or a string's unescaped content ("ts": "123.456\t" included).
    static std::string_view scalarText(od::value &value)
    {
        const std::string_view token = trimToken(value.raw_json_token());
        std::string_view text;
        if (!token.empty() && token.front() == '"')
            return value.get_string().get(text) == simdjson::SUCCESS ? text : std::string_view();
        return token;
    }

    // Interns strings in the order the single-file parser always did: name, cat and text
    // pid/tid in key order, then the flow id, then args.
    simdjson::error_code readFields(od::object object, Fields &f, ParsedEvent &e, ChunkResult &out)
    {
        for (auto field : object) {
            od::raw_json_string rawKey;
            if (auto error = field.key().get(rawKey))
                return error;
            const Key key = classify(rawKey.raw());
            if (key == Key::Other)
                continue; // cname, id2, s, ...: skipped by the iterator
            od::value value = field.value();
            std::string_view text;
            if (key == Key::Ph) {
                if (auto error = value.get_string().get(f.ph))
                    return error;
            } else if (key == Key::Name) {
                const simdjson::error_code error = value.get_string().get(text);
                if (error == simdjson::SUCCESS) {
                    e.name = internLocal(out, text);
                    f.name = text;
                    f.hasName = true;
                } else if (error != simdjson::INCORRECT_TYPE) {
                    return error; // a bad escape: the event is retried with its text repaired
                }
            } else if (key == Key::Cat) {
                const simdjson::error_code error = value.get_string().get(text);
                if (error == simdjson::SUCCESS)
                    e.category = internLocal(out, text);
                else if (error != simdjson::INCORRECT_TYPE)
                    return error;
            } else if (key == Key::Pid) {
                e.pid = lane(value, out);
            } else if (key == Key::Tid) {
                e.tid = lane(value, out);
            } else if (key == Key::Ts) {
                f.ts = scalarText(value);
            } else if (key == Key::Dur) {
                f.dur = scalarText(value);
            } else if (key == Key::Id) {
                f.id = scalarText(value);
            } else if (key == Key::Bp) {
                if (value.get_string().get(text) == simdjson::SUCCESS)
                    f.bp = text;
            } else if (key == Key::Args) {
                od::object args;
                if (value.get_object().get(args) == simdjson::SUCCESS) {
                    if (auto error = args.raw_json().get(f.args))
                        return error;
                }
            }
        }
        return simdjson::SUCCESS;
    }

    // Parses the raw args text of M and C events with the second parser.
    template <typename Fn> void forEachArg(std::string_view argsText, ChunkResult &out, Fn &&fn)
    {
        if (argsText.empty())
            return;
        const std::size_t capacity = static_cast<std::size_t>(bufferEnd - argsText.data());
        od::document doc;
        od::object object;
        if (argsParser.iterate(argsText.data(), argsText.size(), capacity).get(doc) ||
            doc.get_object().get(object)) {
            ++out.argsProblems;
            return;
        }
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key)) {
                ++out.argsProblems;
                return;
            }
            fn(key, field.value());
        }
    }

    void readMetadata(const Fields &f, ParsedEvent &e, ChunkResult &out)
    {
        if (!f.hasName)
            return;
        if (f.name == "process_name" || f.name == "process_labels" || f.name == "thread_name") {
            const std::string_view wanted = f.name == "process_labels" ? "labels" : "name";
            forEachArg(f.args, out, [&](std::string_view key, od::value value) {
                std::string_view text;
                if (key != wanted || value.get_string().get(text))
                    return;
                e.label = internLocal(out, text);
                e.flags |= ParsedEvent::HasLabel;
            });
        } else if (f.name == "process_sort_index" || f.name == "thread_sort_index") {
            forEachArg(f.args, out, [&](std::string_view key, od::value value) {
                if (key != "sort_index")
                    return;
                const std::string_view token = value.raw_json_token();
                if (parseInteger(unquote(token), &e.sortIndex))
                    e.flags |= ParsedEvent::HasSort;
            });
        }
    }

    void readCounter(const Fields &f, ParsedEvent &e, ChunkResult &out)
    {
        // Acc PMU writes {"value": v, "acc_id": n}: acc_id selects the series (FORMATS.md §2.8).
        std::string_view accId;
        counterArgs.clear(); // reused: no allocation per event
        forEachArg(f.args, out, [&](std::string_view key, od::value value) {
            double number = 0;
            if (key == "acc_id") {
                accId = unquote(trimToken(value.raw_json_token()));
                return;
            }
            if (value.get_double().get(number) == simdjson::SUCCESS ||
                value.get_double_in_string().get(number) == simdjson::SUCCESS)
                appendCounterArg(counterArgs, key, number);
        });
        appendCounterSamples(out, e, counterArgs, accId);
    }

    // Everything after the fields: times, flow id, args of M and C events.
    void finishEvent(const Fields &f, ParsedEvent &e, ChunkResult &out)
    {
        e.phase = f.ph.size() == 1 ? f.ph[0] : '\0';
        switch (e.phase) {
        case 'X':
        case 'B':
        case 'E':
        case 'i':
        case 'I':
        case 'C':
        case 's':
        case 't':
        case 'f':
            if (parseTimeNs(f.ts, false, &e.ts))
                e.flags |= ParsedEvent::TimeOk;
            else
                ++out.badTimes;
            break;
        default:
            break;
        }
        if (!(e.flags & ParsedEvent::TimeOk) && e.phase != 'M')
            return;
        switch (e.phase) {
        case 'X':
            if (!f.dur.empty()) {
                if (!parseTimeNs(f.dur, true, &e.dur) || e.dur < 0) {
                    ++out.badTimes;
                    e.dur = 0;
                } else if (e.dur >= kTimeLimitNs / 2 ||
                           (e.ts > -kTimeLimitNs && e.ts < kTimeLimitNs && e.dur > kTimeLimitNs - 1 - e.ts)) {
                    // Longer than 73 years, or ending beyond the model's range (or overflowing): the
                    // model saturates the end (TraceBuilder), and the reader says so.
                    if (out.saturatedDurations++ == 0)
                        out.firstSaturatedOffset = e.offset;
                    // (No std::min: this file must not share inline code with the other kernel copy.)
                    if (e.ts > -kTimeLimitNs && e.ts < kTimeLimitNs && e.dur > kTimeLimitNs - 1 - e.ts)
                        e.dur = kTimeLimitNs - 1 - e.ts;
                }
            }
            break;
        case 's':
        case 't':
        case 'f':
            e.id = internLocal(out, f.id);
            if (f.bp == "e")
                e.flags |= ParsedEvent::BindEnd;
            break;
        case 'C':
            readCounter(f, e, out);
            break;
        case 'M':
            readMetadata(f, e, out);
            break;
        default:
            break;
        }
    }

    // One event from the padded buffer holding `length` bytes of it.
    simdjson::error_code parseBuffered(std::size_t length, std::size_t offset, ChunkResult &out)
    {
        od::document doc;
        od::object object;
        Fields fields;
        // Strings interned by a failing event stay in the local table: harmless.
        ParsedEvent event;
        event.offset = offset;
        simdjson::error_code error = chunkParser.iterate(buffer.data(), length, buffer.size()).get(doc);
        if (!error)
            error = doc.get_object().get(object);
        if (!error)
            error = readFields(object, fields, event, out);
        if (error)
            return error;
        finishEvent(fields, event, out);
        appendEvent(out) = event;
        return simdjson::SUCCESS;
    }

    bool parseSingle(const char *data, const Span &span, TextRepair *repair, ChunkResult &out)
    {
        const std::size_t length = fillBuffer(data, span.begin, span.end, false);
        const simdjson::error_code error = parseBuffered(length, span.begin, out);
        if (!error)
            return true;
        // Text that is not valid UTF-8 (GBK names, lone surrogates) costs the text, not the event.
        if (repair &&
            repairEventText(*repair, std::string_view(data + span.begin, span.end - span.begin), repaired)) {
            const std::size_t repairedLength = fillBuffer(repaired.data(), 0, repaired.size(), false);
            if (parseBuffered(repairedLength, span.begin, out) == simdjson::SUCCESS) {
                if (out.repairedEvents++ == 0)
                    out.firstRepairedOffset = span.begin;
                return true;
            }
        }
        recordBadEvent(out, span.begin, simdjson::error_message(error));
        return false;
    }

    std::vector<char> repaired; // an event's text after repairEventText

    void parseChunk(const char *data, const Span *spans, std::size_t count, const std::atomic<bool> *cancel,
                    TextRepair *repair, ChunkResult &out)
    {
        out.clear();
        if (count == 0)
            return;
        const std::size_t length = fillBuffer(data, spans[0].begin, spans[count - 1].end, true);
        std::size_t done = 0;
        od::document doc;
        od::array array;
        bool chunkOk =
            chunkParser.iterate(buffer.data(), length, buffer.size()).get(doc) == simdjson::SUCCESS &&
            doc.get_array().get(array) == simdjson::SUCCESS;
        if (chunkOk) {
            for (auto element : array) {
                od::object object;
                Fields fields;
                if (done >= count) {
                    chunkOk = false;
                    break;
                }
                const std::size_t eventsBefore = out.events.size();
                const std::size_t samplesBefore = out.samples.size();
                ParsedEvent &event = appendEvent(out);
                event.offset = spans[done].begin;
                if (element.get_object().get(object) || readFields(object, fields, event, out)) {
                    // Re-read this and the remaining events one by one below.
                    truncate(out, eventsBefore, samplesBefore);
                    chunkOk = false;
                    break;
                }
                finishEvent(fields, event, out);
                ++done;
                if ((done & 1023) == 0 && cancel && cancel->load(std::memory_order_relaxed)) {
                    out.cancelled = true;
                    out.eventsRead = done;
                    return;
                }
            }
        }
        if (chunkOk && done == count) {
            out.eventsRead = done;
            return;
        }
        // Fall back to one document per event for the rest of the chunk.
        std::size_t read = done;
        for (std::size_t k = done; k < count; ++k)
            read += parseSingle(data, spans[k], repair, out) ? 1 : 0;
        out.eventsRead = read;
    }
};

void *create()
{
    return new State;
}

void destroy(void *state)
{
    delete static_cast<State *>(state);
}

void parse(void *state, const char *data, const Span *spans, std::size_t count,
           const std::atomic<bool> *cancel, TextRepair *repair, ChunkResult &out)
{
    static_cast<State *>(state)->parseChunk(data, spans, count, cancel, repair, out);
}

} // namespace

const Kernel &get()
{
#define AT_JSON_KERNEL_STR2(x) #x
#define AT_JSON_KERNEL_STR(x) AT_JSON_KERNEL_STR2(x)
    static const Kernel k{AT_JSON_KERNEL_STR(AT_JSON_KERNEL_NS), &create, &destroy, &parse};
    return k;
}

} // namespace AT_JSON_KERNEL_NS
} // namespace at::jsonkernel
