#include "TimelineView.h"

#include "TimelineKeyboard.h"
#include "TimelineLanesPass.h"
#include "TimelineOverlayPasses.h"
#include "TimelineRulerPass.h"
#include "TimelineToolTip.h"

#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace at {

TimelineView::TimelineView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(LaneLayout::kSliceHeight * 2);
    setMinimumSize(400, 200);
    connect(&m_zoom, &ZoomController::rangeChanged, this, [this](TimeRange range) {
        m_state.setVisibleRange(range);
        viewport()->update();
    });
    connect(&m_state, &TimelineState::selectionChanged, this, &TimelineView::selectionChanged);
    connect(&m_state, &TimelineState::rangeSelected, this, &TimelineView::rangeSelected);
    connect(&m_state, &TimelineState::rangeCleared, this, &TimelineView::rangeCleared);
    connect(&m_state, &TimelineState::groupOffsetsChanged, this, &TimelineView::groupOffsetsChanged);
    connect(&m_state, &TimelineState::highlightsChanged, this, [this] { viewport()->update(); });
    auto lanes = std::make_unique<TimelineLanesPass>();
    m_lanesPass = lanes.get();
    m_passes.push_back(std::move(lanes));
    m_passes.push_back(std::make_unique<MarkersPass>());
    m_passes.push_back(std::make_unique<SpanPass>(&m_span));
    auto highlights = std::make_unique<HighlightsPass>();
    m_highlightsPass = highlights.get();
    m_passes.push_back(std::move(highlights));
    m_passes.push_back(std::make_unique<SelectionPass>());
    m_passes.push_back(std::make_unique<CurrentLanePass>());
    m_passes.push_back(std::make_unique<FlowsPass>());
    m_passes.push_back(std::make_unique<RangeSelectionPass>());
    m_passes.push_back(std::make_unique<LegendPass>());
    m_passes.push_back(std::make_unique<TimelineRulerPass>());
}

void TimelineView::setModel(const TraceModel *model)
{
    m_model = model;
    m_collapsed = model ? initiallyCollapsed(*model) : QSet<int>{};
    m_keepDeviceLanesInSight = true;
    m_collapsedGroups.clear();
    m_visibility = {};
    m_colors.setModel(model);
    m_state.reset();
    m_currentLane = -1;
    m_highlighted = {};
    m_hovered = {};
    m_span.reset();
    if (model)
        m_zoom.setDataRange({model->dataBegin(), model->dataEnd()});
    {
        const QSignalBlocker quiet(verticalScrollBar()); // a new model is no scroll of the user's
        verticalScrollBar()->setValue(0);
    }
    relayout();
    keepDeviceLanesInSight(); // with the height the view has now; resizeEvent with the next ones
    viewport()->update();
}

void TimelineView::setTimeOrigin(TimeNs origin)
{
    m_timeOrigin = origin;
    viewport()->update();
}

void TimelineView::setColorOverride(ColorOverride colorOverride)
{
    m_colors.setOverride(std::move(colorOverride));
    viewport()->update();
}

void TimelineView::setHighlightedSlice(SliceRef ref)
{
    if (ref == m_highlighted)
        return;
    m_highlighted = ref;
    viewport()->update();
}

void TimelineView::setHighlightedSlices(std::vector<SliceRef> slices)
{
    m_state.setHighlights(std::move(slices));
}

void TimelineView::clearHighlights()
{
    m_state.setHighlights({});
}

int TimelineView::lastHighlightsDrawn() const
{
    return m_highlightsPass->lastDrawn();
}

void TimelineView::setMarkers(const MarkerList *markers)
{
    if (m_markers)
        disconnect(m_markers, nullptr, this, nullptr);
    m_markers = markers;
    if (m_markers)
        connect(m_markers, &MarkerList::changed, this, [this] { viewport()->update(); });
    viewport()->update();
}

void TimelineView::setColorRules(const std::vector<ColorRule> &rules)
{
    m_colors.setRules(rules);
    viewport()->update();
}

std::optional<TimeNs> TimelineView::mouseTime() const
{
    if (!m_mouseInside || m_mousePos.x() < kLabelWidth || m_mousePos.y() < kRulerHeight)
        return std::nullopt;
    return axis().toTime(m_mousePos.x() - kLabelWidth);
}

std::optional<TimeNs> TimelineView::cursorTime() const
{
    if (!m_mouseInside || m_drag.mode == DragMode::Pan || m_mousePos.x() < kLabelWidth ||
        !viewport()->rect().contains(m_mousePos))
        return std::nullopt;
    return axis().toTime(m_mousePos.x() - kLabelWidth);
}

QString TimelineView::toolTipAt(QPoint viewportPos, QRect *area) const
{
    return TimelineToolTip::text(timelineGeometry(), viewportPos, m_timeOrigin, area);
}

void TimelineView::setLaneVisibility(LaneVisibility visibility)
{
    m_visibility = std::move(visibility);
    relayout();
    viewport()->update();
}

namespace {
void setMember(QSet<int> &set, int value, bool member)
{
    if (member)
        set.insert(value);
    else
        set.remove(value);
}
} // namespace

void TimelineView::setProcessHidden(int process, bool hidden)
{
    LaneVisibility v = m_visibility;
    setMember(v.hiddenProcesses, process, hidden);
    setLaneVisibility(std::move(v));
}

void TimelineView::setThreadHidden(int thread, bool hidden)
{
    LaneVisibility v = m_visibility;
    setMember(v.hiddenThreads, thread, hidden);
    setLaneVisibility(std::move(v));
}

void TimelineView::setZeroCountersShown(int process, bool shown)
{
    LaneVisibility v = m_visibility;
    setMember(v.zeroCountersShown, process, shown);
    setLaneVisibility(std::move(v));
}

void TimelineView::setProcessPinned(int process, bool pinned)
{
    LaneVisibility v = m_visibility;
    std::erase(v.pinnedProcesses, process);
    if (pinned)
        v.pinnedProcesses.push_back(process);
    setLaneVisibility(std::move(v));
}

bool TimelineView::moveProcess(int process, int target, bool after)
{
    if (!m_model || process == target || process < 0 || target < 0 ||
        static_cast<std::size_t>(std::max(process, target)) >= m_model->processes().size() ||
        m_model->processes()[static_cast<std::size_t>(process)].group !=
            m_model->processes()[static_cast<std::size_t>(target)].group)
        return false;
    LaneVisibility v = m_visibility;
    if (v.processOrder.empty())
        v.processOrder = m_model->processOrder();
    std::erase(v.processOrder, process);
    auto at = std::find(v.processOrder.begin(), v.processOrder.end(), target);
    if (after && at != v.processOrder.end())
        ++at;
    v.processOrder.insert(at, process);
    setLaneVisibility(std::move(v));
    return true;
}

void TimelineView::revealSliceRow(SliceRef ref)
{
    if (m_model && ref.isValid() && static_cast<std::size_t>(ref.thread) < m_model->threads().size())
        ensureRowVisible(m_layout.rowOfThread(ref.thread));
}

void TimelineView::revealSpan(TimeNs start, TimeNs end)
{
    const TimeRange r = m_zoom.range();
    if (end - start > r.width()) {
        m_zoom.fit({start, end});
        return;
    }
    // The width at which [start, end] covers kRevealMinPixels of the lanes, if that is narrower.
    const double pixels = std::max(1, viewport()->width() - kLabelWidth);
    const double needed = static_cast<double>(std::max<TimeNs>(end - start, 1)) * pixels / kRevealMinPixels;
    const TimeNs width = std::min(r.width(), static_cast<TimeNs>(std::floor(needed)));
    const TimeNs mid = start + (end - start) / 2;
    m_zoom.setRange({mid - width / 2, mid - width / 2 + width}, true);
}

TimeAxis TimelineView::axis() const
{
    return TimeAxis(m_zoom.range(), std::max(1, viewport()->width() - kLabelWidth));
}

TimelineGeometry TimelineView::timelineGeometry() const
{
    return {m_model,
            &m_layout,
            axis(),
            verticalScrollBar()->value(),
            viewport()->width(),
            viewport()->height(),
            &m_state.groupOffsets()};
}

void TimelineView::setCollapsed(int process, bool collapsed)
{
    m_keepDeviceLanesInSight = false; // the user's choice from now on
    if (collapsed)
        m_collapsed.insert(process);
    else
        m_collapsed.remove(process);
    relayout();
    viewport()->update();
}

void TimelineView::setGroupCollapsed(int group, bool collapsed)
{
    if (collapsed)
        m_collapsedGroups.insert(group);
    else
        m_collapsedGroups.remove(group);
    relayout();
    viewport()->update();
}

void TimelineView::relayout()
{
    m_layout.rebuild(m_model, m_collapsed, m_collapsedGroups, m_visibility);
    updateScrollBars();
}

void TimelineView::updateScrollBars()
{
    const int visible = std::max(0, viewport()->height() - kRulerHeight);
    verticalScrollBar()->setPageStep(visible);
    verticalScrollBar()->setRange(0, std::max(0, m_layout.totalHeight() - visible));
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    keepDeviceLanesInSight();
    updateScrollBars();
}

void TimelineView::scrollContentsBy(int, int)
{
    // Any scroll but the fit's own (keepDeviceLanesInSight, made with the scroll bar's signals blocked) is
    // the user's: the lanes stay as they are from now on.
    m_keepDeviceLanesInSight = false;
    viewport()->update();
}

// --- navigation ------------------------------------------------------------------------------

TimeNs TimelineView::zoomAnchor() const
{
    const TimeAxis a = axis();
    if (m_mouseInside && m_mousePos.x() >= kLabelWidth && viewport()->rect().contains(m_mousePos))
        return a.toTime(m_mousePos.x() - kLabelWidth);
    return a.range().center();
}

void TimelineView::zoomIn()
{
    m_zoom.zoomIn(zoomAnchor());
}

void TimelineView::zoomOut()
{
    m_zoom.zoomOut(zoomAnchor());
}

void TimelineView::panLeft()
{
    m_zoom.pan(-ZoomController::kPanFraction);
}

void TimelineView::panRight()
{
    m_zoom.pan(ZoomController::kPanFraction);
}

void TimelineView::showAll()
{
    // Ranks aligned with offsets are drawn beyond the model's data span by up to their offsets: all of them.
    const std::vector<TimeNs> &offsets = m_state.groupOffsets();
    const auto [low, high] = std::minmax_element(offsets.begin(), offsets.end());
    if (!m_model || low == offsets.end() || (*low == 0 && *high == 0)) {
        m_zoom.showAll();
        return;
    }
    m_zoom.setRange(
        {m_model->dataBegin() + std::min<TimeNs>(0, *low), m_model->dataEnd() + std::max<TimeNs>(0, *high)},
        true);
}

void TimelineView::fitSelection()
{
    const SliceRef selected = m_state.selection();
    if (selected.isValid() && m_model) {
        const SliceTable &t = m_model->threads()[static_cast<std::size_t>(selected.thread)].slices;
        const TimeNs offset = groupOffset(timelineGeometry().groupOfThread(selected.thread));
        m_zoom.fit({t.start(selected.index) + offset, t.end(selected.index) + offset});
    } else if (const auto &range = m_state.rangeSelection()) {
        m_zoom.fit(*range);
    }
}

void TimelineView::undoZoom()
{
    m_zoom.undo();
}

void TimelineView::selectSlice(SliceRef ref, bool center)
{
    if (!m_model || (ref.isValid() && static_cast<std::size_t>(ref.thread) >= m_model->threads().size()))
        return;
    m_span.reset(); // it belonged to the previous selection
    if (ref.isValid()) {
        m_currentLane = ref.thread;
        const ThreadInfo &thread = m_model->threads()[static_cast<std::size_t>(ref.thread)];
        if (m_collapsed.contains(thread.process))
            setCollapsed(thread.process, false);
        const int group = m_model->processes()[static_cast<std::size_t>(thread.process)].group;
        if (m_collapsedGroups.contains(group))
            setGroupCollapsed(group, false);
        if (center) {
            const SliceTable &t = thread.slices;
            const TimeNs offset = groupOffset(timelineGeometry().groupOfThread(ref.thread));
            revealSpan(t.start(ref.index) + offset, t.end(ref.index) + offset);
            ensureRowVisible(m_layout.rowOfThread(ref.thread));
        }
    }
    viewport()->update();
    m_state.setSelection(ref);
}

void TimelineView::setHighlightedSpan(std::optional<TimelineSpan> span)
{
    m_span = std::move(span);
    viewport()->update();
}

void TimelineView::clearRangeSelection()
{
    m_span.reset(); // Esc clears what is marked: the range and the span
    viewport()->update();
    m_state.clearRange();
}

void TimelineView::setRangeThreads(std::vector<int> threads)
{
    viewport()->update();
    m_state.setRangeLanes(std::move(threads));
}

void TimelineView::ensureRowVisible(int row)
{
    if (row < 0)
        return;
    const LaneRow &r = m_layout.rows()[static_cast<std::size_t>(row)];
    const int visible = viewport()->height() - kRulerHeight;
    const int top = verticalScrollBar()->value();
    if (r.y < top || r.y + std::min(r.height, visible) > top + visible)
        verticalScrollBar()->setValue(std::max(0, r.y - visible / 3));
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    // The keys come from the command registry (Commands.h); a window binds them for all its panels.
    if (handleNavigationKey(this, event, true))
        event->accept();
    else
        QAbstractScrollArea::keyPressEvent(event);
}

void TimelineView::keyReleaseEvent(QKeyEvent *event)
{
    if (handleNavigationKey(this, event, true))
        event->accept();
    else
        QAbstractScrollArea::keyReleaseEvent(event);
}

void TimelineView::setLevelOfDetail(bool enabled)
{
    m_lodEnabled = enabled;
    viewport()->update();
}

int TimelineView::lastLodDepths() const
{
    return m_lanesPass->slices().lodDepths();
}

int TimelineView::lastExactDepths() const
{
    return m_lanesPass->slices().exactDepths();
}

QRectF TimelineView::sliceRect(SliceRef ref) const
{
    return timelineGeometry().sliceRect(ref);
}

SliceRef TimelineView::sliceAt(QPoint pos) const
{
    return timelineGeometry().sliceAt(pos);
}

QColor TimelineView::sliceColor(SliceRef ref)
{
    return m_colors.sliceColor(ref);
}

void TimelineView::paintEvent(QPaintEvent *event)
{
    QPainter p(viewport());
    const QPalette &pal = palette();
    p.fillRect(event->rect(), pal.color(QPalette::Base));
    if (!m_model) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter,
                   tr("Open a trace file or folder (File ▸ Open, or drop it here)"));
        return;
    }
    const TimelinePaintContext context{timelineGeometry(),
                                       pal,
                                       m_colors,
                                       m_timeOrigin,
                                       m_collapsed,
                                       m_collapsedGroups,
                                       m_visibility.zeroCountersShown,
                                       m_state.selection(),
                                       m_highlighted,
                                       m_state.rangeSelection(),
                                       m_markers,
                                       m_lodEnabled,
                                       cursorTime(),
                                       &m_state.highlights(),
                                       m_currentLane,
                                       &m_state.rangeLanes()};
    const int width = viewport()->width(), height = viewport()->height() - kRulerHeight;
    // A mouse move repaints only the ruler (the cursor's time): the lanes are not drawn again for it.
    const bool rulerOnly = event->rect().bottom() < kRulerHeight;
    for (const auto &pass : m_passes) {
        if (rulerOnly && pass->clip() != TimelineRenderPass::Clip::Viewport)
            continue;
        p.save();
        switch (pass->clip()) {
        case TimelineRenderPass::Clip::Lanes:
            p.setClipRect(QRect(0, kRulerHeight, width, height));
            break;
        case TimelineRenderPass::Clip::TimeArea:
            p.setClipRect(QRect(kLabelWidth, kRulerHeight, width - kLabelWidth, height));
            break;
        case TimelineRenderPass::Clip::Viewport:
            break;
        }
        pass->paint(p, context);
        p.restore();
    }
}

} // namespace at
