#pragma once
// The command line run as a user would: the real binary (AT_APP_BINARY, set by the suite's CMakeLists) in a
// child process, with its exit code, standard output and standard error.

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
    process.setProgram(QStringLiteral(AT_APP_BINARY));
    process.setArguments(args);
    process.start();
    process.waitForFinished(timeoutMs);
    return {process.exitCode(), process.readAllStandardOutput(),
            QString::fromUtf8(process.readAllStandardError())};
}

} // namespace at_test
