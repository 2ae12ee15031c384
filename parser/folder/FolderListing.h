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
    QStringList files;     // names of regular files (links to them included), natural order; hidden skipped
    // Entries that are neither: FIFOs, sockets, devices, dangling links, natural order. Never in `files`
    // (opening a FIFO would block); those named like a profiler's file are reported (SpecialFileReport).
    QStringList specialFiles;

    bool hasDir(const QString &name) const { return dirs.contains(name); }
    bool hasFile(const QString &name) const { return files.contains(name); }
    QString filePath(const QString &name) const { return path + QLatin1Char('/') + name; }

    static FolderListing read(const QString &path);
};

// Whether the profiler (msprof, torch_npu) writes files of this name: timelines, summary CSVs, databases,
// configuration and clock files, raw data slices.
bool isProfilerFileName(const QString &name);

// While one is alive, every FolderListing::read on this thread notes the special files carrying a profiler
// file's name, so the layout detector can say why they were not loaded (issue 21: a FIFO named
// kernel_details.csv used to be skipped silently), and the folders carrying one (issue 29). Nested reports
// share the outermost one.
class SpecialFileReport
{
public:
    SpecialFileReport();
    ~SpecialFileReport();
    SpecialFileReport(const SpecialFileReport &) = delete;
    SpecialFileReport &operator=(const SpecialFileReport &) = delete;

    // "PATH is a FIFO (named pipe), not a regular file: it was not read", one per path, in the order found;
    // "PATH is a folder where a file was expected: it was not read" for a folder named like such a file.
    const QStringList &messages() const { return m_messages; }
    const QStringList &paths() const { return m_paths; } // the path each message names, same order
    // Notes one special file of a listing (called by FolderListing::read).
    static void note(const QString &path);

private:
    SpecialFileReport *m_outer = nullptr;
    QStringList m_paths;
    QStringList m_messages;
};

} // namespace at
