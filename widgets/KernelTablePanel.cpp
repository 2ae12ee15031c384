#include "KernelTablePanel.h"

#include "ElidedLabel.h"
#include "TimelineState.h"

#include "NumberFormat.h"
#include "TableCells.h"
#include "TableExport.h"
#include "TraceQueries.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace at {

namespace {
// Qt::InitialSortOrderRole: the order a column's first header click sorts by.
QVariant initialSortOrder(bool descending)
{
    return QVariant::fromValue<int>(descending ? Qt::DescendingOrder : Qt::AscendingOrder);
}
} // namespace

KernelTableModel::KernelTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setModel(const TraceModel *model)
{
    beginResetModel();
    m_model = model;
    m_classifier = model ? std::make_unique<KernelBoundClassifier>(model->kernels()) : nullptr;
    m_units.assign(static_cast<std::size_t>(columnCount()), DisplayUnit{});
    if (model) {
        const KernelTable &table = model->kernels();
        const auto &rows = table.rows();
        m_units[Start] =
            timePointUnitFor(largestMagnitude(rows, [](const KernelRecord &k) { return k.start; }));
        m_units[Duration] =
            durationUnitFor(largestMagnitude(rows, [](const KernelRecord &k) { return k.duration; }));
        m_units[Wait] = durationUnitFor(largestMagnitude(rows, [](const KernelRecord &k) { return k.wait; }));
        for (std::size_t c = 0; c < table.columns().size(); ++c) {
            double largest = 0;
            for (std::size_t r = 0; r < table.size(); ++r)
                if (const double v = table.metric(r, c); std::isfinite(v))
                    largest = std::max(largest, std::abs(v));
            m_units[FixedColumns + c] = columnUnitFor(table.columns()[c].unit, largest);
        }
    }
    endResetModel();
}

DisplayUnit KernelTableModel::columnUnit(int column) const
{
    return column >= 0 && static_cast<std::size_t>(column) < m_units.size()
               ? m_units[static_cast<std::size_t>(column)]
               : DisplayUnit{};
}

QString KernelTableModel::metricTitle(const KernelMetricColumn &column)
{
    QString title = column.header;
    if (!column.unit.isEmpty() && title.endsWith(QStringLiteral("(%1)").arg(column.unit))) {
        title.chop(column.unit.size() + 2);
        title = title.trimmed();
    }
    return title;
}

KernelBound KernelTableModel::bound(std::size_t row) const
{
    return m_classifier ? m_classifier->classify(row) : KernelBound::Unknown;
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
        // A name or shape the column elides reads whole in its tooltip.
        if (role == Qt::ToolTipRole &&
            (index.column() == Source || index.column() == Name || index.column() == Type ||
             index.column() == InputShapes || index.column() == InputTypes))
            return data(index, Qt::DisplayRole);
        if (role != kExportTextRole || index.column() < Start)
            return {};
        if (index.column() > Wait && index.column() < FixedColumns)
            return {}; // text cells export as shown
    }
    const DisplayUnit &unit = m_units[static_cast<std::size_t>(index.column())];
    auto time = [role, &unit](TimeNs ns) { return durationCell(ns, role, kSortRole, unit); };
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
        return timePointCell(k.start, role, kSortRole, unit);
    case Duration:
        return time(k.duration);
    case Wait:
        return time(k.wait);
    case BlockDim:
        return id(k.blockDim);
    case InputShapes:
        return strings.qstring(k.inputShapes);
    case InputTypes:
        return strings.qstring(k.inputTypes);
    case Bound:
        return kernelBoundName(bound(row));
    case Joined:
        return k.joined() ? tr("yes") : tr("no");
    default: {
        const double v = table.metric(row, static_cast<std::size_t>(index.column() - FixedColumns));
        if (std::isnan(v))
            return sort ? QVariant(-std::numeric_limits<double>::infinity()) : QVariant();
        if (sort)
            return QVariant(v);
        if (role == kExportTextRole)
            return QString::number(v, 'g', 6); // what the CSV export has always written
        const auto &column = table.columns()[static_cast<std::size_t>(index.column() - FixedColumns)];
        return formatInUnit(v, column.unit, unit);
    }
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Durations and metrics are read longest / largest first: their first click sorts descending.
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section == Duration || section == Wait || section == BlockDim ||
                                section >= FixedColumns);
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != kExportTextRole))
        return {};
    // One name per Column before FixedColumns, in enum order (checked at compile time).
    static constexpr const char *fixed[] = {
        QT_TR_NOOP("Source"),    QT_TR_NOOP("Name"),         QT_TR_NOOP("Type"),        QT_TR_NOOP("Core"),
        QT_TR_NOOP("Stream"),    QT_TR_NOOP("Start"),        QT_TR_NOOP("Duration"),    QT_TR_NOOP("Wait"),
        QT_TR_NOOP("Block dim"), QT_TR_NOOP("Input shapes"), QT_TR_NOOP("Input types"), QT_TR_NOOP("Bound"),
        QT_TR_NOOP("Joined")};
    static_assert(std::size(fixed) == FixedColumns, "a header name for every fixed column");
    if (section < FixedColumns)
        return role == kExportTextRole ? QVariant() : tr(fixed[section]);
    if (!m_model)
        return {};
    const auto &columns = m_model->kernels().columns();
    const auto c = static_cast<std::size_t>(section - FixedColumns);
    if (c >= columns.size())
        return {};
    // The CSV keeps the profiler's header with its raw unit; the cells shown carry their unit.
    return role == kExportTextRole ? columns[c].header : metricTitle(columns[c]);
}

KernelTablePanel::KernelTablePanel(QWidget *parent)
    : QWidget(parent), m_summary(new ElidedLabel(Qt::ElideRight, this)), m_filter(new QLineEdit(this)),
      m_regex(new QCheckBox(this)), m_core(new QComboBox(this)), m_bound(new QComboBox(this)),
      m_minDuration(new QDoubleSpinBox(this)), m_maxDuration(new QDoubleSpinBox(this)),
      m_inRange(new QCheckBox(this)), m_table(new QTableView(this)), m_kernels(new KernelTableModel(this)),
      m_proxy(new KernelFilterProxy(this)), m_grouping(new QComboBox(this)),
      m_groups(new KernelGroupModel(this)), m_groupProxy(new QSortFilterProxyModel(this)),
      m_export(new QPushButton(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *filters = new QHBoxLayout;
    m_filtersTop = filters;
    m_filtersBottom = new QHBoxLayout;
    m_filter->setClearButtonEnabled(true);
    filters->addWidget(m_filter, 2);
    filters->addWidget(m_regex);
    filters->addWidget(m_core, 1);
    filters->addWidget(m_bound, 1);
    for (QDoubleSpinBox *box : {m_minDuration, m_maxDuration}) {
        box->setRange(0, 1e9);
        box->setDecimals(3);
        box->setSuffix(QStringLiteral(" µs"));
        m_filtersBottom->addWidget(box);
    }
    m_filtersBottom->addWidget(m_inRange);
    m_grouping->addItems({QString(), QString(), QString()}); // texts: retranslateUi()
    m_filtersBottom->addWidget(m_grouping);
    m_groupProxy->setSourceModel(m_groups);
    m_groupProxy->setSortRole(KernelGroupModel::kSortRole);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, &KernelTablePanel::applyGrouping);
    m_filtersBottom->addWidget(m_export);
    // The summary ends the filters' second row (elided, whole in its tooltip): the table keeps that line,
    // so that a bottom dock at the default layout shows eight rows and more.
    m_filtersBottom->addWidget(m_summary, 1);
    layout->addLayout(filters);
    layout->addLayout(m_filtersBottom);
    layout->addWidget(m_table);
    m_proxy->setSourceModel(m_kernels);
    m_proxy->setSortRole(KernelTableModel::kSortRole);
    connect(m_filter, &QLineEdit::textChanged, this, &KernelTablePanel::applyFilter);
    connect(m_regex, &QCheckBox::toggled, this, &KernelTablePanel::applyFilter);
    connect(m_core, &QComboBox::currentIndexChanged, this, &KernelTablePanel::applyFilter);
    connect(m_bound, &QComboBox::currentIndexChanged, this, &KernelTablePanel::applyFilter);
    connect(m_minDuration, &QDoubleSpinBox::valueChanged, this, &KernelTablePanel::applyFilter);
    connect(m_maxDuration, &QDoubleSpinBox::valueChanged, this, &KernelTablePanel::applyFilter);
    connect(m_inRange, &QCheckBox::toggled, this, &KernelTablePanel::applyFilter);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export kernels"),
                                                          QStringLiteral("kernels.csv"), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error))
            m_summary->setFullText(error);
    });
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(KernelTableModel::Start, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    // One line per kernel, as tall as its text (the style's default row is twice that): a long name is
    // elided in its middle, where kernel names differ least, and reads whole in its tooltip.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // A new order starts at its top, unless a row is selected: that one stays in sight. (Connected after
    // setSortingEnabled, so this runs once the table is sorted.)
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this] {
        const QModelIndexList selected = m_table->selectionModel()->selectedRows();
        if (selected.isEmpty())
            m_table->scrollToTop();
        else
            m_table->scrollTo(selected.first(), QAbstractItemView::PositionAtCenter);
    });
    connect(m_table, &QTableView::activated, this, &KernelTablePanel::activateRow);
    connect(m_table, &QTableView::clicked, this, &KernelTablePanel::activateRow);
    retranslateUi();
}

void KernelTablePanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeFilters();
}

void KernelTablePanel::arrangeFilters()
{
    // One row when the panel is wide enough for every filter at its natural width, else two rows, so
    // that no filter is squeezed until its text is cut (a narrow window, longer Chinese labels).
    const QList<QWidget *> second{m_minDuration, m_maxDuration, m_inRange, m_grouping, m_export};
    int needed = 0;
    for (QWidget *w : std::initializer_list<QWidget *>{m_filter, m_regex, m_core, m_bound})
        needed += w->sizeHint().width();
    needed = std::max(needed, 4 * 160); // the name filter wants room to type in
    for (QWidget *w : second)
        needed += w->sizeHint().width();
    needed += 10 * m_filtersTop->spacing() + 16;
    const bool oneRow = width() >= needed;
    if (oneRow == (m_filtersTop->indexOf(m_export) >= 0))
        return;
    QBoxLayout *from = oneRow ? m_filtersBottom : m_filtersTop;
    QBoxLayout *to = oneRow ? m_filtersTop : m_filtersBottom;
    for (QWidget *w : second) {
        from->removeWidget(w);
        to->insertWidget(oneRow ? to->count() : to->count() - 1, w); // before the bottom row's stretch
    }
}

void KernelTablePanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void KernelTablePanel::retranslateUi()
{
    m_regex->setText(tr("Regex"));
    m_inRange->setText(tr("In time selection"));
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_minDuration->setSpecialValueText(tr("min dur"));
    m_maxDuration->setSpecialValueText(tr("max dur"));
    m_grouping->setItemText(0, tr("No grouping"));
    m_grouping->setItemText(1, tr("Group by name"));
    m_grouping->setItemText(2, tr("Group by name + input shape"));
    m_export->setText(tr("Export CSV…"));
    if (m_core->count() > 0)
        m_core->setItemText(0, tr("Any core"));
    if (m_bound->count() > 0)
        m_bound->setItemText(0, tr("Any bound"));
    m_summary->setFullText(summaryText());
    arrangeFilters(); // the texts' widths changed
    // Header texts and the "yes"/"no" cells come from the models' data(): ask again.
    if (QAbstractItemModel *shown = m_table->model(); shown && shown->columnCount() > 0)
        Q_EMIT shown->headerDataChanged(Qt::Horizontal, 0, shown->columnCount() - 1);
    m_table->viewport()->update();
}

void KernelTablePanel::setModel(const TraceModel *model)
{
    m_model = model;
    m_offsets.clear(); // the previous model's ranks
    m_kernels->setModel(model);
    {
        const QSignalBlocker coreBlocker(m_core);
        const QSignalBlocker boundBlocker(m_bound);
        m_core->clear();
        m_core->addItem(tr("Any core"));
        m_bound->clear();
        m_bound->addItem(tr("Any bound"));
        if (model) {
            QStringList cores;
            for (const KernelRecord &k : model->kernels().rows())
                cores << model->strings().qstring(k.acceleratorCore);
            cores.removeDuplicates();
            cores.removeAll(QString());
            cores.sort();
            m_core->addItems(cores);
            for (KernelBound b : {KernelBound::Cube, KernelBound::Vector, KernelBound::Scalar,
                                  KernelBound::Memory, KernelBound::Latency})
                m_bound->addItem(kernelBoundName(b), static_cast<int>(b));
        }
    }
    applyFilter();
    fitColumns();
}

void KernelTablePanel::fitColumns()
{
    m_table->resizeColumnsToContents();
    // Text columns take what their text needs up to about 26 characters, so that the duration and the
    // first metric columns are in sight beside them (the cells elide; the tooltips read whole).
    const int cap = m_table->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 26;
    for (int column : {KernelTableModel::Source, KernelTableModel::Name, KernelTableModel::Type,
                       KernelTableModel::InputShapes, KernelTableModel::InputTypes})
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), cap));
}

void KernelTablePanel::setTimeSelection(TimeRange range)
{
    m_timeSelection = range;
    if (m_inRange->isChecked())
        applyFilter();
}

void KernelTablePanel::followTimeline(const TimelineState *state)
{
    connect(state, &TimelineState::selectionChanged, this, &KernelTablePanel::selectSlice);
    connect(state, &TimelineState::groupOffsetsChanged, this,
            [this, state] { setGroupOffsets(state->groupOffsets()); });
    connect(state, &TimelineState::rangeSelected, this, [this, state](TimeRange range) {
        setGroupOffsets(state->groupOffsets());
        setTimeSelection(range);
    });
    connect(state, &TimelineState::rangeCleared, this, &KernelTablePanel::clearTimeSelection);
}

void KernelTablePanel::setGroupOffsets(GroupOffsets offsets)
{
    if (offsets == m_offsets)
        return;
    m_offsets = std::move(offsets);
    if (m_inRange->isChecked())
        applyFilter();
}

void KernelTablePanel::clearTimeSelection()
{
    m_timeSelection.reset();
    if (m_inRange->isChecked())
        applyFilter();
}

void KernelTablePanel::applyFilter()
{
    KernelFilter f;
    f.name = m_filter->text();
    f.nameIsRegex = m_regex->isChecked();
    f.core = m_core->currentIndex() > 0 ? m_core->currentText() : QString();
    if (m_bound->currentIndex() > 0)
        f.bound = static_cast<KernelBound>(m_bound->currentData().toInt());
    f.minDuration = static_cast<TimeNs>(std::llround(m_minDuration->value() * 1000));
    f.maxDuration = static_cast<TimeNs>(std::llround(m_maxDuration->value() * 1000));
    if (m_inRange->isChecked())
        f.timeRange = m_timeSelection ? m_timeSelection : std::optional<TimeRange>(TimeRange{0, -1});
    f.offsets = m_offsets;
    m_proxy->setFilter(f);
    m_summary->setFullText(summaryText());
    if (m_grouping->currentIndex() > 0)
        applyGrouping();
    Q_EMIT filterChanged(filteredRows());
}

KernelRows KernelTablePanel::filteredRows() const
{
    KernelRows rows;
    rows.reserve(static_cast<std::size_t>(m_proxy->rowCount()));
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        rows.push_back(m_proxy->mapToSource(m_proxy->index(r, 0)).row());
    std::sort(rows.begin(), rows.end());
    return rows;
}

void KernelTablePanel::applyGrouping()
{
    const int mode = m_grouping->currentIndex();
    if (mode == 0 || !m_model) {
        if (m_table->model() != m_proxy) {
            m_table->setModel(m_proxy);
            m_table->sortByColumn(KernelTableModel::Start, Qt::AscendingOrder);
            m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
            fitColumns();
        }
        return;
    }
    // An empty filter means "all rows" to the aggregation; an empty *result* must stay empty.
    const KernelRows rows = filteredRows();
    std::vector<KernelAggregate> groups;
    if (!rows.empty())
        groups =
            aggregateKernels(*m_model, mode == 1 ? KernelGrouping::Name : KernelGrouping::NameAndShape, rows);
    m_groups->setGroups(m_model, std::move(groups));
    if (m_table->model() != m_groupProxy) {
        m_table->setModel(m_groupProxy);
        m_table->sortByColumn(KernelGroupModel::Total, Qt::DescendingOrder);
    }
    m_table->setColumnHidden(KernelGroupModel::Shapes, mode == 1);
    // The numbers take what they need, the names (and shapes) the rest of the width.
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(KernelGroupModel::Name, QHeaderView::Stretch);
    if (mode == 2)
        header->setSectionResizeMode(KernelGroupModel::Shapes, QHeaderView::Stretch);
}

QByteArray KernelTablePanel::visibleRowsAsCsv() const
{
    const auto field = &csvField;
    QStringList header;
    // The exact values (kExportTextRole) where the table shows them rounded in their column's unit.
    auto text = [](const QVariant &exported, const QVariant &shown) {
        return (exported.isValid() ? exported : shown).toString();
    };
    for (int c = 0; c < m_proxy->columnCount(); ++c)
        header << field(text(m_proxy->headerData(c, Qt::Horizontal, kExportTextRole),
                             m_proxy->headerData(c, Qt::Horizontal, Qt::DisplayRole)));
    QByteArray out = header.join(QLatin1Char(',')).toUtf8() + '\n';
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_proxy->columnCount(); ++c) {
            const QModelIndex index = m_proxy->index(r, c);
            cells << field(text(index.data(kExportTextRole), index.data(Qt::DisplayRole)));
        }
        out += cells.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    return out;
}

bool KernelTablePanel::exportCsv(const QString &path, QString *error) const
{
    QString why;
    if (!writeExportFile(path, visibleRowsAsCsv(), &why)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, why);
        return false;
    }
    return true;
}

void KernelFilterProxy::setFilter(const KernelFilter &filter)
{
    m_filter = filter;
    m_regex = QRegularExpression(filter.name, QRegularExpression::CaseInsensitiveOption);
    invalidateFilter();
}

bool KernelFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    const auto *source = static_cast<const KernelTableModel *>(sourceModel());
    const TraceModel *model = source ? source->traceModel() : nullptr;
    if (!model)
        return false;
    const auto row = static_cast<std::size_t>(sourceRow);
    const KernelRecord &k = model->kernels().rows()[row];
    const StringPool &strings = model->strings();
    if (!m_filter.name.isEmpty()) {
        const QString name = strings.qstring(k.name);
        const bool match = m_filter.nameIsRegex ? (m_regex.isValid() && m_regex.match(name).hasMatch())
                                                : name.contains(m_filter.name, Qt::CaseInsensitive);
        if (!match)
            return false;
    }
    if (!m_filter.core.isEmpty() && strings.qstring(k.acceleratorCore) != m_filter.core)
        return false;
    if (m_filter.bound && source->bound(row) != *m_filter.bound)
        return false;
    if (k.duration < m_filter.minDuration || (m_filter.maxDuration > 0 && k.duration > m_filter.maxDuration))
        return false;
    if (m_filter.timeRange) {
        if (m_filter.timeRange->end < m_filter.timeRange->start)
            return false; // "in time selection" without a selection: nothing (never shifted by an offset)
        // The selection in this kernel's rank's own times (TraceQueries.h: ranks aligned with offsets).
        const GroupTimeRange own =
            groupTimeRange(m_filter.timeRange->start, m_filter.timeRange->end, m_filter.offsets, k.group);
        if (k.start > own.end || k.start + k.duration < own.begin)
            return false;
    }
    return true;
}

QString KernelTablePanel::summaryText() const
{
    if (!m_model || m_model->kernels().empty())
        return tr("No kernel table (kernel_details.csv / op_summary_*.csv) in this profile.");
    const KernelTable &k = m_model->kernels();
    const QString shown = m_proxy->rowCount() == static_cast<int>(k.size())
                              ? QString()
                              : tr("%1 shown of ").arg(m_proxy->rowCount());
    return tr("%1%2 kernels, %3 not joined to the timeline · AI Core metrics: %4")
        .arg(shown)
        .arg(k.size())
        .arg(k.unjoinedCount())
        .arg(k.metricGroup().isEmpty() ? tr("none collected") : k.metricGroup());
}

void KernelTablePanel::activateRow(const QModelIndex &proxyIndex)
{
    if (!m_model || !proxyIndex.isValid())
        return;
    // A group row jumps to its longest kernel.
    const QVariant kernelRow = proxyIndex.model() == m_groupProxy
                                   ? proxyIndex.data(KernelGroupModel::kLongestRowRole)
                                   : proxyIndex.data(KernelTableModel::kRowRole);
    const auto row = kernelRow.toULongLong();
    const KernelRecord &k = m_model->kernels().rows()[row];
    if (k.joined())
        Q_EMIT kernelActivated(SliceRef{k.thread, k.slice});
}

void KernelTablePanel::selectSlice(SliceRef ref)
{
    if (!m_model || !ref.isValid() || m_table->model() != m_proxy)
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

namespace at {

KernelGroupModel::KernelGroupModel(QObject *parent) : QAbstractTableModel(parent) {}

void KernelGroupModel::setGroups(const TraceModel *model, std::vector<KernelAggregate> groups)
{
    beginResetModel();
    m_model = model;
    m_groups = std::move(groups);
    m_units.assign(ColumnCount, DisplayUnit{});
    // Min, average and total read in one unit each; Max in the unit of the longest kernel.
    m_units[Total] =
        durationUnitFor(largestMagnitude(m_groups, [](const KernelAggregate &g) { return g.total; }));
    m_units[Average] =
        durationUnitFor(largestMagnitude(m_groups, [](const KernelAggregate &g) { return g.average(); }));
    m_units[Minimum] =
        durationUnitFor(largestMagnitude(m_groups, [](const KernelAggregate &g) { return g.minimum; }));
    m_units[Maximum] =
        durationUnitFor(largestMagnitude(m_groups, [](const KernelAggregate &g) { return g.maximum; }));
    endResetModel();
}

int KernelGroupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_groups.size());
}

int KernelGroupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelGroupModel::data(const QModelIndex &index, int role) const
{
    if (!m_model || !index.isValid() || static_cast<std::size_t>(index.row()) >= m_groups.size())
        return {};
    const KernelAggregate &g = m_groups[static_cast<std::size_t>(index.row())];
    if (role == kLongestRowRole)
        return QVariant::fromValue<qulonglong>(g.longestRow);
    if (role == Qt::TextAlignmentRole && index.column() >= Count)
        return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() < Count)
        return data(index, Qt::DisplayRole); // the whole name or shape, which the column may elide
    if (!isValueRole(role, kSortRole) || (role == kExportTextRole && index.column() < Count))
        return {};
    const DisplayUnit &unit = m_units[static_cast<std::size_t>(index.column())];
    auto time = [role, &unit](TimeNs ns) { return durationCell(ns, role, kSortRole, unit); };
    switch (index.column()) {
    case Name:
        return m_model->strings().qstring(g.name);
    case Shapes:
        return m_model->strings().qstring(g.inputShapes);
    case Count:
        if (role == Qt::DisplayRole)
            return formatCount(static_cast<qint64>(g.count));
        return QVariant::fromValue<qulonglong>(g.count); // sorted and exported as the plain number
    case Total:
        return time(g.total);
    case Average:
        return time(g.average());
    case Minimum:
        return time(g.minimum);
    case Maximum:
        return time(g.maximum);
    default:
        return {};
    }
}

QVariant KernelGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section >= Count);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *names[] = {QT_TR_NOOP("Name"),  QT_TR_NOOP("Input shapes"), QT_TR_NOOP("Count"),
                                  QT_TR_NOOP("Total"), QT_TR_NOOP("Average"),      QT_TR_NOOP("Min"),
                                  QT_TR_NOOP("Max")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace at
