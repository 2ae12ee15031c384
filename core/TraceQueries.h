#pragma once

#include "TraceModel.h"

#include <QString>

#include <optional>
#include <vector>

namespace at {

// Aggregate of the slices of one name (range statistics and the top-N summary).
struct NameStatistics
{
    StringId name = 0;
    std::size_t count = 0;
    TimeNs total = 0;   // whole durations of the slices that overlap the range
    TimeNs inRange = 0; // the part of those durations inside the range (what the range spent)
    TimeNs self = 0;
    TimeNs minimum = 0;
    TimeNs maximum = 0;
    TimeNs average() const { return count ? total / static_cast<TimeNs>(count) : 0; }
};

// Ranks aligned on a collective (docs/CLUSTER.md): a timeline draws group g's slices at model time +
// offsets[g], so a range selected on it is on the reference clock. The range queries below take these
// offsets (one per group; an empty or short list means 0 for the groups it lacks) and read each group's
// slices in the range shifted back by the group's offset: what is drawn inside the range.
using GroupOffsets = std::vector<TimeNs>;
TimeNs offsetOfGroup(const GroupOffsets &offsets, int group);
// The source group of a thread (-1 for an index out of range).
int groupOfThread(const TraceModel &model, int thread);
// Model times of one group.
struct GroupTimeRange
{
    TimeNs begin = 0;
    TimeNs end = 0;
};
// What the range [t0, t1] on the reference clock covers of group's own times: [t0 − offset, t1 − offset]
// (saturating at the int64 ends). With a zero offset: [t0, t1].
GroupTimeRange groupTimeRange(TimeNs t0, TimeNs t1, const GroupOffsets &offsets, int group);
// A slice's start on the reference clock (model start + its group's offset, saturating).
TimeNs drawnStart(const TraceModel &model, SliceRef ref, const GroupOffsets &offsets);

// Slices overlapping [t0, t1] on every thread, aggregated by name, largest total first.
// With includeSelf the self time of every slice is computed too (costs a child scan per slice).
// threads restricts it to those indices into TraceModel::threads() (a range on chosen lanes); empty = all.
// offsets: [t0, t1] is on the reference clock of ranks aligned with these offsets (see above).
std::vector<NameStatistics> statisticsInRange(const TraceModel &model, TimeNs t0, TimeNs t1,
                                              bool includeSelf = true, const std::vector<int> &threads = {},
                                              const GroupOffsets &offsets = {});

// The slice that starts at ts and lasts dur (model times), on `thread` or on any thread: the first in slice
// id order (thread, then depth, then start), found through each depth's sorted starts; invalid when none.
SliceRef sliceStartingAt(const TraceModel &model, TimeNs ts, TimeNs dur, std::optional<int> thread = {});

// The slices overlapping [t0, t1] on the given threads (empty = all), ordered by start time (on the
// reference clock), then thread and depth: the slice list of a range selection. At most limit of them (the
// earliest). offsets as for statisticsInRange.
std::vector<SliceRef> slicesInRange(const TraceModel &model, TimeNs t0, TimeNs t1,
                                    const std::vector<int> &threads = {}, std::size_t limit = SIZE_MAX,
                                    const GroupOffsets &offsets = {});

struct SearchOptions
{
    bool caseSensitive = false;
    GroupOffsets offsets = {}; // order the matches as drawn by a timeline with these rank offsets
};

// All slices whose name contains text, ordered by start time (then thread).
std::vector<SliceRef> searchSlices(const TraceModel &model, const QString &text,
                                   const SearchOptions &options = {});
// Orders slices by drawnStart (then thread and index): Find's order on a timeline with rank offsets.
void sortByDrawnStart(const TraceModel &model, std::vector<SliceRef> &slices, const GroupOffsets &offsets);

// What `--summary` prints and the GUI shows: same data, one code path.
struct TraceSummary
{
    struct Thread
    {
        QString name;
        std::size_t slices = 0;
        int depth = 0;
    };
    struct Process
    {
        QString name;
        QString layer;
        QString pid;
        std::vector<Thread> threads;
        std::size_t counterSeries = 0;
        std::size_t counterSamples = 0;
    };
    struct Group
    {
        QString label;
        QString layout;
        QString path;
        QStringList timelineFiles;
        QStringList summaryFiles;
        std::size_t kernels = 0;
        std::size_t kernelsJoined = 0;
        QString metricGroup;
    };
    std::vector<Group> groups;
    std::vector<Process> processes;
    EventCounts counts;
    std::size_t slices = 0;
    std::size_t flows = 0;
    TimeNs origin = 0;
    TimeNs span = 0;
    std::vector<NameStatistics> topNames; // by total duration
    QStringList warnings;
};

TraceSummary summarize(const TraceModel &model, int topCount = 10);
QString formatSummaryText(const TraceModel &model, const TraceSummary &summary);
QByteArray formatSummaryJson(const TraceModel &model, const TraceSummary &summary);

// The joined per-kernel metric table as CSV (one row per kernel, metric columns with units); the
// command line's --metrics and the Kernels panel's export use it.
QByteArray formatKernelTableCsv(const TraceModel &model);

// The same table with the column names of kernel_details.csv (FORMATS.md §3.3: Step Id, Task ID, Stream ID,
// Name, Type, Accelerator Core, Start Time(us), ...) and a leading Source column, as RFC 4180 CSV (CRLF line
// ends). `--export-csv DIR PATH` writes it as DIR/kernel_details.csv.
QByteArray formatKernelDetailsCsv(const TraceModel &model);

// One CSV field: quoted (with doubled quotes) when it holds a comma, quote, CR or LF.
QString csvField(QString text);

} // namespace at
