#include "ExactText.h"

#include <QLocale>

#include <cstdint>

namespace at {

QString microsText(TimeNs ns, MicrosDecimals decimals)
{
    // One QString made of the characters: called once per number of every JSON document (4 M times for
    // 400,000 steps, issue 29 item 7).
    std::array<char, 32> buffer;
    const std::string_view text = microsChars(ns, buffer, decimals);
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}

std::string_view microsChars(TimeNs ns, std::array<char, 32> &buffer, MicrosDecimals decimals)
{
    // Digits written backwards into the buffer.
    const bool negative = ns < 0;
    // The magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64.
    std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    char *const end = buffer.data() + buffer.size();
    char *first = end;
    std::uint64_t fraction = magnitude % 1000;
    magnitude /= 1000;
    int fractionDigits = 3;
    if (decimals == MicrosDecimals::Trimmed)
        for (; fractionDigits > 0 && fraction % 10 == 0; --fractionDigits)
            fraction /= 10;
    for (int i = 0; i < fractionDigits; ++i, fraction /= 10)
        *--first = static_cast<char>('0' + fraction % 10);
    if (fractionDigits > 0)
        *--first = '.';
    do {
        *--first = static_cast<char>('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (negative)
        *--first = '-';
    return {first, static_cast<std::size_t>(end - first)};
}

namespace {

constexpr std::uint64_t pow10u(int n)
{
    std::uint64_t p = 1;
    for (int i = 0; i < n; ++i)
        p *= 10;
    return p;
}

// magnitude / 10^drop, rounded half away from zero.
std::uint64_t roundedShift(std::uint64_t magnitude, int drop)
{
    if (drop <= 0)
        return magnitude;
    const std::uint64_t step = pow10u(drop);
    const std::uint64_t rest = magnitude % step;
    return magnitude / step + (rest >= step - rest ? 1 : 0);
}

} // namespace

QString durationText(TimeNs ns)
{
    struct Unit
    {
        const char *symbol;
        int exponent; // the unit is 10^exponent ns
        int decimals;
    };
    static constexpr Unit kUnits[] = {{"ns", 0, 0}, {"µs", 3, 3}, {"ms", 6, 3}, {"s", 9, 3}};
    const bool negative = ns < 0;
    const std::uint64_t magnitude =
        negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    // The smallest unit in which the value, rounded to the unit's decimals, reads below 1,000.
    const Unit *unit = &kUnits[0];
    std::uint64_t shown = magnitude; // in 10^-decimals of the unit
    for (const Unit &u : kUnits) {
        unit = &u;
        shown = roundedShift(magnitude, u.exponent - u.decimals);
        if (shown < 1000 * pow10u(u.decimals))
            break;
    }
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    const std::uint64_t scale = pow10u(unit->decimals);
    QString text;
    if (negative && shown != 0)
        text += locale.negativeSign();
    text += locale.toString(static_cast<qulonglong>(shown / scale));
    if (unit->decimals > 0)
        text += locale.decimalPoint() +
                QString::number(shown % scale).rightJustified(unit->decimals, QLatin1Char('0'));
    return text + QLatin1Char(' ') + QString::fromUtf8(unit->symbol);
}

} // namespace at
