#pragma once

#include <QLabel>

namespace at {

// The status bar's text: cut in the middle with "…" when the window is too narrow for it (a path keeps
// its start and its file name, a summary its last numbers), the whole text in the tooltip. It never
// widens the window. setText/text/clear hide QLabel's: text() is the whole text, not what is shown.
class StatusLabel : public QLabel
{
    Q_OBJECT
public:
    explicit StatusLabel(QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    void clear() { setText(QString()); }
    // What is painted (the elided text).
    QString shownText() const { return QLabel::text(); }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();

    QString m_text;
};

} // namespace at
