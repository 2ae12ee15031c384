#pragma once
// The command line run as a user would: the real binary (at::test::appBinary(), from the suite's environment)
// in a child process, with its exit code, standard output and standard error.

#include "TestPaths.h"
#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace at_test {

struct AppRun
{
    int exitCode = -1;
    QByteArray out;
    QString err;
};

inline AppRun runApp(const QStringList &args, int timeoutMs = 120000)
{
    QProcess process;
    process.setProgram(at::test::appBinary());
    process.setArguments(args);
    process.start();
    process.waitForFinished(timeoutMs);
    return {process.exitCode(), process.readAllStandardOutput(),
            QString::fromUtf8(process.readAllStandardError())};
}

} // namespace at_test
