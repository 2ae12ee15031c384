#include "StepCompareView.h"

#include "ChangeColors.h"
#include "ComparisonTableModel.h"
#include "MemoryPanel.h"
#include "NumberFormat.h"
#include "TableExport.h"
#include "Theme.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace at {

namespace {

constexpr int kMemoryTab = 2; // after By name and Per kernel

// The colour scale of the panes: faster (green) .. same .. slower (red), and unmatched grey.
QPixmap scaleLegend()
{
    const int barWidth = 160, height = 18;
    QPixmap pixmap(barWidth + 300, height);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.drawText(QRect(0, 0, 70, height), Qt::AlignVCenter | Qt::AlignRight, QObject::tr("½× faster"));
    for (int x = 0; x < barWidth; ++x)
        p.fillRect(QRect(76 + x, 3, 1, height - 6), durationChangeScale(-1.0 + 2.0 * x / (barWidth - 1)));
    p.drawText(QRect(82 + barWidth, 0, 70, height), Qt::AlignVCenter | Qt::AlignLeft,
               QObject::tr("2× slower"));
    p.fillRect(QRect(160 + barWidth, 3, 14, height - 6), unmatchedKernelColor());
    p.drawText(QRect(178 + barWidth, 0, 120, height), Qt::AlignVCenter | Qt::AlignLeft,
               QObject::tr("unmatched"));
    return pixmap;
}

QString deltaText(const QString &label, const TimePair &t)
{
    const TimeNs d = t.diff();
    QString percent;
    if (t.base > 0)
        percent = QStringLiteral(" (%1%2)").arg(
            d >= 0 ? QStringLiteral("+") : QString(),
            formatPercent(100.0 * static_cast<double>(d) / static_cast<double>(t.base)));
    // Inside a value the spaces do not break: the label wraps between values only.
    const auto value = [](const QString &text) {
        return QString(text).replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    };
    return QStringLiteral("<b>%1</b> %2 → %3%4")
        .arg(label, value(formatDurationNs(t.base)), value(formatDurationNs(t.comparison)), value(percent));
}

QTableView *makeTable(QSortFilterProxyModel *proxy)
{
    auto *table = new QTableView;
    proxy->setSortRole(Qt::UserRole);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

} // namespace

StepCompareView::StepCompareView(QWidget *parent)
    : QWidget(parent), m_panes{new TimelineView, new TimelineView}, m_paneTitles{new QLabel, new QLabel},
      m_alignChooser(new QComboBox), m_shapes(new QCheckBox), m_legend(new QLabel),
      m_memoryChart(new QChartView), m_summary(new QLabel), m_tabs(new QTabWidget),
      m_nameModel(new ComparisonTableModel(ComparisonTableModel::Level::ByName, this)),
      m_kernelModel(new ComparisonTableModel(ComparisonTableModel::Level::PerKernel, this)),
      m_nameProxy(new QSortFilterProxyModel(this)), m_kernelProxy(new QSortFilterProxyModel(this))
{
    m_nameProxy->setSourceModel(m_nameModel);
    m_kernelProxy->setSourceModel(m_kernelModel);
    m_nameTable = makeTable(m_nameProxy);
    m_kernelTable = makeTable(m_kernelProxy);
    addCsvExportAction(m_nameTable, QStringLiteral("step_diff_by_name.csv"));
    addCsvExportAction(m_kernelTable, QStringLiteral("step_diff.csv"));
    m_tabs->addTab(m_nameTable, QString());
    m_tabs->addTab(m_kernelTable, QString());
    m_tabs->addTab(m_memoryChart, QString());
    m_tabs->setTabVisible(kMemoryTab, false);
    m_memoryChart->setRenderHint(QPainter::Antialiasing, false);

    m_alignChooser->addItem(QString());
    m_alignChooser->addItem(QString());
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_alignChooser);
    bar->addWidget(m_shapes);
    bar->addStretch(1);
    bar->addWidget(m_legend);

    auto *splitter = new QSplitter(Qt::Vertical);
    for (int i = 0; i < 2; ++i) {
        auto *box = new QWidget;
        auto *layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        layout->addWidget(m_paneTitles[i]);
        layout->addWidget(m_panes[i], 1);
        splitter->addWidget(box);
        TimelineView *pane = m_panes[i];
        connect(pane->zoom(), &ZoomController::rangeChanged, this, [this, i] {
            syncFrom(i);
            updateMemoryAxis();
        });
        connect(pane->verticalScrollBar(), &QScrollBar::valueChanged, this, [this, i] { syncScrollFrom(i); });
        connect(pane, &TimelineView::selectionChanged, this,
                [this, i](SliceRef ref) { onPaneSelection(i, ref); });
        connect(pane, &TimelineView::hovered, this, [this, i](SliceRef ref) { onPaneHover(i, ref); });
        pane->setColorOverride([this, i](SliceRef ref) -> std::optional<QColor> {
            const auto pair = pairOf(i, ref);
            if (!pair)
                return std::nullopt;
            return durationChangeColor(m_comparison.kernels[*pair]);
        });
    }
    auto *bottom = new QWidget;
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bottomLayout->addWidget(m_summary);
    bottomLayout->addWidget(m_tabs, 1);
    splitter->addWidget(bottom);
    splitter->setSizes({300, 300, 260});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(m_alignChooser, &QComboBox::currentIndexChanged, this,
            [this](int index) { setAlign(index == 0 ? Align::StepStart : Align::SelectedKernel); });
    connect(m_shapes, &QCheckBox::toggled, this, &StepCompareView::setMatchShapes);
    connect(m_kernelTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    showPair(static_cast<std::size_t>(m_kernelProxy->mapToSource(current).row()));
            });
    connect(
        m_nameTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (!current.isValid())
                return;
            const QString &name =
                m_comparison.byName[static_cast<std::size_t>(m_nameProxy->mapToSource(current).row())].name;
            // The first matched pair of that name, else its first occurrence.
            std::optional<std::size_t> first;
            for (std::size_t k = 0; k < m_comparison.kernels.size(); ++k) {
                const KernelPair &p = m_comparison.kernels[k];
                if (p.name != name)
                    continue;
                if (p.matched()) {
                    first = k;
                    break;
                }
                if (!first)
                    first = k;
            }
            if (first)
                showPair(*first);
        });
    retranslateUi();
}

void StepCompareView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void StepCompareView::retranslateUi()
{
    m_tabs->setTabText(0, tr("By name"));
    m_tabs->setTabText(1, tr("Per kernel"));
    m_tabs->setTabText(kMemoryTab, tr("Memory"));
    m_alignChooser->setItemText(0, tr("Align on step start"));
    m_alignChooser->setItemText(1, tr("Align on selected kernel"));
    m_shapes->setText(tr("Match input shapes"));
    m_legend->setPixmap(scaleLegend());
    Q_EMIT m_nameModel->headerDataChanged(Qt::Horizontal, 0, m_nameModel->columnCount() - 1);
    Q_EMIT m_kernelModel->headerDataChanged(Qt::Horizontal, 0, m_kernelModel->columnCount() - 1);
    if (!m_models[0])
        return;
    updatePaneTitles();
    updateSummary();
    updateMemory();
}

StepCompareView::~StepCompareView()
{
    for (TimelineView *pane : m_panes) {
        pane->setColorOverride({});
        pane->setModel(nullptr);
    }
}

const Step &StepCompareView::baseStep() const
{
    return m_models[0]->steps()[static_cast<std::size_t>(m_steps[0])];
}

const Step &StepCompareView::comparisonStep() const
{
    return m_models[1]->steps()[static_cast<std::size_t>(m_steps[1])];
}

void StepCompareView::setSteps(const TraceModel *baseModel, int baseStep, const TraceModel *comparisonModel,
                               int comparisonStep, const QString &baseLabel, const QString &comparisonLabel)
{
    m_models[0] = baseModel;
    m_models[1] = comparisonModel;
    m_steps[0] = baseStep;
    m_steps[1] = comparisonStep;
    m_labels[0] = baseLabel;
    m_labels[1] = comparisonLabel;
    m_selectedPair.reset();
    const Step *steps[2] = {&this->baseStep(), &this->comparisonStep()};
    for (int i = 0; i < 2; ++i) {
        TimelineView *pane = m_panes[i];
        pane->setModel(m_models[i]);
        pane->setTimeOrigin(steps[i]->begin());
        // Each pane shows its step's rank only (two ranks of one profile would otherwise both be in
        // both panes, the other rank's kernels uncoloured), counters collapsed.
        LaneVisibility lanes;
        for (const ProcessInfo &p : m_models[i]->processes()) {
            const int process = static_cast<int>(&p - m_models[i]->processes().data());
            if (p.group != steps[i]->group)
                lanes.hiddenProcesses.insert(process);
            else if (p.layer == Layer::Counters)
                pane->setCollapsed(process, true);
        }
        pane->setLaneVisibility(lanes);
    }
    updatePaneTitles();
    updateMemory();
    recompare();
    alignOn(std::nullopt);
    m_panes[0]->zoom()->fit({steps[0]->begin(), steps[0]->end()});
    // Open on the coloured device lanes, not on the host stack above them.
    for (int i = 0; i < 2; ++i)
        m_panes[i]->verticalScrollBar()->setValue(deviceLanesTop(i));
}

void StepCompareView::updatePaneTitles()
{
    const Step *steps[2] = {&baseStep(), &comparisonStep()};
    for (int i = 0; i < 2; ++i)
        //: A compare pane's title: "Base: <run · rank · step> — 12.3 ms, time from step start"
        m_paneTitles[i]->setText(tr("<b>%1</b> %2 — %3, time from step start")
                                     .arg(i == 0 ? tr("Base:") : tr("Comparison:"),
                                          m_labels[i].toHtmlEscaped(),
                                          formatDurationNs(steps[i]->duration())));
}

void StepCompareView::updateMemory()
{
    m_memory = compareStepMemory(m_models[0]->memory(), baseStep(), m_models[1]->memory(), comparisonStep());
    auto *chart = new QChart;
    chart->setTheme(isDark(QApplication::palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
    chart->setAnimationOptions(QChart::NoAnimation);
    // The tab is short: no margins, the legend beside the plot, whole-number labels.
    chart->setMargins(QMargins(0, 0, 0, 0));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignRight);
    auto *x = new QValueAxis;
    x->setTitleText(tr("Time from step start (ms)"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto *y = new QValueAxis;
    y->setTitleText(tr("Allocated (MB)"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTickCount(3);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto *peaks = new QScatterSeries;
    peaks->setName(tr("Peaks"));
    peaks->setMarkerSize(9);
    double top = 0;
    const StepMemorySide *sides[2] = {&m_memory.base, &m_memory.comparison};
    for (int i = 0; i < 2; ++i) {
        const StepMemorySide &side = *sides[i];
        if (side.curve < 0)
            continue;
        const QString &component =
            m_models[i]->memory().curves[static_cast<std::size_t>(side.curve)].component;
        auto *series = new QLineSeries;
        //: A compare chart series: "Base: PTA+GE allocated"
        series->setName(i == 0 ? tr("Base: %1 allocated").arg(component)
                               : tr("Comparison: %1 allocated").arg(component));
        const std::vector<MemoryPoint> &points = side.points;
        series->replace(memoryChartPoints(
            points.size(), [&](std::size_t k) { return static_cast<double>(points[k].time) / 1e6; },
            [&](std::size_t k) -> std::optional<double> {
                return static_cast<double>(points[k].bytes) / (1024.0 * 1024.0);
            }));
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        if (side.step) {
            const double mb = static_cast<double>(side.step->peakBytes) / (1024.0 * 1024.0);
            peaks->append(static_cast<double>(side.step->peakTime) / 1e6, mb);
            top = std::max(top, mb);
        }
    }
    chart->addSeries(peaks);
    peaks->attachAxis(x);
    peaks->attachAxis(y);
    y->setRange(0, top > 0 ? top * 1.05 : 1);
    QChart *old = m_memoryChart->chart();
    m_memoryChart->setChart(chart); // releases (does not delete) the previous chart
    if (old && old != chart)
        old->deleteLater();
    m_tabs->setTabVisible(kMemoryTab, !m_memory.isEmpty());
    updateMemoryAxis();
}

void StepCompareView::updateMemoryAxis()
{
    if (!m_models[0] || !m_memoryChart->chart())
        return;
    // The base pane's visible range, counted from its step's start.
    const TimeRange r = m_panes[0]->zoom()->range();
    const TimeNs begin = baseStep().begin();
    for (QAbstractAxis *axis : m_memoryChart->chart()->axes(Qt::Horizontal))
        axis->setRange(static_cast<double>(r.start - begin) / 1e6,
                       static_cast<double>(std::max(r.end, r.start + 1) - begin) / 1e6);
}

QString StepCompareView::memoryPeakText() const
{
    if (!m_memory.base.step && !m_memory.comparison.step)
        return {};
    const auto peak = [](const StepMemorySide &side) {
        if (!side.step)
            return tr("no data");
        //: A step's memory peak: "1,261.04 MB at 12.345 ms" (time from the step start)
        return tr("%1 at %2")
            .arg(formatBytes(static_cast<double>(side.step->peakBytes)),
                 formatDurationNs(side.step->peakTime));
    };
    const StepMemorySide &named = m_memory.base.curve >= 0 ? m_memory.base : m_memory.comparison;
    const TraceModel *model = m_memory.base.curve >= 0 ? m_models[0] : m_models[1];
    const QString component = model->memory().curves[static_cast<std::size_t>(named.curve)].component;
    QString text = tr("Memory peak (%1 allocated): %2 → %3")
                       .arg(component, peak(m_memory.base), peak(m_memory.comparison));
    if (const auto diff = m_memory.peakDiffBytes()) {
        // In the unit of its own magnitude (a small difference in B or KB: "+0.00 MB" would hide it).
        const QString sign = *diff >= 0 ? QStringLiteral("+") : QString();
        text += QStringLiteral(" (%1%2)").arg(sign, formatBytes(static_cast<double>(*diff)));
    }
    return text;
}

int StepCompareView::deviceLanesTop(int pane) const
{
    const std::vector<ProcessInfo> &processes = m_models[pane]->processes();
    for (const LaneRow &row : m_panes[pane]->layout().rows())
        if (row.kind == LaneRow::Kind::ProcessHeader &&
            processes[static_cast<std::size_t>(row.process)].layer == Layer::DeviceStreams)
            return row.y;
    return 0;
}

void StepCompareView::syncScrollFrom(int pane)
{
    if (m_syncing || !m_models[0])
        return;
    // The panes keep their device lanes at the same height (their host stacks may differ).
    m_syncing = true;
    const int other = 1 - pane;
    const int value =
        m_panes[pane]->verticalScrollBar()->value() - deviceLanesTop(pane) + deviceLanesTop(other);
    m_panes[other]->verticalScrollBar()->setValue(value);
    m_syncing = false;
}

void StepCompareView::recompare()
{
    m_nameModel->setComparison(nullptr);
    m_kernelModel->setComparison(nullptr);
    m_comparison = compareSteps(*m_models[0], baseStep(), *m_models[1], comparisonStep(), m_options);
    for (int i = 0; i < 2; ++i) {
        m_pairBySlice[i].clear();
        for (std::size_t k = 0; k < m_comparison.kernels.size(); ++k) {
            const SliceRef ref = sideOf(m_comparison.kernels[k], i);
            if (ref.isValid())
                m_pairBySlice[i].insert(sliceKey(ref), k);
        }
        m_panes[i]->refreshColors();
    }
    m_nameModel->setComparison(&m_comparison);
    m_kernelModel->setComparison(&m_comparison);
    m_nameTable->sortByColumn(-1, Qt::AscendingOrder); // keep the |diff| order of the comparison
    m_kernelTable->sortByColumn(ComparisonTableModel::kPerKernelDiffColumn,
                                Qt::DescendingOrder); // largest first
    m_kernelTable->resizeColumnsToContents();
    m_nameTable->resizeColumnsToContents();
    updateSummary();
}

void StepCompareView::updateSummary()
{
    const StepComparison &c = m_comparison;
    QStringList parts{deltaText(tr("Step"), c.stepTime), deltaText(tr("Computing"), c.computing),
                      deltaText(tr("Communication"), c.communication),
                      deltaText(tr("Not overlapped"), c.communicationNotOverlapped),
                      deltaText(tr("Free"), c.free)};
    m_summary->setText(
        parts.join(QStringLiteral(" &nbsp;·&nbsp; ")) +
        tr("<br>Kernels: %1 matched, %2 only in base, %3 only in comparison")
            .arg(formatCount(static_cast<qint64>(c.matched)), formatCount(static_cast<qint64>(c.onlyInBase)),
                 formatCount(static_cast<qint64>(c.onlyInComparison))) +
        (m_memory.isEmpty() ? QString() : QStringLiteral("<br>") + memoryPeakText().toHtmlEscaped()));
}

void StepCompareView::setMatchShapes(bool on)
{
    if (m_options.matchShapes == on)
        return;
    m_options.matchShapes = on;
    const QSignalBlocker blocker(m_shapes);
    m_shapes->setChecked(on);
    if (m_models[0]) {
        m_selectedPair.reset();
        recompare();
        alignOn(std::nullopt);
    }
}

void StepCompareView::setAlign(Align align)
{
    m_align = align;
    const QSignalBlocker blocker(m_alignChooser);
    m_alignChooser->setCurrentIndex(align == Align::StepStart ? 0 : 1);
    if (m_models[0])
        alignOn(align == Align::SelectedKernel ? m_selectedPair : std::nullopt);
}

void StepCompareView::alignOn(std::optional<std::size_t> pair)
{
    if (pair && m_comparison.kernels[*pair].matched()) {
        const KernelPair &p = m_comparison.kernels[*pair];
        m_offsets[0] = baseStep().begin() + p.baseOffset;
        m_offsets[1] = comparisonStep().begin() + p.comparisonOffset;
    } else {
        m_offsets[0] = baseStep().begin();
        m_offsets[1] = comparisonStep().begin();
    }
    syncFrom(0);
}

void StepCompareView::alignOnTimes(TimeNs baseTime, TimeNs comparisonTime)
{
    m_offsets[0] = baseTime;
    m_offsets[1] = comparisonTime;
    syncFrom(0);
}

void StepCompareView::syncFrom(int pane)
{
    if (m_syncing || !m_models[0])
        return;
    m_syncing = true;
    const int other = 1 - pane;
    const TimeRange r = m_panes[pane]->zoom()->range();
    const TimeNs shift = m_offsets[other] - m_offsets[pane];
    m_panes[other]->zoom()->setRange({r.start + shift, r.end + shift}, false);
    m_syncing = false;
}

std::optional<std::size_t> StepCompareView::pairOf(int pane, SliceRef ref) const
{
    if (!ref.isValid())
        return std::nullopt;
    const auto it = m_pairBySlice[pane].constFind(sliceKey(ref));
    if (it == m_pairBySlice[pane].constEnd())
        return std::nullopt;
    return *it;
}

void StepCompareView::onPaneHover(int pane, SliceRef ref)
{
    const auto pair = pairOf(pane, ref);
    if (pair)
        m_panes[1 - pane]->setHighlightedSlice(sideOf(m_comparison.kernels[*pair], 1 - pane));
    else if (m_selectedPair)
        m_panes[1 - pane]->setHighlightedSlice(sideOf(m_comparison.kernels[*m_selectedPair], 1 - pane));
    else
        m_panes[1 - pane]->setHighlightedSlice({});
}

void StepCompareView::onPaneSelection(int pane, SliceRef ref)
{
    if (m_syncing)
        return;
    const auto pair = pairOf(pane, ref);
    m_selectedPair = pair;
    m_panes[1 - pane]->setHighlightedSlice(pair ? sideOf(m_comparison.kernels[*pair], 1 - pane) : SliceRef{});
    if (!pair)
        return;
    {
        const QSignalBlocker blocker(m_kernelTable->selectionModel());
        const QModelIndex row =
            m_kernelProxy->mapFromSource(m_kernelModel->index(static_cast<int>(*pair), 0));
        m_kernelTable->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect |
                                                                  QItemSelectionModel::Rows);
        m_kernelTable->scrollTo(row);
    }
    if (m_align == Align::SelectedKernel)
        alignOn(pair);
}

void StepCompareView::showPair(std::size_t pair)
{
    if (pair >= m_comparison.kernels.size())
        return;
    const KernelPair &p = m_comparison.kernels[pair];
    m_selectedPair = pair;
    m_syncing = true; // the selections below are ours: do not treat them as user clicks
    for (int i = 0; i < 2; ++i) {
        m_panes[i]->selectSlice(sideOf(p, i), false);
        m_panes[i]->setHighlightedSlice(sideOf(p, i));
        m_panes[i]->revealSliceRow(sideOf(p, i));
    }
    m_syncing = false;
    if (m_align == Align::SelectedKernel)
        alignOn(pair);
    // Centre the pair, keeping the zoom unless the kernel would be thinner than a few pixels: the base
    // kernel (or the comparison one when the base has none).
    const int pane = p.base.isValid() ? 0 : 1;
    const TimeNs at =
        (pane == 0 ? baseStep().begin() + p.baseOffset : comparisonStep().begin() + p.comparisonOffset);
    m_panes[pane]->revealSpan(at, at + (pane == 0 ? p.baseDuration : p.comparisonDuration));
}

} // namespace at
