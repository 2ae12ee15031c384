#include "JsonWriter.h"

#include "ExactText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

namespace at {

namespace {

// Most strings (keys, paths, names) need no escape. A QJsonDocument per string made writing 400,000 steps
// (4.4 M keys) spend most of its time building documents (issue 29 item 7).
bool needsEscape(const QString &value)
{
    return std::any_of(value.cbegin(), value.cend(), [](QChar c) {
        return c.unicode() < 0x20 || c == QLatin1Char('"') || c == QLatin1Char('\\') || c.isSurrogate();
    });
}

// Escapes and surrogates exactly as QJsonDocument writes them.
QString escapedByQt(const QString &value)
{
    const QByteArray doc = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(doc.mid(1, doc.size() - 2));
}

} // namespace

QString JsonWriter::quoted(const QString &value)
{
    return needsEscape(value) ? escapedByQt(value) : QLatin1Char('"') + value + QLatin1Char('"');
}

void JsonWriter::key(const QString &name)
{
    separate();
    m_keyFrom = m_text.size();
    if (needsEscape(name)) {
        m_text += escapedByQt(name);
        m_escapedKey = name;
    } else {
        m_text += QLatin1Char('"');
        m_text += name;
        m_text += QLatin1Char('"');
        m_escapedKey.clear();
    }
    m_keyTo = m_text.size();
    m_text += QLatin1Char(':');
    m_afterKey = true;
}

void JsonWriter::integer(qint64 value)
{
    separate();
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    m_text += QLatin1String(buffer, end - buffer);
}

void JsonWriter::string(const QString &value)
{
    separate();
    if (needsEscape(value)) {
        m_text += escapedByQt(value);
        return;
    }
    m_text += QLatin1Char('"');
    m_text += value;
    m_text += QLatin1Char('"');
}

void JsonWriter::number(double value)
{
    if (std::isfinite(value)) {
        raw(QString::number(value, 'g', 12));
        return;
    }
    const QString key = !m_escapedKey.isEmpty()   ? m_escapedKey
                        : m_keyTo - m_keyFrom > 2 ? m_text.mid(m_keyFrom + 1, m_keyTo - m_keyFrom - 2)
                                                  : QString();
    m_problems << QCoreApplication::translate("Core", "%1 is %2, not a finite number; written as null")
                      .arg(key.isEmpty() ? QStringLiteral("a value") : key)
                      .arg(std::isnan(value) ? QStringLiteral("nan")
                                             : (value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf")));
    null();
}

void JsonWriter::micros(TimeNs ns)
{
    separate();
    std::array<char, 32> buffer;
    const std::string_view text = microsChars(ns, buffer);
    m_text += QLatin1String(text.data(), static_cast<qsizetype>(text.size()));
}

void JsonWriter::raw(const QString &json)
{
    separate();
    m_text += json;
}

void JsonWriter::integersField(const QString &name, const std::vector<int> &values)
{
    key(name);
    beginArray();
    for (int v : values)
        integer(v);
    endArray();
}

void JsonWriter::open(QChar c)
{
    separate();
    m_text += c;
    m_first = true;
}

void JsonWriter::close(QChar c)
{
    m_text += c;
    m_first = false;
}

void JsonWriter::separate()
{
    if (m_afterKey)
        m_afterKey = false;
    else if (!m_first && !m_text.isEmpty())
        m_text += QLatin1Char(',');
    m_first = false;
}

} // namespace at
