#pragma once

#include "TimelineRenderPass.h"
#include "TimelineSpan.h"

namespace at {

// The overlays drawn over the lanes, right of the label column, in this order.

// Markers: ranges as bands between dashed lines, flags as lines, each with its name tag.
class MarkersPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// The marked span (TimelineView::setHighlightedSpan): a translucent band between two lines across the
// rows of its processes and threads, its label at the top of the first band in view.
class SpanPass : public TimelineRenderPass
{
public:
    explicit SpanPass(const std::optional<TimelineSpan> *span) : m_span(span) {}
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
    // The bands (viewport coordinates) the last frame drew, top to bottom.
    const std::vector<QRectF> &lastBands() const { return m_bands; }

private:
    const std::optional<TimelineSpan> *m_span;
    std::vector<QRectF> m_bands;
};

// Every highlighted slice (Find's matches, all occurrences of a name): an amber outline at least a few
// pixels wide, so that even a slice narrower than a pixel shows where it is. Of several highlights in
// one pixel column of a lane only the first is drawn, so the cost follows pixels, not matches.
class HighlightsPass : public TimelineRenderPass
{
public:
    static QColor color() { return QColor(255, 160, 0); }
    static constexpr double kMinWidth = 4;
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
    // How many outlines the last frame drew.
    int lastDrawn() const { return m_drawn; }

private:
    int m_drawn = 0;
};

// The selected slice's outline, and the dashed outline of the highlighted one (a compare view's partner).
class SelectionPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// The keyboard's current lane: a bar in the highlight colour along its label.
class CurrentLanePass : public TimelineRenderPass
{
public:
    static constexpr int kBarWidth = 4;
    Clip clip() const override { return Clip::Lanes; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// Flow arrows into and out of the selected slice.
class FlowsPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// The dragged time range: a shaded band between two lines (its duration is on the ruler). A range on
// chosen lanes (Ctrl+drag, the lane menu) shades only those lanes, more strongly, and marks their labels
// with an accent bar at the label column's right edge, so the choice reads at a glance.
class RangeSelectionPass : public TimelineRenderPass
{
public:
    static constexpr int kAccentWidth = 4;
    static constexpr int kBandAlpha = 50;       // the range on every lane
    static constexpr int kChosenLaneAlpha = 90; // the range on a chosen lane
    Clip clip() const override { return Clip::Lanes; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// The metric colouring's legend (a viridis bar with its minimum and maximum) in the top right corner.
class LegendPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

} // namespace at
