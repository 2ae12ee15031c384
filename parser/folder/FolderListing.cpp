#include "folder/FolderListing.h"

#include "folder/NamePatterns.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace at {

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
    std::sort(out.dirs.begin(), out.dirs.end(), profile_names::naturalLess);
    std::sort(out.files.begin(), out.files.end(), profile_names::naturalLess);
    return out;
}

} // namespace at
