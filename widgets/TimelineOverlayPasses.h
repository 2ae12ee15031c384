#pragma once

#include "TimelineRenderPass.h"

namespace at {

// The overlays drawn over the lanes, right of the label column, in this order.

// Markers: ranges as bands between dashed lines, flags as lines, each with its name tag.
class MarkersPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// The selected slice's outline, and the dashed outline of the highlighted one (a compare view's partner).
class SelectionPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// Flow arrows into and out of the selected slice.
class FlowsPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

// The dragged time range: a shaded band with its duration on top.
class RangeSelectionPass : public TimelineRenderPass
{
public:
    Clip clip() const override { return Clip::TimeArea; }
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
