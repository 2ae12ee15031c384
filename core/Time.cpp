#include "Time.h"

#include "ExactText.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace at {
namespace {

std::string_view trimmed(std::string_view s)
{
    auto isJunk = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"'; };
    while (!s.empty() && isJunk(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isJunk(s.back()))
        s.remove_suffix(1);
    return s;
}

// Slow path for exponents and other unusual spellings.
std::optional<TimeNs> parseViaLongDouble(std::string_view s)
{
    std::string copy(s);
    char *end = nullptr;
    const long double us = std::strtold(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(us))
        return std::nullopt;
    const long double ns = std::roundl(us * 1000.0L);
    if (ns > static_cast<long double>(std::numeric_limits<TimeNs>::max()) ||
        ns < static_cast<long double>(std::numeric_limits<TimeNs>::min()))
        return std::nullopt;
    return static_cast<TimeNs>(ns);
}

} // namespace

std::optional<TimeNs> parseMicrosToNs(std::string_view text, FractionRounding rounding)
{
    std::string_view s = trimmed(text);
    if (s.empty())
        return std::nullopt;
    bool negative = false;
    std::size_t i = 0;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        i = 1;
    }
    // Accumulate the magnitude in unsigned arithmetic so INT64_MIN itself stays representable.
    constexpr std::uint64_t kLimit = static_cast<std::uint64_t>(std::numeric_limits<TimeNs>::max()) + 1;
    std::uint64_t whole = 0;
    std::size_t digits = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
        whole = whole * 10 + static_cast<std::uint64_t>(s[i] - '0');
        if (whole > kLimit / 1000)
            return std::nullopt;
    }
    std::uint64_t fraction = 0;
    int fractionDigits = 0;
    bool roundUp = false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
            if (fractionDigits < 3) {
                fraction = fraction * 10 + static_cast<std::uint64_t>(s[i] - '0');
                ++fractionDigits;
            } else if (fractionDigits == 3) {
                roundUp = rounding == FractionRounding::HalfUp && s[i] >= '5';
                ++fractionDigits;
            }
        }
    }
    if (i != s.size() || digits == 0) {
        // "1e3", "1.5E-2": a decimal mantissa with an exponent takes the slow path; anything else
        // ("nan", "0x1e", garbage) is not a time.
        if (i < s.size() && digits > 0 && (s[i] == 'e' || s[i] == 'E')) {
            std::size_t j = i + 1;
            if (j < s.size() && (s[j] == '+' || s[j] == '-'))
                ++j;
            const std::size_t exponentStart = j;
            while (j < s.size() && s[j] >= '0' && s[j] <= '9')
                ++j;
            if (j == s.size() && j > exponentStart)
                return parseViaLongDouble(s);
        }
        return std::nullopt;
    }
    for (int pad = fractionDigits; pad < 3; ++pad)
        fraction *= 10;
    const std::uint64_t magnitude = whole * 1000 + fraction + (roundUp ? 1 : 0);
    if (magnitude > kLimit || (!negative && magnitude == kLimit))
        return std::nullopt;
    return negative ? static_cast<TimeNs>(0 - magnitude) : static_cast<TimeNs>(magnitude);
}

std::optional<std::int64_t> parseInt64(std::string_view text)
{
    std::string_view s = trimmed(text);
    if (s.empty())
        return std::nullopt;
    bool negative = false;
    std::size_t i = 0;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        i = 1;
    }
    std::uint64_t value = 0;
    std::size_t digits = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
        const std::uint64_t next = value * 10 + static_cast<std::uint64_t>(s[i] - '0');
        if (next / 10 != value)
            return std::nullopt;
        value = next;
    }
    if (digits == 0)
        return std::nullopt;
    if (i < s.size()) {
        if (s[i] != '.')
            return std::nullopt;
        for (++i; i < s.size(); ++i)
            if (s[i] < '0' || s[i] > '9')
                return std::nullopt;
    }
    // Values above INT64_MAX (e.g. UINT64_MAX sentinels) wrap deliberately: they are used as keys only.
    const auto signedValue = static_cast<std::int64_t>(value);
    return negative ? -signedValue : signedValue;
}

QString formatDuration(TimeNs ns, int precision)
{
    const double v = static_cast<double>(ns);
    const double a = std::fabs(v);
    if (a < 1e3)
        return QStringLiteral("%1 ns").arg(ns);
    // Pick the unit after rounding, so 999999999 ns reads "1.000 s", not "1000.000 ms".
    const double half = 0.5 * std::pow(10.0, -precision);
    if (a / 1e3 < 1000.0 - half)
        return QStringLiteral("%1 µs").arg(v / 1e3, 0, 'f', precision);
    if (a / 1e6 < 1000.0 - half)
        return QStringLiteral("%1 ms").arg(v / 1e6, 0, 'f', precision);
    return QStringLiteral("%1 s").arg(v / 1e9, 0, 'f', precision);
}

QString formatAbsoluteMicros(TimeNs absoluteNs)
{
    return microsText(absoluteNs, MicrosDecimals::Three);
}

} // namespace at
