#include "common/OutputPath.h"

#include "TraceModel.h"

#include "common/MappedFile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace at {

namespace {

QString systemError(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

bool writeAll(int fd, const char *data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

QString outputPathProblem(const QString &path, const QStringList &inputs)
{
    if (path.isEmpty())
        return QCoreApplication::translate("Parser", "no output path given");
    const QByteArray name = QFile::encodeName(path);
    struct stat st;
    if (::stat(name.constData(), &st) != 0) {
        if (errno == ENAMETOOLONG)
            return QCoreApplication::translate("Parser", "the path is too long");
        return {}; // a new file (or a dangling symlink, which the rename replaces)
    }
    if (!S_ISREG(st.st_mode))
        return QCoreApplication::translate("Parser", "it is %1, not a regular file: refusing to replace it")
            .arg(fileKindText(st.st_mode));
    for (const QString &input : inputs) {
        struct stat in;
        if (::stat(QFile::encodeName(input).constData(), &in) == 0 && in.st_dev == st.st_dev &&
            in.st_ino == st.st_ino)
            return QCoreApplication::translate(
                       "Parser", "it is one of the files being read (%1): refusing to overwrite it")
                .arg(input);
    }
    return {};
}

bool writeOutputFile(const QString &path, QByteArrayView bytes, QString *error, const QStringList &inputs)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const QString problem = outputPathProblem(path, inputs);
    if (!problem.isEmpty())
        return fail(problem);
    const QFileInfo info(path);
    const QString temporary = QStringLiteral("%1/.%2.%3.tmp")
                                  .arg(info.absolutePath(), info.fileName())
                                  .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    const QByteArray temporaryName = QFile::encodeName(temporary);
    const int fd =
        ::open(temporaryName.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return fail(systemError(errno));
    bool ok = writeAll(fd, bytes.data(), static_cast<std::size_t>(bytes.size()));
    int code = errno;
    if (ok && ::fsync(fd) != 0 && errno != EINVAL) {
        ok = false;
        code = errno;
    }
    if (::close(fd) != 0 && ok) {
        ok = false;
        code = errno;
    }
    if (ok && ::rename(temporaryName.constData(), QFile::encodeName(path).constData()) != 0) {
        ok = false;
        code = errno;
    }
    if (!ok) {
        ::unlink(temporaryName.constData());
        return fail(systemError(code));
    }
    return true;
}

QStringList inputFilesOf(const TraceModel &model)
{
    QStringList files;
    for (const SourceFile &s : model.sources())
        files << s.path;
    for (const SourceGroup &g : model.groups())
        files << g.timelineFiles << g.summaryFiles << g.collection.files;
    for (const SummaryTable &t : model.summaryTables())
        files << t.files;
    files.removeDuplicates();
    return files;
}

} // namespace at
