#include "TimeAxis.h"

namespace at {

TimeNs rulerStep(const TimeAxis &axis, double minPixels)
{
    const double minNs = axis.nsPerPixel() * minPixels;
    TimeNs step = 1;
    while (true) {
        for (TimeNs m : {1, 2, 5}) {
            if (static_cast<double>(step * m) >= minNs)
                return step * m;
        }
        if (step > std::numeric_limits<TimeNs>::max() / 100)
            return step;
        step *= 10;
    }
}

} // namespace at
