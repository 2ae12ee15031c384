#pragma once

#include "LaneLayout.h"
#include "MarkerList.h"
#include "MetricColoring.h"
#include "SliceColors.h"
#include "TimeAxis.h"
#include "TraceModel.h"
#include "ZoomController.h"

#include <QAbstractScrollArea>
#include <QElapsedTimer>
#include <QHash>
#include <QImage>
#include <QPoint>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>

#include <functional>
#include <optional>

namespace at {

// The zoomable timeline: a ruler on top, one group per process (collapsible), thread tracks with
// nested slices stacked by depth, counter tracks as filled line charts. It asks the model only
// for what is visible; slices narrower than a pixel are merged per pixel column, so drawing cost
// follows pixels, not events. Navigation as in chrome://tracing (w/s/a/d).
class TimelineView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    static constexpr int kLabelWidth = 220;
    static constexpr int kRulerHeight = 24;

    explicit TimelineView(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    const TraceModel *model() const { return m_model; }
    ZoomController *zoom() { return &m_zoom; }
    TimeAxis axis() const;
    const LaneLayout &layout() const { return m_layout; }

    SliceRef selectedSlice() const { return m_selected; }
    std::optional<TimeRange> selectedRange() const { return m_rangeSelection; }
    bool isCollapsed(int process) const { return m_collapsed.contains(process); }
    void setCollapsed(int process, bool collapsed);
    // Colour device kernels by an AI Core metric / duration percentile (with a legend) or by name.
    MetricColoring &coloring() { return m_coloring; }
    void refreshColors() { viewport()->update(); }
    QColor sliceColor(SliceRef ref);

    // Ruler labels count from this time (e.g. a step's start) instead of the model origin.
    void setTimeOrigin(TimeNs origin);
    TimeNs timeOrigin() const { return m_timeOrigin; }
    // Colours that win over the metric and name colours (e.g. the compare view's duration change).
    using ColorOverride = std::function<std::optional<QColor>(SliceRef)>;
    void setColorOverride(ColorOverride colorOverride);
    // A slice drawn with a dashed outline (the partner of the selected kernel in a compare view).
    void setHighlightedSlice(SliceRef ref);
    SliceRef highlightedSlice() const { return m_highlighted; }
    // Markers to draw (ranges as bands, flags as lines); the list is owned by the window.
    void setMarkers(const MarkerList *markers);
    // Slice name → colour rules (first match wins), above the name colours.
    void setColorRules(const std::vector<ColorRule> &rules);
    const std::vector<ColorRule> &colorRules() const { return m_colorRules; }
    // Time under the mouse when it is over the lanes.
    std::optional<TimeNs> mouseTime() const;
    // Scrolls the lanes (not the time) so that the slice's track is visible.
    void revealSliceRow(SliceRef ref);

    // Lanes: hide processes and threads, pin processes to the top (View ▸ context menu on a header).
    const LaneVisibility &laneVisibility() const { return m_visibility; }
    void setLaneVisibility(LaneVisibility visibility);
    void setProcessHidden(int process, bool hidden);
    void setThreadHidden(int thread, bool hidden);
    void setProcessPinned(int process, bool pinned);
    // Moves a process before (or after) another of the same rank group: dragging a header up drops it
    // before the process under the mouse, dragging it down after.
    bool moveProcess(int process, int target, bool after = false);

    bool isGroupCollapsed(int group) const { return m_collapsedGroups.contains(group); }
    void setGroupCollapsed(int group, bool collapsed);

    // Level of detail (core/SliceLod): where a depth has many slices per pixel column it is drawn
    // from per-column summaries (coverage shaded by density) instead of slice by slice. On by
    // default; off draws every slice (tests and benchmarks compare the two).
    void setLevelOfDetail(bool enabled);
    bool levelOfDetail() const { return m_lodEnabled; }
    // How many lane depths the last paint drew from summaries / slice by slice.
    int lastLodDepths() const { return m_lodDepths; }
    int lastExactDepths() const { return m_exactDepths; }

    // Geometry helpers (viewport coordinates), used by tests and overlays.
    QRectF sliceRect(SliceRef ref) const;
    SliceRef sliceAt(QPoint viewportPos) const;
    int timelineLeft() const { return kLabelWidth; }

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void panLeft();
    void panRight();
    void showAll();
    void fitSelection();
    void undoZoom();
    void selectSlice(at::SliceRef ref, bool center);
    void clearRangeSelection();

public:
    // Held navigation (the keys are bound in TimelineKeyboard.h): startHeld moves one step, each
    // continueHeld by the time since the last step (capped after a stall), stopHeld ends the hold.
    enum class HeldMotion
    {
        ZoomIn,
        ZoomOut,
        PanLeft,
        PanRight
    };
    void startHeld(HeldMotion motion);
    void continueHeld(HeldMotion motion);
    void stopHeld();

Q_SIGNALS:
    void selectionChanged(at::SliceRef ref);
    void rangeSelected(at::TimeRange range);
    void hovered(at::SliceRef ref);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void keyReleaseEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void enterEvent(QEnterEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void relayout();
    void updateScrollBars();
    TimeNs zoomAnchor() const;
    int contentY(int viewportY) const { return viewportY - kRulerHeight + verticalScrollBar()->value(); }
    int viewportY(int contentY) const { return contentY + kRulerHeight - verticalScrollBar()->value(); }
    void ensureRowVisible(int row);

    void paintRuler(QPainter &p, const TimeAxis &axis);
    void paintHeader(QPainter &p, const LaneRow &row, int y);
    void paintGroupHeader(QPainter &p, const LaneRow &row, int y);
    void paintThread(QPainter &p, const TimeAxis &axis, const LaneRow &row, int y, const QRect &clip);
    bool paintDepthLod(QPainter &p, const TimeAxis &axis, int thread, int depth, int top);
    void drawSliceLabel(QPainter &p, const QRectF &rect, StringId name) const;
    void paintCounter(QPainter &p, const TimeAxis &axis, const LaneRow &row, int y);
    std::optional<QColor> ruleColor(StringId name);
    QColor nameColor(StringId name);     // colour rules, then the name's colour
    QColor darkNameColor(StringId name); // nameColor().darker(115), cached
    QColor mergedColor(SliceRef ref);    // colour of a column of merged narrow slices
    double keySteps();
    void moveBySteps(HeldMotion motion, double steps);
    void paintFlows(QPainter &p, const TimeAxis &axis);
    void paintSelection(QPainter &p, const TimeAxis &axis);
    void paintRangeSelection(QPainter &p, const TimeAxis &axis);
    void paintLegend(QPainter &p);
    void paintHighlight(QPainter &p);
    void paintMarkers(QPainter &p, const TimeAxis &axis);
    QPointF flowEndpoint(SliceRef ref, TimeNs t, const TimeAxis &axis) const;

    const TraceModel *m_model = nullptr;
    ZoomController m_zoom;
    LaneLayout m_layout;
    QSet<int> m_collapsed;
    QSet<int> m_collapsedGroups;
    LaneVisibility m_visibility;
    SliceColors m_colors;
    MetricColoring m_coloring;
    SliceRef m_selected;
    SliceRef m_highlighted;
    SliceRef m_hovered;
    TimeNs m_timeOrigin = 0;
    ColorOverride m_colorOverride;
    const MarkerList *m_markers = nullptr;
    std::vector<ColorRule> m_colorRules;
    std::vector<QRegularExpression> m_colorRulePatterns;
    QHash<StringId, std::optional<QColor>> m_ruleColorByName; // cache: names are interned
    std::optional<TimeRange> m_rangeSelection;

    enum class DragMode
    {
        None,
        Pending, // left button down, not moved far enough yet
        Range,
        Pan,
        LaneMove // dragging a process header up or down
    };
    DragMode m_drag = DragMode::None;
    QPoint m_pressPos;
    TimeNs m_pressTime = 0;
    TimeRange m_pressRange;
    int m_pressScroll = 0;
    QPoint m_mousePos;
    bool m_mouseInside = false;
    bool m_lodEnabled = true;
    int m_lodDepths = 0;
    int m_exactDepths = 0;
    std::vector<SliceLod::Column> m_lodColumns; // reused by every lane of a paint
    std::vector<QRgb> m_darkNameColor;          // by name id; 0: not computed yet
    QImage m_lodStrip;                          // one row of LOD columns, stretched over a band
    QImage m_exactStrip;                        // one row of merged narrow slices (transparent gaps)
    std::vector<std::uint32_t> m_wideSlices;    // slices of a depth drawn after the strip
    QElapsedTimer m_keyClock; // time since the last w/s/a/d step, so auto-repeat follows the clock
    std::optional<HeldMotion> m_heldMotion;
};

} // namespace at
