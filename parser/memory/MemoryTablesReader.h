#pragma once

// The memory CSVs of a result folder (FORMATS.md §3.9, §9.5) → the builder's MemoryProfile, plus one
// counter lane per device, component and metric under a "Memory" process per device.

#include "TraceBuilder.h"
#include "folder/ProfileLayout.h"
#include "memory/ReservedPeak.h"

#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>
#include <string_view>

namespace at {

// The memory CSVs of a source (memory_record, operator_memory, npu_module_mem, static_op_mem, with their
// slices).
QStringList memoryTableFiles(const DataSource &source);

// How the memory CSVs are read: streamed in chunks of whole records (only one chunk's text is held), up to
// the stop flag (LoadControl::stopReading: a cancel or the memory guard), keeping the rows read before it.
struct MemoryStreamOptions
{
    const std::atomic<bool> *stop = nullptr;
    std::size_t chunkBytes = std::size_t(16) << 20;
};

// Reads them into the builder's memory profile for a group (the summary tables reader calls it); bad rows are
// skipped with one warning per file and problem naming the file, the first such line and how many rows it
// cost. A stop keeps the rows read, with a warning naming the file, the rows and the line.
void readMemoryTables(const DataSource &source, int group, TraceBuilder &builder,
                      const MemoryStreamOptions &stream = {});

// "Peaks only" (the cluster page, FORMATS.md §9.5): the largest Total Reserved of one memory_record.csv
// (kind Component) or npu_module_mem.csv (kind Module; its -1 rows hold no value) and the first time it is
// reached, streamed through the same CSV reading as the curves of a load without building any curve.
struct ReservedPeakScan
{
    std::optional<ReservedPeak> peak; // none when no row has a Total Reserved
    std::size_t badRows = 0;          // rows whose time or Total Reserved could not be read
    bool opened = false;              // false: the file could not be opened (named in a warning)
};
ReservedPeakScan readReservedPeak(const QString &file, MemoryCurveKind kind,
                                  const std::function<void(const QString &)> &warn);

// A decimal text in a unit of 2^shift bytes ("954.3701171875" MB: shift 20) → bytes, rounded half
// away from zero; surrounding blanks and TABs are ignored. nullopt for empty or non-numeric text.
std::optional<std::int64_t> parseScaledBytes(std::string_view text, int shift);

// "NPU:3", "npu:3", "3" (old torch_npu writes the index) → 3; nullopt otherwise.
std::optional<std::int64_t> parseMemoryDevice(std::string_view text);

} // namespace at
