#pragma once

#include <QEvent>
#include <QLabel>

namespace at {

// A one-line label that never runs off its right edge: the text is elided ("…") to the label's width and
// the whole text is its tooltip. The layout may make it as narrow as it needs (it asks for no width).
class ElidedLabel : public QLabel
{
public:
    explicit ElidedLabel(Qt::TextElideMode mode, QWidget *parent = nullptr) : QLabel(parent), m_mode(mode)
    {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }

    void setFullText(const QString &text)
    {
        m_full = text;
        setToolTip(text);
        updateText();
    }
    const QString &fullText() const { return m_full; }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        updateText();
    }
    void changeEvent(QEvent *event) override
    {
        QLabel::changeEvent(event);
        if (event->type() == QEvent::FontChange)
            updateText();
    }

private:
    void updateText() { setText(fontMetrics().elidedText(m_full, m_mode, contentsRect().width())); }

    Qt::TextElideMode m_mode;
    QString m_full;
};

} // namespace at
