#include "TimelineView.h"

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

} // namespace

QSet<int> TimelineView::initiallyCollapsed(const TraceModel &model)
{
    // With several ranks every rank's Python call stack (~30 rows each) would push the device lanes
    // out of sight: they start collapsed, showing their busy preview.
    QSet<int> collapsed;
    if (model.groups().size() < 2)
        return collapsed;
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
