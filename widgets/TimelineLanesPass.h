#pragma once

#include "SliceTrackPainter.h"
#include "TimelineRenderPass.h"

#include <QCoreApplication>

namespace at {

// The lanes in the viewport, top to bottom: rank group headers, process headers, thread rows (through
// SliceTrackPainter), counter rows and the row standing for a process's all-zero series. Only rows that
// intersect the viewport are painted. A collapsed process shows a busy preview under its title; the
// rank and process headers of the lanes at the top stay in sight (sticky) while scrolled into them.
class TimelineLanesPass : public TimelineRenderPass
{
    Q_DECLARE_TR_FUNCTIONS(at::TimelineView)
public:
    Clip clip() const override { return Clip::Lanes; }
    void paint(QPainter &p, const TimelinePaintContext &c) override;
    const SliceTrackPainter &slices() const { return m_slices; }
    // What a rank header says about its source, in the user's words: "torch_npu profiler export",
    // "msprof export (CANN ≥ 7.0), database msprof_0.db", "raw data". The group's layout text keeps the
    // internal code (G1–G4, FORMATS.md §1) for --summary; the header never shows it.
    static QString sourceKindText(const SourceGroup &group);

private:
    static void paintGroupHeader(QPainter &p, const TimelinePaintContext &c, const LaneRow &row, int y);
    static void paintProcessHeader(QPainter &p, const TimelinePaintContext &c, const LaneRow &row, int y);
    static void paintCounter(QPainter &p, const TimelinePaintContext &c, const LaneRow &row, int y);
    // A collapsed process's busy time as one band (its header's lower part).
    static void paintBusyPreview(QPainter &p, const TimelinePaintContext &c, int process, const QRect &band);
    // The rank and process headers of the lanes at the top, kept in sight while scrolled into them.
    void paintSticky(QPainter &p, const TimelinePaintContext &c);
    // One row, with its rank's time offset (a rank aligned on a collective) applied to the axis.
    void paintRow(QPainter &p, const TimelinePaintContext &context, const LaneRow &row, int y,
                  const QRect &lanesClip);
    static void paintZeroCounters(QPainter &p, const TimelinePaintContext &c, const LaneRow &row, int y);

    SliceTrackPainter m_slices;
};

} // namespace at
