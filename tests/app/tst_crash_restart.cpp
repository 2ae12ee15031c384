// Issue 7, "the user's data and state are safe": the real application is killed (SIGKILL, as the
// kernel or a user would) while it loads a large trace and while it writes its settings; the next
// start must be clean (same result as a run never interrupted, settings readable) and the data
// folder unchanged. Also the memory limit from the command line.

#include "TestPaths.h"
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

QByteArray largeTrace(int events)
{
    QByteArray trace = "[";
    trace.reserve(events * 110);
    for (int i = 0; i < events; ++i)
        trace += "{\"ph\":\"X\",\"name\":\"kernel" + QByteArray::number(i % 700) +
                 "\",\"pid\":1,\"tid\":" + QByteArray::number(i % 4) + ",\"ts\":\"" +
                 QByteArray::number(1736408883000000LL + i * 2) + ".000\",\"dur\":1,\"args\":{\"k\":\"v\"}}" +
                 (i + 1 < events ? ",\n" : "]\n");
    return trace;
}

QByteArray digest(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(&f);
    return hash.result();
}

} // namespace

class TestCrashRestart : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_trace;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_home.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        return env;
    }

    Run run(const QStringList &args) const
    {
        QProcess process;
        process.setProcessEnvironment(environment());
        process.start(at::test::appBinary(), args);
        process.waitForFinished(120000);
        return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }

    // Starts the GUI on `path` and kills it with SIGKILL after `ms` milliseconds.
    void startAndKill(const QString &path, int ms) const
    {
        QProcess gui;
        gui.setProcessEnvironment(environment());
        gui.start(at::test::appBinary(), {path});
        QVERIFY(gui.waitForStarted(10000));
        QTest::qWait(ms);
        ::kill(static_cast<pid_t>(gui.processId()), SIGKILL);
        QVERIFY(gui.waitForFinished(10000));
        QCOMPARE(gui.exitStatus(), QProcess::CrashExit);
    }

    QString settingsFile() const
    {
        return m_home.filePath(QStringLiteral("config/AscendTimeline/ascend-timeline.conf"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        m_trace = m_home.filePath(QStringLiteral("data/large.json"));
        QVERIFY(QDir().mkpath(QFileInfo(m_trace).absolutePath()));
        QFile f(m_trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(largeTrace(300000));
    }

    // Killed at several points of a load (before, during and after reading), the next start gives the
    // same summary as a run never interrupted, and the trace is unchanged.
    void killedMidLoadRestartsClean()
    {
        const QByteArray before = digest(m_trace);
        const Run reference = run({QStringLiteral("--summary"), m_trace});
        QCOMPARE(reference.exitCode, 0);
        QVERIFY(reference.out.contains(QStringLiteral("Slices: 300000")));
        for (const int ms : {30, 150, 400, 900, 2000}) {
            startAndKill(m_trace, ms);
            const Run again = run({QStringLiteral("--summary"), m_trace});
            QCOMPARE(again.exitCode, 0);
            QCOMPARE(again.out, reference.out);
        }
        QCOMPARE(digest(m_trace), before);
        QCOMPARE(QDir(QFileInfo(m_trace).absolutePath()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList{QStringLiteral("large.json")});
    }

    // Settings are written through QSaveFile (QSettings' atomic sync): killed at random moments while
    // the window opens traces and records them as recent, the settings file is always whole: it
    // parses, and once a path was recorded it stays recorded.
    void settingsSurviveKills()
    {
        QSettings probe;
        QVERIFY(probe.isAtomicSyncRequired());
        const QString small = m_home.filePath(QStringLiteral("data2/small.json"));
        QVERIFY(QDir().mkpath(QFileInfo(small).absolutePath()));
        QFile f(small);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(largeTrace(2000));
        f.close();
        // Let one start finish loading, so the recent list holds the path.
        for (int waited = 0; waited < 20000 && !QFile::exists(settingsFile()); waited += 500)
            startAndKill(small, 500 + waited);
        QVERIFY2(QFile::exists(settingsFile()), "the window never recorded a recent file");
        QRandomGenerator random(7);
        for (int i = 0; i < 8; ++i) {
            startAndKill(small, 200 + static_cast<int>(random.bounded(800)));
            QSettings settings(settingsFile(), QSettings::IniFormat);
            QCOMPARE(settings.status(), QSettings::NoError);
            const QStringList recent = settings.value(QStringLiteral("recent/paths")).toStringList();
            QVERIFY2(recent.contains(QFileInfo(small).absoluteFilePath()), qPrintable(recent.join(',')));
        }
        // No temporary files left beside the settings.
        const QStringList left = QDir(QFileInfo(settingsFile()).absolutePath()).entryList(QDir::Files);
        QCOMPARE(left, QStringList{QStringLiteral("ascend-timeline.conf")});
    }

    void memoryLimitOnTheCommandLine()
    {
        const Run bad = run(
            {QStringLiteral("--summary"), QStringLiteral("--memory-limit"), QStringLiteral("lots"), m_trace});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QStringLiteral("--memory-limit")));
        // A limit far below what the file needs: the summary shows what was read and says why it stopped.
        const Run limited = run(
            {QStringLiteral("--summary"), QStringLiteral("--memory-limit"), QStringLiteral("8M"), m_trace});
        QCOMPARE(limited.exitCode, 0);
        const QString all = limited.out + limited.err;
        QVERIFY2(all.contains(QStringLiteral("memory use reached the limit")), qPrintable(all.left(2000)));
        QVERIFY(!limited.out.contains(QStringLiteral("Slices: 300000")));
    }
};

QTEST_GUILESS_MAIN(TestCrashRestart)
#include "tst_crash_restart.moc"
