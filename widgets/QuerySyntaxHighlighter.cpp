#include "QuerySyntaxHighlighter.h"

#include "Theme.h"

#include <QApplication>
#include <QPalette>

#include <algorithm>

namespace at {

namespace {

// The words SQLite users type most; an exhaustive list would only colour identifiers that happen to be
// keywords.
const char *const kKeywords[] = {
    "select",  "from",      "where",  "group",  "by",       "order", "having",    "limit",     "offset",
    "join",    "left",      "inner",  "outer",  "cross",    "on",    "using",     "as",        "and",
    "or",      "not",       "in",     "is",     "null",     "like",  "glob",      "between",   "case",
    "when",    "then",      "else",   "end",    "distinct", "union", "all",       "intersect", "except",
    "with",    "recursive", "asc",    "desc",   "create",   "temp",  "table",     "view",      "insert",
    "into",    "values",    "update", "set",    "delete",   "drop",  "exists",    "cast",      "escape",
    "explain", "query",     "plan",   "pragma", "filter",   "over",  "partition", "window",    "collate"};

QString keywordPattern()
{
    QStringList words;
    for (const char *k : kKeywords)
        words << QString::fromLatin1(k);
    return QStringLiteral("\\b(?:%1)\\b").arg(words.join(QLatin1Char('|')));
}

} // namespace

QuerySyntaxHighlighter::QuerySyntaxHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document), m_keywords(keywordPattern(), QRegularExpression::CaseInsensitiveOption),
      m_numbers(QStringLiteral("\\b(?:0x[0-9a-f]+|\\d+(?:\\.\\d*)?(?:e[+-]?\\d+)?)\\b"),
                QRegularExpression::CaseInsensitiveOption),
      m_functions(QStringLiteral("\\b[a-z_][a-z0-9_]*(?=\\s*\\()"), QRegularExpression::CaseInsensitiveOption)
{
    refreshColors();
}

void QuerySyntaxHighlighter::refreshColors()
{
    // The chart series colours are readable on the light and the dark background alike (Theme.h).
    m_keyword = {};
    m_keyword.setForeground(seriesColor(0));
    m_keyword.setFontWeight(QFont::Bold);
    m_function = {};
    m_function.setForeground(seriesColor(4));
    m_string = {};
    m_string.setForeground(seriesColor(2));
    m_number = {};
    m_number.setForeground(seriesColor(1));
    m_comment = {};
    m_comment.setForeground(QApplication::palette().color(QPalette::PlaceholderText));
    m_comment.setFontItalic(true);
    rehighlight();
}

void QuerySyntaxHighlighter::highlightBlock(const QString &text)
{
    const auto formatMatches = [this, &text](const QRegularExpression &pattern,
                                             const QTextCharFormat &format) {
        for (auto it = pattern.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), format);
        }
    };
    formatMatches(m_functions, m_function);
    formatMatches(m_keywords, m_keyword);
    formatMatches(m_numbers, m_number);
    // Strings, quoted identifiers and comments last: they win over what matched inside them. One scan so
    // that a quote inside a comment (or "--" inside a string) is taken as what it is.
    int i = 0;
    const int n = static_cast<int>(text.size());
    if (previousBlockState() == InComment) {
        const int close = static_cast<int>(text.indexOf(QLatin1String("*/")));
        const int end = close < 0 ? n : close + 2;
        setFormat(0, end, m_comment);
        if (close < 0) {
            setCurrentBlockState(InComment);
            return;
        }
        i = end;
    }
    setCurrentBlockState(Normal);
    while (i < n) {
        const QChar c = text[i];
        if (c == QLatin1Char('-') && i + 1 < n && text[i + 1] == QLatin1Char('-')) {
            setFormat(i, n - i, m_comment);
            return;
        }
        if (c == QLatin1Char('/') && i + 1 < n && text[i + 1] == QLatin1Char('*')) {
            const int close = static_cast<int>(text.indexOf(QLatin1String("*/"), i + 2));
            const int end = close < 0 ? n : close + 2;
            setFormat(i, end - i, m_comment);
            if (close < 0) {
                setCurrentBlockState(InComment);
                return;
            }
            i = end;
            continue;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            int j = i + 1;
            // A doubled quote is an escaped one.
            while (j < n && !(text[j] == c && !(j + 1 < n && text[j + 1] == c)))
                j += text[j] == c ? 2 : 1;
            const int end = std::min(n, j + 1);
            // 'text' is a string; "name" an identifier: coloured as a string only for the former.
            if (c == QLatin1Char('\''))
                setFormat(i, end - i, m_string);
            else
                setFormat(i, end - i, QTextCharFormat());
            i = end;
            continue;
        }
        ++i;
    }
}

} // namespace at
