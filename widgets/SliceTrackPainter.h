#pragma once

#include "TimelineRenderPass.h"

#include <QImage>

#include <cstdint>
#include <vector>

namespace at {

// Draws one thread row: its label and every visible depth, from level-of-detail summaries where a
// depth has many slices per pixel column (core/SliceLod), else slice by slice with narrow slices merged
// per column. Keeps the strips it blits between frames, and counts what the last frame drew.
class SliceTrackPainter
{
public:
    void paint(QPainter &p, const TimelinePaintContext &c, const LaneRow &row, int y, const QRect &clip);
    void resetCounts() { m_lodDepths = m_exactDepths = 0; }
    int lodDepths() const { return m_lodDepths; }
    int exactDepths() const { return m_exactDepths; }

private:
    bool paintDepthLod(QPainter &p, const TimelinePaintContext &c, int thread, int depth, int top);
    void paintDepthExact(QPainter &p, const TimelinePaintContext &c, int thread, int depth, int top);

    int m_lodDepths = 0;
    int m_exactDepths = 0;
    std::vector<SliceLod::Column> m_lodColumns; // reused by every lane of a paint
    QImage m_lodStrip;                          // one row of LOD columns, stretched over a band
    QImage m_exactStrip;                        // one row of merged narrow slices (transparent gaps)
    std::vector<std::uint32_t> m_wideSlices;    // slices of a depth drawn after the strip
};

// A slice's (or a run of summary columns') name inside its rectangle, elided to fit.
void drawSliceLabel(QPainter &p, const TraceModel &model, const QRectF &rect, StringId name);

} // namespace at
