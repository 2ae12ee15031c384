// Issue 29, item 10 and parts of item 12: messages that say why. A raw PROF_* folder whose decode fails
// ended in "… holds raw data only: run msprof --export=on … (no raw record could be decoded)" whatever
// stopped it; now the failure names the file and the value (a garbage or missing info.json.N, an
// hwts_frequency of 0, -1, 1e400, nan or text, a /proc file, slices that cannot be read). The raw folder
// holds the configuration files of a real msprof run (samples/msprof_ut_raw_meta_files) and device records
// written from the documented layouts (TiledRawFolder.h). Also: a /proc file opened as a trace is not "the
// file is empty", a path longer than PATH_MAX does not push the reason out of the message (window and
// command line), and a memory stop quotes the share of the limit it stopped at, not the memory in use
// afterwards (which was below the limit).

#include "LoadMemoryGuard.h"
#include "TestPaths.h"
#include "TiledRawFolder.h"
#include "TraceLoader.h"
#include "common/MessageText.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <climits>

#include <malloc.h>
#include <sys/stat.h>

using namespace at;

namespace {

LoadResult load(const QString &path, LoadOptions options = environmentLoadOptions())
{
    LoadControl control;
    options.useSnapshotCache = false;
    return loadTrace(path, options, control);
}

QString deviceInfo(const QString &prof)
{
    return prof + QStringLiteral("/device_0/data/info.json.0");
}

bool rewrite(const QString &file, const QByteArray &bytes)
{
    QFile::remove(file);
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestRobustMessages : public QObject
{
    Q_OBJECT

    // A raw-only PROF_* folder with device task logs (HWTS, AI Core PMU, AI CPU, ts_track) and no host
    // record slices, so nothing is decoded when the device's configuration is unusable.
    static QString writeDeviceOnlyFolder(const QTemporaryDir &dir)
    {
        const test::TiledRawFolder raw = test::writeTiledRawFolder(dir.path(), 1);
        const QDir host(raw.prof + QStringLiteral("/host/data"));
        for (const QString &slice : host.entryList({QStringLiteral("*.slice_*")}, QDir::Files))
            QFile::remove(host.filePath(slice));
        return raw.prof;
    }

private Q_SLOTS:
    void deviceOnlyFolderDecodes()
    {
        // The fixture itself: with its real configuration every device task is decoded.
        QTemporaryDir dir;
        const LoadResult r = load(writeDeviceOnlyFolder(dir));
        QVERIFY2(r.model, qPrintable(r.error));
        QVERIFY(r.model->sliceCount() >= std::size_t(test::kTasksPerTile));
    }

    void rawDecodeFailureSaysWhy_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("why");
        // hwts_frequency values, in the real info.json (where it is "100").
        QTest::newRow("hwts_frequency 0")
            << R"("0")"
            << R"(device_0/data/info.json.0: DeviceInfo[0].hwts_frequency is "0")";
        QTest::newRow("hwts_frequency -1") << R"("-1")"
                                           << R"(DeviceInfo[0].hwts_frequency is "-1")";
        QTest::newRow("hwts_frequency number -1") << "-1"
                                                  << R"(DeviceInfo[0].hwts_frequency is "-1")";
        QTest::newRow("hwts_frequency 1e400 text") << R"("1e400")"
                                                   << R"(DeviceInfo[0].hwts_frequency is "1e400")";
        QTest::newRow("hwts_frequency 1e400 number")
            << "1e400"
            << R"(device_0/data/info.json.0: not valid JSON (illegal number at byte)";
        QTest::newRow("hwts_frequency nan") << R"("nan")"
                                            << R"(DeviceInfo[0].hwts_frequency is "nan")";
        QTest::newRow("hwts_frequency NaN number") << "NaN"
                                                   << R"(device_0/data/info.json.0: not valid JSON)";
        QTest::newRow("hwts_frequency text") << R"("fast")"
                                             << R"(DeviceInfo[0].hwts_frequency is "fast")";
        QTest::newRow("no hwts_frequency") << ""
                                           << "DeviceInfo[0] has no hwts_frequency";
        // The whole file.
        QTest::newRow("garbage info.json.0") << "garbage"
                                             << "device_0/data/info.json.0: not valid JSON (";
        QTest::newRow("binary info.json.0") << "binary"
                                            << "info.json.0: not a text file (it contains NUL bytes)";
        QTest::newRow("missing info.json.0") << "missing"
                                             << "data has no info.json.0 (nor any info.json* file)";
        QTest::newRow("info.json.0 is a /proc file") << "proc"
                                                     << "info.json.0: the system reports a size of 0 bytes";
        QTest::newRow("info.json.0 is a folder") << "folder"
                                                 << "info.json.0: it is a folder, not a file";
        QTest::newRow("unreadable slices") << "dangling"
                                           << "hwts.data.0.slice_0: cannot open: ";
    }

    void rawDecodeFailureSaysWhy()
    {
        QFETCH(QString, change);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const QString prof = writeDeviceOnlyFolder(dir);
        const QString info = deviceInfo(prof);
        QFile real(info);
        QVERIFY(real.open(QIODevice::ReadOnly));
        const QByteArray original = real.readAll();
        real.close();
        const QByteArray field = R"("hwts_frequency": "100")";
        QVERIFY(original.contains(field));
        if (change == QLatin1String("garbage")) {
            QVERIFY(rewrite(info, "{\"DeviceInfo\": [{\"hwts_frequency\": \"100\"} garbage"));
        } else if (change == QLatin1String("binary")) {
            QVERIFY(rewrite(info, QByteArray("\x7f"
                                             "ELF\0\0\0\x01",
                                             8)));
        } else if (change == QLatin1String("missing")) {
            QVERIFY(QFile::remove(info));
        } else if (change == QLatin1String("proc")) {
            QVERIFY(QFile::remove(info));
            QVERIFY(QFile::link(QStringLiteral("/proc/self/status"), info));
        } else if (change == QLatin1String("folder")) {
            QVERIFY(QFile::remove(info));
            QVERIFY(QDir().mkpath(info));
        } else if (change == QLatin1String("dangling")) {
            // Every device slice file is a symbolic link to nothing (a slice deleted while the folder was
            // copied); a readable-only listing dropped them without a word.
            const QDir data(prof + QStringLiteral("/device_0/data"));
            for (const QString &slice : data.entryList({QStringLiteral("*.slice_*")}, QDir::Files)) {
                QVERIFY(QFile::remove(data.filePath(slice)));
                QVERIFY(QFile::link(data.filePath(QStringLiteral("gone")), data.filePath(slice)));
            }
        } else {
            QByteArray edited = original;
            edited.replace(field, change.isEmpty() ? QByteArray(R"("unrelated": "100")")
                                                   : QByteArray(R"("hwts_frequency": )") + change.toUtf8());
            QVERIFY(rewrite(info, edited));
        }
        const LoadResult r = load(dir.path());
        QVERIFY2(!r.model, qPrintable(r.model ? r.model->warnings().join(QLatin1Char('\n')) : QString()));
        // The detector's advice is kept; the decode's reason follows it, naming the file and the value.
        QVERIFY2(r.error.contains(QStringLiteral("holds raw data only")), qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("no raw record could be decoded: ")), qPrintable(r.error));
        QVERIFY2(r.error.contains(why), qPrintable(r.error));
    }

    void rawDecodeFailureOnTheCommandLine()
    {
        QTemporaryDir dir;
        const QString prof = writeDeviceOnlyFolder(dir);
        QFile info(deviceInfo(prof));
        QVERIFY(info.open(QIODevice::ReadOnly));
        QByteArray edited = info.readAll();
        info.close();
        edited.replace(R"("hwts_frequency": "100")", R"("hwts_frequency": "0")");
        QVERIFY(rewrite(deviceInfo(prof), edited));
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AT_NO_SNAPSHOT"), QStringLiteral("1"));
        app.setProcessEnvironment(env);
        app.start(at::test::appBinary(), {QStringLiteral("--summary"), dir.path()});
        QVERIFY(app.waitForFinished(120000));
        const QString err = QString::fromLocal8Bit(app.readAllStandardError());
        QCOMPARE(app.exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral(
                     R"(info.json.0: DeviceInfo[0].hwts_frequency is "0", not a frequency in MHz above 0)")),
                 qPrintable(err));
    }

    void procFileIsNotCalledEmpty_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("/proc/self/status") << "/proc/self/status";
        QTest::newRow("/proc/cpuinfo") << "/proc/cpuinfo";
        QTest::newRow("/proc/self/maps") << "/proc/self/maps";
    }

    void procFileIsNotCalledEmpty()
    {
        QFETCH(QString, file);
        const LoadResult r = load(file);
        QVERIFY(!r.model);
        QVERIFY2(!r.error.contains(QStringLiteral("empty")), qPrintable(r.error));
        QVERIFY2(r.error.contains(file +
                                  QStringLiteral(": the system reports a size of 0 bytes for it, yet it has "
                                                 "contents")),
                 qPrintable(r.error));
        // A file that is really empty still says so.
        QTemporaryDir dir;
        QVERIFY(rewrite(dir.filePath(QStringLiteral("empty.json")), QByteArray()));
        const LoadResult empty = load(dir.filePath(QStringLiteral("empty.json")));
        QVERIFY(!empty.model);
        QVERIFY2(empty.error.contains(QStringLiteral("the file is empty")), qPrintable(empty.error));
    }

    // A path longer than PATH_MAX: the message keeps the reason and stays readable (the command line printed
    // its first 4,000 characters, all of them the path).
    void pathBeyondPathMaxKeepsTheReason()
    {
        QTemporaryDir dir;
        const QString path = dir.path() +
                             QStringLiteral("/%1").arg(QString(200, QLatin1Char('d'))).repeated(25) +
                             QStringLiteral("/t.json");
        QVERIFY(QFile::encodeName(path).size() > PATH_MAX);
        const LoadResult r = load(path);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(QStringLiteral("the path is too long (%1 bytes; the system allows %2)")
                                      .arg(QFile::encodeName(path).size())
                                      .arg(PATH_MAX - 1)),
                 qPrintable(r.error));
        QVERIFY2(r.error.size() < 400, qPrintable(r.error));
        QVERIFY(r.error.startsWith(path.left(100))); // named by its start and its end
        QVERIFY(r.error.contains(QStringLiteral("ddd/t.json: the path is too long")));

        QProcess app;
        app.start(at::test::appBinary(), {QStringLiteral("--summary"), path});
        QVERIFY(app.waitForFinished(60000));
        const QString err = QString::fromLocal8Bit(app.readAllStandardError());
        QCOMPARE(app.exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral("the path is too long (")), qPrintable(err));
    }

    // Long text in a message keeps its end (the reason) with its start; control characters stay escaped.
    void printableTextKeepsTheEnd()
    {
        const QString text = QString(5000, QLatin1Char('p')) + QStringLiteral(": the reason\n");
        const QString shown = printableText(text, 4000);
        QVERIFY(shown.size() <= 4001 + 3); // the line feed kept at the end is shown as \x0a
        QVERIFY(shown.startsWith(QString(100, QLatin1Char('p'))));
        QVERIFY2(shown.endsWith(QStringLiteral(": the reason\\x0a")), qPrintable(shown.right(40)));
        QCOMPARE(printableText(QStringLiteral("a\x1b[31mb")), QStringLiteral("a\\x1b[31mb"));
        QCOMPARE(displayPath(QStringLiteral("/short/path")), QStringLiteral("/short/path"));
    }

    // The guard stops reading at 60 % of the limit; the warning said "reached the limit (300 MiB of 1 GiB)",
    // the memory in use when the warning was written, below the limit. It now quotes the share it stopped at.
    void memoryStopQuotesTheShareOfTheLimit()
    {
        QTemporaryDir dir;
        constexpr int kEvents = 300000;
        QByteArray trace = "[";
        for (int i = 0; i < kEvents; ++i)
            trace += "{\"ph\":\"X\",\"name\":\"k" + QByteArray::number(i % 5000) +
                     "\",\"pid\":1,\"tid\":" + QByteArray::number(i % 8) + ",\"ts\":\"" +
                     QByteArray::number(1736408883000000LL + i) + ".000\",\"dur\":1}" +
                     (i + 1 < kEvents ? ",\n" : "]\n");
        const QString path = dir.filePath(QStringLiteral("memory.json"));
        QVERIFY(rewrite(path, trace));
        trace = QByteArray();
        ::malloc_trim(0);
        LoadOptions options = environmentLoadOptions();
        options.memoryLimitBytes = static_cast<std::uint64_t>(
            static_cast<double>(privateResidentBytes() + (4u << 20)) / kReadingShareOfLimit);
        const LoadResult r = load(path, options);
        QVERIFY2(r.model, qPrintable(r.error));
        QCOMPARE(r.stop, LoadStop::MemoryLimit);
        const QString warnings = r.model->warnings().join(QLatin1Char('\n'));
        const QString expected =
            QStringLiteral(
                "memory use reached the limit for reading (%1, 60 % of the %2 limit: building the model "
                "needs the rest; raise it with --memory-limit or AT_MEMORY_LIMIT)")
                .arg(formatByteSize(
                         static_cast<std::uint64_t>(static_cast<double>(options.memoryLimitBytes) * 0.6)),
                     formatByteSize(options.memoryLimitBytes));
        QVERIFY2(warnings.contains(path + QStringLiteral(": reading stopped ")) &&
                     warnings.contains(expected),
                 qPrintable(warnings));
    }
};

QTEST_GUILESS_MAIN(TestRobustMessages)
#include "tst_messages.moc"
