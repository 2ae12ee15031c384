#pragma once

#include <QColor>

namespace at::test {

// Perceived brightness (Rec. 709 weights, 0–255): the screenshot tests' measure of dark and light.
inline double luminance(const QColor &c)
{
    return 0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue();
}

} // namespace at::test
