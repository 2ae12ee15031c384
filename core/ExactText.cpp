#include "ExactText.h"

#include <cstdint>

namespace at {

QString microsText(TimeNs ns, MicrosDecimals decimals)
{
    // Digits written backwards into a buffer, one QString made at the end: called once per number of
    // every JSON document (4 M times for 400,000 steps, issue 29 item 7).
    const bool negative = ns < 0;
    // The magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64.
    std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    char buffer[32];
    char *const end = buffer + sizeof buffer;
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
    return QString::fromLatin1(first, end - first);
}

} // namespace at
