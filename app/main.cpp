#include "CommandLine.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstring>
#include <memory>

namespace {

// Headless modes must not need a display, so they run on a QCoreApplication.
bool wantsHeadless(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (std::strcmp(arg, "--summary") == 0 || std::strcmp(arg, "--metrics") == 0 ||
            std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0 ||
            std::strcmp(arg, "--version") == 0 || std::strcmp(arg, "-v") == 0)
            return true;
    }
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
    if (wantsHeadless(argc, argv)) {
        QCoreApplication app(argc, argv);
        setIdentity();
        const at::CommandLineOptions options = at::parseCommandLine(app);
        return at::runHeadless(options);
    }
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("Ascend Timeline"));
    const at::CommandLineOptions options = at::parseCommandLine(app);
    at::MainWindow window;
    window.show();
    if (options.paths.isEmpty())
        window.openBundledSample();
    else
        window.openPath(options.paths.first());
    return app.exec();
}
