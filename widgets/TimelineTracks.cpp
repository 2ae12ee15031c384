#include "TimelineView.h"

#include <QHash>

#include <algorithm>

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

// A short view (900x700 with its docks): the open host processes above the first device lane, the
// tallest first, collapse until that lane is in sight or none is left.
void collapseUntilDeviceInSight(const TraceModel &model, int lanesHeight, QSet<int> &collapsed)
{
    LaneLayout layout;
    for (;;) {
        layout.rebuild(&model, collapsed);
        const auto &rows = layout.rows();
        const auto device = std::ranges::find_if(rows, [&](const LaneRow &row) {
            return row.kind == LaneRow::Kind::Thread &&
                   model.processes()[static_cast<std::size_t>(row.process)].layer == Layer::DeviceStreams;
        });
        if (device == rows.end() || device->y + device->height <= lanesHeight)
            return;
        // The height each open host process above it takes (its header and its rows).
        QHash<int, int> heights;
        for (auto row = rows.begin(); row != device; ++row)
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
            return;
        collapsed.insert(tallest);
    }
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
        if (lanesHeight > 0)
            collapseUntilDeviceInSight(model, lanesHeight, collapsed);
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
