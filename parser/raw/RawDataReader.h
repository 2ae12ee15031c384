#pragma once

#include "InputReader.h"

namespace at {

// Raw PROF_*/{host,device_N}/data slices (FORMATS.md §5), decoded by readRawProfile (parser/raw): a
// raw-only result, or any result under --source raw.
class RawDataReader : public InputReader
{
public:
    bool recognises(const DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

} // namespace at
