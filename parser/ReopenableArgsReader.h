#pragma once

// An args reader a snapshot can make again from its file's path alone: it says its kind, the byte its
// InputReader's descriptor names (InputReaderDescriptor::snapshotArgsKind), and that reader's
// reopenArgs(path) makes it again. The snapshot stores the byte and never names a reader.

#include "TraceModel.h"

#include <cstdint>

namespace at {

class ReopenableArgsReader : public EventArgsReader
{
public:
    virtual std::uint8_t snapshotKind() const = 0;
};

// The bytes of the built-in readers, stored in snapshots: never change or reuse one.
namespace snapshot_args_kind {
inline constexpr std::uint8_t kJson = 1;       // json/: a Chrome-trace file (plain, .zst or .gz)
inline constexpr std::uint8_t kDatabase = 2;   // sqlite/: a profiler database
inline constexpr std::uint8_t kKernelRows = 3; // summary/: device tasks drawn from kernel_details.csv rows
} // namespace snapshot_args_kind

} // namespace at
