#include "AppTestSupport.h"
#include "CollectionPanel.h"
#include "MainWindow.h"
#include "TestPaths.h"
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// The window keeps ONE LoadOptions: what the command line gives it (--source, --no-cache, ...) is what
// every load uses. A result with both exports (the alexnet text export beside the database of the same
// level) opens from the database with --source db, in the window and in --screenshot.
class TestLoadOptions : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_bothExports; // a rank folder with the text export and ascend_pytorch_profiler_0.db

    static QString databaseRow() { return QStringLiteral("SQLite database ascend_pytorch_profiler_0.db"); }

    static QString collectionSourceLine(const MainWindow &window)
    {
        for (const QString &line : window.collection()->text().split(QLatin1Char('\n')))
            if (line.contains(QStringLiteral("timeline source")))
                return line;
        return {};
    }

    bool openAndWait(MainWindow &window, const QString &path)
    {
        QSignalSpy spy(&window, &MainWindow::loadFinished);
        window.openPath(path);
        return (!spy.isEmpty() || spy.wait(120000)) && spy.last().at(0).toBool();
    }

    // The window as --screenshot renders it, written to out.
    static bool screenshot(const QStringList &args, const QString &out)
    {
        QProcess process;
        process.setProgram(at::test::appBinary());
        process.setArguments(QStringList{QStringLiteral("--screenshot"), out} + args);
        process.setProcessEnvironment([] {
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("AT_NO_SNAPSHOT"), QStringLiteral("1"));
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            return env;
        }());
        process.start();
        if (!process.waitForFinished(180000) || process.exitCode() != 0) {
            qWarning("%s", process.readAllStandardError().constData());
            return false;
        }
        return QFileInfo::exists(out);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::useScratchSettings(m_dir.filePath(QStringLiteral("settings")));
        const QString textFolder =
            QFileInfo(test::level1Rank0Trace()).absolutePath(); // ASCEND_PROFILER_OUTPUT
        m_bothExports = m_dir.filePath(QStringLiteral("rank0_ascend_pt"));
        const QString out = m_bothExports + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::copy(textFolder + QStringLiteral("/../profiler_info_0.json"),
                            m_bothExports + QStringLiteral("/profiler_info_0.json")));
        for (const QString &name : QDir(textFolder).entryList(QDir::Files))
            QVERIFY(QFile::copy(textFolder + QLatin1Char('/') + name, out + QLatin1Char('/') + name));
        QVERIFY(
            QFile::copy(test::level1Rank0Database(), out + QStringLiteral("/ascend_pytorch_profiler_0.db")));
    }

    // main.cpp's order: setLoadOptions with --source db, then openPath. The load and the Collection panel
    // say the database was used (before the fix the window's own Text choice overwrote it).
    void windowLoadsTheCommandLineSource()
    {
        MainWindow window;
        LoadOptions options = environmentLoadOptions();
        options.preferredSource = PreferredSource::Database;
        window.setLoadOptions(options);
        QCOMPARE(window.preferredSource(), PreferredSource::Database);
        QVERIFY(openAndWait(window, m_bothExports));
        QCOMPARE(
            provenanceRow(window.model()->groups().front().provenance, QStringLiteral("timeline source")),
            databaseRow());
        QVERIFY2(collectionSourceLine(window).contains(databaseRow()),
                 qPrintable(collectionSourceLine(window)));

        // Reload from Other Source switches the one choice, and the next load uses it.
        QSignalSpy spy(&window, &MainWindow::loadFinished);
        QVERIFY(window.reloadWithOtherSource());
        QVERIFY(spy.wait(120000) && spy.last().at(0).toBool());
        QCOMPARE(window.preferredSource(), PreferredSource::Text);
        QCOMPARE(
            provenanceRow(window.model()->groups().front().provenance, QStringLiteral("timeline source")),
            QStringLiteral("text export"));
    }

    // Without --source the text export is used.
    void windowDefaultsToTheTextExport()
    {
        MainWindow window;
        window.setLoadOptions(environmentLoadOptions());
        QVERIFY(openAndWait(window, m_bothExports));
        QCOMPARE(
            provenanceRow(window.model()->groups().front().provenance, QStringLiteral("timeline source")),
            QStringLiteral("text export"));
    }

    // --screenshot --source db draws the database's timeline, which differs from the text export's (another
    // run of the same model: another clock and other counts); --source text draws the default's picture.
    void screenshotLoadsTheCommandLineSource()
    {
        const QString text = m_dir.filePath(QStringLiteral("text.png")),
                      db = m_dir.filePath(QStringLiteral("db.png")),
                      plain = m_dir.filePath(QStringLiteral("plain.png"));
        const QStringList size{QStringLiteral("--size"), QStringLiteral("1000x700")};
        QVERIFY(screenshot(
            size + QStringList{QStringLiteral("--source"), QStringLiteral("text"), m_bothExports}, text));
        QVERIFY(screenshot(
            size + QStringList{QStringLiteral("--source"), QStringLiteral("db"), m_bothExports}, db));
        QVERIFY(screenshot(size + QStringList{m_bothExports}, plain));
        const QImage textImage(text), dbImage(db), plainImage(plain);
        QVERIFY(!textImage.isNull() && !dbImage.isNull());
        QCOMPARE(textImage.size(), dbImage.size());
        QVERIFY2(textImage == plainImage, "the default is the text export");
        QVERIFY2(textImage != dbImage, "--source db was ignored: the picture is the text export's");
    }
};

QTEST_MAIN(TestLoadOptions)
#include "tst_load_options.moc"
