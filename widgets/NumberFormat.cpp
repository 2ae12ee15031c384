#include "NumberFormat.h"

#include <QLocale>

#include <array>
#include <cmath>
#include <cstdint>

namespace at {

namespace {

// The locale of the window, with thousands separators on (QLocale::c() omits them by default).
QLocale displayLocale()
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

QString withSymbol(const QString &number, const QString &symbol)
{
    if (symbol.isEmpty())
        return number;
    return symbol == QLatin1String("%") ? number + symbol : number + QLatin1Char(' ') + symbol;
}

struct ScaleStep
{
    const char *symbol;
    double basePerUnit;
    int decimals;
};

constexpr std::array<ScaleStep, 4> kDurationSteps{
    {{"ns", 1, 0}, {"µs", 1e3, 3}, {"ms", 1e6, 3}, {"s", 1e9, 3}}};
constexpr std::array<ScaleStep, 5> kByteSteps{{{"B", 1, 0},
                                               {"KB", 1024.0, 2},
                                               {"MB", 1024.0 * 1024, 2},
                                               {"GB", 1024.0 * 1024 * 1024, 2},
                                               {"TB", 1024.0 * 1024 * 1024 * 1024, 2}}};

// The smallest step in which `largest` still reads below `limit` once rounded to the step's decimals, so
// 999,999,999 ns reads "1.000 s" and not "1,000.000 ms".
template <std::size_t N>
DisplayUnit pickStep(const std::array<ScaleStep, N> &steps, Quantity quantity, double largest, double limit)
{
    const double a = std::fabs(largest);
    std::size_t chosen = 0;
    for (std::size_t i = 0; i < N; ++i) {
        chosen = i;
        const double half = 0.5 * std::pow(10.0, -steps[i].decimals);
        if (a / steps[i].basePerUnit < limit - half)
            break;
    }
    const ScaleStep &s = steps[chosen];
    return {quantity, QString::fromUtf8(s.symbol), s.basePerUnit, s.decimals};
}

constexpr std::uint64_t pow10u(int n)
{
    std::uint64_t p = 1;
    for (int i = 0; i < n; ++i)
        p *= 10;
    return p;
}

int decimalExponent(double basePerUnit)
{
    int k = 0;
    for (double p = 1; p < basePerUnit && k < 18; p *= 10)
        ++k;
    return k;
}

// `ns` in a unit of 10^k ns with `decimals` digits, rounded half away from zero in integers only, so that
// an epoch timestamp of 1.7e18 ns keeps every digit.
QString exactDecimal(TimeNs ns, int k, int decimals)
{
    const bool negative = ns < 0;
    std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    int shownDecimals = decimals;
    if (decimals < k) {
        const std::uint64_t step = pow10u(k - decimals);
        const std::uint64_t rest = magnitude % step;
        magnitude = magnitude / step + (rest >= step - rest ? 1 : 0);
    } else {
        shownDecimals = k; // more decimals than the unit has ns digits: padded with zeros below
    }
    const std::uint64_t scale = pow10u(shownDecimals);
    const std::uint64_t integer = magnitude / scale;
    const std::uint64_t fraction = magnitude % scale;
    const QLocale locale = displayLocale();
    QString text;
    if (negative && magnitude != 0)
        text += locale.negativeSign();
    text += locale.toString(static_cast<qulonglong>(integer));
    if (decimals > 0) {
        QString digits = QString::number(fraction).rightJustified(shownDecimals, QLatin1Char('0'));
        digits = digits.leftJustified(decimals, QLatin1Char('0'));
        text += locale.decimalPoint() + digits;
    }
    return text;
}

// A double with `decimals` fixed digits; "-0.00" reads "0.00".
QString fixedDecimal(double value, int decimals)
{
    const QLocale locale = displayLocale();
    QString text = locale.toString(value, 'f', decimals);
    if (text.startsWith(locale.negativeSign()) &&
        locale.toDouble(text.mid(locale.negativeSign().size())) == 0)
        text.remove(0, locale.negativeSign().size());
    return text;
}

// At most `decimals` digits, trailing zeros dropped.
QString trimmedDecimal(double value, int decimals)
{
    const QLocale locale = displayLocale();
    QString text = fixedDecimal(value, decimals);
    if (decimals > 0 && text.contains(locale.decimalPoint())) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(locale.decimalPoint()))
            text.chop(locale.decimalPoint().size());
    }
    if (text == locale.negativeSign() + QLatin1Char('0'))
        text = QStringLiteral("0");
    return text;
}

QString plainSymbol(const QString &rawUnit)
{
    return rawUnit == QLatin1String("us") ? QStringLiteral("µs") : rawUnit;
}

TimeNs toNs(double value)
{
    constexpr double kLimit = 9.2e18;
    return static_cast<TimeNs>(std::llround(std::clamp(value, -kLimit, kLimit)));
}

} // namespace

DisplayUnit durationUnitFor(TimeNs largestAbsNs)
{
    return pickStep(kDurationSteps, Quantity::Duration, static_cast<double>(largestAbsNs), 1000.0);
}

DisplayUnit timePointUnitFor(TimeNs largestAbsNs)
{
    DisplayUnit unit = durationUnitFor(largestAbsNs);
    // At least µs resolution: s has 6 decimals, the others keep their 3 (or 0 for ns).
    if (unit.basePerUnit >= 1e9)
        unit.decimals = 6;
    return unit;
}

DisplayUnit bytesUnitFor(double largestAbsBytes)
{
    return pickStep(kByteSteps, Quantity::Bytes, largestAbsBytes, 1024.0);
}

RawUnit rawUnitOf(const QString &rawUnit)
{
    const QString u = rawUnit.trimmed();
    if (u == QLatin1String("ns"))
        return {Quantity::Duration, 1};
    if (u == QLatin1String("us") || u == QStringLiteral("µs") || u == QStringLiteral("μs"))
        return {Quantity::Duration, 1e3};
    if (u == QLatin1String("ms"))
        return {Quantity::Duration, 1e6};
    if (u == QLatin1String("s"))
        return {Quantity::Duration, 1e9};
    const QString lower = u.toLower();
    if (lower == QLatin1String("b") || lower == QLatin1String("byte") || lower == QLatin1String("bytes"))
        return {Quantity::Bytes, 1};
    for (const ScaleStep &s : kByteSteps)
        if (lower == QString::fromUtf8(s.symbol).toLower())
            return {Quantity::Bytes, s.basePerUnit};
    return {Quantity::Plain, 1};
}

DisplayUnit columnUnitFor(const QString &rawUnit, double largestAbsRaw)
{
    const RawUnit raw = rawUnitOf(rawUnit);
    const double largest = std::isfinite(largestAbsRaw) ? std::fabs(largestAbsRaw) * raw.toBase : 0.0;
    switch (raw.quantity) {
    case Quantity::Duration:
        return durationUnitFor(toNs(largest));
    case Quantity::Bytes:
        return bytesUnitFor(largest);
    case Quantity::Plain:
        break;
    }
    return {Quantity::Plain, plainSymbol(rawUnit.trimmed()), 1, 3};
}

QString formatDurationNs(TimeNs ns, const DisplayUnit &unit)
{
    return withSymbol(exactDecimal(ns, decimalExponent(unit.basePerUnit), unit.decimals), unit.symbol);
}

QString formatDurationNs(TimeNs ns)
{
    return formatDurationNs(ns, durationUnitFor(ns == INT64_MIN ? INT64_MAX : std::abs(ns)));
}

QString formatTimePointNs(TimeNs ns, const DisplayUnit &unit)
{
    return formatDurationNs(ns, unit);
}

QString formatTimePointNs(TimeNs ns)
{
    return formatDurationNs(ns, timePointUnitFor(ns == INT64_MIN ? INT64_MAX : std::abs(ns)));
}

QString formatBytes(double bytes, const DisplayUnit &unit)
{
    if (std::isnan(bytes))
        return {};
    return withSymbol(fixedDecimal(bytes / unit.basePerUnit, unit.decimals), unit.symbol);
}

QString formatBytes(double bytes)
{
    return formatBytes(bytes, bytesUnitFor(bytes));
}

QString formatInUnit(double raw, const QString &rawUnit, const DisplayUnit &unit)
{
    if (std::isnan(raw))
        return {};
    const RawUnit r = rawUnitOf(rawUnit);
    switch (unit.quantity) {
    case Quantity::Duration:
        return formatDurationNs(toNs(raw * r.toBase), unit);
    case Quantity::Bytes:
        return formatBytes(raw * r.toBase, unit);
    case Quantity::Plain:
        break;
    }
    return withSymbol(trimmedDecimal(raw, unit.decimals), unit.symbol);
}

QString formatNumber(double value, const QString &unit)
{
    if (std::isnan(value))
        return {};
    return formatInUnit(value, unit, columnUnitFor(unit, value));
}

QString formatCount(qint64 count)
{
    return displayLocale().toString(count);
}

QString formatPercent(double percent, int decimals)
{
    if (std::isnan(percent))
        return {};
    return fixedDecimal(percent, decimals) + QLatin1Char('%');
}

QString titleWithUnit(const QString &title, const DisplayUnit &unit)
{
    return unit.symbol.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, unit.symbol);
}

} // namespace at
