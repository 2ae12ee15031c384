#include "cluster/StrategyView.h"

#include "NumberFormat.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterHeatMap.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPolygon>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace at {

using namespace at::cluster;

namespace {

constexpr int kMargin = 6;
constexpr int kPad = 4;
constexpr int kMinCell = 4;   // px: below this a 1,024-rank grid scrolls rather than shrinks
constexpr int kMaxCell = 120; // px: a 4-rank grid does not fill a 1600-pixel page with four squares
constexpr int kScaleBarWidth = 220;
constexpr int kScaleBarHeight = 12;
constexpr int kSampleWidth = 22; // the key's outline samples

// A figure as the legend and tool tips write it: about four significant digits, the unit after.
QString figureText(double value, const QString &unit)
{
    const double magnitude = std::abs(value);
    const int decimals = unit == QLatin1String("MB") ? 0 : magnitude >= 100 ? 1 : magnitude >= 1 ? 2 : 3;
    const double scale = std::pow(10.0, decimals);
    return QStringLiteral("%1 %2").arg(formatNumber(std::round(value * scale) / scale), unit);
}

// Rows per band of the slowest dimension on an axis (0: one dimension or none, no bands).
int bandOf(const ParallelStrategy &s, bool columns)
{
    int product = 1, last = 0, count = 0;
    for (const StrategyDimension &d : s.dimensions)
        if (d.inColumns == columns) {
            product *= d.size;
            last = d.size;
            ++count;
        }
    return count >= 2 ? product / last : 0;
}

// "PP 1 · DP 0": the coordinates of a row (or column) index on that axis, slowest dimension first.
QString axisLabel(const ParallelStrategy &s, int index, bool columns)
{
    QStringList parts;
    for (const StrategyDimension &d : s.dimensions)
        if (d.inColumns == columns) {
            parts.prepend(
                QStringLiteral("%1 %2").arg(parallelDimensionName(d.dimension)).arg(index % d.size));
            index /= d.size;
        }
    return parts.join(QStringLiteral(" · "));
}

constexpr QRgb kMarkerColor = 0xd62728; // a finding's marker: red with a white rim, on any ramp colour

} // namespace

// ---------------------------------------------------------------------------------------------------------
// StrategyGrid

StrategyGrid::StrategyGrid(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setAccessibleName(tr("Parallel strategy grid"));
}

QColor StrategyGrid::outlineColor(ParallelDimension d)
{
    // Distinct from each other and from the viridis ramp's purple, blue, green and yellow.
    switch (d) {
    case ParallelDimension::TP:
        return QColor(0xff4040);
    case ParallelDimension::CP:
        return QColor(0x00e5ff);
    case ParallelDimension::EP:
        return QColor(0xffffff);
    case ParallelDimension::DP:
        return QColor(0xff9f1c);
    case ParallelDimension::PP:
        return QColor(0xff5ad2);
    }
    return {};
}

void StrategyGrid::setData(std::shared_ptr<const ClusterModel> model, ParallelStrategy strategy)
{
    m_model = std::move(model);
    m_strategy = std::move(strategy);
    m_figures.clear();
    if (m_model)
        for (int f = 0; f < kRankFigureCount; ++f)
            m_figures.push_back(rankFigure(*m_model, static_cast<RankFigure>(f)));
    m_modelIndex.assign(m_strategy.ranks.size(), -1);
    m_labels.clear();
    m_labels.reserve(m_strategy.ranks.size());
    for (std::size_t i = 0; i < m_strategy.ranks.size(); ++i) {
        m_modelIndex[i] = modelIndex(m_strategy.ranks[i].rank);
        QStaticText label(QString::number(m_strategy.ranks[i].rank));
        label.setTextFormat(Qt::PlainText);
        m_labels.push_back(label);
    }
    m_findings.assign(m_strategy.ranks.size(), {});
    m_hovered = -1;
    for (auto &o : m_outlined)
        o.clear();
    recolor();
    relayout();
    updateGeometry();
    update();
}

void StrategyGrid::setFigure(RankFigure figure)
{
    m_figure = figure;
    recolor();
    relayout(); // the legend's text changes width
    update();
}

void StrategyGrid::setFindings(std::vector<std::pair<int, QString>> findings)
{
    m_findings.assign(m_strategy.ranks.size(), {});
    for (const auto &finding : findings)
        if (const int i = placementIndex(finding.first); i >= 0) {
            QStringList &list = m_findings[static_cast<std::size_t>(i)];
            if (!list.contains(finding.second))
                list << finding.second;
        }
    update();
}

int StrategyGrid::placementIndex(int rank) const
{
    const RankPlacement *p = m_strategy.placement(rank);
    return p ? static_cast<int>(p - m_strategy.ranks.data()) : -1;
}

int StrategyGrid::modelIndex(int rank) const
{
    if (!m_model)
        return -1;
    const auto &ranks = m_model->ranks;
    const auto it =
        std::lower_bound(ranks.begin(), ranks.end(), rank, [](const Rank &r, int id) { return r.rank < id; });
    return it != ranks.end() && it->rank == rank ? static_cast<int>(it - ranks.begin()) : -1;
}

std::optional<double> StrategyGrid::figureValue(int rank) const
{
    const int i = placementIndex(rank);
    const auto f = static_cast<std::size_t>(m_figure);
    if (i < 0 || f >= m_figures.size() || m_modelIndex[static_cast<std::size_t>(i)] < 0)
        return std::nullopt;
    return m_figures[f].values[static_cast<std::size_t>(m_modelIndex[static_cast<std::size_t>(i)])];
}

void StrategyGrid::recolor()
{
    m_anyValue = false;
    m_min = m_max = 0;
    for (const RankPlacement &p : m_strategy.ranks)
        if (const std::optional<double> v = figureValue(p.rank); v && std::isfinite(*v)) {
            m_min = m_anyValue ? std::min(m_min, *v) : *v;
            m_max = m_anyValue ? std::max(m_max, *v) : *v;
            m_anyValue = true;
        }
    // The scale spans at least 5 % of the largest value (kSlowRankThreshold: same-kind times that agree
    // within 5 % are alike), so ranks 0.1 % apart are not painted as far apart as the ramp's two ends.
    m_scaleMin = std::min(m_min, m_max - cluster::kSlowRankThreshold * std::abs(m_max));
    m_colors.assign(m_strategy.ranks.size(), QColor());
    m_textColors.assign(m_strategy.ranks.size(), palette().color(QPalette::PlaceholderText));
    for (std::size_t i = 0; i < m_strategy.ranks.size(); ++i)
        if (const std::optional<double> v = figureValue(m_strategy.ranks[i].rank); v && std::isfinite(*v)) {
            m_colors[i] = ClusterHeatMap::rampColor(
                m_max > m_scaleMin ? (*v - m_scaleMin) / (m_max - m_scaleMin) : 0.5);
            m_textColors[i] = ClusterHeatMap::textColorOn(m_colors[i]);
        }
}

QColor StrategyGrid::cellColor(int rank) const
{
    const int i = placementIndex(rank);
    return i < 0 ? QColor() : m_colors[static_cast<std::size_t>(i)];
}

QStringList StrategyGrid::findingsOn(int rank) const
{
    const int i = placementIndex(rank);
    return i < 0 ? QStringList() : m_findings[static_cast<std::size_t>(i)];
}

QString StrategyGrid::keyText() const
{
    QStringList rows, columns;
    for (const StrategyDimension &d : m_strategy.dimensions)
        (d.inColumns ? columns : rows).prepend(parallelDimensionName(d.dimension));
    const QString rowText = rows.isEmpty() ? tr("one") : rows.join(QStringLiteral(" × "));
    const QString columnText = columns.isEmpty() ? tr("one") : columns.join(QStringLiteral(" × "));
    return tr("%1 = %2 ranks; rows: %3, columns: %4")
        .arg(m_strategy.shapeText())
        .arg(m_strategy.ranks.size())
        .arg(rowText, columnText);
}

QString StrategyGrid::legendText() const
{
    const auto f = static_cast<std::size_t>(m_figure);
    const QString name = rankFigureName(m_figure);
    if (!m_anyValue || f >= m_figures.size())
        return tr("%1: no rank has this figure").arg(name);
    const QString range =
        QStringLiteral("%1: %2 – %3")
            .arg(name, figureText(m_min, m_figures[f].unit), figureText(m_max, m_figures[f].unit));
    return m_scaleMin < m_min ? tr("%1 (within 5 %: coloured alike)").arg(range) : range;
}

int StrategyGrid::axisOffset(int coordinate, bool columns) const
{
    const int band = columns ? m_columnBlock : m_rowBlock;
    return coordinate * m_cell + (band > 0 ? coordinate / band * m_gap : 0);
}

void StrategyGrid::relayout()
{
    m_keyItems.clear();
    m_keyRect = m_legendRect = m_markerKeySample = m_markerKeyText = QRect();
    m_rowLabels.clear();
    m_columnLabels.clear();
    m_rowLabelWidth = m_columnLabelHeight = 0;
    m_cell = 0;
    if (!m_strategy.known())
        return;
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.height();
    const int width = std::max(this->width(), 200) - 2 * kMargin;
    // The key: the shape and axes on one line (wrapped by words when narrow), then one outline sample per
    // dimension and the finding marker, flowing onto more lines when they do not fit.
    m_keyText = keyText();
    m_legendText = legendText();
    const QRect shape = metrics.boundingRect(QRect(0, 0, width, 10 * line), Qt::TextWordWrap, m_keyText);
    int x = 0, y = shape.height() + kPad;
    auto place = [&](const QString &text) {
        const int w = kSampleWidth + kPad + metrics.horizontalAdvance(text) + 3 * kPad;
        if (x > 0 && x + w > width) {
            x = 0;
            y += line + kPad;
        }
        const QRect sample(kMargin + x, kMargin + y + 2, kSampleWidth, line - 4);
        const QRect text_(sample.right() + kPad, kMargin + y, w - kSampleWidth - kPad, line);
        x += w;
        return std::pair{sample, text_};
    };
    for (const StrategyDimension &d : m_strategy.dimensions) {
        const QString label = tr("%1 group (%2 ranks)").arg(parallelDimensionName(d.dimension)).arg(d.size);
        const auto [sample, text] = place(label);
        m_keyItems.push_back({d.dimension, sample, text, label});
    }
    {
        const auto [sample, text] = place(tr("named by a finding"));
        m_markerKeySample = sample;
        m_markerKeyText = text;
    }
    m_keyRect = QRect(kMargin, kMargin, width, y + line);
    // The legend under the grid: the figure's name and range above the scale bar.
    const int legendHeight = line + kPad + kScaleBarHeight + kPad + line;
    // Coordinate labels: left of each row and above each column, when there is room for them.
    const int rows = m_strategy.rows, columns = m_strategy.columns;
    m_rowBlock = bandOf(m_strategy, false);
    m_columnBlock = bandOf(m_strategy, true);
    int rowLabelWidth = 0, columnLabelWidth = 0;
    for (int r = 0; r < rows; ++r)
        rowLabelWidth = std::max(rowLabelWidth, metrics.horizontalAdvance(axisLabel(m_strategy, r, false)));
    for (int c = 0; c < columns; ++c)
        columnLabelWidth =
            std::max(columnLabelWidth, metrics.horizontalAdvance(axisLabel(m_strategy, c, true)));
    const int top = m_keyRect.bottom() + 1 + kMargin;
    auto fit = [&](int labelWidth, int labelHeight, int gap) {
        const int across = width - labelWidth - (m_columnBlock > 0 ? columns / m_columnBlock * gap : 0);
        const int down = height() - top - labelHeight - legendHeight - 2 * kMargin -
                         (m_rowBlock > 0 ? rows / m_rowBlock * gap : 0);
        return std::clamp(std::min(across / columns, down / rows), kMinCell, kMaxCell);
    };
    m_gap = 4;
    int cell = fit(rowLabelWidth + kPad, line + kPad, m_gap);
    const bool rowLabels = cell >= line && rowLabelWidth <= width / 4;
    const bool columnLabels = cell >= columnLabelWidth + kPad;
    m_rowLabelWidth = rowLabels ? rowLabelWidth + kPad : 0;
    m_columnLabelHeight = columnLabels ? line + kPad : 0;
    cell = fit(m_rowLabelWidth, m_columnLabelHeight, m_gap);
    if (cell < 10)
        m_gap = 2;
    m_cell = fit(m_rowLabelWidth, m_columnLabelHeight, m_gap);
    m_origin = QPoint(kMargin + m_rowLabelWidth, top + m_columnLabelHeight);
    if (rowLabels)
        for (int r = 0; r < rows; ++r)
            m_rowLabels.emplace_back(axisLabel(m_strategy, r, false));
    if (columnLabels)
        for (int c = 0; c < columns; ++c)
            m_columnLabels.emplace_back(axisLabel(m_strategy, c, true));
    // The widest number is the longest one (digits are as wide as each other in the UI fonts): one measure,
    // not 1,024 (a resize of a 1,024-rank grid relays out).
    int longest = 0;
    for (const RankPlacement &p : m_strategy.ranks)
        longest = std::max(longest, p.rank);
    const int widestNumber = metrics.horizontalAdvance(QString::number(longest));
    m_showNumbers = m_cell >= widestNumber + 2 * kPad && m_cell >= line + 2;
    if (m_showNumbers) // prepared only when drawn
        for (QStaticText &label : m_labels)
            label.prepare(QTransform(), font());
    const int gridBottom = m_origin.y() + axisOffset(rows - 1, false) + m_cell;
    m_legendRect = QRect(kMargin, gridBottom + kMargin, width, legendHeight);
}

QSize StrategyGrid::sizeHint() const
{
    return {640, 420};
}

QSize StrategyGrid::minimumSizeHint() const
{
    if (!m_strategy.known())
        return {200, 3 * fontMetrics().height()};
    // The grid at its smallest cells, with the key and the legend: below this the scroll area scrolls.
    const int line = fontMetrics().height();
    const int columns = m_strategy.columns, rows = m_strategy.rows;
    const int gridWidth = columns * kMinCell + (m_columnBlock > 0 ? columns / m_columnBlock * 2 : 0);
    const int gridHeight = rows * kMinCell + (m_rowBlock > 0 ? rows / m_rowBlock * 2 : 0);
    return {std::max(kScaleBarWidth + 8 * line, gridWidth + m_rowLabelWidth) + 2 * kMargin,
            m_keyRect.height() + gridHeight + m_columnLabelHeight + 4 * line + 4 * kMargin};
}

QRect StrategyGrid::cellRect(int rank) const
{
    const RankPlacement *p = m_strategy.placement(rank);
    if (!p || m_cell <= 0)
        return {};
    return {m_origin.x() + axisOffset(p->column, true), m_origin.y() + axisOffset(p->row, false), m_cell,
            m_cell};
}

int StrategyGrid::markerSide() const
{
    return std::clamp(m_cell / 4, 4, 16);
}

QRect StrategyGrid::markerRect(int rank) const
{
    if (findingsOn(rank).isEmpty())
        return {};
    const QRect cell = cellRect(rank);
    const int side = markerSide();
    return {cell.right() + 1 - side, cell.top(), side, side};
}

int StrategyGrid::rankAt(QPoint pos) const
{
    if (m_cell <= 0)
        return -1;
    auto coordinate = [this](int offset, int count, bool columns) {
        if (offset < 0)
            return -1;
        const int band = columns ? m_columnBlock : m_rowBlock;
        const int bandWidth = band > 0 ? band * m_cell + m_gap : 0;
        int c = band > 0 ? offset / bandWidth * band : 0;
        const int rest = band > 0 ? offset % bandWidth : offset;
        if (band > 0 && rest >= band * m_cell)
            return -1; // in a gap
        c += rest / m_cell;
        return c < count ? c : -1;
    };
    const int column = coordinate(pos.x() - m_origin.x(), m_strategy.columns, true);
    const int row = coordinate(pos.y() - m_origin.y(), m_strategy.rows, false);
    return row < 0 || column < 0 ? -1 : m_strategy.rankAt(row, column);
}

std::vector<int> StrategyGrid::outlinedRanks(ParallelDimension d) const
{
    return m_outlined[static_cast<std::size_t>(d)];
}

void StrategyGrid::setHovered(int rank)
{
    if (rank == m_hovered)
        return;
    m_hovered = rank;
    for (const StrategyDimension &d : m_strategy.dimensions)
        m_outlined[static_cast<std::size_t>(d.dimension)] =
            rank >= 0 ? m_strategy.groupAlong(rank, d.dimension) : std::vector<int>{};
    update();
    Q_EMIT hoveredRankChanged(rank);
}

QString StrategyGrid::toolTipText(int rank) const
{
    const RankPlacement *p = m_strategy.placement(rank);
    if (!p)
        return {};
    QStringList lines;
    const int mi = modelIndex(rank);
    const Rank *r = mi >= 0 ? &m_model->ranks[static_cast<std::size_t>(mi)] : nullptr;
    lines << (r && r->device >= 0 ? tr("Rank %1 (device %2)").arg(rank).arg(r->device)
                                  : tr("Rank %1").arg(rank));
    QStringList coordinates;
    for (const StrategyDimension &d : m_strategy.dimensions)
        coordinates << QStringLiteral("%1 %2/%3")
                           .arg(parallelDimensionName(d.dimension))
                           .arg(p->coordinate[static_cast<std::size_t>(d.dimension)])
                           .arg(d.size);
    lines << coordinates.join(QStringLiteral(" · "));
    if (!r)
        lines << tr("Not in this cluster folder");
    else
        for (int f = 0; f < kRankFigureCount && static_cast<std::size_t>(f) < m_figures.size(); ++f) {
            const auto &v = m_figures[static_cast<std::size_t>(f)].values[static_cast<std::size_t>(mi)];
            if (v)
                lines << QStringLiteral("%1: %2").arg(
                    rankFigureName(static_cast<RankFigure>(f)),
                    figureText(*v, m_figures[static_cast<std::size_t>(f)].unit));
        }
    for (const QString &finding : findingsOn(rank))
        lines << tr("Finding: %1").arg(finding);
    if (r)
        lines << tr("Click to open its timeline");
    return lines.join(QLatin1Char('\n'));
}

void StrategyGrid::paintKey(QPainter &p) const
{
    const QPalette &pal = palette();
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(m_keyRect.left(), m_keyRect.top(), m_keyRect.width(), m_keyRect.height()),
               Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, m_keyText);
    for (const KeyItem &item : m_keyItems) {
        p.fillRect(item.sample, pal.color(QPalette::Base));
        p.setPen(QPen(outlineColor(item.dimension), 2));
        p.drawRect(item.sample.adjusted(1, 1, -1, -1));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(item.text, Qt::AlignLeft | Qt::AlignVCenter, item.label);
    }
    const int side = m_markerKeySample.height();
    const QRect marker(m_markerKeySample.left(), m_markerKeySample.top(), side, side);
    p.setBrush(QColor(kMarkerColor));
    p.setPen(QPen(Qt::white, 1));
    p.drawPolygon(QPolygon({marker.topLeft(), marker.topRight(), marker.bottomRight()}));
    p.setBrush(Qt::NoBrush);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(m_markerKeyText, Qt::AlignLeft | Qt::AlignVCenter, tr("named by a finding"));
}

void StrategyGrid::paintLegend(QPainter &p) const
{
    const QPalette &pal = palette();
    const int line = fontMetrics().height();
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(m_legendRect.left(), m_legendRect.top(), m_legendRect.width(), line),
               Qt::AlignLeft | Qt::AlignVCenter, m_legendText);
    const auto f = static_cast<std::size_t>(m_figure);
    if (!m_anyValue || f >= m_figures.size())
        return;
    const QRect bar(m_legendRect.left(), m_legendRect.top() + line + kPad, kScaleBarWidth, kScaleBarHeight);
    const QString unit = m_figures[f].unit;
    ClusterHeatMap::paintScale(p, bar, figureText(m_scaleMin, unit), figureText(m_max, unit), QString(), pal,
                               line);
}

void StrategyGrid::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    const QPalette &pal = palette();
    if (!m_strategy.known()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   tr("No parallel strategy known: %1").arg(m_strategy.reason));
        return;
    }
    const QRect dirty = event->rect();
    if (dirty.intersects(m_keyRect))
        paintKey(p);
    p.setPen(pal.color(QPalette::WindowText));
    const int line = fontMetrics().height();
    for (std::size_t r = 0; r < m_rowLabels.size(); ++r) {
        const QRect box(kMargin, m_origin.y() + axisOffset(static_cast<int>(r), false),
                        m_rowLabelWidth - kPad, m_cell);
        if (box.intersects(dirty))
            p.drawStaticText(box.right() - static_cast<int>(m_rowLabels[r].size().width()),
                             box.center().y() - line / 2, m_rowLabels[r]);
    }
    for (std::size_t c = 0; c < m_columnLabels.size(); ++c) {
        const int left = m_origin.x() + axisOffset(static_cast<int>(c), true);
        p.drawStaticText(left + (m_cell - static_cast<int>(m_columnLabels[c].size().width())) / 2,
                         m_origin.y() - m_columnLabelHeight, m_columnLabels[c]);
    }
    // The cells: the figure's colour (an empty cell: no value, or a rank not in the folder), the number.
    const int inset = m_cell >= 8 ? 1 : 0;
    for (std::size_t i = 0; i < m_strategy.ranks.size(); ++i) {
        const RankPlacement &placement = m_strategy.ranks[i];
        const QRect cell(m_origin.x() + axisOffset(placement.column, true),
                         m_origin.y() + axisOffset(placement.row, false), m_cell - inset, m_cell - inset);
        if (!cell.intersects(dirty))
            continue;
        const QColor &fill = m_colors[i];
        p.fillRect(cell, fill.isValid() ? fill : pal.color(QPalette::AlternateBase));
        if (m_showNumbers) {
            p.setPen(m_textColors[i]);
            const QSizeF size = m_labels[i].size();
            p.drawStaticText(QPointF(cell.left() + (cell.width() - size.width()) / 2,
                                     cell.top() + (cell.height() - size.height()) / 2),
                             m_labels[i]);
        }
        if (!m_findings[i].isEmpty()) {
            const int side = markerSide();
            const QPoint corner(cell.right() + 1, cell.top());
            p.setBrush(QColor(kMarkerColor));
            p.setPen(m_cell >= 12 ? QPen(Qt::white, 1) : Qt::NoPen);
            p.drawPolygon(QPolygon({corner - QPoint(side, 0), corner, corner + QPoint(0, side)}));
            p.setBrush(Qt::NoBrush);
        }
    }
    // The hovered rank's groups: one outline per dimension, each inset a little further so that they all
    // show on a cell that is in several (every cell of the hovered rank's row, say).
    if (m_hovered >= 0) {
        int k = 0;
        const int pen = m_cell >= 16 ? 2 : 1;
        for (const StrategyDimension &d : m_strategy.dimensions) {
            p.setPen(QPen(outlineColor(d.dimension), pen));
            const int in = std::min(k * pen + pen / 2, std::max(0, m_cell / 2 - pen));
            for (int rank : m_outlined[static_cast<std::size_t>(d.dimension)])
                p.drawRect(cellRect(rank).adjusted(in, in, -in - pen, -in - pen));
            ++k;
        }
        p.setPen(QPen(pal.color(QPalette::WindowText), 2));
        p.drawRect(cellRect(m_hovered).adjusted(-1, -1, 0, 0));
    }
    if (dirty.intersects(m_legendRect))
        paintLegend(p);
}

void StrategyGrid::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void StrategyGrid::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange) {
        relayout();
        updateGeometry();
    }
    if (event->type() == QEvent::PaletteChange)
        recolor();
    QWidget::changeEvent(event);
}

void StrategyGrid::mouseMoveEvent(QMouseEvent *event)
{
    setHovered(rankAt(event->position().toPoint()));
    QWidget::mouseMoveEvent(event);
}

void StrategyGrid::leaveEvent(QEvent *event)
{
    setHovered(-1);
    QWidget::leaveEvent(event);
}

void StrategyGrid::mousePressEvent(QMouseEvent *event)
{
    const int rank = rankAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && rank >= 0 && modelIndex(rank) >= 0)
        Q_EMIT rankClicked(rank);
    QWidget::mousePressEvent(event);
}

bool StrategyGrid::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int rank = rankAt(help->pos());
        QString text;
        if (rank >= 0 && markerRect(rank).contains(help->pos()))
            text = tr("Findings naming rank %1:\n%2").arg(rank).arg(findingsOn(rank).join(QLatin1Char('\n')));
        else if (rank >= 0)
            text = toolTipText(rank);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

// ---------------------------------------------------------------------------------------------------------
// StrategyView

StrategyView::StrategyView(QWidget *parent)
    : QWidget(parent), m_figureLabel(new QLabel), m_figure(new QComboBox), m_note(new QLabel),
      m_scroll(new QScrollArea), m_grid(new StrategyGrid)
{
    auto *layout = new QVBoxLayout(this);
    auto *chooser = new QHBoxLayout;
    chooser->addWidget(m_figureLabel);
    chooser->addWidget(m_figure);
    chooser->addStretch(1);
    m_figure->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_figureLabel->setBuddy(m_figure);
    layout->addLayout(chooser);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);
    m_scroll->setWidget(m_grid);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(m_scroll, 1);
    connect(m_figure, &QComboBox::currentIndexChanged, this, &StrategyView::applyFigure);
    connect(m_grid, &StrategyGrid::rankClicked, this, &StrategyView::rankOpenRequested);
    retranslateUi();
}

void StrategyView::retranslateUi()
{
    m_figureLabel->setText(tr("&Colour by:"));
    const QSignalBlocker block(m_figure);
    const int current = std::max(0, m_figure->currentIndex());
    m_figure->clear();
    for (int f = 0; f < kRankFigureCount; ++f)
        m_figure->addItem(rankFigureName(static_cast<RankFigure>(f)), f);
    m_figure->setCurrentIndex(current);
    updateNote();
}

void StrategyView::updateNote()
{
    const ParallelStrategy &s = m_grid->strategy();
    QString text;
    if (s.source == StrategySource::DistributedArgs)
        text = tr("Coordinates from distributed_args in Megatron order (TP fastest, then CP, DP, PP): the "
                  "parallel groups do not place every rank (%1).")
                   .arg(s.reason);
    else if (s.source == StrategySource::Groups)
        text = tr("Coordinates from the parallel groups (parallel_group_info). Hover a rank to outline its "
                  "groups; click it to open its timeline.");
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

RankFigure StrategyView::figure() const
{
    return static_cast<RankFigure>(std::max(0, m_figure->currentData().toInt()));
}

void StrategyView::setModel(std::shared_ptr<const ClusterModel> model)
{
    m_model = std::move(model);
    m_grid->setData(m_model, m_model ? parallelStrategy(*m_model) : ParallelStrategy{});
    applyFigure();
    updateNote();
}

void StrategyView::setFindings(std::vector<std::pair<int, QString>> findings)
{
    m_grid->setFindings(std::move(findings));
}

void StrategyView::applyFigure()
{
    m_grid->setFigure(figure());
}

void StrategyView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace at
