#include "TimelineView.h"

#include "TimelineKeyboard.h"

#include <QContextMenuEvent>
#include <QMenu>

#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <array>
#include <cmath>

namespace at {

namespace {

constexpr int kDragThreshold = 4;
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

QColor headerBackground(const QPalette &palette)
{
    return palette.color(QPalette::AlternateBase);
}

} // namespace

TimelineView::TimelineView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(LaneLayout::kSliceHeight * 2);
    setMinimumSize(400, 200);
    connect(&m_zoom, &ZoomController::rangeChanged, this, [this] { viewport()->update(); });
}

void TimelineView::setModel(const TraceModel *model)
{
    m_model = model;
    m_collapsed.clear();
    m_collapsedGroups.clear();
    m_visibility = {};
    m_colors.clear();
    m_coloring.setModel(model);
    m_selected = {};
    m_highlighted = {};
    m_hovered = {};
    m_ruleColorByName.clear(); // string ids belong to the old model
    m_darkNameColor.clear();
    m_rangeSelection.reset();
    if (model)
        m_zoom.setDataRange({model->dataBegin(), model->dataEnd()});
    relayout();
    verticalScrollBar()->setValue(0);
    viewport()->update();
}

void TimelineView::setTimeOrigin(TimeNs origin)
{
    m_timeOrigin = origin;
    viewport()->update();
}

void TimelineView::setColorOverride(ColorOverride colorOverride)
{
    m_colorOverride = std::move(colorOverride);
    viewport()->update();
}

void TimelineView::setHighlightedSlice(SliceRef ref)
{
    if (ref == m_highlighted)
        return;
    m_highlighted = ref;
    viewport()->update();
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
    m_colorRules = rules;
    m_colorRulePatterns.clear();
    for (const ColorRule &r : rules)
        m_colorRulePatterns.emplace_back(r.pattern);
    m_ruleColorByName.clear();
    m_darkNameColor.clear();
    viewport()->update();
}

std::optional<TimeNs> TimelineView::mouseTime() const
{
    if (!m_mouseInside || m_mousePos.x() < kLabelWidth || m_mousePos.y() < kRulerHeight)
        return std::nullopt;
    return axis().toTime(m_mousePos.x() - kLabelWidth);
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

void TimelineView::contextMenuEvent(QContextMenuEvent *event)
{
    if (!m_model)
        return;
    const int rowIndex = m_layout.rowAt(contentY(event->pos().y()));
    QMenu menu(this);
    if (rowIndex >= 0 && event->pos().y() >= kRulerHeight) {
        const LaneRow &row = m_layout.rows()[static_cast<std::size_t>(rowIndex)];
        if (row.kind == LaneRow::Kind::ProcessHeader || row.kind == LaneRow::Kind::Thread ||
            row.kind == LaneRow::Kind::Counter) {
            const int process = row.process;
            const QString name = m_model->processDisplayName(process);
            const bool pinned =
                std::find(m_visibility.pinnedProcesses.begin(), m_visibility.pinnedProcesses.end(),
                          process) != m_visibility.pinnedProcesses.end();
            menu.addAction(pinned ? tr("Unpin %1").arg(name) : tr("Pin %1 to the Top").arg(name), this,
                           [this, process, pinned] { setProcessPinned(process, !pinned); });
            menu.addAction(tr("Hide %1").arg(name), this,
                           [this, process] { setProcessHidden(process, true); });
            if (row.kind == LaneRow::Kind::Thread) {
                const int thread = row.index;
                menu.addAction(tr("Hide Lane %1").arg(m_model->threadDisplayName(thread)), this,
                               [this, thread] { setThreadHidden(thread, true); });
            }
        }
    }
    const int hidden =
        static_cast<int>(m_visibility.hiddenProcesses.size() + m_visibility.hiddenThreads.size());
    QAction *showAll = menu.addAction(tr("Show %n Hidden Lane(s)", nullptr, hidden), this, [this] {
        LaneVisibility v = m_visibility;
        v.hiddenProcesses.clear();
        v.hiddenThreads.clear();
        setLaneVisibility(std::move(v));
    });
    showAll->setEnabled(hidden > 0);
    menu.exec(event->globalPos());
}

void TimelineView::revealSliceRow(SliceRef ref)
{
    if (m_model && ref.isValid() && static_cast<std::size_t>(ref.thread) < m_model->threads().size())
        ensureRowVisible(m_layout.rowOfThread(ref.thread));
}

TimeAxis TimelineView::axis() const
{
    return TimeAxis(m_zoom.range(), std::max(1, viewport()->width() - kLabelWidth));
}

void TimelineView::setCollapsed(int process, bool collapsed)
{
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
    updateScrollBars();
}

void TimelineView::scrollContentsBy(int, int)
{
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
    m_zoom.showAll();
}

void TimelineView::fitSelection()
{
    if (m_selected.isValid() && m_model) {
        const SliceTable &t = m_model->threads()[static_cast<std::size_t>(m_selected.thread)].slices;
        m_zoom.fit({t.start(m_selected.index), t.end(m_selected.index)});
    } else if (m_rangeSelection) {
        m_zoom.fit(*m_rangeSelection);
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
    m_selected = ref;
    if (ref.isValid()) {
        const ThreadInfo &thread = m_model->threads()[static_cast<std::size_t>(ref.thread)];
        if (m_collapsed.contains(thread.process))
            setCollapsed(thread.process, false);
        const int group = m_model->processes()[static_cast<std::size_t>(thread.process)].group;
        if (m_collapsedGroups.contains(group))
            setGroupCollapsed(group, false);
        if (center) {
            const SliceTable &t = thread.slices;
            const TimeRange r = m_zoom.range();
            const TimeNs s = t.start(ref.index), e = t.end(ref.index);
            if (e - s > r.width()) {
                m_zoom.fit({s, e});
            } else {
                const TimeNs mid = s + (e - s) / 2;
                m_zoom.setRange({mid - r.width() / 2, mid - r.width() / 2 + r.width()}, true);
            }
            ensureRowVisible(m_layout.rowOfThread(ref.thread));
        }
    }
    viewport()->update();
    Q_EMIT selectionChanged(ref);
}

void TimelineView::clearRangeSelection()
{
    m_rangeSelection.reset();
    viewport()->update();
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

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->position().toPoint();
    m_pressRange = m_zoom.range();
    m_pressScroll = verticalScrollBar()->value();
    m_pressTime = axis().toTime(m_pressPos.x() - kLabelWidth);
    const bool panGesture = event->button() == Qt::MiddleButton ||
                            (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (panGesture) {
        m_drag = DragMode::Pan;
        viewport()->setCursor(Qt::ClosedHandCursor);
    } else if (event->button() == Qt::LeftButton) {
        m_drag = DragMode::Pending;
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    m_mousePos = event->position().toPoint();
    m_mouseInside = true;
    if (m_drag == DragMode::None && m_model) {
        const SliceRef under = sliceAt(m_mousePos);
        if (!(under == m_hovered)) {
            m_hovered = under;
            Q_EMIT hovered(under);
        }
    }
    const QPoint delta = m_mousePos - m_pressPos;
    if (m_drag == DragMode::Pending && m_pressPos.x() < kLabelWidth &&
        std::abs(delta.y()) >= kDragThreshold) {
        const int row = m_layout.rowAt(contentY(m_pressPos.y()));
        if (row >= 0 && m_layout.rows()[static_cast<std::size_t>(row)].kind == LaneRow::Kind::ProcessHeader) {
            m_drag = DragMode::LaneMove;
            viewport()->setCursor(Qt::SizeVerCursor);
        }
    }
    if (m_drag == DragMode::Pending && m_pressPos.x() >= kLabelWidth && std::abs(delta.x()) >= kDragThreshold)
        m_drag = DragMode::Range;
    if (m_drag == DragMode::Range) {
        const TimeNs now = axis().toTime(m_mousePos.x() - kLabelWidth);
        m_rangeSelection = TimeRange{std::min(now, m_pressTime), std::max(now, m_pressTime)};
        viewport()->update();
    } else if (m_drag == DragMode::Pan) {
        const TimeAxis pressAxis(m_pressRange, std::max(1, viewport()->width() - kLabelWidth));
        const TimeNs shift = static_cast<TimeNs>(std::llround(-delta.x() * pressAxis.nsPerPixel()));
        m_zoom.setRange({m_pressRange.start + shift, m_pressRange.end + shift}, false);
        verticalScrollBar()->setValue(m_pressScroll - delta.y());
    }
    event->accept();
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    const DragMode mode = m_drag;
    m_drag = DragMode::None;
    viewport()->unsetCursor();
    const QPoint pos = event->position().toPoint();
    if (mode == DragMode::LaneMove) {
        // Drop onto any row of another process of the same group: the dragged one goes before it.
        const int from = m_layout.rowAt(contentY(m_pressPos.y()));
        const int to = m_layout.rowAt(contentY(pos.y()));
        if (from >= 0 && to >= 0 &&
            m_layout.rows()[static_cast<std::size_t>(to)].kind != LaneRow::Kind::GroupHeader)
            moveProcess(m_layout.rows()[static_cast<std::size_t>(from)].process,
                        m_layout.rows()[static_cast<std::size_t>(to)].process, to > from);
    } else if (mode == DragMode::Range && m_rangeSelection) {
        Q_EMIT rangeSelected(*m_rangeSelection);
    } else if (mode == DragMode::Pending && event->button() == Qt::LeftButton) {
        const int row = m_layout.rowAt(contentY(pos.y()));
        const LaneRow::Kind kind =
            row >= 0 ? m_layout.rows()[static_cast<std::size_t>(row)].kind : LaneRow::Kind::Thread;
        if (pos.y() >= kRulerHeight && row >= 0 && kind == LaneRow::Kind::ProcessHeader) {
            const int process = m_layout.rows()[static_cast<std::size_t>(row)].process;
            setCollapsed(process, !m_collapsed.contains(process));
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
    QAbstractScrollArea::leaveEvent(event);
}

void TimelineView::enterEvent(QEnterEvent *event)
{
    m_mouseInside = true;
    QAbstractScrollArea::enterEvent(event);
}

// --- geometry --------------------------------------------------------------------------------

QRectF TimelineView::sliceRect(SliceRef ref) const
{
    if (!m_model || !ref.isValid())
        return {};
    const int row = m_layout.rowOfThread(ref.thread);
    if (row < 0)
        return {};
    const LaneRow &r = m_layout.rows()[static_cast<std::size_t>(row)];
    if (r.kind != LaneRow::Kind::Thread)
        return {};
    const SliceTable &t = m_model->threads()[static_cast<std::size_t>(ref.thread)].slices;
    const TimeAxis a = axis();
    const double x0 = kLabelWidth + a.toPixel(t.start(ref.index));
    const double x1 = kLabelWidth + a.toPixel(t.end(ref.index));
    const int y = viewportY(LaneLayout::sliceTop(r, t.depthOf(ref.index)));
    return QRectF(x0, y, std::max(1.0, x1 - x0), LaneLayout::kSliceHeight - 1);
}

SliceRef TimelineView::sliceAt(QPoint pos) const
{
    if (!m_model || pos.x() < kLabelWidth || pos.y() < kRulerHeight)
        return {};
    const int row = m_layout.rowAt(contentY(pos.y()));
    if (row < 0)
        return {};
    const LaneRow &r = m_layout.rows()[static_cast<std::size_t>(row)];
    if (r.kind != LaneRow::Kind::Thread)
        return {};
    const int depth = (contentY(pos.y()) - r.y - LaneLayout::kTrackPadding) / LaneLayout::kSliceHeight;
    const SliceTable &t = m_model->threads()[static_cast<std::size_t>(r.index)].slices;
    if (depth < 0 || depth >= t.depthCount())
        return {};
    const TimeAxis a = axis();
    const TimeNs at = a.toTime(pos.x() - kLabelWidth);
    std::int64_t hit = t.sliceAt(depth, at);
    if (hit < 0) {
        // Tiny slices are hard to hit: accept the nearest one within two pixels.
        const auto tolerance = static_cast<TimeNs>(2 * a.nsPerPixel());
        const auto last = t.depthRange(depth).second;
        TimeNs bestDistance = tolerance + 1;
        for (auto i = t.firstEndingAtOrAfter(depth, at - tolerance); i < last && t.start(i) <= at + tolerance;
             ++i) {
            const TimeNs distance = at < t.start(i) ? t.start(i) - at : at - t.end(i);
            if (distance < bestDistance) {
                bestDistance = distance;
                hit = i;
            }
        }
    }
    return hit < 0 ? SliceRef{} : SliceRef{r.index, static_cast<std::uint32_t>(hit)};
}

// --- painting --------------------------------------------------------------------------------

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
    const TimeAxis a = axis();
    const int scroll = verticalScrollBar()->value();
    const int visibleHeight = viewport()->height() - kRulerHeight;
    const QRect lanesClip(0, kRulerHeight, viewport()->width(), visibleHeight);

    p.save();
    p.setClipRect(lanesClip);
    m_lodDepths = m_exactDepths = 0;
    const auto &rows = m_layout.rows();
    int first = std::max(0, m_layout.rowAt(scroll));
    for (std::size_t i = static_cast<std::size_t>(first); i < rows.size(); ++i) {
        const LaneRow &row = rows[i];
        const int y = viewportY(row.y);
        if (y > viewport()->height())
            break;
        if (y + row.height < kRulerHeight)
            continue;
        switch (row.kind) {
        case LaneRow::Kind::GroupHeader:
            paintGroupHeader(p, row, y);
            break;
        case LaneRow::Kind::ProcessHeader:
            paintHeader(p, row, y);
            break;
        case LaneRow::Kind::Thread:
            paintThread(p, a, row, y, lanesClip);
            break;
        case LaneRow::Kind::Counter:
            paintCounter(p, a, row, y);
            break;
        }
    }
    p.setClipRect(QRect(kLabelWidth, kRulerHeight, viewport()->width() - kLabelWidth, visibleHeight));
    paintMarkers(p, a);
    paintSelection(p, a);
    paintHighlight(p);
    paintFlows(p, a);
    paintRangeSelection(p, a);
    paintLegend(p);
    p.restore();
    paintRuler(p, a);
}

void TimelineView::paintRuler(QPainter &p, const TimeAxis &a)
{
    const QPalette &pal = palette();
    const QRect ruler(0, 0, viewport()->width(), kRulerHeight);
    p.fillRect(ruler, pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, viewport()->width(), kRulerHeight - 1);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("View: %1").arg(formatDuration(a.range().width())));
    const TimeNs step = rulerStep(a, 110);
    // Ticks sit on multiples of the step counted from the time origin.
    const TimeNs fromOrigin = a.range().start - m_timeOrigin;
    TimeNs t = a.range().start - ((fromOrigin % step) + step) % step;
    const int precision = step >= 1000000000 ? 1 : (step % 1000 == 0 ? 0 : 3);
    for (; t <= a.range().end; t += step) {
        const double x = kLabelWidth + a.toPixel(t);
        if (x < kLabelWidth)
            continue;
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(QPointF(x, kRulerHeight - 8), QPointF(x, kRulerHeight - 1));
        for (int minor = 1; minor < 5; ++minor) {
            const double mx = x + minor * (a.toPixel(t + step) - a.toPixel(t)) / 5;
            p.drawLine(QPointF(mx, kRulerHeight - 4), QPointF(mx, kRulerHeight - 1));
        }
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QPointF(x + 3, kRulerHeight - 10), formatDuration(t - m_timeOrigin, precision));
    }
}

void TimelineView::paintHeader(QPainter &p, const LaneRow &row, int y)
{
    const QPalette &pal = palette();
    const QRect rect(0, y, viewport()->width(), row.height);
    p.fillRect(rect, headerBackground(pal));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(rect.bottomLeft(), rect.bottomRight());
    const ProcessInfo &info = m_model->processes()[static_cast<std::size_t>(row.process)];
    const bool collapsed = m_collapsed.contains(row.process);
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    p.setPen(pal.color(QPalette::Text));
    const QString title = QStringLiteral("%1 %2").arg(collapsed ? QStringLiteral("▸") : QStringLiteral("▾"),
                                                      m_model->processDisplayName(row.process));
    const int titleWidth = p.fontMetrics().horizontalAdvance(title);
    p.drawText(rect.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, title);
    p.restore();
    p.setPen(pal.color(QPalette::PlaceholderText));
    QString detail = layerDisplayName(info.layer);
    if (collapsed)
        detail +=
            tr("   (%1 threads, %2 counters hidden)").arg(info.threads.size()).arg(info.counters.size());
    p.drawText(rect.adjusted(6 + titleWidth + 16, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, detail);
}

void TimelineView::paintGroupHeader(QPainter &p, const LaneRow &row, int y)
{
    const QPalette &pal = palette();
    const QRect rect(0, y, viewport()->width(), row.height);
    p.fillRect(rect, pal.color(QPalette::Dark));
    const SourceGroup &group = m_model->groups()[static_cast<std::size_t>(row.process)];
    const bool collapsed = m_collapsedGroups.contains(row.process);
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    p.setPen(pal.color(QPalette::BrightText));
    const QString title = QStringLiteral("%1 %2").arg(collapsed ? QStringLiteral("▸") : QStringLiteral("▾"),
                                                      group.label.isEmpty() ? group.path : group.label);
    p.drawText(rect.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, title);
    const int titleWidth = p.fontMetrics().horizontalAdvance(title);
    p.restore();
    p.setPen(pal.color(QPalette::Light));
    p.drawText(rect.adjusted(6 + titleWidth + 16, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, group.layout);
}

void TimelineView::paintThread(QPainter &p, const TimeAxis &a, const LaneRow &row, int y, const QRect &clip)
{
    const QPalette &pal = palette();
    const ThreadInfo &thread = m_model->threads()[static_cast<std::size_t>(row.index)];
    const SliceTable &t = thread.slices;
    // Label column.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, y + row.height - 1, viewport()->width(), y + row.height - 1);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(
        QRect(14, y, kLabelWidth - 18, std::min(row.height, LaneLayout::kSliceHeight + 6)),
        Qt::AlignVCenter | Qt::AlignLeft,
        p.fontMetrics().elidedText(m_model->threadDisplayName(row.index), Qt::ElideRight, kLabelWidth - 18));

    p.save();
    p.setClipRect(QRect(kLabelWidth, std::max(y, clip.top()), viewport()->width() - kLabelWidth,
                        std::min(y + row.height, clip.bottom()) - std::max(y, clip.top()) + 1));
    const TimeRange visible = a.range();
    for (int d = 0; d < t.depthCount(); ++d) {
        const int top = y + LaneLayout::kTrackPadding + d * LaneLayout::kSliceHeight;
        if (top > clip.bottom())
            break;
        if (top + LaneLayout::kSliceHeight < clip.top())
            continue;
        if (paintDepthLod(p, a, row.index, d, top)) {
            ++m_lodDepths;
            continue;
        }
        ++m_exactDepths;
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
                    strip[static_cast<int>(column)] = qPremultiply(mergedColor({row.index, i}).rgba());
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
            p.fillRect(rect, sliceColor({row.index, w}));
            if (rect.width() >= kMinLabelWidth)
                drawSliceLabel(p, rect, t.name(w));
        }
    }
    p.restore();
}

// A slice's (or a run of summary columns') name inside its rectangle, elided to fit.
void TimelineView::drawSliceLabel(QPainter &p, const QRectF &rect, StringId name) const
{
    const QString label = p.fontMetrics().elidedText(m_model->strings().qstring(name), Qt::ElideRight,
                                                     static_cast<int>(rect.width()) - 6);
    if (label.isEmpty())
        return;
    p.setPen(QColor(20, 20, 20));
    p.drawText(rect.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
}

bool TimelineView::paintDepthLod(QPainter &p, const TimeAxis &a, int thread, int depth, int top)
{
    // Summaries know names, not slices: per-slice colours (metrics, compare view) draw slices.
    if (!m_lodEnabled || m_colorOverride || m_coloring.mode() != MetricColoring::Mode::ByName)
        return false;
    const int count = static_cast<int>(a.pixelWidth());
    const SliceLod &lod = m_model->sliceLod(thread);
    if (!lod.columns(depth, a.range().start, a.nsPerPixel(), count, m_lodColumns))
        return false;
    // One pixel per column into a one-row strip, stretched over the band in one blit: a
    // zoomed-out frame has tens of thousands of columns with work, too many for a fillRect each.
    const QRgb base = palette().color(QPalette::Base).rgb();
    const auto npp = static_cast<float>(a.nsPerPixel());
    if (m_lodStrip.width() != count)
        m_lodStrip = QImage(count, 1, QImage::Format_RGB32);
    auto *line = reinterpret_cast<QRgb *>(m_lodStrip.scanLine(0));
    for (int c = 0; c < count; ++c) {
        const SliceLod::Column &col = m_lodColumns[static_cast<std::size_t>(c)];
        if (!col.work) {
            line[c] = base;
            continue;
        }
        const int shade = densityShade(col.busy / npp);
        const QRgb color = darkNameColor(col.name).rgb();
        line[c] = shade == 3 ? color : mix(base, color, kShadeOpacity[static_cast<std::size_t>(shade)]);
    }
    p.drawImage(QRect(kLabelWidth, top, count, LaneLayout::kSliceHeight - 1), m_lodStrip);

    // Long fully busy runs of one name are long slices: label them as slices are labelled.
    for (int c = 0; c < count;) {
        const SliceLod::Column &col = m_lodColumns[static_cast<std::size_t>(c)];
        int e = c + 1;
        if (col.work && densityShade(col.busy / npp) == 3)
            while (e < count && m_lodColumns[static_cast<std::size_t>(e)].name == col.name &&
                   m_lodColumns[static_cast<std::size_t>(e)].work &&
                   densityShade(m_lodColumns[static_cast<std::size_t>(e)].busy / npp) == 3)
                ++e;
        if (e - c >= kMinLabelWidth)
            drawSliceLabel(p, QRectF(kLabelWidth + c, top, e - c, LaneLayout::kSliceHeight - 1), col.name);
        c = e;
    }
    return true;
}

void TimelineView::paintCounter(QPainter &p, const TimeAxis &a, const LaneRow &row, int y)
{
    const QPalette &pal = palette();
    const CounterSeries &series = m_model->counters()[static_cast<std::size_t>(row.index)];
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, y + row.height - 1, viewport()->width(), y + row.height - 1);
    p.setPen(pal.color(QPalette::Text));
    const QString label = m_model->counterDisplayName(row.index);
    p.drawText(QRect(14, y, kLabelWidth - 18, row.height / 2), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(label, Qt::ElideRight, kLabelWidth - 18));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRect(14, y + row.height / 2, kLabelWidth - 18, row.height / 2),
               Qt::AlignVCenter | Qt::AlignLeft, tr("max %1").arg(series.maxValue, 0, 'g', 6));
    if (series.times.empty())
        return;

    const double top = y + 3, bottom = y + row.height - 3;
    const double lo = std::min(0.0, series.minValue);
    const double span = series.maxValue - lo > 0 ? series.maxValue - lo : 1.0;
    auto toY = [&](double v) { return bottom - (v - lo) / span * (bottom - top); };

    // Per pixel column: the largest value held in it (a value holds until the next sample).
    const int width = static_cast<int>(a.pixelWidth());
    const auto &times = series.times;
    auto it = std::upper_bound(times.begin(), times.end(), a.range().start);
    std::size_t i = it == times.begin() ? 0 : static_cast<std::size_t>(it - times.begin()) - 1;
    if (times[i] > a.range().end)
        return;
    QPainterPath path;
    const double firstX = std::max(0.0, a.toPixel(times[i]));
    path.moveTo(kLabelWidth + firstX, bottom);
    for (int x = static_cast<int>(firstX); x <= width && i < times.size(); ++x) {
        const TimeNs columnEnd = a.toTime(x + 1);
        double v = series.values[i];
        while (i + 1 < times.size() && times[i + 1] < columnEnd) {
            ++i;
            v = std::max(v, series.values[i]);
        }
        path.lineTo(kLabelWidth + x, toY(v));
        path.lineTo(kLabelWidth + x + 1, toY(v));
    }
    path.lineTo(kLabelWidth + std::min<double>(width, a.pixelWidth()), path.currentPosition().y());
    path.lineTo(kLabelWidth + std::min<double>(width, a.pixelWidth()), bottom);
    path.closeSubpath();
    QColor fill = SliceColors::colorForText(m_model->strings().view(series.name));
    p.save();
    p.setClipRect(QRect(kLabelWidth, y, viewport()->width() - kLabelWidth, row.height));
    fill.setAlpha(170);
    p.fillPath(path, fill);
    p.restore();
}

void TimelineView::paintSelection(QPainter &p, const TimeAxis &)
{
    if (!m_selected.isValid())
        return;
    const QRectF r = sliceRect(m_selected);
    if (r.isNull())
        return;
    p.save();
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(-1, -1, 1, 1));
    p.restore();
}

void TimelineView::paintMarkers(QPainter &p, const TimeAxis &a)
{
    if (!m_markers)
        return;
    const int bottom = viewport()->height();
    for (const Marker &m : m_markers->markers()) {
        QColor color = QColor::fromRgb(m.rgb);
        const double x0 = kLabelWidth + a.toPixel(m.begin);
        const double x1 = kLabelWidth + a.toPixel(m.end);
        if (x1 < kLabelWidth - 1 || x0 > viewport()->width() + 1)
            continue;
        p.save();
        if (!m.isFlag()) {
            QColor band = color;
            band.setAlpha(40);
            p.fillRect(QRectF(std::max<double>(x0, kLabelWidth), kRulerHeight,
                              std::max(1.0, x1 - std::max<double>(x0, kLabelWidth)), bottom - kRulerHeight),
                       band);
        }
        p.setPen(QPen(color, 1, m.isFlag() ? Qt::SolidLine : Qt::DashLine));
        for (double x : {x0, x1})
            if (x >= kLabelWidth)
                p.drawLine(QPointF(x, kRulerHeight), QPointF(x, bottom));
        const int w = p.fontMetrics().horizontalAdvance(m.name) + 8;
        const QRectF tag(std::max<double>(x0, kLabelWidth), kRulerHeight, w, 16);
        p.fillRect(tag, color);
        p.setPen(Qt::white);
        p.drawText(tag, Qt::AlignCenter, m.name);
        p.restore();
    }
}

void TimelineView::paintHighlight(QPainter &p)
{
    if (!m_highlighted.isValid() || m_highlighted == m_selected)
        return;
    const QRectF r = sliceRect(m_highlighted);
    if (r.isNull())
        return;
    p.save();
    p.setPen(QPen(palette().color(QPalette::Highlight), 2, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(-2, -2, 2, 2));
    p.restore();
}

QPointF TimelineView::flowEndpoint(SliceRef ref, TimeNs t, const TimeAxis &a) const
{
    const double x = kLabelWidth + a.toPixel(t);
    const QRectF r = sliceRect(ref);
    if (!r.isNull())
        return {x, r.center().y()};
    // Collapsed group: point at its header.
    const int row = m_layout.rowOfThread(ref.thread);
    if (row < 0)
        return {x, -1};
    const LaneRow &lane = m_layout.rows()[static_cast<std::size_t>(row)];
    return {x, static_cast<double>(viewportY(lane.y) + lane.height / 2)};
}

void TimelineView::paintFlows(QPainter &p, const TimeAxis &a)
{
    if (!m_selected.isValid())
        return;
    std::vector<std::uint32_t> flows = m_model->flowsFrom(m_selected);
    const std::vector<std::uint32_t> incoming = m_model->flowsTo(m_selected);
    flows.insert(flows.end(), incoming.begin(), incoming.end());
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const QColor color(200, 40, 40);
    p.setPen(QPen(color, 1.5));
    p.setBrush(color);
    for (std::uint32_t f : flows) {
        const FlowInfo &flow = m_model->flows()[f];
        if (!flow.from.isValid() || !flow.to.isValid())
            continue;
        const QPointF from = flowEndpoint(flow.from, flow.fromTime, a);
        const QPointF to = flowEndpoint(flow.to, flow.toTime, a);
        if (from.y() < 0 || to.y() < 0)
            continue;
        QPainterPath path(from);
        const double bend = std::max(20.0, std::abs(to.x() - from.x()) / 3);
        path.cubicTo(from + QPointF(bend, 0), to - QPointF(bend, 0), to);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        p.setBrush(color);
        const QPointF tip = to;
        QPolygonF head;
        head << tip << tip + QPointF(-7, -4) << tip + QPointF(-7, 4);
        p.drawPolygon(head);
    }
    p.restore();
}

std::optional<QColor> TimelineView::ruleColor(StringId name)
{
    if (m_colorRules.empty())
        return std::nullopt;
    auto it = m_ruleColorByName.find(name);
    if (it == m_ruleColorByName.end()) {
        std::optional<QColor> color;
        const QString text = m_model->strings().qstring(name);
        for (std::size_t r = 0; r < m_colorRules.size() && !color; ++r)
            if (m_colorRulePatterns[r].isValid() && m_colorRulePatterns[r].match(text).hasMatch())
                color = QColor::fromRgb(m_colorRules[r].rgb);
        it = m_ruleColorByName.insert(name, color);
    }
    return *it;
}

QColor TimelineView::darkNameColor(StringId name)
{
    // darker() converts through HSV: cache it, a zoomed-out frame asks for it per column.
    if (m_darkNameColor.size() <= name)
        m_darkNameColor.resize(std::max<std::size_t>(name + 1, m_model->strings().size()), 0);
    QRgb &rgb = m_darkNameColor[name];
    if (rgb == 0)
        rgb = nameColor(name).darker(115).rgba();
    return QColor::fromRgba(rgb);
}

QColor TimelineView::mergedColor(SliceRef ref)
{
    if (m_colorOverride || m_coloring.mode() != MetricColoring::Mode::ByName)
        return sliceColor(ref).darker(115);
    return darkNameColor(m_model->threads()[static_cast<std::size_t>(ref.thread)].slices.name(ref.index));
}

QColor TimelineView::nameColor(StringId name)
{
    if (const auto rule = ruleColor(name))
        return *rule;
    return m_colors.colorFor(m_model->strings(), name);
}

QColor TimelineView::sliceColor(SliceRef ref)
{
    if (m_colorOverride)
        if (const auto c = m_colorOverride(ref))
            return *c;
    const StringId name = m_model->threads()[static_cast<std::size_t>(ref.thread)].slices.name(ref.index);
    if (const auto rule = ruleColor(name))
        return *rule;
    if (const auto metric = m_coloring.colorFor(ref.thread, ref.index))
        return *metric;
    return m_colors.colorFor(m_model->strings(), name);
}

void TimelineView::paintLegend(QPainter &p)
{
    if (m_coloring.mode() == MetricColoring::Mode::ByName)
        return;
    const int width = 220, height = 44;
    const QRect box(viewport()->width() - width - 12, kRulerHeight + 8, width, height);
    p.save();
    p.setOpacity(0.92);
    p.fillRect(box, palette().color(QPalette::Window));
    p.setOpacity(1.0);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(box);
    const QRect bar(box.left() + 8, box.top() + 20, width - 16, 10);
    for (int x = 0; x < bar.width(); ++x)
        p.fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()),
                   viridis(static_cast<double>(x) / (bar.width() - 1)));
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(box.left() + 8, box.top() + 2, width - 16, 16), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(m_coloring.legendTitle(), Qt::ElideRight, width - 16));
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.drawText(QRect(bar.left(), bar.bottom() + 1, bar.width(), 12), Qt::AlignLeft,
               m_coloring.legendMinimum());
    p.drawText(QRect(bar.left(), bar.bottom() + 1, bar.width(), 12), Qt::AlignRight,
               m_coloring.legendMaximum());
    p.restore();
}

void TimelineView::paintRangeSelection(QPainter &p, const TimeAxis &a)
{
    if (!m_rangeSelection)
        return;
    const double x0 = kLabelWidth + a.toPixel(m_rangeSelection->start);
    const double x1 = kLabelWidth + a.toPixel(m_rangeSelection->end);
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlpha(50);
    const QRectF rect(x0, kRulerHeight, std::max(1.0, x1 - x0), viewport()->height() - kRulerHeight);
    p.fillRect(rect, shade);
    p.setPen(palette().color(QPalette::Highlight));
    p.drawLine(QPointF(x0, kRulerHeight), QPointF(x0, viewport()->height()));
    p.drawLine(QPointF(x1, kRulerHeight), QPointF(x1, viewport()->height()));
    const QString label = formatDuration(m_rangeSelection->width());
    const int w = p.fontMetrics().horizontalAdvance(label) + 10;
    const QRectF box((x0 + x1) / 2 - w / 2.0, kRulerHeight + 2, w, 18);
    p.fillRect(box, palette().color(QPalette::Highlight));
    p.setPen(palette().color(QPalette::HighlightedText));
    p.drawText(box, Qt::AlignCenter, label);
}

} // namespace at
