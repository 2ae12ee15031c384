#pragma once

#include <QPlainTextEdit>
#include <QStringList>

class QCompleter;
class QStringListModel;

namespace at {

class QuerySyntaxHighlighter;

// The Query dock's SQL editor: highlighting, completion of table and column names (typing two letters of a
// word, or Ctrl+Space), and the history of the queries run (Up on the first line goes back, Down on the
// last line forward, as in a shell).
class QueryEditor : public QPlainTextEdit
{
    Q_OBJECT
public:
    static constexpr int kMaxHistory = 100;

    explicit QueryEditor(QWidget *parent = nullptr);

    void setCompletionWords(const QStringList &words);
    QCompleter *completer() const { return m_completer; }
    QuerySyntaxHighlighter *highlighter() const { return m_highlighter; }

    // A query that ran: the newest history entry (a repeat of the newest is not added again).
    void addToHistory(const QString &sql);
    const QStringList &history() const { return m_history; }
    // Replaces the text (undoable), cursor at the end.
    void setSql(const QString &sql);
    // Puts the cursor at a 1-based line and column (an error's position) and shows it.
    void moveCursorTo(int line, int column);

Q_SIGNALS:
    void runRequested();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QString wordBeforeCursor() const;
    void insertCompletion(const QString &word);
    bool stepHistory(int direction); // -1 older, +1 newer

    QuerySyntaxHighlighter *m_highlighter;
    QCompleter *m_completer;
    QStringListModel *m_words;
    QStringList m_history; // oldest first
    int m_historyAt = -1;  // index into m_history while browsing, -1: the draft
    QString m_draft;       // what was typed before browsing began
};

} // namespace at
