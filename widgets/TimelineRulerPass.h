#pragma once

#include "TimelineRenderPass.h"

#include <QCoreApplication>

namespace at {

// The ruler on top: the visible span in the label column, ticks on multiples of a 1/2/5 step counted
// from the view's time origin, four minor ticks between labelled ones.
class TimelineRulerPass : public TimelineRenderPass
{
    Q_DECLARE_TR_FUNCTIONS(at::TimelineView)
public:
    Clip clip() const override { return Clip::Viewport; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
};

} // namespace at
