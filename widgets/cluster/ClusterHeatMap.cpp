#include "cluster/ClusterHeatMap.h"

#include "NumberFormat.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace at {

namespace {
constexpr int kMinCell = 28;
constexpr int kCompactCell = 14;
constexpr int kPad = 4;
constexpr int kMargin = 6;
constexpr int kMaxLabel = 160;      // px: longer row / column labels are elided (full text in the tool tip)
constexpr int kMaxGridSide = 2400;  // px: beyond this the cells become small and drop their values
constexpr int kScaleBarWidth = 220; // px
constexpr int kScaleBarHeight = 12;

// Viridis at five stops: perceptually even, readable from its darkest to its lightest end on a light and a
// dark window alike, and legible in grey.
constexpr QRgb kRamp[] = {0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725};
} // namespace

ClusterHeatMap::ClusterHeatMap(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    retranslateUi();
}

void ClusterHeatMap::retranslateUi()
{
    m_emptyText = tr("No values to show");
    setAccessibleName(tr("Heat map"));
    update();
}

void ClusterHeatMap::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    if (event->type() == QEvent::FontChange) {
        relayout();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

QColor ClusterHeatMap::rampColor(double t)
{
    t = std::clamp(std::isfinite(t) ? t : 0.5, 0.0, 1.0);
    constexpr int stops = static_cast<int>(std::size(kRamp)) - 1;
    const int i = std::min(stops - 1, static_cast<int>(t * stops));
    const double f = t * stops - i;
    const QColor a(kRamp[i]), b(kRamp[i + 1]);
    auto mix = [f](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

void ClusterHeatMap::setData(const QStringList &rows, const QStringList &columns,
                             std::vector<std::vector<std::optional<double>>> values, const QString &unit)
{
    m_rows = rows;
    m_columns = columns;
    m_values = std::move(values);
    m_unit = unit;
    m_any = false;
    m_min = m_max = 0;
    for (const auto &row : m_values)
        for (const auto &v : row)
            if (v && std::isfinite(*v)) {
                m_min = m_any ? std::min(m_min, *v) : *v;
                m_max = m_any ? std::max(m_max, *v) : *v;
                m_any = true;
            }
    const double range = m_max - m_min;
    m_rangeDecimals = range > 0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(range / 10))), 0, 3) : 0;
    relayout();
    updateGeometry();
    update();
}

void ClusterHeatMap::setAxisTitles(const QString &rowTitle, const QString &columnTitle)
{
    m_rowTitle = rowTitle;
    m_columnTitle = columnTitle;
    relayout();
    updateGeometry();
    update();
}

std::optional<double> ClusterHeatMap::value(int row, int column) const
{
    if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return std::nullopt;
    const auto &r = m_values[static_cast<std::size_t>(row)];
    return static_cast<std::size_t>(column) < r.size() ? r[static_cast<std::size_t>(column)] : std::nullopt;
}

QString ClusterHeatMap::valueText(double value) const
{
    // About three significant digits (a cell shows the magnitude; the tool tip has the exact value), and
    // enough decimals for the map's smallest and largest values to read apart (809.2 and 810.4, not 809
    // and 810).
    const double magnitude = std::abs(value);
    const int significant = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
    const int decimals = std::max(significant, m_rangeDecimals);
    const double scale = std::pow(10.0, decimals);
    return formatNumber(std::round(value * scale) / scale);
}

void ClusterHeatMap::relayout()
{
    const QFontMetrics metrics = fontMetrics();
    QFont bold = font();
    bold.setBold(true); // the titles'
    int rowLabels = QFontMetrics(bold).horizontalAdvance(m_rowTitle);
    for (const QString &r : m_rows)
        rowLabels = std::max(rowLabels, std::min(kMaxLabel, metrics.horizontalAdvance(r)));
    m_labelWidth = rowLabels + 2 * kMargin;
    int widestLabel = 0;
    for (const QString &c : m_columns)
        widestLabel = std::max(widestLabel, std::min(kMaxLabel, metrics.horizontalAdvance(c)));
    m_cellHeight = std::max(24, metrics.height() + 2 * kPad);
    // Cells are at least kMinCell wide: a map that is too big at that width is compact whatever its values,
    // and its values are not measured (a 1,024 × 1,024 matrix formatted a million of them, issue #32).
    m_compact = columnCount() * kMinCell > kMaxGridSide || rowCount() * m_cellHeight > kMaxGridSide;
    int widest = widestLabel;
    for (int r = 0; r < rowCount() && !m_compact; ++r)
        for (int c = 0; c < columnCount(); ++c)
            if (const std::optional<double> v = value(r, c))
                widest = std::max(widest, metrics.horizontalAdvance(valueText(*v)));
    m_cellWidth = std::max(kMinCell, widest + 2 * kPad);
    m_compact = m_compact || columnCount() * m_cellWidth > kMaxGridSide;
    if (m_compact)
        m_cellWidth = m_cellHeight = kCompactCell;
    m_columnLabelEvery = std::max(1, (widestLabel + 2 * kPad + m_cellWidth - 1) / m_cellWidth);
}

bool ClusterHeatMap::showsCellValues() const
{
    return !m_compact;
}

int ClusterHeatMap::headerHeight() const
{
    const int line = fontMetrics().height();
    return kMargin + (m_columnTitle.isEmpty() ? 0 : line + kPad) + line + 2 * kPad;
}

int ClusterHeatMap::gridBottom() const
{
    return headerHeight() + rowCount() * m_cellHeight;
}

int ClusterHeatMap::rowLabelEvery() const
{
    return std::max(1, (fontMetrics().height() + m_cellHeight - 1) / m_cellHeight);
}

int ClusterHeatMap::columnLabelEvery() const
{
    return m_columnLabelEvery; // measured once per layout: per label it made painting quadratic
}

QRect ClusterHeatMap::cellRect(int row, int column) const
{
    return {labelWidth() + column * m_cellWidth, headerHeight() + row * m_cellHeight, m_cellWidth,
            m_cellHeight};
}

std::pair<int, int> ClusterHeatMap::cellAt(QPoint pos) const
{
    if (rowCount() == 0 || columnCount() == 0 || pos.x() < labelWidth() || pos.y() < headerHeight())
        return {-1, -1};
    const int column = (pos.x() - labelWidth()) / m_cellWidth;
    const int row = (pos.y() - headerHeight()) / m_cellHeight;
    if (row >= rowCount() || column >= columnCount())
        return {-1, -1};
    return {row, column};
}

QString ClusterHeatMap::cellText(int row, int column) const
{
    const std::optional<double> v = value(row, column);
    return v && showsCellValues() ? valueText(*v) : QString();
}

QColor ClusterHeatMap::cellColor(int row, int column) const
{
    const std::optional<double> v = value(row, column);
    if (!v)
        return {};
    return rampColor(m_max > m_min ? (*v - m_min) / (m_max - m_min) : 0.5);
}

QColor ClusterHeatMap::cellTextColor(int row, int column) const
{
    const QColor fill = cellColor(row, column);
    if (!fill.isValid())
        return palette().color(QPalette::Text);
    return textColorOn(fill);
}

QColor ClusterHeatMap::textColorOn(const QColor &fill)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double luminance =
        0.2126 * channel(fill.redF()) + 0.7152 * channel(fill.greenF()) + 0.0722 * channel(fill.blueF());
    return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? QColor(Qt::black) : QColor(Qt::white);
}

QString ClusterHeatMap::rowLabelText(int row) const
{
    if (row < 0 || row >= rowCount() || row % rowLabelEvery() != 0)
        return {};
    return fontMetrics().elidedText(m_rows[row], Qt::ElideMiddle, kMaxLabel);
}

QString ClusterHeatMap::columnLabelText(int column) const
{
    if (column < 0 || column >= columnCount() || column % columnLabelEvery() != 0)
        return {};
    return fontMetrics().elidedText(m_columns[column], Qt::ElideMiddle, kMaxLabel);
}

QRect ClusterHeatMap::scaleRect() const
{
    if (!m_any)
        return {};
    return {labelWidth(), gridBottom() + kMargin, kScaleBarWidth, kScaleBarHeight};
}

QString ClusterHeatMap::scaleCaption() const
{
    if (!m_any)
        return {};
    const QString low = valueText(m_min), high = valueText(m_max);
    return m_unit.isEmpty() ? QStringLiteral("%1 – %2").arg(low, high)
                            : QStringLiteral("%1 – %2 %3").arg(low, high, m_unit);
}

QSize ClusterHeatMap::sizeHint() const
{
    const QFontMetrics metrics = fontMetrics();
    if (rowCount() == 0 || columnCount() == 0)
        return {metrics.horizontalAdvance(m_emptyText) + 2 * kMargin, metrics.height() + 2 * kMargin};
    const int gridRight = labelWidth() + columnCount() * m_cellWidth;
    QFont bold = font();
    bold.setBold(true);
    const int titleRight = labelWidth() + QFontMetrics(bold).horizontalAdvance(m_columnTitle);
    const QRect scale = scaleRect();
    const int scaleRight = scale.isNull() ? 0 : scale.right() + kMargin + metrics.horizontalAdvance(m_unit);
    const int bottom = scale.isNull() ? gridBottom() : scale.bottom() + kPad + metrics.height();
    return {std::max({gridRight, titleRight, scaleRight}) + kMargin, bottom + kMargin};
}

QSize ClusterHeatMap::minimumSizeHint() const
{
    return {kMinCell * 3, kMinCell * 2};
}

void ClusterHeatMap::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    const QPalette &pal = palette();
    const QFontMetrics metrics = fontMetrics();
    if (rowCount() == 0 || columnCount() == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignLeft | Qt::AlignTop,
                   m_emptyText);
        return;
    }
    const int line = metrics.height();
    const int labelsTop = headerHeight() - line - 2 * kPad;
    // Titles: the columns' above their labels, the rows' in the corner above the row labels.
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::WindowText));
    if (!m_columnTitle.isEmpty())
        p.drawText(QRect(labelWidth(), kMargin, columnCount() * m_cellWidth + kMaxLabel, line),
                   Qt::AlignLeft | Qt::AlignVCenter, m_columnTitle);
    if (!m_rowTitle.isEmpty())
        p.drawText(QRect(kMargin, labelsTop, labelWidth() - 2 * kMargin, line + 2 * kPad),
                   Qt::AlignRight | Qt::AlignVCenter, m_rowTitle);
    p.setFont(font());
    // Only the rows and columns the exposed rectangle reaches (the map sits in a scroll area: at 1,024
    // ranks the matrix is 14,000 px square and a viewport shows a hundredth of it). A label is drawn from
    // the cell it belongs to and may reach a column further (a wider label, centred) either side.
    const QRect exposed = event->rect();
    const int firstColumn =
        std::max(0, (exposed.left() - labelWidth()) / m_cellWidth - kMaxLabel / m_cellWidth - 1);
    const int lastColumn = std::min(columnCount() - 1, (exposed.right() - labelWidth()) / m_cellWidth +
                                                           kMaxLabel / m_cellWidth + 1);
    const int firstRow = std::max(0, (exposed.top() - headerHeight()) / m_cellHeight - 1);
    const int lastRow = std::min(rowCount() - 1, (exposed.bottom() - headerHeight()) / m_cellHeight + 1);
    const int firstCell = std::max(0, (exposed.left() - labelWidth()) / m_cellWidth);
    const int lastCell =
        std::min(columnCount() - 1, std::max(0, exposed.right() - labelWidth()) / m_cellWidth);
    for (int c = firstColumn; c <= lastColumn; ++c) {
        const QString label = columnLabelText(c);
        if (label.isEmpty())
            continue;
        const QRect cell = cellRect(0, c);
        const int width = std::max(cell.width(), metrics.horizontalAdvance(label));
        const QRect box(m_compact ? cell.left() : cell.center().x() - width / 2, labelsTop, width,
                        line + 2 * kPad);
        p.drawText(box, static_cast<int>((m_compact ? Qt::AlignLeft : Qt::AlignHCenter) | Qt::AlignVCenter),
                   label);
    }
    for (int r = firstRow; r <= lastRow; ++r) {
        const QRect first = cellRect(r, 0);
        const QString label = rowLabelText(r);
        if (!label.isEmpty()) {
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(QRect(0, first.top(), labelWidth() - kMargin, std::max(first.height(), line)),
                       Qt::AlignRight | Qt::AlignVCenter, label);
        }
        for (int c = firstCell; c <= lastCell; ++c) {
            const QRect cell = cellRect(r, c).adjusted(0, 0, -1, -1);
            const QColor fill = cellColor(r, c);
            if (!fill.isValid()) {
                p.fillRect(cell, pal.color(QPalette::AlternateBase));
                continue;
            }
            p.fillRect(cell, fill);
            if (const QString text = cellText(r, c); !text.isEmpty()) {
                p.setPen(cellTextColor(r, c));
                p.drawText(cell, Qt::AlignCenter, text);
            }
        }
    }
    // The scale: the ramp from the smallest to the largest value, the range and unit beside it.
    const QRect bar = scaleRect();
    if (bar.isNull())
        return;
    paintScale(p, bar, valueText(m_min), valueText(m_max), m_unit, pal, line);
}

void ClusterHeatMap::paintScale(QPainter &p, const QRect &bar, const QString &low, const QString &high,
                                const QString &unit, const QPalette &palette, int lineHeight)
{
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 10; ++i)
        gradient.setColorAt(i / 10.0, rampColor(i / 10.0));
    p.fillRect(bar, gradient);
    p.setPen(palette.color(QPalette::Mid));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    p.setPen(palette.color(QPalette::WindowText));
    const QRect under(bar.left(), bar.bottom() + kPad, bar.width(), lineHeight);
    p.drawText(under, Qt::AlignLeft | Qt::AlignTop, low);
    p.drawText(under, Qt::AlignRight | Qt::AlignTop, high);
    if (!unit.isEmpty())
        p.drawText(
            QRect(bar.right() + kMargin, bar.center().y() - lineHeight, 4 * lineHeight + 200, 2 * lineHeight),
            Qt::AlignLeft | Qt::AlignVCenter, unit);
}

void ClusterHeatMap::mousePressEvent(QMouseEvent *event)
{
    const auto [row, column] = cellAt(event->position().toPoint());
    if (row >= 0)
        Q_EMIT cellClicked(row, column);
}

bool ClusterHeatMap::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QPoint pos = help->pos();
        const auto [row, column] = cellAt(pos);
        QString text;
        if (const std::optional<double> v = value(row, column)) {
            auto named = [](const QString &title, const QString &label) {
                return title.isEmpty() ? label : QStringLiteral("%1 %2").arg(title, label);
            };
            text = QStringLiteral("%1 × %2: %3")
                       .arg(named(m_rowTitle, m_rows[row]), named(m_columnTitle, m_columns[column]),
                            formatNumber(*v, m_unit));
        } else if (row < 0 && pos.x() < labelWidth() && pos.y() >= headerHeight()) {
            const int r = (pos.y() - headerHeight()) / m_cellHeight;
            if (r < rowCount())
                text = m_rows[r]; // the full label of an elided or thinned-out row
        } else if (row < 0 && pos.y() < headerHeight() && pos.x() >= labelWidth()) {
            const int c = (pos.x() - labelWidth()) / m_cellWidth;
            if (c < columnCount())
                text = m_columns[c];
        } else if (scaleRect().adjusted(0, 0, 0, fontMetrics().height() + kPad).contains(pos))
            text = tr("Colour scale: %1").arg(scaleCaption());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace at
