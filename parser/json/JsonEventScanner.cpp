#include "JsonEventScanner.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace at {
namespace {

bool isWhitespace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Skips a string starting at data[pos] == '"'; returns one past the closing quote or npos.
std::size_t stringEnd(const char *data, std::size_t size, std::size_t pos)
{
    ++pos;
    while (pos < size) {
        const void *hit = nullptr;
        // Fast path: jump to the next quote, then check whether it is escaped.
        hit = std::memchr(data + pos, '"', size - pos);
        if (!hit)
            return JsonEventScanner::npos;
        std::size_t quote = static_cast<std::size_t>(static_cast<const char *>(hit) - data);
        std::size_t backslashes = 0;
        while (quote - backslashes > pos && data[quote - backslashes - 1] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return quote + 1;
        pos = quote + 1;
    }
    return JsonEventScanner::npos;
}

} // namespace

std::size_t JsonEventScanner::valueEnd(const char *data, std::size_t size, std::size_t begin)
{
    if (begin >= size)
        return npos;
    const char first = data[begin];
    if (first == '"')
        return stringEnd(data, size, begin);
    if (first != '{' && first != '[') {
        std::size_t p = begin;
        while (p < size && !isWhitespace(data[p]) && data[p] != ',' && data[p] != '}' && data[p] != ']')
            ++p;
        return p;
    }
    std::size_t depth = 0;
    std::size_t p = begin;
#if defined(__SSE2__)
    // 16 bytes at a time: find the quotes, backslashes and brackets of a block with SSE2 (part of
    // every x86-64), then walk only those. Bytes escaped by a backslash are skipped by position.
    bool inString = false;
    std::size_t escaped = 0; // a special byte before this position is escaped
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i open1 = _mm_set1_epi8('{'), close1 = _mm_set1_epi8('}');
    const __m128i open2 = _mm_set1_epi8('['), close2 = _mm_set1_epi8(']');
    while (p + 16 <= size) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + p));
        const __m128i strings = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
        const __m128i brackets = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, open1), _mm_cmpeq_epi8(v, close1)),
                                              _mm_or_si128(_mm_cmpeq_epi8(v, open2), _mm_cmpeq_epi8(v, close2)));
        auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(strings, brackets)));
        while (mask) {
            const std::size_t q = p + static_cast<std::size_t>(__builtin_ctz(mask));
            mask &= mask - 1;
            if (q < escaped)
                continue;
            const char c = data[q];
            if (inString) {
                if (c == '\\')
                    escaped = q + 2;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return q + 1;
            }
        }
        p += 16;
    }
    // The tail (under 16 bytes): byte by byte, in the same state.
    for (p = std::max(p, escaped); p < size; ++p) {
        const char c = data[p];
        if (inString) {
            if (c == '\\')
                ++p;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return p + 1;
        }
    }
    return npos;
#else
    while (p < size) {
        const char c = data[p];
        if (c == '"') {
            p = stringEnd(data, size, p);
            if (p == npos)
                return npos;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return p + 1;
        }
        ++p;
    }
    return npos;
#endif
}

void JsonEventScanner::skipWhitespace()
{
    while (m_pos < m_size && isWhitespace(m_data[m_pos]))
        ++m_pos;
}

bool JsonEventScanner::fail(State state, std::size_t offset, const QString &problem)
{
    m_state = state;
    m_problemOffset = offset;
    m_problem = problem;
    return false;
}

bool JsonEventScanner::locateEvents(QString *problem)
{
    m_pos = 0;
    // A UTF-8 byte order mark is harmless; skip it.
    if (m_size >= 3 && std::memcmp(m_data, "\xEF\xBB\xBF", 3) == 0)
        m_pos = 3;
    skipWhitespace();
    if (m_pos >= m_size) {
        *problem = m_size == 0 ? QStringLiteral("the file is empty")
                               : QStringLiteral("the file holds only whitespace");
        return false;
    }
    if (m_data[m_pos] == '[') {
        ++m_pos;
        return true;
    }
    if (m_data[m_pos] != '{') {
        *problem = QStringLiteral("not JSON: byte %1 is '%2', expected '[' or '{'")
                       .arg(m_pos)
                       .arg(QString::fromLatin1(m_data + m_pos, 1).toHtmlEscaped());
        return false;
    }
    // Object form: walk the top-level keys until "traceEvents".
    ++m_pos;
    while (true) {
        skipWhitespace();
        if (m_pos >= m_size) {
            *problem = QStringLiteral("the JSON object ends before a \"traceEvents\" array was found");
            return false;
        }
        if (m_data[m_pos] == '}') {
            *problem =
                QStringLiteral("JSON, but not a trace: the top-level object has no \"traceEvents\" array");
            return false;
        }
        if (m_data[m_pos] == ',') {
            ++m_pos;
            continue;
        }
        if (m_data[m_pos] != '"') {
            *problem = QStringLiteral("malformed JSON object at byte %1").arg(m_pos);
            return false;
        }
        const std::size_t keyEnd = stringEnd(m_data, m_size, m_pos);
        if (keyEnd == npos) {
            *problem = QStringLiteral("the file ends inside a key at byte %1").arg(m_pos);
            return false;
        }
        const std::string_view key(m_data + m_pos + 1, keyEnd - m_pos - 2);
        m_pos = keyEnd;
        skipWhitespace();
        if (m_pos >= m_size || m_data[m_pos] != ':') {
            *problem = QStringLiteral("malformed JSON object at byte %1: expected ':'").arg(m_pos);
            return false;
        }
        ++m_pos;
        skipWhitespace();
        if (key == "traceEvents") {
            if (m_pos < m_size && m_data[m_pos] == '[') {
                ++m_pos;
                return true;
            }
            *problem = QStringLiteral("JSON, but not a trace: \"traceEvents\" at byte %1 is not an array")
                           .arg(m_pos);
            return false;
        }
        const std::size_t end = valueEnd(m_data, m_size, m_pos);
        if (end == npos) {
            *problem =
                QStringLiteral("the file ends inside the value of \"%1\" (byte %2) before \"traceEvents\"")
                    .arg(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())))
                    .arg(m_pos);
            return false;
        }
        m_pos = end;
    }
}

bool JsonEventScanner::next(Span &span)
{
    if (m_state != State::Events)
        return false;
    while (true) {
        skipWhitespace();
        if (m_pos >= m_size)
            return fail(State::Truncated, m_size, QStringLiteral("the event array is not closed with ']'"));
        const char c = m_data[m_pos];
        if (c == ',') {
            // Also tolerates doubled commas and a comma before ']'.
            m_trailingComma = true;
            ++m_pos;
            continue;
        }
        if (c == ']') {
            m_state = State::Finished;
            ++m_pos;
            return false;
        }
        if (c != '{') {
            return fail(State::Malformed, m_pos,
                        QStringLiteral("unexpected '%1' where an event object should start")
                            .arg(QString::fromLatin1(m_data + m_pos, 1).toHtmlEscaped()));
        }
        const std::size_t end = valueEnd(m_data, m_size, m_pos);
        if (end == npos)
            return fail(State::Truncated, m_pos, QStringLiteral("the file ends in the middle of an event"));
        span.begin = m_pos;
        span.end = end;
        m_pos = end;
        m_trailingComma = false;
        return true;
    }
}

} // namespace at
