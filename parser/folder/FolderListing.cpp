#include "folder/FolderListing.h"

#include "common/MappedFile.h"
#include "folder/NamePatterns.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

#include <sys/stat.h>

namespace at {

namespace {

thread_local SpecialFileReport *t_report = nullptr;

} // namespace

FolderListing FolderListing::read(const QString &path)
{
    FolderListing out;
    out.path = path;
    const QFileInfo info(path);
    out.exists = info.isDir(); // follows links; a dangling link or a plain file is no folder
    // access(2)-based checks: a folder needs read (list) and execute (enter) permission.
    out.readable = out.exists && info.isReadable() && info.isExecutable();
    if (!out.readable)
        return out;

    const QDir dir(path);
    out.dirs = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::NoSort);
    out.files = dir.entryList(QDir::Files, QDir::NoSort);
    // QDir::System lists FIFOs, sockets, devices and dangling links (and, with Files, the regular files).
    for (const QString &name : dir.entryList(QDir::System | QDir::NoDotAndDotDot, QDir::NoSort))
        if (!out.files.contains(name) && !out.dirs.contains(name))
            out.specialFiles << name;
    std::sort(out.dirs.begin(), out.dirs.end(), profile_names::naturalLess);
    std::sort(out.files.begin(), out.files.end(), profile_names::naturalLess);
    std::sort(out.specialFiles.begin(), out.specialFiles.end(), profile_names::naturalLess);
    if (t_report) {
        for (const QString &name : out.specialFiles)
            if (isProfilerFileName(name))
                SpecialFileReport::note(out.filePath(name));
        // A folder named trace_view.json or kernel_details.csv (issue 29): said, never searched as a result.
        for (const QString &name : out.dirs)
            if (isProfilerFileName(name))
                SpecialFileReport::note(out.filePath(name));
    }
    return out;
}

bool isProfilerFileName(const QString &name)
{
    using namespace profile_names;
    static const QRegularExpression other(QStringLiteral(
        R"(\.slice_\d+$|\.(json|csv|db|db-wal|json\.gz|json\.zst)$|^(info\.json|start_info|end_info|dev_start\.log)\.\d+$)"));
    return isTraceViewName(name) || isMasterTimelineName(name) || isMsprofDbName(name) ||
           isTorchDbName(name) || isConfigFileName(name) || isProfilerInfoName(name) ||
           other.match(name).hasMatch();
}

SpecialFileReport::SpecialFileReport() : m_outer(t_report)
{
    if (!m_outer)
        t_report = this;
}

SpecialFileReport::~SpecialFileReport()
{
    if (t_report == this)
        t_report = nullptr;
}

void SpecialFileReport::note(const QString &path)
{
    SpecialFileReport *report = t_report;
    if (!report || report->m_paths.contains(path))
        return;
    report->m_paths << path;
    const QByteArray name = QFile::encodeName(path);
    struct stat st;
    if (::stat(name.constData(), &st) == 0 && S_ISDIR(st.st_mode)) {
        report->m_messages << QCoreApplication::translate(
                                  "Parser", "%1 is a folder where a file was expected: it was not read")
                                  .arg(path);
        return;
    }
    if (::stat(name.constData(), &st) == 0) {
        report->m_messages << QCoreApplication::translate("Parser",
                                                          "%1 is %2, not a regular file: it was not read")
                                  .arg(path, fileKindText(st.st_mode));
        return;
    }
    const QString target = QFileInfo(path).symLinkTarget();
    report->m_messages
        << (target.isEmpty()
                ? QCoreApplication::translate("Parser", "%1 is not a regular file: it was not read").arg(path)
                : QCoreApplication::translate(
                      "Parser", "%1 is a symbolic link to %2, which does not exist: it was not read")
                      .arg(path, target));
}

} // namespace at
