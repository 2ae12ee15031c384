#pragma once

#include "TimeAxis.h"

#include <QElapsedTimer>
#include <QObject>

#include <vector>

namespace at {

// Owns the visible time range and its history (Backspace undoes the last zoom), in the manner of
// hotspot's FilterAndZoomStack: views and panels listen to it instead of to each other.
class ZoomController : public QObject
{
    Q_OBJECT
public:
    // w/s change the visible width by this factor; a/d pan by kPanFraction of the width.
    static constexpr double kZoomStep = 1.25;
    static constexpr double kPanFraction = 0.1;
    static constexpr TimeNs kMinimumWidth = 20; // ns

    explicit ZoomController(QObject *parent = nullptr);

    // The span "show everything" fits (data without outliers).
    void setDataRange(TimeRange range);
    TimeRange dataRange() const { return m_data; }
    TimeRange range() const { return m_range; }

    // Zooms by factor (>1 zooms in) keeping 'anchor' at the same screen position.
    void zoom(double factor, TimeNs anchor);
    void zoomIn(TimeNs anchor) { zoom(kZoomStep, anchor); }
    void zoomOut(TimeNs anchor) { zoom(1.0 / kZoomStep, anchor); }
    // Pans by a fraction of the visible width (negative = left).
    void pan(double fraction);
    void panBy(TimeNs delta);
    void showAll();
    // Shows [start, end] with a small margin on both sides.
    void fit(TimeRange range);
    void setRange(TimeRange range, bool recordHistory);
    bool canUndo() const { return !m_history.empty(); }
    void undo();

Q_SIGNALS:
    void rangeChanged(at::TimeRange range);

private:
    TimeRange clamp(TimeRange range) const;
    void apply(TimeRange range, bool recordHistory, bool isStep);
    void remember(bool isStep);

    TimeRange m_data{0, 1};
    TimeRange m_range{0, 1};
    std::vector<TimeRange> m_history;
    QElapsedTimer m_lastStep; // valid while a burst of zoom steps is being coalesced
};

} // namespace at
