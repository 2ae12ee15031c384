#pragma once

#include "TraceModel.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace at::snapshot {

// Bump whenever the payload layout or anything the loader computes changes: an older snapshot is
// then ignored (wrong version) and rebuilt from the source.
// 2: the payload is stored as independent zstd frames (decompressed on both cores).
// 3: the big columns (slices, counter samples) are a column stream at the end of the payload, in
//    frames of their own that a reopen decompresses straight into the model's vectors.
// 4: the layout is one table (SnapshotLayout.h); source groups keep their typed provenance.
// 5: file stamps add the inode change time and a fingerprint of the content (issue 21).
// 6: the memory profile (curves and operator allocations, MemoryProfile.h).
// 7: kernel rows keep OP State and Mix Block Dim (the dynamic-shape and Block Dim insights).
// 8: the queue depth counter lanes of the device streams (TraceBuilder, core/QueueDepth.h).
// 9: PyTorch profiler (Kineto) GPU traces are read with their own rules, with their GPU kernel rows and
//    [memory] curves (parser/kineto).
// 10: steps of a GPU trace marked only by gpu_user_annotation "ProfilerStep#N" spans
// (StepSource::GpuAnnotation).
constexpr std::uint32_t kFormatVersion = 10;

// One input file (or folder) the model was built from, as it was when the snapshot was written.
struct FileStamp
{
    QString path;
    std::int64_t size = 0;
    std::int64_t mtimeNs = 0;
    std::int64_t ctimeNs = 0; // changes on every in-place write, even when the mtime is put back
    // FNV-1a of the first and last 64 KiB (0 for folders): catches an edit that restores size and times.
    std::uint64_t fingerprint = 0;
    friend bool operator==(const FileStamp &, const FileStamp &) = default;
};

// What a snapshot was made from: the canonical opened path, the preferred source (text / db) and
// the stamps of every file that was read. Echoed in the file and compared on reopen.
struct SnapshotKey
{
    QString canonicalPath;
    std::uint8_t preferredSource = 0;
    std::vector<FileStamp> files;
    // LoadControl::bytesTotal of the cold load, so that a reopen reports the same progress total.
    std::uint64_t sourceBytes = 0;
};

// One independently compressed piece of the payload (the payload is cut every few MiB, so that
// reopening decompresses pieces on every core).
struct SnapshotFrame
{
    std::uint64_t rawSize = 0;   // its bytes of payload
    std::string_view compressed; // points into the bytes given to readHeader
};

// The uncompressed part of a snapshot file: magic, version, key, then the zstd frames of the payload:
// first those of its structure (every section up to the column sizes), then those of the column
// stream, cut at column boundaries.
struct SnapshotHeader
{
    SnapshotKey key;
    std::uint64_t payloadSize = 0;     // the sum of the frames' raw sizes
    std::uint64_t structureFrames = 0; // how many of the frames hold the structure
    std::vector<SnapshotFrame> frames;
};

// The whole file. nullopt (with the reason) when the model has a source whose args a snapshot
// cannot re-read (raw binary data).
std::optional<std::string> encodeSnapshot(const TraceModel &model, const SnapshotKey &key, QString *reason);

// Checks magic, version and every length of the header; the payload is not touched.
std::optional<SnapshotHeader> readHeader(std::string_view file, QString *reason);
// A snapshot reopened from another path than it was made at (the same folder seen through another mount
// point, SnapshotCache.h): every path under `from`, and every message starting with one, reads as under `to`.
struct PathMove
{
    QString from, to;
};

// Decompresses (zstd checksum checked) and decodes the payload into a model, or null with a reason.
std::unique_ptr<TraceModel> decodeBody(const SnapshotHeader &header, QString *reason,
                                       const PathMove &move = {});

// Compresses an encoded payload and puts the header in front (the slow half of encodeSnapshot,
// which the GUI runs off the loading thread).
std::optional<std::string> frameSnapshot(const std::string &payload, const SnapshotKey &key, QString *reason);

// The uncompressed payload alone (the fuzz target and tests drive it directly).
std::optional<std::string> encodePayload(const TraceModel &model, QString *reason);
std::unique_ptr<TraceModel> decodePayload(std::string_view payload, QString *reason);

} // namespace at::snapshot
