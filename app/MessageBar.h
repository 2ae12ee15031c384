#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace at {

// An in-window banner for load errors and warnings (no modal dialogs: loading must never block,
// and tests can read the text).
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

    void showMessage(Kind kind, const QString &text, const QString &details = {});
    QString text() const;
    Kind kind() const { return m_kind; }

private:
    QLabel *m_label;
    QToolButton *m_close;
    Kind m_kind = Kind::Info;
};

} // namespace at
