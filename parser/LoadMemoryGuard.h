#pragma once

#include <QString>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>

namespace at {

struct LoadControl;

// Anonymous resident memory of this process in bytes (heap and other private pages; mapped files
// are left out because their pages are page cache the kernel can drop). 0 where unknown.
std::uint64_t privateResidentBytes();
// Installed physical memory, 0 where unknown.
std::uint64_t physicalMemoryBytes();

// "4G", "512M", "800K", "1.5G", "123456" → bytes (binary units; a trailing "B"/"iB" is allowed).
std::optional<std::uint64_t> parseByteSize(const QString &text);
QString formatByteSize(std::uint64_t bytes);

// The smallest limit accepted (--memory-limit, AT_MEMORY_LIMIT): below it even an empty load is over.
inline constexpr std::uint64_t kMinimumMemoryLimit = std::uint64_t(4) << 20;

// The memory limit a load gets unless told otherwise (LoadOptions::memoryLimitBytes): the
// AT_MEMORY_LIMIT environment variable, else 80 % of the physical memory. The loader never calls it:
// app/ (and the tests) put it into the options. An AT_MEMORY_LIMIT that is not a size of at least
// kMinimumMemoryLimit is ignored, and *problem (when given) says so.
std::uint64_t defaultMemoryLimit(QString *problem = nullptr);

// Reading stops when the private memory reaches this share of the limit: building the model
// (sorting the slices into their tables) needs room on top of what reading used.
inline constexpr double kReadingShareOfLimit = 0.6;

// Why reading stopped, for the readers' warnings: "memory use reached the limit for reading (600 MiB, 60 % of
// the 1.0 GiB limit; …)". The share of the limit is quoted, not the memory in use when the warning is
// written: that was often below the limit once reading had stopped, and read as a contradiction.
QString memoryStopReason(std::uint64_t limitBytes);

// One JSON event may be at most limit / this many bytes: reading it takes about 6× its size at once
// (measured: a 200 MB name peaked at 1.3 GB), with no check of the guard in between.
inline constexpr std::uint64_t kEventBytesShareOfLimit = 16;

// Watches the process's private memory on a thread of its own while a load runs. When reading
// reaches its share of limitBytes it sets LoadControl::memoryLimitReached and stopReading (never the
// user's cancel), so that every reader stops at its next check; the loader then says where reading
// stopped and builds the model from what was read, instead of letting the kernel kill the process.
class LoadMemoryGuard
{
public:
    LoadMemoryGuard(LoadControl &control, std::uint64_t limitBytes);
    ~LoadMemoryGuard();
    LoadMemoryGuard(const LoadMemoryGuard &) = delete;
    LoadMemoryGuard &operator=(const LoadMemoryGuard &) = delete;

private:
    bool stopWhenOverBudget(); // true when it stopped the load
    void watch();

    LoadControl &m_control;
    std::uint64_t m_budget;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_finished = false;
    std::thread m_thread;
};

} // namespace at
