#pragma once

#include "NumberFormat.h"
#include "Time.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace at {

// The accumulated-delta curve of a diff by framework op: x = the base time of each matched op from the
// step start, y = the running sum of (comparison − base) device time up to it, so a rising stretch is
// where the comparison falls behind. Drawn with QPainter: 1-2-5 ticks (ChartScale) with their units
// (NumberFormat), a zero line, the selected op's time as a dashed line. A click asks for the op at that time.
class OpDiffCurve : public QWidget
{
    Q_OBJECT
public:
    struct Point
    {
        TimeNs time = 0;  // base time from the step start
        TimeNs delta = 0; // accumulated delta up to and including this op
    };

    explicit OpDiffCurve(QWidget *parent = nullptr);

    // points sorted by time; span = the base step's duration (the x axis's extent).
    void setCurve(std::vector<Point> points, TimeNs span);
    void setMarkedTime(std::optional<TimeNs> time);
    const std::vector<Point> &points() const { return m_points; }
    std::optional<TimeNs> markedTime() const { return m_marked; }
    // The plot's rectangle inside the widget (after the axes' labels and titles).
    QRect plotRect() const;
    // The tick labels of an axis as drawn (Qt::Horizontal: time from the step start; Vertical: the delta).
    QStringList tickLabels(Qt::Orientation axis) const;
    // The time at a widget x (clamped to the axis).
    TimeNs timeAt(int x) const;

    QSize sizeHint() const override { return {600, 220}; }
    QSize minimumSizeHint() const override { return {320, 160}; }

Q_SIGNALS:
    void timeClicked(at::TimeNs time);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Scale
    {
        double min = 0, max = 1, step = 1; // in ns
        int decimals = 0;
    };
    Scale xScale() const;
    Scale yScale() const;
    DisplayUnit yUnit() const; // the unit of the largest |delta| (µs for a flat curve)

    std::vector<Point> m_points;
    TimeNs m_span = 0;
    std::optional<TimeNs> m_marked;
};

} // namespace at
