#include "cluster/JsonTree.h"

#include "common/MappedFile.h"

#include <QCoreApplication>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <type_traits>

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <simdjson.h>

namespace od = simdjson::ondemand;

namespace at::cluster {

namespace {

constexpr int kMaxDepth = 64;

// The keys down to the value being converted and the caller's array filter, when readJsonFile has one.
struct ArrayFiltering
{
    const JsonArrayFilter &filter;
    std::vector<std::string> keys;
};

bool convert(od::value value, JsonNode &node, int depth, ArrayFiltering *filtering = nullptr);

bool convertItems(od::array array, JsonNode &node, int depth, ArrayFiltering *filtering)
{
    for (auto element : array) {
        od::value inner;
        node.items.emplace_back();
        if (element.get(inner) || !convert(inner, node.items.back(), depth + 1, filtering))
            return false;
    }
    return true;
}

// An array under a filter: its text goes to the filter first; when the filter does not take it, the text is
// parsed on its own (raw_json consumed the array) and converted as usual.
bool convertFilteredArray(od::array array, JsonNode &node, int depth, ArrayFiltering &filtering)
{
    std::string_view raw;
    if (array.raw_json().get(raw))
        return false;
    if (filtering.filter(filtering.keys, raw))
        return true;
    const simdjson::padded_string text(raw);
    od::parser parser;
    od::document doc;
    od::array again;
    if (parser.iterate(text).get(doc) || doc.get_array().get(again))
        return false;
    return convertItems(again, node, depth, &filtering);
}

bool convert(od::value value, JsonNode &node, int depth, ArrayFiltering *filtering)
{
    if (depth > kMaxDepth)
        return false;
    od::json_type type;
    if (value.type().get(type))
        return false;
    switch (type) {
    case od::json_type::object: {
        node.type = JsonNode::Type::Object;
        od::object object;
        if (value.get_object().get(object))
            return false;
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key))
                return false;
            node.members.emplace_back(std::string(key), JsonNode{});
            od::value inner;
            if (filtering)
                filtering->keys.emplace_back(key);
            if (field.value().get(inner) || !convert(inner, node.members.back().second, depth + 1, filtering))
                return false;
            if (filtering)
                filtering->keys.pop_back();
        }
        return true;
    }
    case od::json_type::array: {
        node.type = JsonNode::Type::Array;
        od::array array;
        if (value.get_array().get(array))
            return false;
        if (filtering)
            return convertFilteredArray(array, node, depth, *filtering);
        return convertItems(array, node, depth, nullptr);
    }
    case od::json_type::string: {
        node.type = JsonNode::Type::String;
        std::string_view text;
        if (value.get_string().get(text))
            return false;
        node.text = std::string(text);
        return true;
    }
    case od::json_type::number: {
        node.type = JsonNode::Type::Number;
        std::string_view token = value.raw_json_token();
        while (!token.empty() &&
               (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
            token.remove_suffix(1);
        node.text = std::string(token);
        return true;
    }
    case od::json_type::boolean: {
        node.type = JsonNode::Type::Bool;
        bool b = false;
        if (value.get_bool().get(b))
            return false;
        node.text = b ? "true" : "false";
        return true;
    }
    default:
        node.type = JsonNode::Type::Null;
        return !value.is_null().error();
    }
}

} // namespace

const JsonNode &JsonNode::operator[](std::string_view key) const
{
    static const JsonNode null;
    for (const auto &m : members)
        if (m.first == key)
            return m.second;
    return null;
}

namespace {

// A JSON number token read without the QString round trip (issue #32: at 1,024 ranks a million numbers of
// the ranks' files went through QString::fromStdString + trimmed + toDouble). Only a token that is a whole,
// finite number is taken here; anything else (text, a string node, inf, an overflow) takes the QString
// path, whose results and warnings stay those of before. Both round correctly, so the value is the same.
template <typename T> std::optional<T> plainNumber(const JsonNode &node)
{
    if (node.type != JsonNode::Type::Number || node.text.empty())
        return std::nullopt;
    T value{};
    const char *end = node.text.data() + node.text.size();
    const auto [ptr, ec] = std::from_chars(node.text.data(), end, value);
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    if constexpr (std::is_floating_point_v<T>)
        if (!std::isfinite(value))
            return std::nullopt;
    return value;
}

} // namespace

double JsonNode::toDouble(double fallback) const
{
    if (const std::optional<double> plain = plainNumber<double>(*this))
        return *plain;
    if (type != Type::Number && type != Type::String)
        return fallback;
    bool ok = false;
    const double v = QString::fromStdString(text).trimmed().toDouble(&ok);
    return ok ? v : fallback;
}

double FiniteNumbers::read(const JsonNode &node, std::string_view field, double fallback)
{
    if (const std::optional<double> plain = plainNumber<double>(node))
        return *plain;
    if (node.type != JsonNode::Type::Number && node.type != JsonNode::Type::String)
        return fallback;
    bool ok = false;
    const double v = QString::fromStdString(node.text).trimmed().toDouble(&ok);
    if (ok && std::isfinite(v))
        return v;
    if (!ok && !std::isinf(v))
        return fallback; // not a number at all: read as before
    auto it = std::find_if(m_bad.begin(), m_bad.end(), [&](const Bad &b) { return b.field == field; });
    if (it == m_bad.end())
        it = m_bad.insert(m_bad.end(), Bad{std::string(field), node.text, 0});
    ++it->count;
    return fallback;
}

QStringList FiniteNumbers::warnings() const
{
    QStringList out;
    for (const Bad &b : m_bad)
        out << QCoreApplication::translate("Parser",
                                           "%1: %2 is \"%3\", not a finite number (%n value(s)); read as 0",
                                           nullptr, b.count)
                   .arg(m_file, QString::fromStdString(b.field), QString::fromStdString(b.text));
    return out;
}

long long JsonNode::toInt(long long fallback) const
{
    if (const std::optional<long long> plain = plainNumber<long long>(*this))
        return *plain;
    if (type != Type::Number && type != Type::String)
        return fallback;
    bool ok = false;
    const long long v = QString::fromStdString(text).trimmed().toLongLong(&ok);
    return ok ? v : fallback;
}

bool readJsonFile(const QString &path, JsonNode &root, QString *error)
{
    return readJsonFile(path, root, error, JsonArrayFilter());
}

bool readJsonFile(const QString &path, JsonNode &root, QString *error, const JsonArrayFilter &filter)
{
    // MappedFile opens with O_NONBLOCK and maps regular files only: a FIFO named like a cluster file never
    // blocks (its message names the path and what it is).
    QString problem;
    const std::unique_ptr<MappedFile> mapped = MappedFile::openSmallInMemory(path, &problem);
    if (!mapped) {
        *error = problem;
        return false;
    }
    const simdjson::padded_string json(mapped->data(), mapped->size());
    if (mapped->truncated()) {
        *error = mapped->truncationMessage();
        return false;
    }
    od::parser parser;
    od::document doc;
    root = JsonNode{};
    if (parser.iterate(json).get(doc)) {
        *error = QCoreApplication::translate("Parser", "%1: not valid JSON").arg(path);
        return false;
    }
    // A document that is a bare scalar cannot be read as a value; every cluster file is an object.
    od::object object;
    if (doc.get_object().get(object)) {
        *error = QCoreApplication::translate("Parser", "%1: not a JSON object").arg(path);
        return false;
    }
    root.type = JsonNode::Type::Object;
    for (auto field : object) {
        std::string_view key;
        od::value inner;
        if (field.unescaped_key().get(key) || field.value().get(inner)) {
            *error = QCoreApplication::translate("Parser", "%1: not valid JSON").arg(path);
            return false;
        }
        root.members.emplace_back(std::string(key), JsonNode{});
        std::optional<ArrayFiltering> filtering;
        if (filter)
            filtering.emplace(ArrayFiltering{filter, {std::string(key)}});
        if (!convert(inner, root.members.back().second, 1, filtering ? &*filtering : nullptr)) {
            *error = QCoreApplication::translate("Parser", "%1: not valid JSON near key \"%2\"")
                         .arg(path, QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())));
            return false;
        }
    }
    return true;
}

namespace {

// The member-by-member reader behind streamJsonMembers: a small structural scanner walks the objects above
// the visited depth (keys, ':' and ',', strings with their escapes, nested brackets), and each visited
// member's text is parsed on its own with simdjson (which validates it) into a small JsonNode.
// The structural scanner under MemberStream and ValueWalker: it moves over the mapped text without building
// anything (strings with their escapes, nested brackets counted), gives the pages it passed back to the
// system, and words a run's errors. simdjson validates every piece a subclass parses.
class JsonScanner
{
protected:
    explicit JsonScanner(const MappedFile &file) : m_file(file), m_begin(file.data()), m_size(file.size()) {}

    // Runs walkDocument at the document's '{' and checks that nothing follows the document (unless the walk
    // stopped early); the error names the file and, when known, the key the text stopped being valid at.
    template <typename Walk> bool scanDocument(QString *error, Walk walkDocument)
    {
        skipSpace();
        if (m_pos >= m_size) {
            *error = QCoreApplication::translate("Parser", "%1: not valid JSON").arg(m_file.path());
            return false;
        }
        if (m_begin[m_pos] != '{') {
            *error = QCoreApplication::translate("Parser", "%1: not a JSON object").arg(m_file.path());
            return false;
        }
        bool ok = walkDocument();
        if (ok && !m_stopped) {
            skipSpace();
            ok = m_pos == m_size;
        }
        if (m_file.truncated()) {
            *error = m_file.truncationMessage();
            return false;
        }
        if (!ok) {
            *error = m_keys.empty()
                         ? QCoreApplication::translate("Parser", "%1: not valid JSON").arg(m_file.path())
                         : QCoreApplication::translate("Parser", "%1: not valid JSON near key \"%2\"")
                               .arg(m_file.path(), QString::fromStdString(m_keys.back()));
            return false;
        }
        return true;
    }

    static constexpr std::size_t kReleaseStep = std::size_t(8) << 20; // give pages back every 8 MiB

    char at() const { return m_pos < m_size ? m_begin[m_pos] : '\0'; }

    void skipSpace()
    {
        while (m_pos < m_size && (m_begin[m_pos] == ' ' || m_begin[m_pos] == '\n' || m_begin[m_pos] == '\r' ||
                                  m_begin[m_pos] == '\t'))
            ++m_pos;
    }

    // At '"': moves past the closing quote.
    bool skipString()
    {
        for (++m_pos; m_pos < m_size; ++m_pos) {
            skipToAnyOf<'"', '\\'>();
            if (m_pos >= m_size)
                break;
            if (m_begin[m_pos] == '\\')
                ++m_pos;
            else if (m_begin[m_pos] == '"') {
                ++m_pos;
                return true;
            }
        }
        return false;
    }

    // Moves m_pos to the next byte that is one of `chars` (at most 16 bytes before the end, where the
    // caller's byte loop takes over): 16 bytes at a time where SSE2 is there, so the scan of a file that is
    // mostly strings and numbers does not stop at each byte (the scan was a seventh of `--cluster --json` on
    // msprof-analyze's cluster_analysis_output/, issue #32). Without SSE2 it does nothing.
    template <char... chars> void skipToAnyOf()
    {
#if defined(__SSE2__)
        while (m_pos + 16 <= m_size) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_begin + m_pos));
            __m128i hit = _mm_setzero_si128();
            ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(chars)))), ...);
            if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit))) {
                m_pos += static_cast<std::size_t>(__builtin_ctz(mask));
                return;
            }
            m_pos += 16;
        }
#endif
    }

    // Moves past one value; brackets are only counted here, simdjson checks them when the value is parsed.
    bool skipValue()
    {
        int nesting = 0;
        while (m_pos < m_size) {
            if (nesting > 0) // inside an object or array only strings and brackets matter
                skipToAnyOf<'"', '{', '}', '[', ']'>();
            if (m_pos >= m_size)
                break;
            const char c = m_begin[m_pos];
            if (c == '"') {
                if (!skipString())
                    return false;
                if (nesting == 0)
                    return true;
                continue;
            }
            if (c == '{' || c == '[') {
                ++nesting;
            } else if (c == '}' || c == ']') {
                if (nesting == 0)
                    return true; // the end of the enclosing object or array: a scalar just ended
                if (--nesting == 0) {
                    ++m_pos;
                    return true;
                }
            } else if (nesting == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
                return true;
            }
            ++m_pos;
        }
        return nesting == 0;
    }

    // After a member or element: past its ',' (closed = false) or past the closing bracket (closed = true);
    // false when neither follows.
    bool pastSeparator(char close, bool &closed)
    {
        skipSpace();
        if (at() == ',') {
            ++m_pos;
            skipSpace();
            closed = false;
            return true;
        }
        if (at() != close)
            return false;
        ++m_pos;
        closed = true;
        return true;
    }

    // The page-aligned end before upTo when at least kReleaseStep has been passed since the last release,
    // else 0.
    std::size_t releasable(std::size_t upTo) const
    {
        static const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
        const std::size_t aligned = upTo / page * page;
        return aligned >= m_released + kReleaseStep ? aligned : 0;
    }

    // The scan never goes back: the file's pages before `aligned` are dropped from this process (a later
    // read would fault them in from the file again).
    void dropPagesBefore(std::size_t aligned)
    {
        ::madvise(const_cast<char *>(m_begin) + m_released, aligned - m_released, MADV_DONTNEED);
        m_released = aligned;
    }

    const MappedFile &m_file;
    const char *m_begin;
    std::size_t m_size;
    std::size_t m_pos = 0;
    std::size_t m_released = 0;
    std::vector<std::string> m_keys;
    std::string m_buffer;
    od::parser m_parser;
    bool m_stopped = false;
};

class MemberStream : JsonScanner
{
public:
    MemberStream(const MappedFile &file, int depth, const JsonMemberVisitor &visit)
        : JsonScanner(file), m_depth(depth), m_visit(visit)
    {}

    bool run(QString *error)
    {
        return scanDocument(error, [this] { return readObject(1); });
    }

private:
    // Parses `{<text>}` (one member) into key and value; false when it is not valid JSON.
    bool parseMember(std::size_t from, std::size_t to, std::string &key, JsonNode *value)
    {
        m_buffer.assign(1, '{');
        m_buffer.append(m_begin + from, to - from);
        if (!value)
            m_buffer.append(":0");
        m_buffer.push_back('}');
        const simdjson::padded_string text(m_buffer);
        od::document doc;
        od::object object;
        if (m_parser.iterate(text).get(doc) || doc.get_object().get(object))
            return false;
        int fields = 0;
        for (auto field : object) {
            std::string_view k;
            od::value inner;
            if (++fields > 1 || field.unescaped_key().get(k) || field.value().get(inner))
                return false;
            key.assign(k);
            JsonNode scratch;
            if (!convert(inner, value ? *value : scratch, 1))
                return false;
        }
        return fields == 1; // the scanner ends the text at the value's end: nothing can follow it
    }

    void release(std::size_t upTo)
    {
        if (const std::size_t aligned = releasable(upTo))
            dropPagesBefore(aligned);
    }

    // At '{' of an object of this level (1 = the document).
    bool readObject(int level)
    {
        ++m_pos;
        skipSpace();
        if (at() == '}') {
            ++m_pos;
            return true;
        }
        while (true) {
            if (at() != '"')
                return false;
            const std::size_t keyFrom = m_pos;
            if (!skipString())
                return false;
            const std::size_t keyTo = m_pos;
            skipSpace();
            if (at() != ':')
                return false;
            ++m_pos;
            skipSpace();
            release(keyFrom);
            std::string key;
            if (level == m_depth || at() != '{') {
                // A visited member, or a value above the depth that is not an object (checked, then passed
                // over).
                if (!skipValue())
                    return false;
                JsonNode value;
                if (!parseMember(keyFrom, m_pos, key, &value))
                    return false;
                if (level == m_depth) {
                    m_keys.push_back(std::move(key));
                    const bool more = m_visit(m_keys, value);
                    m_keys.pop_back();
                    if (!more) {
                        m_stopped = true;
                        return true;
                    }
                }
            } else {
                if (!parseMember(keyFrom, keyTo, key, nullptr))
                    return false;
                m_keys.push_back(std::move(key));
                if (!readObject(level + 1))
                    return false;
                m_keys.pop_back();
                if (m_stopped)
                    return true;
            }
            bool closed = false;
            if (!pastSeparator('}', closed))
                return false;
            if (closed)
                return true;
        }
    }

    int m_depth;
    const JsonMemberVisitor &m_visit;
};

} // namespace

bool streamJsonMembers(const QString &path, int depth, const JsonMemberVisitor &visit, QString *error)
{
    QString problem;
    const std::unique_ptr<MappedFile> mapped = MappedFile::openSmallInMemory(path, &problem);
    if (!mapped) {
        *error = problem;
        return false;
    }
    return MemberStream(*mapped, depth, visit).run(error);
}

namespace {

// The walker behind walkJsonFile: the structural scan of JsonScanner (strings with their escapes, nested
// brackets counted, simdjson validating each value it hands out), walking into the objects and arrays the
// caller chooses, with every byte passed to walk.bytes before its page is given back.
class ValueWalker : JsonScanner
{
public:
    ValueWalker(const MappedFile &file, const JsonWalk &walk) : JsonScanner(file), m_walk(walk) {}

    bool run(QString *error, bool *stopped)
    {
        if (!scanDocument(error, [this] { return walkObject(); }))
            return false;
        if (!m_stopped)
            pass(m_size);
        if (stopped)
            *stopped = m_stopped;
        return true;
    }

private:
    // Parses the text [from, to) as one JSON value (wrapped in an array: simdjson reads a scalar document
    // only as a scalar); false when it is not exactly one valid value.
    bool parseValue(std::size_t from, std::size_t to, JsonNode &value)
    {
        m_buffer.assign(1, '[');
        m_buffer.append(m_begin + from, to - from);
        m_buffer.push_back(']');
        const simdjson::padded_string text(m_buffer);
        od::document doc;
        od::array array;
        if (m_parser.iterate(text).get(doc) || doc.get_array().get(array))
            return false;
        int elements = 0;
        for (auto element : array) {
            od::value inner;
            if (++elements > 1 || element.get(inner) || !convert(inner, value, 1))
                return false;
        }
        return elements == 1;
    }

    // The key at [from, to) (a string token, quotes included), unescaped.
    bool parseKey(std::size_t from, std::size_t to, std::string &key)
    {
        JsonNode node;
        if (!parseValue(from, to, node) || node.type != JsonNode::Type::String)
            return false;
        key = std::move(node.text);
        return true;
    }

    // Hands the bytes before upTo to walk.bytes (once each).
    void pass(std::size_t upTo)
    {
        if (upTo <= m_passed)
            return;
        if (m_walk.bytes)
            m_walk.bytes(m_passed, std::string_view(m_begin + m_passed, upTo - m_passed));
        m_passed = upTo;
    }

    void release(std::size_t upTo)
    {
        if (const std::size_t aligned = releasable(upTo)) {
            pass(aligned);
            dropPagesBefore(aligned);
        }
    }

    // A value at m_pos: walked into (a member's object or array walkInto chooses) or given whole to
    // walk.member or walk.element.
    bool value(bool isMember)
    {
        const char c = at();
        if ((c == '{' || c == '[') && isMember && m_walk.walkInto && m_walk.walkInto(m_keys))
            return c == '{' ? walkObject() : walkArray();
        const std::size_t from = m_pos;
        if (!skipValue())
            return false;
        JsonNode node;
        if (!parseValue(from, m_pos, node))
            return false;
        const auto &visit = isMember ? m_walk.member : m_walk.element;
        if (visit && !visit(m_keys, node))
            m_stopped = true;
        return true;
    }

    // At '{': each member's value walked into or given whole to walk.member, with its key on m_keys.
    bool walkObject()
    {
        ++m_pos;
        skipSpace();
        if (at() == '}') {
            ++m_pos;
            return true;
        }
        while (true) {
            if (at() != '"')
                return false;
            const std::size_t keyFrom = m_pos;
            if (!skipString())
                return false;
            std::string key;
            if (!parseKey(keyFrom, m_pos, key))
                return false;
            skipSpace();
            if (at() != ':')
                return false;
            ++m_pos;
            skipSpace();
            release(keyFrom);
            m_keys.push_back(std::move(key));
            if (!value(true))
                return false;
            m_keys.pop_back();
            if (m_stopped)
                return true;
            bool closed = false;
            if (!pastSeparator('}', closed))
                return false;
            if (closed)
                return true;
        }
    }

    // At '[': each element given whole to walk.element, with the array's keys.
    bool walkArray()
    {
        ++m_pos;
        skipSpace();
        if (at() == ']') {
            ++m_pos;
            return true;
        }
        while (true) {
            release(m_pos);
            if (!value(false))
                return false;
            if (m_stopped)
                return true;
            bool closed = false;
            if (!pastSeparator(']', closed))
                return false;
            if (closed)
                return true;
        }
    }

    const JsonWalk &m_walk;
    std::size_t m_passed = 0;
};

} // namespace

bool walkJsonFile(const QString &path, const JsonWalk &walk, QString *error, bool *stopped)
{
    if (stopped)
        *stopped = false;
    QString problem;
    const std::unique_ptr<MappedFile> mapped = MappedFile::openSmallInMemory(path, &problem);
    if (!mapped) {
        *error = problem;
        return false;
    }
    return ValueWalker(*mapped, walk).run(error, stopped);
}

} // namespace at::cluster
