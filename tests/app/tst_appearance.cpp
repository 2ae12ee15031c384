#include "AppTestSupport.h"
#include "Luminance.h"
#include "MainWindow.h"
#include "MarkerList.h"
#include "MessageBar.h"
#include "SearchBar.h"
#include "StartPage.h"
#include "StatisticsPanel.h"
#include "TestPaths.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using at::test::luminance;

namespace {

// Item rows per view that are compared (headers always): enough for field names and "yes"/"no" cells.
constexpr int kRowsCompared = 40;

// Every text a user reads in a widget and its children: labels, button texts, placeholders, combo box
// items, spin box special texts, tool tips, header sections and the cells of the first rows (a tree's
// children too). In child order, so two windows built alike list the same texts in the same order.
QStringList visibleTexts(const QWidget *root)
{
    QStringList out;
    auto walkModel = [&out](const QAbstractItemModel *model, const QModelIndex &parent, int depth,
                            auto &&self) -> void {
        for (int r = 0; r < std::min(model->rowCount(parent), kRowsCompared); ++r)
            for (int c = 0; c < model->columnCount(parent); ++c) {
                const QModelIndex index = model->index(r, c, parent);
                out << index.data().toString();
                if (c == 0 && depth < 2 && model->hasChildren(index))
                    self(model, index, depth + 1, self);
            }
    };
    QList<const QWidget *> widgets{root};
    for (const QWidget *w : root->findChildren<QWidget *>())
        widgets << w;
    for (const QWidget *w : widgets) {
        if (!w->toolTip().isEmpty())
            out << w->toolTip();
        if (const auto *label = qobject_cast<const QLabel *>(w))
            out << label->text();
        if (const auto *button = qobject_cast<const QAbstractButton *>(w))
            out << button->text();
        if (const auto *edit = qobject_cast<const QLineEdit *>(w))
            out << edit->placeholderText();
        if (const auto *spin = qobject_cast<const QAbstractSpinBox *>(w))
            out << spin->specialValueText();
        if (const auto *combo = qobject_cast<const QComboBox *>(w))
            for (int i = 0; i < combo->count(); ++i)
                out << combo->itemText(i);
        if (const auto *view = qobject_cast<const QAbstractItemView *>(w); view && view->model()) {
            const QAbstractItemModel *model = view->model();
            for (int c = 0; c < model->columnCount(); ++c)
                out << model->headerData(c, Qt::Horizontal).toString();
            walkModel(model, {}, 0, walkModel);
        }
    }
    return out;
}

// The panels retranslated on QEvent::LanguageChange (issue 17), by dock name, plus the start page and the
// find bar. What the load itself wrote (its warnings, in the language of the load) is data, not a label:
// left out.
QMap<QString, QStringList> panelTexts(const MainWindow &window)
{
    QStringList loadMessages = window.model() ? window.model()->warnings() : QStringList();
    if (window.model())
        for (const SourceGroup &group : window.model()->groups())
            loadMessages += group.collection.warnings;
    QMap<QString, QStringList> texts;
    for (const char *dock : {"DetailsDock", "StatisticsDock", "KernelsDock", "TablesDock", "ChartsDock",
                             "StepsDock", "MarkersDock", "CollectionDock"}) {
        const auto *widget = window.findChild<QDockWidget *>(QLatin1String(dock));
        texts[QLatin1String(dock)] =
            widget && widget->widget() ? visibleTexts(widget->widget()) : QStringList();
    }
    texts[QStringLiteral("StartPage")] = visibleTexts(window.startPage());
    texts[QStringLiteral("SearchBar")] = visibleTexts(window.searchBar());
    for (QStringList &list : texts)
        list.removeIf([&loadMessages](const QString &text) { return loadMessages.contains(text); });
    return texts;
}

} // namespace

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

    // Every panel's own texts (issue 17): after switching to Chinese and back, the open window's labels,
    // placeholders, buttons, combo items, tool tips and headers equal those of a window built in that
    // language with the same data and state, and they did change.
    void panelsRetranslateLikeAFreshWindow()
    {
        const QString rank0 = test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
        // The same state in each window: a selected slice (Details), a flag (Markers: "flag"), a search
        // ("n matches") and a range (Range statistics).
        auto prepare = [&rank0](MainWindow &w) {
            w.resize(1400, 900);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(test::openAndWait(w, rank0));
            const TraceModel &model = *w.model();
            const SliceRef step = test::uniqueSlice(model, QStringLiteral("ProfilerStep#50"));
            w.timeline()->selectSlice(step, false);
            const TimeNs start =
                model.threads()[static_cast<std::size_t>(step.thread)].slices.start(step.index);
            w.markers()->add(Marker{QStringLiteral("F"), start, start, 0xE6550D});
            w.searchBar()->lineEdit()->setText(QStringLiteral("aclnn"));
            w.searchBar()->runSearch();
            w.statistics()->showRange(TimeRange{start, start + 1'000'000});
            QCoreApplication::processEvents();
        };
        MainWindow window;
        prepare(window);
        if (QTest::currentTestFailed())
            return;
        const QMap<QString, QStringList> english = panelTexts(window);
        QVERIFY(english.value(QStringLiteral("SearchBar")).contains(QStringLiteral("Match case")));

        window.findChild<QAction *>(QStringLiteral("language.zh_CN"))->trigger();
        QTRY_COMPARE(window.menuBar()->actions().front()->text(), QStringLiteral("文件(&F)"));
        QCoreApplication::processEvents();
        const QMap<QString, QStringList> chinese = panelTexts(window);
        {
            MainWindow fresh; // built in Chinese with the same data and state
            prepare(fresh);
            if (QTest::currentTestFailed())
                return;
            const QMap<QString, QStringList> expected = panelTexts(fresh);
            for (auto it = expected.begin(); it != expected.end(); ++it) {
                QVERIFY2(!it.value().isEmpty(), qPrintable(it.key()));
                QCOMPARE(chinese.value(it.key()), it.value());
                // Retranslated, not merely equal: each panel reads differently than in English.
                QVERIFY2(chinese.value(it.key()) != english.value(it.key()), qPrintable(it.key()));
            }
        }
        // Known labels, so the comparison cannot pass on two untranslated windows.
        QVERIFY(chinese.value(QStringLiteral("SearchBar")).contains(QStringLiteral("查找：")));
        QVERIFY(!chinese.value(QStringLiteral("SearchBar")).contains(QStringLiteral("Match case")));
        QVERIFY(chinese.value(QStringLiteral("StartPage")).contains(QStringLiteral("打开文件…")));
        QVERIFY(!chinese.value(QStringLiteral("KernelsDock")).contains(QStringLiteral("Duration")));

        window.findChild<QAction *>(QStringLiteral("language.en"))->trigger();
        QTRY_COMPARE(window.menuBar()->actions().front()->text(), QStringLiteral("&File"));
        QCoreApplication::processEvents();
        const QMap<QString, QStringList> back = panelTexts(window);
        for (auto it = english.begin(); it != english.end(); ++it)
            QCOMPARE(back.value(it.key()), it.value());
    }

    // The Kernels filter row never squeezes a filter until its text is cut (issue 17: "Chinese text cut off
    // in panels"): in a 900 px window in Chinese it wraps into two rows, in a wide one it is one row.
    void kernelFiltersAreNeverCut()
    {
        setUiLanguage(QStringLiteral("zh_CN"));
        MainWindow window;
        window.resize(900, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::openAndWait(window, test::samplePath(QStringLiteral(
                                              "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/"
                                              "rank0_ascend_pt"))));
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("KernelsDock"));
        QVERIFY(dock);
        dock->raise();
        QTest::qWait(20);
        auto filters = [dock] {
            QList<QWidget *> out;
            for (QWidget *w : dock->widget()->findChildren<QWidget *>())
                if ((qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractButton *>(w) ||
                     qobject_cast<QAbstractSpinBox *>(w)) &&
                    w->parentWidget() == dock->widget())
                    out << w;
            return out;
        };
        QVERIFY(filters().size() >= 8);
        int top = 1 << 20, bottom = -1;
        for (QWidget *w : filters()) {
            QVERIFY2(w->width() >= w->sizeHint().width(),
                     qPrintable(QStringLiteral("%1: %2 < %3")
                                    .arg(QString::fromLatin1(w->metaObject()->className()))
                                    .arg(w->width())
                                    .arg(w->sizeHint().width())));
            top = std::min(top, w->geometry().center().y());
            bottom = std::max(bottom, w->geometry().center().y());
        }
        QVERIFY2(bottom - top > 15, "one row at 900 px"); // two rows
        dock->setFloating(true);
        dock->resize(1800, 300);
        QTest::qWait(20);
        top = 1 << 20;
        bottom = -1;
        for (QWidget *w : filters()) {
            top = std::min(top, w->geometry().center().y());
            bottom = std::max(bottom, w->geometry().center().y());
        }
        QVERIFY2(bottom - top < 10,
                 qPrintable(QStringLiteral("filters span %1 px: two rows").arg(bottom - top)));
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
        run.start(at::test::appBinary(),
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
        run.start(at::test::appBinary(),
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
            (at::test::samplesDir() +
             QStringLiteral("/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"));
        QProcess run;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path());
        run.setProcessEnvironment(env);
        run.start(at::test::appBinary(),
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
        run.start(at::test::appBinary(),
                  {QStringLiteral("--screenshot"), png, QStringLiteral("--compare-steps"),
                   QStringLiteral("0:50,1:999"), level1});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 2);
        QVERIFY(run.readAllStandardError().contains("--compare-steps wants two steps"));
    }
};

QTEST_MAIN(TestAppearance)
#include "tst_appearance.moc"
