// Issue 21, part A, through the real binary: outputs of the command line never overwrite an input, never
// go into the data folder (--export-json, --screenshot, like --export-csv), never replace a FIFO, and a
// full standard output is an error (docs/ROBUSTNESS.md, "Round two: the file system and outputs").

#include "TestPaths.h"
#include "TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

class TestFilesystemCli : public QObject
{
    Q_OBJECT

    struct Run
    {
        int exitCode = -1;
        bool finished = false;
        QString err;
    };

    static Run run(const QStringList &args, const QString &stdoutFile = {})
    {
        QProcess process;
        process.setProgram(at::test::appBinary());
        process.setArguments(args);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AT_NO_SNAPSHOT"), QStringLiteral("1"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
        if (!stdoutFile.isEmpty())
            process.setStandardOutputFile(stdoutFile);
        process.start();
        Run r;
        r.finished = process.waitForFinished(60000);
        if (!r.finished)
            process.kill();
        r.exitCode = process.exitCode();
        r.err = QString::fromUtf8(process.readAllStandardError());
        return r;
    }

    static QByteArray hashOf(const QString &path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1);
    }

    QTemporaryDir m_data;   // a copy of the level1 rank0 result (trace + kernel table): outputs aimed at it
    QTemporaryDir m_output; // outside the data folder
    QString m_rank;         // the copied rank folder
    QString m_trace;
    QString m_kernels;

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_output.isValid());
        const QString source = QFileInfo(at::test::level1Rank0Trace()).path();
        m_rank = m_data.filePath(QStringLiteral("rank0_ascend_pt"));
        const QString output = m_rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        QVERIFY(QDir().mkpath(output));
        m_trace = output + QStringLiteral("/trace_view.json");
        m_kernels = output + QStringLiteral("/kernel_details.csv");
        QVERIFY(QFile::copy(source + QStringLiteral("/trace_view.json"), m_trace));
        QVERIFY(QFile::copy(source + QStringLiteral("/kernel_details.csv"), m_kernels));
    }

    void exportJsonOntoItsInputIsRefused()
    {
        const QByteArray before = hashOf(m_trace);
        const Run same = run({QStringLiteral("--export-json"), m_trace, m_trace});
        QCOMPARE(same.exitCode, 2);
        QVERIFY2(same.err.contains(QStringLiteral("is inside the data folder")), qPrintable(same.err));
        // The same file under another name outside the data folder (a hard link): device + inode match.
        const QString alias = m_output.filePath(QStringLiteral("alias.json"));
        QCOMPARE(::link(QFile::encodeName(m_trace).constData(), QFile::encodeName(alias).constData()), 0);
        const Run linked = run({QStringLiteral("--export-json"), alias, m_trace});
        QCOMPARE(linked.exitCode, 1);
        QVERIFY2(linked.err.contains(QStringLiteral("it is one of the files being read (%1)").arg(m_trace)),
                 qPrintable(linked.err));
        QCOMPARE(hashOf(m_trace), before);
        QFile::remove(alias);
    }

    void exportJsonIntoTheDataFolderIsRefused()
    {
        const QString out = m_rank + QStringLiteral("/exported.json");
        const Run r = run({QStringLiteral("--export-json"), out, m_rank});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--export-json %1 is inside the data folder").arg(out)),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void metricsCsvOntoTheInputKernelTableIsRefused()
    {
        const QByteArray before = hashOf(m_kernels);
        const Run r = run({QStringLiteral("--metrics"), m_rank, QStringLiteral("--csv"), m_kernels});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("cannot write %1: it is one of the files being read").arg(m_kernels)),
                 qPrintable(r.err));
        QCOMPARE(hashOf(m_kernels), before);
    }

    void screenshotIntoTheDataFolderOrOntoAFifoIsRefused()
    {
        // (A lone trace's data folder is the folder that holds it.)
        const QString inside = QFileInfo(m_trace).path() + QStringLiteral("/shot.png");
        const Run r = run({QStringLiteral("--screenshot"), inside, m_trace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--screenshot %1 is inside the data folder").arg(inside)),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(inside));
        const QString fifo = m_output.filePath(QStringLiteral("shot.png"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const Run onFifo = run({QStringLiteral("--screenshot"), fifo, m_trace});
        QVERIFY2(onFifo.finished, "--screenshot blocked on the FIFO");
        QCOMPARE(onFifo.exitCode, 1);
        QVERIFY2(
            onFifo.err.contains(
                QStringLiteral("cannot write %1: it is a FIFO (named pipe), not a regular file").arg(fifo)),
            qPrintable(onFifo.err));
        const Run chart = run({QStringLiteral("--chart"), QStringLiteral("top-kernels"),
                               QStringLiteral("--out"), fifo, m_rank});
        QVERIFY(chart.finished);
        QCOMPARE(chart.exitCode, 1);
        QVERIFY2(chart.err.contains(QStringLiteral("it is a FIFO (named pipe), not a regular file")),
                 qPrintable(chart.err));
        struct stat st;
        QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode));
        QFile::remove(fifo);
    }

    void fullStandardOutputIsAnError_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("summary") << "--summary";
        QTest::newRow("metrics") << "--metrics";
    }

    void fullStandardOutputIsAnError()
    {
        QFETCH(QString, mode);
        const Run r = run({mode, m_rank}, QStringLiteral("/dev/full"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QStringLiteral("cannot write to the standard output: No space left on device")),
            qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestFilesystemCli)
#include "tst_filesystem_cli.moc"
