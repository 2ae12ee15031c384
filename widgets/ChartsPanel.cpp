#include "ChartsPanel.h"

#include "ChartScale.h"
#include "Theme.h"

#include <QApplication>
#include <QEvent>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QPainter>
#include <QPieSeries>
#include <QPieSlice>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace at {

namespace {

constexpr int kMaxLabel = 48;
// A label of the category axis: short enough to fit beside the bars in a 900-pixel window (Qt Charts
// cuts a longer one with "...").
constexpr int kMaxCategoryLabel = 40;

// The head and the tail of a long name around "…"; headShare of it is the head (kernel names differ
// more at their start).
QString elided(const QString &text, int max = kMaxLabel, double headShare = 0.5)
{
    if (text.size() <= max)
        return text;
    const int head = static_cast<int>((max - 1) * headShare);
    return text.left(head) + QChar(0x2026) + text.right(max - 1 - head);
}

QString usText(double us)
{
    return us >= 1000 ? QStringLiteral("%1 ms").arg(us / 1000.0, 0, 'f', 3)
                      : QStringLiteral("%1 µs").arg(us, 0, 'f', 3);
}

double toUs(TimeNs ns)
{
    return static_cast<double>(ns) / 1000.0;
}

QChart *newChart(const QString &title)
{
    auto *chart = new QChart;
    // Before any series is added, so the builders' own colours win over the theme's.
    chart->setTheme(isDark(QApplication::palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

// A chart without data says why in its title.
QChart *emptyChart(const TraceModel &model, const QString &what)
{
    if (model.kernels().empty())
        return newChart(
            QObject::tr("%1: no kernel table (kernel_details.csv / op_summary_*.csv) in this profile")
                .arg(what));
    return newChart(QObject::tr("%1: nothing to show").arg(what));
}

// The height at which a chart's texts all read: the readable minimum, more for a bar chart with many
// categories down its side (a line of text each, plus the title, the value axis and the legend).
int readableHeight(const QChart *chart, const QFontMetrics &metrics)
{
    int categories = 0;
    for (QAbstractAxis *axis : chart->axes(Qt::Vertical))
        if (auto *bars = qobject_cast<QBarCategoryAxis *>(axis))
            categories = std::max(categories, static_cast<int>(bars->count()));
    return std::max(kReadableChartHeight, categories * (metrics.height() + 10) + 12 * metrics.height());
}

QVariant rowsVariant(const std::vector<std::size_t> &rows)
{
    QList<qulonglong> list;
    list.reserve(static_cast<qsizetype>(rows.size()));
    for (std::size_t r : rows)
        list.push_back(r);
    return QVariant::fromValue(list);
}

// Value axis from 0 with a little headroom, and a category axis, attached to a bar series.
void attachBarAxes(QChart *chart, QAbstractBarSeries *series, const QStringList &categories, double maxValue,
                   const QString &valueTitle, double fixedMax = -1)
{
    auto *categoryAxis = new QBarCategoryAxis;
    categoryAxis->append(categories);
    auto *valueAxis = new QValueAxis;
    valueAxis->setTitleText(valueTitle);
    if (fixedMax > 0)
        applyNiceScale(valueAxis, 0, fixedMax, 5); // 0 / 20 / 40 / ... / 100 %
    else
        applyNiceScale(valueAxis, 0, maxValue, 5);
    chart->addAxis(categoryAxis, Qt::AlignLeft);
    chart->addAxis(valueAxis, Qt::AlignBottom);
    series->attachAxis(categoryAxis);
    series->attachAxis(valueAxis);
}

QString coreTitle(const QString &core)
{
    if (core == QLatin1String("aic"))
        return QObject::tr("AI Cube (aic)");
    if (core == QLatin1String("aiv"))
        return QObject::tr("AI Vector (aiv)");
    return QObject::tr("AI Core");
}

QColor pipeColor(const QString &pipe)
{
    static const std::pair<const char *, QRgb> colors[] = {
        {"vec", 0x59a14f},  {"mac", 0x4e79a7},  {"scalar", 0xedc948}, {"mte1", 0xf28e2b},
        {"mte2", 0xe15759}, {"mte3", 0xff9da7}, {"fixpipe", 0x76b7b2}};
    for (const auto &[name, rgb] : colors)
        if (pipe == QLatin1String(name))
            return QColor(rgb);
    return QColor(0x9c, 0x9c, 0x9c);
}

QString kernelLabel(const TraceModel &model, std::size_t row)
{
    return model.strings().qstring(model.kernels().rows()[row].name);
}

QChart *buildPipeChart(const TraceModel &model, const std::vector<std::size_t> &kernels,
                       const std::vector<KernelMetricBars> &bars)
{
    const bool single = kernels.size() == 1;
    const QString title =
        single ? QObject::tr("Pipe utilization: %1").arg(elided(kernelLabel(model, kernels[0])))
               : QObject::tr("Pipe utilization: %1 kernels").arg(kernels.size());
    QChart *chart = newChart(title);
    // One category per (kernel, core) with a busy pipe; listed top-down, so built bottom-up.
    struct Category
    {
        std::size_t kernel;
        QString core;
        QString label;
        QString toolTip;
    };
    std::vector<Category> categories;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        if (bars[k].kind != MetricChartKind::PipeUtilization)
            continue;
        QStringList cores, busy;
        for (const MetricBar &bar : bars[k].bars) {
            if (!cores.contains(bar.core))
                cores.push_back(bar.core);
            if (bar.value > 0 && !busy.contains(bar.core))
                busy.push_back(bar.core);
        }
        for (const QString &core : busy.isEmpty() ? cores : busy) {
            QString tip = QStringLiteral("%1 · %2").arg(kernelLabel(model, kernels[k]), coreTitle(core));
            for (const MetricBar &bar : bars[k].bars)
                if (bar.core == core)
                    tip += QStringLiteral("\n%1_ratio: %2").arg(bar.label).arg(bar.value);
            const QString label = single ? coreTitle(core)
                                         : QStringLiteral("%1. %2 · %3")
                                               .arg(k + 1)
                                               .arg(elided(kernelLabel(model, kernels[k]), 32), core);
            categories.push_back({k, core, label, tip});
        }
    }
    std::reverse(categories.begin(), categories.end());
    // Side by side, not stacked: the pipes of a core run in parallel, so their ratios do not add up.
    auto *series = new QHorizontalBarSeries;
    series->setProperty(kRowsPerCategoryProperty, true);
    double most = 0;
    for (const QString &pipe : pipeNames()) {
        bool present = false;
        QList<qreal> values;
        for (std::size_t c = 0; c < categories.size(); ++c) {
            double value = 0;
            for (const MetricBar &bar : bars[categories[c].kernel].bars) {
                if (bar.core == categories[c].core && bar.label == pipe) {
                    value = bar.value * 100.0;
                    present = true;
                }
            }
            most = std::max(most, value);
            values.push_back(value);
        }
        if (!present)
            continue;
        auto *set = new QBarSet(pipe);
        set->setColor(pipeColor(pipe));
        set->append(values);
        series->append(set);
    }
    QStringList labels, tips;
    std::vector<std::size_t> rows;
    for (const Category &c : categories) {
        labels.push_back(c.label);
        tips.push_back(c.toolTip);
        rows.push_back(kernels[c.kernel]);
    }
    series->setProperty(kKernelRowsProperty, rowsVariant(rows));
    series->setProperty(kToolTipsProperty, tips);
    chart->addSeries(series);
    series->setBarWidth(0.8);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    // Each bar is one pipe's share of the kernel's time: 0-100 %.
    attachBarAxes(chart, series, labels, most, QObject::tr("Busy time of each pipe (% of kernel time)"),
                  std::max(100.0, most));
    return chart;
}

QChart *buildValueBarsChart(const TraceModel &model, const std::vector<std::size_t> &kernels,
                            const std::vector<KernelMetricBars> &bars, MetricChartKind kind)
{
    const bool bandwidth = kind == MetricChartKind::Bandwidth;
    const bool single = kernels.size() == 1;
    const QString what = bandwidth ? QObject::tr("Memory bandwidth") : QObject::tr("Ratios");
    QChart *chart =
        newChart(single ? QStringLiteral("%1: %2").arg(what, elided(kernelLabel(model, kernels[0])))
                        : QObject::tr("%1: %2 kernels").arg(what).arg(kernels.size()));
    // Categories: the union of the kernels' columns, in table column order, first on top.
    std::vector<std::size_t> columns;
    for (std::size_t k = 0; k < kernels.size(); ++k)
        if (bars[k].kind == kind)
            for (const MetricBar &bar : bars[k].bars)
                columns.push_back(bar.column);
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    std::reverse(columns.begin(), columns.end());
    const KernelTable &table = model.kernels();
    QStringList labels;
    for (std::size_t c : columns) {
        const KernelMetricColumn &column = table.columns()[c];
        QString label = column.name;
        if (!bandwidth && label.endsWith(QLatin1String("_ratio")))
            label.chop(6);
        labels.push_back(column.core.isEmpty() ? label : column.core + QLatin1Char(' ') + label);
    }
    auto *series = new QHorizontalBarSeries;
    std::vector<std::size_t> rows;
    double most = 0;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        if (bars[k].kind != kind)
            continue;
        auto *set = new QBarSet(
            single ? elided(kernelLabel(model, kernels[k]))
                   : QStringLiteral("%1. %2").arg(k + 1).arg(elided(kernelLabel(model, kernels[k]), 32)));
        set->setColor(seriesColor(static_cast<int>(series->count()))); // fixed, the same in both themes
        for (std::size_t c : columns) {
            double value = 0;
            for (const MetricBar &bar : bars[k].bars)
                if (bar.column == c)
                    value = bandwidth ? bar.value : bar.value * 100.0;
            most = std::max(most, value);
            set->append(value);
        }
        series->append(set);
        rows.push_back(kernels[k]);
    }
    series->setProperty(kKernelRowsProperty, rowsVariant(rows));
    chart->addSeries(series);
    attachBarAxes(chart, series, labels, most,
                  bandwidth ? QObject::tr("Bandwidth (GB/s)") : QObject::tr("Share of kernel time (%)"),
                  bandwidth ? -1 : std::max(100.0, most));
    if (single)
        chart->legend()->setVisible(false);
    return chart;
}

} // namespace

QString chartKindName(ChartKind kind)
{
    switch (kind) {
    case ChartKind::TopKernels:
        return QStringLiteral("top-kernels");
    case ChartKind::KernelMetrics:
        return QStringLiteral("kernel-metrics");
    case ChartKind::TimeByType:
        return QStringLiteral("time-by-type");
    case ChartKind::Scatter:
        break;
    }
    return QStringLiteral("scatter");
}

QString chartKindTitle(ChartKind kind)
{
    switch (kind) {
    case ChartKind::TopKernels:
        return QObject::tr("Top kernels");
    case ChartKind::KernelMetrics:
        return QObject::tr("Kernel metrics");
    case ChartKind::TimeByType:
        return QObject::tr("Time by task type");
    case ChartKind::Scatter:
        break;
    }
    return QObject::tr("Duration vs metric");
}

std::optional<ChartKind> chartKindFromName(const QString &name)
{
    for (ChartKind kind :
         {ChartKind::TopKernels, ChartKind::KernelMetrics, ChartKind::TimeByType, ChartKind::Scatter})
        if (name.compare(chartKindName(kind), Qt::CaseInsensitive) == 0)
            return kind;
    return std::nullopt;
}

QColor taskCategoryColor(TaskCategory category)
{
    switch (category) {
    case TaskCategory::AiCore:
        return QColor(0x4e, 0x79, 0xa7);
    case TaskCategory::AiVector:
        return QColor(0x59, 0xa1, 0x4f);
    case TaskCategory::AiCpu:
        return QColor(0xf2, 0x8e, 0x2b);
    case TaskCategory::Communication:
        return QColor(0xb0, 0x7a, 0xa1);
    case TaskCategory::Other:
        break;
    }
    return QColor(0x9c, 0x9c, 0x9c);
}

QChart *buildTopKernelsChart(const TraceModel &model, int n, KernelGrouping grouping,
                             const KernelRows &filter)
{
    const std::vector<KernelAggregate> top =
        topKernels(model, static_cast<std::size_t>(std::max(n, 1)), grouping, filter);
    const QString what = QObject::tr("Top %1 kernels by total time").arg(std::max(n, 1));
    if (top.empty())
        return emptyChart(model, what);
    QChart *chart = newChart(what);
    const StringPool &strings = model.strings();
    // QBarCategoryAxis draws its first category at the bottom: add the largest last.
    QStringList labels, tips;
    std::vector<std::size_t> rows;
    double most = 0;
    for (std::size_t i = top.size(); i-- > 0;) {
        const KernelAggregate &a = top[i];
        QString name = strings.qstring(a.name);
        if (grouping == KernelGrouping::NameAndShape)
            name += QStringLiteral(" [%1]").arg(strings.qstring(a.inputShapes));
        labels.push_back(QStringLiteral("%1. %2").arg(i + 1).arg(elided(name, kMaxCategoryLabel, 2.0 / 3)));
        tips.push_back(QObject::tr("%1\n%2 · count %3 · total %4 · avg %5 · min %6 · max %7")
                           .arg(name, taskCategoryName(a.category))
                           .arg(a.count)
                           .arg(usText(toUs(a.total)), usText(toUs(a.average())), usText(toUs(a.minimum)),
                                usText(toUs(a.maximum))));
        rows.push_back(a.longestRow);
        most = std::max(most, toUs(a.total));
    }
    // One bar set per task category (stacked: each bar has a value in exactly one set), so bars are
    // coloured by task type and the legend names the types.
    auto *series = new QHorizontalStackedBarSeries;
    for (std::size_t c = 0; c < kTaskCategoryCount; ++c) {
        const auto category = static_cast<TaskCategory>(c);
        if (std::none_of(top.begin(), top.end(),
                         [&](const KernelAggregate &a) { return a.category == category; }))
            continue;
        auto *set = new QBarSet(taskCategoryName(category));
        set->setColor(taskCategoryColor(category));
        for (std::size_t i = top.size(); i-- > 0;)
            set->append(top[i].category == category ? toUs(top[i].total) : 0.0);
        series->append(set);
    }
    series->setBarWidth(0.7);
    series->setProperty(kRowsPerCategoryProperty, true);
    series->setProperty(kKernelRowsProperty, rowsVariant(rows));
    series->setProperty(kToolTipsProperty, tips);
    chart->addSeries(series);
    attachBarAxes(chart, series, labels, most, QObject::tr("Total duration (µs)"));
    return chart;
}

QChart *buildKernelMetricsChart(const TraceModel &model, const KernelRows &kernels)
{
    const QString what = QObject::tr("Kernel metrics");
    std::vector<std::size_t> rows;
    for (std::size_t r : kernels)
        if (r < model.kernels().size() && rows.size() < kMaxMetricKernels)
            rows.push_back(r);
    if (rows.empty()) {
        const std::ptrdiff_t longest = longestKernelRow(model);
        if (longest < 0)
            return emptyChart(model, what);
        rows.push_back(static_cast<std::size_t>(longest));
    }
    std::vector<KernelMetricBars> bars;
    MetricChartKind kind = MetricChartKind::None;
    for (std::size_t r : rows) {
        bars.push_back(kernelMetricBars(model, r));
        if (kind == MetricChartKind::None)
            kind = bars.back().kind;
    }
    QChart *chart = nullptr;
    switch (kind) {
    case MetricChartKind::PipeUtilization:
        chart = buildPipeChart(model, rows, bars);
        break;
    case MetricChartKind::Bandwidth:
    case MetricChartKind::Ratio:
        chart = buildValueBarsChart(model, rows, bars, kind);
        break;
    case MetricChartKind::None:
        break;
    }
    if (chart) {
        if (kernels.size() > rows.size())
            chart->setTitle(QObject::tr("%1 (first %2 of %3 selected)")
                                .arg(chart->title())
                                .arg(rows.size())
                                .arg(kernels.size()));
        return chart;
    }
    const QString group = model.kernels().metricGroupOf(model.kernels().rows()[rows[0]].group);
    return newChart(rows.size() == 1
                        ? QObject::tr("%1: no %2 values for %3")
                              .arg(what, group.isEmpty() ? QObject::tr("AI Core metric") : group,
                                   elided(kernelLabel(model, rows[0])))
                        : QObject::tr("%1: no AI Core metric values for these kernels").arg(what));
}

QChart *buildTimeByTypeChart(const TraceModel &model, const KernelRows &filter)
{
    const QString what = QObject::tr("Device time by task type");
    const TaskTimeBreakdown breakdown = timeByTaskCategory(model, filter);
    const TimeNs sum = breakdown.sum();
    if (sum <= 0)
        return emptyChart(model, what);
    QChart *chart = newChart(QObject::tr("%1 (%2 in kernels)").arg(what, usText(toUs(sum))));
    auto *series = new QPieSeries;
    for (std::size_t c = 0; c < kTaskCategoryCount; ++c) {
        if (breakdown.total[c] <= 0)
            continue;
        const auto category = static_cast<TaskCategory>(c);
        const double share = 100.0 * static_cast<double>(breakdown.total[c]) / static_cast<double>(sum);
        QPieSlice *slice =
            series->append(QStringLiteral("%1: %2 (%3 %)")
                               .arg(taskCategoryName(category), usText(toUs(breakdown.total[c])))
                               .arg(share, 0, 'f', 1),
                           toUs(breakdown.total[c]));
        slice->setColor(taskCategoryColor(category));
        slice->setLabelVisible(share >= 3.0); // the legend names every slice; small labels would overlap
    }
    series->setPieSize(0.6);
    chart->addSeries(series);
    chart->legend()->setAlignment(Qt::AlignRight);
    return chart;
}

QChart *buildScatterChart(const TraceModel &model, int column, const KernelRows &filter)
{
    const KernelTable &table = model.kernels();
    if (column < 0 || static_cast<std::size_t>(column) >= table.columns().size())
        return emptyChart(model, QObject::tr("Duration vs metric"));
    const KernelMetricColumn &metric = table.columns()[static_cast<std::size_t>(column)];
    const std::vector<ScatterPoint> points =
        durationVsMetric(model, static_cast<std::size_t>(column), filter);
    if (points.empty())
        return emptyChart(model, QObject::tr("Duration vs %1").arg(metric.header));
    QChart *chart =
        newChart(QObject::tr("Duration vs %1 (%2 kernels)").arg(metric.header).arg(points.size()));
    auto *xAxis = new QValueAxis;
    xAxis->setTitleText(metric.header);
    auto *yAxis = new QValueAxis;
    yAxis->setTitleText(QObject::tr("Duration (µs)"));
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    double minX = 0, maxX = 0, maxY = 0;
    for (const ScatterPoint &p : points) {
        minX = std::min(minX, p.value);
        maxX = std::max(maxX, p.value);
        maxY = std::max(maxY, p.durationUs);
    }
    for (std::size_t c = 0; c < kTaskCategoryCount; ++c) {
        const auto category = static_cast<TaskCategory>(c);
        QList<QPointF> data;
        std::vector<std::size_t> rows;
        for (const ScatterPoint &p : points) {
            if (taskCategory(model, p.row) != category)
                continue;
            data.push_back(QPointF(p.value, p.durationUs));
            rows.push_back(p.row);
        }
        if (data.isEmpty())
            continue;
        auto *series = new QScatterSeries;
        series->setName(QStringLiteral("%1 (%2)").arg(taskCategoryName(category)).arg(data.size()));
        series->setColor(taskCategoryColor(category));
        series->setBorderColor(taskCategoryColor(category).darker(130));
        series->setMarkerSize(9);
        series->replace(data);
        series->setProperty(kKernelRowsProperty, rowsVariant(rows));
        chart->addSeries(series);
        series->attachAxis(xAxis);
        series->attachAxis(yAxis);
    }
    // Ratios stay on 0..1 so charts of different kernels compare; other units fit the data.
    const bool ratio = metric.name.endsWith(QLatin1String("_ratio")) && minX >= 0 && maxX <= 1;
    applyNiceScale(xAxis, minX, ratio ? 1.0 : maxX, 5);
    applyNiceScale(yAxis, 0, maxY * 1.02, 5); // a little headroom: no marker cut by the top
    return chart;
}

KernelRows seriesKernelRows(const QAbstractSeries *series)
{
    KernelRows rows;
    if (!series)
        return rows;
    const QList<qulonglong> list = series->property(kKernelRowsProperty).value<QList<qulonglong>>();
    rows.reserve(static_cast<std::size_t>(list.size()));
    for (qulonglong r : list)
        rows.push_back(static_cast<std::size_t>(r));
    return rows;
}

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent), m_chartLabel(new QLabel(this)), m_chooser(new QComboBox(this)),
      m_topLabel(new QLabel(this)), m_topCount(new QSpinBox(this)), m_byShape(new QCheckBox(this)),
      m_metricLabel(new QLabel(this)), m_metric(new QComboBox(this)), m_view(new QChartView(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *controls = new QHBoxLayout;
    controls->addWidget(m_chartLabel);
    for (ChartKind kind :
         {ChartKind::TopKernels, ChartKind::KernelMetrics, ChartKind::TimeByType, ChartKind::Scatter})
        m_chooser->addItem(QString(), static_cast<int>(kind)); // texts: retranslateUi()
    controls->addWidget(m_chooser);
    controls->addWidget(m_topLabel);
    m_topCount->setRange(1, 100);
    m_topCount->setValue(10);
    controls->addWidget(m_topCount);
    controls->addWidget(m_byShape);
    controls->addWidget(m_metricLabel);
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    controls->addWidget(m_metric);
    controls->addStretch(1);
    layout->addLayout(controls);
    m_view->setRenderHint(QPainter::Antialiasing);
    // The chart keeps a readable size (readableHeight) and scrolls in a dock lower than that, rather than
    // drawing axes of "…".
    m_view->setMinimumSize(kReadableChartWidth, kReadableChartHeight);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_view);
    layout->addWidget(scroll, 1);

    connect(m_chooser, &QComboBox::currentIndexChanged, this, [this] {
        updateControls();
        rebuild();
    });
    connect(m_topCount, &QSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(m_byShape, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    retranslateUi();
    updateControls();
    rebuild();
}

void ChartsPanel::retranslateUi()
{
    m_chartLabel->setText(tr("Chart:"));
    for (int i = 0; i < m_chooser->count(); ++i)
        m_chooser->setItemText(i, chartKindTitle(static_cast<ChartKind>(m_chooser->itemData(i).toInt())));
    m_topLabel->setText(tr("Top"));
    m_topCount->setToolTip(tr("Number of kernels shown"));
    m_byShape->setText(tr("Split by input shape"));
    m_metricLabel->setText(tr("Metric:"));
}

ChartsPanel::~ChartsPanel() = default;

ChartKind ChartsPanel::currentChart() const
{
    return static_cast<ChartKind>(m_chooser->currentData().toInt());
}

void ChartsPanel::setCurrentChart(ChartKind kind)
{
    m_chooser->setCurrentIndex(m_chooser->findData(static_cast<int>(kind)));
}

int ChartsPanel::topCount() const
{
    return m_topCount->value();
}

void ChartsPanel::setTopCount(int n)
{
    m_topCount->setValue(n);
}

int ChartsPanel::scatterColumn() const
{
    return m_metric->currentIndex() < 0 ? -1 : m_metric->currentData().toInt();
}

void ChartsPanel::setScatterColumn(int column)
{
    const int index = m_metric->findData(column);
    if (index >= 0)
        m_metric->setCurrentIndex(index);
}

QChart *ChartsPanel::chart() const
{
    return m_view->chart();
}

void ChartsPanel::setModel(const TraceModel *model)
{
    m_model = model;
    m_selected.clear();
    m_filter.clear();
    populateMetrics();
    rebuild();
}

void ChartsPanel::showKernels(std::vector<std::size_t> rows)
{
    if (rows == m_selected)
        return;
    m_selected = std::move(rows);
    if (currentChart() == ChartKind::KernelMetrics)
        rebuild();
}

void ChartsPanel::setFilter(std::vector<std::size_t> rows)
{
    if (rows == m_filter)
        return;
    m_filter = std::move(rows);
    rebuild();
}

void ChartsPanel::selectSlice(SliceRef ref)
{
    if (!m_model || !ref.isValid())
        return;
    const std::int64_t row = m_model->kernels().rowOfSlice(ref.thread, ref.index);
    if (row >= 0)
        showKernels({static_cast<std::size_t>(row)});
}

void ChartsPanel::populateMetrics()
{
    const QSignalBlocker blocker(m_metric);
    m_metric->clear();
    if (!m_model)
        return;
    const KernelTable &table = m_model->kernels();
    for (std::size_t c : scatterMetricColumns(table))
        m_metric->addItem(table.columns()[c].header, static_cast<int>(c));
    const int index = m_metric->findData(defaultScatterColumn(table));
    m_metric->setCurrentIndex(index);
}

void ChartsPanel::updateControls()
{
    const ChartKind kind = currentChart();
    m_topLabel->setVisible(kind == ChartKind::TopKernels);
    m_topCount->setVisible(kind == ChartKind::TopKernels);
    m_byShape->setVisible(kind == ChartKind::TopKernels);
    m_metricLabel->setVisible(kind == ChartKind::Scatter);
    m_metric->setVisible(kind == ChartKind::Scatter);
}

void ChartsPanel::rebuild()
{
    QChart *chart = nullptr;
    if (!m_model) {
        chart = newChart(tr("Open a profile to see charts"));
    } else {
        switch (currentChart()) {
        case ChartKind::TopKernels:
            chart = buildTopKernelsChart(
                *m_model, topCount(),
                m_byShape->isChecked() ? KernelGrouping::NameAndShape : KernelGrouping::Name, m_filter);
            break;
        case ChartKind::KernelMetrics: {
            KernelRows rows = m_selected;
            if (rows.empty()) {
                const std::ptrdiff_t longest = longestKernelRow(*m_model, {}, m_filter);
                if (longest >= 0)
                    rows.push_back(static_cast<std::size_t>(longest));
            }
            chart = buildKernelMetricsChart(*m_model, rows);
            break;
        }
        case ChartKind::TimeByType:
            chart = buildTimeByTypeChart(*m_model, m_filter);
            break;
        case ChartKind::Scatter:
            chart = buildScatterChart(*m_model, scatterColumn(), m_filter);
            break;
        }
    }
    connectChart(chart);
    m_view->setMinimumHeight(readableHeight(chart, m_view->fontMetrics()));
    QChart *old = m_view->chart();
    m_view->setChart(chart); // releases (does not delete) the previous chart
    // The rebuild may run inside a signal of the old chart's series: delete it later.
    if (old && old != chart)
        old->deleteLater();
}

void ChartsPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange)
        rebuild(); // the chart's theme and titles follow the window's palette and language
}

void ChartsPanel::connectChart(QChart *chart)
{
    const ChartKind kind = currentChart();
    for (QAbstractSeries *series : chart->series()) {
        if (auto *scatter = qobject_cast<QScatterSeries *>(series)) {
            auto rowAt = [scatter](const QPointF &point) -> std::ptrdiff_t {
                const KernelRows rows = seriesKernelRows(scatter);
                const QList<QPointF> points = scatter->points();
                for (qsizetype i = 0; i < points.size() && static_cast<std::size_t>(i) < rows.size(); ++i)
                    if (points[i] == point)
                        return static_cast<std::ptrdiff_t>(rows[static_cast<std::size_t>(i)]);
                return -1;
            };
            connect(scatter, &QScatterSeries::clicked, this, [this, rowAt](const QPointF &point) {
                const std::ptrdiff_t row = rowAt(point);
                if (row >= 0)
                    activateRow(static_cast<std::size_t>(row));
            });
            connect(scatter, &QScatterSeries::hovered, this, [this, rowAt](const QPointF &point, bool state) {
                const std::ptrdiff_t row = state && m_model ? rowAt(point) : -1;
                if (row < 0) {
                    QToolTip::hideText();
                    return;
                }
                QToolTip::showText(QCursor::pos(),
                                   tr("%1\nduration %2 µs · %3")
                                       .arg(kernelLabel(*m_model, static_cast<std::size_t>(row)))
                                       .arg(point.y(), 0, 'f', 3)
                                       .arg(point.x()),
                                   m_view);
            });
        } else if (auto *bars = qobject_cast<QAbstractBarSeries *>(series)) {
            connect(bars, &QAbstractBarSeries::hovered, this, [this, bars](bool state, int index, QBarSet *) {
                const QStringList tips = bars->property(kToolTipsProperty).toStringList();
                if (state && index >= 0 && index < tips.size())
                    QToolTip::showText(QCursor::pos(), tips[index], m_view);
                else
                    QToolTip::hideText();
            });
            if (kind == ChartKind::TopKernels || kind == ChartKind::KernelMetrics) {
                const bool perCategory = bars->property(kRowsPerCategoryProperty).toBool();
                connect(bars, &QAbstractBarSeries::clicked, this,
                        [this, bars, perCategory](int index, QBarSet *set) {
                            const KernelRows rows = seriesKernelRows(bars);
                            const int i =
                                perCategory ? index : static_cast<int>(bars->barSets().indexOf(set));
                            if (i >= 0 && static_cast<std::size_t>(i) < rows.size())
                                activateRow(rows[static_cast<std::size_t>(i)]);
                        });
            }
        }
    }
}

void ChartsPanel::activateRow(std::size_t row)
{
    if (!m_model || row >= m_model->kernels().size())
        return;
    Q_EMIT kernelRowActivated(row);
    const KernelRecord &k = m_model->kernels().rows()[row];
    if (k.joined())
        Q_EMIT kernelActivated(SliceRef{k.thread, k.slice});
}

} // namespace at
