#include "StatisticsPanel.h"

#include "Commands.h"
#include "TableExport.h"
#include "TimelineState.h"

#include "TableCells.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace at {

StatisticsModel::StatisticsModel(QObject *parent) : QAbstractTableModel(parent) {}

void StatisticsModel::setStatistics(const TraceModel *model, std::vector<NameStatistics> rows)
{
    beginResetModel();
    m_model = model;
    m_rows = std::move(rows);
    m_units.assign(ColumnCount, DisplayUnit{});
    auto unitOf = [this](auto value) { return durationUnitFor(largestMagnitude(m_rows, value)); };
    m_units[Total] = unitOf([](const NameStatistics &s) { return s.inRange; });
    m_units[WholeSlices] = unitOf([](const NameStatistics &s) { return s.total; });
    m_units[Average] = unitOf([](const NameStatistics &s) { return s.average(); });
    m_units[Minimum] = unitOf([](const NameStatistics &s) { return s.minimum; });
    m_units[Maximum] = unitOf([](const NameStatistics &s) { return s.maximum; });
    m_units[Self] = unitOf([](const NameStatistics &s) { return s.self; });
    endResetModel();
}

int StatisticsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StatisticsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StatisticsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()) || !m_model)
        return {};
    const NameStatistics &s = m_rows[static_cast<std::size_t>(index.row())];
    const DisplayUnit &unit = m_units[static_cast<std::size_t>(index.column())];
    auto duration = [role, &unit](TimeNs ns) { return durationCell(ns, role, kSortRole, unit); };
    if (!isValueRole(role, kSortRole)) {
        if (role == Qt::TextAlignmentRole && index.column() != Name)
            return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::ToolTipRole && index.column() == Name)
            return m_model->strings().qstring(s.name); // whole, where the column elides it
        return {};
    }
    switch (index.column()) {
    case Name:
        return role == kExportTextRole ? QVariant() : m_model->strings().qstring(s.name);
    case Count:
        if (role == Qt::DisplayRole)
            return formatCount(static_cast<qint64>(s.count));
        return QVariant::fromValue<qulonglong>(s.count); // sorted and exported as the plain number
    case Total:
        return duration(s.inRange);
    case WholeSlices:
        return duration(s.total);
    case Average:
        return duration(s.average());
    case Minimum:
        return duration(s.minimum);
    case Maximum:
        return duration(s.maximum);
    case Self:
        return duration(s.self);
    default:
        return {};
    }
}

QVariant StatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Total)
        return tr("Time the slices spent inside the selected range (clipped to it)");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == WholeSlices)
        return tr("Whole durations of the slices that overlap the range, also outside it");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *names[] = {QT_TR_NOOP("Name"),         QT_TR_NOOP("Count"),    QT_TR_NOOP("Total"),
                                  QT_TR_NOOP("Whole slices"), QT_TR_NOOP("Average"),  QT_TR_NOOP("Min"),
                                  QT_TR_NOOP("Max"),          QT_TR_NOOP("Self time")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

RangeSliceListModel::RangeSliceListModel(QObject *parent) : QAbstractTableModel(parent) {}

void RangeSliceListModel::setSlices(const TraceModel *model, std::vector<SliceRef> slices,
                                    GroupOffsets offsets)
{
    beginResetModel();
    m_model = model;
    m_slices = std::move(slices);
    m_offsets = std::move(offsets);
    TimeNs latest = 0;
    TimeNs longest = 0;
    for (const SliceRef ref : m_slices) {
        latest = std::max(latest, std::abs(drawnStart(*m_model, ref, m_offsets)));
        longest = std::max(
            longest, m_model->threads()[static_cast<std::size_t>(ref.thread)].slices.duration(ref.index));
    }
    m_startUnit = timePointUnitFor(latest);
    m_durationUnit = durationUnitFor(longest);
    endResetModel();
}

SliceRef RangeSliceListModel::slice(int row) const
{
    return row >= 0 && row < static_cast<int>(m_slices.size()) ? m_slices[static_cast<std::size_t>(row)]
                                                               : SliceRef{};
}

int RangeSliceListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_slices.size());
}

int RangeSliceListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeSliceListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(m_slices.size()) || !m_model)
        return {};
    const SliceRef ref = m_slices[static_cast<std::size_t>(index.row())];
    const SliceTable &table = m_model->threads()[static_cast<std::size_t>(ref.thread)].slices;
    if (role == Qt::TextAlignmentRole && (index.column() == Start || index.column() == Duration))
        return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && (index.column() == Name || index.column() == Lane))
        return data(index, Qt::DisplayRole); // whole, where the column elides it
    if (!isValueRole(role, kSortRole) || (role == kExportTextRole && index.column() < Start))
        return {};
    switch (index.column()) {
    case Name:
        return m_model->sliceName(ref);
    case Lane:
        return m_model->threadDisplayName(ref.thread);
    case Start:
        return timePointCell(drawnStart(*m_model, ref, m_offsets), role, kSortRole, m_startUnit);
    case Duration:
        return durationCell(table.duration(ref.index), role, kSortRole, m_durationUnit);
    default:
        return {};
    }
}

QVariant RangeSliceListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Start)
        return tr("Where the slice starts on the timeline's ruler: with ranks aligned, its rank's offset is "
                  "added (Details shows the rank's own time)");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *names[] = {QT_TR_NOOP("Name"), QT_TR_NOOP("Lane"), QT_TR_NOOP("Start"),
                                  QT_TR_NOOP("Duration")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

StatisticsPanel::StatisticsPanel(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_table(new QTableView(this)),
      m_statistics(new StatisticsModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_sliceTitle(new QLabel(this)), m_sliceTable(new QTableView(this)),
      m_sliceList(new RangeSliceListModel(this)), m_sliceProxy(new QSortFilterProxyModel(this))
{
    addCsvExportAction(m_table, QStringLiteral("range_statistics.csv"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    // The aggregate by name on the left, the occurrences (the slice list) on the right.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_table);
    auto *slicePane = new QWidget(splitter);
    auto *sliceLayout = new QVBoxLayout(slicePane);
    sliceLayout->setContentsMargins(0, 0, 0, 0);
    sliceLayout->addWidget(m_sliceTitle);
    sliceLayout->addWidget(m_sliceTable);
    splitter->addWidget(slicePane);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter);
    m_sliceProxy->setSourceModel(m_sliceList);
    m_sliceProxy->setSortRole(RangeSliceListModel::kSortRole);
    m_sliceTable->setModel(m_sliceProxy);
    m_sliceTable->setSortingEnabled(true);
    m_sliceTable->sortByColumn(RangeSliceListModel::Start, Qt::AscendingOrder);
    m_sliceTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sliceTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sliceTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sliceTable->horizontalHeader()->setSectionResizeMode(RangeSliceListModel::Name, QHeaderView::Stretch);
    m_sliceTable->verticalHeader()->setVisible(false);
    addCsvExportAction(m_sliceTable, QStringLiteral("range_slices.csv"));
    connect(m_sliceTable, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const SliceRef ref = m_sliceList->slice(m_sliceProxy->mapToSource(index).row());
        if (ref.isValid())
            Q_EMIT sliceActivated(ref);
    });
    m_proxy->setSourceModel(m_statistics);
    m_proxy->setSortRole(StatisticsModel::kSortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(StatisticsModel::Total, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(StatisticsModel::Name, QHeaderView::Stretch);
    m_table->verticalHeader()->setVisible(false);
    QAction *copy = makeCommandAction("statistics.copy", m_table, Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &StatisticsPanel::copySelection);
    m_table->addAction(copy);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    clearRange();
}

void StatisticsPanel::setModel(const TraceModel *model)
{
    m_model = model;
    m_offsets.clear(); // they belonged to the previous model's ranks
    clearRange();
}

void StatisticsPanel::followTimeline(const TimelineState *state)
{
    // The range is on the timeline's reference clock: each rank is counted with its offset.
    connect(state, &TimelineState::rangeSelected, this, [this, state](TimeRange range) {
        showRangeOnLanes(range, state->rangeLanes(), state->groupOffsets());
    });
    connect(state, &TimelineState::groupOffsetsChanged, this,
            [this, state] { setGroupOffsets(state->groupOffsets()); });
    connect(state, &TimelineState::rangeCleared, this, &StatisticsPanel::clearRange);
}

void StatisticsPanel::setGroupOffsets(GroupOffsets offsets)
{
    if (offsets == m_offsets)
        return;
    m_offsets = std::move(offsets);
    if (m_range) {
        const TimeRange range = *m_range;
        const std::vector<int> threads = m_threads;
        showRangeOnLanes(range, threads, m_offsets);
    }
}

void StatisticsPanel::clearRange()
{
    m_range.reset();
    m_threads.clear();
    m_statistics->setStatistics(m_model, {});
    m_sliceList->setSlices(m_model, {});
    m_title->setText(tr("Drag across the timeline to see statistics for a time range."));
    m_sliceTitle->setText(tr("Ctrl+drag to restrict the range to the lanes crossed."));
}

void StatisticsPanel::showRangeOnLanes(TimeRange range, const std::vector<int> &threads, GroupOffsets offsets)
{
    if (!m_model)
        return;
    m_range = range;
    m_threads = threads;
    m_offsets = std::move(offsets);
    std::vector<NameStatistics> rows =
        statisticsInRange(*m_model, range.start, range.end, true, threads, m_offsets);
    std::size_t slices = 0;
    for (const auto &r : rows)
        slices += r.count;
    const QString span = tr("%1 – %2 (%3)")
                             .arg(formatTimePointNs(range.start), formatTimePointNs(range.end),
                                  formatDurationNs(range.width()));
    const QString lanes =
        threads.empty() ? tr("all lanes") : tr("%n lane(s)", nullptr, static_cast<int>(threads.size()));
    QString title = tr("%1 on %2: %3 slices, %4 names")
                        .arg(span, lanes, formatCount(static_cast<qint64>(slices)),
                             formatCount(static_cast<qint64>(rows.size())));
    if (std::ranges::any_of(m_offsets, [](TimeNs offset) { return offset != 0; }))
        title +=
            QStringLiteral(" · ") + tr("ranks aligned: each rank counted where it is drawn (its offset)");
    m_title->setText(title);
    m_statistics->setStatistics(m_model, std::move(rows));
    std::vector<SliceRef> list =
        slicesInRange(*m_model, range.start, range.end, threads, kSliceListLimit, m_offsets);
    const QString listed = formatCount(static_cast<qint64>(list.size()));
    m_sliceTitle->setText(
        list.size() < slices
            ? tr("Slices: the first %1 of %2").arg(listed, formatCount(static_cast<qint64>(slices)))
            : tr("Slices: %1").arg(listed));
    m_sliceList->setSlices(m_model, std::move(list), m_offsets);
}

void StatisticsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void StatisticsPanel::retranslate()
{
    m_statistics->retranslate();
    m_sliceList->retranslate();
    if (m_range) {
        const TimeRange range = *m_range;
        const std::vector<int> threads = m_threads;
        showRangeOnLanes(range, threads, m_offsets);
    } else {
        clearRange();
    }
}

QString StatisticsPanel::selectionAsText() const
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < StatisticsModel::ColumnCount; ++c)
        header << m_proxy->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    lines << header.join(QLatin1Char('\t'));
    const auto selected =
        m_table->selectionModel() ? m_table->selectionModel()->selectedRows() : QModelIndexList();
    QList<int> rows;
    if (selected.isEmpty()) {
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            rows << r;
    } else {
        for (const QModelIndex &index : selected)
            rows << index.row();
        std::sort(rows.begin(), rows.end());
    }
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < StatisticsModel::ColumnCount; ++c) {
            // The exact values, as the CSV export (a spreadsheet reads them); else the text shown.
            const QModelIndex index = m_proxy->index(r, c);
            const QVariant exact = index.data(kExportTextRole);
            cells << (exact.isValid() ? exact : index.data(Qt::DisplayRole)).toString();
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void StatisticsPanel::copySelection() const
{
    QApplication::clipboard()->setText(selectionAsText());
}

} // namespace at
