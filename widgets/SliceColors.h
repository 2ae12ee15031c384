#pragma once

#include "StringPool.h"

#include <QColor>

#include <vector>

namespace at {

// A stable colour per slice name: the same name gets the same colour in every run and view.
class SliceColors
{
public:
    QColor colorFor(const StringPool &strings, StringId name);
    void clear() { m_cache.clear(); }
    static QColor colorForText(std::string_view text);

private:
    std::vector<QRgb> m_cache; // 0 = not computed yet
};

} // namespace at
