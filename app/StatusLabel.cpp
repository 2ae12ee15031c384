#include "StatusLabel.h"

namespace at {

StatusLabel::StatusLabel(QWidget *parent) : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setMinimumWidth(1);
}

void StatusLabel::setText(const QString &text)
{
    m_text = text;
    elide();
}

void StatusLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    elide();
}

void StatusLabel::elide()
{
    const int room = contentsRect().width();
    const QString shown = fontMetrics().elidedText(m_text, Qt::ElideMiddle, std::max(1, room));
    QLabel::setText(shown);
    setToolTip(shown == m_text ? QString() : m_text);
}

} // namespace at
