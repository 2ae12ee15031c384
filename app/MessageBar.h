#pragma once

#include <QFrame>
#include <QStringList>

class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace at {

// An in-window banner for load errors and warnings (no modal dialogs: loading must never block,
// and tests can read the text). A message with details (e.g. every warning of a load) offers
// "Show all", which expands a selectable list under the banner, and "Copy".
class MessageBar : public QFrame
{
    Q_OBJECT
public:
    enum class Kind
    {
        Info,
        Warning,
        Error
    };
    explicit MessageBar(QWidget *parent = nullptr);

    void showMessage(Kind kind, const QString &text, const QStringList &details = {});
    QString text() const;
    Kind kind() const { return m_kind; }
    QStringList details() const { return m_details; }
    // "Show all" / "Hide": shows or hides the list of details.
    QToolButton *showAllButton() const { return m_showAll; }
    QToolButton *copyButton() const { return m_copy; }
    QToolButton *closeButton() const { return m_close; }
    QPlainTextEdit *detailsView() const { return m_detailsView; }

protected:
    // View ▸ Language: the buttons and their tooltips in the new language at once (the message itself was
    // written by the load, in the language of its moment).
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void setExpanded(bool expanded);

    QLabel *m_label;
    QToolButton *m_showAll;
    QToolButton *m_copy;
    QToolButton *m_close;
    QPlainTextEdit *m_detailsView;
    QStringList m_details;
    Kind m_kind = Kind::Info;
};

} // namespace at
