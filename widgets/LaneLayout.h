#pragma once

#include "TraceModel.h"

#include <QSet>

#include <vector>

namespace at {

// One horizontal band of the timeline: a process header, a thread track or a counter track.
struct LaneRow
{
    enum class Kind
    {
        GroupHeader, // "Rank 1 / Device 1" when several sources are loaded
        ProcessHeader,
        Thread,
        Counter,
        ZeroCounters // one row standing for a process's all-zero counter series (index: how many)
    };
    Kind kind = Kind::ProcessHeader;
    int process = -1; // for GroupHeader rows: the group index
    int index = -1;   // thread index for Thread rows, counter index for Counter rows
    int y = 0;        // top, in content coordinates (0 = first row, below the ruler)
    int height = 0;
};

// What the user changed about the lanes: hidden processes and threads, and processes pinned to the
// top (in pin order, above every rank group).
struct LaneVisibility
{
    QSet<int> hiddenProcesses;
    QSet<int> hiddenThreads;
    std::vector<int> pinnedProcesses;
    // The user's process order (dragged headers); empty: the model's order. Processes missing from
    // it keep their model position after the listed ones.
    std::vector<int> processOrder;
    // Processes whose all-zero counter series are listed; elsewhere one ZeroCounters row stands for them
    // (Acc PMU writes 112 series per rank, often all zero).
    QSet<int> zeroCountersShown;
};

// Vertical layout of all lanes: pure geometry from the model and the collapsed groups.
class LaneLayout
{
public:
    static constexpr int kHeaderHeight = 22;
    static constexpr int kGroupHeaderHeight = kHeaderHeight + 4; // a rank's header
    static constexpr int kSliceHeight = 18;
    static constexpr int kTrackPadding = 3;
    static constexpr int kCounterHeight = 36;
    static constexpr int kZeroCountersHeight = 20;
    // A collapsed process header has a band below its title showing when its threads are busy.
    static constexpr int kPreviewHeight = 10;

    void rebuild(const TraceModel *model, const QSet<int> &collapsedProcesses,
                 const QSet<int> &collapsedGroups = {}, const LaneVisibility &visibility = {});
    // Whether group header rows are shown (more than one source, or a labelled one).
    static bool showsGroups(const TraceModel *model);

    const std::vector<LaneRow> &rows() const { return m_rows; }
    int totalHeight() const { return m_totalHeight; }
    // Row containing content y, or -1.
    int rowAt(int y) const;
    // Row of a thread track, or of its process header when the group is collapsed; -1 if absent.
    int rowOfThread(int thread) const;
    int headerRowOfProcess(int process) const;
    // The group header and process header rows that row belongs to (-1 where there is none): what a
    // sticky header shows while the lanes are scrolled into them.
    struct Headers
    {
        int group = -1;
        int process = -1;
    };
    Headers headersOf(int row) const;
    // Content y of the top of a slice at depth d in a thread row.
    static int sliceTop(const LaneRow &row, int depth)
    {
        return row.y + kTrackPadding + depth * kSliceHeight;
    }

private:
    std::vector<LaneRow> m_rows;
    std::vector<int> m_rowOfThread;
    std::vector<int> m_headerOfProcess;
    int m_totalHeight = 0;
};

} // namespace at
