#include "csv/CsvBuffer.h"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace at::detail {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kHugeThreshold = std::size_t(8) << 20; // below this, huge pages would only waste memory
} // namespace

void *csvAllocate(std::size_t bytes)
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

void csvFree(void *p) noexcept
{
    std::free(p);
}

} // namespace at::detail
