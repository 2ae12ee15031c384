#pragma once
// Whether this test binary is built with AddressSanitizer (every target is under AT_SANITIZE, as
// scripts/robustness.sh builds them): memory margins and timing bounds are properties of the normal build.

namespace at::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

} // namespace at::test
