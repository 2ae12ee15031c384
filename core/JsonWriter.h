#pragma once
// The one JSON writer of the command line's documents (--cluster, --memory, --advise): compact, strict
// RFC 8259 whatever was read. Times are exact µs decimals of int64 ns (ExactText.h), never a double; a
// double that is not finite (a "nan" ratio read from a file, a bandwidth that overflowed) is written as
// null and named in problems(), so the caller can warn about it.

#include "Time.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace at {

class JsonWriter
{
public:
    void beginObject() { open(QLatin1Char('{')); }
    void endObject() { close(QLatin1Char('}')); }
    void beginArray() { open(QLatin1Char('[')); }
    void endArray() { close(QLatin1Char(']')); }

    // The name of the next value inside an object.
    void key(const QString &name);

    void string(const QString &value);
    void null() { raw(QStringLiteral("null")); }
    void boolean(bool value) { raw(value ? QStringLiteral("true") : QStringLiteral("false")); }
    void integer(qint64 value);
    // 12 significant digits; null (and a problem naming the key) when not finite.
    void number(double value);
    // Exact µs of ns: "231290.1".
    void micros(TimeNs ns);
    // A value that is already JSON text (an exact decimal written by the caller).
    void raw(const QString &json);

    // Key and value in one call.
    void field(const QString &name, const QString &value) { key(name), string(value); }
    void integerField(const QString &name, qint64 value) { key(name), integer(value); }
    void numberField(const QString &name, double value) { key(name), number(value); }
    void microsField(const QString &name, TimeNs ns) { key(name), micros(ns); }
    void integersField(const QString &name, const std::vector<int> &values);

    const QString &text() const { return m_text; }
    // One line per value written as null because it was not finite: "bandwidth_gbps is inf; written as null".
    const QStringList &problems() const { return m_problems; }

    // A JSON string literal (quotes and escapes included), as QJsonDocument writes it.
    static QString quoted(const QString &value);

private:
    void open(QChar c);
    void close(QChar c);
    void separate();

    QString m_text;
    // The last key, for problems(): where its quoted text lies in m_text, or itself when it was escaped
    // there (copying every key into a member was a tenth of writing --cluster --json's op rows).
    qsizetype m_keyFrom = -1, m_keyTo = -1;
    QString m_escapedKey;
    QStringList m_problems;
    bool m_first = true;
    bool m_afterKey = false;
};

} // namespace at
