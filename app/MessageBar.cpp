#include "MessageBar.h"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace at {

MessageBar::MessageBar(QWidget *parent)
    : QFrame(parent), m_label(new QLabel(this)), m_showAll(new QToolButton(this)),
      m_copy(new QToolButton(this)), m_close(new QToolButton(this)), m_detailsView(new QPlainTextEdit(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    auto *line = new QHBoxLayout;
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    line->addWidget(m_label, 1);
    m_showAll->setCheckable(true);
    connect(m_showAll, &QToolButton::toggled, this, &MessageBar::setExpanded);
    line->addWidget(m_showAll);
    connect(m_copy, &QToolButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_details.join(QLatin1Char('\n'))); });
    line->addWidget(m_copy);
    m_close->setText(QStringLiteral("✕"));
    line->addWidget(m_close);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    layout->addLayout(line);
    m_detailsView->setReadOnly(true);
    m_detailsView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_detailsView->setMaximumHeight(160);
    layout->addWidget(m_detailsView);
    retranslateUi();
    hide();
}

void MessageBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QFrame::changeEvent(event);
}

void MessageBar::retranslateUi()
{
    m_showAll->setToolTip(tr("List every message of this load"));
    m_copy->setText(tr("Copy"));
    m_copy->setToolTip(tr("Copy every message to the clipboard"));
    m_close->setToolTip(tr("Dismiss"));
    setExpanded(m_showAll->isChecked());
}

void MessageBar::showMessage(Kind kind, const QString &text, const QStringList &details)
{
    m_kind = kind;
    m_details = details;
    m_label->setText(text);
    m_detailsView->setPlainText(details.join(QLatin1Char('\n')));
    m_showAll->setVisible(details.size() > 1);
    m_copy->setVisible(!details.isEmpty());
    m_showAll->setChecked(false);
    setExpanded(false);
    QPalette pal = palette();
    const QColor background = kind == Kind::Error     ? QColor(250, 215, 215)
                              : kind == Kind::Warning ? QColor(252, 238, 200)
                                                      : QColor(215, 232, 250);
    pal.setColor(QPalette::Window, background);
    pal.setColor(QPalette::WindowText, QColor(30, 30, 30));
    setPalette(pal);
    show();
}

void MessageBar::setExpanded(bool expanded)
{
    m_detailsView->setVisible(expanded);
    m_showAll->setText(expanded ? tr("Hide")
                                : tr("Show all %n", nullptr, static_cast<int>(m_details.size())));
}

QString MessageBar::text() const
{
    return m_label->text();
}

} // namespace at
