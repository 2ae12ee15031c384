#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace at {

struct CommandLineOptions
{
    QStringList paths;
    bool summary = false;
    bool json = false;
    bool headless() const { return summary; }
};

// Parses argv with QCommandLineParser (--help and --version exit here).
CommandLineOptions parseCommandLine(const QCoreApplication &app);

// `--summary PATH...`: loads headlessly through the same loader and queries as the GUI, prints the
// summary, returns the process exit code (non-zero with the error on stderr for bad input).
int runSummary(const CommandLineOptions &options);

} // namespace at
