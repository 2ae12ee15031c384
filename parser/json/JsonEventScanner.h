#pragma once

#include "ChunkKernel.h"

#include <QString>

#include <cstddef>
#include <string_view>

namespace at {

// Finds the byte spans of the event objects in a Chrome trace without parsing them, so that the
// events can be handed to simdjson in large chunks cut at event boundaries. It tracks string
// state (a '}' inside a string never ends an event) and tolerates what real profilers write:
// trailing commas, a missing closing ']', and a file cut off in the middle of an event.
class JsonEventScanner
{
public:
    using Span = jsonkernel::Span; // one event's bytes, as the chunk kernel takes them

    enum class State
    {
        Events,    // more events may follow
        Finished,  // the closing ']' was reached
        Truncated, // input ended inside an event or before the closing ']'
        Malformed  // unexpected bytes where an event should start
    };

    JsonEventScanner(const char *data, std::size_t size) : m_data(data), m_size(size) {}

    // Locates the event array: a top-level array, or the "traceEvents" array of a top-level
    // object. On failure returns false and describes the problem (no byte offset prefix).
    bool locateEvents(QString *problem);

    // Next event span; false when no further event can be read (see state()).
    bool next(Span &span);

    State state() const { return m_state; }
    // Where reading stopped for Truncated/Malformed, and what was wrong.
    std::size_t problemOffset() const { return m_problemOffset; }
    const QString &problem() const { return m_problem; }
    std::size_t position() const { return m_pos; }
    bool sawTrailingComma() const { return m_trailingComma; }
    // Elements of the event array that are not objects (numbers, strings, null, arrays): skipped.
    std::size_t skippedElements() const { return m_skipped; }
    std::size_t firstSkippedOffset() const { return m_firstSkippedOffset; }
    QString firstSkippedKind() const; // "a number", "a string", ...
    // Object form: the offset of a second "traceEvents" key after the first array (0 when none).
    std::size_t secondEventArrayOffset() const { return m_secondEventArray; }

    // End offset of the JSON value (object/array/string/scalar) starting at 'begin', or npos when
    // the data ends first. Shared with the args reader.
    static std::size_t valueEnd(const char *data, std::size_t size, std::size_t begin);
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
    void skipWhitespace();
    bool fail(State state, std::size_t offset, const QString &problem);
    bool skipNonObject(); // true when the element at m_pos was a JSON value other than an object
    void scanRemainingKeys();
    // Walks the top-level object's keys from m_pos up to `wanted`: true at its value (m_pos there).
    bool findKey(std::string_view wanted, QString *problem, std::size_t *keyOffset);

    const char *m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
    State m_state = State::Events;
    std::size_t m_problemOffset = 0;
    QString m_problem;
    bool m_trailingComma = false;
    bool m_objectForm = false;
    std::size_t m_skipped = 0;
    std::size_t m_firstSkippedOffset = 0;
    char m_firstSkippedByte = 0;
    std::size_t m_secondEventArray = 0;
};

} // namespace at
