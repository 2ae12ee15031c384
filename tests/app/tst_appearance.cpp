#include "AppTestSupport.h"
#include "Luminance.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "StatisticsPanel.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using at::test::luminance;

// Issue 17: View ▸ Theme and View ▸ Language / 语言 in the real window, kept across starts, and the
// command line's --theme / --lang (through --screenshot, which renders the window a user sees).
class TestAppearance : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { test::useScratchSettings(m_dir.path()); }

    void cleanup()
    {
        applyUiTheme(UiTheme::System);
        setUiLanguage(QStringLiteral("en"));
    }

    void themeMenuSwitchesAndRemembers()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *dark = window.findChild<QAction *>(QStringLiteral("theme.dark"));
        QVERIFY(dark);
        QVERIFY(dark->isCheckable());
        dark->trigger();
        QVERIFY(dark->isChecked());
        QVERIFY(isDark(QApplication::palette()));
        QCoreApplication::processEvents();
        const QImage shot = window.timeline()->viewport()->grab().toImage();
        QVERIFY2(luminance(shot.pixelColor(shot.width() / 2, shot.height() - 5)) < 80, "timeline not dark");
        QCOMPARE(QSettings().value(QStringLiteral("ui/theme")).toString(), QStringLiteral("dark"));
        window.findChild<QAction *>(QStringLiteral("theme.light"))->trigger();
        QVERIFY(!isDark(QApplication::palette()));
        QCOMPARE(QSettings().value(QStringLiteral("ui/theme")).toString(), QStringLiteral("light"));
    }

    // The open window switches language at once (QEvent::LanguageChange): menus, registry commands, dock
    // titles and their View ▸ Panels toggles, the Range statistics headers; a window made now agrees.
    void languageMenuRetranslatesTheOpenWindow()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *chinese = window.findChild<QAction *>(QStringLiteral("language.zh_CN"));
        QVERIFY(chinese);
        auto *open = window.findChild<QAction *>(QStringLiteral("file.open"));
        QVERIFY(open);
        const QString englishOpen = open->text();
        auto *statistics = window.findChild<QDockWidget *>(QStringLiteral("StatisticsDock"));
        QVERIFY(statistics);
        const QString englishDock = statistics->windowTitle();
        auto *header = window.statistics()->table()->horizontalHeader();
        QCOMPARE(header->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Name"));
        auto *theme = window.findChild<QMenu *>(QStringLiteral("menu.theme"));
        QVERIFY(theme);
        QCOMPARE(theme->title(), QStringLiteral("T&heme"));

        chinese->trigger();
        QCOMPARE(uiLanguage(), QStringLiteral("zh_CN"));
        QCOMPARE(QSettings().value(QStringLiteral("ui/language")).toString(), QStringLiteral("zh_CN"));
        QVERIFY(window.messageBar()->isVisible());
        QTRY_COMPARE(window.menuBar()->actions().front()->text(), QStringLiteral("文件(&F)"));
        MainWindow fresh; // built in Chinese: what the open window must now read too
        QCOMPARE(open->text(), fresh.findChild<QAction *>(QStringLiteral("file.open"))->text());
        QVERIFY(open->text() != englishOpen);
        const QString chineseDock =
            fresh.findChild<QDockWidget *>(QStringLiteral("StatisticsDock"))->windowTitle();
        QVERIFY(chineseDock != englishDock);
        QCOMPARE(statistics->windowTitle(), chineseDock);
        QCOMPARE(statistics->toggleViewAction()->text(), chineseDock);
        QCOMPARE(theme->title(), fresh.findChild<QMenu *>(QStringLiteral("menu.theme"))->title());
        QVERIFY(theme->title() != QStringLiteral("T&heme"));
        QCOMPARE(header->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("名称"));
        QCOMPARE(window.windowTitle(), fresh.windowTitle());

        window.findChild<QAction *>(QStringLiteral("language.en"))->trigger();
        QTRY_COMPARE(window.menuBar()->actions().front()->text(), QStringLiteral("&File"));
        QCOMPARE(open->text(), englishOpen);
        QCOMPARE(statistics->windowTitle(), englishDock);
        QCOMPARE(header->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Name"));
    }

    void commandLineChoosesThemeAndLanguage()
    {
        // --screenshot renders the window with the chosen theme; a bad name is refused with a message.
        const QString png = m_dir.filePath(QStringLiteral("dark.png"));
        QProcess run;
        // A runtime folder of our own (0700), so Qt has no cause to warn about the environment.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path());
        run.setProcessEnvironment(env);
        run.start(QStringLiteral(AT_APP_BINARY),
                  {QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("900x700"),
                   QStringLiteral("--theme"), QStringLiteral("dark"), QStringLiteral("--lang"),
                   QStringLiteral("zh_CN")});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 0);
        // Nothing on stderr: no Qt size-hint noise of the offscreen plugin (issue 17).
        QCOMPARE(QString::fromUtf8(run.readAllStandardError()), QString());
        const QImage image(png);
        QVERIFY(!image.isNull());
        int dark = 0, all = 0;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4, ++all)
                dark += luminance(image.pixelColor(x, y)) < 80;
        QVERIFY2(dark > all / 2, qPrintable(QStringLiteral("%1 of %2 pixels dark").arg(dark).arg(all)));
        run.start(QStringLiteral(AT_APP_BINARY),
                  {QStringLiteral("--screenshot"), png, QStringLiteral("--theme"), QStringLiteral("purple")});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 2);
        QVERIFY(run.readAllStandardError().contains("--theme must be"));
    }

    void screenshotRendersTheCompareWindow()
    {
        // --screenshot --compare-steps A,B renders the compare window of the two ranks' step 50, not the
        // text diff of the headless command.
        const QString png = m_dir.filePath(QStringLiteral("compare.png"));
        const QString level1 =
            QStringLiteral(AT_SAMPLES_DIR "/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1");
        QProcess run;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path());
        run.setProcessEnvironment(env);
        run.start(QStringLiteral(AT_APP_BINARY),
                  {QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("900x700"),
                   QStringLiteral("--compare-steps"), QStringLiteral("0:50,1:50"), level1});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(run.readAllStandardOutput()), QString()); // no text diff
        QCOMPARE(QString::fromUtf8(run.readAllStandardError()), QString());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(900, 700));
        // The compare window's duration colours (faster green, slower red) are in the picture.
        int red = 0, green = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) {
                const QColor c = image.pixelColor(x, y);
                red += c.red() > 180 && c.green() < 80 && c.blue() < 80;
                green += c.green() > 120 && c.red() < 80 && c.blue() < 80;
            }
        QVERIFY2(red > 20 && green > 20, qPrintable(QStringLiteral("red %1, green %2").arg(red).arg(green)));
        // A step that does not exist is refused with a message.
        run.start(QStringLiteral(AT_APP_BINARY),
                  {QStringLiteral("--screenshot"), png, QStringLiteral("--compare-steps"),
                   QStringLiteral("0:50,1:999"), level1});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 2);
        QVERIFY(run.readAllStandardError().contains("--compare-steps wants two steps"));
    }
};

QTEST_MAIN(TestAppearance)
#include "tst_appearance.moc"
