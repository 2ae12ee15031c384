#pragma once

#include <QString>
#include <QTemporaryFile>

#include <atomic>
#include <cstdint>
#include <memory>

namespace at {

enum class Compression
{
    None,
    Zstd,
    Gzip
};

// Detects compression from the magic bytes (falls back to the file extension for empty files).
Compression detectCompression(const QString &path);

struct DecompressControl
{
    const std::atomic<bool> *cancel = nullptr;
    std::atomic<std::uint64_t> *bytesRead = nullptr; // compressed bytes consumed so far
    // The decompressed data may not grow beyond this (the load's memory limit; 0 = no such cap) nor
    // beyond the free space of the temporary folder less kTempFolderReserve.
    std::uint64_t maxOutputBytes = 0;
};

// Left free in the temporary folder (other programs need it too).
inline constexpr std::uint64_t kTempFolderReserve = std::uint64_t(64) << 20;

// Streams a .zst / .gz file into a temporary file (in the system temp folder, never next to the
// input) so that the JSON parser can memory-map it like any other file. Also reads Qt resources.
// The first decompressed bytes must look like JSON ('{' or '[' after whitespace and a BOM): else it
// stops at once. At the output cap it stops and keeps what was decompressed (the JSON parser keeps the
// complete events of a cut file), with a warning in *error.
// On failure returns nullptr and sets *error to a message naming the file and the problem.
std::unique_ptr<QTemporaryFile> decompressToTemporaryFile(const QString &path, Compression compression,
                                                          const DecompressControl &control, QString *error);

} // namespace at
