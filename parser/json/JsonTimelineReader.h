#pragma once

#include "InputReader.h"

namespace at {

// The Chrome-trace timeline of a source (trace_view.json, msprof*.json slices, G1 iterations, a single
// .json/.json.zst/.json.gz): every timeline file, then the G1 hccl_* / AI CPU files when the master
// timeline has no communication layer (FORMATS.md §1.2). Args stay in the file (JsonArgsReader).
class JsonTimelineReader : public InputReader
{
public:
    bool recognises(const DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

} // namespace at
