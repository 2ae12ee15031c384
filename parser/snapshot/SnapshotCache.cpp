#include "snapshot/SnapshotCache.h"

#include "common/MappedFile.h"

#include "LoadMemoryGuard.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QStandardPaths>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cstdio>
#include <set>

#include <fcntl.h>
#include <sys/stat.h>

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

// QSaveFile leaves "<name>.XXXXXX" behind when the process dies mid-write; they are never read
// (the names differ), and ones older than an hour (no live writer) are removed.
void removeStaleTemporaries(const QDir &dir)
{
    const QDateTime cutoff = QDateTime::currentDateTimeUtc().addSecs(-3600);
    for (const QFileInfo &f : dir.entryInfoList({QStringLiteral("*.atsnap.*")}, QDir::Files))
        if (f.lastModified().toUTC() < cutoff)
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

bool save(const std::string &bytes, const QString &path, QString *reason)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.path())) {
        *reason = QStringLiteral("cannot create %1").arg(info.path());
        return false;
    }
    removeStaleTemporaries(info.dir());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *reason = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    const auto half = static_cast<qint64>(bytes.size() / 2);
    bool ok = file.write(bytes.data(), half) == half;
    file.flush();
    testPause();
    const auto rest = static_cast<qint64>(bytes.size()) - half;
    ok = ok && file.write(bytes.data() + half, rest) == rest;
    if (!ok || !file.commit()) {
        *reason = QStringLiteral("%1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    qCInfo(lcSnapshot) << "wrote" << path << bytes.size() << "bytes";
    evictOld(info.dir(), path);
    return true;
}

void addWithFolders(std::set<QString> &paths, const QString &file, const QString &root)
{
    const QString absolute = QFileInfo(file).absoluteFilePath();
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

QString pathFor(const QString &input, PreferredSource preferred)
{
    const QString path = canonical(input);
    const QString dir = directory();
    if (path.isEmpty() || dir.isEmpty())
        return {};
    // Never inside the data folder, even when the cache location points there.
    const QString dirCanonical = QFileInfo(dir).absoluteFilePath();
    if (QFileInfo(path).isDir() && (dirCanonical == path || dirCanonical.startsWith(path + QLatin1Char('/'))))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(path.toUtf8());
    hash.addData(preferred == PreferredSource::Database ? QByteArrayView("\ndb") : QByteArrayView("\ntext"));
    return QDir(dir).filePath(QString::fromLatin1(hash.result().toHex()) + QStringLiteral(".atsnap"));
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
    const QString path = pathFor(input, preferred);
    if (path.isEmpty()) {
        *reason = QStringLiteral("not cached");
        return nullptr;
    }
    auto failed = [&](const QString &why) {
        *reason = QStringLiteral("%1: %2").arg(path, why);
        return nullptr;
    };
    // Mapped, not read: snapshots are replaced by rename, never rewritten in place, so the mapped
    // file cannot shrink under us.
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
        return failed(*reason);
    const SnapshotKey &key = header->key;
    control.bytesTotal = key.sourceBytes;
    control.bytesDone = 0;
    if (key.canonicalPath != canonical(input) ||
        key.preferredSource != (preferred == PreferredSource::Database))
        return failed(QStringLiteral("made for another input"));
    if (key.files.empty())
        return failed(QStringLiteral("no input files recorded"));
    for (const FileStamp &f : key.files)
        if (stampOf(f.path) != f)
            return failed(QStringLiteral("stale: %1 changed since the snapshot was written").arg(f.path));
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
    std::unique_ptr<TraceModel> model = decodeBody(*header, reason);
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
           std::uint64_t sourceBytes, QString *reason)
{
    const QString path = pathFor(input, preferred);
    if (path.isEmpty()) {
        *reason = QStringLiteral("not cached");
        return false;
    }
    SnapshotKey key = keyFor(model, input, preferred);
    key.sourceBytes = sourceBytes;
    std::optional<std::string> payload = encodePayload(model, reason);
    if (!payload)
        return false;
    auto finish = [key, path](const std::string &encoded) {
        QString why;
        const std::optional<std::string> bytes = frameSnapshot(encoded, key, &why);
        if (!bytes || !save(*bytes, path, &why)) {
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
