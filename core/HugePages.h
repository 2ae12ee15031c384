#pragma once
// Large blocks that are written once right after they are allocated (a decompressed snapshot, a
// CSV column, a model column read back from a snapshot) pay mostly for first-touch page faults on
// these machines: one fault per 4 KiB. Advising them as transparent huge pages (Linux, THP mode
// "madvise") turns 512 of those faults into one. Advisory only: without THP, nothing changes.

#include <cstddef>

namespace at {

// malloc-compatible block of `bytes` (never null: throws std::bad_alloc), 2 MiB aligned and advised
// as huge pages when it is at least 8 MiB. Free with freeLarge.
void *allocateLarge(std::size_t bytes);
void freeLarge(void *p) noexcept;

// Advises the whole 2 MiB pages inside [p, p + bytes) as huge pages. Call it before the memory is
// first written (e.g. right after std::vector::reserve) or it has no effect on the pages already there.
void adviseHugePages(void *p, std::size_t bytes) noexcept;

} // namespace at
