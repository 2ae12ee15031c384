#pragma once

#include "Session.h"

#include <QDialog>

#include <vector>

class QTableWidget;

namespace at {

// View ▸ Colour Rules: slice-name patterns and their colours, edited in a table; Apply hands the
// rules over when every pattern is a valid regular expression.
class ColorRulesDialog : public QDialog
{
    Q_OBJECT
public:
    ColorRulesDialog(const std::vector<ColorRule> &rules, QWidget *parent = nullptr);

Q_SIGNALS:
    void applied(const std::vector<at::ColorRule> &rules);
    void invalidPattern(const QString &message);

private:
    void addRow(const QString &pattern, QColor color);
    void apply();

    QTableWidget *m_table;
};

} // namespace at
