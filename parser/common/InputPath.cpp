#include "common/InputPath.h"

#include "common/MappedFile.h"
#include "common/MessageText.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <climits>

#include <sys/stat.h>

namespace at {

namespace {

bool isVirtual(const QString &resolved)
{
    for (const char *root : {"/proc", "/sys"})
        if (resolved == QLatin1String(root) || resolved.startsWith(QLatin1String(root) + QLatin1Char('/')))
            return true;
    return false;
}

} // namespace

QString inputPathProblem(const QString &path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char(':')) || path.startsWith(QLatin1String("qrc:")))
        return {}; // Qt resources (the bundled sample)
    const QByteArray name = QFile::encodeName(path);
    if (name.size() >= PATH_MAX)
        return QCoreApplication::translate("Parser",
                                           "%1: the path is too long (%2 bytes; the system allows %3)")
            .arg(displayPath(path))
            .arg(name.size())
            .arg(PATH_MAX - 1);
    struct stat link;
    if (::lstat(name.constData(), &link) != 0) {
        if (errno == ENAMETOOLONG)
            return QCoreApplication::translate(
                       "Parser", "%1: the path is too long (a name in it is longer than %2 bytes)")
                .arg(displayPath(path))
                .arg(NAME_MAX);
        return {};
    }
    struct stat target;
    if (::stat(name.constData(), &target) != 0) {
        if (S_ISLNK(link.st_mode))
            return QCoreApplication::translate("Parser", "%1: a symbolic link to %2, which does not exist")
                .arg(path, QFileInfo(path).symLinkTarget());
        return {};
    }
    if (!S_ISREG(target.st_mode) && !S_ISDIR(target.st_mode))
        return QCoreApplication::translate("Parser", "%1 is %2, not a trace file or folder")
            .arg(path, fileKindText(target.st_mode));
    const QString resolved = QFileInfo(path).canonicalFilePath();
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    if (isVirtual(resolved) && !isVirtual(absolute))
        return QCoreApplication::translate("Parser", "%1: points to %2, a virtual system file, not a trace")
            .arg(path, resolved);
    return {};
}

} // namespace at
