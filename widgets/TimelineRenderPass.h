#pragma once

#include "MarkerList.h"
#include "TimelineColors.h"
#include "TimelineGeometry.h"

#include <QPalette>
#include <QSet>

#include <optional>
#include <vector>

class QPainter;

namespace at {

// What every render pass of one frame reads: the geometry, the colours and the view's state.
struct TimelinePaintContext
{
    TimelineGeometry geometry;
    const QPalette &palette;
    TimelineColors &colors; // mutable: it caches per name
    TimeNs timeOrigin = 0;  // the ruler counts from here
    const QSet<int> &collapsedProcesses;
    const QSet<int> &collapsedGroups;
    const QSet<int> &zeroCountersShown;
    SliceRef selected;
    SliceRef highlighted;
    std::optional<TimeRange> rangeSelection;
    const MarkerList *markers = nullptr;
    bool levelOfDetail = true;
    // The time under the mouse (over the lanes or the ruler), shown on the ruler.
    std::optional<TimeNs> cursorTime = std::nullopt;
    // Slices marked by Find or "show all occurrences", sorted by (thread, index).
    const std::vector<SliceRef> *highlights = nullptr;
    int currentLane = -1; // the keyboard's lane (a thread), marked in the label column
    // The lanes (threads) the range is restricted to, sorted; null or empty: every lane.
    const std::vector<int> *rangeThreads = nullptr;
};

// One layer of a timeline frame (after Qt Creator's TimelineRenderPass): the view paints its passes in
// order, each inside the clip it names, so a new overlay is a new pass rather than more paintEvent code.
class TimelineRenderPass
{
public:
    enum class Clip
    {
        Lanes,    // below the ruler, label column included
        TimeArea, // below the ruler, right of the label column
        Viewport  // everything (the ruler itself)
    };
    virtual ~TimelineRenderPass() = default;
    virtual Clip clip() const = 0;
    virtual void paint(QPainter &p, const TimelinePaintContext &context) = 0;
};

} // namespace at
