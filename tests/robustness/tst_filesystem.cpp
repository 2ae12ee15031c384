// Issue 21, part A: the file system misbehaving (docs/ROBUSTNESS.md, "Round two: the file system and
// outputs"). Inputs that shrink while they are read, special files given as the trace or planted at the
// snapshot path, outputs that must never replace a device or an input, the snapshot cache inside the
// data folder, stale snapshots, SQLite WAL content, and thousands of files under a low descriptor limit.
// Everything runs in the test process through at::loadTrace and the parser's helpers.

#include "ParserTestUtil.h"
#include "TraceQueries.h"
#include "Unprivileged.h"

#include "common/MappedFile.h"
#include "common/OutputPath.h"
#include "common/ProcessLimits.h"
#include "raw/SliceFiles.h"
#include "snapshot/SnapshotCache.h"
#include "sqlite/SqliteConnection.h"

#include <QDirIterator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <future>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <utime.h>

namespace {

// A Chrome trace of `count` complete events named ev0, ev1, … (about 100 bytes each).
QByteArray traceOf(int count, const char *prefix = "ev")
{
    QByteArray out = "{\"traceEvents\":[\n";
    for (int i = 0; i < count; ++i) {
        out += "{\"ph\":\"X\",\"name\":\"" + QByteArray(prefix) + QByteArray::number(i) +
               "\",\"pid\":1,\"tid\":1,\"ts\":\"" + QByteArray::number(1000 + i * 10) + ".000\",\"dur\":5}";
        out += i + 1 < count ? ",\n" : "\n";
    }
    return out + "]}\n";
}

bool truncateTo(const QString &path, off_t size)
{
    return ::truncate(QFile::encodeName(path).constData(), size) == 0;
}

bool anyWarningContains(const at::TraceModel &model, const QString &text)
{
    for (const QString &w : model.warnings())
        if (w.contains(text))
            return true;
    return false;
}

QStringList filesUnder(const QString &root)
{
    QStringList out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

// Runs loadTrace on another thread and gives up after a while, so that a blocking open fails the test
// instead of hanging it (the thread is then left behind, blocked).
std::optional<at::LoadResult> loadWithin(const QString &path, const at::LoadOptions &options,
                                         int seconds = 20)
{
    auto task = std::make_shared<std::packaged_task<at::LoadResult()>>([path, options] {
        at::LoadControl control;
        return at::loadTrace(path, options, control);
    });
    std::future<at::LoadResult> done = task->get_future();
    std::thread([task] { (*task)(); }).detach();
    if (done.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready)
        return std::nullopt;
    return done.get();
}

at::LoadOptions cachedOptions()
{
    at::LoadOptions options;
    options.useSnapshotCache = true;
    options.writeSnapshotInBackground = false;
    return options;
}

at::LoadOptions uncachedOptions()
{
    return at::LoadOptions{};
}

} // namespace

class TestFilesystem : public QObject
{
    Q_OBJECT

    QTemporaryDir m_cache;

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_cache.path()));
        qunsetenv("AT_NO_SNAPSHOT");
    }

    void cleanup() { at::MappedFile::setMappedHookForTesting({}); }

    // ---------------------------------------------------------------- files that shrink while read

    void mappedFileSurvivesTruncation()
    {
        QTemporaryDir dir;
        const long page = ::sysconf(_SC_PAGESIZE);
        const QString path = pt::writeFile(dir, QStringLiteral("five-pages.bin"), QByteArray(5 * page, 'x'));
        QString error;
        const auto mapped = at::MappedFile::open(path, &error);
        QVERIFY2(mapped, qPrintable(error));
        QVERIFY(!mapped->truncated());
        QVERIFY(truncateTo(path, page + 10));
        // Reading past the new end raised SIGBUS before; now the missing pages read as zeros.
        std::size_t xs = 0;
        for (std::size_t i = 0; i < mapped->size(); ++i)
            xs += mapped->data()[i] == 'x';
        QCOMPARE(xs, std::size_t(page + 10));
        QVERIFY(mapped->truncated());
        QCOMPARE(mapped->truncatedAt(), std::size_t(2 * page)); // the page holding the new end stays
        QCOMPARE(mapped->truncationMessage(),
                 QStringLiteral("%1 changed while it was read: %2 of %3 bytes read")
                     .arg(path)
                     .arg(2 * page)
                     .arg(5 * page));
    }

    void traceTruncatedWhileLoadingKeepsWhatWasRead()
    {
        QTemporaryDir dir;
        const QByteArray trace = traceOf(60000);
        const QString path = pt::writeFile(dir, QStringLiteral("trace.json"), trace);
        QVERIFY(trace.size() > 3'000'000);
        // The profiler (or a sync tool) cuts the file to 1 MB right after it was mapped.
        at::MappedFile::setMappedHookForTesting([path](const QString &mapped) {
            if (mapped == path)
                truncateTo(path, 1'000'000);
        });
        at::LoadControl control;
        const at::LoadResult r = at::loadTrace(path, uncachedOptions(), control);
        QVERIFY2(r.model, qPrintable(r.error));
        QVERIFY(anyWarningContains(*r.model, path + QStringLiteral(" changed while it was read: ")));
        QVERIFY(anyWarningContains(*r.model, QStringLiteral(" bytes read")));
        // Events of the first 1 MB were kept (all but those of a chunk cut in the middle), none beyond it.
        const auto whole = static_cast<std::size_t>(trace.left(1'000'000).count("\"dur\":5}"));
        QVERIFY2(r.model->sliceCount() > whole / 2 && r.model->sliceCount() <= whole,
                 qPrintable(QStringLiteral("%1 of %2").arg(r.model->sliceCount()).arg(whole)));
    }

    void snapshotTruncatedOnWarmReopenFallsBackToParsing()
    {
        QTemporaryDir dir;
        const QString path = pt::writeFile(dir, QStringLiteral("trace.json"), traceOf(20000));
        const QString snap = at::snapshot::pathFor(path, at::PreferredSource::Text);
        QVERIFY(!snap.isEmpty());
        at::LoadControl control;
        const at::LoadResult cold = at::loadTrace(path, cachedOptions(), control);
        QVERIFY(cold.model);
        QVERIFY(QFileInfo(snap).isFile());
        at::MappedFile::setMappedHookForTesting([snap](const QString &mapped) {
            if (mapped == snap)
                truncateTo(snap, 4096);
        });
        at::LoadControl again;
        const at::LoadResult warm = at::loadTrace(path, cachedOptions(), again);
        QVERIFY2(warm.model, qPrintable(warm.error));
        QVERIFY(!warm.fromSnapshot);
        QCOMPARE(warm.model->sliceCount(), std::size_t(20000));
    }

    void rawSliceTruncatedWhileDecodedKeepsWholeRecords()
    {
        QTemporaryDir dir;
        const long page = ::sysconf(_SC_PAGESIZE);
        constexpr std::size_t kRecord = 64;
        const QString path = pt::writeFile(dir, QStringLiteral("slice_0"), QByteArray(4 * page, '\x01'));
        at::MappedFile::setMappedHookForTesting([path, page](const QString &mapped) {
            if (mapped == path)
                truncateTo(path, page);
        });
        std::size_t ones = 0;
        const at::raw::StreamStats stats = at::raw::forEachRecord(
            {path}, kRecord, [&](const unsigned char *record) { ones += record[0] == 1; });
        QCOMPARE(stats.records, std::size_t(page) / kRecord);
        QCOMPARE(ones, std::size_t(page) / kRecord);
        QCOMPARE(stats.unreadable.size(), 1);
        QVERIFY(stats.unreadable.front().contains(QStringLiteral("changed while it was read")));
    }

    // ---------------------------------------------------------------- special files as inputs

    void specialInputsAreNamedAndNeverBlock_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fifo") << "fifo"
                              << "is a FIFO (named pipe), not a trace file or folder";
        QTest::newRow("socket") << "socket"
                                << "is a socket, not a trace file or folder";
        QTest::newRow("dev/zero") << "zero"
                                  << "is a character device, not a trace file or folder";
        QTest::newRow("/proc") << "proc"
                               << "a virtual system file, not a trace";
        QTest::newRow("dangling") << "dangling"
                                  << "which does not exist";
        QTest::newRow("too long") << "long"
                                  << "the path is too long";
        QTest::newRow("folder without a trace") << "folder"
                                                << "No Ascend profiling result was found in";
    }

    void specialInputsAreNamedAndNeverBlock()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString path = dir.filePath(QStringLiteral("input.json"));
        const QByteArray name = QFile::encodeName(path);
        int socketFd = -1;
        if (kind == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(name.constData(), 0600), 0);
        } else if (kind == QLatin1String("socket")) {
            socketFd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un address{};
            address.sun_family = AF_UNIX;
            QVERIFY(static_cast<std::size_t>(name.size()) < sizeof address.sun_path);
            std::memcpy(address.sun_path, name.constData(), static_cast<std::size_t>(name.size()));
            QCOMPARE(::bind(socketFd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        } else if (kind == QLatin1String("zero")) {
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        } else if (kind == QLatin1String("proc")) {
            QVERIFY(QFile::link(QStringLiteral("/proc/self/status"), path));
        } else if (kind == QLatin1String("folder")) {
            QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("input.json")));
            pt::writeFile(dir, QStringLiteral("input.json/readme.txt"), "not a trace\n");
        } else if (kind == QLatin1String("dangling")) {
            QVERIFY(QFile::link(dir.filePath(QStringLiteral("gone.json")), path));
        } else {
            path =
                dir.path() + QString(QStringLiteral("/%1")).arg(QString(200, QLatin1Char('d'))).repeated(25);
        }
        const std::optional<at::LoadResult> r = loadWithin(path, uncachedOptions());
        if (socketFd >= 0)
            ::close(socketFd);
        QVERIFY2(r, "loadTrace blocked");
        QVERIFY(!r->model);
        QVERIFY2(r->error.contains(path.left(60)), qPrintable(r->error));
        QVERIFY2(r->error.contains(expected), qPrintable(r->error));
    }

    void fifoInsideAFolderDoesNotBlock()
    {
        // A folder whose trace_view.json is a FIFO: the folder loads (or fails) promptly, naming the file.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT")));
        const QString fifo =
            dir.filePath(QStringLiteral("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const std::optional<at::LoadResult> r = loadWithin(dir.path(), uncachedOptions());
        QVERIFY2(r, "loadTrace blocked");
        const QString said = r->model ? r->model->warnings().join(QLatin1Char('\n')) : r->error;
        QVERIFY2(said.contains(fifo + QStringLiteral(" is not a regular file (a FIFO, socket or device)")),
                 qPrintable(said));
    }

    // ---------------------------------------------------------------- the snapshot path and cache folder

    void fifoPlantedAtTheSnapshotPathIsLeftAlone()
    {
        QTemporaryDir dir;
        const QString path = pt::writeFile(dir, QStringLiteral("trace.json"), traceOf(100));
        const QString snap = at::snapshot::pathFor(path, at::PreferredSource::Text);
        QVERIFY(QDir().mkpath(QFileInfo(snap).path()));
        QCOMPARE(::mkfifo(QFile::encodeName(snap).constData(), 0600), 0);
        const std::optional<at::LoadResult> r = loadWithin(path, cachedOptions());
        QVERIFY2(r, "loadTrace blocked on the FIFO");
        QVERIFY(r->model && !r->fromSnapshot);
        QCOMPARE(r->model->sliceCount(), std::size_t(100));
        struct stat st;
        QCOMPARE(::lstat(QFile::encodeName(snap).constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode)); // not replaced
        QFile::remove(snap);
    }

    void symlinkPlantedAtTheSnapshotPathIsNotFollowed()
    {
        QTemporaryDir dir;
        const QString path = pt::writeFile(dir, QStringLiteral("trace.json"), traceOf(100));
        const QString victim = pt::writeFile(dir, QStringLiteral("victim.txt"), "precious\n");
        const QString snap = at::snapshot::pathFor(path, at::PreferredSource::Text);
        QVERIFY(QDir().mkpath(QFileInfo(snap).path()));
        QFile::remove(snap);
        QVERIFY(QFile::link(victim, snap));
        at::LoadControl control;
        const at::LoadResult r = at::loadTrace(path, cachedOptions(), control);
        QVERIFY(r.model);
        QCOMPARE(pt::readFile(victim), QByteArray("precious\n"));
        QVERIFY(!QFileInfo(snap).isSymLink()); // replaced by the real snapshot
        at::LoadControl again;
        QVERIFY(at::loadTrace(path, cachedOptions(), again).fromSnapshot);
    }

    void cacheInsideTheDataFolderIsNotUsed()
    {
        QTemporaryDir data;
        const QString rank = data.filePath(QStringLiteral("rank0_ascend_pt"));
        QVERIFY(QDir().mkpath(rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT")));
        pt::writeFile(data, QStringLiteral("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                      traceOf(100));
        const QStringList before = filesUnder(data.path());
        // XDG_CACHE_HOME inside the opened folder.
        qputenv("XDG_CACHE_HOME", QFile::encodeName(rank + QStringLiteral("/cache")));
        QVERIFY(at::snapshot::pathFor(rank, at::PreferredSource::Text).isEmpty());
        at::LoadControl control;
        const at::LoadResult r = at::loadTrace(rank, cachedOptions(), control);
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_cache.path()));
        QVERIFY2(r.model, qPrintable(r.error));
        QCOMPARE(filesUnder(data.path()), before);
        // The snapshots folder a symlink into the opened folder.
        QTemporaryDir elsewhere;
        qputenv("XDG_CACHE_HOME", QFile::encodeName(elsewhere.path()));
        const QString snapshots = at::snapshot::directory();
        QVERIFY(QDir().mkpath(QFileInfo(snapshots).path()));
        QVERIFY(QDir(rank).mkdir(QStringLiteral("snaps")));
        QVERIFY(QFile::link(rank + QStringLiteral("/snaps"), snapshots));
        QVERIFY(at::snapshot::pathFor(rank, at::PreferredSource::Text).isEmpty());
        at::LoadControl linked;
        QVERIFY(at::loadTrace(rank, cachedOptions(), linked).model);
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_cache.path()));
        QVERIFY(QDir(rank + QStringLiteral("/snaps")).isEmpty());
    }

    void inPlaceEditKeepingSizeAndMtimeIsNotServedStale()
    {
        QTemporaryDir dir;
        const QString path = pt::writeFile(dir, QStringLiteral("trace.json"), traceOf(50, "old"));
        at::LoadControl control;
        QVERIFY(at::loadTrace(path, cachedOptions(), control).model);
        struct stat st;
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        // Same size, same mtime, other names.
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            const QByteArray edited = traceOf(50, "new");
            QCOMPARE(edited.size(), f.size());
            QCOMPARE(f.write(edited), edited.size());
        }
        const timespec times[2] = {st.st_atim, st.st_mtim};
        QCOMPARE(::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0), 0);
        at::LoadControl again;
        const at::LoadResult r = at::loadTrace(path, cachedOptions(), again);
        QVERIFY(r.model);
        QVERIFY(!r.fromSnapshot);
        QVERIFY(!at::searchSlices(*r.model, QStringLiteral("new7"), {true}).empty());
        QVERIFY(at::searchSlices(*r.model, QStringLiteral("old7"), {true}).empty());
        // The stamp records the change time and a fingerprint of the content.
        const at::snapshot::FileStamp stamp = at::snapshot::stampOf(path);
        QVERIFY(stamp.ctimeNs != 0 && stamp.fingerprint != 0);
    }

    // ---------------------------------------------------------------- SQLite WAL

    void databaseRowsOnlyInTheWalAreRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("msprof_0.db"));
        {
            QSqlDatabase writer =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("writer"));
            writer.setDatabaseName(path);
            QVERIFY(writer.open());
            QSqlQuery q(writer);
            QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode=WAL")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA wal_autocheckpoint=0")));
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE TASK (id INTEGER)")));
            QVERIFY(writer.transaction());
            for (int i = 0; i < 95; ++i)
                QVERIFY(q.exec(QStringLiteral("INSERT INTO TASK VALUES (%1)").arg(i)));
            QVERIFY(writer.commit());
            QVERIFY(QFileInfo(path + QStringLiteral("-wal")).size() > 0);
            const QStringList before = filesUnder(dir.path());
            {
                at::SqliteConnection reader(path);
                QVERIFY2(reader.isOpen(), qPrintable(reader.error()));
                QSqlQuery count(reader.database());
                QVERIFY(count.exec(QStringLiteral("SELECT COUNT(*) FROM TASK")) && count.next());
                QCOMPARE(count.value(0).toInt(), 95);
            }
            QCOMPARE(filesUnder(dir.path()), before); // nothing written into the data folder
            writer.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("writer"));
    }

    // ---------------------------------------------------------------- descriptors

    void twoThousandRanksUnderALowDescriptorLimit()
    {
        QTemporaryDir dir;
        constexpr int kRanks = 2000;
        const QByteArray trace = traceOf(3);
        for (int r = 0; r < kRanks; ++r) {
            const QString output = QStringLiteral("rank%1_ascend_pt/ASCEND_PROFILER_OUTPUT").arg(r);
            QVERIFY(QDir(dir.path()).mkpath(output));
            pt::writeFile(dir, output + QStringLiteral("/trace_view.json"), trace);
        }
        struct rlimit saved;
        QCOMPARE(::getrlimit(RLIMIT_NOFILE, &saved), 0);
        struct rlimit low = saved;
        low.rlim_cur = 256;
        QCOMPARE(::setrlimit(RLIMIT_NOFILE, &low), 0);
        at::LoadControl control;
        const at::LoadResult r = at::loadTrace(dir.path(), uncachedOptions(), control);
        QTemporaryDir out;
        QString error;
        const bool written =
            at::writeOutputFile(out.filePath(QStringLiteral("after.txt")), QByteArrayView("ok\n"), &error);
        ::setrlimit(RLIMIT_NOFILE, &saved);
        QVERIFY2(r.model, qPrintable(r.error));
        QCOMPARE(r.model->sliceCount(), std::size_t(3 * kRanks));
        for (const QString &w : r.model->warnings())
            QVERIFY2(!w.contains(QStringLiteral("Too many open files")), qPrintable(w));
        QVERIFY2(written, qPrintable(error));
    }

    void softDescriptorLimitIsRaisedToTheHardLimit()
    {
        struct rlimit saved;
        QCOMPARE(::getrlimit(RLIMIT_NOFILE, &saved), 0);
        struct rlimit low = saved;
        low.rlim_cur = 256;
        QCOMPARE(::setrlimit(RLIMIT_NOFILE, &low), 0);
        at::raiseOpenFileLimit(); // what app/main.cpp calls first
        struct rlimit now;
        QCOMPARE(::getrlimit(RLIMIT_NOFILE, &now), 0);
        ::setrlimit(RLIMIT_NOFILE, &saved);
        QCOMPARE(now.rlim_cur, saved.rlim_max);
    }

    // ---------------------------------------------------------------- output paths

    void outputNeverReplacesAFifoOrAnInput()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("out.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QString error;
        QVERIFY(!at::writeOutputFile(fifo, QByteArrayView("x"), &error));
        QCOMPARE(error,
                 QStringLiteral("it is a FIFO (named pipe), not a regular file: refusing to replace it"));
        struct stat st;
        QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode));
        // One of the inputs (here under another name: a hard link) is never overwritten.
        const QString input = pt::writeFile(dir, QStringLiteral("in.json"), "input\n");
        const QString alias = dir.filePath(QStringLiteral("alias.json"));
        QCOMPARE(::link(QFile::encodeName(input).constData(), QFile::encodeName(alias).constData()), 0);
        QVERIFY(!at::writeOutputFile(alias, QByteArrayView("x"), &error, {input}));
        QVERIFY(error.startsWith(QStringLiteral("it is one of the files being read (%1)").arg(input)));
        QCOMPARE(pt::readFile(input), QByteArray("input\n"));
        // A symlink to a regular file is replaced by the output, its target untouched.
        const QString target = pt::writeFile(dir, QStringLiteral("target.txt"), "target\n");
        const QString link = dir.filePath(QStringLiteral("link.txt"));
        QVERIFY(QFile::link(target, link));
        QVERIFY2(at::writeOutputFile(link, QByteArrayView("new\n"), &error), qPrintable(error));
        QCOMPARE(pt::readFile(target), QByteArray("target\n"));
        QCOMPARE(pt::readFile(link), QByteArray("new\n"));
        QVERIFY(!QFileInfo(link).isSymLink());
        QCOMPARE(filesUnder(dir.path()).filter(QStringLiteral(".tmp")), QStringList());
    }

    void outputNeverReplacesADevice()
    {
        QTemporaryDir dir;
        const QString link = dir.filePath(QStringLiteral("null.png"));
        QVERIFY(QFile::link(QStringLiteral("/dev/null"), link));
        const at::test::AsUnprivilegedUser nobody(dir.path());
        QString error;
        QVERIFY(!at::writeOutputFile(QStringLiteral("/dev/null"), QByteArrayView("x"), &error));
        QCOMPARE(error,
                 QStringLiteral("it is a character device, not a regular file: refusing to replace it"));
        QVERIFY(!at::writeOutputFile(link, QByteArrayView("x"), &error));
        QVERIFY(QFileInfo(link).isSymLink());
        struct stat st;
        QCOMPARE(::stat("/dev/null", &st), 0);
        QVERIFY(S_ISCHR(st.st_mode));
    }
};

QTEST_GUILESS_MAIN(TestFilesystem)
#include "tst_filesystem.moc"
