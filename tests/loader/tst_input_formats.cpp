// Readers recognise and describe their own input (issue 27): a reader for a format invented here, registered
// by this test alone, is found by the folder detector in a folder and in a single file and loaded through
// loadTrace() without any other change: the proof that a new format is a folder plus one registration line.
// Also: what the built-in readers answer for the real samples' files, and a folder named like a profiler's
// file (issue 29).
#include "InputReader.h"
#include "LoadPlan.h"
#include "TestSupport.h"
#include "folder/ProfileLayoutDetector.h"
#include "snapshot/SnapshotArgs.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

namespace {

// "ATFAKE 1" on the first line, then one slice per line: "<name> <start ns> <duration ns>".
constexpr char kMagic[] = "ATFAKE 1\n";

class FakeTraceReader : public InputReader
{
public:
    const InputReaderDescriptor &descriptor() const override
    {
        static const InputReaderDescriptor d{QStringLiteral("atfake"), QStringLiteral("invented test trace"),
                                             TimelineExport::TextExport, 0, false};
        return d;
    }
    // A file by its first bytes only (the name says nothing).
    SniffAnswer sniffFile(const FileSniff &file, DataSource &) const override
    {
        const bool mine = !file.isFolder && file.headRead && file.head.startsWith(kMagic);
        return {mine ? SniffVerdict::Mine : SniffVerdict::NotMine, {}};
    }
    // A folder by its listing: every *.atfake file in it.
    bool sniffFolder(const FolderListing &folder, DataSource &source) const override
    {
        for (const QString &name : folder.files)
            if (name.endsWith(QStringLiteral(".atfake")))
                source.timelineFiles << folder.filePath(name);
        return !source.timelineFiles.isEmpty();
    }
    std::uint64_t bytesToRead(const DataSource &source) const override
    {
        std::uint64_t bytes = 0;
        for (const QString &file : source.timelineFiles)
            bytes += static_cast<std::uint64_t>(QFileInfo(file).size());
        return bytes;
    }
    ReadStatus read(SourceReading &reading) const override
    {
        TraceBuilder &b = reading.builder;
        const int thread = b.thread(b.numberKey(1), b.numberKey(1));
        b.setProcessName(b.process(b.numberKey(1)), b.strings().intern("Fake device"));
        for (const QString &path : reading.source.timelineFiles) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                reading.failure = QStringLiteral("%1: cannot open").arg(path);
                continue;
            }
            const QList<QByteArray> lines = file.readAll().split('\n');
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QList<QByteArray> f = lines[i].split(' ');
                if (f.size() == 3)
                    b.addSlice(thread, f[1].toLongLong(), f[2].toLongLong(),
                               b.strings().intern(f[0].toStdString()), b.strings().intern("fake"), kNoSource);
            }
            reading.recordRead(path);
        }
        return ReadStatus::Done;
    }
};

void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

QByteArray fakeTrace(qint64 base)
{
    return QByteArray(kMagic) + "alpha " + QByteArray::number(base) + " 5000\nbeta " +
           QByteArray::number(base + 6000) + " 2000\n";
}

LoadOptions noCache()
{
    LoadOptions options = environmentLoadOptions();
    options.useSnapshotCache = false;
    return options;
}

// Copies a folder of the samples into `to` (the samples are read-only, the fixture is changed).
void copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(file);
        QDir().mkpath(QFileInfo(target).absolutePath());
        QVERIFY(QFile::copy(file, target));
    }
}

} // namespace

class TestInputFormats : public QObject
{
    Q_OBJECT

private slots:
    // Without its registration the invented format is nothing; with it (one line), the detector finds its
    // folder and its file, and the loader draws their slices.
    void registeredReaderIsFoundInAFolderAndAFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("run"));
        writeFile(folder + QStringLiteral("/part_0.atfake"), fakeTrace(1'700'000'000'000'000'000));
        writeFile(folder + QStringLiteral("/part_1.atfake"), fakeTrace(1'700'000'000'000'100'000));
        const QString single = dir.filePath(QStringLiteral("lone/capture.trace")); // a name no reader knows
        writeFile(single, fakeTrace(1'700'000'000'000'000'000));

        QVERIFY(ProfileLayoutDetector::detect(folder, inputFormats()).sources.isEmpty());
        QVERIFY(!planLoad(single, noCache()).chosen() ||
                planLoad(single, noCache()).chosen()->sources.front().source.format !=
                    QStringLiteral("atfake"));

        const FakeTraceReader fake;
        const ScopedInputReader registered(fake);
        QCOMPARE(inputReaderById(QStringLiteral("atfake")), &fake);

        const DetectedProfile inFolder = ProfileLayoutDetector::detect(folder, inputFormats());
        QCOMPARE(inFolder.sources.size(), 1);
        QCOMPARE(inFolder.sources.front().format, QStringLiteral("atfake"));
        QCOMPARE(inFolder.sources.front().timelineFiles.size(), 2);
        // Found as well from the folder above it (the walk asks every folder it reaches).
        QCOMPARE(ProfileLayoutDetector::detect(dir.path(), inputFormats()).sources.front().rootPath, folder);

        const DetectedProfile lone = ProfileLayoutDetector::detect(single, inputFormats());
        QCOMPARE(lone.sources.size(), 1);
        QCOMPARE(lone.sources.front().format, QStringLiteral("atfake"));

        LoadControl control;
        const LoadResult folderLoad = loadTrace(folder, noCache(), control);
        QVERIFY2(folderLoad.model, qPrintable(folderLoad.error));
        QCOMPARE(folderLoad.model->sliceCount(), std::size_t(4));
        QCOMPARE(folderLoad.model->groups().front().layout, QStringLiteral("invented test trace"));
        QCOMPARE(folderLoad.model->groups().front().provenance.used, TimelineExport::TextExport);
        QCOMPARE(folderLoad.model->groups().front().provenance.reads.size(), std::size_t(2));

        const LoadResult fileLoad = loadTrace(single, noCache(), control);
        QVERIFY2(fileLoad.model, qPrintable(fileLoad.error));
        QCOMPARE(fileLoad.model->sliceCount(), std::size_t(2));
        const SliceRef beta = test::uniqueSlice(*fileLoad.model, QStringLiteral("beta"));
        QVERIFY(beta.isValid());
        QCOMPARE(fileLoad.model->selfTime(beta), TimeNs(2000)); // a leaf: its whole duration
    }

    // The built-in readers answer for the samples' files as the old format enum did.
    void builtInReadersClaimTheirFiles()
    {
        const InputFormats formats = inputFormats();
        QCOMPARE(formatOfFile(formats, test::level1Rank0Trace()), jsonTimelineReader().formatId());
        QCOMPARE(formatOfFile(formats, test::level1Rank0Database()), databaseReader().formatId());
        QCOMPARE(formatOfFile(formats, QStringLiteral("/x/PROF_1/mindstudio_profiler_output/msprof_1.json")),
                 jsonTimelineReader().formatId());
        QCOMPARE(formatOfFile(formats, QStringLiteral("/x/trace_view.json.zst")),
                 jsonTimelineReader().formatId());
        QCOMPARE(formatOfFile(formats, QStringLiteral("/x/analysis.db")), QString());
        QCOMPARE(formatOfDataFolder(formats, QStringLiteral("/x/PROF_1/device_3/data")),
                 rawDataReader().formatId());
        QCOMPARE(formatOfDataFolder(formats, QStringLiteral("/x/PROF_1/other/data")), QString());

        const FileClaim analysis = sniffSingleFile(formats, QStringLiteral("/nonexistent/analysis.db"));
        QVERIFY(!analysis.format);
        QVERIFY(analysis.refusedByName);
        QVERIFY2(analysis.refusal.contains(QStringLiteral("msprof_<n>.db")), qPrintable(analysis.refusal));

        // Every registered reader's descriptor is complete and its id and args kind are unique.
        QSet<QString> ids;
        QSet<int> kinds;
        for (const InputReader *reader : inputReaders()) {
            const InputReaderDescriptor &d = reader->descriptor();
            QVERIFY(!d.id.isEmpty() && !d.displayName.isEmpty());
            QVERIFY2(!ids.contains(d.id), qPrintable(d.id));
            ids.insert(d.id);
            if (d.snapshotArgsKind != 0) {
                QVERIFY(!kinds.contains(d.snapshotArgsKind));
                kinds.insert(d.snapshotArgsKind);
                QCOMPARE(inputReaderWithArgsKind(d.snapshotArgsKind), reader);
            }
        }
        QVERIFY(snapshot::knownArgsKind(snapshot::kNoArgs));
        QVERIFY(!snapshot::knownArgsKind(200));
    }

    // Issue 29: a folder named trace_view.json or kernel_details.csv is said to be a folder where a file
    // was expected, naming its path (fixture: a copy of a real torch_npu result).
    void folderNamedLikeAFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString root = dir.filePath(QStringLiteral("rank0_ascend_pt"));
        copyTree(QFileInfo(QFileInfo(test::level1Rank0Trace()).absolutePath()).absolutePath(), root);
        const QString output = root + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        const QString traceView = output + QStringLiteral("/trace_view.json");
        QVERIFY(QFile::remove(traceView));
        QVERIFY(QDir().mkpath(traceView));
        const QString expected =
            QStringLiteral("%1 is a folder where a file was expected: it was not read").arg(traceView);

        // The kernel rows are the timeline then; the warning names the folder.
        LoadControl control;
        const LoadResult loaded = loadTrace(root, noCache(), control);
        QVERIFY2(loaded.model, qPrintable(loaded.error));
        QVERIFY2(loaded.model->warnings().contains(expected),
                 qPrintable(loaded.model->warnings().join('\n')));

        // With kernel_details.csv a folder too nothing is loadable: the error names both folders.
        const QString kernels = output + QStringLiteral("/kernel_details.csv");
        QVERIFY(QFile::remove(kernels));
        QVERIFY(QDir().mkpath(kernels));
        const LoadResult failed = loadTrace(root, noCache(), control);
        QVERIFY(!failed.model);
        QVERIFY2(failed.error.contains(expected), qPrintable(failed.error));
        QVERIFY2(
            failed.error.contains(
                QStringLiteral("%1 is a folder where a file was expected: it was not read").arg(kernels)),
            qPrintable(failed.error));
    }
};

QTEST_GUILESS_MAIN(TestInputFormats)
#include "tst_input_formats.moc"
