// Per-rank time offsets of the timeline (docs/CLUSTER.md "Aligning ranks"): the view draws, hits and frames
// group g's slices at model time + offset[g]; the model keeps its int64 ns.
#include "TimelineView.h"

#include "cluster/RankAlignment.h"

namespace at {

TimeNs TimelineView::groupOffset(int group) const
{
    return group >= 0 && static_cast<std::size_t>(group) < m_groupOffsets.size()
               ? m_groupOffsets[static_cast<std::size_t>(group)]
               : 0;
}

void TimelineView::setGroupOffsets(std::vector<TimeNs> offsets)
{
    if (m_model)
        offsets.resize(m_model->groups().size(), 0);
    if (offsets == m_groupOffsets)
        return;
    m_groupOffsets = std::move(offsets);
    viewport()->update();
    Q_EMIT groupOffsetsChanged();
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
    setGroupOffsets(cluster::alignOnCollective(*m_model, ref, m_groupOffsets, &aligned));
    return aligned;
}

} // namespace at
