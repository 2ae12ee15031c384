#include "cluster/ClusterNumbers.h"

#include <cstdint>
#include <limits>

namespace at::cluster {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"';
}

} // namespace

std::optional<TimeNs> parseDecimalToNs(std::string_view text, TimeUnit unit)
{
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    if (text.empty())
        return std::nullopt;
    bool negative = false;
    if (text.front() == '-' || text.front() == '+') {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    // Up to 18 significant digits go into the mantissa; later digits only move the exponent.
    std::int64_t mantissa = 0;
    int significant = 0, exponent = 0, digits = 0;
    bool fraction = false;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.' && !fraction) {
            fraction = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        ++digits;
        if (significant < 18) {
            if (mantissa != 0 || c != '0')
                ++significant;
            mantissa = mantissa * 10 + (c - '0');
            if (fraction)
                --exponent;
        } else {
            if (!fraction)
                ++exponent;
        }
    }
    if (digits == 0)
        return std::nullopt;
    if (i < text.size()) {
        if (text[i] != 'e' && text[i] != 'E')
            return std::nullopt;
        ++i;
        bool negativeExp = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+'))
            negativeExp = text[i++] == '-';
        int e = 0;
        if (i == text.size())
            return std::nullopt;
        for (; i < text.size(); ++i) {
            if (text[i] < '0' || text[i] > '9' || e > 400)
                return std::nullopt;
            e = e * 10 + (text[i] - '0');
        }
        exponent += negativeExp ? -e : e;
    }
    exponent += static_cast<int>(unit); // unit → ns
    std::int64_t value = mantissa;
    if (exponent >= 0) {
        for (int k = 0; k < exponent; ++k) {
            if (value > std::numeric_limits<std::int64_t>::max() / 10)
                return std::nullopt;
            value *= 10;
        }
    } else if (exponent < -18) {
        value = 0;
    } else {
        std::int64_t divisor = 1;
        for (int k = 0; k < -exponent; ++k)
            divisor *= 10;
        const std::int64_t rest = value % divisor;
        value /= divisor;
        if (rest * 2 >= divisor)
            ++value;
    }
    return negative ? -value : value;
}

} // namespace at::cluster
