#include "config/ConfigFiles.h"

#include "common/MappedFile.h"
#include "common/MessageText.h"
#include "csv/CsvReader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <memory>

namespace at::config {
namespace {

constexpr qint64 kCsvHeaderBytes = qint64(1024) * 1024;

std::optional<int> toInt(const QString &digits)
{
    bool ok = false;
    const int v = digits.toInt(&ok);
    return ok ? std::optional<int>(v) : std::nullopt;
}

QByteArray withoutBom(const QByteArray &bytes)
{
    return bytes.startsWith("\xEF\xBB\xBF") ? bytes.mid(3) : bytes;
}

// Drops commas that are followed (after blanks) by '}' or ']', outside strings.
QByteArray withoutTrailingCommas(const QByteArray &in)
{
    QByteArray out;
    out.reserve(in.size());
    bool inString = false;
    for (qsizetype i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (inString) {
            out.append(c);
            if (c == '\\' && i + 1 < in.size()) {
                out.append(in[++i]);
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == ',') {
            qsizetype j = i + 1;
            while (j < in.size() && (in[j] == ' ' || in[j] == '\t' || in[j] == '\r' || in[j] == '\n'))
                ++j;
            if (j < in.size() && (in[j] == '}' || in[j] == ']'))
                continue;
        }
        out.append(c);
    }
    return out;
}

QString jsonTypeName(const QJsonDocument &doc)
{
    if (doc.isArray())
        return QCoreApplication::translate("Parser", "an array");
    return QCoreApplication::translate("Parser", "a bare value");
}

bool tryParseObject(const QByteArray &bytes, QJsonObject *object, QJsonParseError *error,
                    QString *typeProblem)
{
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, error);
    if (error->error != QJsonParseError::NoError)
        return false;
    if (!doc.isObject()) {
        *typeProblem =
            QCoreApplication::translate("Parser", "expected a JSON object, found %1").arg(jsonTypeName(doc));
        return false;
    }
    *object = doc.object();
    return true;
}

} // namespace

ConfigFileName classifyConfigFile(const QString &path)
{
    static const QRegularExpression re(QStringLiteral(
        R"(^(?:(sample\.json)|(info\.json)(?:\.(\d{1,6}))?|(start_info)(?:\.(\d{1,6}))?|(end_info)(?:\.(\d{1,6}))?)"
        R"(|(host_start\.log)|(dev_start\.log)(?:\.(\d{1,6}))?|(profiler_info)(?:_(\d{1,5}))?\.json)"
        R"(|(profiler_metadata\.json))$)"));
    ConfigFileName out;
    const QString name = QFileInfo(path).fileName();
    const QRegularExpressionMatch m = re.match(name);
    if (!m.hasMatch())
        return out;
    if (m.capturedLength(1)) {
        out.kind = ConfigFileKind::SampleJson;
    } else if (m.capturedLength(2)) {
        out.kind = ConfigFileKind::InfoJson;
        out.device = toInt(m.captured(3));
    } else if (m.capturedLength(4)) {
        out.kind = ConfigFileKind::StartInfo;
        out.device = toInt(m.captured(5));
    } else if (m.capturedLength(6)) {
        out.kind = ConfigFileKind::EndInfo;
        out.device = toInt(m.captured(7));
    } else if (m.capturedLength(8)) {
        out.kind = ConfigFileKind::HostStartLog;
    } else if (m.capturedLength(9)) {
        out.kind = ConfigFileKind::DevStartLog;
        out.device = toInt(m.captured(10));
    } else if (m.capturedLength(11)) {
        out.kind = ConfigFileKind::ProfilerInfo;
        out.rank = toInt(m.captured(12));
    } else if (m.capturedLength(13)) {
        out.kind = ConfigFileKind::ProfilerMetadata;
    }
    return out;
}

// Opens PATH through MappedFile (O_NONBLOCK, regular files only), so a FIFO, socket or device named like a
// configuration file never blocks the load. The problem is phrased without the path (the caller names it).
static std::unique_ptr<MappedFile> openRegularFile(const QString &path, QString *problem)
{
    QString error;
    std::unique_ptr<MappedFile> mapped = MappedFile::open(path, &error);
    if (!mapped) {
        for (const QString &prefix : {path + QStringLiteral(": "), path + QLatin1Char(' ')}) {
            if (error.startsWith(prefix)) {
                error = error.mid(prefix.size());
                break;
            }
        }
        *problem = error.startsWith(QStringLiteral("is ")) ? QStringLiteral("it ") + error : error;
    }
    return mapped;
}

bool readSmallFile(const QString &path, QByteArray *bytes, QString *problem)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        *problem = QCoreApplication::translate("Parser", "the file does not exist");
        return false;
    }
    if (info.isDir()) {
        *problem = QCoreApplication::translate("Parser", "it is a folder, not a file");
        return false;
    }
    if (info.size() > kMaxConfigFileBytes) {
        *problem =
            QCoreApplication::translate("Parser", "the file is too large for a configuration file (%1 bytes)")
                .arg(info.size());
        return false;
    }
    QString error;
    const std::unique_ptr<MappedFile> mapped = openRegularFile(path, &error);
    if (!mapped) {
        *problem = error;
        return false;
    }
    // Copy at most one byte past the limit: a file that grew since the stat is still refused as too large.
    *bytes =
        QByteArray(mapped->data(),
                   qsizetype(std::min<std::size_t>(mapped->size(), std::size_t(kMaxConfigFileBytes) + 1)));
    if (mapped->truncated()) {
        *problem = mapped->truncationMessage();
        return false;
    }
    if (bytes->size() > kMaxConfigFileBytes) {
        *problem = QCoreApplication::translate("Parser", "the file is too large for a configuration file");
        return false;
    }
    if (bytes->trimmed().isEmpty()) {
        *problem = QCoreApplication::translate("Parser", "the file is empty");
        return false;
    }
    return true;
}

JsonFile parseJsonObject(const QByteArray &raw)
{
    JsonFile out;
    const QByteArray bytes = withoutBom(raw).trimmed();
    if (bytes.isEmpty()) {
        out.problem = QCoreApplication::translate("Parser", "the file is empty");
        return out;
    }
    if (bytes.contains('\0')) {
        out.problem = QCoreApplication::translate("Parser", "not a text file (it contains NUL bytes)");
        return out;
    }
    QJsonParseError error{};
    QString typeProblem;
    if (tryParseObject(bytes, &out.object, &error, &typeProblem))
        return out;
    if (!typeProblem.isEmpty()) {
        out.problem = typeProblem;
        return out;
    }
    const QJsonParseError firstError = error;

    // msprof reads only the first line of info.json: accept whatever follows a complete first line.
    const qsizetype eol = bytes.indexOf('\n');
    if (eol > 0) {
        QJsonParseError lineError{};
        QString lineTypeProblem;
        if (tryParseObject(bytes.left(eol).trimmed(), &out.object, &lineError, &lineTypeProblem))
            return out;
    }
    // Trailing commas (hand-edited files).
    const QByteArray relaxed = withoutTrailingCommas(bytes);
    if (relaxed.size() != bytes.size()) {
        QJsonParseError relaxedError{};
        QString relaxedTypeProblem;
        if (tryParseObject(relaxed, &out.object, &relaxedError, &relaxedTypeProblem))
            return out;
    }
    out.object = QJsonObject();
    // The text around the error names the value that stopped the parse (an hwts_frequency of 1e400 or NaN
    // is no JSON number): "at byte 412" alone left the user counting bytes.
    const qsizetype from = std::max<qsizetype>(0, firstError.offset - 24);
    const qsizetype to = std::min<qsizetype>(bytes.size(), qsizetype(firstError.offset) + 8);
    out.problem = QCoreApplication::translate("Parser", "not valid JSON (%1 at byte %2, near \"%3\")")
                      .arg(firstError.errorString())
                      .arg(firstError.offset)
                      .arg(printableText(QString::fromUtf8(bytes.mid(from, to - from)).simplified(), 40));
    return out;
}

JsonFile loadJsonObject(const QString &path)
{
    JsonFile out;
    QByteArray bytes;
    if (!readSmallFile(path, &bytes, &out.problem))
        return out;
    return parseJsonObject(bytes);
}

QString IniFile::value(const QString &key) const
{
    for (const Entry &e : entries) {
        if (e.key == key)
            return e.value;
    }
    return {};
}

IniFile parseIniText(const QByteArray &raw)
{
    IniFile out;
    const QByteArray bytes = withoutBom(raw);
    if (bytes.contains('\0')) {
        out.problem = QCoreApplication::translate("Parser", "not a text file (it contains NUL bytes)");
        return out;
    }
    QString section;
    const QList<QByteArray> lines = bytes.split('\n');
    for (const QByteArray &rawLine : lines) {
        const QString line = QString::fromUtf8(rawLine).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')) || line.startsWith(QLatin1Char(';')))
            continue;
        if (line.startsWith(QLatin1Char('[')) && line.endsWith(QLatin1Char(']'))) {
            section = line.mid(1, line.size() - 2).trimmed();
            continue;
        }
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        qsizetype sep = colon;
        if (sep < 0 || (equals >= 0 && equals < sep))
            sep = equals;
        if (sep <= 0)
            continue;
        out.entries.append({section, line.left(sep).trimmed(), line.mid(sep + 1).trimmed()});
    }
    if (out.entries.isEmpty())
        out.problem = bytes.trimmed().isEmpty()
                          ? QCoreApplication::translate("Parser", "the file is empty")
                          : QCoreApplication::translate("Parser", "no \"key: value\" lines found");
    return out;
}

IniFile loadIniFile(const QString &path)
{
    IniFile out;
    QByteArray bytes;
    if (!readSmallFile(path, &bytes, &out.problem))
        return out;
    return parseIniText(bytes);
}

CsvHeader readCsvHeader(const QString &path)
{
    CsvHeader out;
    const QFileInfo info(path);
    if (!info.exists()) {
        out.problem = QCoreApplication::translate("Parser", "the file does not exist");
        return out;
    }
    if (info.isDir()) {
        out.problem = QCoreApplication::translate("Parser", "it is a folder, not a file");
        return out;
    }
    QString error;
    const std::unique_ptr<MappedFile> mapped = openRegularFile(path, &error);
    if (!mapped) {
        out.problem = error;
        return out;
    }
    const QByteArray chunk(mapped->data(),
                           qsizetype(std::min<std::size_t>(mapped->size(), std::size_t(kCsvHeaderBytes))));
    // End of the first record: the first line feed outside quotes.
    qsizetype end = chunk.size();
    bool quoted = false;
    for (qsizetype i = 0; i < chunk.size(); ++i) {
        if (chunk[i] == '"') {
            quoted = !quoted;
        } else if (chunk[i] == '\n' && !quoted) {
            end = i + 1;
            break;
        }
    }
    const QByteArray record = chunk.left(end);
    if (withoutBom(record).trimmed().isEmpty()) {
        out.problem = QCoreApplication::translate("Parser", "the file is empty");
        return out;
    }
    const CsvTable table =
        CsvReader().parse(std::string_view(record.constData(), std::size_t(record.size())), path);
    for (const std::string &cell : table.header())
        out.cells.append(QString::fromUtf8(cell.data(), qsizetype(cell.size())).trimmed());
    if (out.cells.isEmpty())
        out.problem = QCoreApplication::translate("Parser", "no header row found");
    return out;
}

QString jsonText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString().trimmed();
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const QVariant v = value.toVariant();
        if (v.typeId() == QMetaType::LongLong)
            return QString::number(v.toLongLong());
        const double d = value.toDouble();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15)
            return QString::number(static_cast<qint64>(d));
        return QString::number(d, 'g', 15);
    }
    case QJsonValue::Array: {
        QStringList parts;
        for (const QJsonValue &v : value.toArray()) {
            const QString t = jsonText(v);
            if (!t.isEmpty())
                parts.append(t);
        }
        return parts.join(QStringLiteral(", "));
    }
    case QJsonValue::Null:
    case QJsonValue::Object:
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

std::optional<qint64> jsonInteger(const QJsonValue &value)
{
    if (value.isDouble()) {
        const QVariant v = value.toVariant();
        if (v.typeId() == QMetaType::LongLong)
            return v.toLongLong();
        const double d = value.toDouble();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18)
            return static_cast<qint64>(d);
        return std::nullopt;
    }
    if (value.isString()) {
        const QString s = value.toString().trimmed();
        bool ok = false;
        const qint64 v = s.toLongLong(&ok);
        if (ok)
            return v;
        const double d = s.toDouble(&ok);
        if (ok && std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18)
            return static_cast<qint64>(d);
    }
    return std::nullopt;
}

std::optional<bool> jsonBool(const QJsonValue &value)
{
    if (value.isBool())
        return value.toBool();
    if (value.isDouble())
        return value.toDouble() != 0.0;
    if (value.isString()) {
        const QString s = value.toString().trimmed().toLower();
        if (s == QLatin1String("true") || s == QLatin1String("on") || s == QLatin1String("1") ||
            s == QLatin1String("yes"))
            return true;
        if (s.isEmpty() || s == QLatin1String("false") || s == QLatin1String("off") ||
            s == QLatin1String("0") || s == QLatin1String("no"))
            return false;
    }
    return std::nullopt;
}

QJsonValue jsonAt(const QJsonObject &root, const QString &path)
{
    const QStringList keys = path.split(QLatin1Char('/'));
    QJsonObject current = root;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const QJsonValue v = current.value(keys[i]);
        if (i + 1 == keys.size())
            return v;
        if (!v.isObject())
            return QJsonValue(QJsonValue::Undefined);
        current = v.toObject();
    }
    return QJsonValue(QJsonValue::Undefined);
}

QString utcDateFromMicroseconds(qint64 us)
{
    const qint64 seconds = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
    const qint64 fraction = us - seconds * 1000000;
    const QDateTime t = QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
    return t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) + QLatin1Char('.') +
           QStringLiteral("%1").arg(fraction, 6, 10, QLatin1Char('0')) + QStringLiteral(" UTC");
}

} // namespace at::config
