#include "TimelineView.h"

#include "LayerWording.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

// Mouse input of the timeline: click to select, drag a range, shift/middle-drag to pan, drag a process
// header to move it, wheel to scroll lanes or (with Ctrl) zoom, the lane context menu.
namespace at {

namespace {
constexpr int kDragThreshold = 4; // pixels before a press becomes a drag
} // namespace

void TimelineView::contextMenuEvent(QContextMenuEvent *event)
{
    if (!m_model)
        return;
    const int rowIndex = rowAtViewportY(event->pos().y());
    QMenu menu(this);
    int menuGroup = -1;
    if (rowIndex >= 0 && event->pos().y() >= kRulerHeight) {
        const LaneRow &row = m_layout.rows()[static_cast<std::size_t>(rowIndex)];
        menuGroup = timelineGeometry().groupOfRow(row);
        if (const SliceRef slice = sliceAt(event->pos()); canAlignOn(slice)) {
            menu.addAction(tr("Align Ranks on This Collective"), this,
                           [this, slice] { alignRanksOn(slice); });
            menu.addSeparator();
        }
        if (row.kind == LaneRow::Kind::ProcessHeader || row.kind == LaneRow::Kind::Thread ||
            row.kind == LaneRow::Kind::Counter || row.kind == LaneRow::Kind::ZeroCounters) {
            const int process = row.process;
            const QString name = m_model->processDisplayName(process);
            const bool pinned =
                std::find(m_visibility.pinnedProcesses.begin(), m_visibility.pinnedProcesses.end(),
                          process) != m_visibility.pinnedProcesses.end();
            menu.addAction(pinned ? tr("Unpin %1").arg(name) : tr("Pin %1 to the Top").arg(name), this,
                           [this, process, pinned] { setProcessPinned(process, !pinned); });
            if (LaneLayout::showsGroups(m_model) && processesLike(process).size() > 1) {
                const bool everywhere = std::ranges::all_of(processesLike(process), [this](int p) {
                    return std::ranges::find(m_visibility.pinnedProcesses, p) !=
                           m_visibility.pinnedProcesses.end();
                });
                menu.addAction(everywhere ? tr("Unpin %1 on Every Rank").arg(name)
                                          : tr("Pin %1 on Every Rank").arg(name),
                               this,
                               [this, process, everywhere] { setPinnedOnEveryRank(process, !everywhere); });
            }
            menu.addAction(tr("Hide %1").arg(name), this,
                           [this, process] { setProcessHidden(process, true); });
            const ProcessInfo &processInfo = m_model->processes()[static_cast<std::size_t>(process)];
            const Layer layer = processInfo.layer;
            const QString layerName = layerDisplayName(
                layer, m_model->groups()[static_cast<std::size_t>(processInfo.group)].layout);
            menu.addAction(tr("Collapse All %1").arg(layerName), this,
                           [this, layer] { setLayerCollapsed(layer, true); });
            menu.addAction(tr("Expand All %1").arg(layerName), this,
                           [this, layer] { setLayerCollapsed(layer, false); });
            if (row.kind == LaneRow::Kind::Thread) {
                const int thread = row.index;
                menu.addAction(tr("Hide Lane %1").arg(m_model->threadDisplayName(thread)), this,
                               [this, thread] { setThreadHidden(thread, true); });
                if (m_state.rangeSelection())
                    addRangeLaneActions(menu, thread);
            }
        }
    }
    // Offered only when something is hidden (never "Show 0 Hidden Lane(s)").
    const int hidden =
        static_cast<int>(m_visibility.hiddenProcesses.size() + m_visibility.hiddenThreads.size());
    if (hidden > 0)
        menu.addAction(tr("Show %n Hidden Lane(s)", nullptr, hidden), this, [this] {
            LaneVisibility v = m_visibility;
            v.hiddenProcesses.clear();
            v.hiddenThreads.clear();
            setLaneVisibility(std::move(v));
        });
    if (const SliceRef slice = event->pos().y() >= kRulerHeight ? sliceAt(event->pos()) : SliceRef{};
        slice.isValid()) {
        menu.addSeparator();
        Q_EMIT sliceMenuRequested(&menu, slice);
    }
    if (menuGroup >= 0 && LaneLayout::showsGroups(m_model))
        Q_EMIT laneMenuRequested(&menu, menuGroup);
    if (!menu.isEmpty())
        menu.exec(event->globalPos());
}

void TimelineView::addRangeLaneActions(QMenu &menu, int thread)
{
    menu.addSeparator();
    const QString lane = m_model->threadDisplayName(thread);
    const std::vector<int> &lanes = m_state.rangeLanes();
    const bool chosen = std::ranges::find(lanes, thread) != lanes.end();
    if (!chosen) {
        menu.addAction(tr("Restrict Range to Lane %1").arg(lane), this,
                       [this, thread] { setRangeThreads({thread}); });
        if (!lanes.empty())
            menu.addAction(tr("Add Lane %1 to the Range").arg(lane), this, [this, thread] {
                std::vector<int> threads = m_state.rangeLanes();
                threads.push_back(thread);
                setRangeThreads(std::move(threads));
            });
    } else if (lanes.size() > 1) {
        menu.addAction(tr("Remove Lane %1 from the Range").arg(lane), this, [this, thread] {
            std::vector<int> threads = m_state.rangeLanes();
            std::erase(threads, thread);
            setRangeThreads(std::move(threads));
        });
    }
    if (!lanes.empty())
        menu.addAction(tr("Range on All Lanes"), this, [this] { setRangeThreads({}); });
}

bool TimelineView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        QRect area;
        const QString text = m_drag.mode == DragMode::None ? toolTipAt(help->pos(), &area) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport(), area);
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

std::vector<int> TimelineView::threadsBetweenRows(int fromY, int toY) const
{
    std::vector<int> threads;
    const int first = rowAtViewportY(std::max(kRulerHeight, std::min(fromY, toY)));
    const int last = rowAtViewportY(std::max(kRulerHeight, std::max(fromY, toY)));
    if (first < 0)
        return threads;
    const int end = last >= 0 ? last : static_cast<int>(m_layout.rows().size()) - 1;
    for (int r = first; r <= end; ++r) {
        const LaneRow &row = m_layout.rows()[static_cast<std::size_t>(r)];
        if (row.kind == LaneRow::Kind::Thread)
            threads.push_back(row.index);
    }
    std::ranges::sort(threads);
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    return threads;
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    m_drag.pressPos = event->position().toPoint();
    m_drag.pressRange = m_zoom.range();
    m_drag.pressScroll = verticalScrollBar()->value();
    m_drag.pressTime = axis().toTime(m_drag.pressPos.x() - kLabelWidth);
    m_drag.chooseLanes = (event->modifiers() & Qt::ControlModifier) != 0;
    const bool panGesture = event->button() == Qt::MiddleButton ||
                            (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (panGesture) {
        m_drag.mode = DragMode::Pan;
        viewport()->setCursor(Qt::ClosedHandCursor);
    } else if (event->button() == Qt::LeftButton) {
        m_drag.mode = DragMode::Pending;
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    m_mousePos = event->position().toPoint();
    m_mouseInside = true;
    if (m_model)
        updateRuler(); // the cursor's time
    if (m_drag.mode == DragMode::None && m_model) {
        const SliceRef under = sliceAt(m_mousePos);
        if (!(under == m_hovered)) {
            m_hovered = under;
            Q_EMIT hovered(under);
        }
    }
    const QPoint delta = m_mousePos - m_drag.pressPos;
    if (m_drag.mode == DragMode::Pending && m_drag.pressPos.x() < kLabelWidth &&
        std::abs(delta.y()) >= kDragThreshold) {
        const int row = rowAtViewportY(m_drag.pressPos.y());
        if (row >= 0 && m_layout.rows()[static_cast<std::size_t>(row)].kind == LaneRow::Kind::ProcessHeader) {
            m_drag.mode = DragMode::LaneMove;
            viewport()->setCursor(Qt::SizeVerCursor);
        }
    }
    if (m_drag.mode == DragMode::Pending && m_drag.pressPos.x() >= kLabelWidth &&
        std::abs(delta.x()) >= kDragThreshold)
        m_drag.mode = DragMode::Range;
    if (m_drag.mode == DragMode::Range) {
        const TimeNs now = axis().toTime(m_mousePos.x() - kLabelWidth);
        m_state.dragRange(TimeRange{std::min(now, m_drag.pressTime), std::max(now, m_drag.pressTime)},
                          m_drag.chooseLanes ? threadsBetweenRows(m_drag.pressPos.y(), m_mousePos.y())
                                             : std::vector<int>{});
        viewport()->update();
    } else if (m_drag.mode == DragMode::Pan) {
        const TimeAxis pressAxis(m_drag.pressRange, std::max(1, viewport()->width() - kLabelWidth));
        const TimeNs shift = static_cast<TimeNs>(std::llround(-delta.x() * pressAxis.nsPerPixel()));
        m_zoom.setRange({m_drag.pressRange.start + shift, m_drag.pressRange.end + shift}, false);
        verticalScrollBar()->setValue(m_drag.pressScroll - delta.y());
    }
    event->accept();
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    const DragMode mode = m_drag.mode;
    m_drag.mode = DragMode::None;
    viewport()->unsetCursor();
    const QPoint pos = event->position().toPoint();
    if (mode == DragMode::LaneMove) {
        // Drop onto any row of another process of the same group: the dragged one goes before it.
        const int from = rowAtViewportY(m_drag.pressPos.y());
        const int to = rowAtViewportY(pos.y());
        if (from >= 0 && to >= 0 &&
            m_layout.rows()[static_cast<std::size_t>(to)].kind != LaneRow::Kind::GroupHeader)
            moveProcess(m_layout.rows()[static_cast<std::size_t>(from)].process,
                        m_layout.rows()[static_cast<std::size_t>(to)].process, to > from);
    } else if (mode == DragMode::Range && m_state.rangeSelection()) {
        m_state.selectRange(*m_state.rangeSelection(), m_state.rangeLanes());
    } else if (mode == DragMode::Pending && event->button() == Qt::LeftButton) {
        const int row = rowAtViewportY(pos.y());
        const LaneRow::Kind kind =
            row >= 0 ? m_layout.rows()[static_cast<std::size_t>(row)].kind : LaneRow::Kind::Thread;
        if (pos.y() >= kRulerHeight && row >= 0 && kind == LaneRow::Kind::ProcessHeader) {
            const int process = m_layout.rows()[static_cast<std::size_t>(row)].process;
            setCollapsed(process, !m_collapsed.contains(process));
        } else if (pos.y() >= kRulerHeight && row >= 0 && kind == LaneRow::Kind::ZeroCounters) {
            const int process = m_layout.rows()[static_cast<std::size_t>(row)].process;
            setZeroCountersShown(process, !m_visibility.zeroCountersShown.contains(process));
        } else if (pos.y() >= kRulerHeight && row >= 0 && kind == LaneRow::Kind::GroupHeader) {
            const int group = m_layout.rows()[static_cast<std::size_t>(row)].process;
            setGroupCollapsed(group, !m_collapsedGroups.contains(group));
        } else {
            selectSlice(sliceAt(pos), false);
        }
    }
    event->accept();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint angle = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = angle.y() / 120.0;
        m_mousePos = event->position().toPoint();
        m_mouseInside = true;
        m_zoom.zoom(std::pow(ZoomController::kZoomStep, steps), zoomAnchor());
        event->accept();
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier || angle.x() != 0) {
        const int dx = angle.x() != 0 ? angle.x() : angle.y();
        m_zoom.pan(-dx / 120.0 * ZoomController::kPanFraction);
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event); // scrolls lanes
}

void TimelineView::leaveEvent(QEvent *event)
{
    m_mouseInside = false;
    updateRuler();
    QAbstractScrollArea::leaveEvent(event);
}

void TimelineView::enterEvent(QEnterEvent *event)
{
    m_mouseInside = true;
    QAbstractScrollArea::enterEvent(event);
}

} // namespace at
