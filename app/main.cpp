#include "AppearanceMenus.h"
#include "CommandLine.h"
#include "MainWindow.h"
#include "RenderCommands.h"
#include "Translations.h"
#include "common/ProcessLimits.h"

#include <QApplication>
#include <QCoreApplication>
#include <QTextStream>

#include <cstring>
#include <memory>
#include <vector>

namespace {

// Headless modes must not need a display, so they run on a QCoreApplication.
bool wantsHeadless(int argc, char **argv)
{
    // --screenshot renders a window even with --compare-steps (the compare window).
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--screenshot", 12) == 0)
            return false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (std::strcmp(arg, "--advise") == 0)
            return true;
        if (std::strcmp(arg, "--summary") == 0 || std::strcmp(arg, "--metrics") == 0 ||
            std::strcmp(arg, "--memory") == 0 || // not --memory-limit, which the GUI takes too
            std::strncmp(arg, "--compare-steps", 15) == 0 || std::strncmp(arg, "--export-json", 13) == 0 ||
            std::strncmp(arg, "--export-csv", 12) == 0 || std::strcmp(arg, "--cluster") == 0 ||
            std::strncmp(arg, "--prepare", 9) == 0 || std::strcmp(arg, "--help") == 0 ||
            std::strcmp(arg, "-h") == 0 || std::strcmp(arg, "--version") == 0 || std::strcmp(arg, "-v") == 0)
            return true;
    }
    return false;
}

bool wantsImage(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--screenshot", 12) == 0 || std::strncmp(argv[i], "--chart", 7) == 0)
            return true;
    return false;
}

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("ascend-timeline"));
    QCoreApplication::setOrganizationName(QStringLiteral("AscendTimeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(AT_VERSION));
}

} // namespace

int main(int argc, char **argv)
{
    at::raiseOpenFileLimit(); // folders of thousands of ranks
    if (wantsHeadless(argc, argv)) {
        QCoreApplication app(argc, argv);
        setIdentity();
        const at::CommandLineOptions options = at::parseCommandLine(app);
        // --lang: the parser's warnings and errors in that language (the reports themselves stay English,
        // so scripts reading them keep working). Without it the headless modes stay English.
        if (!options.language.isEmpty()) {
            if (!at::uiLanguages().contains(options.language)) {
                QTextStream(stderr) << "ascend-timeline: --lang must be one of "
                                    << at::uiLanguages().join(QStringLiteral(", ")) << ", not '"
                                    << options.language << "'\n";
                return 2;
            }
            at::setUiLanguage(options.language);
        }
        return at::runHeadless(options);
    }
    // Image rendering needs widgets but no display.
    if (wantsImage(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("Ascend Timeline"));
    const at::CommandLineOptions options = at::parseCommandLine(app);
    QString appearanceError;
    if (!at::applyAppearance(options.theme, options.language, &appearanceError)) {
        QTextStream(stderr) << "ascend-timeline: " << appearanceError << '\n';
        return 2;
    }
    if (!options.screenshotOut.isEmpty())
        return at::runScreenshot(options);
    if (!options.chart.isEmpty())
        return at::runChart(options);

    // One window per profile: several paths open several windows.
    std::vector<std::unique_ptr<at::MainWindow>> windows;
    const QStringList paths = options.paths.isEmpty() ? QStringList{QString()} : options.paths;
    for (const QString &path : paths) {
        auto window = std::make_unique<at::MainWindow>();
        window->setLoadOptions(options.load);
        window->setSavedCacheFolderUsed(!options.noCache);
        window->show();
        if (path.isEmpty())
            window->openBundledSample();
        else
            window->openPath(path);
        windows.push_back(std::move(window));
    }
    return app.exec();
}
