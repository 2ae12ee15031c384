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

inline QString printableText(QStringView text, qsizetype maxChars = 200)
{
    QString out;
    out.reserve(std::min(text.size(), maxChars) + 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (out.size() >= maxChars) {
            out += QStringLiteral("…");
            break;
        }
        const QChar c = text[i];
        if (c.unicode() < 0x20 || c.unicode() == 0x7F)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
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
