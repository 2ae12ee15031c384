#include "Session.h"

#include "HugePages.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

namespace at {

namespace {

QString colorText(std::uint32_t rgb)
{
    return QStringLiteral("#%1").arg(rgb & 0xFFFFFF, 6, 16, QLatin1Char('0'));
}

std::optional<std::uint32_t> parseColor(const QString &text)
{
    if (text.size() != 7 || !text.startsWith(QLatin1Char('#')))
        return std::nullopt;
    bool ok = false;
    const uint v = text.mid(1).toUInt(&ok, 16);
    return ok ? std::optional<std::uint32_t>(v) : std::nullopt;
}

// Times as decimal strings: JSON numbers are doubles and would round int64 ns.
QString timeText(TimeNs t)
{
    return QString::number(t);
}

} // namespace

QByteArray sessionToJson(const Session &s)
{
    QJsonObject root;
    root[QStringLiteral("ascendTimelineSession")] = Session::kVersion;
    root[QStringLiteral("paths")] = QJsonArray::fromStringList(s.paths);
    if (!s.rankFolders.isEmpty())
        root[QStringLiteral("rankFolders")] = QJsonArray::fromStringList(s.rankFolders);
    if (!s.rankOffsets.empty()) {
        QJsonArray offsets;
        for (const RankOffset &o : s.rankOffsets)
            offsets.append(QJsonObject{{QStringLiteral("group"), o.group},
                                       {QStringLiteral("offsetNs"), timeText(o.offset)}});
        root[QStringLiteral("rankOffsets")] = offsets;
    }
    root[QStringLiteral("view")] = QJsonObject{{QStringLiteral("beginNs"), timeText(s.viewBegin)},
                                               {QStringLiteral("endNs"), timeText(s.viewEnd)}};
    root[QStringLiteral("originUs")] = s.originText;
    root[QStringLiteral("collapsedProcesses")] = QJsonArray::fromStringList(s.collapsedProcesses);
    root[QStringLiteral("collapsedGroups")] = QJsonArray::fromStringList(s.collapsedGroups);
    root[QStringLiteral("pinnedProcesses")] = QJsonArray::fromStringList(s.pinnedProcesses);
    root[QStringLiteral("processOrder")] = QJsonArray::fromStringList(s.processOrder);
    root[QStringLiteral("hiddenProcesses")] = QJsonArray::fromStringList(s.hiddenProcesses);
    root[QStringLiteral("hiddenThreads")] = QJsonArray::fromStringList(s.hiddenThreads);
    QJsonArray markers;
    for (const Marker &m : s.markers)
        markers.append(QJsonObject{{QStringLiteral("name"), m.name},
                                   {QStringLiteral("beginNs"), timeText(m.begin)},
                                   {QStringLiteral("endNs"), timeText(m.end)},
                                   {QStringLiteral("color"), colorText(m.rgb)}});
    root[QStringLiteral("markers")] = markers;
    QJsonArray rules;
    for (const ColorRule &r : s.colorRules)
        rules.append(
            QJsonObject{{QStringLiteral("pattern"), r.pattern}, {QStringLiteral("color"), colorText(r.rgb)}});
    root[QStringLiteral("colorRules")] = rules;
    if (s.compare)
        root[QStringLiteral("compare")] =
            QJsonObject{{QStringLiteral("baseStep"), QString::number(s.compare->baseStep)},
                        {QStringLiteral("comparisonPath"), s.compare->comparisonPath},
                        {QStringLiteral("comparisonStep"), QString::number(s.compare->comparisonStep)},
                        {QStringLiteral("matchShapes"), s.compare->matchShapes}};
    if (!s.queries.empty()) {
        QJsonArray queries;
        for (const NamedQuery &q : s.queries)
            queries.append(QJsonObject{{QStringLiteral("name"), q.name}, {QStringLiteral("sql"), q.sql}});
        root[QStringLiteral("queries")] = queries;
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

namespace {

// Qt's JSON values: the reader of every session before issue 29 (item 8). It still reads what simdjson
// refuses (so its parse messages are the ones a user sees) and what the fast reader cannot match exactly.
class QtJson
{
public:
    using Value = QJsonValue;

    static Value member(const Value &object, QLatin1StringView key) { return object.toObject().value(key); }
    static bool contains(const Value &object, QLatin1StringView key)
    {
        return object.toObject().contains(key);
    }
    static QString text(const Value &v) { return v.toString(); }
    static std::optional<TimeNs> integerText(const Value &v) { return parseInteger(v.toString()); }
    static std::optional<std::uint32_t> color(const Value &v) { return parseColor(v.toString()); }
    static int integer(const Value &v) { return v.toInt(0); }
    static bool boolean(const Value &v) { return v.toBool(); }
    template <typename Visit> static void forEach(const Value &array, Visit &&visit)
    {
        for (const QJsonValue &e : array.toArray())
            visit(e);
    }

private:
    static std::optional<TimeNs> parseInteger(const QString &text)
    {
        bool ok = false;
        const qlonglong t = text.toLongLong(&ok);
        return ok ? std::optional<TimeNs>(t) : std::nullopt;
    }
};

// simdjson's DOM, read with Qt's rules: a missing member, or one of another type, reads as Qt's Undefined
// would (an empty string, no number); of duplicate keys the last wins (as in QJsonObject). Texts the writer
// writes ("123", "#e6550d") are read without a QString; anything else goes through Qt's conversion.
class SimdJson
{
public:
    using Value = std::optional<simdjson::dom::element>;

    static Value member(const Value &object, QLatin1StringView key)
    {
        simdjson::dom::object fields;
        if (!object || object->get_object().get(fields) != simdjson::SUCCESS)
            return std::nullopt;
        const std::string_view wanted(key.data(), static_cast<std::size_t>(key.size()));
        Value found;
        for (const simdjson::dom::key_value_pair field : fields)
            if (field.key == wanted)
                found = field.value;
        return found;
    }
    static bool contains(const Value &object, QLatin1StringView key)
    {
        simdjson::dom::object fields;
        if (!object || object->get_object().get(fields) != simdjson::SUCCESS)
            return false;
        const std::string_view wanted(key.data(), static_cast<std::size_t>(key.size()));
        for (const simdjson::dom::key_value_pair field : fields)
            if (field.key == wanted)
                return true;
        return false;
    }
    QString text(const Value &v)
    {
        const std::string_view utf8 = view(v);
        if (utf8.empty())
            return {};
        // A text equal to the one before (the same marker name many times in a row) shares its QString.
        if (utf8 != m_lastText) {
            m_lastText = utf8;
            m_lastString = QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size()));
        }
        return m_lastString;
    }
    static std::optional<TimeNs> integerText(const Value &v)
    {
        const std::string_view utf8 = view(v);
        if (const auto fast = plainInteger(utf8))
            return fast;
        bool ok = false;
        const qlonglong t =
            QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size())).toLongLong(&ok);
        return ok ? std::optional<TimeNs>(t) : std::nullopt;
    }
    static std::optional<std::uint32_t> color(const Value &v)
    {
        const std::string_view utf8 = view(v);
        if (const auto fast = plainColor(utf8))
            return fast;
        return parseColor(QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size())));
    }
    // QJsonValue::toInt(0): an integer, or a double with an integral value, in int's range; else 0.
    static int integer(const Value &v)
    {
        if (!v)
            return 0;
        std::int64_t i = 0;
        if (v->get_int64().get(i) == simdjson::SUCCESS)
            return i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max() ? int(i) : 0;
        double d = 0;
        if (v->is_double() && v->get_double().get(d) == simdjson::SUCCESS && std::trunc(d) == d &&
            d >= std::numeric_limits<int>::min() && d <= std::numeric_limits<int>::max())
            return int(d);
        return 0;
    }
    static bool boolean(const Value &v)
    {
        bool b = false;
        return v && v->get_bool().get(b) == simdjson::SUCCESS && b;
    }
    template <typename Visit> static void forEach(const Value &array, Visit &&visit)
    {
        simdjson::dom::array elements;
        if (!array || array->get_array().get(elements) != simdjson::SUCCESS)
            return;
        for (const simdjson::dom::element e : elements)
            visit(Value(e));
    }

private:
    static std::string_view view(const Value &v)
    {
        std::string_view utf8;
        if (!v || v->get_string().get(utf8) != simdjson::SUCCESS)
            return {};
        return utf8;
    }
    // "-123" or "123" with at most 18 digits (what the writer writes; no overflow possible): its value.
    // Anything else (empty, '+', spaces, longer) is left to QString::toLongLong.
    static std::optional<TimeNs> plainInteger(std::string_view text)
    {
        const bool negative = !text.empty() && text.front() == '-';
        const std::string_view digits = text.substr(negative ? 1 : 0);
        if (digits.empty() || digits.size() > 18)
            return std::nullopt;
        TimeNs value = 0;
        for (const char c : digits) {
            if (c < '0' || c > '9')
                return std::nullopt;
            value = value * 10 + (c - '0');
        }
        return negative ? -value : value;
    }
    // "#rrggbb" with six hex digits: its value. Anything else is left to parseColor.
    static std::optional<std::uint32_t> plainColor(std::string_view text)
    {
        if (text.size() != 7 || text.front() != '#')
            return std::nullopt;
        std::uint32_t value = 0;
        for (const char c : text.substr(1)) {
            const int digit = c >= '0' && c <= '9'   ? c - '0'
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                     : -1;
            if (digit < 0)
                return std::nullopt;
            value = value << 4 | static_cast<std::uint32_t>(digit);
        }
        return value;
    }

    std::string_view m_lastText; // a view into the parser's string buffer
    QString m_lastString;
};

// The session's rules, once for both readers: what is required, what is refused, what a damaged entry
// costs (only itself).
template <typename Json>
std::optional<Session> readSession(Json &json, const typename Json::Value &root, QString *error)
{
    using Value = typename Json::Value;
    const auto strings = [&json](const Value &v) {
        QStringList out;
        Json::forEach(v, [&](const Value &e) { out << json.text(e); });
        return out;
    };
    const auto member = [](const Value &object, const char *key) {
        return Json::member(object, QLatin1StringView(key));
    };
    const int version = Json::integer(member(root, "ascendTimelineSession"));
    if (version < 1) {
        *error = QCoreApplication::translate(
            "Core", "not an Ascend Timeline session (no \"ascendTimelineSession\" version)");
        return std::nullopt;
    }
    if (version > Session::kVersion) {
        *error = QCoreApplication::translate("Core",
                                             "session version %1 is newer than this program understands (%2)")
                     .arg(version)
                     .arg(Session::kVersion);
        return std::nullopt;
    }
    Session s;
    s.paths = strings(member(root, "paths"));
    if (s.paths.isEmpty()) {
        *error = QCoreApplication::translate("Core", "the session names no trace file or folder");
        return std::nullopt;
    }
    if (s.paths.first().trimmed().isEmpty()) { // opening "" said only ": no such file or folder"
        *error = QCoreApplication::translate("Core", "the session's path is empty: it names no trace file or "
                                                     "folder");
        return std::nullopt;
    }
    s.rankFolders = strings(member(root, "rankFolders"));
    Json::forEach(member(root, "rankOffsets"), [&](const Value &o) {
        const auto offset = Json::integerText(member(o, "offsetNs"));
        const QString group = json.text(member(o, "group"));
        if (offset && !group.isEmpty()) // a damaged entry is skipped, the rest still opens
            s.rankOffsets.push_back({group, *offset});
    });
    const Value view = member(root, "view");
    const auto begin = Json::integerText(member(view, "beginNs"));
    const auto end = Json::integerText(member(view, "endNs"));
    if (begin && end && *end > *begin) {
        s.viewBegin = *begin;
        s.viewEnd = *end;
    }
    s.originText = json.text(member(root, "originUs"));
    s.collapsedProcesses = strings(member(root, "collapsedProcesses"));
    s.collapsedGroups = strings(member(root, "collapsedGroups"));
    s.pinnedProcesses = strings(member(root, "pinnedProcesses"));
    s.processOrder = strings(member(root, "processOrder"));
    s.hiddenProcesses = strings(member(root, "hiddenProcesses"));
    s.hiddenThreads = strings(member(root, "hiddenThreads"));
    Json::forEach(member(root, "markers"), [&](const Value &o) {
        const auto mb = Json::integerText(member(o, "beginNs"));
        const auto me = Json::integerText(member(o, "endNs"));
        if (!mb || !me || *me < *mb)
            return; // a damaged marker is skipped, the rest of the session still opens
        Marker m;
        m.name = json.text(member(o, "name"));
        m.begin = *mb;
        m.end = *me;
        if (const auto c = Json::color(member(o, "color")))
            m.rgb = *c;
        s.markers.push_back(std::move(m));
    });
    Json::forEach(member(root, "colorRules"), [&](const Value &o) {
        const auto c = Json::color(member(o, "color"));
        const QString pattern = json.text(member(o, "pattern"));
        if (c && !pattern.isEmpty())
            s.colorRules.push_back({pattern, *c});
    });
    Json::forEach(member(root, "queries"), [&](const Value &o) {
        NamedQuery q{json.text(member(o, "name")), json.text(member(o, "sql"))};
        if (!q.name.isEmpty() && !q.sql.isEmpty()) // a damaged entry is skipped
            s.queries.push_back(std::move(q));
    });
    if (Json::contains(root, QLatin1StringView("compare"))) {
        const Value c = member(root, "compare");
        CompareSetup setup;
        setup.baseStep = Json::integerText(member(c, "baseStep")).value_or(0);
        setup.comparisonPath = json.text(member(c, "comparisonPath"));
        setup.comparisonStep = Json::integerText(member(c, "comparisonStep")).value_or(0);
        setup.matchShapes = Json::boolean(member(c, "matchShapes"));
        s.compare = setup;
    }
    return s;
}

// Deeper text is left to Qt's parser (a session nests 3 levels; Qt refuses 1,024 and more).
constexpr std::size_t kFastMaxDepth = 64;

// Where simdjson and Qt's parser could disagree on what is JSON or on a value, Qt's reader decides: a number
// that is not a plain int64 (Qt refuses "1e-400", which simdjson reads as 0). Nesting is bounded by
// kFastMaxDepth, so the walk is too.
bool onlyPlainIntegers(const simdjson::dom::element &e)
{
    switch (e.type()) {
    case simdjson::dom::element_type::DOUBLE:
    case simdjson::dom::element_type::UINT64:
        return false;
    case simdjson::dom::element_type::ARRAY: {
        simdjson::dom::array elements;
        if (e.get_array().get(elements) != simdjson::SUCCESS)
            return false;
        for (const simdjson::dom::element child : elements)
            if (!onlyPlainIntegers(child))
                return false;
        return true;
    }
    case simdjson::dom::element_type::OBJECT: {
        simdjson::dom::object fields;
        if (e.get_object().get(fields) != simdjson::SUCCESS)
            return false;
        for (const simdjson::dom::key_value_pair field : fields)
            if (!onlyPlainIntegers(field.value))
                return false;
        return true;
    }
    default:
        return true;
    }
}

// "\ud800" (a lone surrogate) is kept by Qt and read otherwise by simdjson: such text goes to Qt.
bool hasSurrogateEscape(const QByteArray &json)
{
    const char *p = json.constData();
    const char *const end = p + json.size();
    while ((p = static_cast<const char *>(std::memchr(p, '\\', static_cast<std::size_t>(end - p))))) {
        if (end - p >= 3 && p[1] == 'u' && (p[2] == 'd' || p[2] == 'D'))
            return true;
        p += 2; // an escape is two characters at least ("\\\\" must not be read as the start of another)
        if (p >= end)
            break;
    }
    return false;
}

std::optional<Session> sessionFromQtJson(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull()) {
        *error = QCoreApplication::translate("Core", "not JSON (%1 at byte %2)")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return std::nullopt;
    }
    QtJson reader;
    return readSession(reader, QJsonValue(doc.object()), error);
}

} // namespace

// A session of 1,000,000 markers took 11 s in QJsonDocument (one QJsonObject per marker): it is read with
// simdjson's DOM and Qt's rules (readSession). Text simdjson refuses or could read otherwise than Qt goes
// to Qt's reader, so every refusal and its message are as before.
std::optional<Session> sessionFromJson(const QByteArray &json, QString *error)
{
    if (hasSurrogateEscape(json))
        return sessionFromQtJson(json, error);
    simdjson::dom::parser parser;
    const auto size = static_cast<std::size_t>(json.size());
    if (parser.allocate(std::max<std::size_t>(size, simdjson::dom::MINIMAL_DOCUMENT_CAPACITY),
                        kFastMaxDepth) != simdjson::SUCCESS)
        return sessionFromQtJson(json, error);
    // A large session's tape, strings and structural indexes are first written by the parse: advised as huge
    // pages (core/HugePages.h), that is a fault per 2 MiB instead of one per 4 KiB, which were most of the
    // parse on these machines. Lower bounds of simdjson's sizes for capacity `size`: only whole huge pages
    // inside them are advised.
    adviseHugePages(parser.doc.tape.get(), size * sizeof(std::uint64_t));
    adviseHugePages(parser.doc.string_buf.get(), size);
    if (parser.implementation)
        adviseHugePages(parser.implementation->structural_indexes.get(), size * sizeof(std::uint32_t));
    // The text is copied into a padded buffer unless the array already has simdjson's padding behind it.
    const bool padded = static_cast<std::size_t>(json.capacity() - json.size()) >= simdjson::SIMDJSON_PADDING;
    simdjson::dom::element root;
    if (parser.parse(json.constData(), size, !padded).get(root) != simdjson::SUCCESS ||
        !(root.is_object() || root.is_array()) || !onlyPlainIntegers(root))
        return sessionFromQtJson(json, error);
    SimdJson reader;
    return readSession(reader, SimdJson::Value(root), error);
}

std::optional<Session> sessionFromJsonWithQt(const QByteArray &json, QString *error)
{
    return sessionFromQtJson(json, error);
}

} // namespace at
