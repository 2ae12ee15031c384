#include "csv/CsvValues.h"

#include "Time.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace at::csv {
namespace {

constexpr std::uint64_t kU32None = 4294967295ULL;
constexpr std::string_view kU64NoneText = "18446744073709551615";

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Shared front part of the number parsers: trim and classify missing cells.
template <typename T> bool prepare(std::string_view &s, Parsed<T> &out)
{
    s = trimCell(s);
    if (isMissingCell(s)) {
        out.status = ValueStatus::Missing;
        return false;
    }
    out.status = ValueStatus::Invalid;
    return true;
}

// Digits only -> uint64 with overflow check. Empty input is invalid.
bool parseDigits(std::string_view s, std::uint64_t &v)
{
    if (s.empty())
        return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && isDigit(s.front());
}

// Exponent / odd-format fallback: long double keeps 64 mantissa bits, plenty for µs with ns fraction.

} // namespace

std::string_view trimCell(std::string_view cell)
{
    while (!cell.empty() && isSpace(cell.front()))
        cell.remove_prefix(1);
    while (!cell.empty() && isSpace(cell.back()))
        cell.remove_suffix(1);
    return cell;
}

bool isMissingCell(std::string_view cell)
{
    cell = trimCell(cell);
    return cell.empty() ||
           (cell.size() == 3 && (cell[0] | 0x20) == 'n' && cell[1] == '/' && (cell[2] | 0x20) == 'a');
}

Parsed<std::int64_t> parseUsToNs(std::string_view cell, NsRounding rounding)
{
    // One text-to-ns rule for JSON and CSV: core/Time.h.
    Parsed<std::int64_t> out;
    std::string_view s = cell;
    if (!prepare(s, out))
        return out;
    const auto ns = parseMicrosToNs(s, rounding == NsRounding::HalfUp ? FractionRounding::HalfUp
                                                                      : FractionRounding::Truncate);
    if (ns) {
        out.status = ValueStatus::Ok;
        out.value = *ns;
    }
    return out;
}

Parsed<std::uint64_t> parseUInt64(std::string_view cell, Sentinels sentinels)
{
    Parsed<std::uint64_t> out;
    std::string_view s = cell;
    if (!prepare(s, out))
        return out;
    if (s.front() == '+')
        s.remove_prefix(1);
    std::uint64_t v = 0;
    if (!parseDigits(s, v))
        return out;
    out.value = v;
    out.status =
        sentinels == Sentinels::AsNone && (v == kU32None || v == std::numeric_limits<std::uint64_t>::max())
            ? ValueStatus::None
            : ValueStatus::Ok;
    return out;
}

Parsed<std::int64_t> parseInt64(std::string_view cell, Sentinels sentinels)
{
    Parsed<std::int64_t> out;
    std::string_view s = cell;
    if (!prepare(s, out))
        return out;
    bool negative = false;
    if (s.front() == '+' || s.front() == '-') {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    // UINT64_MAX does not fit an int64 but is still the "invalid id" sentinel, not garbage.
    if (!negative && s == kU64NoneText) {
        if (sentinels == Sentinels::AsNone)
            out.status = ValueStatus::None;
        return out;
    }
    std::uint64_t mag = 0;
    if (!parseDigits(s, mag))
        return out;
    const std::uint64_t limit =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
    if (mag > limit)
        return out;
    out.value = negative ? static_cast<std::int64_t>(0 - mag) : static_cast<std::int64_t>(mag);
    out.status =
        sentinels == Sentinels::AsNone && !negative && mag == kU32None ? ValueStatus::None : ValueStatus::Ok;
    return out;
}

Parsed<double> parseDouble(std::string_view cell)
{
    Parsed<double> out;
    std::string_view s = cell;
    if (!prepare(s, out))
        return out;
    if (s.front() == '+') // from_chars rejects a leading '+'
        s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v))
        return out;
    out.status = ValueStatus::Ok;
    out.value = v;
    return out;
}

Parsed<std::vector<TensorShape>> parseShapes(std::string_view cell)
{
    Parsed<std::vector<TensorShape>> out;
    std::string_view s = cell;
    if (!prepare(s, out))
        return out;
    // The value carries its own quotes ("32,3,224,224"); strip one pair (or a stray one at either end).
    if (!s.empty() && s.front() == '"')
        s.remove_prefix(1);
    if (!s.empty() && s.back() == '"')
        s.remove_suffix(1);
    s = trimCell(s);
    if (isMissingCell(s) && !s.empty()) {
        out.status = ValueStatus::Missing;
        return out;
    }
    std::vector<TensorShape> tensors;
    for (;;) {
        const std::size_t semi = s.find(';');
        std::string_view tensor = s.substr(0, semi);
        TensorShape dims;
        while (!trimCell(tensor).empty()) {
            const std::size_t comma = tensor.find(',');
            const auto dim = parseInt64(tensor.substr(0, comma), Sentinels::Keep);
            if (!dim.ok())
                return out; // Invalid
            dims.push_back(dim.value);
            if (comma == std::string_view::npos)
                break;
            tensor.remove_prefix(comma + 1);
        }
        tensors.push_back(std::move(dims));
        if (semi == std::string_view::npos)
            break;
        s.remove_prefix(semi + 1);
    }
    out.status = ValueStatus::Ok;
    out.value = std::move(tensors);
    return out;
}

} // namespace at::csv
