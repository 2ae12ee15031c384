// Per-rank time offsets of the timeline (docs/CLUSTER.md "Aligning ranks"): the view draws, hits and frames
// group g's slices at model time + offset[g]; the model keeps its int64 ns.
#include "TimelineView.h"

#include "cluster/RankAlignment.h"

namespace at {

void TimelineView::setGroupOffsets(std::vector<TimeNs> offsets)
{
    if (m_model)
        offsets.resize(m_model->groups().size(), 0);
    if (offsets == m_state.groupOffsets())
        return;
    viewport()->update();
    m_state.setGroupOffsets(std::move(offsets));
}

bool TimelineView::canAlignOn(SliceRef ref) const
{
    if (!m_model || !ref.isValid() || m_model->groups().size() < 2 ||
        static_cast<std::size_t>(ref.thread) >= m_model->threads().size())
        return false;
    const int process = m_model->threads()[static_cast<std::size_t>(ref.thread)].process;
    return m_model->processes()[static_cast<std::size_t>(process)].layer == Layer::Communication;
}

std::vector<int> TimelineView::alignRanksOn(SliceRef ref)
{
    std::vector<int> aligned;
    if (!m_model || !ref.isValid())
        return aligned;
    setGroupOffsets(cluster::alignOnCollective(*m_model, ref, m_state.groupOffsets(), &aligned));
    return aligned;
}

} // namespace at
