#include "HugePages.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace at {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kHugeThreshold = std::size_t(8) << 20; // below this, huge pages would only waste memory
} // namespace

void *allocateLarge(std::size_t bytes)
{
    void *p = nullptr;
#if defined(__linux__)
    if (bytes >= kHugeThreshold) {
        const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        p = std::aligned_alloc(kHugePage, rounded);
        if (p)
            ::madvise(p, rounded, MADV_HUGEPAGE); // advisory only: failure just means 4 KiB pages
    }
#endif
    if (!p)
        p = std::malloc(bytes ? bytes : 1);
    if (!p)
        throw std::bad_alloc();
    return p;
}

void freeLarge(void *p) noexcept
{
    std::free(p);
}

void adviseHugePages(void *p, std::size_t bytes) noexcept
{
#if defined(__linux__)
    if (bytes < kHugeThreshold)
        return;
    const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHugePage - 1) & ~std::uintptr_t(kHugePage - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~std::uintptr_t(kHugePage - 1);
    if (end > begin)
        ::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

} // namespace at
