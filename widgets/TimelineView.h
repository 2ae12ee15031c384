#pragma once

#include "LaneLayout.h"
#include "MarkerList.h"
#include "TimelineColors.h"
#include "TimelineGeometry.h"
#include "TimelineRenderPass.h"
#include "TimelineSpan.h"
#include "TimelineState.h"
#include "TraceModel.h"
#include "ZoomController.h"

#include <QAbstractScrollArea>
#include <QElapsedTimer>
#include <QPoint>
#include <QScrollBar>
#include <QSet>

#include <memory>
#include <optional>
#include <vector>

class QMenu;

namespace at {

// The zoomable timeline: a ruler on top, one group per process (collapsible), thread tracks with
// nested slices stacked by depth, counter tracks as filled line charts. It asks the model only
// for what is visible; slices narrower than a pixel are merged per pixel column, so drawing cost
// follows pixels, not events. Navigation as in chrome://tracing (w/s/a/d).
// The view holds the state (model, zoom, lanes, selection) and input handling (TimelineViewInput.cpp);
// painting is a list of render passes (TimelineLanesPass, TimelineOverlayPasses, TimelineRulerPass)
// over a TimelinePaintContext, colours come from TimelineColors, geometry from TimelineGeometry.
class TimelineView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    static constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
    static constexpr int kRulerHeight = TimelineGeometry::kRulerHeight;

    explicit TimelineView(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    const TraceModel *model() const { return m_model; }
    ZoomController *zoom() { return &m_zoom; }
    TimeAxis axis() const;
    const LaneLayout &layout() const { return m_layout; }

    // The selection, the visible range, the range selection and its lanes, the rank offsets and the
    // highlights: written by the view, observed by the panels (the window connects them to it).
    TimelineState *state() { return &m_state; }
    const TimelineState *state() const { return &m_state; }

    SliceRef selectedSlice() const { return m_state.selection(); }
    // Keyboard lane navigation (TimelineLaneNavigation.cpp). The current lane is a thread's slice
    // track: the selected slice's, or the one ↑/↓ moved to (-1: none yet).
    int currentLane() const { return m_currentLane; }
    // ↑/↓: the previous/next lane in view order; selects its top-level slice at the selected slice's
    // start (else the view's centre), or the nearest one. false at the first/last lane.
    bool selectAdjacentLane(int direction);
    // ./,: the next/previous slice of the selected slice's depth on the current lane (without a
    // selection on it: the first after / last before the view's centre). false when there is none.
    bool selectAdjacentSlice(int direction);
    // n / Shift+N: the next/previous slice with the selected slice's name on any lane, in start order,
    // wrapping around. false without a selection or when it is the only one.
    bool selectOccurrence(int direction);
    std::optional<TimeRange> selectedRange() const { return m_state.rangeSelection(); }
    // The lanes (thread indices) the range is restricted to; empty = every lane. Ctrl+drag selects the
    // lanes it crosses, the lane context menu adds or removes one.
    const std::vector<int> &rangeThreads() const { return m_state.rangeLanes(); }
    // Restricts the current range to threads (empty = all) and announces it again (rangeSelected).
    void setRangeThreads(std::vector<int> threads);
    bool isCollapsed(int process) const { return m_collapsed.contains(process); }
    void setCollapsed(int process, bool collapsed);
    // Colour device kernels by an AI Core metric / duration percentile (with a legend) or by name.
    MetricColoring &coloring() { return m_colors.coloring(); }
    void refreshColors() { viewport()->update(); }
    QColor sliceColor(SliceRef ref);

    // Ruler labels count from this time (e.g. a step's start) instead of the model origin.
    void setTimeOrigin(TimeNs origin);
    TimeNs timeOrigin() const { return m_timeOrigin; }
    // Colours that win over the metric and name colours (e.g. the compare view's duration change).
    using ColorOverride = TimelineColors::Override;
    void setColorOverride(ColorOverride colorOverride);
    // A slice drawn with a dashed outline (the partner of the selected kernel in a compare view).
    void setHighlightedSlice(SliceRef ref);
    SliceRef highlightedSlice() const { return m_highlighted; }
    // Slices marked with an amber outline wherever they are in view: Find's matches, or every
    // occurrence of a name (an Insights panel's "show all occurrences"). Replaces earlier highlights.
    void setHighlightedSlices(std::vector<SliceRef> slices);
    void clearHighlights();
    // Sorted by thread, then index.
    const std::vector<SliceRef> &highlightedSlices() const { return m_state.highlights(); }
    // How many highlight outlines the last paint drew (one per pixel column of a lane at most).
    int lastHighlightsDrawn() const;
    // A span marked over some lanes (a memory allocation's lifetime, SpanPass); cleared by Esc, by
    // another slice selection and by a new model. nullopt clears it.
    void setHighlightedSpan(std::optional<TimelineSpan> span);
    const std::optional<TimelineSpan> &highlightedSpan() const { return m_span; }
    // Markers to draw (ranges as bands, flags as lines); the list is owned by the window.
    void setMarkers(const MarkerList *markers);
    // Slice name → colour rules (first match wins), above the name colours.
    void setColorRules(const std::vector<ColorRule> &rules);
    const std::vector<ColorRule> &colorRules() const { return m_colors.rules(); }
    // Time under the mouse when it is over the lanes.
    std::optional<TimeNs> mouseTime() const;
    // Time under the mouse over the lanes or the ruler (the ruler labels it), else nullopt.
    std::optional<TimeNs> cursorTime() const;
    // The hover tooltip at a viewport position (TimelineToolTip): a slice's name, start, duration,
    // self time and first arguments, or a counter's value; empty elsewhere. area: where it holds.
    QString toolTipAt(QPoint viewportPos, QRect *area = nullptr) const;
    // Scrolls the lanes (not the time) so that the slice's track is visible.
    void revealSliceRow(SliceRef ref);
    // Centres the time span [start, end] (already in view coordinates): the view widens to fit it
    // when it is wider, and zooms in until it is kRevealMinPixels wide when it would be thinner, so
    // that a found slice is a visible bar instead of a sub-pixel line. Otherwise the zoom stays.
    void revealSpan(TimeNs start, TimeNs end);
    static constexpr int kRevealMinPixels = 8;

    // Lanes: hide processes and threads, pin processes to the top (View ▸ context menu on a header).
    const LaneVisibility &laneVisibility() const { return m_visibility; }
    void setLaneVisibility(LaneVisibility visibility);
    void setProcessHidden(int process, bool hidden);
    void setThreadHidden(int thread, bool hidden);
    void setProcessPinned(int process, bool pinned);
    // Lists a process's all-zero counter series instead of the one row that stands for them.
    void setZeroCountersShown(int process, bool shown);
    // Moves a process before (or after) another of the same rank group: dragging a header up drops it
    // before the process under the mouse, dragging it down after.
    bool moveProcess(int process, int target, bool after = false);

    // Across ranks (TimelineTracks.cpp): the processes of the same name and layer in every rank.
    std::vector<int> processesLike(int process) const;
    void setPinnedOnEveryRank(int process, bool pinned);
    // Collapses (expands) every process of a layer, in every rank.
    void setLayerCollapsed(Layer layer, bool collapsed);
    // What a new model starts with collapsed (docs/USER_GUIDE.md, "Deep host stacks start collapsed"):
    // every rank's Python stack when several ranks are shown; a host process (Python, CANN API) with a
    // thread more than kDeepStackLevels deep, so the device lanes open in sight; and, for one rank in a
    // view whose lanes are lanesHeight px high (0: not known), more host processes, the tallest first,
    // until its first device lane and its first communication lane are in sight (or, when both cannot be,
    // its first device lane). Until the user opens or closes a process, a resize fits it again.
    static QSet<int> initiallyCollapsed(const TraceModel &model, int lanesHeight = 0);
    static constexpr int kDeepStackLevels = 8;

    // Per-rank time offsets (TimelineRankOffsets.cpp, docs/CLUSTER.md): group g's slices are drawn, hit and
    // framed at model time + groupOffsets()[g]; the ruler, markers and the range are the reference clock.
    // The model's times are not changed. Empty after setModel; one entry per group once set.
    const std::vector<TimeNs> &groupOffsets() const { return m_state.groupOffsets(); }
    TimeNs groupOffset(int group) const { return m_state.groupOffset(group); }
    void setGroupOffsets(std::vector<TimeNs> offsets);
    // "Align Ranks on This Collective": offsets that make the same op instance as ref end together on
    // every rank that has it (core/cluster/RankAlignment.h); returns the groups aligned.
    std::vector<int> alignRanksOn(SliceRef ref);
    // Whether ref is an op on a communication lane of a timeline with several ranks (the menu offers it).
    bool canAlignOn(SliceRef ref) const;

    bool isGroupCollapsed(int group) const { return m_collapsedGroups.contains(group); }
    void setGroupCollapsed(int group, bool collapsed);

    // Level of detail (core/SliceLod): where a depth has many slices per pixel column it is drawn
    // from per-column summaries (coverage shaded by density) instead of slice by slice. On by
    // default; off draws every slice (tests and benchmarks compare the two).
    void setLevelOfDetail(bool enabled);
    bool levelOfDetail() const { return m_lodEnabled; }
    // How many lane depths the last paint drew from summaries / slice by slice.
    int lastLodDepths() const;
    int lastExactDepths() const;

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
    // A held w/s zooms at kHeldZoomStartPerSecond, accelerating evenly (in log scale) to
    // kHeldZoomMaxPerSecond over the first second held, and never faster: ~4x in the first second,
    // 10x in each second after that. Pan does not accelerate (~3 view widths a second).
    static constexpr double kHeldZoomStartPerSecond = 2;
    static constexpr double kHeldZoomMaxPerSecond = 10;

Q_SIGNALS:
    // The state()'s announcements, repeated by the view.
    void selectionChanged(at::SliceRef ref);
    void rangeSelected(at::TimeRange range);
    // The range selection was removed (Esc): what shows statistics of it is stale now.
    void rangeCleared();
    void hovered(at::SliceRef ref);
    void groupOffsetsChanged();
    // The lane menu is about to open on a rank's lanes (group >= 0): the window adds its rank actions
    // (Close Rank, Rank Offsets…) to menu before it is shown.
    void laneMenuRequested(QMenu *menu, int group);
    // The context menu opens on a slice: the window adds its slice actions (Query Slices Named Like This).
    void sliceMenuRequested(QMenu *menu, at::SliceRef slice);

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
    bool viewportEvent(QEvent *event) override;

private:
    void relayout();
    void updateScrollBars();
    // Until the user opens or closes a process, each new size collapses what initiallyCollapsed() would
    // for it (only more, never less): the view gets its real height after the load (the start page, the
    // message bar).
    void keepDeviceLanesInSight();
    TimeNs zoomAnchor() const;
    TimelineGeometry timelineGeometry() const;
    int contentY(int viewportY) const { return timelineGeometry().contentY(viewportY); }
    int rowAtViewportY(int viewportY) const { return timelineGeometry().rowAtViewportY(viewportY); }
    void updateRuler() { viewport()->update(0, 0, viewport()->width(), kRulerHeight); }
    void ensureRowVisible(int row);
    // Selects ref; the view moves only when the slice is not in it already.
    void selectAndReveal(SliceRef ref);
    // The top-level slice of a thread at time t, else the one nearest to t.
    SliceRef laneSliceNear(int thread, TimeNs t) const;
    double keySteps(HeldMotion motion);
    void moveBySteps(HeldMotion motion, double steps);

    const TraceModel *m_model = nullptr;
    ZoomController m_zoom;
    LaneLayout m_layout;
    QSet<int> m_collapsed;
    bool m_keepDeviceLanesInSight = false; // until the user opens or closes a process
    QSet<int> m_collapsedGroups;
    LaneVisibility m_visibility;
    TimelineColors m_colors;
    TimelineState m_state;
    int m_currentLane = -1; // thread index
    SliceRef m_highlighted;
    SliceRef m_hovered;
    TimeNs m_timeOrigin = 0;
    const MarkerList *m_markers = nullptr;
    std::optional<TimelineSpan> m_span;
    bool m_lodEnabled = true;
    std::vector<std::unique_ptr<TimelineRenderPass>> m_passes; // painted in order
    class TimelineLanesPass *m_lanesPass = nullptr;            // the first of them
    class HighlightsPass *m_highlightsPass = nullptr;

    // Mouse state (TimelineViewInput.cpp).
    enum class DragMode
    {
        None,
        Pending, // left button down, not moved far enough yet
        Range,
        Pan,
        LaneMove // dragging a process header up or down
    };
    struct Drag
    {
        DragMode mode = DragMode::None;
        QPoint pressPos;
        TimeNs pressTime = 0;
        TimeRange pressRange;
        int pressScroll = 0;
        bool chooseLanes = false; // Ctrl held: the range covers only the lanes the drag crosses
    };
    Drag m_drag;
    std::vector<int> threadsBetweenRows(int fromY, int toY) const;
    void addRangeLaneActions(QMenu &menu, int thread);
    QPoint m_mousePos;
    bool m_mouseInside = false;
    QElapsedTimer m_keyClock; // time since the w/s/a/d press, so auto-repeat follows the clock
    double m_heldSeconds = 0; // how far into the hold the last step went
    std::optional<HeldMotion> m_heldMotion;
};

} // namespace at
