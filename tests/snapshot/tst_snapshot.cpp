// The snapshot cache (issue 10, parser/snapshot): a reopened model equals the cold-loaded one field by
// field on real samples; stale, corrupt, truncated and wrong-version snapshots are ignored and replaced;
// the data folder is never written; a process killed mid-write leaves nothing that the next start uses.
#include "ModelComparison.h"
#include "SnapshotAccess.h"
#include "Steps.h"
#include "TestPaths.h"
#include "TestSupport.h"
#include "TraceBuilder.h"
#include "TraceLoader.h"
#include "snapshot/SnapshotCache.h"
#include "snapshot/SnapshotCodec.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <map>

using namespace at;

namespace {

const QString kAlexnet = QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/");

QString textRank0Folder()
{
    return test::samplePath(kAlexnet + QStringLiteral("text/level1/rank0_ascend_pt"));
}

QString dbFile()
{
    return test::samplePath(
        kAlexnet +
        QStringLiteral("db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"));
}

LoadResult load(const QString &path, PreferredSource source = PreferredSource::Text)
{
    LoadControl control;
    auto controlOptions = at::environmentLoadOptions();
    controlOptions.preferredSource = source;
    return loadTrace(path, controlOptions, control);
}

// The reference: a load that bypasses the cache.
std::unique_ptr<TraceModel> coldLoad(const QString &path, PreferredSource source = PreferredSource::Text)
{
    qputenv("AT_NO_SNAPSHOT", "1");
    LoadResult r = load(path, source);
    qunsetenv("AT_NO_SNAPSHOT");
    return std::move(r.model);
}

// (path -> size, mtime) of every file and folder under root.
std::map<QString, std::pair<qint64, qint64>> listing(const QString &root)
{
    std::map<QString, std::pair<qint64, qint64>> out;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo f(it.next());
        out[f.filePath()] = {f.size(), f.lastModified().toMSecsSinceEpoch()};
    }
    return out;
}

bool copyTree(const QString &from, const QString &to)
{
    QDir().mkpath(to);
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo f(it.next());
        const QString target = to + f.filePath().mid(from.size());
        if (f.isDir() ? !QDir().mkpath(target) : !QFile::copy(f.filePath(), target))
            return false;
    }
    return true;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

void shiftMtime(const QString &path, int seconds)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    const QDateTime t = QFileInfo(path).lastModified().addSecs(seconds);
    QVERIFY(f.setFileTime(t, QFileDevice::FileModificationTime));
}

// A JSON array of n complete events of pid 1; fields(i) gives the rest of event i.
template <typename Fields> QByteArray completeEvents(int n, Fields fields)
{
    QByteArray json = "[";
    for (int i = 0; i < n; ++i)
        json += (i ? ",{\"ph\":\"X\",\"pid\":1," : "{\"ph\":\"X\",\"pid\":1,") + fields(i).toUtf8() + "}";
    return json + "]";
}

std::optional<snapshot::SnapshotHeader> headerOf(const QByteArray &file, QString *reason)
{
    return snapshot::readHeader(std::string_view(file.constData(), std::size_t(file.size())), reason);
}

// Compares the reopened model b with the cold-loaded a field by field, indices included; the args of
// the first maxArgs slices are read back.
void compareModels(const TraceModel &a, const TraceModel &b, std::size_t maxArgs = 100000)
{
    test::compareModels(a, b, {test::ModelComparison::Identity::SameIndices, maxArgs, {}});
    if (QTest::currentTestFailed())
        return;
    QVERIFY(b.memoryBytes() <= a.memoryBytes()); // no vector slack after a reopen
}

} // namespace

class TestSnapshot : public QObject
{
    Q_OBJECT

    QTemporaryDir m_cache;
    QTemporaryDir m_data; // copies of samples that the tests change

    // Loads path through the cache and checks whether the snapshot was used.
    std::unique_ptr<TraceModel> loadExpecting(const QString &path, bool fromSnapshot,
                                              PreferredSource source = PreferredSource::Text)
    {
        LoadResult r = load(path, source);
        if (!r.model)
            qWarning("load of %s failed: %s", qPrintable(path), qPrintable(r.error));
        else if (r.fromSnapshot != fromSnapshot)
            qWarning("%s: fromSnapshot %d, expected %d", qPrintable(path), r.fromSnapshot, fromSnapshot);
        return r.model && r.fromSnapshot == fromSnapshot ? std::move(r.model) : nullptr;
    }

    // Cold load, first cached load (writes), reopen (reads), compared field by field.
    void roundTrip(const QString &path, PreferredSource source = PreferredSource::Text)
    {
        const QString snap = snapshot::pathFor(path, source);
        QVERIFY(!snap.isEmpty());
        QFile::remove(snap);
        const std::unique_ptr<TraceModel> cold = coldLoad(path, source);
        QVERIFY(cold);
        QVERIFY(!QFileInfo::exists(snap)); // AT_NO_SNAPSHOT=1 writes nothing
        const std::unique_ptr<TraceModel> first = loadExpecting(path, false, source);
        QVERIFY(first);
        QVERIFY(QFileInfo::exists(snap));
        QVERIFY(snap.startsWith(m_cache.path()));
        const std::unique_ptr<TraceModel> reopened = loadExpecting(path, true, source);
        QVERIFY(reopened);
        compareModels(*cold, *reopened);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid() && m_data.isValid());
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_cache.path()));
        qunsetenv("AT_NO_SNAPSHOT");
        QVERIFY(snapshot::enabled());
        QVERIFY(snapshot::directory().startsWith(m_cache.path()));
    }

    void roundTripTraceFile()
    {
        const QString root = test::samplePath(kAlexnet + QStringLiteral("text/level1"));
        const auto before = listing(root);
        roundTrip(test::level1Rank0Trace());
        QVERIFY(listing(root) == before); // no new files, sizes and mtimes unchanged
    }

    void queueDepthLanesSurviveTheSnapshot()
    {
        // The lanes are built from the flows at load time and stored with the other counters.
        const QString path = test::level1Rank0Trace();
        QFile::remove(snapshot::pathFor(path, PreferredSource::Text));
        const std::unique_ptr<TraceModel> first = loadExpecting(path, false);
        QVERIFY(first);
        const std::unique_ptr<TraceModel> reopened = loadExpecting(path, true);
        QVERIFY(reopened);
        auto lanes = [](const TraceModel &m) {
            std::vector<std::pair<QString, std::vector<double>>> out;
            for (std::size_t c = 0; c < m.counters().size(); ++c)
                if (m.strings().qstring(m.counters()[c].name).startsWith(QLatin1String("Queue depth (")))
                    out.emplace_back(m.counterDisplayName(static_cast<int>(c)), m.counters()[c].values);
            return out;
        };
        QVERIFY(!lanes(*first).empty());
        QVERIFY(lanes(*reopened) == lanes(*first));
    }

    void roundTripResultFolder()
    {
        // Two ranks with kernel_details, summary tables, collection info and steps.
        const QString folder = test::samplePath(kAlexnet + QStringLiteral("text/level1"));
        const auto before = listing(folder);
        roundTrip(folder);
        QVERIFY(listing(folder) == before);
    }

    void roundTripDatabase()
    {
        const QString root = QFileInfo(dbFile()).path();
        const auto before = listing(root);
        roundTrip(dbFile());
        roundTrip(test::samplePath(kAlexnet +
                                   QStringLiteral("db/level1"))); // a folder whose timeline is a database
        QVERIFY(listing(root) == before);
        const std::unique_ptr<TraceModel> model = loadExpecting(dbFile(), true);
        QVERIFY(model && model->kernels().size() > 0);
    }

    void roundTripCompressed()
    {
        const QString zst = m_data.filePath(QStringLiteral("trace_view.json.zst"));
        QProcess zstd;
        zstd.setStandardOutputFile(zst);
        zstd.start(QStringLiteral("zstd"),
                   {QStringLiteral("-q"), QStringLiteral("-c"), test::level1Rank0Trace()});
        if (!zstd.waitForFinished() || zstd.exitCode() != 0)
            QSKIP("no zstd command");
        roundTrip(zst); // args are read from a freshly decompressed copy on demand
    }

    void allSamplesRoundTrip()
    {
        // Every top-level sample folder: reopened equal to cold, or (raw data) not cached at all.
        const QDir samples(at::test::samplesDir());
        QStringList names = samples.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        names << kAlexnet + QStringLiteral("text/level0") << kAlexnet + QStringLiteral("text/level2")
              << QStringLiteral("msinsight_msprof_db_and_misc/server/src/test/test_data/full_db/msprof_0.db")
              << QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_2_ascend_pt")
              << QStringLiteral(
                     "ascend_msprof_skill_cann8_sanitized/tests/fixtures/real_cann_minimal/reports/PROF_001");
        for (const QString &name : names) {
            const QString path = samples.filePath(name);
            const std::unique_ptr<TraceModel> cold = coldLoad(path);
            if (!cold) {
                qInfo("%s: not loadable as a whole", qPrintable(name));
                continue;
            }
            LoadResult first = load(path);
            QVERIFY(first.model);
            LoadResult second = load(path);
            QVERIFY2(second.model, qPrintable(path));
            if (second.fromSnapshot) {
                qInfo("%s: %zu slices, %zu kernels reopened", qPrintable(name), cold->sliceCount(),
                      cold->kernels().size());
                compareModels(*cold, *second.model, 2000);
            } else
                qInfo("%s: not cached", qPrintable(name));
        }
    }

    void unknownArgsReaderIsNotCached()
    {
        // Raw binary sources keep their args in memory (an args reader a snapshot cannot recreate):
        // such a model is never written, so it is always rebuilt.
        struct InMemoryArgs : EventArgsReader
        {
            std::vector<std::pair<QString, QString>> readArgs(std::uint64_t) const override { return {}; }
        };
        TraceBuilder builder;
        builder.addGroup(SourceGroup{});
        const std::uint32_t source =
            builder.addSource(QStringLiteral("raw"), std::make_shared<InMemoryArgs>());
        const int thread = builder.thread(builder.numberKey(1), builder.numberKey(2));
        builder.addSlice(thread, 1000, 10, builder.strings().intern("task"), 0,
                         makeSourceLocation(source, 0));
        const std::unique_ptr<TraceModel> model = builder.build();
        QString reason;
        QVERIFY(!snapshot::encodePayload(*model, &reason));
        QVERIFY(reason.contains(QLatin1String("args")));
        const QString trace = m_data.filePath(QStringLiteral("raw-standin.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        QVERIFY(!snapshot::write(*model, trace, PreferredSource::Text, false, 0, &reason));
        QVERIFY(!QFileInfo::exists(snapshot::pathFor(trace, PreferredSource::Text)));
    }

    void staleFileRebuilds()
    {
        const QString trace = m_data.filePath(QStringLiteral("stale.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        QVERIFY(loadExpecting(trace, false));
        QVERIFY(loadExpecting(trace, true));
        shiftMtime(trace, 10); // touched
        QVERIFY(loadExpecting(trace, false));
        QVERIFY(loadExpecting(trace, true)); // the stale snapshot was replaced
        {
            QFile f(trace); // size changes (trailing whitespace keeps the JSON valid)
            QVERIFY(f.open(QIODevice::Append));
            f.write("\n\n");
        }
        const std::unique_ptr<TraceModel> rebuilt = loadExpecting(trace, false);
        QVERIFY(rebuilt);
        const std::unique_ptr<TraceModel> cold = coldLoad(trace);
        compareModels(*cold, *rebuilt, 500);
        QVERIFY(loadExpecting(trace, true));
    }

    void staleFolderRebuilds()
    {
        const QString folder = m_data.filePath(QStringLiteral("rank0_ascend_pt"));
        QVERIFY(copyTree(textRank0Folder(), folder));
        QVERIFY(loadExpecting(folder, false));
        QVERIFY(loadExpecting(folder, true));
        // A summary CSV that was read changes.
        const QString kernels = folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QVERIFY(QFileInfo::exists(kernels));
        shiftMtime(kernels, 10);
        QVERIFY(loadExpecting(folder, false));
        QVERIFY(loadExpecting(folder, true));
        // A new file appears in a folder that was read (its mtime changes).
        QVERIFY(writeAll(folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/new.txt"), "x"));
        QVERIFY(loadExpecting(folder, false));
        QVERIFY(loadExpecting(folder, true));
        // The other source is preferred: another snapshot, not this one.
        QVERIFY(loadExpecting(folder, false, PreferredSource::Database));
        QVERIFY(loadExpecting(folder, true, PreferredSource::Database));
        QVERIFY(loadExpecting(folder, true, PreferredSource::Text));
    }

    void corruptSnapshotIsIgnored()
    {
        const QString trace = m_data.filePath(QStringLiteral("corrupt.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        const std::unique_ptr<TraceModel> cold = coldLoad(trace);
        QVERIFY(loadExpecting(trace, false));
        const QString snap = snapshot::pathFor(trace, PreferredSource::Text);
        const QByteArray good = readAll(snap);
        QVERIFY(good.size() > 1000);

        auto expectRebuilt = [&](const QByteArray &bad, const char *what) {
            QVERIFY(writeAll(snap, bad));
            const std::unique_ptr<TraceModel> model = loadExpecting(trace, false);
            QVERIFY2(model, what);
            QCOMPARE(model->sliceCount(), cold->sliceCount());
            QCOMPARE(readAll(snap), good); // the bad snapshot was replaced
        };
        const qsizetype n = good.size();
        for (qsizetype cut : {qsizetype(0), qsizetype(1), qsizetype(7), qsizetype(10), qsizetype(40), n / 4,
                              n / 2, n - 2, n - 1})
            expectRebuilt(good.left(cut), "truncated");
        expectRebuilt(good + QByteArray("extra"), "trailing bytes");
        for (qsizetype at : {qsizetype(0), qsizetype(9), qsizetype(30), qsizetype(60), n / 3, n / 2, n - 5}) {
            QByteArray flipped = good;
            flipped[at] = static_cast<char>(flipped[at] ^ 0x5A);
            expectRebuilt(flipped, "flipped byte");
        }
        QByteArray version = good;
        version[8] = static_cast<char>(version[8] + 1); // u32 format version right after the magic
        expectRebuilt(version, "wrong version");
        compareModels(*cold, *loadExpecting(trace, true), 200);
    }

    // The typed provenance of a source group (format 4) is written and read back exactly.
    void provenanceSurvivesTheSnapshot()
    {
        const QString trace = m_data.filePath(QStringLiteral("provenance.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        const std::unique_ptr<TraceModel> model = coldLoad(trace);
        QVERIFY(model && !model->groups().empty());
        SourceProvenance p;
        p.used = TimelineExport::RawData;
        p.databasePath = QStringLiteral("/data/run/ascend_pytorch_profiler_0.db");
        p.hasTextExport = true;
        p.rawDataDirs = {QStringLiteral("/data/run/PROF_1/host/data"),
                         QStringLiteral("/data/run/PROF_1/device_0/data")};
        p.reads = {
            FileRead{QStringLiteral("/data/run/trace_view.json"), 1000, 0, 1000},
            FileRead{QStringLiteral("/data/run/PROF_1/device_0/data/hwts.data.0.slice_0"), 5000, 64, 4096}};
        SnapshotAccess::groups(*model).back().provenance = p;
        QString reason;
        QVERIFY2(snapshot::write(*model, trace, PreferredSource::Text, false, 0, &reason),
                 qPrintable(reason));
        const std::unique_ptr<TraceModel> reopened = loadExpecting(trace, true);
        QVERIFY(reopened);
        QVERIFY(reopened->groups().back().provenance == p);
        compareModels(*model, *reopened, 200);
    }

    // A snapshot of the previous format version is refused, the input parsed as without a cache, and
    // the snapshot replaced by one of the current version.
    void previousFormatVersionIsReparsed()
    {
        const QString trace = m_data.filePath(QStringLiteral("old-version.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        const std::unique_ptr<TraceModel> cold = coldLoad(trace);
        QVERIFY(cold && loadExpecting(trace, false));
        const QString snap = snapshot::pathFor(trace, PreferredSource::Text);
        const QByteArray good = readAll(snap);
        QByteArray old = good;
        const std::uint32_t previous = snapshot::kFormatVersion - 1;
        for (int i = 0; i < 4; ++i) // the u32 format version right after the 8-byte magic
            old[8 + i] = static_cast<char>(previous >> (8 * i));
        QString reason;
        QVERIFY(!headerOf(old, &reason));
        QVERIFY2(reason.contains(QStringLiteral("format version %1").arg(previous)), qPrintable(reason));
        QVERIFY(writeAll(snap, old));
        const std::unique_ptr<TraceModel> reparsed = loadExpecting(trace, false);
        QVERIFY(reparsed);
        compareModels(*cold, *reparsed, 200);
        QCOMPARE(readAll(snap), good);
        QVERIFY(loadExpecting(trace, true));
    }

    // A payload above the 4 MiB frame size is stored as several zstd frames, decompressed on both
    // cores; the reopened model is the same, and a flipped byte in a later frame still means rebuild.
    void multiFrameSnapshotRoundTrips()
    {
        const QString trace = m_data.filePath(QStringLiteral("frames.json"));
        QVERIFY(writeAll(trace, completeEvents(200000, [](int i) {
                             return QStringLiteral("\"tid\":%1,\"ts\":%2.%3,\"dur\":%4,\"name\":\"op%5\"")
                                 .arg(i % 7)
                                 .arg(1700000000000000LL + i * 13)
                                 .arg(i % 1000, 3, 10, QChar('0'))
                                 .arg(1 + i % 11)
                                 .arg(i % 5000);
                         })));
        roundTrip(trace);
        const QString snap = snapshot::pathFor(trace, PreferredSource::Text);
        const QByteArray good = readAll(snap);
        QString reason;
        const auto header = headerOf(good, &reason);
        QVERIFY2(header, qPrintable(reason));
        QVERIFY(header->frames.size() >= 2);
        QVERIFY(header->payloadSize > 4u << 20);

        // Flip a byte inside the last frame's compressed bytes: the checksum rejects it, the load rebuilds.
        const std::string_view last = header->frames.back().compressed;
        QByteArray bad = good;
        const qsizetype at = last.data() - good.constData() + qsizetype(last.size() / 2);
        bad[at] = static_cast<char>(bad[at] ^ 0x10);
        QVERIFY(writeAll(snap, bad));
        const std::unique_ptr<TraceModel> rebuilt = loadExpecting(trace, false);
        QVERIFY(rebuilt);
        QCOMPARE(rebuilt->sliceCount(), std::size_t(200000));
        QCOMPARE(readAll(snap), good);
    }

    // A column longer than a frame (here the starts and source offsets of 600000 slices on one thread,
    // 4.8 MB each) is cut into frames that are decompressed and delta-decoded on their own: the
    // differences restart at each cut, so the values after it must come back exact.
    void longColumnSpansSeveralFrames()
    {
        const QString trace = m_data.filePath(QStringLiteral("long.json"));
        QVERIFY(writeAll(trace, completeEvents(600000, [](int i) {
                             return QStringLiteral("\"tid\":1,\"ts\":%1,\"dur\":%2,\"name\":\"op%3\"")
                                 .arg(1700000000000000LL + i * 13 + (i % 3))
                                 .arg(1 + i % 11)
                                 .arg(i % 50);
                         })));
        roundTrip(trace);
        const QByteArray good = readAll(snapshot::pathFor(trace, PreferredSource::Text));
        QString reason;
        const auto header = headerOf(good, &reason);
        QVERIFY2(header, qPrintable(reason));
        QVERIFY(header->structureFrames >= 1 && header->structureFrames < header->frames.size());
        const auto full =
            std::count_if(header->frames.begin(), header->frames.end(),
                          [](const snapshot::SnapshotFrame &f) { return f.rawSize == 4u << 20; });
        QVERIFY(full >= 2); // the start and source columns both fill a whole frame and go on in the next
    }

    void corruptPayloadNeverCrashes()
    {
        // The payload decoder behind the zstd checksum: every prefix and many flipped bytes must be
        // rejected or decode into a model whose indices are all valid.
        const std::unique_ptr<TraceModel> cold = coldLoad(test::level1Rank0Trace());
        QString reason;
        const std::optional<std::string> payload = snapshot::encodePayload(*cold, &reason);
        QVERIFY(payload);
        QVERIFY(snapshot::decodePayload(*payload, &reason));
        const std::size_t n = payload->size();
        for (std::size_t cut = 0; cut < n; cut += std::max<std::size_t>(1, n / 397))
            QVERIFY(!snapshot::decodePayload(std::string_view(*payload).substr(0, cut), &reason));
        std::uint32_t seed = 12345;
        int decoded = 0;
        for (int i = 0; i < 300; ++i) {
            std::string bad = *payload;
            seed = seed * 1664525u + 1013904223u;
            bad[seed % n] = static_cast<char>(bad[seed % n] ^ (1 << (i % 8)));
            if (const auto model = snapshot::decodePayload(bad, &reason)) {
                ++decoded;
                (void)summarize(*model); // walks every slice and process
            }
        }
        qInfo("%d of 300 single-bit flips still decode (times, values, text)", decoded);
    }

    void disabledByEnvironment()
    {
        const QString trace = m_data.filePath(QStringLiteral("disabled.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        qputenv("AT_NO_SNAPSHOT", "1");
        QVERIFY(!snapshot::enabled());
        LoadResult r = load(trace);
        qunsetenv("AT_NO_SNAPSHOT");
        QVERIFY(r.model && !r.fromSnapshot);
        QVERIFY(!QFileInfo::exists(snapshot::pathFor(trace, PreferredSource::Text)));
    }

    void cancelDuringReopen()
    {
        const QString trace = m_data.filePath(QStringLiteral("cancel.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        QVERIFY(loadExpecting(trace, false));
        LoadControl control;
        control.cancel = true;
        LoadResult r = loadTrace(trace, at::environmentLoadOptions(), control);
        QVERIFY(r.cancelled() && !r.model);
        LoadControl progress;
        LoadResult ok = loadTrace(trace, at::environmentLoadOptions(), progress);
        QVERIFY(ok.fromSnapshot);
        QCOMPARE(progress.bytesDone.load(), progress.bytesTotal.load());
        QCOMPARE(progress.bytesTotal.load(), std::uint64_t(QFileInfo(trace).size())); // as a cold load says
    }

    void killedMidWriteLeavesNoPartialSnapshot()
    {
        const QString trace = m_data.filePath(QStringLiteral("killed.json"));
        QVERIFY(QFile::copy(test::level1Rank0Trace(), trace));
        const QString cacheHome = m_data.filePath(QStringLiteral("app-cache"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), cacheHome);
        env.remove(QStringLiteral("AT_NO_SNAPSHOT"));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("at.snapshot.info=true"));
        auto run = [&](const QStringList &args, const QProcessEnvironment &e, QByteArray *err = nullptr) {
            QProcess p;
            p.setProcessEnvironment(e);
            p.start(at::test::appBinary(), args);
            p.waitForFinished(60000);
            if (err)
                *err = p.readAllStandardError();
            return p.exitCode() == 0 && p.exitStatus() == QProcess::NormalExit ? p.readAllStandardOutput()
                                                                               : QByteArray("FAILED");
        };
        const QByteArray expected =
            run({QStringLiteral("--no-cache"), QStringLiteral("--summary"), trace}, env);
        QVERIFY(expected != "FAILED" && !expected.isEmpty());
        const QString snapDir = cacheHome + QStringLiteral("/AscendTimeline/ascend-timeline/snapshots");
        QVERIFY(!QFileInfo::exists(snapDir)); // --no-cache wrote nothing

        auto killMidWrite = [&] {
            QProcessEnvironment paused = env;
            paused.insert(QStringLiteral("AT_SNAPSHOT_TEST_PAUSE_MS"), QStringLiteral("20000"));
            QProcess p;
            p.setProcessEnvironment(paused);
            p.start(at::test::appBinary(), {QStringLiteral("--summary"), trace});
            QVERIFY(p.waitForStarted());
            QByteArray err;
            QElapsedTimer timer;
            timer.start();
            while (!err.contains("AT_SNAPSHOT_TEST_PAUSE") && timer.elapsed() < 30000 &&
                   p.state() == QProcess::Running) {
                p.waitForReadyRead(100);
                err += p.readAllStandardError();
            }
            QVERIFY2(err.contains("AT_SNAPSHOT_TEST_PAUSE"), err.constData());
            ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
            p.waitForFinished();
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        };

        // 1. Killed while writing the first snapshot: no snapshot exists afterwards.
        killMidWrite();
        const QStringList names =
            QDir(snapDir).entryList({QStringLiteral("*.atsnap")}, QDir::Files); // temporaries excluded
        QVERIFY2(names.isEmpty(), qPrintable(names.join(QLatin1Char(' '))));
        // A stale temporary of an earlier crash (QSaveFile's "<name>.XXXXXX") is tolerated.
        QDir().mkpath(snapDir);
        QVERIFY(writeAll(snapDir + QStringLiteral("/0000.atsnap.AbCdEf"), "ATSNAP\r\npartial"));
        QByteArray err;
        QCOMPARE(run({QStringLiteral("--summary"), trace}, env, &err), expected);
        QVERIFY2(err.contains("wrote"), err.constData());
        QCOMPARE(run({QStringLiteral("--summary"), trace}, env, &err), expected);
        QVERIFY2(err.contains("reopened"), err.constData());

        // 2. Killed while replacing a stale snapshot: the old file stays whole (then found stale).
        const QStringList snaps = QDir(snapDir).entryList({QStringLiteral("*.atsnap")}, QDir::Files);
        QCOMPARE(snaps.size(), 1);
        const QString snap = QDir(snapDir).filePath(snaps.first());
        const QByteArray old = readAll(snap);
        shiftMtime(trace, 10);
        killMidWrite();
        QCOMPARE(readAll(snap), old);
        QCOMPARE(run({QStringLiteral("--summary"), trace}, env, &err), expected);
        QVERIFY2(err.contains("stale") && err.contains("wrote"), err.constData());
        QCOMPARE(run({QStringLiteral("--summary"), trace}, env, &err), expected);
        QVERIFY2(err.contains("reopened"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestSnapshot)
#include "tst_snapshot.moc"
