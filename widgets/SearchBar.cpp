#include "SearchBar.h"

#include "NumberFormat.h"
#include "TimelineState.h"
#include "TraceQueries.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include <algorithm>

namespace at {

SearchBar::SearchBar(QWidget *parent)
    : QWidget(parent), m_label(new QLabel(this)), m_edit(new QLineEdit(this)), m_case(new QCheckBox(this)),
      m_status(new QLabel(this)), m_previous(new QToolButton(this)), m_next(new QToolButton(this)),
      m_close(new QToolButton(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(m_label);
    m_edit->setClearButtonEnabled(true);
    m_edit->installEventFilter(this);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_case);
    m_previous->setText(QStringLiteral("▲"));
    m_next->setText(QStringLiteral("▼"));
    m_close->setText(QStringLiteral("✕"));
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_status);
    layout->addWidget(m_close);
    m_status->setMinimumWidth(110);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(150);
    connect(&m_debounce, &QTimer::timeout, this, &SearchBar::runSearch);
    connect(m_edit, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
    connect(m_case, &QCheckBox::toggled, this, &SearchBar::runSearch);
    connect(m_previous, &QToolButton::clicked, this, &SearchBar::previous);
    connect(m_next, &QToolButton::clicked, this, &SearchBar::next);
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT closed();
    });
    retranslateUi();
}

void SearchBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SearchBar::retranslateUi()
{
    m_label->setText(tr("Find:"));
    // Short, so it is not cut in a narrow window; the keys are in the tool tip and on the buttons' tips.
    m_edit->setPlaceholderText(tr("slice name"));
    m_edit->setToolTip(tr("Slices whose name contains this text (Enter: next, Shift+Enter: previous)"));
    m_case->setText(tr("Match case"));
    m_previous->setToolTip(tr("Previous match (Shift+Enter)"));
    m_next->setToolTip(tr("Next match (Enter)"));
    m_close->setToolTip(tr("Close (Esc)"));
    updateStatus(); // "3 of 12"
}

void SearchBar::setModel(const TraceModel *model)
{
    m_model = model;
    m_offsets.clear(); // the previous model's ranks
    m_matches.clear();
    m_current = -1;
    m_searchedText.clear();
    updateStatus();
}

void SearchBar::activate()
{
    show();
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
    if (!m_matches.empty())
        Q_EMIT matchesChanged(m_matches); // closing the bar removed the highlights
}

void SearchBar::runSearch()
{
    m_debounce.stop();
    m_searchedText = m_edit->text();
    m_searchedCase = m_case->isChecked();
    m_matches = m_model ? searchSlices(*m_model, m_searchedText, {m_searchedCase, m_offsets})
                        : std::vector<SliceRef>{};
    m_current = -1;
    updateStatus();
    Q_EMIT matchesChanged(m_matches);
}

void SearchBar::followTimeline(const TimelineState *state)
{
    // Ranks aligned on a collective: Find steps through the matches in the order they are drawn.
    connect(state, &TimelineState::groupOffsetsChanged, this,
            [this, state] { setGroupOffsets(state->groupOffsets()); });
}

void SearchBar::setGroupOffsets(GroupOffsets offsets)
{
    if (offsets == m_offsets)
        return;
    m_offsets = std::move(offsets);
    if (!m_model || m_matches.empty())
        return;
    const SliceRef current = m_current >= 0 ? m_matches[static_cast<std::size_t>(m_current)] : SliceRef{};
    sortByDrawnStart(*m_model, m_matches, m_offsets);
    if (current.isValid())
        m_current = static_cast<int>(std::ranges::find(m_matches, current) - m_matches.begin());
    updateStatus();
}

void SearchBar::step(int delta)
{
    if (m_searchedText != m_edit->text() || m_searchedCase != m_case->isChecked() || m_debounce.isActive())
        runSearch();
    if (m_matches.empty())
        return;
    const int n = static_cast<int>(m_matches.size());
    m_current = m_current < 0 ? (delta > 0 ? 0 : n - 1) : ((m_current + delta) % n + n) % n;
    updateStatus();
    Q_EMIT matchActivated(m_matches[static_cast<std::size_t>(m_current)]);
}

void SearchBar::next()
{
    step(1);
}

void SearchBar::previous()
{
    step(-1);
}

QString SearchBar::statusText() const
{
    return m_status->text();
}

void SearchBar::updateStatus()
{
    if (m_searchedText.isEmpty())
        m_status->setText(QString());
    else if (m_matches.empty())
        m_status->setText(tr("no matches"));
    else if (m_current < 0)
        m_status->setText(tr("%1 matches").arg(formatCount(static_cast<qint64>(m_matches.size()))));
    else
        m_status->setText(
            tr("%1 of %2")
                .arg(formatCount(m_current + 1), formatCount(static_cast<qint64>(m_matches.size()))));
}

bool SearchBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (key->modifiers() & Qt::ShiftModifier)
                previous();
            else
                next();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            hide();
            Q_EMIT closed();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SearchBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        Q_EMIT closed();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace at
