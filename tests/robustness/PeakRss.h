#pragma once

// Peak memory of the real ascend-timeline binary in a child process, for the --memory-limit tests
// (docs/ROBUSTNESS.md, "the memory margin"). The test's main() must call peakRssWrapper when started as
// `TEST --peak-rss-of APP ARGS...`. Needs at::test::appBinary() (TestPaths.h).

#include "Sanitized.h"
#include "TestPaths.h"

#include <QCoreApplication>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace robust_peak {

// AddressSanitizer (every target is built with it under AT_SANITIZE) adds shadow memory, redzones and a
// quarantine of freed blocks to the app's RSS: the margin is a property of the normal build.
using at::test::kSanitized;

// Peak RSS of one run: this test binary re-runs itself as `--peak-rss-of APP ARGS...`, which forks the
// app, waits for it and prints the child's ru_maxrss (the only child it ever had, so nothing else
// counts), then the app's exit code.
struct PeakRun
{
    long peakKiB = -1;     // ru_maxrss: everything resident, the input file's pages included
    long peakAnonKiB = -1; // the largest RssAnon sampled: the process's private memory
    int exitCode = -1;
    QString err;
};

inline PeakRun runMeasured(const QStringList &args, const QString &stdoutFile = QString())
{
    QProcess process;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("AT_NO_SNAPSHOT"), QStringLiteral("1"));
    e.remove(QStringLiteral("AT_MEMORY_LIMIT"));
    if (!stdoutFile.isEmpty())
        e.insert(QStringLiteral("AT_PEAK_STDOUT"), stdoutFile);
    process.setProcessEnvironment(e);
    process.start(QCoreApplication::applicationFilePath(),
                  QStringList{QStringLiteral("--peak-rss-of"), at::test::appBinary()} + args);
    if (!process.waitForFinished(300000))
        process.kill();
    PeakRun r;
    const QString out = QString::fromUtf8(process.readAllStandardOutput());
    r.err = QString::fromUtf8(process.readAllStandardError());
    const qsizetype at = out.lastIndexOf(QStringLiteral("peak-rss-kib "));
    if (at >= 0) {
        const QStringList fields = out.mid(at).split(QLatin1Char(' '));
        if (fields.size() >= 4) {
            r.peakKiB = fields[1].toLong();
            r.exitCode = fields[2].toInt();
            r.peakAnonKiB = fields[3].trimmed().toLong();
        }
    }
    return r;
}

// RssAnon of a running process in KiB (the heap and other private memory; not the file's pages), or -1.
inline long rssAnonKiB(pid_t pid)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(pid));
    FILE *f = std::fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    long value = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "RssAnon: %ld", &value) == 1)
            break;
    std::fclose(f);
    return value;
}

inline int peakRssWrapper(int argc, char **argv)
{
    const pid_t child = fork();
    if (child == 0) {
        // The app's standard output goes to AT_PEAK_STDOUT when set (the test reads its warnings there).
        const char *out = std::getenv("AT_PEAK_STDOUT");
        if (std::freopen(out && *out ? out : "/dev/null", "w", stdout) == nullptr)
            _exit(126);
        execv(argv[2], argv + 2);
        _exit(127);
    }
    // Sampled every millisecond: a peak of the private memory lasts far longer than that.
    long peakAnon = 0;
    int status = 0;
    while (waitpid(child, &status, WNOHANG) == 0) {
        peakAnon = std::max(peakAnon, rssAnonKiB(child));
        usleep(1000);
    }
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    std::printf("peak-rss-kib %ld %d %ld\n", usage.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                peakAnon);
    (void)argc;
    return 0;
}

// The stated margin (docs/ROBUSTNESS.md): peak RSS within 1.25 × limit + 32 MiB.
inline long allowedPeakKiB(long limitMiB)
{
    return (limitMiB * 5 / 4 + 32) * 1024;
}

} // namespace robust_peak

using robust_peak::allowedPeakKiB;
using robust_peak::kSanitized;
using robust_peak::peakRssWrapper;
using robust_peak::PeakRun;
using robust_peak::runMeasured;
