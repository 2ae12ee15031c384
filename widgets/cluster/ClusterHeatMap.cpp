#include "cluster/ClusterHeatMap.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace at {

namespace {
constexpr int kCell = 28;
constexpr int kMargin = 6;
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
    QWidget::changeEvent(event);
}

void ClusterHeatMap::setData(const QStringList &rows, const QStringList &columns,
                             std::vector<std::vector<std::optional<double>>> values, const QString &unit)
{
    m_rows = rows;
    m_columns = columns;
    m_values = std::move(values);
    m_unit = unit;
    bool any = false;
    for (const auto &row : m_values)
        for (const auto &v : row)
            if (v) {
                m_min = any ? std::min(m_min, *v) : *v;
                m_max = any ? std::max(m_max, *v) : *v;
                any = true;
            }
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

int ClusterHeatMap::labelWidth() const
{
    int w = 0;
    for (const QString &r : m_rows)
        w = std::max(w, fontMetrics().horizontalAdvance(r));
    return w + 2 * kMargin;
}

int ClusterHeatMap::headerHeight() const
{
    return fontMetrics().height() + 2 * kMargin;
}

QRect ClusterHeatMap::cellRect(int row, int column) const
{
    int cellWidth = kCell;
    for (const QString &c : m_columns)
        cellWidth = std::max(cellWidth, fontMetrics().horizontalAdvance(c) + kMargin);
    return {labelWidth() + column * cellWidth, headerHeight() + row * kCell, cellWidth, kCell};
}

std::pair<int, int> ClusterHeatMap::cellAt(QPoint pos) const
{
    for (int r = 0; r < rowCount(); ++r)
        for (int c = 0; c < columnCount(); ++c)
            if (cellRect(r, c).contains(pos))
                return {r, c};
    return {-1, -1};
}

QSize ClusterHeatMap::sizeHint() const
{
    if (rowCount() == 0 || columnCount() == 0)
        return {fontMetrics().horizontalAdvance(m_emptyText) + 2 * kMargin,
                fontMetrics().height() + 2 * kMargin};
    const QRect last = cellRect(std::max(0, rowCount() - 1), std::max(0, columnCount() - 1));
    return {last.right() + kMargin, last.bottom() + kMargin};
}

QSize ClusterHeatMap::minimumSizeHint() const
{
    return {kCell * 3, kCell * 2};
}

void ClusterHeatMap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette &pal = palette();
    p.setPen(pal.color(QPalette::Text));
    if (rowCount() == 0 || columnCount() == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignLeft | Qt::AlignTop,
                   m_emptyText);
        return;
    }
    for (int c = 0; c < columnCount(); ++c) {
        const QRect cell = cellRect(0, c);
        p.drawText(QRect(cell.left(), 0, cell.width(), headerHeight()), Qt::AlignCenter, m_columns[c]);
    }
    const QColor low = pal.color(QPalette::Base);
    const QColor high = pal.color(QPalette::Highlight);
    for (int r = 0; r < rowCount(); ++r) {
        const QRect first = cellRect(r, 0);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(0, first.top(), labelWidth() - kMargin, first.height()),
                   Qt::AlignRight | Qt::AlignVCenter, m_rows[r]);
        for (int c = 0; c < columnCount(); ++c) {
            const QRect cell = cellRect(r, c).adjusted(1, 1, -1, -1);
            const std::optional<double> v = value(r, c);
            if (!v) {
                p.fillRect(cell, pal.color(QPalette::Window));
                continue;
            }
            const double t = m_max > m_min ? (*v - m_min) / (m_max - m_min) : 1.0;
            const QColor color =
                QColor::fromRgbF(static_cast<float>(low.redF() + (high.redF() - low.redF()) * t),
                                 static_cast<float>(low.greenF() + (high.greenF() - low.greenF()) * t),
                                 static_cast<float>(low.blueF() + (high.blueF() - low.blueF()) * t));
            p.fillRect(cell, color);
            p.setPen(pal.color(QPalette::Mid));
            p.drawRect(cell);
        }
    }
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
        const auto [row, column] = cellAt(help->pos());
        const std::optional<double> v = value(row, column);
        if (v)
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("%1 × %2: %3 %4")
                                   .arg(m_rows[row], m_columns[column], QString::number(*v, 'f', 3), m_unit),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace at
