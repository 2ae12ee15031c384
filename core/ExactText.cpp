#include "ExactText.h"

#include <cstdint>

namespace at {

QString microsText(TimeNs ns, MicrosDecimals decimals)
{
    const bool negative = ns < 0;
    // The magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64.
    const std::uint64_t magnitude =
        negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    QString text = negative ? QStringLiteral("-") : QString();
    text += QString::number(magnitude / 1000);
    const std::uint64_t fraction = magnitude % 1000;
    if (decimals == MicrosDecimals::Trimmed && fraction == 0)
        return text;
    QString digits = QStringLiteral("%1").arg(fraction, 3, 10, QLatin1Char('0'));
    if (decimals == MicrosDecimals::Trimmed)
        while (digits.endsWith(QLatin1Char('0')))
            digits.chop(1);
    return text + QLatin1Char('.') + digits;
}

} // namespace at
