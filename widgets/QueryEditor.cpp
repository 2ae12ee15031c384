#include "QueryEditor.h"

#include "QuerySyntaxHighlighter.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QEvent>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QScrollBar>
#include <QStringListModel>
#include <QTextBlock>

#include <algorithm>

namespace at {

namespace {

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

} // namespace

QueryEditor::QueryEditor(QWidget *parent)
    : QPlainTextEdit(parent), m_highlighter(new QuerySyntaxHighlighter(document())),
      m_completer(new QCompleter(this)), m_words(new QStringListModel(this))
{
    setObjectName(QStringLiteral("queryEditor"));
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Long lines wrap: beside the result at 900 px the editor has ~350 px, and a cut line hides the query.
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setTabChangesFocus(true);
    m_completer->setModel(m_words);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setModelSorting(QCompleter::CaseInsensitivelySortedModel);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setWidget(this);
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this,
            &QueryEditor::insertCompletion);
}

void QueryEditor::setCompletionWords(const QStringList &words)
{
    QStringList sorted = words;
    sorted.removeDuplicates();
    std::sort(sorted.begin(), sorted.end(),
              [](const QString &a, const QString &b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    m_words->setStringList(sorted);
}

void QueryEditor::addToHistory(const QString &sql)
{
    const QString text = sql.trimmed();
    if (text.isEmpty())
        return;
    if (m_history.isEmpty() || m_history.last() != text)
        m_history << text;
    while (m_history.size() > kMaxHistory)
        m_history.removeFirst();
    m_historyAt = -1;
}

void QueryEditor::setSql(const QString &sql)
{
    QTextCursor cursor(document());
    cursor.select(QTextCursor::Document);
    cursor.insertText(sql); // one undo step, unlike setPlainText
    cursor.movePosition(QTextCursor::End);
    setTextCursor(cursor);
}

void QueryEditor::moveCursorTo(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.setPosition(block.position() + std::clamp(column - 1, 0, static_cast<int>(block.length()) - 1));
    setTextCursor(cursor);
    ensureCursorVisible();
}

bool QueryEditor::stepHistory(int direction)
{
    if (m_history.isEmpty())
        return false;
    int next = m_historyAt < 0 ? (direction < 0 ? static_cast<int>(m_history.size()) - 1 : -1)
                               : m_historyAt + direction;
    if (m_historyAt < 0 && direction > 0)
        return false;
    if (next < 0)
        return false; // nothing older
    if (m_historyAt < 0)
        m_draft = toPlainText();
    if (next >= m_history.size()) {
        m_historyAt = -1;
        setSql(m_draft);
        return true;
    }
    m_historyAt = next;
    setSql(m_history[next]);
    return true;
}

QString QueryEditor::wordBeforeCursor() const
{
    const QTextCursor cursor = textCursor();
    const QString line = cursor.block().text();
    int start = cursor.positionInBlock();
    while (start > 0 && isWordChar(line[start - 1]))
        --start;
    return line.mid(start, cursor.positionInBlock() - start);
}

void QueryEditor::insertCompletion(const QString &word)
{
    QTextCursor cursor = textCursor();
    const QString typed = wordBeforeCursor();
    cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, static_cast<int>(typed.size()));
    cursor.insertText(word);
    setTextCursor(cursor);
}

void QueryEditor::keyPressEvent(QKeyEvent *event)
{
    QAbstractItemView *popup = m_completer->popup();
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    if (ctrl && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)) {
        popup->hide();
        Q_EMIT runRequested();
        return;
    }
    if (popup->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Escape:
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
            event->ignore(); // the completer takes them
            return;
        default:
            break;
        }
    }
    const bool plain = (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
    if (plain && !popup->isVisible()) {
        if (event->key() == Qt::Key_Up && textCursor().blockNumber() == 0 && stepHistory(-1))
            return;
        if (event->key() == Qt::Key_Down && textCursor().blockNumber() == document()->blockCount() - 1 &&
            stepHistory(+1))
            return;
    }
    const bool forced = ctrl && event->key() == Qt::Key_Space;
    if (!forced)
        QPlainTextEdit::keyPressEvent(event);
    const QString prefix = wordBeforeCursor();
    const bool typedWordChar = !event->text().isEmpty() && isWordChar(event->text().back());
    if (!forced && (!typedWordChar || prefix.size() < 2)) {
        popup->hide();
        return;
    }
    if (prefix != m_completer->completionPrefix()) {
        m_completer->setCompletionPrefix(prefix);
        popup->setCurrentIndex(m_completer->completionModel()->index(0, 0));
    }
    if (m_completer->completionCount() == 0 ||
        (m_completer->completionCount() == 1 &&
         m_completer->currentCompletion().compare(prefix, Qt::CaseInsensitive) == 0)) {
        popup->hide();
        return;
    }
    QRect rect = cursorRect();
    rect.setWidth(popup->sizeHintForColumn(0) + popup->verticalScrollBar()->sizeHint().width());
    m_completer->complete(rect);
}

void QueryEditor::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        m_highlighter->refreshColors();
}

} // namespace at
