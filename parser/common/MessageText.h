#pragma once
// Text from a data file quoted in a message (a name, a key, a byte): control characters (a NUL byte,
// ESC sequences, line breaks) would cut or garble the message on a terminal or in a log, so they are
// shown as \xNN, and very long text is shortened.

#include <QCoreApplication>
#include <QString>
#include <QStringView>

#include <algorithm>

namespace at {

// The parser's messages go through QCoreApplication::translate("Parser", ...) (core's: "Core"), so they
// come out in the language of the installed translator. This is that language: what the translator makes
// of this marker ("en" without one; the zh_CN catalogue answers "zh_CN").
inline QString messageLanguage()
{
    return QCoreApplication::translate("Parser", "en", "the language code of this translation");
}

// Text longer than maxChars keeps its start and its end with "…" between: the end of a message says
// what is wrong, and a path of thousands of characters before it must not cut that off.
inline QString printableText(QStringView text, qsizetype maxChars = 200)
{
    auto escaped = [](QStringView part) {
        QString out;
        out.reserve(part.size() + 8);
        for (const QChar c : part) {
            if (c.unicode() < 0x20 || c.unicode() == 0x7F)
                out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
            else
                out += c;
        }
        return out;
    };
    if (text.size() <= maxChars)
        return escaped(text);
    const qsizetype tail = std::max<qsizetype>(1, maxChars / 4);
    const qsizetype head = std::max<qsizetype>(1, maxChars - tail);
    return escaped(text.left(head)) + QStringLiteral("…") + escaped(text.right(tail));
}

// A path named in a message: beyond maxChars (a path longer than PATH_MAX is thousands of characters) its
// middle is left out, so the message stays readable and what follows the path, the reason, is seen.
inline QString displayPath(const QString &path, qsizetype maxChars = 240)
{
    if (path.size() <= maxChars)
        return path;
    const qsizetype tail = maxChars / 3;
    return path.left(maxChars - tail) + QStringLiteral("…") + path.right(tail);
}

// One byte of a file: 'c' when printable ASCII, else 0xNN.
inline QString describeByte(char byte)
{
    const auto b = static_cast<unsigned char>(byte);
    if (b >= 0x20 && b < 0x7F)
        return QStringLiteral("'%1'").arg(QLatin1Char(static_cast<char>(b)));
    return QStringLiteral("0x%1").arg(b, 2, 16, QLatin1Char('0'));
}

} // namespace at
