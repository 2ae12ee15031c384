#include "ChangeColors.h"

#include <algorithm>
#include <cmath>

namespace at {

QColor durationChangeScale(double log2Ratio)
{
    const double t = std::clamp(log2Ratio, -1.0, 1.0);
    const QColor neutral(236, 236, 228), slower(214, 39, 40), faster(44, 160, 44);
    const QColor &end = t >= 0 ? slower : faster;
    const double w = std::abs(t);
    return QColor::fromRgbF(static_cast<float>(neutral.redF() + (end.redF() - neutral.redF()) * w),
                            static_cast<float>(neutral.greenF() + (end.greenF() - neutral.greenF()) * w),
                            static_cast<float>(neutral.blueF() + (end.blueF() - neutral.blueF()) * w));
}

QColor unmatchedKernelColor()
{
    return QColor(140, 140, 140);
}

QColor durationChangeColor(TimeNs base, TimeNs comparison)
{
    if (base <= 0 || comparison <= 0)
        return base == comparison ? durationChangeScale(0) : unmatchedKernelColor();
    return durationChangeScale(std::log2(static_cast<double>(comparison) / static_cast<double>(base)));
}

QColor durationChangeColor(const KernelPair &pair)
{
    return pair.matched() ? durationChangeColor(pair.baseDuration, pair.comparisonDuration)
                          : unmatchedKernelColor();
}

} // namespace at
