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
    bool metrics = false;
    QString csvOut;
    bool headless() const { return summary || metrics; }
};

// Parses argv with QCommandLineParser (--help and --version exit here).
CommandLineOptions parseCommandLine(const QCoreApplication &app);

// `--summary PATH...`: loads headlessly through the same loader and queries as the GUI, prints the
// summary, returns the process exit code (non-zero with the error on stderr for bad input).
int runSummary(const CommandLineOptions &options);

// `--metrics PATH [--csv OUT]`: the joined per-kernel AI Core metric table, as CSV on stdout or
// written to OUT.
int runMetrics(const CommandLineOptions &options);

// Runs whichever headless mode the options select.
int runHeadless(const CommandLineOptions &options);

} // namespace at
