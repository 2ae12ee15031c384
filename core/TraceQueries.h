#pragma once

#include "TraceModel.h"

#include <QString>

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

// Slices overlapping [t0, t1] on every thread, aggregated by name, largest total first.
// With includeSelf the self time of every slice is computed too (costs a child scan per slice).
// threads restricts it to those indices into TraceModel::threads() (a range on chosen lanes); empty = all.
std::vector<NameStatistics> statisticsInRange(const TraceModel &model, TimeNs t0, TimeNs t1,
                                              bool includeSelf = true, const std::vector<int> &threads = {});

// The slices overlapping [t0, t1] on the given threads (empty = all), ordered by start time, then thread
// and depth: the slice list of a range selection. At most limit of them (the earliest).
std::vector<SliceRef> slicesInRange(const TraceModel &model, TimeNs t0, TimeNs t1,
                                    const std::vector<int> &threads = {}, std::size_t limit = SIZE_MAX);

struct SearchOptions
{
    bool caseSensitive = false;
};

// All slices whose name contains text, ordered by start time (then thread).
std::vector<SliceRef> searchSlices(const TraceModel &model, const QString &text,
                                   const SearchOptions &options = {});

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
