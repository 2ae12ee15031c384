#pragma once

// Timing and memory figures the cluster benches print (bench_cluster, bench_cluster_page): wall and CPU
// seconds, the process's peak RSS, and the baseline every run measures first (reading the same files'
// bytes).

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QString>

#include <ctime>

namespace at::bench {

inline double seconds(const QElapsedTimer &t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e9;
}

// Wall and CPU time of this process since start() (the shared machine's load makes wall times vary by
// several times; CPU seconds are the steadier figure).
class Stopwatch
{
public:
    void start()
    {
        m_wall.start();
        m_cpu = cpuSeconds();
    }
    QString text() const
    {
        return QStringLiteral("%1 s (%2 CPU-s)").arg(seconds(m_wall), 0, 'f', 3).arg(cpu(), 0, 'f', 3);
    }
    double cpu() const { return cpuSeconds() - m_cpu; }

private:
    static double cpuSeconds()
    {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
    }
    QElapsedTimer m_wall;
    double m_cpu = 0;
};

// This process's peak RSS in KiB (VmHWM), -1 when /proc cannot tell.
inline long peakRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

// The baseline: every file under root read into memory; the bytes read.
inline qint64 readEveryFile(const QString &root)
{
    qint64 bytes = 0;
    QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile f(files.next());
        if (f.open(QIODevice::ReadOnly))
            bytes += f.readAll().size();
    }
    return bytes;
}

} // namespace at::bench
