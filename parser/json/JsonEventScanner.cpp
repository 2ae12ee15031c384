#include "JsonEventScanner.h"

#include "common/MessageText.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <immintrin.h>
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

#if defined(__SSE2__)
// The state of a bracketed-value scan, shared by the block loops and the byte-wise tail.
struct ScanState
{
    std::size_t depth = 0;
    bool inString = false;
    std::size_t escaped = 0; // a special byte before this position is escaped
};

// Handles one special byte (quote, backslash or bracket) at q; true when the value ends there.
inline bool special(const char *data, std::size_t q, ScanState &s)
{
    if (q < s.escaped)
        return false;
    const char c = data[q];
    if (s.inString) {
        if (c == '\\')
            s.escaped = q + 2;
        else if (c == '"')
            s.inString = false;
    } else if (c == '"') {
        s.inString = true;
    } else if (c == '{' || c == '[') {
        ++s.depth;
    } else if (c == '}' || c == ']') {
        return --s.depth == 0;
    }
    return false;
}

std::size_t tailEnd(const char *data, std::size_t size, std::size_t p, ScanState &s)
{
    for (; p < size; ++p) {
        const char c = data[p];
        if ((c == '"' || c == '\\' || c == '{' || c == '}' || c == '[' || c == ']') && special(data, p, s))
            return p + 1;
    }
    return JsonEventScanner::npos;
}

// 16 bytes at a time: find the quotes, backslashes and brackets of a block with SSE2 (part of every
// x86-64), then walk only those. Bytes escaped by a backslash are skipped by position.
std::size_t bracketedEndSse2(const char *data, std::size_t size, std::size_t p)
{
    ScanState s;
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i open1 = _mm_set1_epi8('{'), close1 = _mm_set1_epi8('}');
    const __m128i open2 = _mm_set1_epi8('['), close2 = _mm_set1_epi8(']');
    for (; p + 16 <= size; p += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + p));
        const __m128i strings = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
        const __m128i brackets =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, open1), _mm_cmpeq_epi8(v, close1)),
                         _mm_or_si128(_mm_cmpeq_epi8(v, open2), _mm_cmpeq_epi8(v, close2)));
        for (auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(strings, brackets))); mask;
             mask &= mask - 1) {
            const std::size_t q = p + static_cast<std::size_t>(__builtin_ctz(mask));
            if (special(data, q, s))
                return q + 1;
        }
    }
    return tailEnd(data, size, p, s);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same with 32-byte AVX2 blocks, for CPUs that have it (a target attribute on this function only:
// nothing else in the file is compiled for AVX2).
__attribute__((target("avx2"))) std::size_t bracketedEndAvx2(const char *data, std::size_t size,
                                                             std::size_t p)
{
    ScanState s;
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\');
    const __m256i open1 = _mm256_set1_epi8('{'), close1 = _mm256_set1_epi8('}');
    const __m256i open2 = _mm256_set1_epi8('['), close2 = _mm256_set1_epi8(']');
    for (; p + 32 <= size; p += 32) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(data + p));
        const __m256i strings = _mm256_or_si256(_mm256_cmpeq_epi8(v, quote), _mm256_cmpeq_epi8(v, backslash));
        const __m256i brackets =
            _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, open1), _mm256_cmpeq_epi8(v, close1)),
                            _mm256_or_si256(_mm256_cmpeq_epi8(v, open2), _mm256_cmpeq_epi8(v, close2)));
        for (auto mask = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_or_si256(strings, brackets)));
             mask; mask &= mask - 1) {
            const std::size_t q = p + static_cast<std::size_t>(__builtin_ctz(mask));
            if (special(data, q, s))
                return q + 1;
        }
    }
    return tailEnd(data, size, p, s);
}
#endif

using BracketedEnd = std::size_t (*)(const char *, std::size_t, std::size_t);

BracketedEnd chooseBracketedEnd()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // AT_JSON_KERNEL=generic keeps the portable code paths (as for the chunk kernels; tests).
    __builtin_cpu_init();
    if (!jsonkernel::genericForced() && __builtin_cpu_supports("avx2"))
        return &bracketedEndAvx2;
#endif
    return &bracketedEndSse2;
}

// End of the object or array starting at data[begin], or npos.
std::size_t bracketedEnd(const char *data, std::size_t size, std::size_t begin)
{
    static const BracketedEnd scan = chooseBracketedEnd();
    return scan(data, size, begin);
}
#endif

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
#if defined(__SSE2__)
    return bracketedEnd(data, size, begin);
#else
    std::size_t depth = 0;
    std::size_t p = begin;
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
        *problem = m_size == 0 ? QCoreApplication::translate("Parser", "the file is empty")
                               : QCoreApplication::translate("Parser", "the file holds only whitespace");
        return false;
    }
    if (m_data[m_pos] == '[') {
        ++m_pos;
        return true;
    }
    if (m_data[m_pos] != '{') {
        *problem = QCoreApplication::translate("Parser", "not JSON: byte %1 is %2, expected '[' or '{'")
                       .arg(m_pos)
                       .arg(describeByte(m_data[m_pos]));
        return false;
    }
    // Object form: walk the top-level keys until "traceEvents".
    ++m_pos;
    m_objectForm = true;
    std::size_t keyOffset = 0;
    if (!findKey("traceEvents", problem, &keyOffset))
        return false;
    if (m_pos < m_size && m_data[m_pos] == '[') {
        ++m_pos;
        return true;
    }
    *problem = QCoreApplication::translate(
                   "Parser", "JSON, but not a trace: \"traceEvents\" at byte %1 is not an array")
                   .arg(m_pos);
    return false;
}

bool JsonEventScanner::findKey(std::string_view wanted, QString *problem, std::size_t *keyOffset)
{
    while (true) {
        skipWhitespace();
        if (m_pos >= m_size) {
            *problem = QCoreApplication::translate(
                "Parser", "the JSON object ends before a \"traceEvents\" array was found");
            return false;
        }
        if (m_data[m_pos] == '}') {
            *problem = QCoreApplication::translate(
                "Parser", "JSON, but not a trace: the top-level object has no \"traceEvents\" array");
            return false;
        }
        if (m_data[m_pos] == ',') {
            ++m_pos;
            continue;
        }
        if (m_data[m_pos] != '"') {
            *problem = QCoreApplication::translate("Parser", "malformed JSON object at byte %1").arg(m_pos);
            return false;
        }
        const std::size_t keyEnd = stringEnd(m_data, m_size, m_pos);
        if (keyEnd == npos) {
            *problem =
                QCoreApplication::translate("Parser", "the file ends inside a key at byte %1").arg(m_pos);
            return false;
        }
        *keyOffset = m_pos;
        const std::string_view key(m_data + m_pos + 1, keyEnd - m_pos - 2);
        m_pos = keyEnd;
        skipWhitespace();
        if (m_pos >= m_size || m_data[m_pos] != ':') {
            *problem = QCoreApplication::translate("Parser", "malformed JSON object at byte %1: expected ':'")
                           .arg(m_pos);
            return false;
        }
        ++m_pos;
        skipWhitespace();
        if (key == wanted)
            return true;
        const std::size_t end = valueEnd(m_data, m_size, m_pos);
        if (end == npos) {
            *problem =
                QCoreApplication::translate(
                    "Parser", "the file ends inside the value of \"%1\" (byte %2) before \"traceEvents\"")
                    .arg(printableText(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()))))
                    .arg(m_pos);
            return false;
        }
        m_pos = end;
    }
}

// After the event array of the object form: a second "traceEvents" key would be ignored by every JSON
// reader that keeps the first (or the last) one, so it is looked for and reported.
void JsonEventScanner::scanRemainingKeys()
{
    const std::size_t arrayEnd = m_pos;
    QString ignored;
    std::size_t keyOffset = 0;
    if (findKey("traceEvents", &ignored, &keyOffset))
        m_secondEventArray = keyOffset;
    m_pos = arrayEnd;
}

QString JsonEventScanner::firstSkippedKind() const
{
    switch (m_firstSkippedByte) {
    case '"':
        return QCoreApplication::translate("Parser", "a string");
    case '[':
        return QCoreApplication::translate("Parser", "an array");
    case 'n':
        return QStringLiteral("null");
    case 't':
    case 'f':
        return QCoreApplication::translate("Parser", "a boolean");
    default:
        return QCoreApplication::translate("Parser", "a number");
    }
}

bool JsonEventScanner::skipNonObject()
{
    const char c = m_data[m_pos];
    const bool value = c == '"' || c == '[' || c == '-' || (c >= '0' && c <= '9') ||
                       std::string_view(m_data + m_pos, std::min<std::size_t>(4, m_size - m_pos)) == "null" ||
                       std::string_view(m_data + m_pos, std::min<std::size_t>(4, m_size - m_pos)) == "true" ||
                       std::string_view(m_data + m_pos, std::min<std::size_t>(5, m_size - m_pos)) == "false";
    if (!value)
        return false;
    const std::size_t end = valueEnd(m_data, m_size, m_pos);
    if (end == npos || end == m_pos)
        return false;
    if (m_skipped++ == 0) {
        m_firstSkippedOffset = m_pos;
        m_firstSkippedByte = c;
    }
    m_pos = end;
    return true;
}

bool JsonEventScanner::next(Span &span)
{
    if (m_state != State::Events)
        return false;
    while (true) {
        skipWhitespace();
        if (m_pos >= m_size)
            return fail(State::Truncated, m_size,
                        QCoreApplication::translate("Parser", "the event array is not closed with ']'"));
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
            if (m_objectForm)
                scanRemainingKeys();
            return false;
        }
        if (c != '{' && skipNonObject())
            continue;
        if (c != '{') {
            return fail(
                State::Malformed, m_pos,
                QCoreApplication::translate("Parser", "unexpected %1 where an event object should start")
                    .arg(describeByte(m_data[m_pos])));
        }
        const std::size_t end = valueEnd(m_data, m_size, m_pos);
        if (end == npos)
            return fail(State::Truncated, m_pos,
                        QCoreApplication::translate("Parser", "the file ends in the middle of an event"));
        span.begin = m_pos;
        span.end = end;
        m_pos = end;
        m_trailingComma = false;
        return true;
    }
}

} // namespace at
