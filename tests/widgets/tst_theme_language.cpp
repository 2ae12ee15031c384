#include "ChartsPanel.h"
#include "DetailsPanel.h"
#include "Luminance.h"
#include "StatisticsPanel.h"
#include "TestPaths.h"
#include "TestSupport.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"
#include "common/MessageText.h"
#include "snapshot/SnapshotCache.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace at;
using at::test::luminance;

// Issue 17: a dark theme (View ▸ Theme, --theme) in which every view stays readable, and a complete
// zh_CN translation, both checked on what the widgets show.
class TestThemeLanguage : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;

    // Share of pixels of an image that are dark (< 80) and light (> 170).
    static std::pair<double, double> darkAndLight(const QImage &image)
    {
        int dark = 0, light = 0, all = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2, ++all) {
                const double l = luminance(image.pixelColor(x, y));
                dark += l < 80;
                light += l > 170;
            }
        return {double(dark) / all, double(light) / all};
    }

    // The views a user reads, grabbed after the theme is applied.
    QList<QImage> grabViews()
    {
        QList<QImage> images;
        TimelineView timeline;
        timeline.resize(900, 500);
        timeline.setModel(m_model.get());
        DetailsPanel details;
        details.resize(420, 500);
        details.setModel(m_model.get());
        details.showSlice(test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#50")));
        StatisticsPanel statistics;
        statistics.resize(700, 300);
        statistics.setModel(m_model.get());
        statistics.showRange({m_model->dataBegin(), m_model->dataEnd()});
        ChartsPanel charts;
        charts.resize(700, 400);
        charts.setModel(m_model.get());
        for (QWidget *w : std::initializer_list<QWidget *>{&timeline, &details, &statistics, &charts}) {
            w->show();
            if (!QTest::qWaitForWindowExposed(w))
                return {};
            images << w->grab().toImage();
        }
        return images;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadOrFail(QFileInfo(test::level1Rank0Trace()).dir().absolutePath() +
                                   QStringLiteral("/.."));
        QVERIFY(m_model);
    }

    void cleanup()
    {
        applyUiTheme(UiTheme::System);
        setUiLanguage(QStringLiteral("en"));
    }

    void darkThemeKeepsEveryViewReadable()
    {
        QCOMPARE(parseUiTheme(QStringLiteral("Dark")), std::optional<UiTheme>(UiTheme::Dark));
        QVERIFY(!parseUiTheme(QStringLiteral("purple")));
        applyUiTheme(UiTheme::Dark);
        QVERIFY(isDark(QApplication::palette()));
        const QList<QImage> dark = grabViews();
        QCOMPARE(dark.size(), 4);
        for (int i = 0; i < dark.size(); ++i) {
            const auto [darkShare, lightShare] = darkAndLight(dark[i]);
            // Mostly dark backgrounds, with light text on them.
            QVERIFY2(darkShare > 0.5, qPrintable(QStringLiteral("view %1: %2 dark").arg(i).arg(darkShare)));
            QVERIFY2(lightShare > 0.002,
                     qPrintable(QStringLiteral("view %1: %2 light").arg(i).arg(lightShare)));
        }
        applyUiTheme(UiTheme::Light);
        QVERIFY(!isDark(QApplication::palette()));
        const QList<QImage> light = grabViews();
        QCOMPARE(light.size(), 4);
        for (int i = 0; i < light.size(); ++i)
            QVERIFY2(darkAndLight(light[i]).second > 0.5,
                     qPrintable(QStringLiteral("view %1 is not light").arg(i)));
    }

    void chineseIsInstalledAndSwitchedBack()
    {
        QVERIFY(uiLanguages().contains(QStringLiteral("zh_CN")));
        QVERIFY(setUiLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(uiLanguage(), QStringLiteral("zh_CN"));
        static const QRegularExpression han(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
        // Strings of the timeline, the panels and the command registry come out in Chinese.
        for (const auto &[context, text] :
             {std::pair{"at::DetailsPanel", "Self time"}, std::pair{"at::TimelineView", "View: %1"},
              std::pair{"at::StatisticsModel", "Whole slices"}, std::pair{"Commands", "Zoom &In"},
              std::pair{"at::MainWindow", "&File"}}) {
            const QString shown = QCoreApplication::translate(context, text);
            QVERIFY2(han.match(shown).hasMatch(), qPrintable(QStringLiteral("%1: %2").arg(context, shown)));
        }
        DetailsPanel details;
        details.setModel(m_model.get());
        details.showSlice(test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#50")));
        QVERIFY(han.match(details.topLevelItem(0)->text(0)).hasMatch());
        QVERIFY(setUiLanguage(QStringLiteral("en")));
        QCOMPARE(QCoreApplication::translate("at::DetailsPanel", "Self time"), QStringLiteral("Self time"));
        QVERIFY(!setUiLanguage(QStringLiteral("xx_YY")));
    }

    // The parser's and core's warnings and errors (contexts "Parser", "Core") come out in the installed
    // language, and in English exactly as before. Snapshots are kept per language, as a model carries the
    // warnings of its load.
    void parserMessagesFollowTheLanguage()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Cut off after its last event (no ']'), with a B that never ends (core's warning).
        const QString cut = dir.filePath(QStringLiteral("cut.json"));
        QFile file(cut);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"([{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},)"
                   R"({"name":"open","ph":"B","ts":3,"pid":1,"tid":2},)"
                   R"({"name":"b","ph":"X","ts":5,"dur":2,"pid":1,"tid":1})");
        file.close();
        const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString missing = dir.filePath(QStringLiteral("missing.json"));
        LoadOptions options = environmentLoadOptions();
        options.useSnapshotCache = false;
        auto load = [&options](const QString &path) {
            LoadControl control;
            return loadTrace(path, options, control);
        };
        auto warnings = [](const LoadResult &r) {
            return r.model ? r.model->warnings().join(QLatin1Char('\n')) : QString();
        };

        const LoadResult english = load(cut);
        QVERIFY(english.model);
        QVERIFY2(warnings(english).contains(cut + QStringLiteral(": the event array is not closed with ']'")),
                 qPrintable(warnings(english)));
        QVERIFY(warnings(english).contains(QStringLiteral("1 B (begin) events have no matching E")));
        QVERIFY2(
            load(fifo).error.contains(QStringLiteral("is a FIFO (named pipe), not a trace file or folder")),
            qPrintable(load(fifo).error));
        QCOMPARE(load(missing).error, missing + QStringLiteral(": no such file or folder"));
        QCOMPARE(messageLanguage(), QStringLiteral("en"));
        const QString englishSnapshot = snapshot::pathFor(cut, PreferredSource::Text);

        QVERIFY(setUiLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(messageLanguage(), QStringLiteral("zh_CN"));
        const LoadResult chinese = load(cut);
        QVERIFY(chinese.model);
        QVERIFY2(warnings(chinese).contains(cut + QStringLiteral("：事件数组没有以 ']' 结束")),
                 qPrintable(warnings(chinese)));
        QVERIFY2(warnings(chinese).contains(QStringLiteral("1 个 B（开始）事件没有匹配的 E")),
                 qPrintable(warnings(chinese)));
        QVERIFY2(load(fifo).error.contains(QStringLiteral("FIFO（命名管道），不是 trace 文件或文件夹")),
                 qPrintable(load(fifo).error));
        QCOMPARE(load(missing).error, missing + QStringLiteral("：文件或文件夹不存在"));
        if (!englishSnapshot.isEmpty())
            QVERIFY(snapshot::pathFor(cut, PreferredSource::Text) != englishSnapshot);

        QVERIFY(setUiLanguage(QStringLiteral("en")));
        QCOMPARE(warnings(load(cut)), warnings(english));
        QCOMPARE(snapshot::pathFor(cut, PreferredSource::Text), englishSnapshot);
    }

    void everyStringIsTranslated()
    {
        // lupdate over today's sources into a copy of the .ts: every string it finds must already have a
        // finished translation (a new tr() string without one fails here).
        const QString ts =
            (at::test::sourceDir() + QStringLiteral("/resources/translations/ascend-timeline_zh_CN.ts"));
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("check.ts"));
        QVERIFY(QFile::copy(ts, copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        QStringList args{QStringLiteral("-no-obsolete"), QStringLiteral("-locations"),
                         QStringLiteral("none")};
        for (const char *folder : {"app", "widgets", "core", "parser"})
            args << (at::test::sourceDir() + QStringLiteral("/")) + QLatin1String(folder);
        args << QStringLiteral("-ts") << copy;
        QProcess lupdate;
        lupdate.start(QStringLiteral(AT_LUPDATE), args);
        QVERIFY(lupdate.waitForFinished(120000));
        QCOMPARE(lupdate.exitCode(), 0);
        QFile f(copy);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        const int messages = static_cast<int>(text.count(QStringLiteral("<message")));
        QVERIFY2(messages > 300, qPrintable(QString::number(messages)));
        static const QRegularExpression unfinished(QStringLiteral(
            "<source>([^<]*)</source>\\s*(?:<comment>[^<]*</comment>\\s*)?<translation type=\"unfinished\""));
        QStringList missing;
        for (auto it = unfinished.globalMatch(text); it.hasNext();)
            missing << it.next().captured(1);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("%1 untranslated: %2")
                                                   .arg(missing.size())
                                                   .arg(missing.mid(0, 10).join(QStringLiteral(" | ")))));
        // The shipped file itself has no unfinished entry either.
        QFile shipped(ts);
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QVERIFY(!shipped.readAll().contains("type=\"unfinished\""));
    }
};

QTEST_MAIN(TestThemeLanguage)
#include "tst_theme_language.moc"
