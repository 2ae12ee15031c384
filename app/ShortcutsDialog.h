#pragma once

#include <QDialog>

class QTableWidget;

namespace at {

// Help ▸ Keyboard Shortcuts: every command of the registry (Commands.h) with its keys or gesture.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }

private:
    QTableWidget *m_table;
};

} // namespace at
