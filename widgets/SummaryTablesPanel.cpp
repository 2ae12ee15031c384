#include "SummaryTablesPanel.h"

#include "ElidedLabel.h"
#include "NumberFormat.h"
#include "TableExport.h"

#include <cmath>

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
    m_units.assign(table ? static_cast<std::size_t>(table->header.size()) : 0, std::nullopt);
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
    if (role == kExportTextRole)
        return text; // the CSV's own text, exact
    if (role == Qt::ToolTipRole && !numeric)
        return text; // whole, where the column elides it
    if (role != Qt::DisplayRole)
        return {};
    return numeric ? displayText(text, v, index.column()) : text;
}

namespace {
// Beyond about three years in ns a time is an epoch timestamp, not a duration.
constexpr double kEpochNs = 1e17;
} // namespace

const DisplayUnit &SummaryTableModel::displayUnit(int column) const
{
    std::optional<DisplayUnit> &unit = m_units[static_cast<std::size_t>(column)];
    if (unit)
        return *unit;
    const QString raw = columnUnit(column);
    const RawUnit base = rawUnitOf(raw);
    double largest = 0;
    for (std::size_t r = 0; r < m_table->rowCount(); ++r) {
        bool numeric = false;
        const double v = m_table->cell(r, column).toDouble(&numeric);
        if (numeric && std::isfinite(v))
            largest = std::max(largest, std::abs(v));
    }
    if (base.quantity == Quantity::Duration && largest * base.toBase >= kEpochNs)
        // Epoch timestamps read as the profiler writes them, in µs with every ns digit (and separators).
        unit = DisplayUnit{Quantity::Duration, QStringLiteral("µs"), 1e3, 3};
    else
        unit = columnUnitFor(raw, largest);
    return *unit;
}

QString SummaryTableModel::displayText(const QString &text, double value, int column) const
{
    // Durations and sizes in the column's scaled unit, other numbers with the header's unit; whole
    // numbers in unit-less columns (ids, counts, steps) stay as written.
    const QString raw = columnUnit(column);
    const DisplayUnit &unit = displayUnit(column);
    if (unit.quantity == Quantity::Duration && rawUnitOf(raw).toBase == 1e3) {
        // µs text to ns exactly (an epoch µs with three decimals has 19 digits: more than a double holds).
        if (const auto ns = parseMicrosToNs(text.toStdString(), FractionRounding::HalfUp))
            return formatDurationNs(*ns, unit);
    }
    const bool fraction =
        text.contains(QLatin1Char('.')) || text.contains(QLatin1Char('e'), Qt::CaseInsensitive);
    return fraction || !raw.isEmpty() ? formatInUnit(value, raw, unit) : text;
}

QString SummaryTableModel::columnUnit(int column) const
{
    // "Total Time(us)", "Ratio(%)", "Size (KB)": a short unit in brackets at the end of the header.
    static const QRegularExpression unit(QStringLiteral(R"(\(\s*([^()\s]{1,6})\s*\)\s*$)"));
    if (!m_table || column < 0 || column >= m_table->header.size())
        return {};
    const QString &header = m_table->header[column];
    const QRegularExpressionMatch match = unit.match(header);
    if (match.hasMatch())
        return match.captured(1);
    // step_trace_time.csv names no unit: every column but the ids is µs (FORMATS.md §3).
    if (m_table->type == QLatin1String("step_trace_time") &&
        header.compare(QLatin1String("Step"), Qt::CaseInsensitive) != 0 &&
        header.compare(QLatin1String("Device_id"), Qt::CaseInsensitive) != 0)
        return QStringLiteral("us");
    return {};
}

QVariant SummaryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!m_table || orientation != Qt::Horizontal || role != Qt::DisplayRole ||
        section >= m_table->header.size())
        return {};
    return m_table->header[section];
}

SummaryTablesPanel::SummaryTablesPanel(QWidget *parent)
    : QWidget(parent), m_chooser(new QComboBox(this)), m_file(new ElidedLabel(Qt::ElideMiddle, this)),
      m_view(new QTableView(this)), m_table(new SummaryTableModel(this))
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

QLabel *SummaryTablesPanel::fileLabel() const
{
    return m_file;
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
        m_file->setFullText(tr("No other summary tables in this profile."));
}

void SummaryTablesPanel::showTable(int index)
{
    if (!m_model || index < 0 || static_cast<std::size_t>(index) >= m_model->summaryTables().size()) {
        m_table->setTable(nullptr);
        return;
    }
    const SummaryTable &t = m_model->summaryTables()[static_cast<std::size_t>(index)];
    m_table->setTable(&t);
    m_file->setFullText(t.files.join(QStringLiteral(", ")));
    m_view->resizeColumnsToContents();
}

} // namespace at
