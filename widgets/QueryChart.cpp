#include "QueryChart.h"

#include "QueryResultModel.h"
#include "Theme.h"

#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace at {

namespace {

constexpr int kMaxLabelChars = 40;

// A number of a column in its display unit (ns → the chosen duration unit).
double scaled(double raw, const DisplayUnit &unit)
{
    return unit.quantity == Quantity::Duration ? raw / unit.basePerUnit : raw;
}

} // namespace

QueryChart::QueryChart(const QueryResultModel *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_kind(new QComboBox), m_value(new QComboBox), m_label(new QComboBox),
      m_labelCaption(new QLabel), m_view(new QChartView)
{
    m_kind->setObjectName(QStringLiteral("queryChartKind"));
    m_value->setObjectName(QStringLiteral("queryChartValue"));
    m_label->setObjectName(QStringLiteral("queryChartLabel"));
    m_kind->addItem(QString(), static_cast<int>(Kind::Histogram));
    m_kind->addItem(QString(), static_cast<int>(Kind::Bars));
    m_value->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_label->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(m_kind);
    controls->addWidget(m_value);
    controls->addWidget(m_labelCaption);
    controls->addWidget(m_label);
    controls->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
    for (QComboBox *box : {m_kind, m_value, m_label})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_filling)
                redraw();
        });
    retranslate();
    refresh();
}

bool QueryChart::isDurationColumn(const QString &name)
{
    const QString n = name.toLower();
    static const QStringList exact = {QStringLiteral("ts"),
                                      QStringLiteral("wait"),
                                      QStringLiteral("elapse"),
                                      QStringLiteral("transit"),
                                      QStringLiteral("idle"),
                                      QStringLiteral("computing"),
                                      QStringLiteral("free"),
                                      QStringLiteral("preparing"),
                                      QStringLiteral("bubble"),
                                      QStringLiteral("self_time"),
                                      QStringLiteral("time_at_stake"),
                                      QStringLiteral("synchronization"),
                                      QStringLiteral("communication_not_overlapped")};
    return exact.contains(n) || n.contains(QLatin1String("dur")) || n.contains(QLatin1String("self_time")) ||
           n.endsWith(QLatin1String("_ns"));
}

void QueryChart::refresh()
{
    fillColumns();
    redraw();
}

void QueryChart::setKind(Kind kind)
{
    m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(kind)));
}

QueryChart::Kind QueryChart::kind() const
{
    return static_cast<Kind>(m_kind->currentData().toInt());
}

bool QueryChart::setValueColumn(const QString &name)
{
    const int i = m_value->findText(name);
    if (i >= 0)
        m_value->setCurrentIndex(i);
    return i >= 0;
}

QString QueryChart::valueColumn() const
{
    return m_value->currentText();
}

void QueryChart::fillColumns()
{
    m_filling = true;
    const QString value = m_value->currentText(), label = m_label->currentText();
    m_value->clear();
    m_label->clear();
    const QStringList &columns = m_model->columns();
    std::vector<bool> numeric; // isNumeric() reads up to 10,000 rows: once per column
    for (int c = 0; c < columns.size(); ++c) {
        numeric.push_back(m_model->isNumeric(c));
        if (numeric.back())
            m_value->addItem(columns[c], c);
        m_label->addItem(columns[c], c);
    }
    if (m_value->findText(value) >= 0)
        m_value->setCurrentIndex(m_value->findText(value));
    else if (m_value->count() > 0) // the last numeric column: after the names and ids, the measure
        m_value->setCurrentIndex(m_value->count() - 1);
    if (m_label->findText(label) >= 0) {
        m_label->setCurrentIndex(m_label->findText(label));
    } else {
        // The first text column labels the bars best; else the first column.
        const auto text = std::find(numeric.begin(), numeric.end(), false);
        m_label->setCurrentIndex(text == numeric.end() ? 0 : static_cast<int>(text - numeric.begin()));
    }
    m_filling = false;
}

QChart *QueryChart::newChart() const
{
    auto *chart = new QChart;
    chart->setTheme(isDark(QApplication::palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

void QueryChart::redraw()
{
    const bool bars = kind() == Kind::Bars;
    m_label->setVisible(bars);
    m_labelCaption->setVisible(bars);
    m_bins.clear();
    const int value = m_value->currentData().isValid() ? m_value->currentData().toInt() : -1;
    QChart *chart = nullptr;
    if (value < 0 || m_model->rowCount() == 0) {
        chart = newChart();
        chart->setTitle(m_model->columns().isEmpty() ? tr("Run a query to chart its result")
                                                     : tr("The result has no numeric column to chart"));
    } else if (bars) {
        chart = this->bars(m_label->currentData().toInt(), value);
    } else {
        chart = histogram(value);
    }
    QChart *old = m_view->chart();
    m_view->setChart(chart);
    delete old;
}

QChart *QueryChart::histogram(int column)
{
    const QString name = m_model->columns()[column];
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(m_model->rowCount()));
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QVariant v = m_model->value(r, column);
        if (v.isValid())
            values.push_back(v.toDouble());
    }
    QChart *chart = newChart();
    if (values.empty()) {
        chart->setTitle(tr("%1 has only NULL values").arg(name));
        return chart;
    }
    const auto [lowIt, highIt] = std::minmax_element(values.begin(), values.end());
    const double low = *lowIt, high = *highIt;
    const bool duration = isDurationColumn(name);
    const DisplayUnit unit =
        duration ? durationUnitFor(static_cast<TimeNs>(std::max(std::abs(low), std::abs(high))))
                 : DisplayUnit{};
    // About √n bins, at most kMaxBins; integers narrower than that get one bin per value.
    int bins =
        std::clamp(static_cast<int>(std::ceil(std::sqrt(static_cast<double>(values.size())))), 1, kMaxBins);
    const bool integral =
        std::all_of(values.begin(), values.end(), [](double v) { return v == std::floor(v); });
    if (integral && high - low + 1 <= bins)
        bins = static_cast<int>(high - low + 1);
    const double width = high > low ? (high - low) / bins : 1.0;
    m_bins.assign(static_cast<std::size_t>(bins), 0);
    for (double v : values) {
        const int bin = std::min(bins - 1, static_cast<int>((v - low) / width));
        ++m_bins[static_cast<std::size_t>(bin)];
    }
    // Bars drawn as one stepped area over a numeric axis, so that the axis reads in the column's unit.
    auto *upper = new QLineSeries;
    qint64 most = 0;
    for (int b = 0; b < bins; ++b) {
        const double x0 = scaled(low + b * width, unit), x1 = scaled(low + (b + 1) * width, unit);
        const auto count = static_cast<double>(m_bins[static_cast<std::size_t>(b)]);
        upper->append(x0, 0);
        upper->append(x0, count);
        upper->append(x1, count);
        upper->append(x1, 0);
        most = std::max(most, m_bins[static_cast<std::size_t>(b)]);
    }
    auto *series = new QAreaSeries(upper);
    upper->setParent(series); // the area series does not own its line
    series->setObjectName(QStringLiteral("queryHistogram"));
    series->setColor(seriesColor(0));
    series->setBorderColor(QApplication::palette().color(QPalette::Base));
    chart->addSeries(series);
    auto *x = new QValueAxis;
    x->setTitleText(duration ? titleWithUnit(name, unit) : name);
    x->setRange(scaled(low, unit), scaled(low + bins * width, unit));
    x->setLabelFormat(QStringLiteral("%.4g"));
    auto *y = new QValueAxis;
    y->setTitleText(tr("Rows"));
    y->setRange(0, static_cast<double>(most) * 1.05 + 1);
    y->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->setTitle(
        tr("%1 rows of %2 in %3 bins").arg(formatCount(static_cast<qint64>(values.size())), name).arg(bins));
    return chart;
}

QChart *QueryChart::bars(int labelColumn, int valueColumn)
{
    const QString name = m_model->columns()[valueColumn];
    const int rows = std::min(m_model->rowCount(), kMaxBars);
    double largest = 0;
    for (int r = 0; r < rows; ++r)
        largest = std::max(largest, std::abs(m_model->value(r, valueColumn).toDouble()));
    const bool duration = isDurationColumn(name);
    const DisplayUnit unit = duration ? durationUnitFor(static_cast<TimeNs>(largest)) : DisplayUnit{};
    auto *set = new QBarSet(name);
    set->setColor(seriesColor(0));
    QStringList labels;
    // QBarCategoryAxis draws its first category at the bottom: the first row goes last, on top.
    for (int r = rows - 1; r >= 0; --r) {
        QString label = QueryResultModel::text(m_model->value(r, labelColumn));
        if (label.size() > kMaxLabelChars)
            label = label.left(kMaxLabelChars - 1) + QChar(0x2026);
        // Categories must be unique: a repeated label gets its row number.
        if (labels.contains(label))
            label += QStringLiteral(" #%1").arg(r + 1);
        labels << label;
        *set << scaled(m_model->value(r, valueColumn).toDouble(), unit);
    }
    auto *series = new QHorizontalBarSeries;
    series->setObjectName(QStringLiteral("queryBars"));
    series->append(set);
    QChart *chart = newChart();
    chart->addSeries(series);
    auto *y = new QBarCategoryAxis;
    y->append(labels);
    auto *x = new QValueAxis;
    x->setTitleText(duration ? titleWithUnit(name, unit) : name);
    x->setLabelFormat(QStringLiteral("%.4g"));
    x->setMin(0);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(y);
    series->attachAxis(x);
    x->applyNiceNumbers();
    chart->setTitle(rows < m_model->rowCount()
                        ? tr("The first %1 of %2 rows").arg(rows).arg(formatCount(m_model->rowCount()))
                        : QString());
    return chart;
}

void QueryChart::retranslate()
{
    m_kind->setItemText(0, tr("Histogram"));
    m_kind->setItemText(1, tr("Bar chart"));
    m_kind->setToolTip(tr("A histogram of one numeric column, or a bar per row (label × value)"));
    m_value->setToolTip(tr("The numeric column to chart"));
    m_labelCaption->setText(tr("by"));
    m_label->setToolTip(tr("The column that labels the bars"));
}

void QueryChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        redraw();
    } else if (event->type() == QEvent::PaletteChange) {
        redraw();
    }
}

} // namespace at
