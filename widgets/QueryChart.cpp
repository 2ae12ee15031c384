#include "QueryChart.h"

#include "ChartScale.h"
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
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace at {

namespace {

// Qt Charts gives the axes beside a chart at most 40 % of its width (and cuts a longer label with "...");
// the bar labels are made to fit that share, less the tick and the gaps around the labels.
constexpr double kAxisShare = 0.4;
constexpr int kAxisPadding = 24;

// The head and the tail of a name around "…", at most `chars` characters (names differ at both ends:
// aclnnMatmul_…_kernel).
QString elidedTo(const QString &text, qsizetype chars)
{
    if (text.size() <= chars)
        return text;
    const qsizetype head = (chars - 1) * 3 / 5;
    return text.left(head) + QChar(0x2026) + text.right(chars - 1 - head);
}

// The longest head-and-tail form of text no wider than width pixels.
QString elidedToWidth(const QString &text, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    qsizetype fits = 1, tooWide = text.size(); // a binary search on the character count
    while (tooWide - fits > 1) {
        const qsizetype mid = (fits + tooWide) / 2;
        (metrics.horizontalAdvance(elidedTo(text, mid)) <= width ? fits : tooWide) = mid;
    }
    return elidedTo(text, fits);
}

// A number of a column in its display unit (ns → the chosen duration unit).
double scaled(double raw, const DisplayUnit &unit)
{
    return unit.quantity == Quantity::Duration ? raw / unit.basePerUnit : raw;
}

} // namespace

QueryChart::QueryChart(const QueryResultModel *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_kind(new QComboBox), m_value(new QComboBox), m_label(new QComboBox),
      m_labelCaption(new QLabel), m_view(new QChartView), m_scroll(new QScrollArea)
{
    m_kind->setObjectName(QStringLiteral("queryChartKind"));
    m_value->setObjectName(QStringLiteral("queryChartValue"));
    m_label->setObjectName(QStringLiteral("queryChartLabel"));
    m_kind->addItem(QString(), static_cast<int>(Kind::Histogram));
    m_kind->addItem(QString(), static_cast<int>(Kind::Bars));
    m_value->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_label->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(kReadableChartWidth, kReadableChartHeight);
    // A bar chart keeps a line of text per bar (readableBarsHeight) and scrolls in a dock lower than that,
    // rather than Qt Charts eliding every name to "…".
    m_scroll->setObjectName(QStringLiteral("queryChartScroll"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(m_view);
    m_view->installEventFilter(this);
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
    layout->addWidget(m_scroll, 1);
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
    m_barTips.clear();
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
    m_view->setMinimumHeight(bars && !m_barTips.isEmpty()
                                 ? readableBarsHeight(static_cast<int>(m_barTips.size()))
                                 : kReadableChartHeight);
    QChart *old = m_view->chart();
    m_view->setChart(chart);
    delete old;
}

QStringList QueryChart::barLabels(const QFont &font) const
{
    const QFontMetrics metrics(font);
    const int width = std::max(metrics.averageCharWidth() * 8,
                               static_cast<int>(kAxisShare * m_view->width()) - kAxisPadding);
    QStringList labels;
    for (qsizetype i = 0; i < m_fullLabels.size(); ++i) {
        QString label = elidedToWidth(m_fullLabels[i], metrics, width);
        // Categories must be unique: a repeated label gets its row number (bars are bottom first).
        if (labels.contains(label))
            label = elidedToWidth(QStringLiteral("#%1 ").arg(m_fullLabels.size() - i) + m_fullLabels[i],
                                  metrics, width);
        labels << label;
    }
    // Qt Charts draws a label as HTML: "<built-in method …>" would vanish as an unknown tag.
    for (QString &label : labels)
        label = label.toHtmlEscaped();
    return labels;
}

void QueryChart::relabelBars()
{
    if (kind() != Kind::Bars || !m_view->chart())
        return;
    for (QAbstractAxis *axis : m_view->chart()->axes(Qt::Vertical))
        if (auto *categories = qobject_cast<QBarCategoryAxis *>(axis)) {
            const QStringList labels = barLabels(categories->labelsFont());
            if (labels != categories->categories()) {
                categories->clear();
                categories->append(labels);
            }
        }
}

bool QueryChart::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::Resize)
        relabelBars(); // the labels' share of the width changed with it
    return QWidget::eventFilter(watched, event);
}

int QueryChart::readableBarsHeight(int bars) const
{
    // Qt Charts cuts a category label to "..." unless it fits the chart's height over the tick count less
    // two label paddings: a text line, its margins and the paddings per tick (one more tick than bars),
    // plus the title line.
    const int line = m_view->fontMetrics().height();
    return std::max(kReadableChartHeight, (bars + 1) * (line + 14) + 2 * line);
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
    applyNiceScale(y, 0, static_cast<double>(most));
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
    double largest = 0, lowest = 0, highest = 0;
    for (int r = 0; r < rows; ++r) {
        const double v = m_model->value(r, valueColumn).toDouble();
        largest = std::max(largest, std::abs(v));
        lowest = std::min(lowest, v);
        highest = std::max(highest, v);
    }
    const bool duration = isDurationColumn(name);
    const DisplayUnit unit = duration ? durationUnitFor(static_cast<TimeNs>(largest)) : DisplayUnit{};
    auto *set = new QBarSet(name);
    set->setColor(seriesColor(0));
    m_fullLabels.clear();
    // QBarCategoryAxis draws its first category at the bottom: the first row goes last, on top.
    const QString valueName = duration ? titleWithUnit(name, unit) : name;
    for (int r = rows - 1; r >= 0; --r) {
        const QString full = QueryResultModel::text(m_model->value(r, labelColumn));
        m_fullLabels << full;
        const double value = scaled(m_model->value(r, valueColumn).toDouble(), unit);
        *set << value;
        m_barTips << QStringLiteral("%1\n%2: %3").arg(full, valueName, QString::number(value, 'g', 6));
    }
    auto *series = new QHorizontalBarSeries;
    series->setObjectName(QStringLiteral("queryBars"));
    series->append(set);
    connect(series, &QAbstractBarSeries::hovered, this, [this](bool state, int index, QBarSet *) {
        if (state && index >= 0 && index < m_barTips.size())
            QToolTip::showText(QCursor::pos(), m_barTips[index], m_view);
        else
            QToolTip::hideText();
    });
    QChart *chart = newChart();
    chart->addSeries(series);
    auto *y = new QBarCategoryAxis;
    y->append(barLabels(y->labelsFont()));
    auto *x = new QValueAxis;
    x->setTitleText(valueName);
    // On top: the scale stays in sight with the first (largest) bars when the chart scrolls.
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(x, Qt::AlignTop);
    series->attachAxis(y);
    series->attachAxis(x);
    applyNiceScale(x, scaled(lowest, unit), scaled(highest, unit));
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
