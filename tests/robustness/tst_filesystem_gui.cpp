// Issue 21, part A, in the real window: the GUI's writers (sessions, timeline PNG/SVG, table CSVs) never
// replace a FIFO, and a FIFO given as a session is refused without blocking (docs/ROBUSTNESS.md, "Round
// two: the file system and outputs").

#include "AppTestSupport.h"
#include "TableExport.h"
#include "ViewExport.h"

#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

class TestFilesystemGui : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    bool stillAFifo(const QString &path)
    {
        struct stat st;
        return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISFIFO(st.st_mode);
    }

    QString makeFifo(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0 ? path : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        at::test::useScratchSettings(m_dir.filePath(QStringLiteral("settings")));
    }

    void windowWritersNeverReplaceAFifo()
    {
        at::MainWindow window;
        window.resize(800, 600);
        QVERIFY(at::test::openAndWait(window, at::test::level1Rank0Trace()));
        const QString refused =
            QStringLiteral("it is a FIFO (named pipe), not a regular file: refusing to replace it");

        const QString session = makeFifo(QStringLiteral("fifo.atsession"));
        QString error;
        QVERIFY(!window.saveSession(session, &error));
        QCOMPARE(error, QStringLiteral("Could not save the session to %1: %2").arg(session, refused));
        QVERIFY(stillAFifo(session));

        const QString png = makeFifo(QStringLiteral("fifo.png"));
        QVERIFY(!at::exportTimelinePng(*window.timeline(), png));
        QVERIFY(stillAFifo(png));
        const QString svg = makeFifo(QStringLiteral("fifo.svg"));
        QVERIFY(!at::exportTimelineSvg(*window.timeline(), QStringLiteral("t"), QStringLiteral("d"), svg,
                                       &error));
        QCOMPARE(error, QStringLiteral("Could not write %1: %2").arg(svg, refused));
        QVERIFY(stillAFifo(svg));

        // Table exports (widgets/) write through the same helper once a window exists.
        QStandardItemModel table(1, 1);
        table.setItem(0, 0, new QStandardItem(QStringLiteral("cell")));
        const QString csv = makeFifo(QStringLiteral("fifo.csv"));
        QVERIFY(!at::writeModelCsv(table, csv, &error));
        QCOMPARE(error, QStringLiteral("Could not write %1: %2").arg(csv, refused));
        QVERIFY(stillAFifo(csv));
    }

    void fifoGivenAsASessionIsRefusedWithoutBlocking()
    {
        at::MainWindow window;
        const QString session = makeFifo(QStringLiteral("open.atsession"));
        QVERIFY(!window.openSession(session)); // blocked forever in open() before
        QVERIFY2(window.lastError().contains(session), qPrintable(window.lastError()));
        QVERIFY2(window.lastError().contains(QStringLiteral("not a regular file")),
                 qPrintable(window.lastError()));
    }
};

QTEST_MAIN(TestFilesystemGui)
#include "tst_filesystem_gui.moc"
