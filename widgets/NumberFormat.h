#pragma once

#include <QString>

namespace at {

// A metric or counter value as people read it: plain digits with the locale's thousands separators, at
// most three decimals (trailing zeros dropped), never an exponent ("3,238,200", not "3.2382e+06"), and
// its unit after a space ("us" reads "µs"; "%" sticks to the number).
QString formatNumber(double value, const QString &unit = {});

} // namespace at
