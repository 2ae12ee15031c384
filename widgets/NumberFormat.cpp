#include "NumberFormat.h"

#include <QLocale>

#include <cmath>

namespace at {

QString formatNumber(double value, const QString &unit)
{
    // Plain digits with thousands separators, at most three decimals, never an exponent.
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    QString text = locale.toString(value, 'f', std::abs(value - std::round(value)) < 5e-4 ? 0 : 3);
    if (text.contains(locale.decimalPoint())) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(locale.decimalPoint()))
            text.chop(1);
    }
    if (unit.isEmpty())
        return text;
    const QString shown = unit == QLatin1String("us") ? QStringLiteral("µs") : unit;
    return shown == QLatin1String("%") ? text + shown : QStringLiteral("%1 %2").arg(text, shown);
}

} // namespace at
