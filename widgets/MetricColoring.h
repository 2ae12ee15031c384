#pragma once

#include "TraceModel.h"

#include <QColor>
#include <QString>

#include <optional>
#include <vector>

namespace at {

// Perceptual colour scale (viridis: dark blue → green → yellow) for t in [0, 1].
QColor viridis(double t);

// Colours device kernels by an AI Core metric or by duration percentile instead of by name.
// Slices that are not joined kernels return nullopt (they keep their name colour); joined
// kernels without a value get a neutral grey.
class MetricColoring
{
public:
    enum class Mode
    {
        ByName,
        ByMetric,
        ByDurationPercentile
    };

    void setModel(const TraceModel *model);
    void setByName();
    void setByMetric(int column);
    void setByDurationPercentile();
    Mode mode() const { return m_mode; }
    int metricColumn() const { return m_column; }
    std::optional<QColor> colorFor(std::int32_t thread, std::uint32_t slice) const;
    // Legend text: what is coloured and the value range.
    QString legendTitle() const;
    QString legendMinimum() const;
    QString legendMaximum() const;
    static QColor missingColor() { return QColor(170, 170, 170); }

private:
    const TraceModel *m_model = nullptr;
    Mode m_mode = Mode::ByName;
    int m_column = -1;
    double m_min = 0, m_max = 1;
    std::vector<TimeNs> m_sortedDurations;
};

} // namespace at
