#pragma once

// Slice files of raw profiler data (FORMATS.md §5.1, §5.2): `<stream>.slice_<k>` in order of k, skipping
// `.done` / `.complete` / `.zip` companions, and a reader that streams fixed-size records across the slices
// of one stream from memory-mapped files (a record may straddle two slices).

#include "common/MappedFile.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace at::raw {

struct SliceStreamFiles
{
    QString stream;    // file name without ".slice_<k>", e.g. "hwts.data.0", "unaging.api_event.data"
    QStringList files; // full paths in slice order
};

// k of "<stream>.slice_<k>", or nullopt when the name is not a slice file (or is a companion file).
std::optional<std::int64_t> sliceNumber(const QString &fileName);
QString sliceStreamName(const QString &fileName);

// Every slice stream of one data folder, sorted by stream name; `unaging.` streams before `aging.` ones.
std::vector<SliceStreamFiles> listSliceStreams(const QString &dir);

struct StreamStats
{
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;
    std::uint64_t trailingBytes = 0; // bytes of an incomplete last record (truncated stream)
    QStringList unreadable;          // "path: problem"
    bool stopped = false;            // cancelled before the end
};

// What a record stream obeys and reports: the cancel flag (the user, or the loader's memory limit) and a
// byte counter advanced as slice files are read (the loader's progress). Either may be null.
struct StreamControl
{
    StreamControl(const std::atomic<bool> *cancelFlag = nullptr, std::atomic<std::uint64_t> *bytes = nullptr)
        : cancel(cancelFlag), bytesDone(bytes)
    {}
    const std::atomic<bool> *cancel;
    std::atomic<std::uint64_t> *bytesDone;
};

// Calls `onRecord(const unsigned char *record)` for every whole record of the stream, in order. A record cut
// by a slice boundary is reassembled; bytes left over at the end are counted as trailingBytes. Once the
// cancel flag is set it stops within a slice file or 65,536 records.
template <typename F>
StreamStats forEachRecord(const StreamControl &control, const QStringList &files, std::size_t recordSize,
                          F &&onRecord)
{
    StreamStats stats;
    const std::atomic<bool> *cancel = control.cancel;
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    std::vector<unsigned char> carry; // start of a record cut by the previous slice
    carry.reserve(recordSize);
    for (const QString &file : files) {
        if (cancelled()) {
            stats.stopped = true;
            return stats;
        }
        QString error;
        std::unique_ptr<MappedFile> mapped = MappedFile::open(file, &error);
        if (!mapped) {
            stats.unreadable << error;
            continue;
        }
        const auto *data = reinterpret_cast<const unsigned char *>(mapped->data());
        std::size_t size = mapped->size();
        stats.bytes += size;
        std::size_t pos = 0;
        if (!carry.empty()) {
            const std::size_t need = std::min(recordSize - carry.size(), size);
            carry.insert(carry.end(), data, data + need);
            pos = need;
            if (carry.size() == recordSize) {
                onRecord(carry.data());
                ++stats.records;
                carry.clear();
            }
        }
        const std::size_t whole = (size - pos) / recordSize;
        constexpr std::size_t kBlock = 65536;
        for (std::size_t begin = 0; begin < whole; begin += kBlock) {
            if (begin > 0 && cancelled()) {
                stats.records += begin;
                stats.stopped = true;
                return stats;
            }
            const std::size_t end = std::min(whole, begin + kBlock);
            for (std::size_t i = begin; i < end; ++i)
                onRecord(data + pos + i * recordSize);
            if (mapped->truncated())
                break; // the file shrank while it was read: the rest reads as zero pages
        }
        if (mapped->truncated()) {
            // Only the records wholly before the cut count; nothing is carried into the next slice.
            const std::size_t kept =
                mapped->truncatedAt() > pos ? (mapped->truncatedAt() - pos) / recordSize : 0;
            stats.records += std::min(kept, whole);
            stats.unreadable << mapped->truncationMessage();
            carry.clear();
            continue;
        }
        stats.records += whole;
        pos += whole * recordSize;
        carry.insert(carry.end(), data + pos, data + size);
        if (control.bytesDone)
            control.bytesDone->fetch_add(size, std::memory_order_relaxed);
    }
    stats.trailingBytes = carry.size();
    return stats;
}

template <typename F>
StreamStats forEachRecord(const QStringList &files, std::size_t recordSize, F &&onRecord)
{
    return forEachRecord(StreamControl(), files, recordSize, std::forward<F>(onRecord));
}

} // namespace at::raw
