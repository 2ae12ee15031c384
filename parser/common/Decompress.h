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
};

// Streams a .zst / .gz file into a temporary file (in the system temp folder, never next to the
// input) so that the JSON parser can memory-map it like any other file. Also reads Qt resources.
// On failure returns nullptr and sets *error to a message naming the file and the problem.
std::unique_ptr<QTemporaryFile> decompressToTemporaryFile(const QString &path, Compression compression,
                                                          const DecompressControl &control, QString *error);

} // namespace at
