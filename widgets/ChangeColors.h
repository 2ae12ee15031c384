#pragma once

#include "StepComparison.h"

#include <QColor>

namespace at {

// Duration change as a colour: green (2× faster or more) → neutral → red (2× slower or more), on a
// log2 scale so that ×2 and ×½ are equally strong. Kernels without a partner are grey.
QColor durationChangeColor(TimeNs base, TimeNs comparison);
QColor durationChangeColor(const KernelPair &pair);
QColor unmatchedKernelColor();
// Colour of log2(ratio) in [-1, 1] (the legend's scale).
QColor durationChangeScale(double log2Ratio);

} // namespace at
