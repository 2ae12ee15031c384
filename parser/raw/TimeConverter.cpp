#include "TimeConverter.h"

namespace at::raw {

std::optional<Frequency> Frequency::parse(const QString &mhz)
{
    const QString text = mhz.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    Frequency f;
    f.numerator = 0;
    f.denominator = 1;
    bool point = false;
    int digits = 0;
    for (const QChar c : text) {
        if (c == QLatin1Char('.') && !point) {
            point = true;
            continue;
        }
        if (!c.isDigit() || digits >= 17)
            return std::nullopt;
        f.numerator = f.numerator * 10 + c.digitValue();
        if (point)
            f.denominator *= 10;
        ++digits;
    }
    if (digits == 0 || !f.valid())
        return std::nullopt;
    return f;
}

std::int64_t unsignedTicksToNs(std::uint64_t ticks, const Frequency &f)
{
    if (!f.valid())
        return 0;
    // ticks × 1000 / (num / den) = ticks × 1000 × den / num, rounded half up.
    const unsigned __int128 scaled =
        static_cast<unsigned __int128>(ticks) * 1000u * static_cast<unsigned __int128>(f.denominator);
    const auto num = static_cast<unsigned __int128>(f.numerator);
    const unsigned __int128 ns = (scaled + num / 2) / num;
    return ns > static_cast<unsigned __int128>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(ns);
}

std::int64_t ticksToNs(std::int64_t ticks, const Frequency &f)
{
    return ticks >= 0 ? unsignedTicksToNs(static_cast<std::uint64_t>(ticks), f)
                      : -unsignedTicksToNs(static_cast<std::uint64_t>(-(ticks + 1)) + 1, f);
}

std::int64_t monotonicToLocalOffset(std::int64_t collectionTimeBeginUs, std::int64_t clockMonotonicRawNs)
{
    std::int64_t beginNs = 0;
    if (__builtin_mul_overflow(collectionTimeBeginUs, std::int64_t(1000), &beginNs))
        beginNs = collectionTimeBeginUs > 0 ? INT64_MAX : INT64_MIN;
    return saturatingSub(beginNs, clockMonotonicRawNs);
}

} // namespace at::raw
