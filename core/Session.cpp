#include "Session.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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

std::optional<TimeNs> parseTime(const QJsonValue &v)
{
    bool ok = false;
    const qlonglong t = v.toString().toLongLong(&ok);
    return ok ? std::optional<TimeNs>(t) : std::nullopt;
}

QStringList stringList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out << e.toString();
    return out;
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
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::optional<Session> sessionFromJson(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull()) {
        *error = QCoreApplication::translate("Core", "not JSON (%1 at byte %2)")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    const int version = root.value(QStringLiteral("ascendTimelineSession")).toInt(0);
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
    s.paths = stringList(root.value(QStringLiteral("paths")));
    if (s.paths.isEmpty()) {
        *error = QCoreApplication::translate("Core", "the session names no trace file or folder");
        return std::nullopt;
    }
    if (s.paths.first().trimmed().isEmpty()) { // opening "" said only ": no such file or folder"
        *error = QCoreApplication::translate("Core", "the session's path is empty: it names no trace file or "
                                                     "folder");
        return std::nullopt;
    }
    s.rankFolders = stringList(root.value(QStringLiteral("rankFolders")));
    for (const QJsonValue &v : root.value(QStringLiteral("rankOffsets")).toArray()) {
        const QJsonObject o = v.toObject();
        const auto offset = parseTime(o.value(QStringLiteral("offsetNs")));
        const QString group = o.value(QStringLiteral("group")).toString();
        if (offset && !group.isEmpty()) // a damaged entry is skipped, the rest still opens
            s.rankOffsets.push_back({group, *offset});
    }
    const QJsonObject view = root.value(QStringLiteral("view")).toObject();
    const auto begin = parseTime(view.value(QStringLiteral("beginNs")));
    const auto end = parseTime(view.value(QStringLiteral("endNs")));
    if (begin && end && *end > *begin) {
        s.viewBegin = *begin;
        s.viewEnd = *end;
    }
    s.originText = root.value(QStringLiteral("originUs")).toString();
    s.collapsedProcesses = stringList(root.value(QStringLiteral("collapsedProcesses")));
    s.collapsedGroups = stringList(root.value(QStringLiteral("collapsedGroups")));
    s.pinnedProcesses = stringList(root.value(QStringLiteral("pinnedProcesses")));
    s.processOrder = stringList(root.value(QStringLiteral("processOrder")));
    s.hiddenProcesses = stringList(root.value(QStringLiteral("hiddenProcesses")));
    s.hiddenThreads = stringList(root.value(QStringLiteral("hiddenThreads")));
    for (const QJsonValue &v : root.value(QStringLiteral("markers")).toArray()) {
        const QJsonObject o = v.toObject();
        const auto mb = parseTime(o.value(QStringLiteral("beginNs")));
        const auto me = parseTime(o.value(QStringLiteral("endNs")));
        if (!mb || !me || *me < *mb)
            continue; // a damaged marker is skipped, the rest of the session still opens
        Marker m;
        m.name = o.value(QStringLiteral("name")).toString();
        m.begin = *mb;
        m.end = *me;
        if (const auto c = parseColor(o.value(QStringLiteral("color")).toString()))
            m.rgb = *c;
        s.markers.push_back(m);
    }
    for (const QJsonValue &v : root.value(QStringLiteral("colorRules")).toArray()) {
        const QJsonObject o = v.toObject();
        const auto c = parseColor(o.value(QStringLiteral("color")).toString());
        const QString pattern = o.value(QStringLiteral("pattern")).toString();
        if (c && !pattern.isEmpty())
            s.colorRules.push_back({pattern, *c});
    }
    if (root.contains(QStringLiteral("compare"))) {
        const QJsonObject c = root.value(QStringLiteral("compare")).toObject();
        CompareSetup setup;
        setup.baseStep = c.value(QStringLiteral("baseStep")).toString().toLongLong();
        setup.comparisonPath = c.value(QStringLiteral("comparisonPath")).toString();
        setup.comparisonStep = c.value(QStringLiteral("comparisonStep")).toString().toLongLong();
        setup.matchShapes = c.value(QStringLiteral("matchShapes")).toBool();
        s.compare = setup;
    }
    return s;
}

} // namespace at
