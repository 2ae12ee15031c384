#pragma once

#include "InputReader.h"

namespace at {

// A profiler database (msprof_<n>.db, ascend_pytorch_profiler[_<rank>].db; FORMATS.md §6): timeline,
// kernel table, counters and steps (ProfileDatabaseReader), plus the collection facts it holds.
class DatabaseReader : public InputReader
{
public:
    bool recognises(const DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

} // namespace at
