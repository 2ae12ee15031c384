#pragma once
// The rank offsets of a timeline with several ranks (docs/CLUSTER.md "Aligning ranks"): one row per rank
// with its offset in µs (exact decimals, up to ns), editable; "Apply" hands the offsets back in ns.

#include "Time.h"

#include <QDialog>

#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace at {

class RankOffsetsDialog : public QDialog
{
    Q_OBJECT
public:
    RankOffsetsDialog(const QStringList &ranks, const std::vector<TimeNs> &offsets,
                      QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    // The offsets as edited; a cell that is not a number keeps its rank's previous offset (and the
    // dialog says so when applied).
    std::vector<TimeNs> offsets() const;

Q_SIGNALS:
    void applied(const std::vector<TimeNs> &offsets);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void apply();

    std::vector<TimeNs> m_original;
    QLabel *m_help;
    QLabel *m_problem;
    QTableWidget *m_table;
    QPushButton *m_apply;
    QPushButton *m_reset;
    QPushButton *m_close;
};

} // namespace at
