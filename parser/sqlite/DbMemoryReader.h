#pragma once

#include "memory/ReservedPeak.h"
#include "sqlite/DbContext.h"

#include <functional>
#include <optional>

namespace at {

// The memory tables of a profiler database (FORMATS.md §9.5) into the builder's MemoryProfile:
// MEMORY_RECORD (component curves), NPU_MEM type 'app' (the APP curve, hbm + ddr), NPU_MODULE_MEM (module
// curves, names from ENUM_MODULE) and OP_MEMORY (operator allocations; NULL or 0 release = not released).
// Bytes and ns as stored; then the counter lanes (core/MemoryLanes.h).
class DbMemoryReader
{
public:
    explicit DbMemoryReader(DbContext &context) : m_c(context) {}
    void read();
    std::size_t rowsRead() const { return m_rows; }

private:
    DbContext &m_c;
    std::size_t m_rows = 0;
};

// "Peaks only" (the cluster page): the largest total reserved of MEMORY_RECORD's components and NPU_MEM
// 'app' (hbm + ddr, component "APP"), else of NPU_MODULE_MEM's modules ("<module> (module)"), and the first
// time it is reached; bytes and ns as stored, no curve built. *read: some table was queried. A database
// that cannot be opened gives no peak and no warning (the caller has named it); a failed query is warned.
std::optional<ReservedPeak>
readDatabaseReservedPeak(const QString &path, const std::function<void(const QString &)> &warn, bool *read);

} // namespace at
