#pragma once
// Exact decimal ⇄ ns conversions for the cluster summary files, whose times are µs or ms written as
// decimal text ("231290.09999999995", "88.75099321875", "6.000000000000001e-05").

#include "Time.h"

#include <QString>

#include <optional>
#include <string_view>

namespace at::cluster {

enum class TimeUnit
{
    Microseconds = 3,
    Milliseconds = 6
};

// Decimal text in `unit` → ns, rounded half up at the ns; nullopt for text that is not a finite number
// or overflows. Never goes through a double.
std::optional<TimeNs> parseDecimalToNs(std::string_view text, TimeUnit unit);

// The other direction, ns → µs text, is core/ExactText.h's microsText.

} // namespace at::cluster
