#pragma once

// One directory listing, read once and shared by classification and collection. Read-only.

#include <QString>
#include <QStringList>

namespace at {

struct FolderListing
{
    QString path;
    bool exists = false;   // a folder (or a link to one) is at path
    bool readable = false; // false: missing, not a folder, or permission denied
    QStringList dirs;      // names of subfolders (links to folders included), natural order
    QStringList files;     // names of files, natural order; hidden entries are skipped

    bool hasDir(const QString &name) const { return dirs.contains(name); }
    bool hasFile(const QString &name) const { return files.contains(name); }
    QString filePath(const QString &name) const { return path + QLatin1Char('/') + name; }

    static FolderListing read(const QString &path);
};

} // namespace at
