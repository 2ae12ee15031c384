#include "SummaryTablesPanel.h"

#include "NumberFormat.h"
#include "TableExport.h"

#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace at {

SummaryTableModel::SummaryTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void SummaryTableModel::setTable(const SummaryTable *table)
{
    beginResetModel();
    m_table = table;
    endResetModel();
}

int SummaryTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_table ? 0 : static_cast<int>(m_table->rowCount());
}

int SummaryTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_table ? 0 : static_cast<int>(m_table->header.size());
}

QVariant SummaryTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_table || !index.isValid())
        return {};
    const QString &text = m_table->cell(static_cast<std::size_t>(index.row()), index.column());
    bool numeric = false;
    const double v = text.toDouble(&numeric);
    if (role == kSortRole)
        return numeric ? QVariant(v) : QVariant(text);
    if (role == Qt::TextAlignmentRole && numeric)
        return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    // Plain numbers with the column's unit; whole numbers in unit-less columns (ids, counts, steps)
    // stay as written.
    const QString unit = columnUnit(index.column());
    const bool fraction =
        text.contains(QLatin1Char('.')) || text.contains(QLatin1Char('e'), Qt::CaseInsensitive);
    return numeric && (fraction || !unit.isEmpty()) ? formatNumber(v, unit) : text;
}

QString SummaryTableModel::columnUnit(int column) const
{
    // "Total Time(us)", "Ratio(%)", "Size (KB)": a short unit in brackets at the end of the header.
    static const QRegularExpression unit(QStringLiteral(R"(\(\s*([^()\s]{1,6})\s*\)\s*$)"));
    if (!m_table || column < 0 || column >= m_table->header.size())
        return {};
    const QRegularExpressionMatch match = unit.match(m_table->header[column]);
    return match.hasMatch() ? match.captured(1) : QString();
}

QVariant SummaryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!m_table || orientation != Qt::Horizontal || role != Qt::DisplayRole ||
        section >= m_table->header.size())
        return {};
    return m_table->header[section];
}

SummaryTablesPanel::SummaryTablesPanel(QWidget *parent)
    : QWidget(parent), m_chooser(new QComboBox(this)), m_file(new QLabel(this)), m_view(new QTableView(this)),
      m_table(new SummaryTableModel(this))
{
    addCsvExportAction(m_view, QStringLiteral("summary_table.csv"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_chooser);
    layout->addWidget(m_file);
    layout->addWidget(m_view);
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_table);
    proxy->setSortRole(SummaryTableModel::kSortRole);
    m_view->setModel(proxy);
    m_view->setSortingEnabled(true);
    m_view->verticalHeader()->setVisible(false);
    connect(m_chooser, &QComboBox::currentIndexChanged, this, &SummaryTablesPanel::showTable);
}

void SummaryTablesPanel::setModel(const TraceModel *model)
{
    m_model = model;
    const QSignalBlocker blocker(m_chooser);
    m_chooser->clear();
    m_table->setTable(nullptr);
    if (model)
        for (std::size_t i = 0; i < model->summaryTables().size(); ++i)
            m_chooser->addItem(QString());
    retranslateUi();
    m_chooser->setEnabled(m_chooser->count() > 0);
    showTable(m_chooser->count() ? 0 : -1);
}

void SummaryTablesPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SummaryTablesPanel::retranslateUi()
{
    // "step_trace_time (12 rows)": the chooser keeps its choice, only the texts change.
    for (int i = 0; m_model && i < m_chooser->count(); ++i) {
        const SummaryTable &t = m_model->summaryTables()[static_cast<std::size_t>(i)];
        const QString source = t.group >= 0 && static_cast<std::size_t>(t.group) < m_model->groups().size()
                                   ? m_model->groups()[static_cast<std::size_t>(t.group)].label
                                   : QString();
        m_chooser->setItemText(i, QStringLiteral("%1%2 (%3)")
                                      .arg(source.isEmpty() ? QString() : source + QStringLiteral(" · "),
                                           t.type, tr("%n row(s)", nullptr, static_cast<int>(t.rowCount()))));
    }
    if (m_chooser->count() == 0)
        m_file->setText(tr("No other summary tables in this profile."));
}

void SummaryTablesPanel::showTable(int index)
{
    if (!m_model || index < 0 || static_cast<std::size_t>(index) >= m_model->summaryTables().size()) {
        m_table->setTable(nullptr);
        return;
    }
    const SummaryTable &t = m_model->summaryTables()[static_cast<std::size_t>(index)];
    m_table->setTable(&t);
    m_file->setText(t.files.join(QStringLiteral(", ")));
    m_view->resizeColumnsToContents();
}

} // namespace at
