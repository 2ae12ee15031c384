// Issue 21 part B, "clear messages" and "limits that hold", through the real ascend-timeline binary:
// options that used to be ignored or gave an empty message are refused (exit 2) with one that states
// what is accepted; AT_MEMORY_LIMIT garbage is ignored with a warning; --chart without kernels exits 1;
// and --memory-limit holds within 1.25 × limit + 32 MiB of peak RSS for JSON, CSV and raw inputs.

#include "PeakRss.h"
#include "RawRecordWriter.h"
#include "TestPaths.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run runApp(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    QProcessEnvironment e = env;
    e.insert(QStringLiteral("AT_NO_SNAPSHOT"), QStringLiteral("1"));
    e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(e);
    process.start(at::test::appBinary(), args);
    if (!process.waitForFinished(120000))
        process.kill();
    Run r;
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = QString::fromUtf8(process.readAllStandardOutput());
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QByteArray smallTrace()
{
    return "[{\"ph\":\"X\",\"name\":\"k\",\"pid\":1,\"tid\":1,\"ts\":\"10.000\",\"dur\":1}]";
}

} // namespace

class TestContentCli : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    QString m_trace;

private slots:
    void initTestCase()
    {
        QVERIFY(tmp.isValid());
        m_trace = writeFile(tmp, QStringLiteral("small.json"), smallTrace());
    }

    // Below the minimum the limit would stop every load before its first byte: refused, minimum named.
    void memoryLimitBelowTheMinimum()
    {
        const Run r = runApp(
            {QStringLiteral("--summary"), QStringLiteral("--memory-limit"), QStringLiteral("1K"), m_trace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--memory-limit must be at least 4 MiB")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // AT_MEMORY_LIMIT that is not a size: ignored (the default applies), with a warning on stderr and
    // in the load's warnings (what the window shows).
    void memoryLimitEnvironmentGarbage_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("text") << QStringLiteral("garbage");
        QTest::newRow("negative") << QStringLiteral("-1");
        QTest::newRow("too small") << QStringLiteral("1K");
    }
    void memoryLimitEnvironmentGarbage()
    {
        QFETCH(QString, value);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AT_MEMORY_LIMIT"), value);
        const Run r = runApp({QStringLiteral("--summary"), m_trace}, env);
        QCOMPARE(r.exitCode, 0);
        const QString expected =
            QStringLiteral("AT_MEMORY_LIMIT='%1' is not a size of at least 4 MiB").arg(value);
        QVERIFY2(r.err.contains(QStringLiteral("warning: ") + expected), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("it was ignored")), qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("Warning: ") + expected),
                 qPrintable(r.out)); // the load's warning
        QVERIFY2(r.out.contains(QStringLiteral("Slices: 1")), qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("memory use reached the limit")));
    }

    void badWindowSizeIsRefused_data()
    {
        QTest::addColumn<QString>("size");
        for (const char *s : {"0x0", "abc", "-5x-5", "99999999999x1", "8193x100", "100x", "1x2x3"})
            QTest::newRow(s) << QString::fromLatin1(s);
    }
    void badWindowSizeIsRefused()
    {
        QFETCH(QString, size);
        const QString png = tmp.filePath(QStringLiteral("shot.png"));
        const Run r = runApp({QStringLiteral("--screenshot"), png, QStringLiteral("--size"), size, m_trace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(
                     QStringLiteral("--size must be WIDTHxHEIGHT with each side from 1 to 8192 pixels")) &&
                     r.err.contains(size),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(png));
    }

    void emptyCompareStepsIsRefused()
    {
        const Run r = runApp({QStringLiteral("--compare-steps"), QString(), m_trace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--compare-steps needs two steps A,B")), qPrintable(r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("Slices:")), qPrintable(r.out)); // not the summary
    }

    void chartWithoutKernelsFails()
    {
        const QString png = tmp.filePath(QStringLiteral("chart.png"));
        const Run r = runApp({QStringLiteral("--chart"), QStringLiteral("top-kernels"),
                              QStringLiteral("--out"), png, m_trace});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(m_trace) && r.err.contains(QStringLiteral("nothing to chart")),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(png));
    }

    // --memory-limit holds: peak RSS of the whole process (libraries, the mapped input, everything)
    // within the margin. A 200 MB name used to peak at 1.3 GB under 100M; now the event is skipped.
    // The peak bounds are the documented margin (docs/ROBUSTNESS.md), checked by the gcc pass. Under the
    // sanitizers the process's RSS also holds the shadow memory and ASan's quarantine of freed blocks (up to
    // 256 MB by default), so there the bounds are not checked, as in tst_robust_limits_cli: the stop of
    // session 14's rehearsal saw 164,156 KiB against 160,768 on one run and a pass on the next, same code.
    void memoryLimitHoldsForOneHugeName()
    {
        const QString path = tmp.filePath(QStringLiteral("hugename.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[{\"ph\":\"X\",\"name\":\"before\",\"pid\":1,\"tid\":1,\"ts\":\"5.000\",\"dur\":1},\n");
            f.write("{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":\"10.000\",\"dur\":1,\"name\":\"");
            const QByteArray block(1 << 20, 'n');
            for (int i = 0; i < 200; ++i)
                f.write(block);
            f.write(
                "\"},\n{\"ph\":\"X\",\"name\":\"after\",\"pid\":1,\"tid\":1,\"ts\":\"20.000\",\"dur\":1}]\n");
        }
        const PeakRun r = runMeasured(
            {QStringLiteral("--summary"), QStringLiteral("--memory-limit"), QStringLiteral("100M"), path});
        QFile::remove(path);
        QCOMPARE(r.exitCode, 0);
        // Private memory within the margin; everything resident within it plus the one event's bytes of
        // the file, which the scanner reads through the mapping to find its end (clean page cache).
        QVERIFY2(r.peakAnonKiB > 0 && (kSanitized || r.peakAnonKiB <= allowedPeakKiB(100)),
                 qPrintable(QStringLiteral("private peak %1 KiB, allowed %2 KiB")
                                .arg(r.peakAnonKiB)
                                .arg(allowedPeakKiB(100))));
        QVERIFY2(r.peakKiB > 0 && (kSanitized || r.peakKiB <= allowedPeakKiB(100) + 200 * 1024),
                 qPrintable(QStringLiteral("peak %1 KiB").arg(r.peakKiB)));
    }

    // Many events: reading stops at the guard's share, the model is built from what was read, and the
    // peak stays within the margin.
    void memoryLimitHoldsForManyEvents()
    {
        const QString path = tmp.filePath(QStringLiteral("many.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[");
            QByteArray chunk;
            for (int i = 0; i < 1500000; ++i) {
                chunk += (i ? ",\n" : "") + QByteArray("{\"ph\":\"X\",\"name\":\"kernel_") +
                         QByteArray::number(i % 5000) + "\",\"pid\":1,\"tid\":" + QByteArray::number(i % 8) +
                         ",\"ts\":\"" + QByteArray::number(1000000 + i * 10) +
                         ".000\",\"dur\":5,\"args\":{\"i\":" + QByteArray::number(i) + "}}";
                if (chunk.size() > (1 << 20)) {
                    f.write(chunk);
                    chunk.clear();
                }
            }
            f.write(chunk + "]\n");
        }
        const PeakRun r = runMeasured(
            {QStringLiteral("--summary"), QStringLiteral("--memory-limit"), QStringLiteral("100M"), path});
        QFile::remove(path);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.peakKiB > 0 && (kSanitized || r.peakKiB <= allowedPeakKiB(100)),
                 qPrintable(
                     QStringLiteral("peak %1 KiB, allowed %2 KiB").arg(r.peakKiB).arg(allowedPeakKiB(100))));
        QVERIFY2(r.peakAnonKiB > 0 && r.peakAnonKiB <= r.peakKiB, qPrintable(QString::number(r.peakAnonKiB)));
    }

    // Raw decoding: one HWTS slice of 2,000,000 records (128 MB; it never tripped the guard under 100M).
    void memoryLimitHoldsForRawSlice()
    {
        QTemporaryDir d;
        const QString prof = d.filePath(QStringLiteral("PROF_000001_20240101000000000_ABCDEFGHIJKLMNOP"));
        const QString host = prof + "/host/data", dev = prof + "/device_0/data";
        using at::test::writeFile;
        writeFile(host + "/info.json",
                  R"({"CPU":[{"Id":0,"Frequency":""}],"DeviceInfo":[],"platform_version":"1"})");
        writeFile(host + "/start_info",
                  R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
        writeFile(host + "/host_start.log",
                  "[Host]\nclock_monotonic_raw: 5000000000\ncntvct: 0\ncntvct_diff: 0\n");
        writeFile(dev + "/info.json.0",
                  R"({"platform_version":"1","DeviceInfo":[{"id":0,"hwts_frequency":"50"}]})");
        writeFile(dev + "/start_info.0",
                  R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
        writeFile(dev + "/dev_start.log.0", "[Device]\nclock_monotonic_raw: 5000000000\ncntvct: 1000000\n");
        {
            QDir().mkpath(dev);
            QFile f(dev + "/hwts.data.0.slice_0");
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray block;
            int cnt = 0;
            for (int i = 0; i < 1000000; ++i) {
                const auto task = static_cast<std::uint16_t>(i & 0xFFFF);
                const std::uint64_t start = 1050000 + static_cast<std::uint64_t>(i) * 10;
                block += at::test::hwtsRecord(0, cnt++ & 15, 0, task, start, 3 + (i % 4));
                block += at::test::hwtsRecord(1, cnt++ & 15, 0, task, start + 5, 3 + (i % 4));
                if (block.size() >= (1 << 20)) {
                    f.write(block);
                    block.clear();
                }
            }
            f.write(block);
        }
        const PeakRun r = runMeasured({QStringLiteral("--summary"), QStringLiteral("--memory-limit"),
                                       QStringLiteral("100M"), d.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.peakAnonKiB > 0 && (kSanitized || r.peakAnonKiB <= allowedPeakKiB(100)),
                 qPrintable(QStringLiteral("private peak %1 KiB, allowed %2 KiB")
                                .arg(r.peakAnonKiB)
                                .arg(allowedPeakKiB(100))));
        // The slice is read through a mapping: its 128 MB of clean file pages may be resident on top.
        QVERIFY2(kSanitized || r.peakKiB <= allowedPeakKiB(100) + 128 * 1024,
                 qPrintable(QStringLiteral("peak %1 KiB").arg(r.peakKiB)));
    }

    // A file starting with a NUL byte: the message shows it as 0x00, and no NUL reaches the terminal.
    void nulByteIsNotPrinted()
    {
        const QString path = writeFile(tmp, QStringLiteral("nul.json"), QByteArray("\0\1garbage", 9));
        const Run r = runApp({QStringLiteral("--summary"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(path) && r.err.contains(QStringLiteral("byte 0 is 0x00")), qPrintable(r.err));
        QVERIFY(!r.err.contains(QChar(0)));
        QVERIFY(!r.out.contains(QChar(0)));
    }
};

int main(int argc, char **argv)
{
    if (argc > 2 && std::strcmp(argv[1], "--peak-rss-of") == 0)
        return peakRssWrapper(argc, argv);
    QCoreApplication app(argc, argv);
    TestContentCli test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_content_cli.moc"
