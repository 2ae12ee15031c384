#include "AppearanceMenus.h"
#include "CommandLine.h"
#include "MainWindow.h"
#include "Translations.h"
#include "common/ProcessLimits.h"

#include <QApplication>
#include <QCoreApplication>
#include <QTextStream>

#include <memory>
#include <vector>

namespace {

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("ascend-timeline"));
    QCoreApplication::setOrganizationName(QStringLiteral("AscendTimeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(AT_VERSION));
}

QStringList argumentsOf(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

// --help / --version (their text on stdout) or a command-line error: the exit code.
int finishEarly(const at::ParsedCommandLine &parsed)
{
    if (!parsed.output.isEmpty())
        QTextStream(stdout) << parsed.output;
    if (!parsed.error.isEmpty())
        QTextStream(stderr) << "ascend-timeline: " << parsed.error << "\n";
    return *parsed.exitCode;
}

void printLoadNotices(const at::CommandLineOptions &options)
{
    for (const QString &notice : options.load.notices)
        QTextStream(stderr) << "ascend-timeline: warning: " << notice << "\n";
}

} // namespace

int main(int argc, char **argv)
{
    at::raiseOpenFileLimit(); // folders of thousands of ranks
    // The table says whether the mode needs widgets: headless modes must not need a display, so they run on
    // a QCoreApplication.
    const at::CommandLineRuntime runtime = at::commandLineRuntime(argumentsOf(argc, argv));
    if (runtime == at::CommandLineRuntime::Headless) {
        QCoreApplication app(argc, argv);
        setIdentity();
        const at::ParsedCommandLine parsed = at::parseCommandLine(app.arguments());
        if (parsed.exitCode)
            return finishEarly(parsed);
        printLoadNotices(parsed.options);
        if (!parsed.mode || parsed.mode->needsWidgets) { // (the raw scan and the parser read the same table)
            QTextStream(stderr) << "ascend-timeline: cannot tell the mode from this command line\n";
            return 2;
        }
        // --lang: the parser's warnings and errors in that language (the reports themselves stay English,
        // so scripts reading them keep working). Without it the headless modes stay English.
        if (!parsed.options.language.isEmpty()) {
            if (!at::uiLanguages().contains(parsed.options.language)) {
                QTextStream(stderr) << "ascend-timeline: --lang must be one of "
                                    << at::uiLanguages().join(QStringLiteral(", ")) << ", not '"
                                    << parsed.options.language << "'\n";
                return 2;
            }
            at::setUiLanguage(parsed.options.language);
        }
        return parsed.mode->run(parsed.options);
    }
    // Image rendering needs widgets but no display.
    if (runtime == at::CommandLineRuntime::Offscreen && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("Ascend Timeline"));
    const at::ParsedCommandLine parsed = at::parseCommandLine(app.arguments());
    if (parsed.exitCode)
        return finishEarly(parsed);
    printLoadNotices(parsed.options);
    const at::CommandLineOptions &options = parsed.options;
    QString appearanceError;
    if (!at::applyAppearance(options.theme, options.language, &appearanceError)) {
        QTextStream(stderr) << "ascend-timeline: " << appearanceError << '\n';
        return 2;
    }
    if (parsed.mode)
        return parsed.mode->run(options);

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
