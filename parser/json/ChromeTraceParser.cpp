#include "ChromeTraceParser.h"

#include <simdjson.h>

#include <cstring>

namespace at {

namespace od = simdjson::ondemand;

namespace {

// The fields of one event that the model needs; views stay valid while its document is alive.
struct EventFields
{
    std::string_view ph;
    StringId name = 0;
    StringId category = 0;
    LaneKey pid;
    LaneKey tid;
    std::string_view ts;
    std::string_view dur;
    std::string_view id;
    std::string_view bp;
    std::string_view args; // raw JSON text of the args object
};

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

} // namespace

struct ChromeTraceParser::Impl
{
    TraceBuilder &builder;
    std::uint32_t sourceIndex;
    QString fileName;
    od::parser chunkParser;
    od::parser argsParser;
    std::vector<char> buffer;
    const char *bufferEnd = nullptr;
    std::size_t badEvents = 0;
    std::size_t firstBadOffset = 0;
    QString firstBadProblem;
    std::size_t badTimes = 0;
    std::size_t argsProblems = 0;
    StringId processNameId, processLabelsId, processSortId, threadNameId, threadSortId;
    struct CounterArg
    {
        std::string_view key;
        double value;
    };
    std::vector<CounterArg> counterArgs;
    std::string seriesKeyText;

    Impl(TraceBuilder &b, std::uint32_t source, QString name)
        : builder(b), sourceIndex(source), fileName(std::move(name))
    {
        StringPool &s = builder.strings();
        processNameId = s.intern("process_name");
        processLabelsId = s.intern("process_labels");
        processSortId = s.intern("process_sort_index");
        threadNameId = s.intern("thread_name");
        threadSortId = s.intern("thread_sort_index");
    }

    // Copies [begin, end) into the padded buffer, optionally wrapped in '[' ']'.
    std::size_t fillBuffer(const char *data, std::size_t begin, std::size_t end, bool wrapInArray)
    {
        const std::size_t length = end - begin + (wrapInArray ? 2 : 0);
        if (buffer.size() < length + simdjson::SIMDJSON_PADDING)
            buffer.resize(length + simdjson::SIMDJSON_PADDING + length / 8);
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

    LaneKey laneKey(od::value value)
    {
        const std::string_view token = trimToken(value.raw_json_token());
        if (!token.empty() && token.front() == '"') {
            std::string_view text;
            if (value.get_string().get(text))
                return {};
            // "123" is the same lane as 123; "123 aclGraph" keeps its text.
            if (isAllDigits(text))
                return builder.numberKey(parseInt64(text).value_or(0));
            return builder.textKey(text);
        }
        return builder.numberKey(parseInt64(token).value_or(0));
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

    simdjson::error_code readFields(od::object object, EventFields &f)
    {
        for (auto field : object) {
            od::raw_json_string key;
            if (auto error = field.key().get(key))
                return error;
            od::value value = field.value();
            std::string_view text;
            if (key == "ph") {
                if (auto error = value.get_string().get(f.ph))
                    return error;
            } else if (key == "name") {
                if (value.get_string().get(text) == simdjson::SUCCESS)
                    f.name = builder.strings().intern(text);
            } else if (key == "cat") {
                if (value.get_string().get(text) == simdjson::SUCCESS)
                    f.category = builder.strings().intern(text);
            } else if (key == "pid") {
                f.pid = laneKey(value);
            } else if (key == "tid") {
                f.tid = laneKey(value);
            } else if (key == "ts") {
                f.ts = scalarText(value);
            } else if (key == "dur") {
                f.dur = scalarText(value);
            } else if (key == "id") {
                f.id = scalarText(value);
            } else if (key == "bp") {
                if (value.get_string().get(text) == simdjson::SUCCESS)
                    f.bp = text;
            } else if (key == "args") {
                od::object args;
                if (value.get_object().get(args) == simdjson::SUCCESS) {
                    if (auto error = args.raw_json().get(f.args))
                        return error;
                }
            }
            // Unknown keys (cname, id2, s, ...) are skipped by the iterator.
        }
        return simdjson::SUCCESS;
    }

    std::optional<TimeNs> eventTime(const EventFields &f)
    {
        auto ts = parseMicrosToNs(f.ts, FractionRounding::Truncate);
        if (!ts)
            ++badTimes;
        return ts;
    }

    TimeNs eventDuration(const EventFields &f)
    {
        if (f.dur.empty())
            return 0;
        auto dur = parseMicrosToNs(f.dur, FractionRounding::HalfUp);
        if (!dur || *dur < 0) {
            ++badTimes;
            return 0;
        }
        return *dur;
    }

    // Parses the raw args text of M and C events with the second parser.
    template <typename Fn> void forEachArg(std::string_view argsText, Fn &&fn)
    {
        if (argsText.empty())
            return;
        const std::size_t capacity = static_cast<std::size_t>(bufferEnd - argsText.data());
        od::document doc;
        od::object object;
        if (argsParser.iterate(argsText.data(), argsText.size(), capacity).get(doc) ||
            doc.get_object().get(object)) {
            ++argsProblems;
            return;
        }
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key)) {
                ++argsProblems;
                return;
            }
            fn(key, field.value());
        }
    }

    void handleMetadata(const EventFields &f, SourceLocation)
    {
        const int process = builder.process(f.pid);
        if (f.name == processNameId || f.name == processLabelsId || f.name == threadNameId) {
            const bool wantsLabels = f.name == processLabelsId;
            forEachArg(f.args, [&](std::string_view key, od::value value) {
                std::string_view text;
                if (key != (wantsLabels ? "labels" : "name") || value.get_string().get(text))
                    return;
                const StringId id = builder.strings().intern(text);
                if (f.name == processNameId)
                    builder.setProcessName(process, id);
                else if (wantsLabels)
                    builder.setProcessLabels(process, id);
                else
                    builder.setThreadName(builder.thread(f.pid, f.tid), id);
            });
        } else if (f.name == processSortId || f.name == threadSortId) {
            forEachArg(f.args, [&](std::string_view key, od::value value) {
                if (key != "sort_index")
                    return;
                const std::string_view token = value.raw_json_token();
                if (auto index = parseInt64(unquote(token))) {
                    if (f.name == processSortId)
                        builder.setProcessSortIndex(process, *index);
                    else
                        builder.setThreadSortIndex(builder.thread(f.pid, f.tid), *index);
                }
            });
        }
    }

    void handleCounter(const EventFields &f, TimeNs ts)
    {
        const int process = builder.process(f.pid);
        // Acc PMU writes {"value": v, "acc_id": n}: acc_id selects the series (FORMATS.md §2.8).
        std::string_view accId;
        std::vector<CounterArg> &samples = counterArgs; // reused: no allocation per event
        samples.clear();
        forEachArg(f.args, [&](std::string_view key, od::value value) {
            double number = 0;
            if (key == "acc_id") {
                accId = unquote(trimToken(value.raw_json_token()));
                return;
            }
            if (value.get_double().get(number) == simdjson::SUCCESS ||
                value.get_double_in_string().get(number) == simdjson::SUCCESS)
                samples.push_back({key, number});
        });
        for (const CounterArg &s : samples) {
            StringId seriesKey;
            if (accId.empty()) {
                seriesKey = builder.strings().intern(s.key);
            } else {
                seriesKeyText.assign(s.key);
                seriesKeyText += " acc_id ";
                seriesKeyText += accId;
                seriesKey = builder.strings().intern(seriesKeyText);
            }
            builder.addCounterSample(process, f.name, seriesKey, ts, s.value);
        }
    }

    void handleEvent(const EventFields &f, std::size_t offset)
    {
        EventCounts &counts = builder.counts();
        const char phase = f.ph.size() == 1 ? f.ph[0] : '\0';
        const SourceLocation source = makeSourceLocation(sourceIndex, offset);
        switch (phase) {
        case 'X':
        case 'B':
        case 'E':
        case 'i':
        case 'I': {
            const auto ts = eventTime(f);
            if (!ts)
                return;
            const int thread = builder.thread(f.pid, f.tid);
            if (phase == 'X') {
                ++counts.complete;
                builder.addSlice(thread, *ts, eventDuration(f), f.name, f.category, source);
            } else if (phase == 'B') {
                ++counts.begin;
                builder.addBegin(thread, *ts, f.name, f.category, source);
            } else if (phase == 'E') {
                ++counts.end;
                builder.addEnd(thread, *ts);
            } else {
                ++counts.instant;
                builder.addSlice(thread, *ts, 0, f.name, f.category, source);
            }
            return;
        }
        case 'C': {
            const auto ts = eventTime(f);
            if (!ts)
                return;
            ++counts.counter;
            handleCounter(f, *ts);
            return;
        }
        case 's':
        case 't':
        case 'f': {
            const auto ts = eventTime(f);
            if (!ts)
                return;
            const FlowPhase flowPhase = phase == 's'   ? FlowPhase::Start
                                        : phase == 't' ? FlowPhase::Step
                                                       : FlowPhase::End;
            (phase == 's' ? counts.flowStart : phase == 't' ? counts.flowStep : counts.flowEnd)++;
            // Starts and steps bind to their enclosing slice (as in Chrome); finishes only with
            // bp:"e", else to the next slice.
            const bool enclosing = phase != 'f' || f.bp == "e";
            builder.addFlowHalf(flowPhase, f.category, f.name, builder.strings().intern(f.id),
                                builder.thread(f.pid, f.tid), *ts, enclosing);
            return;
        }
        case 'M':
            ++counts.metadata;
            handleMetadata(f, source);
            return;
        default:
            ++counts.other;
            return;
        }
    }

    void recordBadEvent(std::size_t offset, const QString &problem)
    {
        if (badEvents++ == 0) {
            firstBadOffset = offset;
            firstBadProblem = problem;
        }
    }

    // Parses the events of spans[first..last) that are contiguous in data. Returns events read.
    // Checks the cancel flag every 1,024 events, so that cancelling never waits for a whole chunk
    // (which takes long in a sanitizer build or on a slow machine); *cancelled says it stopped early.
    std::size_t parseChunk(const char *data, const std::vector<JsonEventScanner::Span> &spans,
                           const std::atomic<bool> *cancel, bool *cancelled)
    {
        const std::size_t length = fillBuffer(data, spans.front().begin, spans.back().end, true);
        std::size_t done = 0;
        od::document doc;
        od::array array;
        bool chunkOk =
            chunkParser.iterate(buffer.data(), length, buffer.size()).get(doc) == simdjson::SUCCESS &&
            doc.get_array().get(array) == simdjson::SUCCESS;
        if (chunkOk) {
            for (auto element : array) {
                od::object object;
                EventFields fields;
                if (element.get_object().get(object) || readFields(object, fields)) {
                    chunkOk = false;
                    break;
                }
                if (done >= spans.size()) {
                    chunkOk = false;
                    break;
                }
                handleEvent(fields, spans[done].begin);
                ++done;
                if ((done & 1023) == 0 && cancel && cancel->load(std::memory_order_relaxed)) {
                    *cancelled = true;
                    return done;
                }
            }
        }
        if (chunkOk && done == spans.size())
            return done;
        // Fall back to one document per event for the rest of the chunk.
        std::size_t read = done;
        for (std::size_t k = done; k < spans.size(); ++k)
            read += parseSingle(data, spans[k]) ? 1 : 0;
        return read;
    }

    bool parseSingle(const char *data, const JsonEventScanner::Span &span)
    {
        const std::size_t length = fillBuffer(data, span.begin, span.end, false);
        od::document doc;
        od::object object;
        EventFields fields;
        simdjson::error_code error = chunkParser.iterate(buffer.data(), length, buffer.size()).get(doc);
        if (!error)
            error = doc.get_object().get(object);
        if (!error)
            error = readFields(object, fields);
        if (error) {
            recordBadEvent(span.begin, QString::fromUtf8(simdjson::error_message(error)));
            return false;
        }
        handleEvent(fields, span.begin);
        return true;
    }
};

ChromeTraceParser::ChromeTraceParser(TraceBuilder &builder, std::uint32_t sourceIndex, QString displayName)
    : d(std::make_unique<Impl>(builder, sourceIndex, std::move(displayName)))
{}

ChromeTraceParser::~ChromeTraceParser() = default;

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
    std::vector<JsonEventScanner::Span> spans;
    JsonEventScanner::Span span;
    bool more = true;
    while (more) {
        spans.clear();
        std::size_t chunkBegin = 0;
        while ((more = scanner.next(span))) {
            if (spans.empty())
                chunkBegin = span.begin;
            spans.push_back(span);
            if (span.end - chunkBegin >= kChunkBytes)
                break;
        }
        bool cancelled = false;
        if (!spans.empty())
            m_eventsRead += d->parseChunk(data, spans, control.cancel, &cancelled);
        if (cancelled)
            return Result::Cancelled;
        if (control.bytesDone)
            control.bytesDone->store(control.bytesBase + scanner.position(), std::memory_order_relaxed);
        if (control.cancel && control.cancel->load(std::memory_order_relaxed))
            return Result::Cancelled;
    }

    TraceBuilder &builder = d->builder;
    switch (scanner.state()) {
    case JsonEventScanner::State::Finished:
    case JsonEventScanner::State::Events:
        break;
    case JsonEventScanner::State::Truncated:
        if (scanner.problemOffset() >= size) {
            builder.addWarning(
                QStringLiteral("%1: the event array is not closed with ']' (the file may have been "
                               "cut off when the job ended); all %2 events in it were read")
                    .arg(file)
                    .arg(m_eventsRead));
        } else {
            builder.addWarning(QStringLiteral("%1: truncated at byte %2 of %3: %4; the %5 complete events "
                                              "before it were kept")
                                   .arg(file)
                                   .arg(scanner.problemOffset())
                                   .arg(size)
                                   .arg(scanner.problem())
                                   .arg(m_eventsRead));
        }
        break;
    case JsonEventScanner::State::Malformed:
        builder.addWarning(
            QStringLiteral("%1: byte %2: %3; reading stopped there and the %4 events before it "
                           "were kept")
                .arg(file)
                .arg(scanner.problemOffset())
                .arg(scanner.problem())
                .arg(m_eventsRead));
        break;
    }
    if (d->badEvents)
        builder.addWarning(
            QStringLiteral("%1: %2 events could not be read and were skipped (first at byte %3: %4)")
                .arg(file)
                .arg(d->badEvents)
                .arg(d->firstBadOffset)
                .arg(d->firstBadProblem));
    if (d->badTimes)
        builder.addWarning(
            QStringLiteral("%1: %2 events have a missing or invalid ts/dur (events without a valid "
                           "ts were skipped, invalid dur read as 0)")
                .arg(file)
                .arg(d->badTimes));
    if (d->argsProblems)
        builder.addWarning(QStringLiteral("%1: %2 metadata/counter events have unreadable args")
                               .arg(file)
                               .arg(d->argsProblems));

    if (m_eventsRead == 0 && scanner.state() != JsonEventScanner::State::Finished &&
        scanner.state() != JsonEventScanner::State::Events) {
        *error = QStringLiteral("%1: byte %2: %3; no complete event could be read")
                     .arg(file)
                     .arg(scanner.problemOffset())
                     .arg(scanner.problem());
        return Result::Failed;
    }
    if (m_eventsRead == 0 && d->badEvents > 0) {
        *error = QStringLiteral("%1: none of the %2 events could be read (first at byte %3: %4)")
                     .arg(file)
                     .arg(d->badEvents)
                     .arg(d->firstBadOffset)
                     .arg(d->firstBadProblem);
        return Result::Failed;
    }
    return Result::Ok;
}

} // namespace at
