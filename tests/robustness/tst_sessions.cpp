// Issue 29, item 1 and a part of item 12, in the real window and through the real binary: a session that
// names itself (or two naming each other) recursed openPath → openSession → openPath until the stack
// overflowed (SIGSEGV) from File ▸ Open Session, drag and drop, the recent list and the command line. Now
// it is refused with a message naming the session, the window keeps what it showed, and a chain of
// sessions without a cycle still opens (the last one's view is applied). A session whose path is "" said
// only ": no such file or folder". The sessions are written by the real writer (sessionToJson) and name
// the real level-1 sample.

#include "AppTestSupport.h"
#include "MarkerList.h"
#include "RecentPaths.h"
#include "Session.h"
#include "SessionController.h"
#include "StartPage.h"
#include "TestPaths.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>

using namespace at;

// SessionController's longest chain of sessions naming sessions.
constexpr int kMaxSessionChain = 32;

class TestRobustSessions : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // A session whose data is `data`, with one flag named `marker` (to tell which session was applied).
    static bool writeSession(const QString &file, const QString &data, const QString &marker = QString())
    {
        Session s;
        s.paths = {data};
        if (!marker.isEmpty())
            s.markers.push_back({marker, 1'000, 1'000, 0x3182BD});
        QFile f(file);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(sessionToJson(s)) > 0;
    }

    // The first file dialog that opens from now on selects `file` and is accepted.
    static void acceptNextFileDialog(const QString &file)
    {
        // The dialog may refuse an accept while its file system model is still listing the folder: try
        // again every 20 ms until the dialog that was seen is gone.
        auto *poll = new QTimer;
        poll->setInterval(20);
        auto seen = std::make_shared<bool>(false);
        QObject::connect(poll, &QTimer::timeout, poll, [poll, file, seen] {
            auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
            if (!dialog) {
                if (*seen) {
                    poll->stop();
                    poll->deleteLater();
                }
                return;
            }
            *seen = true;
            // selectFile() can leave the name field empty before the dialog's model has listed the folder;
            // typing the path into the field, as a user does, is what accept() reads.
            if (auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit")))
                name->setText(file);
            else
                dialog->selectFile(file);
            QMetaObject::invokeMethod(dialog, "accept"); // a public slot of QDialog
        });
        poll->start();
    }

    // Runs `open` on a window showing the level-1 sample: the load must fail at once with an error naming
    // `session` and containing `why`, and the window must keep its model.
    static void expectRefused(const QString &session, const QString &why,
                              const std::function<void(MainWindow &)> &open)
    {
        MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(test::openAndWait(window, test::level1Rank0Trace()));
        const TraceModel *before = window.model();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        open(window);
        QVERIFY(!finished.isEmpty() || finished.wait(10000));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY2(window.lastError().startsWith(session), qPrintable(window.lastError()));
        QVERIFY2(window.lastError().contains(why), qPrintable(window.lastError()));
        QCOMPARE(window.model(), before);
        QVERIFY(!window.isLoading());
    }

    static void dropOn(MainWindow &window, const QString &file)
    {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(file)});
        const QPoint pos = window.rect().center();
        QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
    }

    struct Run
    {
        bool finished = false;
        QProcess::ExitStatus status = QProcess::NormalExit;
        int exitCode = -1;
        QString err;
    };

    // The real binary, offscreen; a GUI run (no --screenshot) is still running after waitMs unless it died.
    static Run runApp(const QStringList &args, int waitMs)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("AT_NO_SNAPSHOT"), QStringLiteral("1"));
        process.setProcessEnvironment(env);
        process.start(at::test::appBinary(), args);
        Run run;
        if (!process.waitForStarted(30000))
            return run;
        run.finished = process.waitForFinished(waitMs);
        if (!run.finished) {
            process.kill();
            process.waitForFinished(10000);
        }
        run.status = process.exitStatus();
        run.exitCode = process.exitCode();
        run.err = QString::fromLocal8Bit(process.readAllStandardError());
        return run;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::useScratchSettings(path(QStringLiteral("settings")));
        QVERIFY(writeSession(path(QStringLiteral("self.atsession")), path(QStringLiteral("self.atsession"))));
        // The same file by another spelling: "./" and a symbolic link to it.
        QVERIFY(writeSession(path(QStringLiteral("dotted.atsession")),
                             m_dir.path() + QStringLiteral("/./dotted.atsession")));
        QVERIFY(
            QFile::link(path(QStringLiteral("linked.atsession")), path(QStringLiteral("link.atsession"))));
        QVERIFY(
            writeSession(path(QStringLiteral("linked.atsession")), path(QStringLiteral("link.atsession"))));
        QVERIFY(writeSession(path(QStringLiteral("a.atsession")), path(QStringLiteral("b.atsession"))));
        QVERIFY(writeSession(path(QStringLiteral("b.atsession")), path(QStringLiteral("a.atsession"))));
        QVERIFY(writeSession(path(QStringLiteral("empty.atsession")), QString()));
        // A chain without a cycle: first → second → the trace.
        QVERIFY(writeSession(path(QStringLiteral("first.atsession")),
                             path(QStringLiteral("second.atsession")), QStringLiteral("from first")));
        QVERIFY(writeSession(path(QStringLiteral("second.atsession")), test::level1Rank0Trace(),
                             QStringLiteral("from second")));
    }

    void selfNamingSessionIsRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("why");
        QTest::newRow("itself") << "self.atsession"
                                << "the session names itself as its data";
        QTest::newRow("itself through ./") << "dotted.atsession"
                                           << "the session names itself as its data";
        QTest::newRow("itself through a link") << "linked.atsession"
                                               << "the session names itself as its data";
        QTest::newRow("two naming each other") << "a.atsession"
                                               << "its sessions name each other in a cycle: ";
        QTest::newRow("empty path") << "empty.atsession"
                                    << "the session's path is empty: it names no trace file or folder";
    }

    // MainWindow::openPath, as every way of opening reaches it.
    void selfNamingSessionIsRefused()
    {
        QFETCH(QString, name);
        QFETCH(QString, why);
        const QString session = path(name);
        expectRefused(session, why, [&](MainWindow &w) { w.openPath(session); });
    }

    void refusedFromOpenSessionMenu()
    {
        const QString session = path(QStringLiteral("self.atsession"));
        expectRefused(session, QStringLiteral("names itself"), [&](MainWindow &w) {
            QAction *open = w.findChild<QAction *>(QStringLiteral("file.openSession"));
            QVERIFY(open);
            acceptNextFileDialog(session);
            open->trigger();
        });
        const QString cycle = path(QStringLiteral("b.atsession"));
        expectRefused(cycle,
                      QStringLiteral("cycle: %1 → %2 → %1").arg(cycle, path(QStringLiteral("a.atsession"))),
                      [&](MainWindow &w) {
                          acceptNextFileDialog(cycle);
                          w.findChild<QAction *>(QStringLiteral("file.openSession"))->trigger();
                      });
    }

    void refusedFromDragAndDrop()
    {
        const QString session = path(QStringLiteral("a.atsession"));
        expectRefused(session, QStringLiteral("cycle"), [&](MainWindow &w) { dropOn(w, session); });
    }

    void refusedFromTheRecentList()
    {
        // A session that was fine when it entered the list and was edited to name itself since.
        const QString session = path(QStringLiteral("self.atsession"));
        rememberRecentPath(session);
        expectRefused(session, QStringLiteral("names itself"), [&](MainWindow &w) {
            QListWidget *recent = w.startPage()->recentList();
            QListWidgetItem *entry = nullptr;
            for (int i = 0; i < recent->count(); ++i)
                if (recent->item(i)->data(Qt::UserRole).toString() == session)
                    entry = recent->item(i);
            QVERIFY(entry); // the start page's list of recent files
            Q_EMIT recent->itemActivated(entry);
        });
        expectRefused(session, QStringLiteral("names itself"), [&](MainWindow &w) {
            QAction *entry = nullptr;
            for (QMenu *menu : w.findChildren<QMenu *>())
                for (QAction *a : menu->actions())
                    if (a->text() == session)
                        entry = a;
            QVERIFY(entry); // File ▸ Open Recent ▸ the session
            entry->trigger();
        });
    }

    void chainWithoutCycleStillOpens()
    {
        MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(test::openAndWait(window, path(QStringLiteral("first.atsession"))));
        QCOMPARE(window.currentPath(), test::level1Rank0Trace());
        // The last session of the chain is applied, as opening each in turn did.
        QCOMPARE(window.markers()->size(), 1);
        QCOMPARE(window.markers()->at(0).name, QStringLiteral("from second"));
    }

    // A comparison naming a session is replaced by the trace that session ends at: the comparison window
    // never opens a session (whose own comparison would open another window, and so on).
    void comparisonSessionIsResolvedToItsTrace()
    {
        Session s;
        s.paths = {test::level1Rank0Trace()};
        s.compare = CompareSetup{0, path(QStringLiteral("compare.atsession")), 0, false};
        QFile f(path(QStringLiteral("compare.atsession")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(sessionToJson(s));
        f.close();
        MainWindow window;
        SessionController sessions(&window, nullptr);
        QString error;
        QVERIFY2(sessions.read(path(QStringLiteral("compare.atsession")), &error), qPrintable(error));
        QCOMPARE(sessions.pending()->compare->comparisonPath, test::level1Rank0Trace());
        // A comparison session in a cycle is refused with the session's error.
        s.compare->comparisonPath = path(QStringLiteral("a.atsession"));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(sessionToJson(s));
        f.close();
        QVERIFY(!sessions.read(path(QStringLiteral("compare.atsession")), &error));
        QVERIFY2(
            error.startsWith(QStringLiteral("its comparison session %1: its sessions name each other in a "
                                            "cycle")
                                 .arg(path(QStringLiteral("a.atsession")))),
            qPrintable(error));
    }

    void aLongChainIsRefused()
    {
        // kMaxChain + 1 sessions, each naming the next, the last naming the trace.
        const int n = kMaxSessionChain + 1;
        for (int i = 0; i < n; ++i)
            QVERIFY(writeSession(path(QStringLiteral("chain%1.atsession").arg(i)),
                                 i + 1 < n ? path(QStringLiteral("chain%1.atsession").arg(i + 1))
                                           : test::level1Rank0Trace()));
        const QString first = path(QStringLiteral("chain0.atsession"));
        expectRefused(first, QStringLiteral("more than %1 sessions name each other in a chain").arg(n - 1),
                      [&](MainWindow &w) { w.openPath(first); });
    }

    // The command line: `ascend-timeline SESSION` crashed with SIGSEGV 0.6 s after start.
    void commandLineDoesNotCrash()
    {
        const Run gui = runApp({path(QStringLiteral("self.atsession"))}, 5000);
        QVERIFY2(!gui.finished, qPrintable(gui.err)); // the window stays open with its message
        QTemporaryDir out;
        for (const QString &name : {QStringLiteral("self.atsession"), QStringLiteral("a.atsession")}) {
            const Run shot = runApp(
                {QStringLiteral("--screenshot"), out.filePath(QStringLiteral("x.png")), path(name)}, 120000);
            QVERIFY(shot.finished);
            QCOMPARE(shot.status, QProcess::NormalExit);
            QCOMPARE(shot.exitCode, 1);
            QVERIFY2(shot.err.contains(path(name) + QStringLiteral(": ")), qPrintable(shot.err));
            QVERIFY2(shot.err.contains(QStringLiteral("itself")) ||
                         shot.err.contains(QStringLiteral("cycle")),
                     qPrintable(shot.err));
        }
        const Run chain = runApp({QStringLiteral("--screenshot"), out.filePath(QStringLiteral("chain.png")),
                                  path(QStringLiteral("first.atsession"))},
                                 120000);
        QCOMPARE(chain.status, QProcess::NormalExit);
        QCOMPARE(chain.exitCode, 0);
        QVERIFY(QFileInfo(out.filePath(QStringLiteral("chain.png"))).size() > 0);
    }
};

QTEST_MAIN(TestRobustSessions)
#include "tst_sessions.moc"
