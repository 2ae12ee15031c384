#pragma once

// Helpers for tests of the application windows (link at_app).

#include "CompareWindow.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "Theme.h"
#include "TiledTrace.h"

#include <QApplication>
#include <QFile>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QSize>
#include <QTest>

namespace at::test {

// Deletes every open compare window. Their menus are top-level widgets too, so the windows are
// collected first and deleted afterwards.
inline void closeCompareWindows()
{
    QList<QPointer<CompareWindow>> compares;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *c = qobject_cast<CompareWindow *>(w))
            compares << c;
    for (const auto &c : compares)
        delete c.data();
}

// Opens path in the window and waits for the load to end: true when it succeeded. A load that ends
// inside openPath (an error found at once) has signalled before the wait starts.
// A load opens on the Overview page (tests/window tests it, with openOnOverview); the suites that drive
// the timeline and its docks get the timeline page, as a click on "Timeline ▸" would show it.
inline bool openOnOverview(MainWindow &window, const QString &path)
{
    QSignalSpy spy(&window, &MainWindow::loadFinished);
    window.openPath(path);
    return (!spy.isEmpty() || spy.wait(60000)) && spy.first().first().toBool();
}
inline bool openAndWait(MainWindow &window, const QString &path)
{
    const bool ok = openOnOverview(window, path);
    if (ok && window.showsOverview())
        window.showTimelinePage();
    return ok;
}

// A _data table of the readability matrix the page suites check: columns language (QString), theme (int, a
// UiTheme) and size (QSize); rows English and Chinese × light and dark × 900 × 700 and 1600 × 1000.
inline void addLanguageThemeSizeRows()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("theme");
    QTest::addColumn<QSize>("size");
    for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")})
        for (const UiTheme theme : {UiTheme::Light, UiTheme::Dark})
            for (const QSize &size : {QSize(900, 700), QSize(1600, 1000)})
                QTest::addRow("%s-%s-%dx%d", qPrintable(language), qPrintable(uiThemeName(theme)),
                              size.width(), size.height())
                    << language << static_cast<int>(theme) << size;
}

// Settings (recent files, window layout) go to a scratch folder, never the user's.
inline void useScratchSettings(const QString &folder)
{
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, folder);
    QSettings().clear();
}

// The level-1 sample tiled into `copies` steps one second apart, written to path; false on error.
inline bool writeTiledSample(const QString &path, int copies)
{
    QFile in(level1Rank0Trace());
    QFile out(path);
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly))
        return false;
    const QByteArray tiled = tileTraceJson(in.readAll(), copies, 1'000'000);
    return !tiled.isEmpty() && out.write(tiled) == tiled.size();
}

} // namespace at::test
