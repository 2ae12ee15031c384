#include "KernelTablePanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace at {

KernelTableModel::KernelTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setModel(const TraceModel *model)
{
    beginResetModel();
    m_model = model;
    endResetModel();
}

int KernelTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_model ? 0 : static_cast<int>(m_model->kernels().size());
}

int KernelTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_model
               ? 0
               : FixedColumns + static_cast<int>(m_model->kernels().columns().size());
}

QVariant KernelTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_model || !index.isValid())
        return {};
    const KernelTable &table = m_model->kernels();
    const auto row = static_cast<std::size_t>(index.row());
    if (row >= table.size())
        return {};
    if (role == kRowRole)
        return QVariant::fromValue<qulonglong>(row);
    const KernelRecord &k = table.rows()[row];
    const StringPool &strings = m_model->strings();
    const bool sort = role == kSortRole;
    if (role != Qt::DisplayRole && !sort) {
        if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Type &&
            index.column() != Source && index.column() != InputShapes && index.column() != Core)
            return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    auto time = [sort](TimeNs ns) -> QVariant {
        return sort ? QVariant::fromValue<qlonglong>(ns) : QVariant(formatDuration(ns));
    };
    auto id = [](std::int64_t v) -> QVariant {
        return v == KernelRecord::kNone ? QVariant() : QVariant::fromValue<qlonglong>(v);
    };
    switch (index.column()) {
    case Source:
        return k.group >= 0 && static_cast<std::size_t>(k.group) < m_model->groups().size()
                   ? m_model->groups()[static_cast<std::size_t>(k.group)].label
                   : QString();
    case Name:
        return strings.qstring(k.name);
    case Type:
        return strings.qstring(k.type);
    case Core:
        return strings.qstring(k.acceleratorCore);
    case Stream:
        return id(k.streamId);
    case Start:
        return time(k.start);
    case Duration:
        return time(k.duration);
    case Wait:
        return time(k.wait);
    case BlockDim:
        return id(k.blockDim);
    case InputShapes:
        return strings.qstring(k.inputShapes);
    case Joined:
        return k.joined() ? tr("yes") : tr("no");
    default: {
        const double v = table.metric(row, static_cast<std::size_t>(index.column() - FixedColumns));
        if (std::isnan(v))
            return sort ? QVariant(-std::numeric_limits<double>::infinity()) : QVariant();
        return sort ? QVariant(v) : QVariant(QString::number(v, 'g', 6));
    }
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *fixed[] = {"Source",   "Name", "Type",      "Core",         "Stream", "Start",
                                  "Duration", "Wait", "Block dim", "Input shapes", "Joined"};
    if (section < FixedColumns)
        return tr(fixed[section]);
    if (!m_model)
        return {};
    const auto &columns = m_model->kernels().columns();
    const auto c = static_cast<std::size_t>(section - FixedColumns);
    if (c >= columns.size())
        return {};
    return columns[c].header;
}

KernelTablePanel::KernelTablePanel(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_filter(new QLineEdit(this)),
      m_table(new QTableView(this)), m_kernels(new KernelTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    m_filter->setPlaceholderText(tr("Filter kernels by name"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    layout->addWidget(m_table);
    m_proxy->setSourceModel(m_kernels);
    m_proxy->setSortRole(KernelTableModel::kSortRole);
    m_proxy->setFilterKeyColumn(KernelTableModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(KernelTableModel::Start, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::activated, this, &KernelTablePanel::activateRow);
    connect(m_table, &QTableView::clicked, this, &KernelTablePanel::activateRow);
}

void KernelTablePanel::setModel(const TraceModel *model)
{
    m_model = model;
    m_kernels->setModel(model);
    m_summary->setText(summaryText());
    m_table->resizeColumnsToContents();
}

QString KernelTablePanel::summaryText() const
{
    if (!m_model || m_model->kernels().empty())
        return tr("No kernel table (kernel_details.csv / op_summary_*.csv) in this profile.");
    const KernelTable &k = m_model->kernels();
    return tr("%1 kernels, %2 not joined to the timeline · AI Core metrics: %3")
        .arg(k.size())
        .arg(k.unjoinedCount())
        .arg(k.metricGroup().isEmpty() ? tr("none collected") : k.metricGroup());
}

void KernelTablePanel::activateRow(const QModelIndex &proxyIndex)
{
    if (!m_model || !proxyIndex.isValid())
        return;
    const auto row = proxyIndex.data(KernelTableModel::kRowRole).toULongLong();
    const KernelRecord &k = m_model->kernels().rows()[row];
    if (k.joined())
        Q_EMIT kernelActivated(SliceRef{k.thread, k.slice});
}

void KernelTablePanel::selectSlice(SliceRef ref)
{
    if (!m_model || !ref.isValid())
        return;
    const std::int64_t row = m_model->kernels().rowOfSlice(ref.thread, ref.index);
    if (row < 0)
        return;
    const QModelIndex source = m_kernels->index(static_cast<int>(row), KernelTableModel::Name);
    const QModelIndex proxyIndex = m_proxy->mapFromSource(source);
    if (!proxyIndex.isValid())
        return;
    const QSignalBlocker blocker(m_table);
    m_table->selectionModel()->select(proxyIndex,
                                      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(proxyIndex);
}

} // namespace at
