#include "cluster/RankOffsetsDialog.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace at {

namespace {
QString offsetText(TimeNs ns)
{
    return formatAbsoluteMicros(ns); // exact µs with three decimals, negative with a minus
}
} // namespace

RankOffsetsDialog::RankOffsetsDialog(const QStringList &ranks, const std::vector<TimeNs> &offsets,
                                     QWidget *parent)
    : QDialog(parent), m_original(offsets), m_help(new QLabel), m_problem(new QLabel),
      m_table(new QTableWidget(static_cast<int>(ranks.size()), 2)), m_apply(new QPushButton),
      m_reset(new QPushButton), m_close(new QPushButton)
{
    m_original.resize(static_cast<std::size_t>(ranks.size()), 0);
    auto *layout = new QVBoxLayout(this);
    m_help->setWordWrap(true);
    layout->addWidget(m_help);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    for (qsizetype r = 0; r < ranks.size(); ++r) {
        auto *name = new QTableWidgetItem(ranks[r]);
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(static_cast<int>(r), 0, name);
        auto *value = new QTableWidgetItem(offsetText(m_original[static_cast<std::size_t>(r)]));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(static_cast<int>(r), 1, value);
    }
    layout->addWidget(m_table, 1);
    m_problem->setWordWrap(true);
    m_problem->hide();
    layout->addWidget(m_problem);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_reset);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    buttons->addWidget(m_close);
    layout->addLayout(buttons);
    connect(m_apply, &QPushButton::clicked, this, &RankOffsetsDialog::apply);
    connect(m_close, &QPushButton::clicked, this, &QDialog::accept);
    connect(m_reset, &QPushButton::clicked, this, [this] {
        for (int r = 0; r < m_table->rowCount(); ++r)
            m_table->item(r, 1)->setText(offsetText(0));
        apply();
    });
    m_apply->setDefault(true);
    retranslateUi();
    resize(520, 180 + 30 * static_cast<int>(std::min<qsizetype>(ranks.size(), 12)));
}

void RankOffsetsDialog::retranslateUi()
{
    setWindowTitle(tr("Rank Offsets"));
    m_help->setText(tr("Each rank's timeline is drawn moved by its offset (µs, up to three decimals; "
                       "negative moves it earlier). The data is not changed. \"Align Ranks on This "
                       "Collective\" in the lane menu of a communication op sets them automatically."));
    m_table->setHorizontalHeaderLabels({tr("Rank"), tr("Offset (µs)")});
    m_apply->setText(tr("&Apply"));
    m_reset->setText(tr("&Reset All to 0"));
    m_close->setText(tr("&Close"));
}

void RankOffsetsDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

std::vector<TimeNs> RankOffsetsDialog::offsets() const
{
    std::vector<TimeNs> out = m_original;
    for (int r = 0; r < m_table->rowCount() && static_cast<std::size_t>(r) < out.size(); ++r) {
        const QByteArray text = m_table->item(r, 1)->text().trimmed().toUtf8();
        if (const std::optional<TimeNs> ns = parseMicrosToNs(std::string_view(text.constData(), text.size())))
            out[static_cast<std::size_t>(r)] = *ns;
    }
    return out;
}

void RankOffsetsDialog::apply()
{
    QStringList bad;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QByteArray text = m_table->item(r, 1)->text().trimmed().toUtf8();
        if (!parseMicrosToNs(std::string_view(text.constData(), text.size())))
            bad << m_table->item(r, 0)->text();
    }
    m_problem->setVisible(!bad.isEmpty());
    m_problem->setText(tr("Not a number of µs, the offset is kept: %1").arg(bad.join(QStringLiteral(", "))));
    m_original = offsets();
    for (int r = 0; r < m_table->rowCount(); ++r)
        m_table->item(r, 1)->setText(offsetText(m_original[static_cast<std::size_t>(r)]));
    Q_EMIT applied(m_original);
}

} // namespace at
