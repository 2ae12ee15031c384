#include "MappedFile.h"

#include "common/MessageText.h"

#include <QCoreApplication>
#include <QFile>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace at {

namespace {

// The mappings the SIGBUS handler may repair. A slot is live while begin is non-zero; end and the
// truncation offset are written before begin is published and read only after it.
struct GuardSlot
{
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
    std::atomic<std::atomic<std::size_t> *> truncatedAt{nullptr};
};
constexpr int kGuardSlots = 16384;
std::array<GuardSlot, kGuardSlots> g_slots;
std::atomic<int> g_slotHint{0};
struct sigaction g_previousBus;
std::once_flag g_installOnce;

void chainToPrevious(int sig, siginfo_t *info, void *context)
{
    if (g_previousBus.sa_flags & SA_SIGINFO) {
        if (g_previousBus.sa_sigaction) {
            g_previousBus.sa_sigaction(sig, info, context);
            return;
        }
    } else if (g_previousBus.sa_handler != SIG_DFL && g_previousBus.sa_handler != SIG_IGN) {
        g_previousBus.sa_handler(sig);
        return;
    }
    // Default action: restore it and return, so that the faulting access raises SIGBUS again.
    ::signal(SIGBUS, SIG_DFL);
}

// Async-signal-safe: atomics, sysconf-free page arithmetic and one mmap call.
void onSigbus(int sig, siginfo_t *info, void *context)
{
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (GuardSlot &slot : g_slots) {
        const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
        if (begin == 0 || address < begin)
            continue;
        const std::uintptr_t end = slot.end.load(std::memory_order_relaxed);
        if (address >= end)
            continue;
        const auto page = static_cast<std::uintptr_t>(::getpagesize());
        const std::uintptr_t from = address & ~(page - 1);
        // Zero pages from the fault to the end: the file is shorter from here on.
        void *patched = ::mmap(reinterpret_cast<void *>(from), end - from, PROT_READ,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (patched == MAP_FAILED)
            break;
        if (std::atomic<std::size_t> *truncated = slot.truncatedAt.load(std::memory_order_relaxed)) {
            std::size_t offset = from - begin;
            std::size_t current = truncated->load(std::memory_order_relaxed);
            while (offset < current && !truncated->compare_exchange_weak(current, offset)) {
            }
        }
        return;
    }
    chainToPrevious(sig, info, context);
}

void installHandler()
{
    std::call_once(g_installOnce, [] {
        struct sigaction action;
        std::memset(&action, 0, sizeof action);
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &g_previousBus);
    });
}

int registerMapping(const char *data, std::size_t size, std::atomic<std::size_t> *truncatedAt)
{
    installHandler();
    const int start = g_slotHint.load(std::memory_order_relaxed);
    for (int i = 0; i < kGuardSlots; ++i) {
        const int index = (start + i) % kGuardSlots;
        GuardSlot &slot = g_slots[static_cast<std::size_t>(index)];
        std::uintptr_t expected = 0;
        // Claim with a sentinel that no address matches, then fill in and publish.
        if (!slot.begin.compare_exchange_strong(expected, UINTPTR_MAX))
            continue;
        slot.end.store(reinterpret_cast<std::uintptr_t>(data) + size, std::memory_order_relaxed);
        slot.truncatedAt.store(truncatedAt, std::memory_order_relaxed);
        slot.begin.store(reinterpret_cast<std::uintptr_t>(data), std::memory_order_release);
        g_slotHint.store((index + 1) % kGuardSlots, std::memory_order_relaxed);
        return index;
    }
    return -1; // more live mappings than slots: this one is not guarded
}

void unregisterMapping(int index)
{
    if (index >= 0)
        g_slots[static_cast<std::size_t>(index)].begin.store(0, std::memory_order_release);
}

std::function<void(const QString &)> &mappedHook()
{
    static std::function<void(const QString &)> hook;
    return hook;
}

QString notRegular(const QString &path, mode_t mode)
{
    return QCoreApplication::translate("Parser", "%1 is %2, not a regular file")
        .arg(path, fileKindText(mode));
}

} // namespace

QString specialFileProblem(const QString &path, bool followSymlink)
{
    struct stat st;
    const QByteArray name = QFile::encodeName(path);
    if ((followSymlink ? ::stat(name.constData(), &st) : ::lstat(name.constData(), &st)) != 0)
        return {};
    if (S_ISREG(st.st_mode) || (!followSymlink && S_ISLNK(st.st_mode)))
        return {};
    return notRegular(path, st.st_mode);
}

std::unique_ptr<MappedFile> MappedFile::open(const QString &path, QString *error)
{
    return openFile(path, error, 0);
}

std::unique_ptr<MappedFile> MappedFile::openSmallInMemory(const QString &path, QString *error)
{
    return openFile(path, error, kReadBelowBytes);
}

// Reads size bytes (fewer when the file shrank: the rest stays NUL and truncatedAt says where it ended).
bool MappedFile::readInto(int fd, std::size_t size)
{
    m_buffer = std::make_unique<char[]>(size); // zeroed
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd, m_buffer.get() + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    m_data = m_buffer.get();
    m_size = size;
    m_truncatedAt = done;
    return true;
}

std::unique_ptr<MappedFile> MappedFile::openFile(const QString &path, QString *error, std::size_t readBelow)
{
    std::unique_ptr<MappedFile> mapped(new MappedFile);
    mapped->m_path = path;
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return nullptr;
    };
    const QByteArray name = QFile::encodeName(path);
    // O_NONBLOCK: opening a FIFO must never wait for a writer; the type is checked right after.
    const int fd = ::open(name.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int code = errno;
        if (code == ENAMETOOLONG)
            return fail(QCoreApplication::translate("Parser", "%1: cannot open: the path is too long")
                            .arg(displayPath(path)));
        return fail(QCoreApplication::translate("Parser", "%1: cannot open: %2")
                        .arg(path, QString::fromLocal8Bit(std::strerror(code))));
    }
    struct stat st;
    std::memset(&st, 0, sizeof st);
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const mode_t mode = st.st_mode;
        ::close(fd);
        return fail(notRegular(path, mode));
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size == 0) {
        // A /proc or /sys file reports size 0 yet has contents, which a mapping cannot show: said so,
        // not "the file is empty".
        char probe = 0;
        const bool hasBytes = ::read(fd, &probe, 1) > 0;
        ::close(fd);
        if (hasBytes)
            return fail(QCoreApplication::translate("Parser", "%1: the system reports a size of 0 bytes for "
                                                              "it, yet it has contents (a /proc or /sys "
                                                              "file?): it cannot be read as a file of data")
                            .arg(displayPath(path)));
        mapped->m_truncatedAt = 0;
        return mapped;
    }
    if (size < readBelow) {
        if (mappedHook())
            mappedHook()(path); // as after a mapping: a test may change the file before it is read
        const bool read = mapped->readInto(fd, size);
        const int code = errno;
        ::close(fd);
        if (!read)
            return fail(QCoreApplication::translate("Parser", "%1: cannot read: %2")
                            .arg(path, QString::fromLocal8Bit(std::strerror(code))));
        return mapped;
    }
    void *data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int code = errno;
    ::close(fd); // the mapping keeps the file; holding a descriptor per loaded file exhausts the limit
    if (data == MAP_FAILED)
        return fail(QCoreApplication::translate("Parser", "%1: cannot map the file into memory: %2")
                        .arg(path, QString::fromLocal8Bit(std::strerror(code))));
    mapped->m_data = static_cast<const char *>(data);
    mapped->m_size = size;
    mapped->m_truncatedAt = size;
    mapped->m_guardSlot = registerMapping(mapped->m_data, size, &mapped->m_truncatedAt);
    if (mappedHook())
        mappedHook()(path);
    return mapped;
}

MappedFile::~MappedFile()
{
    unregisterMapping(m_guardSlot);
    if (m_data && !m_buffer)
        ::munmap(const_cast<char *>(m_data), m_size);
}

QString MappedFile::truncationMessage() const
{
    return QCoreApplication::translate("Parser", "%1 changed while it was read: %2 of %3 bytes read")
        .arg(m_path)
        .arg(truncatedAt())
        .arg(m_size);
}

void MappedFile::setMappedHookForTesting(std::function<void(const QString &)> hook)
{
    mappedHook() = std::move(hook);
}

QString fileKindText(mode_t mode)
{
    if (S_ISDIR(mode))
        return QCoreApplication::translate("Parser", "a folder");
    if (S_ISFIFO(mode))
        return QCoreApplication::translate("Parser", "a FIFO (named pipe)");
    if (S_ISSOCK(mode))
        return QCoreApplication::translate("Parser", "a socket");
    if (S_ISCHR(mode))
        return QCoreApplication::translate("Parser", "a character device");
    if (S_ISBLK(mode))
        return QCoreApplication::translate("Parser", "a block device");
    return QCoreApplication::translate("Parser", "a special file");
}

} // namespace at
