#pragma once

#include "MetricColoring.h"
#include "Session.h"
#include "SliceColors.h"
#include "TraceModel.h"

#include <QColor>
#include <QHash>
#include <QRegularExpression>

#include <functional>
#include <optional>
#include <vector>

namespace at {

// Which colour a slice is drawn in: an override (the compare view's duration change), then the user's
// colour rules (first match wins), then the metric colouring, then the name's colour. Caches per
// interned name, so a zoomed-out frame that asks per pixel column stays cheap.
class TimelineColors
{
public:
    using Override = std::function<std::optional<QColor>(SliceRef)>;

    void setModel(const TraceModel *model);
    void setOverride(Override colorOverride) { m_override = std::move(colorOverride); }
    void setRules(const std::vector<ColorRule> &rules);
    const std::vector<ColorRule> &rules() const { return m_rules; }
    MetricColoring &coloring() { return m_coloring; }
    const MetricColoring &coloring() const { return m_coloring; }

    // Whether colours depend on the slice, not only on its name (level-of-detail summaries know names).
    bool perSliceColors() const { return m_override || m_coloring.mode() != MetricColoring::Mode::ByName; }

    QColor sliceColor(SliceRef ref);
    QColor mergedColor(SliceRef ref);    // a column of merged narrow slices
    QColor darkNameColor(StringId name); // nameColor().darker(115), cached
    QColor nameColor(StringId name);     // colour rules, then the name's colour

private:
    std::optional<QColor> ruleColor(StringId name);

    const TraceModel *m_model = nullptr;
    SliceColors m_names;
    MetricColoring m_coloring;
    Override m_override;
    std::vector<ColorRule> m_rules;
    std::vector<QRegularExpression> m_patterns;
    QHash<StringId, std::optional<QColor>> m_ruleColorByName; // cache: names are interned
    std::vector<QRgb> m_darkNameColor;                        // by name id; 0: not computed yet
};

} // namespace at
