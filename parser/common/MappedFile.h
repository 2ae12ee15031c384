#pragma once

#include <QString>

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>

namespace at {

// A read-only memory map of a whole file. The file is opened read-only, so the user's data folder
// is never modified. Empty files map to an empty view. Only regular files are mapped (a FIFO, socket
// or device is refused without blocking), and no descriptor is kept once the file is mapped.
//
// The file may shrink while it is mapped (the profiler still writing, a sync tool replacing it):
// reading past the new end would raise SIGBUS. A process-wide handler maps zero pages over the
// missing part instead, so the reader sees NUL bytes there (which every parser rejects as content)
// and truncatedAt() tells how many bytes were still in the file.
class MappedFile
{
public:
    static std::unique_ptr<MappedFile> open(const QString &path, QString *error);
    // As open, but a file smaller than kReadBelowBytes is read into memory instead of mapped (issue #32: at
    // 1,024 ranks, unmapping the cluster's 3,072 small JSON files cost a TLB shoot-down each, a third of
    // `--cluster`'s CPU on a virtual machine). A file that shrinks while it is read reads as for a mapping:
    // NUL bytes past the end and truncated() true.
    static constexpr std::size_t kReadBelowBytes = std::size_t(1) << 20;
    static std::unique_ptr<MappedFile> openSmallInMemory(const QString &path, QString *error);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    const char *data() const { return m_data; }
    std::size_t size() const { return m_size; }
    QString path() const { return m_path; }

    // True once a read found the file shorter than when it was mapped.
    bool truncated() const { return truncatedAt() < m_size; }
    // The offset of the first byte found missing (a page boundary), or size() when none was.
    std::size_t truncatedAt() const { return m_truncatedAt.load(std::memory_order_acquire); }
    // "FILE changed while it was read: N of M bytes read", for a reader's warning.
    QString truncationMessage() const;

    // Test-only: called with the path after each file is mapped (e.g. to truncate it).
    static void setMappedHookForTesting(std::function<void(const QString &)> hook);

private:
    MappedFile() = default;
    static std::unique_ptr<MappedFile> openFile(const QString &path, QString *error, std::size_t readBelow);
    bool readInto(int fd, std::size_t size);
    QString m_path;
    const char *m_data = nullptr;
    std::size_t m_size = 0;
    std::atomic<std::size_t> m_truncatedAt{0};
    int m_guardSlot = -1;
    std::unique_ptr<char[]> m_buffer; // the bytes of a file read into memory (then nothing is mapped)
};

// "PATH is a FIFO (named pipe), not a regular file" and the like, or empty for a regular file or a missing
// path. Does not follow a final symlink when followSymlink is false.
QString specialFileProblem(const QString &path, bool followSymlink = true);

// What a file of this st_mode is, for messages: "a folder", "a FIFO (named pipe)", "a socket", ...
QString fileKindText(mode_t mode);

} // namespace at
