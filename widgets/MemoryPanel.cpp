#include "MemoryPanel.h"

#include "ChartScale.h"
#include "MemoryLanes.h"
#include "NumberFormat.h"
#include "Theme.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace at {

namespace {

constexpr double kBytesPerMB = 1024.0 * 1024.0;
constexpr int kPeakColor = 2; // seriesColor(2), red: the peak markers; the curves take the others

double ms(TimeNs t)
{
    return static_cast<double>(t) / 1e6;
}

QString msText(TimeNs t)
{
    return t == kNoTime ? QString() : QString::number(ms(t), 'f', 3);
}

// The largest |value| of the values that are set (kNoTime, kNoBytes are not).
template <typename Values, typename Missing> double largestOf(const Values &values, Missing missing)
{
    double largest = 0;
    for (const auto v : values)
        if (v != missing)
            largest = std::max(largest, std::abs(static_cast<double>(v)));
    return largest;
}

void addCurve(QLineSeries *series, const MemoryCurve &curve, MemoryMetric metric)
{
    const auto &values = curve.values(metric);
    series->replace(memoryChartPoints(
        values.size(), [&](std::size_t i) { return ms(curve.times[i]); },
        [&](std::size_t i) -> std::optional<double> {
            if (values[i] == kNoBytes)
                return std::nullopt;
            return static_cast<double>(values[i]) / kBytesPerMB;
        }));
}

} // namespace

QList<QPointF> memoryChartPoints(std::size_t n, const std::function<double(std::size_t)> &time,
                                 const std::function<std::optional<double>(std::size_t)> &value)
{
    QList<QPointF> points;
    const std::size_t bucket =
        n > kMemoryChartPoints ? (n + kMemoryChartPoints / 2 - 1) / (kMemoryChartPoints / 2) : 1;
    for (std::size_t b = 0; b < n; b += bucket) {
        std::size_t lo = n, hi = n;
        double low = 0, high = 0;
        for (std::size_t i = b; i < std::min(n, b + bucket); ++i) {
            const std::optional<double> v = value(i);
            if (!v)
                continue;
            if (lo == n || *v < low) {
                lo = i;
                low = *v;
            }
            if (hi == n || *v > high) {
                hi = i;
                high = *v;
            }
        }
        if (lo == n)
            continue;
        const std::size_t first = std::min(lo, hi), second = std::max(lo, hi);
        points.append({time(first), first == lo ? low : high});
        if (lo != hi)
            points.append({time(second), second == lo ? low : high});
    }
    return points;
}

void MemoryAllocationModel::setRows(const TraceModel *model, std::vector<std::size_t> rows)
{
    beginResetModel();
    m_model = model;
    m_rows = std::move(rows);
    pickUnits();
    endResetModel();
}

void MemoryAllocationModel::pickUnits()
{
    m_units.fill(DisplayUnit{});
    if (!m_model)
        return;
    const auto column = [&](auto value) {
        std::vector<decltype(value(m_model->memory().allocations.front()))> values;
        values.reserve(m_rows.size());
        for (const std::size_t row : m_rows)
            values.push_back(value(m_model->memory().allocations[row]));
        return values;
    };
    if (m_rows.empty())
        return;
    using A = MemoryAllocation;
    m_units[Size] = bytesUnitFor(largestOf(column([](const A &a) { return a.bytes; }), kNoBytes));
    const DisplayUnit at = timePointUnitFor(
        static_cast<TimeNs>(std::max(largestOf(column([](const A &a) { return a.allocation; }), kNoTime),
                                     largestOf(column([](const A &a) { return a.release; }), kNoTime))));
    m_units[Allocated] = m_units[Released] = at;
    m_units[Duration] = durationUnitFor(
        static_cast<TimeNs>(largestOf(column([](const A &a) { return a.duration(); }), kNoTime)));
    m_units[ActiveDuration] = durationUnitFor(
        static_cast<TimeNs>(largestOf(column([](const A &a) { return a.activeDuration(); }), kNoTime)));
    m_units[AllocatedAtAllocation] =
        bytesUnitFor(largestOf(column([](const A &a) { return a.allocationAllocated; }), kNoBytes));
    m_units[ReservedAtAllocation] =
        bytesUnitFor(largestOf(column([](const A &a) { return a.allocationReserved; }), kNoBytes));
    m_units[AllocatedAtRelease] =
        bytesUnitFor(largestOf(column([](const A &a) { return a.releaseAllocated; }), kNoBytes));
    m_units[ReservedAtRelease] =
        bytesUnitFor(largestOf(column([](const A &a) { return a.releaseReserved; }), kNoBytes));
}

void MemoryAllocationModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int MemoryAllocationModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MemoryAllocationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryAllocationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Operator");
    // The cells carry their unit (one per column, NumberFormat), so the titles do not.
    case Size:
        return tr("Size");
    case Allocated:
        return tr("Allocated at");
    case Released:
        return tr("Released at");
    case Duration:
        return tr("Duration");
    case ActiveDuration:
        return tr("Active duration");
    case AllocatedAtAllocation:
        return tr("Allocated then");
    case ReservedAtAllocation:
        return tr("Reserved then");
    case AllocatedAtRelease:
        return tr("Allocated at release");
    case ReservedAtRelease:
        return tr("Reserved at release");
    case Stream:
        return tr("Stream");
    default:
        return {};
    }
}

QVariant MemoryAllocationModel::data(const QModelIndex &index, int role) const
{
    if (!m_model || !index.isValid() || static_cast<std::size_t>(index.row()) >= m_rows.size())
        return {};
    const std::size_t row = m_rows[static_cast<std::size_t>(index.row())];
    const MemoryAllocation &a = m_model->memory().allocations[row];
    if (role == kIndexRole)
        return QVariant::fromValue<qulonglong>(row);
    if (role == Qt::ForegroundRole && !a.released() && a.bytes > 0)
        return QApplication::palette().color(QPalette::Link); // flagged: held to the end of the profile
    if (role == Qt::ToolTipRole && !a.released() && a.bytes > 0)
        return tr("Not released inside the profiled window");
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == Stream
                   ? QVariant()
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter); // numbers: their digits align
    const bool sort = role == kSortRole;
    if (!sort && role != Qt::DisplayRole)
        return {};
    const DisplayUnit &unit =
        m_units[static_cast<std::size_t>(std::clamp(index.column(), 0, ColumnCount - 1))];
    auto time = [&](TimeNs t) -> QVariant {
        if (sort)
            return t == kNoTime ? std::numeric_limits<double>::infinity()
                                : ms(t); // a NULL release sorts last
        if (t == kNoTime)
            return QString();
        return index.column() == Allocated || index.column() == Released ? formatTimePointNs(t, unit)
                                                                         : formatDurationNs(t, unit);
    };
    auto bytes = [&](std::int64_t b) -> QVariant {
        if (sort)
            return b == kNoBytes ? -std::numeric_limits<double>::infinity() : static_cast<double>(b);
        return b == kNoBytes ? QString() : formatBytes(static_cast<double>(b), unit);
    };
    switch (index.column()) {
    case Name: {
        const QString name = m_model->strings().qstring(a.name);
        return name.isEmpty() && !sort ? tr("(release only)") : name;
    }
    case Size:
        return sort ? QVariant(static_cast<double>(a.bytes))
                    : QVariant(formatBytes(static_cast<double>(a.bytes), unit));
    case Allocated:
        return time(a.allocation);
    case Released:
        if (!sort && !a.released() && a.bytes > 0)
            return tr("not released");
        return time(a.release);
    case Duration:
        return time(a.duration());
    case ActiveDuration:
        return time(a.activeDuration());
    case AllocatedAtAllocation:
        return bytes(a.allocationAllocated);
    case ReservedAtAllocation:
        return bytes(a.allocationReserved);
    case AllocatedAtRelease:
        return bytes(a.releaseAllocated);
    case ReservedAtRelease:
        return bytes(a.releaseReserved);
    case Stream:
        return m_model->strings().qstring(a.stream);
    default:
        return {};
    }
}

MemoryPanel::MemoryPanel(QWidget *parent)
    : QWidget(parent), m_deviceLabel(new QLabel), m_device(new QComboBox), m_status(new QLabel),
      m_chart(new QChartView), m_liveTitle(new QLabel), m_live(new QTreeWidget), m_liveBox(new QWidget),
      m_tableBox(new QWidget), m_listSplit(new QSplitter(Qt::Horizontal)), m_listTabs(new QTabWidget),
      m_filter(new QLineEdit), m_allocations(new MemoryAllocationModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    top->addWidget(m_deviceLabel);
    top->addWidget(m_device, 1);
    top->addWidget(m_status, 2);
    layout->addLayout(top);
    m_status->setWordWrap(true);

    m_chart->setRenderHint(QPainter::Antialiasing, false);
    // The chart keeps a readable size (with its legend at the right) and scrolls in a dock lower than
    // that, rather than drawing axes of "…".
    m_chart->setMinimumSize(kReadableChartWidth + 160, kReadableChartHeight);
    m_live->setColumnCount(4);
    m_live->setRootIsDecorated(false);
    m_live->header()->setStretchLastSection(false);
    // The numbers are sized to their text; the operator's name takes the rest, elided (full in the tooltip).
    m_live->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_live->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_live->header()->setMinimumSectionSize(60);

    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_allocations);
    m_proxy->setSortRole(MemoryAllocationModel::kSortRole);
    m_proxy->setFilterKeyColumn(MemoryAllocationModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(MemoryAllocationModel::Allocated, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6); // one text line
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

    auto *liveLayout = new QVBoxLayout(m_liveBox);
    liveLayout->setContentsMargins(0, 0, 0, 0);
    liveLayout->addWidget(m_liveTitle);
    liveLayout->addWidget(m_live);
    m_liveTitle->setWordWrap(true);
    auto *tableLayout = new QVBoxLayout(m_tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_filter);
    tableLayout->addWidget(m_table);
    m_listTabs->setDocumentMode(true);
    auto *lists = new QWidget;
    auto *listsLayout = new QVBoxLayout(lists);
    listsLayout->setContentsMargins(0, 0, 0, 0);
    listsLayout->addWidget(m_listSplit);
    listsLayout->addWidget(m_listTabs);
    arrangeLists();
    auto *chartScroll = new QScrollArea;
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    chartScroll->setWidget(m_chart);
    // Across, the chart keeps its readable width (the lists beside it give way); only a low dock scrolls.
    chartScroll->setMinimumWidth(m_chart->minimumWidth() +
                                 chartScroll->verticalScrollBar()->sizeHint().width());
    chartScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(chartScroll);
    split->setCollapsible(0, false);
    split->addWidget(lists);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    connect(m_device, &QComboBox::currentIndexChanged, this, &MemoryPanel::showDevice);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::clicked, this, &MemoryPanel::activateRow);
    connect(m_table, &QTableView::activated, this, &MemoryPanel::activateRow);
    connect(m_live, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem *item) { activateAllocation(item->data(0, Qt::UserRole).toULongLong()); });
    retranslateUi();
}

void MemoryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void MemoryPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeLists();
}

bool MemoryPanel::listsInTabs() const
{
    return m_listTabs->count() > 0;
}

void MemoryPanel::arrangeLists()
{
    // Side by side the lists need about 2 x 400 px beside the chart; narrower, each gets the whole width in
    // its tab (the live list's four columns and the table's first ones then read uncut).
    const bool tabs = width() < kSideBySideWidth;
    if (tabs == listsInTabs() && (m_listSplit->count() > 0 || tabs))
        return;
    if (tabs) {
        m_listTabs->addTab(m_liveBox, QString());
        m_listTabs->addTab(m_tableBox, QString());
        m_listSplit->hide();
        m_listTabs->show();
    } else {
        m_listTabs->clear();
        m_listSplit->addWidget(m_liveBox);
        m_listSplit->addWidget(m_tableBox);
        m_listSplit->setStretchFactor(0, 1); // the live list's four columns need about as much as the
        m_listSplit->setStretchFactor(1, 1); // table's first ones
        m_liveBox->show();
        m_tableBox->show();
        m_listTabs->hide();
        m_listSplit->show();
    }
    retranslateTabs();
}

void MemoryPanel::retranslateTabs()
{
    if (const int live = m_listTabs->indexOf(m_liveBox); live >= 0)
        m_listTabs->setTabText(live, tr("Live at peak"));
    if (const int all = m_listTabs->indexOf(m_tableBox); all >= 0)
        m_listTabs->setTabText(all, tr("All allocations"));
}

void MemoryPanel::retranslateUi()
{
    m_deviceLabel->setText(tr("Device:"));
    // The cells carry their unit (one per column, NumberFormat), so the titles do not.
    m_live->setHeaderLabels({tr("Operator"), tr("Size"), tr("Allocated at"), tr("Lifetime")});
    retranslateTabs();
    m_filter->setPlaceholderText(tr("Filter operators"));
    m_allocations->retranslate();
    fillDevices();
    // The chart's series and the live list are made in the language of the moment: made again.
    showDevice(m_device->currentIndex());
}

void MemoryPanel::fillDevices()
{
    const QSignalBlocker block(m_device);
    const int current = m_device->currentIndex();
    m_device->clear();
    for (const DeviceMemory &d : m_devices) {
        const QString label = m_model->groups()[static_cast<std::size_t>(d.group)].label;
        const QString npu = d.device >= 0 ? tr("NPU %1").arg(d.device) : tr("unknown device");
        m_device->addItem(label.isEmpty() ? npu : QStringLiteral("%1 · %2").arg(label, npu));
    }
    m_device->setCurrentIndex(m_device->count() == 0 ? -1 : std::clamp(current, 0, m_device->count() - 1));
    m_device->setEnabled(m_devices.size() > 1);
    m_status->setText(m_devices.empty()
                          ? tr("No memory data: profile with profile_memory=True "
                               "(memory_record.csv, operator_memory.csv, MEMORY_RECORD, OP_MEMORY).")
                          : QString());
    // One device needs no choosing (its name is in the timeline's headers): the chart gets the row's height.
    m_deviceLabel->setVisible(m_devices.size() > 1);
    m_device->setVisible(m_devices.size() > 1);
    m_status->setVisible(!m_status->text().isEmpty());
}

void MemoryPanel::setModel(const TraceModel *model)
{
    m_model = model;
    m_devices = model ? deviceMemory(model->memory()) : std::vector<DeviceMemory>{};
    if (model)
        m_range = {model->dataBegin(), model->dataEnd()};
    {
        const QSignalBlocker block(m_device);
        m_device->clear(); // a new model starts on its first device
    }
    fillDevices();
    showDevice(m_devices.empty() ? -1 : 0);
}

void MemoryPanel::replaceChart(QChart *chart)
{
    QChart *old = m_chart->chart();
    m_chart->setChart(chart); // releases (does not delete) the previous chart
    if (old && old != chart)
        old->deleteLater();
}

void MemoryPanel::showDevice(int index)
{
    auto *chart = new QChart;
    chart->setTheme(isDark(QApplication::palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignRight); // eight series: a bottom legend elides their names
    m_live->clear();
    m_liveTitle->clear();
    if (index < 0 || static_cast<std::size_t>(index) >= m_devices.size() || !m_model) {
        m_allocations->setRows(m_model, {});
        replaceChart(chart);
        return;
    }
    const DeviceMemory &d = m_devices[static_cast<std::size_t>(index)];
    const MemoryProfile &profile = m_model->memory();
    auto *x = new QValueAxis;
    x->setTitleText(tr("Time (ms)"));
    auto *y = new QValueAxis;
    y->setTitleText(tr("Memory (MB)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto *peaks = new QScatterSeries;
    peaks->setName(tr("Peaks"));
    peaks->setMarkerSize(9);
    // A sum of components (PTA+GE) is drawn first and wide, its parts (PTA, GE) above it and thin, so a
    // part that equals the sum still shows on top of it; reserved curves are dashed. Every series has its
    // own fixed colour (the same in both themes); seriesColor(2) is the peaks'.
    std::vector<const ComponentPeaks *> order;
    for (const ComponentPeaks &p : d.components)
        if (profile.curves[p.curve].kind == MemoryCurveKind::Component)
            order.push_back(&p); // modules: the Memory modules lanes of the timeline
    std::stable_partition(order.begin(), order.end(), [&](const ComponentPeaks *p) {
        return profile.curves[p->curve].component.contains(QLatin1Char('+'));
    });
    peaks->setColor(seriesColor(kPeakColor));
    peaks->setBorderColor(seriesColor(kPeakColor).darker(140));
    double top = 0;
    int colour = 0;
    for (const ComponentPeaks *p : order) {
        const MemoryCurve &c = profile.curves[p->curve];
        const bool sum = c.component.contains(QLatin1Char('+'));
        const std::pair<MemoryMetric, std::optional<MemoryPeak>> metrics[] = {
            {MemoryMetric::Allocated, p->allocated}, {MemoryMetric::Reserved, p->reserved}};
        for (const auto &[metric, peak] : metrics) {
            if (!peak)
                continue;
            auto *series = new QLineSeries;
            //: A chart series: "PTA+GE allocated", "APP reserved"
            series->setName(metric == MemoryMetric::Allocated ? tr("%1 allocated").arg(c.component)
                                                              : tr("%1 reserved").arg(c.component));
            if (colour == kPeakColor)
                ++colour;
            QPen pen(seriesColor(colour++));
            pen.setWidthF(sum ? 4.0 : 1.5);
            pen.setStyle(metric == MemoryMetric::Reserved ? Qt::DashLine : Qt::SolidLine);
            series->setPen(pen);
            addCurve(series, c, metric);
            chart->addSeries(series);
            series->attachAxis(x);
            series->attachAxis(y);
            const double mb = static_cast<double>(peak->bytes) / kBytesPerMB;
            peaks->append(ms(peak->time), mb);
            top = std::max(top, mb);
        }
    }
    chart->addSeries(peaks);
    peaks->attachAxis(x);
    peaks->attachAxis(y);
    applyNiceScale(y, 0, top, 4); // round ticks: 0 / 200 / 400 / 600 MB
    setRangeWithRoundTicks(x, ms(m_range.start), ms(std::max(m_range.end, m_range.start + 1)));
    replaceChart(chart);

    if (d.overallPeak) {
        m_liveTitle->setText(tr("Live at the %1 peak: %2 at %3 ms, %n allocation(s), largest first", "",
                                static_cast<int>(d.liveAtPeak.size()))
                                 .arg(profile.curves[static_cast<std::size_t>(d.overall)].component,
                                      formatBytes(static_cast<double>(d.overallPeak->bytes)),
                                      msText(d.overallPeak->time)));
        // One unit per column, from its largest value.
        double largestSize = 0, largestTime = 0, largestLifetime = 0;
        for (std::size_t i : d.liveAtPeak) {
            const MemoryAllocation &a = profile.allocations[i];
            largestSize = std::max(largestSize, std::abs(static_cast<double>(a.bytes)));
            if (a.allocation != kNoTime)
                largestTime = std::max(largestTime, std::abs(static_cast<double>(a.allocation)));
            if (a.released())
                largestLifetime = std::max(largestLifetime, std::abs(static_cast<double>(a.duration())));
        }
        const DisplayUnit sizeUnit = bytesUnitFor(largestSize);
        const DisplayUnit timeUnit = timePointUnitFor(static_cast<TimeNs>(largestTime));
        const DisplayUnit lifetimeUnit = durationUnitFor(static_cast<TimeNs>(largestLifetime));
        for (std::size_t i : d.liveAtPeak) {
            const MemoryAllocation &a = profile.allocations[i];
            auto *item = new QTreeWidgetItem(m_live);
            const QString name = m_model->strings().qstring(a.name);
            item->setText(0, name);
            item->setToolTip(0, name);
            item->setText(1, formatBytes(static_cast<double>(a.bytes), sizeUnit));
            item->setText(2, a.allocation == kNoTime ? QString() : formatTimePointNs(a.allocation, timeUnit));
            item->setText(3,
                          a.released() ? formatDurationNs(a.duration(), lifetimeUnit) : tr("not released"));
            for (const int column : {1, 2, 3})
                item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
            item->setData(0, Qt::UserRole, QVariant::fromValue<qulonglong>(i));
        }
    } else {
        m_liveTitle->setText(tr("No operator curve (PTA+GE, PTA or GE) on this device: no peak to inspect."));
    }
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < profile.allocations.size(); ++i)
        if (profile.allocations[i].group == d.group && profile.allocations[i].device == d.device)
            rows.push_back(i);
    m_allocations->setRows(m_model, std::move(rows));
    m_table->resizeColumnsToContents();
}

void MemoryPanel::setVisibleRange(TimeRange range)
{
    m_range = range;
    if (QChart *chart = m_chart->chart())
        for (QAbstractAxis *axis : chart->axes(Qt::Horizontal))
            if (auto *values = qobject_cast<QValueAxis *>(axis))
                setRangeWithRoundTicks(values, ms(range.start), ms(std::max(range.end, range.start + 1)));
}

void MemoryPanel::activateRow(const QModelIndex &index)
{
    if (index.isValid())
        activateAllocation(m_proxy->data(index, MemoryAllocationModel::kIndexRole).toULongLong());
}

void MemoryPanel::activateAllocation(std::size_t allocation)
{
    if (!m_model || allocation >= m_model->memory().allocations.size())
        return;
    // The slice first: selecting it clears the span the timeline showed before.
    Q_EMIT sliceRequested(hostSliceOf(*m_model, m_model->memory().allocations[allocation]));
    if (const std::optional<TimelineSpan> span = lifetimeSpan(allocation))
        Q_EMIT spanRequested(*span);
}

std::optional<TimelineSpan> MemoryPanel::lifetimeSpan(std::size_t allocation) const
{
    if (!m_model || allocation >= m_model->memory().allocations.size())
        return std::nullopt;
    const MemoryAllocation &a = m_model->memory().allocations[allocation];
    if (a.allocation == kNoTime || a.bytes <= 0)
        return std::nullopt; // a release-only row has no lifetime inside the profile
    TimelineSpan span;
    span.begin = a.allocation;
    span.end = a.released() ? a.release : std::max(a.allocation, m_model->dataEnd());
    if (const int process = memoryLaneProcess(*m_model, a.group, a.device); process >= 0)
        span.processes.push_back(process);
    if (const SliceRef host = hostSliceOf(*m_model, a); host.isValid())
        span.threads.push_back(host.thread);
    const QString name = m_model->strings().qstring(a.name);
    // Size and time in the one formatter's scaled units, as the Memory dock's columns write them.
    //: The label of an allocation's lifetime on the timeline: "aten::mm · 144.00 MB · 10.923 ms"
    span.label = a.released() ? tr("%1 · %2 · %3")
                                    .arg(name, formatBytes(static_cast<double>(a.bytes)),
                                         formatDurationNs(a.duration()))
                              //: The same for an allocation held to the end of the profile: "… · not released
                              //: (2.5 ms to the end)"
                              : tr("%1 · %2 · not released (%3 to the end)")
                                    .arg(name, formatBytes(static_cast<double>(a.bytes)),
                                         formatDurationNs(span.end - span.begin));
    return span;
}

} // namespace at
