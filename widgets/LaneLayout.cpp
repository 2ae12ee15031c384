#include "LaneLayout.h"

#include <algorithm>

namespace at {

bool LaneLayout::showsGroups(const TraceModel *model)
{
    return model && (model->groups().size() > 1 ||
                     (model->groups().size() == 1 && !model->groups().front().label.isEmpty()));
}

void LaneLayout::rebuild(const TraceModel *model, const QSet<int> &collapsedProcesses,
                         const QSet<int> &collapsedGroups, const LaneVisibility &visibility)
{
    m_rows.clear();
    m_rowOfThread.clear();
    m_headerOfProcess.clear();
    m_totalHeight = 0;
    if (!model)
        return;
    m_rowOfThread.assign(model->threads().size(), -1);
    m_headerOfProcess.assign(model->processes().size(), -1);
    int y = 0;
    auto add = [&](LaneRow::Kind kind, int process, int index, int height) {
        m_rows.push_back({kind, process, index, y, height});
        y += height;
        return static_cast<int>(m_rows.size()) - 1;
    };
    // Pinned processes first (in pin order), then the rest in the model's order.
    std::vector<int> order;
    for (int p : visibility.pinnedProcesses)
        if (p >= 0 && static_cast<std::size_t>(p) < model->processes().size() &&
            std::find(order.begin(), order.end(), p) == order.end())
            order.push_back(p);
    const std::size_t pinnedCount = order.size();
    std::vector<int> rest;
    for (int p : visibility.processOrder)
        if (p >= 0 && static_cast<std::size_t>(p) < model->processes().size())
            rest.push_back(p);
    for (int p : model->processOrder())
        if (std::find(rest.begin(), rest.end(), p) == rest.end())
            rest.push_back(p);
    // A group's header is emitted where its first process is: keep each group's processes together,
    // in the group order of the model.
    std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
        return model->processes()[static_cast<std::size_t>(a)].group <
               model->processes()[static_cast<std::size_t>(b)].group;
    });
    for (int p : rest)
        if (std::find(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(pinnedCount), p) ==
            order.begin() + static_cast<std::ptrdiff_t>(pinnedCount))
            order.push_back(p);

    const bool groups = showsGroups(model);
    int currentGroup = -1;
    bool groupCollapsed = false;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const int p = order[k];
        const bool pinned = k < pinnedCount;
        if (visibility.hiddenProcesses.contains(p))
            continue;
        const ProcessInfo &info = model->processes()[static_cast<std::size_t>(p)];
        if (!pinned && groups && info.group != currentGroup) {
            currentGroup = info.group;
            groupCollapsed = collapsedGroups.contains(currentGroup);
            add(LaneRow::Kind::GroupHeader, currentGroup, -1, kGroupHeaderHeight);
        }
        if (!pinned && groupCollapsed) {
            for (int t : info.threads)
                m_rowOfThread[static_cast<std::size_t>(t)] = static_cast<int>(m_rows.size()) - 1;
            continue;
        }
        const bool collapsed = collapsedProcesses.contains(p);
        const bool preview = collapsed && std::any_of(info.threads.begin(), info.threads.end(), [&](int t) {
                                 return model->threads()[static_cast<std::size_t>(t)].slices.depthCount() > 0;
                             });
        const int header = add(LaneRow::Kind::ProcessHeader, p, -1,
                               preview ? kHeaderHeight + kPreviewHeight : kHeaderHeight);
        m_headerOfProcess[static_cast<std::size_t>(p)] = header;
        for (int t : info.threads) {
            const int depth = model->threads()[static_cast<std::size_t>(t)].slices.depthCount();
            if (collapsed) {
                m_rowOfThread[static_cast<std::size_t>(t)] = header;
                continue;
            }
            if (depth == 0 || visibility.hiddenThreads.contains(t))
                continue; // threads that only carry flow halves or metadata, or hidden by the user
            m_rowOfThread[static_cast<std::size_t>(t)] =
                add(LaneRow::Kind::Thread, p, t, 2 * kTrackPadding + depth * kSliceHeight);
        }
        if (collapsed)
            continue;
        std::vector<int> zero;
        for (int c : info.counters) {
            const CounterSeries &series = model->counters()[static_cast<std::size_t>(c)];
            if (series.minValue == 0 && series.maxValue == 0)
                zero.push_back(c);
            else
                add(LaneRow::Kind::Counter, p, c, kCounterHeight);
        }
        if (zero.empty())
            continue;
        add(LaneRow::Kind::ZeroCounters, p, static_cast<int>(zero.size()), kZeroCountersHeight);
        if (visibility.zeroCountersShown.contains(p))
            for (int c : zero)
                add(LaneRow::Kind::Counter, p, c, kCounterHeight);
    }
    m_totalHeight = y;
}

int LaneLayout::rowAt(int y) const
{
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y,
                               [](int value, const LaneRow &row) { return value < row.y; });
    if (it == m_rows.begin())
        return -1;
    --it;
    return y < it->y + it->height ? static_cast<int>(it - m_rows.begin()) : -1;
}

int LaneLayout::rowOfThread(int thread) const
{
    if (thread < 0 || static_cast<std::size_t>(thread) >= m_rowOfThread.size())
        return -1;
    return m_rowOfThread[static_cast<std::size_t>(thread)];
}

LaneLayout::Headers LaneLayout::headersOf(int row) const
{
    Headers h;
    if (row < 0 || static_cast<std::size_t>(row) >= m_rows.size())
        return h;
    for (int k = row; k >= 0; --k) {
        const LaneRow &r = m_rows[static_cast<std::size_t>(k)];
        if (r.kind == LaneRow::Kind::GroupHeader) {
            h.group = k;
            break;
        }
        if (h.process < 0 && r.kind == LaneRow::Kind::ProcessHeader)
            h.process = k;
    }
    // Pinned processes come before every group header, so they find none; a group's processes are
    // emitted together after its header.
    return h;
}

int LaneLayout::headerRowOfProcess(int process) const
{
    if (process < 0 || static_cast<std::size_t>(process) >= m_headerOfProcess.size())
        return -1;
    return m_headerOfProcess[static_cast<std::size_t>(process)];
}

} // namespace at
