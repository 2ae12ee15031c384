#include "MessageBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace at {

MessageBar::MessageBar(QWidget *parent)
    : QFrame(parent), m_label(new QLabel(this)), m_close(new QToolButton(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_label, 1);
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Dismiss"));
    layout->addWidget(m_close);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void MessageBar::showMessage(Kind kind, const QString &text, const QString &details)
{
    m_kind = kind;
    m_label->setText(text);
    m_label->setToolTip(details);
    QPalette pal = palette();
    const QColor background = kind == Kind::Error     ? QColor(250, 215, 215)
                              : kind == Kind::Warning ? QColor(252, 238, 200)
                                                      : QColor(215, 232, 250);
    pal.setColor(QPalette::Window, background);
    pal.setColor(QPalette::WindowText, QColor(30, 30, 30));
    setPalette(pal);
    show();
}

QString MessageBar::text() const
{
    return m_label->text();
}

} // namespace at
