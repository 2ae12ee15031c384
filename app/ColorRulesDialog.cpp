#include "ColorRulesDialog.h"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace at {

ColorRulesDialog::ColorRulesDialog(const std::vector<ColorRule> &rules, QWidget *parent)
    : QDialog(parent), m_table(new QTableWidget(this))
{
    setWindowTitle(tr("Colour Rules"));
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({tr("Slice name (regular expression)"), tr("Colour")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (const ColorRule &r : rules)
        addRow(r.pattern, QColor::fromRgb(r.rgb));
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
        if (column != 1)
            return;
        const QColor c = QColorDialog::getColor(QColor(m_table->item(row, 1)->text()), this);
        if (c.isValid()) {
            m_table->item(row, 1)->setText(c.name());
            m_table->item(row, 1)->setData(Qt::DecorationRole, c);
        }
    });
    auto *add = new QPushButton(tr("Add Rule"));
    connect(add, &QPushButton::clicked, this, [this] { addRow(QStringLiteral("^aclnn"), QColor(0xE6550D)); });
    auto *remove = new QPushButton(tr("Remove"));
    connect(remove, &QPushButton::clicked, this, [this] { m_table->removeRow(m_table->currentRow()); });
    auto *applyButton = new QPushButton(tr("Apply"));
    connect(applyButton, &QPushButton::clicked, this, &ColorRulesDialog::apply);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    buttons->addWidget(applyButton);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Slices whose name matches a rule get its colour (first match wins); "
                                    "double-click a colour to change it.")));
    layout->addWidget(m_table);
    layout->addLayout(buttons);
    resize(560, 360);
}

void ColorRulesDialog::addRow(const QString &pattern, QColor color)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(pattern));
    auto *swatch = new QTableWidgetItem(color.name());
    swatch->setData(Qt::DecorationRole, color);
    swatch->setFlags(swatch->flags() & ~Qt::ItemIsEditable);
    m_table->setItem(row, 1, swatch);
}

void ColorRulesDialog::apply()
{
    std::vector<ColorRule> rules;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QString pattern = m_table->item(r, 0)->text();
        if (!QRegularExpression(pattern).isValid() || pattern.isEmpty()) {
            Q_EMIT invalidPattern(tr("Not a valid regular expression: %1").arg(pattern));
            return;
        }
        rules.push_back({pattern, QColor(m_table->item(r, 1)->text()).rgb() & 0xFFFFFF});
    }
    Q_EMIT applied(rules);
}

} // namespace at
