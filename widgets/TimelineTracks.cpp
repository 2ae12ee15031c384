#include "TimelineView.h"

#include <QHash>
#include <QScrollBar>
#include <QSignalBlocker>

#include <algorithm>
#include <initializer_list>

// Track management across ranks: a layer collapsed or expanded on every rank, a process pinned on every
// rank, and what starts collapsed.
namespace at {

namespace {

bool samePlaceInRank(const TraceModel &model, int a, int b)
{
    const ProcessInfo &pa = model.processes()[static_cast<std::size_t>(a)];
    const ProcessInfo &pb = model.processes()[static_cast<std::size_t>(b)];
    return pa.layer == pb.layer && model.processDisplayName(a) == model.processDisplayName(b);
}

bool isHostLayer(Layer layer)
{
    return layer == Layer::Framework || layer == Layer::CannApi;
}

int deepestThread(const TraceModel &model, int process)
{
    int depth = 0;
    for (int t : model.processes()[static_cast<std::size_t>(process)].threads)
        depth = std::max(depth, model.threads()[static_cast<std::size_t>(t)].slices.depthCount());
    return depth;
}

// Device tasks or communication drawn as slices: what a collapsed host stack makes room for.
bool hasDeviceLanes(const TraceModel &model)
{
    for (std::size_t p = 0; p < model.processes().size(); ++p) {
        const Layer layer = model.processes()[p].layer;
        if ((layer == Layer::DeviceStreams || layer == Layer::Communication || layer == Layer::AiCpu) &&
            deepestThread(model, static_cast<int>(p)) > 0)
            return true;
    }
    return false;
}

bool isLaneOf(const TraceModel &model, const LaneRow &row, Layer layer)
{
    return row.kind == LaneRow::Kind::Thread &&
           model.processes()[static_cast<std::size_t>(row.process)].layer == layer;
}

// A short view (900x700 with its docks, a message bar above): the open host processes above the first lane
// of each target layer collapse, the tallest first, until the lowest of those lanes is in sight. Returns
// whether it is (true too when the model has none of those lanes); false leaves every host process above
// them collapsed.
bool collapseUntilInSight(const TraceModel &model, int lanesHeight, std::initializer_list<Layer> targets,
                          QSet<int> &collapsed)
{
    LaneLayout layout;
    for (;;) {
        layout.rebuild(&model, collapsed);
        const auto &rows = layout.rows();
        // The lowest of the target layers' first lanes: every row above it is what pushes it down.
        auto lowest = rows.end();
        for (const Layer layer : targets) {
            const auto first =
                std::ranges::find_if(rows, [&](const LaneRow &row) { return isLaneOf(model, row, layer); });
            if (first != rows.end() && (lowest == rows.end() || first > lowest))
                lowest = first;
        }
        if (lowest == rows.end() || lowest->y + lowest->height <= lanesHeight)
            return true;
        // The height each open host process above it takes (its header and its rows).
        QHash<int, int> heights;
        for (auto row = rows.begin(); row != lowest; ++row)
            if (row->kind != LaneRow::Kind::GroupHeader &&
                isHostLayer(model.processes()[static_cast<std::size_t>(row->process)].layer) &&
                !collapsed.contains(row->process))
                heights[row->process] += row->height;
        int tallest = -1;
        for (auto it = heights.cbegin(); it != heights.cend(); ++it)
            if (tallest < 0 || it.value() > heights.value(tallest) ||
                (it.value() == heights.value(tallest) && it.key() < tallest))
                tallest = it.key();
        if (tallest < 0)
            return false;
        collapsed.insert(tallest);
    }
}

// The first thread lane of a layer in layout, -1 when there is none.
int firstLaneOf(const TraceModel &model, const LaneLayout &layout, Layer layer)
{
    const auto &rows = layout.rows();
    for (std::size_t k = 0; k < rows.size(); ++k)
        if (rows[k].kind == LaneRow::Kind::Thread &&
            model.processes()[static_cast<std::size_t>(rows[k].process)].layer == layer)
            return static_cast<int>(k);
    return -1;
}

// Where a view lanesHeight px high starts scrolled: at the top, unless the first communication lane is below
// the fold there but both it and the first device lane fit with the device process's header just under the
// rank's header (the host side, collapsed, scrolled out of sight above; a database export's queue-depth
// counters between the streams and HCCL at 1600x1000).
int deviceAndCommunicationScroll(const TraceModel &model, const LaneLayout &layout, int lanesHeight)
{
    const int device = firstLaneOf(model, layout, Layer::DeviceStreams);
    const int communication = firstLaneOf(model, layout, Layer::Communication);
    if (device < 0 || communication < device)
        return 0;
    const auto &rows = layout.rows();
    const LaneRow &lane = rows[static_cast<std::size_t>(communication)];
    if (lane.y + lane.height <= lanesHeight)
        return 0;
    const int header = layout.headerRowOfProcess(rows[static_cast<std::size_t>(device)].process);
    if (header < 0)
        return 0;
    // The rank's header stays on top (sticky) when the view scrolls.
    const int sticky = rows.front().kind == LaneRow::Kind::GroupHeader ? rows.front().height : 0;
    const int scroll = std::max(0, rows[static_cast<std::size_t>(header)].y - sticky);
    return lane.y + lane.height - scroll <= lanesHeight ? scroll : 0;
}

} // namespace

QSet<int> TimelineView::initiallyCollapsed(const TraceModel &model, int lanesHeight)
{
    QSet<int> collapsed;
    // A 30-level Python stack fills the first screen and pushes the device lanes below it: a host process
    // with a thread deeper than kDeepStackLevels starts collapsed to its busy preview (a click on its
    // header, or ↑/↓ into it, opens it). Only when there are device lanes to make room for.
    if (!hasDeviceLanes(model))
        return collapsed;
    for (std::size_t p = 0; p < model.processes().size(); ++p)
        if (isHostLayer(model.processes()[p].layer) &&
            deepestThread(model, static_cast<int>(p)) > kDeepStackLevels)
            collapsed.insert(static_cast<int>(p));
    if (model.groups().size() < 2) {
        if (lanesHeight <= 0)
            return collapsed;
        // The device streams and the communication below them, when collapsing the host side makes room for
        // both (1600x1000); else the device streams alone, with as few host processes collapsed as that
        // needs.
        QSet<int> withCommunication = collapsed;
        if (collapseUntilInSight(model, lanesHeight, {Layer::DeviceStreams, Layer::Communication},
                                 withCommunication))
            return withCommunication;
        // Not from the top, but maybe scrolled to the device lanes, the host side collapsed above them
        // (keepDeviceLanesInSight scrolls there).
        LaneLayout hostCollapsed;
        hostCollapsed.rebuild(&model, withCommunication);
        if (deviceAndCommunicationScroll(model, hostCollapsed, lanesHeight) > 0)
            return withCommunication;
        collapseUntilInSight(model, lanesHeight, {Layer::DeviceStreams}, collapsed);
        return collapsed;
    }
    // With several ranks every rank's Python call stack (~30 rows each) would push the device lanes
    // out of sight: they start collapsed, showing their busy preview.
    for (std::size_t p = 0; p < model.processes().size(); ++p)
        if (model.processes()[p].layer == Layer::Framework &&
            model.strings().view(model.processes()[p].name) == std::string_view("Python"))
            collapsed.insert(static_cast<int>(p));
    return collapsed;
}

void TimelineView::keepDeviceLanesInSight()
{
    // A view never laid out has a tiny default viewport: no height to fit to yet.
    const int lanesHeight = viewport()->height() - kRulerHeight;
    if (!m_model || !m_keepDeviceLanesInSight || lanesHeight < 4 * LaneLayout::kHeaderHeight)
        return;
    // From scratch at each height: a view that grows again (a dismissed message bar, a larger window) opens
    // what a shorter one collapsed. The scroll is the fit's too until the user scrolls (scrollContentsBy):
    // set with the scroll bar's signals blocked, it is told from the user's.
    QScrollBar *bar = verticalScrollBar();
    {
        const QSignalBlocker quiet(bar);
        bar->setValue(0); // so that a shorter layout does not clamp it, which would look like the user's
    }
    const QSet<int> fitted = initiallyCollapsed(*m_model, lanesHeight);
    if (fitted != m_collapsed) {
        m_collapsed = fitted;
        relayout();
    }
    updateScrollBars();
    {
        const QSignalBlocker quiet(bar);
        bar->setValue(
            m_model->groups().size() < 2 ? deviceAndCommunicationScroll(*m_model, m_layout, lanesHeight) : 0);
    }
    viewport()->update();
}

std::vector<int> TimelineView::processesLike(int process) const
{
    std::vector<int> like;
    if (!m_model || process < 0 || static_cast<std::size_t>(process) >= m_model->processes().size())
        return like;
    for (std::size_t p = 0; p < m_model->processes().size(); ++p)
        if (samePlaceInRank(*m_model, process, static_cast<int>(p)))
            like.push_back(static_cast<int>(p));
    return like;
}

void TimelineView::setLayerCollapsed(Layer layer, bool collapsed)
{
    if (!m_model)
        return;
    m_keepDeviceLanesInSight = false; // the user's choice from now on
    for (std::size_t p = 0; p < m_model->processes().size(); ++p)
        if (m_model->processes()[p].layer == layer) {
            if (collapsed)
                m_collapsed.insert(static_cast<int>(p));
            else
                m_collapsed.remove(static_cast<int>(p));
        }
    relayout();
    viewport()->update();
}

void TimelineView::setPinnedOnEveryRank(int process, bool pinned)
{
    LaneVisibility v = m_visibility;
    for (int p : processesLike(process)) {
        std::erase(v.pinnedProcesses, p);
        if (pinned)
            v.pinnedProcesses.push_back(p);
    }
    setLaneVisibility(std::move(v));
}

} // namespace at
