#include "cluster/CommunicationTable.h"

#include "TableCells.h"
#include "TableExport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace at {

using namespace at::cluster;

namespace {

QString ms(TimeNs ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
}

// MB = 10^6 B (FORMATS.md §9.4): six decimals are exact to the byte, so a 96-byte packet is not "0.000".
QString megabytes(double mb)
{
    return QString::number(mb, 'f', 6);
}

// The communication files' MB are 10^6 bytes (FORMATS.md §9.4); the window shows sizes in powers of 1,024.
constexpr double kBytesPerMb = 1e6;

QString bandwidth(double gbps)
{
    return formatNumber(gbps, QStringLiteral("GB/s"));
}

QString stepText(std::int64_t step)
{
    return step == kNoStep ? CommunicationTable::tr("(no step)") : QString::number(step);
}

QString groupText(const CommOpRow &row)
{
    if (row.total)
        return row.p2p ? CommunicationTable::tr("all (p2p)") : CommunicationTable::tr("all (collective)");
    return row.groupName;
}

} // namespace

CommunicationTableModel::CommunicationTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void CommunicationTableModel::setRows(std::vector<CommOpRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_transports.clear();
    for (std::size_t t = 0; t < kCommTransportCount; ++t)
        for (const CommOpRow &row : m_rows)
            if (row.transports[t]) {
                m_transports.push_back(t);
                break;
            }
    m_units.assign(static_cast<std::size_t>(columnCount()), DisplayUnit{});
    using Member = TimeNs CommOpRow::*;
    const std::pair<int, Member> times[] = {{Elapse, &CommOpRow::elapse},
                                            {Transit, &CommOpRow::transit},
                                            {Wait, &CommOpRow::wait},
                                            {Synchronization, &CommOpRow::synchronization},
                                            {Idle, &CommOpRow::idle}};
    for (const auto &time : times) {
        const Member member = time.second; // not a structured binding: the lambda captures it
        m_units[static_cast<std::size_t>(time.first)] =
            durationUnitFor(largestMagnitude(m_rows, [member](const CommOpRow &r) { return r.*member; }));
    }
    for (int column = FixedColumns; column < columnCount(); ++column) {
        if (!isSizeColumn(column))
            continue;
        double largest = 0;
        for (const CommOpRow &row : m_rows)
            if (const auto &cell = row.transports[transportOf(column)])
                largest = std::max(largest, std::abs(cell->sizeMb) * kBytesPerMb);
        m_units[static_cast<std::size_t>(column)] = bytesUnitFor(largest);
    }
    endResetModel();
}

void CommunicationTableModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int CommunicationTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CommunicationTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FixedColumns + 2 * static_cast<int>(m_transports.size());
}

std::size_t CommunicationTableModel::transportOf(int column) const
{
    const auto extra = static_cast<std::size_t>(column - FixedColumns);
    return m_transports[extra % m_transports.size()];
}

bool CommunicationTableModel::isSizeColumn(int column) const
{
    return static_cast<std::size_t>(column - FixedColumns) >= m_transports.size();
}

QVariant CommunicationTableModel::exportText(const CommOpRow &row, int column) const
{
    switch (column) {
    case Elapse:
        return ms(row.elapse);
    case Transit:
        return ms(row.transit);
    case Wait:
        return ms(row.wait);
    case Synchronization:
        return ms(row.synchronization);
    case Idle:
        return ms(row.idle);
    case WaitRatio:
        return QString::number(row.waitRatio, 'f', 4);
    case SynchronizationRatio:
        return QString::number(row.synchronizationRatio, 'f', 4);
    default:
        break;
    }
    if (column < FixedColumns)
        return {}; // texts export as shown
    const auto &cell = row.transports[transportOf(column)];
    if (!cell)
        return QStringLiteral("–");
    return isSizeColumn(column) ? megabytes(cell->sizeMb) : QString::number(cell->bandwidthGbps, 'f', 4);
}

QVariant CommunicationTableModel::display(const CommOpRow &row, int column) const
{
    const DisplayUnit &unit = m_units[static_cast<std::size_t>(column)];
    const DisplayUnit ratio{Quantity::Plain, QString(), 1, 4};
    switch (column) {
    case Step:
        return stepText(row.step);
    case Op:
        return row.op;
    case Group:
        return groupText(row);
    case Rank:
        return QString::number(row.rank);
    case Elapse:
        return formatDurationNs(row.elapse, unit);
    case Transit:
        return formatDurationNs(row.transit, unit);
    case Wait:
        return formatDurationNs(row.wait, unit);
    case Synchronization:
        return formatDurationNs(row.synchronization, unit);
    case Idle:
        return formatDurationNs(row.idle, unit);
    case WaitRatio:
        return formatInUnit(row.waitRatio, QString(), ratio);
    case SynchronizationRatio:
        return formatInUnit(row.synchronizationRatio, QString(), ratio);
    default:
        break;
    }
    const auto &cell = row.transports[transportOf(column)];
    if (!cell)
        return QStringLiteral("–");
    return isSizeColumn(column) ? formatBytes(cell->sizeMb * kBytesPerMb, unit)
                                : bandwidth(cell->bandwidthGbps);
}

QVariant CommunicationTableModel::sortKey(const CommOpRow &row, int column) const
{
    switch (column) {
    case Step:
        return QVariant::fromValue<qlonglong>(row.step);
    case Op:
        return row.op;
    case Group:
        return groupText(row);
    case Rank:
        return row.rank;
    case Elapse:
        return QVariant::fromValue<qlonglong>(row.elapse);
    case Transit:
        return QVariant::fromValue<qlonglong>(row.transit);
    case Wait:
        return QVariant::fromValue<qlonglong>(row.wait);
    case Synchronization:
        return QVariant::fromValue<qlonglong>(row.synchronization);
    case Idle:
        return QVariant::fromValue<qlonglong>(row.idle);
    case WaitRatio:
        return row.waitRatio;
    case SynchronizationRatio:
        return row.synchronizationRatio;
    default:
        break;
    }
    const auto &cell = row.transports[transportOf(column)];
    if (!cell)
        return -1.0;
    return isSizeColumn(column) ? cell->sizeMb : cell->bandwidthGbps;
}

QVariant CommunicationTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const CommOpRow &row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case kExportTextRole:
        return exportText(row, index.column());
    case SortRole:
        return sortKey(row, index.column());
    case Qt::TextAlignmentRole:
        return index.column() <= Group ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == Group && !row.groupHash.isEmpty())
            return tr("Group %1").arg(row.groupHash);
        if (index.column() >= FixedColumns) {
            const auto &cell = row.transports[transportOf(index.column())];
            if (cell)
                //: %1 transport, %2 size, %3 time, %4 bandwidth (each with its unit)
                return tr("%1: %2 in %3, %4")
                    .arg(QLatin1String(kCommTransports[transportOf(index.column())]),
                         formatBytes(cell->sizeMb * kBytesPerMb), formatDurationNs(cell->time),
                         bandwidth(cell->bandwidthGbps));
        }
        return tr("Double-click or press Enter to open rank %1 at this op").arg(row.rank);
    default:
        return {};
    }
}

QVariant CommunicationTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        // The cells carry their unit (each column in one, picked from its values).
        switch (section) {
        case Elapse:
            return tr("Elapse");
        case Transit:
            return tr("Transit");
        case Wait:
            return tr("Wait");
        case Synchronization:
            return tr("Synchronization");
        case Idle:
            return tr("Idle");
        default:
            break;
        }
        if (section >= FixedColumns) {
            const QLatin1String transport(kCommTransports[transportOf(section)]);
            return isSizeColumn(section) ? tr("%1 Size").arg(transport) : tr("%1 Bandwidth").arg(transport);
        }
    } else if (role != kExportTextRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    // The CSV export's header (and the display header of the other columns), as it has always been.
    switch (section) {
    case Step:
        return tr("Step");
    case Op:
        return tr("Op");
    case Group:
        return tr("Group");
    case Rank:
        return tr("Rank");
    case Elapse:
        return tr("Elapse (ms)");
    case Transit:
        return tr("Transit (ms)");
    case Wait:
        return tr("Wait (ms)");
    case Synchronization:
        return tr("Synchronization (ms)");
    case Idle:
        return tr("Idle (ms)");
    case WaitRatio:
        return tr("Wait Ratio");
    case SynchronizationRatio:
        return tr("Synchronization Ratio");
    default:
        break;
    }
    const QLatin1String transport(kCommTransports[transportOf(section)]);
    return isSizeColumn(section) ? tr("%1 Size (MB)").arg(transport) : tr("%1 (GB/s)").arg(transport);
}

CommunicationTable::CommunicationTable(QWidget *parent)
    : QWidget(parent), m_stepLabel(new QLabel), m_step(new QComboBox), m_groupLabel(new QLabel),
      m_group(new QComboBox), m_opLabel(new QLabel), m_op(new QComboBox), m_totals(new QCheckBox),
      m_rows(new CommunicationTableModel(this)), m_sorted(new QSortFilterProxyModel(this)),
      m_table(new QTableView), m_summary(new QLabel), m_summaryArea(new QScrollArea),
      m_split(new QSplitter(Qt::Horizontal)), m_detail(new QSplitter(Qt::Vertical)), m_sizes(new QTableWidget)
{
    auto *layout = new QVBoxLayout(this);
    m_filtersTop = new QHBoxLayout;
    m_filtersBottom = new QHBoxLayout;
    for (auto [label, chooser] :
         {std::pair{m_stepLabel, m_step}, {m_groupLabel, m_group}, {m_opLabel, m_op}}) {
        label->setBuddy(chooser);
        chooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        QBoxLayout *row = chooser == m_op ? m_filtersBottom : m_filtersTop;
        if (label != m_stepLabel)
            label->setContentsMargins(12, 0, 0, 0); // apart from the chooser before it, in either row
        row->addWidget(label);
        row->addWidget(chooser);
        QComboBox *const box = chooser; // a copy: clang 14 cannot capture a structured binding
        connect(chooser, &QComboBox::currentIndexChanged, this, [this, box] {
            if (box != m_op)
                fillOpChooser();
            refill();
        });
    }
    m_filtersTop->addStretch(1);
    m_totals->setContentsMargins(12, 0, 0, 0);
    m_filtersBottom->addWidget(m_totals);
    m_filtersBottom->addStretch(1);
    connect(m_totals, &QCheckBox::toggled, this, &CommunicationTable::refill);
    layout->addLayout(m_filtersTop);
    layout->addLayout(m_filtersBottom);

    m_sorted->setSourceModel(m_rows);
    m_sorted->setSortRole(CommunicationTableModel::SortRole);
    m_table->setModel(m_sorted);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Compact rows: as many ops as possible in the page's lower half.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // the query's order first
    m_table->setSortingEnabled(true);
    addCsvExportAction(m_table, QStringLiteral("communication_ops.csv")); // the rows as shown and sorted
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) {
        if (const CommOpRow *row = rowAt(index.row()))
            Q_EMIT opOpenRequested(row->rank, row->total ? QString() : row->op);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CommunicationTable::showDetail);
    connect(m_sorted, &QAbstractItemModel::modelReset, this, &CommunicationTable::showDetail);

    // The op's summary scrolls rather than being cut when the tab is low (a 900 × 700 window).
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setMargin(4);
    QScrollArea *summaryArea = m_summaryArea;
    summaryArea->setWidget(m_summary);
    summaryArea->setWidgetResizable(true);
    // Small minimum heights: the cluster page must still fit a 900 × 700 window; the parts scroll instead.
    summaryArea->setMinimumSize(220, 40);
    m_sizes->setMinimumHeight(56);
    m_table->setMinimumHeight(56);
    m_sizes->setColumnCount(3);
    m_sizes->verticalHeader()->hide();
    m_sizes->verticalHeader()->setDefaultSectionSize(m_sizes->fontMetrics().height() + 8);
    m_sizes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sizes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sizes->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_detail->addWidget(summaryArea);
    m_detail->addWidget(m_sizes);
    m_detail->setCollapsible(0, false);
    m_detail->setCollapsible(1, false);
    m_detail->setStretchFactor(0, 0);
    m_detail->setStretchFactor(1, 1);

    // Beside the table, not under it: the table keeps the tab's whole height for its rows (a 900 x 700
    // window still lists about ten).
    m_split->addWidget(m_table);
    m_split->addWidget(m_detail);
    m_split->setCollapsible(0, false);
    m_split->setCollapsible(1, false);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 0);
    layout->addWidget(m_split, 1);
    retranslateUi();
    refill();
}

void CommunicationTable::retranslateUi()
{
    m_stepLabel->setText(tr("&Step:"));
    m_groupLabel->setText(tr("&Group:"));
    m_opLabel->setText(tr("&Op:"));
    m_totals->setText(tr("Include &Total Op Info"));
    m_totals->setToolTip(tr("Also list each rank's \"Total Op Info\" entries (its sums per step, collective "
                            "and p2p)"));
    m_table->setToolTip(tr("One row per op and rank. Double-click a row or press Enter to open that rank's "
                           "timeline at the op"));
    m_sizes->setHorizontalHeaderLabels({tr("Packet size"), tr("Count"), tr("Time")});
    m_sizes->setToolTip(tr("The selected row's packets by size, over its transports (SDMA repeats HCCS, "
                           "PCIE and SIO and is left out)"));
    m_rows->retranslate();
    if (m_model) {
        fillChoosers();
        refill();
    }
    showDetail();
}

void CommunicationTable::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeFilters();
    // A quarter of the tab, at least the packet-size table's three columns and the width of the summary's
    // longest line (the op name and the ranks line wrap at spaces only), at most half the tab.
    const int across = m_split->width() - m_split->handleWidth();
    const int sizes = m_sizes->horizontalHeader()->length() + 2 * m_sizes->frameWidth() +
                      m_sizes->verticalScrollBar()->sizeHint().width() + 4;
    const int detail =
        std::min(across / 2, std::max({across / 4, sizes, 20 * fontMetrics().averageCharWidth() + 40}));
    m_split->setSizes({std::max(0, across - detail), detail});
    fitDetail();
}

void CommunicationTable::fitDetail()
{
    const int down = m_detail->height() - m_detail->handleWidth();
    if (down <= 0)
        return;
    const int width = m_summaryArea->width() - 2 * m_summaryArea->frameWidth();
    const int wanted = m_summary->heightForWidth(width) + 2 * m_summaryArea->frameWidth();
    const int summary =
        std::max(m_summaryArea->minimumHeight(), std::min(wanted, down - m_sizes->minimumHeight()));
    m_detail->setSizes({summary, down - summary});
}

void CommunicationTable::arrangeFilters()
{
    // One row when the tab is wide enough for every filter at its natural width, else two, so that no
    // chooser is squeezed until its text is cut (a narrow window, longer Chinese labels, long op names).
    const QList<QWidget *> second{m_opLabel, m_op, m_totals};
    int needed = 0;
    for (QWidget *w : std::initializer_list<QWidget *>{m_stepLabel, m_step, m_groupLabel, m_group, m_opLabel,
                                                       m_op, m_totals})
        needed += w->sizeHint().width();
    needed += 8 * std::max(0, m_filtersTop->spacing()) + 16;
    const bool oneRow = width() >= needed;
    if (oneRow == (m_filtersTop->indexOf(m_totals) >= 0))
        return;
    QBoxLayout *from = oneRow ? m_filtersBottom : m_filtersTop;
    QBoxLayout *to = oneRow ? m_filtersTop : m_filtersBottom;
    for (QWidget *w : second) {
        from->removeWidget(w);
        to->insertWidget(to->count() - 1, w); // before the row's stretch
    }
}

void CommunicationTable::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void CommunicationTable::setModel(std::shared_ptr<const ClusterModel> model)
{
    m_model = std::move(model);
    fillChoosers();
    refill();
}

void CommunicationTable::fillChoosers()
{
    const QVariant step = m_step->currentData();
    const QString group = m_group->currentData().toString();
    std::set<std::int64_t> steps;
    std::set<QString> groups;
    if (m_model)
        for (const Rank &r : m_model->ranks)
            for (const CommOp &op : r.ops) {
                steps.insert(op.step);
                if (!op.total && !op.group.isEmpty())
                    groups.insert(op.group);
            }
    {
        const QSignalBlocker blockSteps(m_step), blockGroups(m_group);
        m_step->clear();
        m_step->addItem(tr("All steps"));
        for (std::int64_t s : steps)
            m_step->addItem(stepText(s), QVariant::fromValue<qlonglong>(s));
        m_step->setCurrentIndex(step.isValid() ? std::max(0, m_step->findData(step)) : 0);
        m_group->clear();
        m_group->addItem(tr("All groups"), QString());
        for (const QString &hash : groups) {
            const ParallelGroup *g = m_model->groupByHash(hash);
            m_group->addItem(g && !g->name.isEmpty() ? tr("%1 (group %2)").arg(g->name, hash) : hash, hash);
        }
        m_group->setCurrentIndex(std::max(0, m_group->findData(group)));
    }
    fillOpChooser();
}

// The ops of the chosen step and group.
void CommunicationTable::fillOpChooser()
{
    const QString op = m_op->currentData().toString();
    const QVariant step = m_step->currentData();
    const QString group = m_group->currentData().toString();
    std::set<QString> names;
    if (m_model)
        for (const Rank &r : m_model->ranks)
            for (const CommOp &o : r.ops)
                if (!o.total && (!step.isValid() || o.step == step.toLongLong()) &&
                    (group.isEmpty() || o.group == group))
                    names.insert(o.name);
    const QSignalBlocker block(m_op);
    m_op->clear();
    m_op->addItem(tr("All ops"), QString());
    for (const QString &name : names)
        m_op->addItem(name, name);
    m_op->setCurrentIndex(std::max(0, m_op->findData(op)));
    arrangeFilters();
}

void CommunicationTable::refill()
{
    if (!m_model) {
        m_rows->setRows({});
        return;
    }
    CommOpFilter filter;
    if (const QVariant step = m_step->currentData(); step.isValid())
        filter.step = step.toLongLong();
    filter.group = m_group->currentData().toString();
    filter.op = m_op->currentData().toString();
    filter.includeTotals = m_totals->isChecked();
    m_rows->setRows(communicationOps(*m_model, filter));
    m_table->resizeColumnsToContents();
}

const CommOpRow *CommunicationTable::rowAt(int viewRow) const
{
    const QModelIndex source = m_sorted->mapToSource(m_sorted->index(viewRow, 0));
    if (!source.isValid())
        return nullptr;
    return &m_rows->rows()[static_cast<std::size_t>(source.row())];
}

void CommunicationTable::showDetail()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const CommOpRow *row = current.isValid() ? rowAt(current.row()) : nullptr;
    m_sizes->setRowCount(0);
    if (!row) {
        m_summary->setText(
            m_rows->rows().empty()
                ? tr("No communication op (communication.json or analysis.db) for this choice.")
                : tr("Select a row for its op across the ranks and its packet sizes."));
        fitDetail();
        return;
    }
    const CommOpSummary s = summarizeOp(m_rows->rows(), *row);
    // The op name on a line of its own: it cannot wrap.
    QString text = row->op + QLatin1Char('\n') +
                   tr("Step %1, group %2, rank %3.").arg(stepText(row->step), groupText(*row)).arg(row->rank);
    text += QLatin1Char('\n') +
            tr("On %n rank(s): slowest rank %1 (%2), fastest rank %3 (%4), spread %5.", nullptr, s.ranks)
                .arg(s.slowestRank)
                .arg(formatDurationNs(s.slowestElapse))
                .arg(s.fastestRank)
                .arg(formatDurationNs(s.fastestElapse), formatDurationNs(s.spread()));
    text += QLatin1Char('\n') +
            tr("Longest wait: rank %1 (%2).").arg(s.maxWaitRank).arg(formatDurationNs(s.maxWait));
    if (row->sizes.empty())
        text += QLatin1Char('\n') + tr("No packet-size distribution for this row.");
    m_summary->setText(text);
    m_sizes->setRowCount(static_cast<int>(row->sizes.size()));
    // Each column in one unit, picked from the row's buckets.
    double largestBytes = 0;
    for (const PacketBucket &b : row->sizes)
        largestBytes = std::max(largestBytes, std::abs(b.sizeMb) * kBytesPerMb);
    const DisplayUnit sizeUnit = bytesUnitFor(largestBytes);
    const DisplayUnit timeUnit =
        durationUnitFor(largestMagnitude(row->sizes, [](const PacketBucket &b) { return b.time; }));
    for (int i = 0; i < static_cast<int>(row->sizes.size()); ++i) {
        const PacketBucket &b = row->sizes[static_cast<std::size_t>(i)];
        const QString cells[] = {formatBytes(b.sizeMb * kBytesPerMb, sizeUnit),
                                 formatCount(static_cast<qint64>(b.count)),
                                 formatDurationNs(b.time, timeUnit)};
        for (int c = 0; c < 3; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_sizes->setItem(i, c, item);
        }
    }
    fitDetail();
}

} // namespace at
