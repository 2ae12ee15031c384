#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace at {

// SQL colouring of the Query dock's editor: keywords, strings, numbers and comments (-- to the end of the
// line and /* … */ across lines). The colours follow the theme: refreshColors() after a palette change.
class QuerySyntaxHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit QuerySyntaxHighlighter(QTextDocument *document);
    void refreshColors();

    // The formats, so that tests can tell which text they coloured.
    QTextCharFormat keywordFormat() const { return m_keyword; }
    QTextCharFormat stringFormat() const { return m_string; }
    QTextCharFormat numberFormat() const { return m_number; }
    QTextCharFormat commentFormat() const { return m_comment; }

protected:
    void highlightBlock(const QString &text) override;

private:
    enum BlockState
    {
        Normal = 0,
        InComment = 1 // inside a /* comment that goes on to the next line
    };
    QTextCharFormat m_keyword, m_string, m_number, m_comment, m_function;
    QRegularExpression m_keywords, m_numbers, m_functions;
};

} // namespace at
