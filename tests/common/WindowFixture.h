#pragma once

// The set-up every suite that drives the real main window shares (link at_app). A suite's test class
// inherits it beside QObject and calls it from its Qt Test slots:
//
//   class TestX : public QObject, protected test::WindowFixture
//   {
//       void initTestCase() { QVERIFY(setUpWindowSuite()); }
//       void init() { QVERIFY(openWindow(path)); }
//       void cleanup() { closeWindow(); }
//   };
//
// m_dir is the suite's scratch folder (settings/ in it; the suite may write its own files there) and
// m_window the window of the current test.

#include "AppTestSupport.h"
#include "MainWindow.h"
#include "Theme.h"
#include "Translations.h"

#include <QSettings>
#include <QSize>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include <memory>

namespace at::test {

class WindowFixture
{
protected:
    // The window size the suites test at unless a test needs another.
    static constexpr QSize kWindowSize{1400, 900};

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    // initTestCase: settings (recent files, layout, theme, language) go to m_dir/settings, never the
    // user's; the window starts in English with the system theme.
    bool setUpWindowSuite()
    {
        if (!m_dir.isValid()) {
            qWarning("no scratch folder: %s", qPrintable(m_dir.errorString()));
            return false;
        }
        useScratchSettings(m_dir.filePath(QStringLiteral("settings")));
        resetAppearance();
        return true;
    }

    // init: a new window with empty settings, resized (unless size is empty), shown and exposed, with
    // path opened and loaded. False when the window was not exposed or the load failed.
    bool openWindow(const QString &path, QSize size = kWindowSize)
    {
        if (!showWindow(size))
            return false;
        if (!openAndWait(*m_window, path)) {
            qWarning("could not open %s", qPrintable(path));
            return false;
        }
        return true;
    }

    // A new window with empty settings, resized (unless size is empty), shown and exposed; nothing open.
    bool showWindow(QSize size = kWindowSize)
    {
        QSettings().clear();
        m_window = std::make_unique<MainWindow>();
        if (!size.isEmpty())
            m_window->resize(size);
        m_window->show();
        if (!QTest::qWaitForWindowExposed(m_window.get())) {
            qWarning("the main window was not exposed");
            return false;
        }
        return true;
    }

    // cleanup: tooltips hidden, compare windows and the window deleted, English and the system theme
    // back (a test that switched them does not change the next one).
    void closeWindow()
    {
        QToolTip::hideText();
        closeCompareWindows();
        m_window.reset();
        resetAppearance();
    }

    static void resetAppearance()
    {
        if (currentUiTheme() != UiTheme::System)
            applyUiTheme(UiTheme::System);
        if (uiLanguage() != QLatin1String("en"))
            setUiLanguage(QStringLiteral("en"));
    }
};

} // namespace at::test
