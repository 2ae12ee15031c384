#pragma once

#include "TraceModel.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

namespace at::snapshot {

// How a source re-reads slice args, saved in the snapshot so that a reopened model reads them from the
// original file by the same byte offsets (or database rowids): the byte its reader's descriptor names
// (InputReaderDescriptor::snapshotArgsKind, ReopenableArgsReader::snapshotKind), or kNoArgs.
using ArgsKind = std::uint8_t;
inline constexpr ArgsKind kNoArgs = 0; // the source has no args reader

// The kind of a loaded source's args reader, or nullopt for readers a snapshot cannot recreate (raw
// binary data keeps its args in memory).
std::optional<ArgsKind> argsKindOf(const EventArgsReader *reader);
// Whether a kind read from a snapshot is kNoArgs or a registered reader's.
bool knownArgsKind(ArgsKind kind);

// The args reader for a source of a reopened snapshot, made by the reader whose kind it is
// (InputReader::reopenArgs); null for kNoArgs.
std::shared_ptr<const EventArgsReader> makeArgsReader(ArgsKind kind, const QString &path);

} // namespace at::snapshot
