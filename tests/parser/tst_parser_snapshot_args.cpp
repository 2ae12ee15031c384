// The args reader of a reopened snapshot (parser/snapshot/SnapshotArgs): a compressed trace is decompressed
// on Qt's thread pool as soon as the reader exists, so the first args read (the first click after a
// reopen) does not decompress on the calling thread.
#include "ParserTestUtil.h"
#include "ReopenableArgsReader.h"
#include "snapshot/SnapshotArgs.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace at;

class TestSnapshotArgs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_data;
    QTemporaryDir m_temp; // the process's temp folder: holds only the decompressed copies made here
    QString m_zst;

    int decompressedCopies() const
    {
        return static_cast<int>(
            QDir(m_temp.path()).entryList({QStringLiteral("ascend-timeline-*.json")}, QDir::Files).size());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_temp.isValid());
        qputenv("TMPDIR", QFile::encodeName(m_temp.path()));
        QCOMPARE(QDir::tempPath(), QDir(m_temp.path()).canonicalPath());
        m_zst = m_data.filePath(QStringLiteral("trace_view.json.zst"));
        QProcess zstd;
        zstd.setStandardOutputFile(m_zst);
        zstd.start(QStringLiteral("zstd"),
                   {QStringLiteral("-q"), QStringLiteral("-c"), pt::samplePath(pt::kLevel1Rank0)});
        if (!zstd.waitForFinished(60000) || zstd.exitCode() != 0)
            QSKIP("the zstd command line tool is not available");
    }

    void firstReadDoesNotDecompress()
    {
        const auto cold = pt::load(m_zst);
        QVERIFY2(cold.model, qPrintable(cold.error));
        // The last slice with args of the last thread: far into the file.
        SliceRef slice;
        for (std::size_t t = 0; t < cold.model->threads().size(); ++t)
            for (std::uint32_t i = 0; i < cold.model->threads()[t].slices.size(); ++i)
                if (!cold.model->sliceArgs({static_cast<std::int32_t>(t), i}).empty())
                    slice = {static_cast<std::int32_t>(t), i};
        QVERIFY(slice.isValid());
        const SourceLocation location =
            cold.model->threads()[static_cast<std::size_t>(slice.thread)].slices.source(slice.index);
        const auto expected = cold.model->sliceArgs(slice);
        const int before = decompressedCopies(); // the cold load's own copy

        const std::shared_ptr<const EventArgsReader> reader =
            snapshot::makeArgsReader(snapshot_args_kind::kJson, m_zst);
        QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
        QCOMPARE(decompressedCopies(), before + 1); // opened on the pool, before anything asked
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(reader->readArgs(sourceOffset(location)), expected);
        QVERIFY2(timer.elapsed() < 100, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(decompressedCopies(), before + 1);
        QCOMPARE(snapshot::argsKindOf(reader.get()),
                 std::optional<snapshot::ArgsKind>(snapshot_args_kind::kJson));
    }

    // A reader dropped before its open finished leaves nothing behind.
    void droppedReaderCleansUp()
    {
        const int before = decompressedCopies();
        snapshot::makeArgsReader(snapshot_args_kind::kJson, m_zst).reset();
        QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
        QCOMPARE(decompressedCopies(), before);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotArgs)
#include "tst_parser_snapshot_args.moc"
