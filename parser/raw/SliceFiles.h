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
    std::uint64_t streamBytes = 0;   // size of every slice file of the stream (set when stopped)
    std::uint64_t stoppedAt = 0;     // the stream offset reading stopped at (set when stopped)
};

// Sum of the files' sizes (0 for a file that cannot be read).
std::uint64_t filesBytes(const QStringList &files);

// Gives the pages of a read-only file mapping from the one holding `begin` up to the one holding `end`
// (excluded: it may still be read) back to the kernel; they stay in the page cache. Every byte before `end`
// must have been read. So a slice file decoded record by record does not stay resident as a whole.
void releaseMappedPages(const char *mapping, std::size_t begin, std::size_t end);

// What a record stream obeys and reports: the cancel flag (the user, or the loader's memory limit) and a
// byte counter advanced as slice files are read (the loader's progress). Either may be null.
struct StreamControl
{
    StreamControl(const std::atomic<bool> *cancelFlag = nullptr, std::atomic<std::uint64_t> *bytes = nullptr)
        : cancel(cancelFlag), bytesDone(bytes)
    {}
    const std::atomic<bool> *cancel;
    std::atomic<std::uint64_t> *bytesDone;
    bool stopped() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

// Calls `onRecord(const unsigned char *record)` for every whole record of the stream, in order. A record cut
// by a slice boundary is reassembled; bytes left over at the end are counted as trailingBytes. Once the
// cancel flag is set it stops within 65,536 records (at most one block of a slice file); stats.stopped,
// stoppedAt and streamBytes then say where. The pages of each block are released once decoded.
template <typename F>
StreamStats forEachRecord(const StreamControl &control, const QStringList &files, std::size_t recordSize,
                          F &&onRecord)
{
    StreamStats stats;
    auto cancelled = [&control] { return control.stopped(); };
    std::uint64_t offset = 0; // of the current slice file in the stream
    auto stop = [&](std::uint64_t at) {
        stats.stopped = true;
        stats.stoppedAt = at;
        stats.streamBytes = filesBytes(files);
        return stats;
    };
    std::vector<unsigned char> carry; // start of a record cut by the previous slice
    carry.reserve(recordSize);
    for (const QString &file : files) {
        if (cancelled())
            return stop(offset > carry.size() ? offset - carry.size() : 0);
        QString error;
        std::unique_ptr<MappedFile> mapped = MappedFile::open(file, &error);
        if (!mapped) {
            stats.unreadable << error;
            offset += filesBytes({file});
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
        std::size_t released = 0;
        for (std::size_t begin = 0; begin < whole; begin += kBlock) {
            if (cancelled()) {
                stats.records += begin;
                return stop(offset + pos + begin * recordSize);
            }
            const std::size_t end = std::min(whole, begin + kBlock);
            for (std::size_t i = begin; i < end; ++i)
                onRecord(data + pos + i * recordSize);
            if (mapped->truncated())
                break; // the file shrank while it was read: the rest reads as zero pages
            releaseMappedPages(mapped->data(), released, pos + end * recordSize);
            released = pos + end * recordSize;
        }
        if (mapped->truncated()) {
            // Only the records wholly before the cut count; nothing is carried into the next slice.
            const std::size_t kept =
                mapped->truncatedAt() > pos ? (mapped->truncatedAt() - pos) / recordSize : 0;
            stats.records += std::min(kept, whole);
            stats.unreadable << mapped->truncationMessage();
            carry.clear();
            offset += size;
            continue;
        }
        stats.records += whole;
        pos += whole * recordSize;
        carry.insert(carry.end(), data + pos, data + size);
        if (control.bytesDone)
            control.bytesDone->fetch_add(size, std::memory_order_relaxed);
        offset += size;
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
