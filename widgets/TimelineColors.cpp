#include "TimelineColors.h"

namespace at {

void TimelineColors::setModel(const TraceModel *model)
{
    m_model = model;
    m_names.clear();
    m_coloring.setModel(model);
    m_ruleColorByName.clear(); // string ids belong to the old model
    m_darkNameColor.clear();
}

void TimelineColors::setRules(const std::vector<ColorRule> &rules)
{
    m_rules = rules;
    m_patterns.clear();
    for (const ColorRule &r : rules)
        m_patterns.emplace_back(r.pattern);
    m_ruleColorByName.clear();
    m_darkNameColor.clear();
}

std::optional<QColor> TimelineColors::ruleColor(StringId name)
{
    if (m_rules.empty())
        return std::nullopt;
    auto it = m_ruleColorByName.find(name);
    if (it == m_ruleColorByName.end()) {
        std::optional<QColor> color;
        const QString text = m_model->strings().qstring(name);
        for (std::size_t r = 0; r < m_rules.size() && !color; ++r)
            if (m_patterns[r].isValid() && m_patterns[r].match(text).hasMatch())
                color = QColor::fromRgb(m_rules[r].rgb);
        it = m_ruleColorByName.insert(name, color);
    }
    return *it;
}

QColor TimelineColors::darkNameColor(StringId name)
{
    // darker() converts through HSV: cache it, a zoomed-out frame asks for it per column.
    if (m_darkNameColor.size() <= name)
        m_darkNameColor.resize(std::max<std::size_t>(name + 1, m_model->strings().size()), 0);
    QRgb &rgb = m_darkNameColor[name];
    if (rgb == 0)
        rgb = nameColor(name).darker(115).rgba();
    return QColor::fromRgba(rgb);
}

QColor TimelineColors::mergedColor(SliceRef ref)
{
    if (perSliceColors())
        return sliceColor(ref).darker(115);
    return darkNameColor(m_model->threads()[static_cast<std::size_t>(ref.thread)].slices.name(ref.index));
}

QColor TimelineColors::nameColor(StringId name)
{
    if (const auto rule = ruleColor(name))
        return *rule;
    return m_names.colorFor(m_model->strings(), name);
}

QColor TimelineColors::sliceColor(SliceRef ref)
{
    if (m_override)
        if (const auto c = m_override(ref))
            return *c;
    const StringId name = m_model->threads()[static_cast<std::size_t>(ref.thread)].slices.name(ref.index);
    if (const auto rule = ruleColor(name))
        return *rule;
    if (const auto metric = m_coloring.colorFor(ref.thread, ref.index))
        return *metric;
    return m_names.colorFor(m_model->strings(), name);
}

} // namespace at
