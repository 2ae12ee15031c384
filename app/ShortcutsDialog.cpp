#include "ShortcutsDialog.h"

#include "Commands.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace at {

ShortcutsDialog::ShortcutsDialog(QWidget *parent) : QDialog(parent), m_table(new QTableWidget(this))
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({tr("Command"), tr("Keys")});
    m_table->setRowCount(static_cast<int>(commands().size()));
    int row = 0;
    for (const Command &c : commands()) {
        auto *title = new QTableWidgetItem(commandTitle(c));
        title->setToolTip(QCoreApplication::translate("Commands", c.help));
        m_table->setItem(row, 0, title);
        m_table->setItem(row, 1, new QTableWidgetItem(commandKeysText(c)));
        ++row;
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    resize(560, 420);
}

} // namespace at
