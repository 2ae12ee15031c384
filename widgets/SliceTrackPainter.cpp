#include "SliceTrackPainter.h"

#include <QPainter>

#include <array>
#include <cmath>

namespace at {

namespace {

constexpr double kMinLabelWidth = 28;

// Coverage bars: the share of a column that is busy picks one of a few shades, so that equal
// neighbours merge into one rectangle and a column with any work is never lighter than the first.
int densityShade(float busyFraction)
{
    return busyFraction >= 0.9f ? 3 : busyFraction >= 0.5f ? 2 : busyFraction >= 0.2f ? 1 : 0;
}
constexpr std::array<double, 4> kShadeOpacity{0.45, 0.6, 0.8, 1.0};

// First slice in [from, last) of one depth starting at or after time, searched outward from 'from':
// the next pixel column's slices are usually close by, so this reads a few cache lines instead of
// a binary search over the whole depth.
std::uint32_t gallopToStart(const SliceTable &t, std::uint32_t from, std::uint32_t last, TimeNs time)
{
    std::uint64_t lo = from, hi = from, step = 1;
    while (hi < last && t.start(static_cast<std::uint32_t>(hi)) < time) {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    hi = std::min<std::uint64_t>(hi, last);
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (t.start(static_cast<std::uint32_t>(mid)) < time)
            lo = mid + 1;
        else
            hi = mid;
    }
    return static_cast<std::uint32_t>(lo);
}

QRgb mix(QRgb from, QRgb to, double t)
{
    const auto channel = [t](int a, int b) { return a + static_cast<int>(std::lround((b - a) * t)); };
    return qRgb(channel(qRed(from), qRed(to)), channel(qGreen(from), qGreen(to)),
                channel(qBlue(from), qBlue(to)));
}

} // namespace

void drawSliceLabel(QPainter &p, const TraceModel &model, const QRectF &rect, StringId name)
{
    const QString label = p.fontMetrics().elidedText(model.strings().qstring(name), Qt::ElideRight,
                                                     static_cast<int>(rect.width()) - 6);
    if (label.isEmpty())
        return;
    p.setPen(QColor(20, 20, 20));
    p.drawText(rect.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
}

void SliceTrackPainter::paint(QPainter &p, const TimelinePaintContext &c, const LaneRow &row, int y,
                              const QRect &clip)
{
    constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
    const TraceModel &model = *c.geometry.model;
    const int width = c.geometry.width;
    const SliceTable &t = model.threads()[static_cast<std::size_t>(row.index)].slices;
    // Label column.
    p.setPen(c.palette.color(QPalette::Mid));
    p.drawLine(0, y + row.height - 1, width, y + row.height - 1);
    p.setPen(c.palette.color(QPalette::Text));
    p.drawText(
        QRect(14, y, kLabelWidth - 18, std::min(row.height, LaneLayout::kSliceHeight + 6)),
        Qt::AlignVCenter | Qt::AlignLeft,
        p.fontMetrics().elidedText(model.threadDisplayName(row.index), Qt::ElideRight, kLabelWidth - 18));

    p.save();
    p.setClipRect(QRect(kLabelWidth, std::max(y, clip.top()), width - kLabelWidth,
                        std::min(y + row.height, clip.bottom()) - std::max(y, clip.top()) + 1));
    for (int d = 0; d < t.depthCount(); ++d) {
        const int top = y + LaneLayout::kTrackPadding + d * LaneLayout::kSliceHeight;
        if (top > clip.bottom())
            break;
        if (top + LaneLayout::kSliceHeight < clip.top())
            continue;
        if (paintDepthLod(p, c, row.index, d, top)) {
            ++m_lodDepths;
            continue;
        }
        ++m_exactDepths;
        paintDepthExact(p, c, row.index, d, top);
    }
    p.restore();
}

void SliceTrackPainter::paintDepthExact(QPainter &p, const TimelinePaintContext &c, int thread, int d,
                                        int top)
{
    constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
    const TimeAxis &a = c.geometry.axis;
    const SliceTable &t = c.geometry.model->threads()[static_cast<std::size_t>(thread)].slices;
    const TimeRange visible = a.range();
    // Columns of merged narrow slices go into a transparent one-row strip blitted once (a
    // fillRect each was most of a zoomed-out frame); wider slices are drawn over it after.
    const int columns = static_cast<int>(a.pixelWidth());
    QRgb *strip = nullptr;
    m_wideSlices.clear();
    const auto last = t.depthRange(d).second;
    std::uint32_t i = t.firstEndingAtOrAfter(d, visible.start);
    while (i < last && t.start(i) <= visible.end) {
        const double x0 = a.toPixel(t.start(i));
        const double x1 = a.toPixel(t.end(i));
        if (x1 - x0 < 1.0) {
            // Everything starting in this pixel column collapses into one 1-px box; jump past
            // it with a search. Only the last slice starting in the column can reach beyond
            // it (slices at one depth never overlap), so it is drawn on its own.
            const double column = std::floor(std::max(0.0, x0));
            const TimeNs columnEnd = a.toTime(column + 1);
            std::uint32_t next = gallopToStart(t, i + 1, last, std::max(columnEnd, t.start(i) + 1));
            if (column < columns) {
                if (!strip) {
                    if (m_exactStrip.width() != columns)
                        m_exactStrip = QImage(columns, 1, QImage::Format_ARGB32_Premultiplied);
                    m_exactStrip.fill(Qt::transparent);
                    strip = reinterpret_cast<QRgb *>(m_exactStrip.scanLine(0));
                }
                strip[static_cast<int>(column)] = qPremultiply(c.colors.mergedColor({thread, i}).rgba());
            }
            if (next > i + 1 && t.end(next - 1) > columnEnd)
                next = next - 1; // the wide one is handled in the next iteration
            i = std::max(next, i + 1);
            continue;
        }
        m_wideSlices.push_back(i);
        ++i;
    }
    if (strip)
        p.drawImage(QRect(kLabelWidth, top, columns, LaneLayout::kSliceHeight - 1), m_exactStrip);
    for (std::uint32_t w : m_wideSlices) {
        const double left = std::max(a.toPixel(t.start(w)), -2.0);
        const double right = std::min(a.toPixel(t.end(w)), a.pixelWidth() + 2.0);
        const QRectF rect(kLabelWidth + left, top, right - left, LaneLayout::kSliceHeight - 1);
        p.fillRect(rect, c.colors.sliceColor({thread, w}));
        if (rect.width() >= kMinLabelWidth)
            drawSliceLabel(p, *c.geometry.model, rect, t.name(w));
    }
}

bool SliceTrackPainter::paintDepthLod(QPainter &p, const TimelinePaintContext &c, int thread, int depth,
                                      int top)
{
    constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
    // Summaries know names, not slices: per-slice colours (metrics, compare view) draw slices.
    if (!c.levelOfDetail || c.colors.perSliceColors())
        return false;
    const TimeAxis &a = c.geometry.axis;
    const int count = static_cast<int>(a.pixelWidth());
    const SliceLod &lod = c.geometry.model->sliceLod(thread);
    if (!lod.columns(depth, a.range().start, a.nsPerPixel(), count, m_lodColumns))
        return false;
    // One pixel per column into a one-row strip, stretched over the band in one blit: a
    // zoomed-out frame has tens of thousands of columns with work, too many for a fillRect each.
    const QRgb base = c.palette.color(QPalette::Base).rgb();
    const auto npp = static_cast<float>(a.nsPerPixel());
    if (m_lodStrip.width() != count)
        m_lodStrip = QImage(count, 1, QImage::Format_RGB32);
    auto *line = reinterpret_cast<QRgb *>(m_lodStrip.scanLine(0));
    for (int col = 0; col < count; ++col) {
        const SliceLod::Column &column = m_lodColumns[static_cast<std::size_t>(col)];
        if (!column.work) {
            line[col] = base;
            continue;
        }
        const int shade = densityShade(column.busy / npp);
        const QRgb color = c.colors.darkNameColor(column.name).rgb();
        line[col] = shade == 3 ? color : mix(base, color, kShadeOpacity[static_cast<std::size_t>(shade)]);
    }
    p.drawImage(QRect(kLabelWidth, top, count, LaneLayout::kSliceHeight - 1), m_lodStrip);

    // Long fully busy runs of one name are long slices: label them as slices are labelled.
    for (int col = 0; col < count;) {
        const SliceLod::Column &column = m_lodColumns[static_cast<std::size_t>(col)];
        int e = col + 1;
        if (column.work && densityShade(column.busy / npp) == 3)
            while (e < count && m_lodColumns[static_cast<std::size_t>(e)].name == column.name &&
                   m_lodColumns[static_cast<std::size_t>(e)].work &&
                   densityShade(m_lodColumns[static_cast<std::size_t>(e)].busy / npp) == 3)
                ++e;
        if (e - col >= kMinLabelWidth)
            drawSliceLabel(p, *c.geometry.model,
                           QRectF(kLabelWidth + col, top, e - col, LaneLayout::kSliceHeight - 1),
                           column.name);
        col = e;
    }
    return true;
}

} // namespace at
