#pragma once

// A test-side reading of a Kineto trace's JSON text that keeps every number as written (ts/dur with
// their ns digits, ids, the base time), independent of the viewer's parser: the expected values of
// tst_kineto_reader are computed from it.

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace at::test {

struct RawEvent
{
    QHash<QString, QString> fields; // top-level scalars: ph, cat, name, pid, tid, ts, dur, id, bp, s
    QHash<QString, QString> args;   // scalar args as written
    QString field(const char *key) const { return fields.value(QString::fromLatin1(key)); }
    QString arg(const char *key) const { return args.value(QString::fromLatin1(key)); }
};

struct RawTrace
{
    QList<RawEvent> events;
    QHash<QString, QString> topScalars;     // baseTimeNanoseconds, schemaVersion, traceName, ...
    QHash<QString, QString> distributed;    // distributedInfo's scalars
    QList<QHash<QString, QString>> devices; // deviceProperties entries' scalars
};

class RawJsonReader
{
public:
    explicit RawJsonReader(const QByteArray &text) : m_text(text) {}

    std::optional<RawTrace> read()
    {
        RawTrace trace;
        skipWs();
        if (!take('{'))
            return std::nullopt;
        while (true) {
            skipWs();
            if (take('}'))
                return trace;
            take(',');
            skipWs();
            const QString key = string();
            skipWs();
            if (!take(':'))
                return std::nullopt;
            skipWs();
            if (key == QLatin1String("traceEvents")) {
                if (!take('['))
                    return std::nullopt;
                while (true) {
                    skipWs();
                    if (take(']'))
                        break;
                    if (take(','))
                        continue;
                    RawEvent event;
                    if (!object(event.fields, &event.args))
                        return std::nullopt;
                    trace.events.append(std::move(event));
                }
            } else if (key == QLatin1String("distributedInfo")) {
                if (!object(trace.distributed, nullptr))
                    return std::nullopt;
            } else if (key == QLatin1String("deviceProperties")) {
                if (!take('['))
                    return std::nullopt;
                while (true) {
                    skipWs();
                    if (take(']'))
                        break;
                    if (take(','))
                        continue;
                    QHash<QString, QString> device;
                    if (!object(device, nullptr))
                        return std::nullopt;
                    trace.devices.append(device);
                }
            } else if (peek() == '{' || peek() == '[') {
                skipValue();
            } else {
                trace.topScalars.insert(key, scalar());
            }
            if (m_pos >= m_text.size())
                return std::nullopt;
        }
    }

private:
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    bool take(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    void skipWs()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' ||
                                         m_text[m_pos] == '\r' || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    QString string()
    {
        QByteArray out;
        if (!take('"'))
            return {};
        while (m_pos < m_text.size() && m_text[m_pos] != '"') {
            if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size()) {
                const char e = m_text[++m_pos];
                if (e == 'u' && m_pos + 4 < m_text.size()) {
                    const auto code = m_text.mid(m_pos + 1, 4).toUInt(nullptr, 16);
                    out += QString(QChar(static_cast<char16_t>(code))).toUtf8();
                    m_pos += 4;
                } else {
                    out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
                }
                ++m_pos;
                continue;
            }
            out += m_text[m_pos++];
        }
        ++m_pos;
        return QString::fromUtf8(out);
    }
    // A string's content, or a number/true/false/null token as written.
    QString scalar()
    {
        if (peek() == '"')
            return string();
        const qsizetype begin = m_pos;
        while (m_pos < m_text.size() && !QByteArrayView(",}] \n\r\t").contains(m_text[m_pos]))
            ++m_pos;
        return QString::fromLatin1(m_text.mid(begin, m_pos - begin));
    }
    void skipValue()
    {
        if (peek() != '{' && peek() != '[') {
            scalar();
            return;
        }
        int depth = 0;
        bool inString = false;
        for (; m_pos < m_text.size(); ++m_pos) {
            const char c = m_text[m_pos];
            if (inString) {
                if (c == '\\')
                    ++m_pos;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                ++m_pos;
                return;
            }
        }
    }
    // An object's scalar members into fields; the members of its "args" object into args when given.
    bool object(QHash<QString, QString> &fields, QHash<QString, QString> *args)
    {
        skipWs();
        if (!take('{'))
            return false;
        while (m_pos < m_text.size()) {
            skipWs();
            if (take('}'))
                return true;
            if (take(','))
                continue;
            const QString key = string();
            skipWs();
            if (!take(':'))
                return false;
            skipWs();
            if (args && key == QLatin1String("args") && peek() == '{') {
                if (!object(*args, nullptr))
                    return false;
            } else if (peek() == '{' || peek() == '[') {
                skipValue();
            } else {
                fields.insert(key, scalar());
            }
        }
        return false;
    }

    const QByteArray &m_text;
    qsizetype m_pos = 0;
};

// Decimal µs text ("4458676522690.655", "1669783687464181", "12.5") as int64 ns, exactly: the integer
// part times 1000 plus the first three fraction digits (the fourth rounds half up).
inline std::int64_t microsTextToNs(const QString &text)
{
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? text : text.left(dot);
    QString fraction = dot < 0 ? QString() : text.mid(dot + 1);
    const bool roundUp = fraction.size() > 3 && fraction[3] >= QLatin1Char('5');
    fraction = (fraction + QStringLiteral("000")).left(3);
    return whole.toLongLong() * 1000 + fraction.toLongLong() + (roundUp ? 1 : 0);
}

} // namespace at::test
