#pragma once

#include "sqlite/DbContext.h"

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

} // namespace at
