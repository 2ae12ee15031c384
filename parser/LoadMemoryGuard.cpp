#include "LoadMemoryGuard.h"

#include "TraceLoader.h"
#include "common/MessageText.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>

namespace at {

namespace {

std::uint64_t limitFromEnvironment(QString *problem)
{
    const QByteArray value = qgetenv("AT_MEMORY_LIMIT");
    if (value.isEmpty())
        return 0;
    const std::uint64_t bytes = parseByteSize(QString::fromUtf8(value)).value_or(0);
    if (bytes >= kMinimumMemoryLimit)
        return bytes;
    if (problem)
        *problem = QCoreApplication::translate(
                       "Parser", "AT_MEMORY_LIMIT='%1' is not a size of at least %2 such as 8G or 512M; it "
                                 "was ignored")
                       .arg(printableText(QString::fromUtf8(value)), formatByteSize(kMinimumMemoryLimit));
    return 0;
}

} // namespace

std::uint64_t privateResidentBytes()
{
    // statm: size resident shared text lib data dt, in pages; "shared" counts file-backed pages.
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    if (fields.size() < 3)
        return 0;
    const std::uint64_t resident = fields[1].toULongLong();
    const std::uint64_t shared = fields[2].toULongLong();
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    return resident > shared ? (resident - shared) * page : 0;
}

std::uint64_t physicalMemoryBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::optional<std::uint64_t> parseByteSize(const QString &text)
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*([kKmMgGtT]?)(?:i?[bB])?\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    const double number = match.captured(1).toDouble();
    int shift = 0;
    switch (match.captured(2).toUpper().isEmpty() ? '\0' : match.captured(2).toUpper().at(0).toLatin1()) {
    case 'K':
        shift = 10;
        break;
    case 'M':
        shift = 20;
        break;
    case 'G':
        shift = 30;
        break;
    case 'T':
        shift = 40;
        break;
    default:
        break;
    }
    const double bytes = std::ldexp(number, shift);
    if (!(bytes >= 1.0) || bytes > 9.0e18)
        return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

QString formatByteSize(std::uint64_t bytes)
{
    if (bytes >= (1ull << 30))
        return QStringLiteral("%1 GiB").arg(static_cast<double>(bytes) / (1ull << 30), 0, 'f', 1);
    if (bytes >= (1ull << 20))
        return QStringLiteral("%1 MiB").arg(static_cast<double>(bytes) / (1ull << 20), 0, 'f', 0);
    return QStringLiteral("%1 KiB").arg((bytes + 1023) / 1024);
}

std::uint64_t defaultMemoryLimit(QString *problem)
{
    if (const std::uint64_t fromEnvironment = limitFromEnvironment(problem))
        return fromEnvironment;
    const std::uint64_t limit = physicalMemoryBytes() / 5 * 4;
    if (problem && !problem->isEmpty())
        *problem += QCoreApplication::translate("Parser", " (the limit is 80 % of the RAM: %1)")
                        .arg(formatByteSize(limit));
    return limit;
}

QString memoryStopReason(std::uint64_t limitBytes)
{
    const auto readingBudget =
        static_cast<std::uint64_t>(static_cast<double>(limitBytes) * kReadingShareOfLimit);
    return QCoreApplication::translate("Parser",
                                       "memory use reached the limit for reading (%1, %2 % of the %3 "
                                       "limit: building the model needs the rest; raise it with "
                                       "--memory-limit or AT_MEMORY_LIMIT)")
        .arg(formatByteSize(readingBudget))
        .arg(qRound(kReadingShareOfLimit * 100))
        .arg(formatByteSize(limitBytes));
}

LoadMemoryGuard::LoadMemoryGuard(LoadControl &control, std::uint64_t limitBytes)
    : m_control(control),
      m_budget(limitBytes == 0
                   ? 0
                   : std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(limitBytes) *
                                                                           kReadingShareOfLimit)))
{
    if (m_budget == 0 || privateResidentBytes() == 0)
        return;                // no limit, or no way to measure here
    if (!stopWhenOverBudget()) // already over: stop before the first byte is read
        m_thread = std::thread([this] { watch(); });
}

LoadMemoryGuard::~LoadMemoryGuard()
{
    {
        std::lock_guard lock(m_mutex);
        m_finished = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool LoadMemoryGuard::stopWhenOverBudget()
{
    if (privateResidentBytes() < m_budget)
        return false;
    m_control.memoryLimitReached = true;
    m_control.stopReading = true;
    return true;
}

void LoadMemoryGuard::watch()
{
    // 5 ms: reading grows memory by a few MB in that time, far below any sensible limit. One stop per
    // load: building the model afterwards is not interrupted.
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, std::chrono::milliseconds(5), [this] { return m_finished; }))
        if (stopWhenOverBudget())
            return;
}

} // namespace at
