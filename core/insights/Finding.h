#pragma once

#include "TraceModel.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include <vector>

namespace at {

enum class Severity
{
    High,
    Medium,
    Low
};

// "high", "medium", "low": the ids of --advise --json.
QString severityId(Severity severity);

// The part of a rank's step a finding explains: the split of step_trace_time.csv (FORMATS.md §9.2),
// plus memory (a finding about memory explains no time of the step). Unknown: not yet attributed.
enum class StepPart
{
    Computing,
    CommunicationNotOverlapped,
    Free,
    Memory,
    Unknown
};

// "computing", "communication_not_overlapped", "free", "memory", "unknown": the ids of --advise --json
// and --overview --json.
QString stepPartId(StepPart part);

// One place where a problem shows: the slice to select (invalid when there is none, e.g. a counter
// sample) and what the user reads in the list. start/duration may be an idle gap before the slice.
struct FindingOccurrence
{
    SliceRef slice;
    int group = 0; // source group (rank) of the occurrence
    QString name;
    TimeNs start = 0; // relative to the model origin
    TimeNs duration = 0;
    int rank = -1; // the rank when the occurrence comes from cluster data with no group of the model
    // Cluster findings: the ranks to open together on one timeline (the cluster page's double-click) and
    // the op to show on them; empty for the other checks.
    std::vector<int> ranks{};
    QString op{};
};

// One performance problem found by a check (InsightChecks.h). Texts are translated when a translator
// is installed (the GUI); the command line prints them in English.
struct Finding
{
    QString check; // stable id, documented in docs/INSIGHTS.md
    QString title;
    Severity severity = Severity::Low;
    TimeNs timeAtStake = 0;                     // estimated time the problem costs (ns)
    double stepPercent = 0;                     // timeAtStake as % of the profiled step time, 0 when unknown
    QString explanation;                        // what was seen, one paragraph
    QString fix;                                // the concrete change to make
    std::vector<FindingOccurrence> occurrences; // most costly first
    QJsonObject data;                           // the check's own numbers (counts, ratios, thresholds)

    // What the finding explains (issue #28 item 2): the part of the step, on which rank (source group;
    // -1 when the finding is about no single rank), and the denominators of its shares: that rank's
    // part and step time summed over the same steps the finding counts. 0 when unknown.
    // runInsightChecks() fills them (core/insights/InsightAttribution.cpp, docs/INSIGHTS.md "What a
    // finding explains"): every check counts the rank's whole profile, so the sums are over all of the
    // rank's steps (InsightContext::ranks); timeAtStake <= partTime whenever the rank's parts are known,
    // and the findings of one rank and part never sum to more than partTime. A -1 rank's denominators
    // are the sums over all ranks.
    StepPart part = StepPart::Unknown;
    int rank = -1;
    TimeNs partTime = 0;
    TimeNs stepTime = 0;
    double shareOfPart() const { return partTime > 0 ? double(timeAtStake) / double(partTime) : 0.0; }
    double shareOfStep() const { return stepTime > 0 ? double(timeAtStake) / double(stepTime) : 0.0; }

    // The time the check measured, piece by piece: the source group, the interval [begin, end) of the
    // model's time axis and the ns of it claimed (<= end - begin). runInsightChecks() splits a finding
    // per rank by its pieces and counts each interval of a rank's part once, by the precedence of
    // docs/INSIGHTS.md; a finding without pieces is only held to its part's remaining size. Not printed.
    struct Piece
    {
        int group = 0;
        TimeNs begin = 0, end = 0, time = 0;
    };
    std::vector<Piece> pieces;
};

// The translation context of every finding text ("Insights"), as lupdate sees it.
struct InsightText
{
    Q_DECLARE_TR_FUNCTIONS(Insights)
};

} // namespace at
