#pragma once
// Turning CSV cell text into values (FORMATS.md §3.1, §2.3).
//
// All helpers trim surrounding whitespace first (torch_npu writes `<µs>.<3 digits>\t`) and treat an empty
// cell or `N/A` as Missing. Timestamps are converted text-based: epoch µs (~1.7e15) do not survive a double.
// In namespace at::csv so they cannot clash with the JSON parser's helpers in at::.

#include <cstdint>
#include <string_view>
#include <vector>

namespace at::csv {

enum class ValueStatus : std::uint8_t
{
    Ok,      // value holds the parsed number
    Missing, // empty or N/A
    None,    // a "no value" sentinel: 4294967295 (UINT32_MAX) or 18446744073709551615 (UINT64_MAX)
    Invalid, // text that is not a number of the requested kind (or out of range)
};

template <typename T> struct Parsed
{
    ValueStatus status = ValueStatus::Missing;
    T value{};

    bool ok() const { return status == ValueStatus::Ok; }
    explicit operator bool() const { return ok(); }
    T valueOr(T fallback) const { return ok() ? value : fallback; }
};

// Strips spaces, TABs, CR and LF on both ends.
std::string_view trimCell(std::string_view cell);
// Empty (after trimming) or N/A (any case).
bool isMissingCell(std::string_view cell);

enum class NsRounding : std::uint8_t
{
    Truncate, // timestamps: digits beyond ns are dropped (what torch_npu does)
    HalfUp,   // durations: the 4th fractional digit rounds the magnitude half up
};
// Decimal µs text -> int64 ns, exactly: "1736408883704643.212" -> 1736408883704643212.
// Accepts a sign and any number of fractional digits; an exponent ("1.5e3") falls back to long double.
Parsed<std::int64_t> parseUsToNs(std::string_view cell, NsRounding rounding);
inline Parsed<std::int64_t> parseTimestampUsToNs(std::string_view cell)
{
    return parseUsToNs(cell, NsRounding::Truncate);
}
inline Parsed<std::int64_t> parseDurationUsToNs(std::string_view cell)
{
    return parseUsToNs(cell, NsRounding::HalfUp);
}

enum class Sentinels : std::uint8_t
{
    AsNone,
    Keep
};
// Integers (optional sign for int64, optional '+' for uint64). By default the sentinels 4294967295 and
// 18446744073709551615 come back as ValueStatus::None (no model id, no context id, invalid notify id).
Parsed<std::int64_t> parseInt64(std::string_view cell, Sentinels sentinels = Sentinels::AsNone);
Parsed<std::uint64_t> parseUInt64(std::string_view cell, Sentinels sentinels = Sentinels::AsNone);
// Locale-independent double ("0.186", "8873.756000000001", "1e-3", "inf" is Invalid).
Parsed<double> parseDouble(std::string_view cell);

// Input/Output Shapes cell, e.g. "\"32,3,224,224;4096;\"" (the value carries its own quotes):
// ';' separates tensors, ',' separates dims, an empty piece is a scalar (rank-0) tensor.
using TensorShape = std::vector<std::int64_t>;
Parsed<std::vector<TensorShape>> parseShapes(std::string_view cell);

} // namespace at::csv
