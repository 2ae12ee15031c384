#include "snapshot/SnapshotCache.h"

#include "common/MessageText.h"

#include "common/MappedFile.h"

#include "LoadMemoryGuard.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace at::snapshot {

Q_LOGGING_CATEGORY(lcSnapshot, "at.snapshot", QtWarningMsg)

namespace {

QString canonical(const QString &input)
{
    if (input.startsWith(QLatin1Char(':')) || input.startsWith(QLatin1String("qrc:")))
        return {}; // Qt resources are built in, small, and have no mtime worth keying on
    return QFileInfo(input).canonicalFilePath();
}

// Test-only: sleeps halfway through writing, so that a test can kill the process mid-write.
void testPause()
{
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("AT_SNAPSHOT_TEST_PAUSE_MS", &ok);
    if (ok && ms > 0) {
        std::fprintf(stderr, "AT_SNAPSHOT_TEST_PAUSE\n");
        std::fflush(stderr);
        QThread::msleep(static_cast<unsigned long>(ms));
    }
}

// The writer's temporaries are "<name>.at-tmp-XXXXXX" (save() below): a killed writer leaves one behind. They
// are never read (the names differ), and ones older than an hour (no live writer) are removed. Only names of
// that exact shape, regular files and no symbolic links: a user's "notes.atsnap.bak" in a --cache folder is
// the user's (issue 29 item 5).
const QLatin1String kTemporaryTag(".at-tmp-");
constexpr int kTemporarySuffixLength = 6;

bool isWritersTemporary(const QString &fileName)
{
    const qsizetype tag = fileName.lastIndexOf(kTemporaryTag);
    if (tag < 0 || fileName.size() != tag + kTemporaryTag.size() + kTemporarySuffixLength)
        return false;
    const QStringView base = QStringView(fileName).left(tag);
    if (!base.endsWith(QLatin1String(".atsnap")) && !base.endsWith(QLatin1String(".atrank.json")))
        return false;
    for (const QChar c : QStringView(fileName).right(kTemporarySuffixLength))
        if (!(c.isDigit() || (c >= QLatin1Char('a') && c <= QLatin1Char('z'))))
            return false;
    return true;
}

void removeStaleTemporaries(const QDir &dir)
{
    const QDateTime cutoff = QDateTime::currentDateTimeUtc().addSecs(-3600);
    const QStringList patterns{QStringLiteral("*.atsnap") + kTemporaryTag + QLatin1Char('*'),
                               QStringLiteral("*.atrank.json") + kTemporaryTag + QLatin1Char('*')};
    for (const QFileInfo &f : dir.entryInfoList(patterns, QDir::Files | QDir::NoSymLinks | QDir::Hidden))
        if (isWritersTemporary(f.fileName()) && f.lastModified().toUTC() < cutoff)
            QFile::remove(f.filePath());
}

// Keeps the cache bounded: the most recently used snapshots (mtime is refreshed on every reopen) up
// to kMaxSnapshots files and kMaxCacheBytes in total; the one just written always stays.
constexpr int kMaxSnapshots = 64;
constexpr qint64 kMaxCacheBytes = qint64(4) << 30;

void evictOld(const QDir &dir, const QString &keep)
{
    const QFileInfoList files = dir.entryInfoList({QStringLiteral("*.atsnap")}, QDir::Files, QDir::Time);
    qint64 total = 0;
    int count = 0;
    for (const QFileInfo &f : files) {
        total += f.size();
        if (f.filePath() != keep && (++count > kMaxSnapshots || total > kMaxCacheBytes)) {
            qCInfo(lcSnapshot) << "evicting" << f.filePath();
            QFile::remove(f.filePath());
        }
    }
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

// Opens the cache folder itself (not a symlink to one) and checks that it is a folder the user owns,
// so that nothing planted there can redirect a write. -1 with *reason otherwise.
int openCacheFolder(const QString &dir, QString *reason)
{
    const int fd =
        ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) {
        if (fd >= 0)
            ::close(fd);
        *reason = QStringLiteral("%1 is not a folder owned by this user (or is a symbolic link)").arg(dir);
        return -1;
    }
    return fd;
}

// Writes into a new file (O_EXCL, O_NOFOLLOW) inside the checked cache folder, then renames it over
// the snapshot's name: a symlink planted there is replaced, never followed; a FIFO, socket or device
// there is left alone and nothing is written.
bool save(const std::string &bytes, const QString &path, QString *reason, bool evict)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.path())) {
        *reason = QStringLiteral("cannot create %1").arg(info.path());
        return false;
    }
    const int dir = openCacheFolder(info.path(), reason);
    if (dir < 0)
        return false;
    removeStaleTemporaries(info.dir());
    const QByteArray name = QFile::encodeName(info.fileName());
    struct stat existing;
    if (::fstatat(dir, name.constData(), &existing, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(existing.st_mode) &&
        !S_ISLNK(existing.st_mode)) {
        ::close(dir);
        *reason = QStringLiteral("%1 is not a regular file: left alone").arg(path);
        return false;
    }
    // "<name>.at-tmp-XXXXXX" (XXXXXX: six base-36 digits), so that removeStaleTemporaries finds those of a
    // killed writer and nothing else.
    const QByteArray temporary =
        name + kTemporaryTag.data() +
        QByteArray::number(QRandomGenerator::global()->generate64() | (quint64(1) << 63), 36)
            .right(kTemporarySuffixLength);
    const int fd =
        ::openat(dir, temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *reason = QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        ::close(dir);
        return false;
    }
    const std::size_t half = bytes.size() / 2;
    bool ok = writeAll(fd, bytes.data(), half);
    testPause();
    ok = ok && writeAll(fd, bytes.data() + half, bytes.size() - half);
    int code = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        code = errno;
    }
    if (ok && ::renameat(dir, temporary.constData(), dir, name.constData()) != 0) {
        ok = false;
        code = errno;
    }
    if (!ok) {
        ::unlinkat(dir, temporary.constData(), 0);
        ::close(dir);
        *reason = QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(code)));
        return false;
    }
    ::close(dir);
    qCInfo(lcSnapshot) << "wrote" << path << bytes.size() << "bytes";
    if (evict)
        evictOld(info.dir(), path);
    return true;
}

// FNV-1a 64 of the first and last 64 KiB, read with pread (never blocks: regular files only).
std::uint64_t fingerprintOf(const QString &path, off_t size)
{
    constexpr off_t kEdge = off_t{64} * 1024;
    std::uint64_t hash = 14695981039346656037ull;
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    std::vector<unsigned char> buffer(static_cast<std::size_t>(kEdge));
    auto add = [&](off_t offset, off_t length) {
        const ssize_t n = ::pread(fd, buffer.data(), static_cast<std::size_t>(length), offset);
        for (ssize_t i = 0; i < n; ++i)
            hash = (hash ^ buffer[static_cast<std::size_t>(i)]) * 1099511628211ull;
    };
    add(0, std::min(size, kEdge));
    if (size > kEdge)
        add(std::max(kEdge, size - kEdge), std::min(kEdge, size - kEdge));
    ::close(fd);
    return hash;
}

// The absolute path with symbolic links of its existing part resolved (the rest may not exist yet).
QString resolvedPath(const QString &path)
{
    QString existing = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QString rest;
    while (!QFileInfo::exists(existing) && existing != QStringLiteral("/") && !existing.isEmpty()) {
        rest = QFileInfo(existing).fileName() + (rest.isEmpty() ? QString() : QLatin1Char('/') + rest);
        existing = QFileInfo(existing).absolutePath();
    }
    const QString real = QFileInfo(existing).canonicalFilePath();
    const QString base = real.isEmpty() ? existing : real;
    return rest.isEmpty() ? base : QDir::cleanPath(base + QLatin1Char('/') + rest);
}

// Real paths (symbolic links resolved), like the root's: a file reached through a link must lie under the
// root it is checked against, or a folder seen at another path would compare it where it was.
void addWithFolders(std::set<QString> &paths, const QString &file, const QString &root)
{
    const QString absolute = resolvedPath(file);
    paths.insert(absolute);
    // The folders between the file and the opened root: adding or removing a file changes them.
    QString dir = QFileInfo(absolute).path();
    while (!root.isEmpty() && dir.startsWith(root) && dir.size() > root.size()) {
        paths.insert(dir);
        dir = QFileInfo(dir).path();
    }
}

} // namespace

bool enabled()
{
    const QByteArray off = qgetenv("AT_NO_SNAPSHOT");
    return (off.isEmpty() || off == "0") && !directory().isEmpty();
}

QString directory()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    return base.isEmpty() ? QString() : QDir(base).filePath(QStringLiteral("snapshots"));
}

QString profileDataFolderAbove(const QString &dir)
{
    QString outermost;
    for (QString folder = resolvedPath(dir); !folder.isEmpty() && folder != QStringLiteral("/");
         folder = QFileInfo(folder).absolutePath()) {
        const QString name = QFileInfo(folder).fileName();
        if (name.endsWith(QLatin1String("ascend_pt")) || name.endsWith(QLatin1String("ascend_ms")) ||
            name.startsWith(QLatin1String("PROF_")))
            outermost = folder;
    }
    return outermost;
}

bool insideDataFolder(const QString &input, const QString &cacheDir)
{
    // Never inside the opened folder, even when the cache location points there or a symlink on the
    // way leads there (a lone file's folder is not the profile's: a cache beside it is allowed).
    const QString dataFolder = canonical(input);
    const QString dirReal = resolvedPath(cacheDir);
    const bool insideOpened = !dataFolder.isEmpty() && QFileInfo(dataFolder).isDir() &&
                              (dirReal == dataFolder || dirReal.startsWith(dataFolder + QLatin1Char('/')));
    return insideOpened || !profileDataFolderAbove(cacheDir).isEmpty();
}

QString cacheKeyName(const QString &input, QByteArrayView tag)
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(canonical(input).toUtf8());
    hash.addData(tag);
    return QString::fromLatin1(hash.result().toHex());
}

QString portableKeyName(const QString &folder, QByteArrayView tag)
{
    const QString real = canonical(folder);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData("folder\n");
    hash.addData(QFileInfo(real).fileName().toUtf8());
    const QDir dir(real);
    for (const QString &name :
         dir.entryList({QStringLiteral("profiler_info*.json")}, QDir::Files | QDir::Hidden, QDir::Name)) {
        const FileStamp s = stampOf(dir.filePath(name));
        hash.addData(QStringLiteral("\n%1 %2 %3").arg(name).arg(s.size).arg(s.fingerprint).toUtf8());
    }
    hash.addData(tag);
    return QString::fromLatin1(hash.result().toHex());
}

QString rebasedPath(const QString &path, const QString &from, const QString &to)
{
    if (from.isEmpty() || from == to || from == QStringLiteral("/"))
        return path;
    if (path == from)
        return to;
    if (path.startsWith(from) && path.at(from.size()) == QLatin1Char('/'))
        return to + path.mid(from.size());
    return path;
}

QString firstChangedFile(const std::vector<FileStamp> &recorded, const QString &recordedRoot,
                         const QString &root)
{
    for (const FileStamp &f : recorded) {
        const QString path = rebasedPath(f.path, recordedRoot, root);
        const FileStamp now = stampOf(path);
        // Seen at another path, a file outside the recorded folder cannot be told to be this folder's.
        if (path == f.path && !recordedRoot.isEmpty() && recordedRoot != root)
            return path;
        if (path == f.path) { // the same real path: everything as it was
            if (now != f)
                return path;
            continue;
        }
        // Seen at another path: ctime is not kept by a copy, a folder's size differs between file systems.
        const bool folder = f.fingerprint == 0 && QFileInfo(path).isDir();
        const bool same =
            now.size >= 0 && now.mtimeNs == f.mtimeNs &&
            (folder ? now.fingerprint == 0 : now.size == f.size && now.fingerprint == f.fingerprint);
        if (!same)
            return path;
    }
    return {};
}

QString pathFor(const QString &input, PreferredSource preferred, const QString &cacheDir)
{
    const QString path = canonical(input);
    const QString dir = cacheDir.isEmpty() ? directory() : cacheDir;
    if (path.isEmpty() || dir.isEmpty())
        return {};
    if (insideDataFolder(input, dir)) {
        static std::once_flag warned;
        std::call_once(warned, [&] {
            const QString dataFolder = profileDataFolderAbove(dir);
            qCWarning(lcSnapshot).noquote()
                << QCoreApplication::translate(
                       "Parser", "the snapshot cache %1 lies inside the data folder %2: running without it")
                       .arg(resolvedPath(dir), dataFolder.isEmpty() ? path : dataFolder);
        });
        return {};
    }
    QByteArray tag = preferred == PreferredSource::Database ? QByteArray("\ndb") : QByteArray("\ntext");
    // The model keeps its load's warnings in the language they were made in: a snapshot per language.
    // Not in a prepared cache (--cache DIR): a rank prepared on a node must be found by a desktop in any
    // language, so its warnings stay in the language it was prepared in.
    if (const QString language = messageLanguage(); cacheDir.isEmpty() && language != QLatin1String("en"))
        tag += QStringLiteral("\nlanguage %1").arg(language).toUtf8();
    // A folder in a cache of the user's choosing is found wherever it is seen (portableKeyName).
    const bool portable = !cacheDir.isEmpty() && QFileInfo(path).isDir();
    return QDir(dir).filePath((portable ? portableKeyName(input, tag) : cacheKeyName(input, tag)) +
                              QStringLiteral(".atsnap"));
}

bool saveCacheFile(const std::string &bytes, const QString &path, QString *reason)
{
    return save(bytes, path, reason, false);
}

FileStamp stampOf(const QString &path)
{
    FileStamp stamp;
    stamp.path = path;
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) {
        stamp.size = -1;
        return stamp;
    }
    stamp.size = static_cast<std::int64_t>(st.st_size);
    stamp.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    stamp.ctimeNs = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
    if (S_ISREG(st.st_mode))
        stamp.fingerprint = fingerprintOf(path, st.st_size);
    return stamp;
}

SnapshotKey keyFor(const TraceModel &model, const QString &input, PreferredSource preferred)
{
    SnapshotKey key;
    key.canonicalPath = canonical(input);
    key.preferredSource = preferred == PreferredSource::Database ? 1 : 0;
    std::set<QString> paths;
    const QString root = QFileInfo(input).isDir() ? key.canonicalPath : QString();
    paths.insert(key.canonicalPath);
    auto addAll = [&](const QStringList &files) {
        for (const QString &f : files)
            addWithFolders(paths, f, root);
    };
    for (const SourceFile &s : model.sources())
        addWithFolders(paths, s.path, root);
    for (const SourceGroup &g : model.groups()) {
        addAll(g.timelineFiles);
        addAll(g.summaryFiles);
        addAll(g.collection.files);
    }
    for (const SummaryTable &t : model.summaryTables())
        addAll(t.files);
    for (const QString &p : paths)
        key.files.push_back(stampOf(p));
    return key;
}

std::unique_ptr<TraceModel> load(const QString &input, const LoadOptions &options, LoadControl &control,
                                 QString *reason, bool *cancelled)
{
    *cancelled = false;
    const PreferredSource preferred = options.preferredSource;
    const QString path = pathFor(input, preferred, options.snapshotDirectory);
    if (path.isEmpty()) {
        *reason = QStringLiteral("not cached");
        return nullptr;
    }
    auto failed = [&](const QString &why) {
        *reason = QStringLiteral("%1: %2").arg(path, why);
        return nullptr;
    };
    // Mapped, not read: snapshots are replaced by rename, never rewritten in place; should one shrink
    // anyway, MappedFile reads zeros past the cut, decoding fails and the reason says so.
    struct stat planted;
    if (::lstat(QFile::encodeName(path).constData(), &planted) == 0 && !S_ISREG(planted.st_mode))
        return failed(QStringLiteral("not a regular file (never followed or opened)"));
    QString mapError;
    const std::unique_ptr<MappedFile> bytes = MappedFile::open(path, &mapError);
    if (!bytes) {
        // mapError already names the file.
        *reason = QFileInfo::exists(path) ? mapError : QStringLiteral("no snapshot yet");
        return nullptr;
    }
    const std::optional<SnapshotHeader> header =
        readHeader(std::string_view(bytes->data(), bytes->size()), reason);
    if (!header)
        return failed(bytes->truncated() ? bytes->truncationMessage() : *reason);
    const SnapshotKey &key = header->key;
    control.bytesTotal = key.sourceBytes;
    control.bytesDone = 0;
    // In a cache of the user's choosing a folder's snapshot is found by the folder's name and identity
    // (portableKeyName): made under another path, it is the same folder when every file it was read from
    // is still there, relative to the folder, unchanged (firstChangedFile).
    const QString current = canonical(input);
    const bool moved = key.canonicalPath != current;
    if (key.preferredSource != (preferred == PreferredSource::Database) ||
        (moved && (options.snapshotDirectory.isEmpty() || !QFileInfo(current).isDir() ||
                   QFileInfo(key.canonicalPath).fileName() != QFileInfo(current).fileName())))
        return failed(QStringLiteral("made for another input"));
    if (key.files.empty())
        return failed(QStringLiteral("no input files recorded"));
    if (const QString changed = firstChangedFile(key.files, key.canonicalPath, current); !changed.isEmpty())
        return failed(QStringLiteral("stale: %1 changed since the snapshot was written").arg(changed));
    if (control.cancel) {
        *cancelled = true;
        return nullptr;
    }
    // The memory guard watches parsing only: a reopen that could pass the reading share of the limit
    // (a model about as large as the payload, plus the structure part's buffer, bounded by twice the
    // payload) is left to the cold load, which stops in time.
    if (options.memoryLimitBytes > 0 &&
        static_cast<double>(privateResidentBytes() + 2 * header->payloadSize) >
            kReadingShareOfLimit * static_cast<double>(options.memoryLimitBytes))
        return failed(QStringLiteral("reopening could pass the memory limit"));
    // The model's paths (sources, whose args are re-read from them, groups, files, messages) follow the
    // folder.
    std::unique_ptr<TraceModel> model =
        decodeBody(*header, reason, moved ? PathMove{key.canonicalPath, current} : PathMove{});
    if (bytes->truncated())
        return failed(bytes->truncationMessage());
    if (!model)
        return failed(*reason);
    if (control.cancel) {
        *cancelled = true;
        return nullptr;
    }
    control.bytesDone = control.bytesTotal.load();
    ::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), nullptr, 0); // last use, for eviction
    return model;
}

bool write(const TraceModel &model, const QString &input, PreferredSource preferred, bool background,
           std::uint64_t sourceBytes, QString *reason, const QString &cacheDir)
{
    const QString path = pathFor(input, preferred, cacheDir);
    const bool evict = cacheDir.isEmpty();
    if (path.isEmpty()) {
        *reason = QStringLiteral("not cached");
        return false;
    }
    SnapshotKey key = keyFor(model, input, preferred);
    key.sourceBytes = sourceBytes;
    std::optional<std::string> payload = encodePayload(model, reason);
    if (!payload)
        return false;
    auto finish = [key, path, evict](const std::string &encoded) {
        QString why;
        const std::optional<std::string> bytes = frameSnapshot(encoded, key, &why);
        if (!bytes || !save(*bytes, path, &why, evict)) {
            qCWarning(lcSnapshot) << "snapshot not written:" << why;
            return false;
        }
        return true;
    };
    if (!background)
        return finish(*payload);
    auto shared = std::make_shared<const std::string>(std::move(*payload));
    QThreadPool::globalInstance()->start([finish, shared] { finish(*shared); });
    return true;
}

} // namespace at::snapshot
