#include "TimelineOverlayPasses.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <vector>

namespace at {

namespace {
constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
constexpr int kRulerHeight = TimelineGeometry::kRulerHeight;

void outline(QPainter &p, const QPalette &palette, const QRectF &r, Qt::PenStyle style, double grow)
{
    p.save();
    p.setPen(QPen(palette.color(QPalette::Highlight), 2, style));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(-grow, -grow, grow, grow));
    p.restore();
}
} // namespace

void MarkersPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    if (!c.markers)
        return;
    const TimelineGeometry &g = c.geometry;
    const int bottom = g.height;
    // One marker per pixel column starting there is drawn: a session of a million markers drew a million tags
    // with their text in every frame (seconds a frame); the markers hidden under another draw nothing more.
    std::vector<char> columnTaken(static_cast<std::size_t>(std::max(0, g.width)) + 2, 0);
    for (const Marker &m : c.markers->markers()) {
        QColor color = QColor::fromRgb(m.rgb);
        const double x0 = g.timeX(m.begin);
        const double x1 = g.timeX(m.end);
        if (x1 < kLabelWidth - 1 || x0 > g.width + 1)
            continue;
        const auto column = static_cast<std::size_t>(std::clamp<double>(
            std::max<double>(x0, kLabelWidth), 0, static_cast<double>(columnTaken.size() - 1)));
        if (columnTaken[column] && x1 - x0 < 1)
            continue;
        columnTaken[column] = 1;
        p.save();
        if (!m.isFlag()) {
            QColor band = color;
            band.setAlpha(40);
            p.fillRect(QRectF(std::max<double>(x0, kLabelWidth), kRulerHeight,
                              std::max(1.0, x1 - std::max<double>(x0, kLabelWidth)), bottom - kRulerHeight),
                       band);
        }
        p.setPen(QPen(color, 1, m.isFlag() ? Qt::SolidLine : Qt::DashLine));
        for (double x : {x0, x1})
            if (x >= kLabelWidth)
                p.drawLine(QPointF(x, kRulerHeight), QPointF(x, bottom));
        const int w = p.fontMetrics().horizontalAdvance(m.name) + 8;
        const QRectF tag(std::max<double>(x0, kLabelWidth), kRulerHeight, w, 16);
        p.fillRect(tag, color);
        p.setPen(Qt::white);
        p.drawText(tag, Qt::AlignCenter, m.name);
        p.restore();
    }
}

void SpanPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    m_bands.clear();
    if (!m_span || !*m_span)
        return;
    const TimelineSpan &span = **m_span;
    const TimelineGeometry &g = c.geometry;
    // The span's times are its rank's own: an aligned rank's span is drawn with its offset, like its lanes.
    const TimeNs offset = g.model ? g.groupOffset(groupOfSpan(*g.model, span)) : 0;
    const double begin = g.timeX(span.begin + offset), end = g.timeX(span.end + offset);
    const double x0 = std::max<double>(begin, kLabelWidth - 1);
    const double x1 = std::min<double>(std::max(end, begin + 2), g.width + 1);
    if (x1 < kLabelWidth || x0 > g.width)
        return;
    // The rows to cover, merged into bands where they touch.
    const std::vector<LaneRow> &rows = g.layout->rows();
    std::vector<bool> covered(rows.size(), false);
    for (std::size_t r = 0; r < rows.size(); ++r)
        covered[r] =
            rows[r].kind != LaneRow::Kind::GroupHeader &&
            std::find(span.processes.begin(), span.processes.end(), rows[r].process) != span.processes.end();
    for (int thread : span.threads)
        if (const int row = g.layout->rowOfThread(thread); row >= 0)
            covered[static_cast<std::size_t>(row)] = true;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (!covered[r])
            continue;
        const double top = g.viewportY(rows[r].y), bottom = g.viewportY(rows[r].y + rows[r].height);
        if (!m_bands.empty() && std::abs(m_bands.back().bottom() - top) < 0.5)
            m_bands.back().setBottom(bottom);
        else
            m_bands.emplace_back(QPointF(x0, top), QPointF(x1, bottom));
    }
    std::erase_if(m_bands, [&](const QRectF &b) { return b.bottom() < kRulerHeight || b.top() > g.height; });
    if (m_bands.empty())
        return;
    p.save();
    const QColor edge = c.palette.color(QPalette::Link);
    QColor fill = edge;
    fill.setAlpha(60);
    for (const QRectF &band : m_bands) {
        p.fillRect(band, fill);
        p.setPen(QPen(edge, 2));
        p.drawLine(QPointF(x0 + 1, band.top()), QPointF(x0 + 1, band.bottom()));
        p.drawLine(QPointF(x1 - 1, band.top()), QPointF(x1 - 1, band.bottom()));
    }
    if (!span.label.isEmpty()) {
        const QRectF &first = m_bands.front();
        const int w = p.fontMetrics().horizontalAdvance(span.label) + 8;
        const double left = std::clamp(x0, double(kLabelWidth), std::max<double>(kLabelWidth, g.width - w));
        const QRectF tag(left, std::max<double>(first.top(), kRulerHeight), w, p.fontMetrics().height() + 2);
        p.fillRect(tag, edge);
        p.setPen(Qt::white);
        p.drawText(tag, Qt::AlignCenter, span.label);
    }
    p.restore();
}

void HighlightsPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    m_drawn = 0;
    if (!c.highlights || c.highlights->empty())
        return;
    const TimelineGeometry &g = c.geometry;
    p.save();
    p.setPen(QPen(color(), 2));
    p.setBrush(Qt::NoBrush);
    double lastRight = -1e9, lastTop = -1e9;
    for (const SliceRef &ref : *c.highlights) {
        const QRectF r = g.sliceRect(ref);
        if (r.isNull() || r.bottom() < kRulerHeight || r.top() > g.height || r.right() < kLabelWidth ||
            r.left() > g.width)
            continue;
        const double grow = std::max(0.0, (kMinWidth - r.width()) / 2);
        const QRectF box = r.adjusted(-grow, 0, grow, 0);
        if (box.top() == lastTop && box.right() < lastRight + 1)
            continue; // the same pixel column of the same depth
        lastTop = box.top();
        lastRight = box.right();
        p.drawRect(box);
        ++m_drawn;
    }
    p.restore();
}

void SelectionPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    if (c.selected.isValid())
        if (const QRectF r = c.geometry.sliceRect(c.selected); !r.isNull())
            outline(p, c.palette, r, Qt::SolidLine, 1);
    if (c.highlighted.isValid() && !(c.highlighted == c.selected))
        if (const QRectF r = c.geometry.sliceRect(c.highlighted); !r.isNull())
            outline(p, c.palette, r, Qt::DashLine, 2);
}

void CurrentLanePass::paint(QPainter &p, const TimelinePaintContext &c)
{
    if (c.currentLane < 0)
        return;
    const int row = c.geometry.layout->rowOfThread(c.currentLane);
    if (row < 0)
        return;
    const LaneRow &lane = c.geometry.layout->rows()[static_cast<std::size_t>(row)];
    if (lane.kind != LaneRow::Kind::Thread)
        return;
    p.fillRect(QRect(0, c.geometry.viewportY(lane.y), kBarWidth, lane.height),
               c.palette.color(QPalette::Highlight));
}

void FlowsPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    if (!c.selected.isValid())
        return;
    const TraceModel &model = *c.geometry.model;
    std::vector<std::uint32_t> flows = model.flowsFrom(c.selected);
    const std::vector<std::uint32_t> incoming = model.flowsTo(c.selected);
    flows.insert(flows.end(), incoming.begin(), incoming.end());
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const QColor color(200, 40, 40);
    p.setPen(QPen(color, 1.5));
    p.setBrush(color);
    for (std::uint32_t f : flows) {
        const FlowInfo &flow = model.flows()[f];
        if (!flow.from.isValid() || !flow.to.isValid())
            continue;
        const QPointF from = c.geometry.flowEndpoint(flow.from, flow.fromTime);
        const QPointF to = c.geometry.flowEndpoint(flow.to, flow.toTime);
        if (from.y() < 0 || to.y() < 0)
            continue;
        QPainterPath path(from);
        const double bend = std::max(20.0, std::abs(to.x() - from.x()) / 3);
        path.cubicTo(from + QPointF(bend, 0), to - QPointF(bend, 0), to);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        p.setBrush(color);
        const QPointF tip = to;
        QPolygonF head;
        head << tip << tip + QPointF(-7, -4) << tip + QPointF(-7, 4);
        p.drawPolygon(head);
    }
    p.restore();
}

void RangeSelectionPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    if (!c.rangeSelection)
        return;
    const TimelineGeometry &g = c.geometry;
    const double x0 = g.timeX(c.rangeSelection->start);
    const double x1 = g.timeX(c.rangeSelection->end);
    const QColor accent = c.palette.color(QPalette::Highlight);
    const QRect timeArea(kLabelWidth, kRulerHeight, g.width - kLabelWidth, g.height - kRulerHeight);
    const bool chosenLanes = c.rangeThreads && !c.rangeThreads->empty();
    if (!chosenLanes) {
        QColor shade = accent;
        shade.setAlpha(kBandAlpha);
        p.fillRect(QRectF(x0, kRulerHeight, std::max(1.0, x1 - x0), g.height - kRulerHeight) & timeArea,
                   shade);
    } else {
        // Only the chosen lanes' rows, below the sticky headers (which stay readable on top of them).
        const int top = g.sticky().bottom;
        QColor shade = accent;
        shade.setAlpha(kChosenLaneAlpha);
        QColor label = accent;
        label.setAlpha(kBandAlpha);
        for (int thread : *c.rangeThreads) {
            const int row = g.layout->rowOfThread(thread);
            if (row < 0)
                continue; // hidden or in a collapsed process
            const LaneRow &lane = g.layout->rows()[static_cast<std::size_t>(row)];
            const int y = g.viewportY(lane.y);
            const QRect band = QRect(0, y, g.width, lane.height) & QRect(0, top, g.width, g.height - top);
            if (band.isEmpty())
                continue;
            p.fillRect(QRect(0, band.top(), kLabelWidth, band.height()), label);
            p.fillRect(QRect(kLabelWidth - kAccentWidth, band.top(), kAccentWidth, band.height()), accent);
            p.fillRect(QRectF(x0, band.top(), std::max(1.0, x1 - x0), band.height()) & QRectF(timeArea),
                       shade);
        }
    }
    p.save();
    p.setClipRect(timeArea, Qt::IntersectClip);
    p.setPen(accent);
    p.drawLine(QPointF(x0, kRulerHeight), QPointF(x0, g.height));
    p.drawLine(QPointF(x1, kRulerHeight), QPointF(x1, g.height));
    p.restore();
    // Its duration is written on the ruler (TimelineRulerPass), where it never covers a slice.
}

void LegendPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    const MetricColoring &coloring = c.colors.coloring();
    if (coloring.mode() == MetricColoring::Mode::ByName)
        return;
    const int width = 220, height = 44;
    const QRect box(c.geometry.width - width - 12, kRulerHeight + 8, width, height);
    p.save();
    p.setOpacity(0.92);
    p.fillRect(box, c.palette.color(QPalette::Window));
    p.setOpacity(1.0);
    p.setPen(c.palette.color(QPalette::Mid));
    p.drawRect(box);
    const QRect bar(box.left() + 8, box.top() + 20, width - 16, 10);
    for (int x = 0; x < bar.width(); ++x)
        p.fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()),
                   viridis(static_cast<double>(x) / (bar.width() - 1)));
    p.setPen(c.palette.color(QPalette::WindowText));
    p.drawText(QRect(box.left() + 8, box.top() + 2, width - 16, 16), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(coloring.legendTitle(), Qt::ElideRight, width - 16));
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.drawText(QRect(bar.left(), bar.bottom() + 1, bar.width(), 12), Qt::AlignLeft, coloring.legendMinimum());
    p.drawText(QRect(bar.left(), bar.bottom() + 1, bar.width(), 12), Qt::AlignRight,
               coloring.legendMaximum());
    p.restore();
}

} // namespace at
