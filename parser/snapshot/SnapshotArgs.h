#pragma once

#include "TraceModel.h"

#include <QString>

#include <memory>
#include <optional>

namespace at::snapshot {

// How a source re-reads slice args, saved in the snapshot so that a reopened model reads them
// from the original file by the same byte offsets (or database rowids).
enum class ArgsKind : std::uint8_t
{
    None = 0,     // the source has no args reader
    Json = 1,     // a Chrome-trace file (plain, .zst or .gz): JsonArgsReader
    Database = 2, // a profiler database: DbArgsReader
    CsvRows = 3,  // device tasks drawn from kernel_details.csv rows: CsvRowArgsReader
};

// The kind of a loaded source's reader, or nullopt for readers a snapshot cannot recreate (raw
// binary data keeps its args in memory).
std::optional<ArgsKind> argsKindOf(const EventArgsReader *reader);

// A reader for a source of a reopened snapshot. A JSON source's file is opened (decompressed when
// .zst/.gz) on Qt's global thread pool right away, so reopening stays fast and the first args read
// waits only for what is left of the open; a database reader opens a connection per read.
std::shared_ptr<const EventArgsReader> makeArgsReader(ArgsKind kind, const QString &path);

} // namespace at::snapshot
