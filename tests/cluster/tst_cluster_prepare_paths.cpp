// A prepared cluster seen at another path than the one it was prepared at: the nodes prepare
// /shared/job42/... (here A), the desktop mounts the same data at /mnt/cluster/job42/... (here B, the whole
// folder renamed after preparing). Every rank must still come from its prepared summary and snapshot, with
// its paths under B; a rank copied elsewhere with one file changed (same size, mtime put back) must not take
// the original's files. Then the window's File ▸ Prepared Cache setting and its status line.
#include "AppProcess.h"
#include "AppTestSupport.h"
#include "ClusterTestSupport.h"
#include "MessageBar.h"
#include "PreparedCacheSetting.h"
#include "StatusLabel.h"
#include "TestPaths.h"
#include "TraceLoader.h"
#include "TraceQueries.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "cluster/PreparedSummary.h"
#include "common/MappedFile.h"
#include "snapshot/SnapshotCache.h"

#include <QAction>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <algorithm>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>

using namespace at;
using namespace at::test;

namespace {

std::int64_t mtimeNs(const QString &path)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

bool setMtimeNs(const QString &path, std::int64_t ns)
{
    const timespec times[2] = {{0, UTIME_OMIT}, {static_cast<time_t>(ns / 1000000000), ns % 1000000000}};
    return ::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0;
}

// Copies a folder as `cp -a` / `rsync -a` do: the same bytes and mtimes (folders' too, set last).
bool copyKeepingTimes(const QString &from, const QString &to)
{
    QStringList folders{QString()};
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = path.mid(from.size());
        if (QFileInfo(path).isDir()) {
            folders << relative;
            QDir().mkpath(to + relative);
            continue;
        }
        QDir().mkpath(QFileInfo(to + relative).absolutePath());
        if (!QFile::copy(path, to + relative) || !setMtimeNs(to + relative, mtimeNs(path)))
            return false;
    }
    QDir().mkpath(to);
    // Deepest first: setting a folder's mtime after its contents are complete.
    std::sort(folders.begin(), folders.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &relative : folders)
        if (!setMtimeNs(to + relative, mtimeNs(from + relative)))
            return false;
    return true;
}

// One byte changed at `offset`, the size and mtime put back: only the content fingerprint still tells.
bool changeOneByteKeepingTimes(const QString &path, qint64 offset)
{
    const std::int64_t mtime = mtimeNs(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite) || !file.seek(offset))
        return false;
    char c = 0;
    if (!file.getChar(&c) || !file.seek(offset) || !file.putChar(c == '9' ? '8' : '9'))
        return false;
    file.close();
    return setMtimeNs(path, mtime);
}

// Every file mapped (MappedFile's test hook runs on whichever thread maps).
struct MappedFiles
{
    std::mutex mutex;
    QStringList paths;
    MappedFiles()
    {
        MappedFile::setMappedHookForTesting([this](const QString &path) {
            const std::lock_guard lock(mutex);
            paths << path;
        });
    }
    ~MappedFiles()
    {
        QThreadPool::globalInstance()->waitForDone(); // a reopened model's args reader maps in the pool
        MappedFile::setMappedHookForTesting({});
    }
    QStringList taken()
    {
        const std::lock_guard lock(mutex);
        return std::exchange(paths, {});
    }
};

} // namespace

class TstClusterPreparePaths : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_nodes, m_desktop, m_cache;

    static QJsonObject json(const at_test::AppRun &r) { return QJsonDocument::fromJson(r.out).object(); }

    static LoadOptions cacheOptions(const QString &dir)
    {
        LoadOptions options;
        options.useSnapshotCache = true;
        options.snapshotDirectory = dir;
        return options;
    }

    QStringList desktopRanks() const { return cluster::findRankFolders(m_desktop); }

private slots:
    // The nodes prepare their copy of the Qwen3 cluster at A (one process per rank); the folder is then
    // renamed to B: every file keeps its bytes and mtime, only the path changes.
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_nodes = m_dir.filePath(QStringLiteral("shared/job42/profiling"));
        m_desktop = m_dir.filePath(QStringLiteral("mnt/cluster/job42/profiling"));
        m_cache = m_dir.filePath(QStringLiteral("at-cache"));
        QVERIFY(copyKeepingTimes(qwen3Cluster(), m_nodes));
        const QStringList ranks = cluster::findRankFolders(m_nodes);
        QCOMPARE(ranks.size(), 4);
        std::vector<std::unique_ptr<QProcess>> processes;
        for (const QString &folder : ranks) {
            auto p = std::make_unique<QProcess>();
            p->start(at::test::appBinary(),
                     {QStringLiteral("--prepare"), folder, QStringLiteral("--cache"), m_cache});
            processes.push_back(std::move(p));
        }
        for (auto &p : processes) {
            QVERIFY(p->waitForFinished(180000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("mnt/cluster"))));
        QVERIFY(QDir().rename(m_dir.filePath(QStringLiteral("shared/job42")),
                              m_dir.filePath(QStringLiteral("mnt/cluster/job42"))));
        QVERIFY(!QFileInfo::exists(m_nodes));
        QCOMPARE(desktopRanks().size(), 4);
    }

    // Two ranks of one job never share a name in the cache (their profiler_info_<rank>.json differ).
    void everyRankHasItsOwnFiles()
    {
        QStringList names;
        for (const QString &folder : desktopRanks())
            names << QFileInfo(cluster::preparedSummaryPath(folder, m_cache)).fileName()
                  << QFileInfo(snapshot::pathFor(folder, PreferredSource::Text, m_cache)).fileName();
        names.removeDuplicates();
        QCOMPARE(names.size(), 8);
    }

    // `--cluster B --cache DIR --json`: every rank from its prepared summary, the same numbers as reading
    // the files at B, and in-process nothing but the four summaries mapped, every path under B.
    void clusterFromAnotherPath()
    {
        QJsonObject plain =
            json(at_test::runApp({QStringLiteral("--cluster"), m_desktop, QStringLiteral("--json")}));
        QJsonObject prepared =
            json(at_test::runApp({QStringLiteral("--cluster"), m_desktop, QStringLiteral("--cache"), m_cache,
                                  QStringLiteral("--json")}));
        QJsonArray plainRanks = plain[QStringLiteral("ranks")].toArray();
        QJsonArray preparedRanks = prepared[QStringLiteral("ranks")].toArray();
        QCOMPARE(preparedRanks.size(), 4);
        QCOMPARE(plainRanks.size(), 4);
        for (qsizetype i = 0; i < 4; ++i) {
            QJsonObject a = plainRanks[i].toObject(), b = preparedRanks[i].toObject();
            QCOMPARE(b[QStringLiteral("prepared_summary")].toString(),
                     cluster::preparedSummaryPath(desktopRanks()[i], m_cache));
            QVERIFY(b[QStringLiteral("folder")].toString().startsWith(m_desktop + QLatin1Char('/')));
            a.remove(QStringLiteral("prepared_summary"));
            b.remove(QStringLiteral("prepared_summary"));
            plainRanks[i] = a;
            preparedRanks[i] = b;
        }
        QVERIFY(prepared[QStringLiteral("warnings")].toArray().isEmpty());
        plain[QStringLiteral("ranks")] = plainRanks;
        prepared[QStringLiteral("ranks")] = preparedRanks;
        QCOMPARE(prepared, plain);

        MappedFiles mapped;
        const cluster::ClusterModel model = cluster::readCluster(m_desktop, {m_cache});
        const QStringList files = mapped.taken();
        QCOMPARE(files.size(), 4);
        for (const QString &path : files)
            QVERIFY2(path.startsWith(m_cache + QLatin1Char('/')) &&
                         path.endsWith(QLatin1String(".atrank.json")),
                     qPrintable(path));
        QCOMPARE(model.ranks.size(), std::size_t(4));
        for (const cluster::Rank &r : model.ranks) {
            QVERIFY(!r.preparedSummary.isEmpty());
            QVERIFY(!r.filesRead.isEmpty());
            for (const QString &file : r.filesRead)
                QVERIFY2(file.startsWith(r.folder + QLatin1Char('/')) && QFileInfo::exists(file),
                         qPrintable(file));
            if (r.memoryPeak)
                QVERIFY2(r.memoryPeak->file.startsWith(r.folder + QLatin1Char('/')),
                         qPrintable(r.memoryPeak->file));
        }
        QVERIFY(model.ranks[0].memoryPeak.has_value()); // rank 0 has memory_record.csv
    }

    // The loader reopens each rank with a timeline from the snapshot prepared at A: no parse (the snapshot
    // is mapped, no trace file is read by a parser), the model's paths under B, and a slice's args re-read
    // from B's trace file equal to the cold load's.
    void loaderReopensFromAnotherPath()
    {
        int reopened = 0;
        for (const QString &folder : desktopRanks()) {
            const QString snap = snapshot::pathFor(folder, PreferredSource::Text, m_cache);
            if (!QFileInfo::exists(snap))
                continue; // ranks 1 and 3 have summary files only
            MappedFiles mapped;
            LoadControl control;
            const LoadResult prepared = loadTrace(folder, cacheOptions(m_cache), control);
            QVERIFY2(prepared.model, qPrintable(prepared.error));
            QVERIFY2(prepared.fromSnapshot, qPrintable(folder));
            ++reopened;
            LoadControl coldControl;
            const LoadResult cold = loadTrace(folder, LoadOptions{}, coldControl);
            QVERIFY(cold.model && !cold.fromSnapshot);
            const TraceModel &a = *cold.model, &b = *prepared.model;
            QCOMPARE(formatSummaryJson(b, summarize(b)), formatSummaryJson(a, summarize(a)));
            QCOMPARE(b.sources().size(), a.sources().size());
            for (std::size_t s = 0; s < a.sources().size(); ++s) {
                QCOMPARE(b.sources()[s].path, a.sources()[s].path);
                QVERIFY(b.sources()[s].path.startsWith(folder + QLatin1Char('/')));
            }
            QCOMPARE(b.groups().size(), a.groups().size());
            for (std::size_t g = 0; g < a.groups().size(); ++g) {
                QCOMPARE(b.groups()[g].path, a.groups()[g].path);
                QCOMPARE(b.groups()[g].timelineFiles, a.groups()[g].timelineFiles);
                QCOMPARE(b.groups()[g].summaryFiles, a.groups()[g].summaryFiles);
            }
            int argsCompared = 0;
            for (std::size_t t = 0; t < a.threads().size() && argsCompared < 50; ++t)
                for (std::uint32_t i = 0; i < a.threads()[t].slices.size() && argsCompared < 50; ++i) {
                    const SliceRef ref{static_cast<std::int32_t>(t), i};
                    const auto args = a.sliceArgs(ref);
                    if (args.empty())
                        continue;
                    QVERIFY(b.sliceArgs(ref) == args);
                    ++argsCompared;
                }
            QCOMPARE(argsCompared, 50);
            // Parsing maps the trace; the reopen mapped the snapshot (and its args reader B's trace, later).
            const QStringList files = mapped.taken();
            QCOMPARE(files.count(snap), 1);
            for (const QString &file : files)
                QVERIFY2(!file.contains(QLatin1String("/shared/job42/")), qPrintable(file));
        }
        QCOMPARE(reopened, 2);
    }

    // File ▸ Prepared Cache Folder… (the dialog replaced by the test hook): the window opens the
    // cluster at B from the prepared summaries and says so in the status line, a rank opens from its
    // snapshot; the choice is kept for the next window; the command line's --cache wins, --no-cache leaves
    // it unused; Stop Using clears it.
    void windowCacheFolderSetting()
    {
        QTemporaryDir settings;
        useScratchSettings(settings.path());
        setPreparedCacheChooserForTesting([this] { return m_cache; });
        const QString preparedStatus =
            QStringLiteral("Cluster %1: 4 of 4 ranks from prepared summaries in %2").arg(m_desktop, m_cache);
        {
            MainWindow window;
            window.show();
            auto *choose = window.findChild<QAction *>(QStringLiteral("file.preparedCacheFolder"));
            auto *clear = window.findChild<QAction *>(QStringLiteral("file.stopPreparedCache"));
            QVERIFY(choose && clear);
            QVERIFY(!clear->isEnabled());
            choose->trigger();
            QCOMPARE(savedPreparedCacheFolder(), m_cache);
            QVERIFY(clear->isEnabled());
            QVERIFY(window.messageBar()->text().contains(m_cache));
            window.openPath(m_desktop);
            QVERIFY(window.showsOverview()); // a cluster opens on its Overview
            window.showClusterPage();
            QVERIFY(window.showsCluster());
            for (const cluster::Rank &r : window.clusterView()->model()->ranks)
                QCOMPARE(r.preparedSummary, cluster::preparedSummaryPath(r.folder, m_cache));
            QCOMPARE(window.findChild<StatusLabel *>()->text(), preparedStatus);
            MappedFiles mapped;
            QSignalSpy loaded(&window, &MainWindow::loadFinished);
            Q_EMIT window.clusterView()->rankOpenRequested(0);
            QVERIFY(loaded.wait(60000));
            QVERIFY(loaded.first().first().toBool());
            QVERIFY(window.model());
            QVERIFY(mapped.taken().contains(
                snapshot::pathFor(desktopRanks()[0], PreferredSource::Text, m_cache)));
            // Another trace opened in the window keeps the default cache: the prepared folder (never
            // trimmed) does not collect its snapshot.
            const QStringList before = QDir(m_cache).entryList(QDir::Files, QDir::Name);
            QTemporaryDir other;
            const QString trace = other.filePath(QStringLiteral("trace.json"));
            QFile file(trace);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"([{"ph":"X","name":"k","pid":1,"tid":1,"ts":1000,"dur":10}])");
            file.close();
            loaded.clear();
            window.openPath(trace);
            QVERIFY(loaded.wait(60000));
            QVERIFY(loaded.first().first().toBool());
            QCOMPARE(QDir(m_cache).entryList(QDir::Files, QDir::Name), before);
        }
        { // kept in QSettings: the next window uses it
            MainWindow window;
            window.openPath(m_desktop);
            QVERIFY(window.showsOverview()); // a cluster opens on its Overview
            window.showClusterPage();
            QVERIFY(window.showsCluster());
            QCOMPARE(window.findChild<StatusLabel *>()->text(), preparedStatus);
        }
        { // --cache EMPTY on the command line wins: nothing prepared there, said in the status and the
          // warning
            QTemporaryDir empty;
            MainWindow window;
            window.setLoadOptions(cacheOptions(empty.path()));
            window.openPath(m_desktop);
            QVERIFY(window.showsOverview()); // a cluster opens on its Overview
            window.showClusterPage();
            QVERIFY(window.showsCluster());
            QCOMPARE(window.findChild<StatusLabel *>()->text(),
                     QStringLiteral("Cluster %1: 0 of 4 ranks from prepared summaries in %2")
                         .arg(m_desktop, empty.path()));
            QCOMPARE(window.messageBar()->kind(), MessageBar::Kind::Warning);
            QVERIFY2(window.messageBar()->text().contains(
                         QStringLiteral("none of the 4 rank folders is prepared in %1").arg(empty.path())),
                     qPrintable(window.messageBar()->text()));
            for (const cluster::Rank &r : window.clusterView()->model()->ranks)
                QVERIFY(r.preparedSummary.isEmpty());
        }
        { // --no-cache: the saved folder is not used
            MainWindow window;
            window.setSavedCacheFolderUsed(false);
            window.openPath(m_desktop);
            QCOMPARE(window.findChild<StatusLabel *>()->text(),
                     QStringLiteral("Cluster %1: 4 rank(s) read from their summary files").arg(m_desktop));
        }
        {
            MainWindow window;
            window.findChild<QAction *>(QStringLiteral("file.stopPreparedCache"))->trigger();
            QVERIFY(savedPreparedCacheFolder().isEmpty());
            window.openPath(m_desktop);
            QCOMPARE(window.findChild<StatusLabel *>()->text(),
                     QStringLiteral("Cluster %1: 4 rank(s) read from their summary files").arg(m_desktop));
            for (const cluster::Rank &r : window.clusterView()->model()->ranks)
                QVERIFY(r.preparedSummary.isEmpty());
        }
        setPreparedCacheChooserForTesting({});
    }

    // Issue 29 item 6, the window: a prepared cache folder chosen inside another rank folder of the cluster
    // (File ▸ Prepared Cache Folder…) is not used: the page says why, and opening a rank's timeline writes
    // nothing into any rank folder (the snapshot writer refuses a cache inside profile data too).
    void windowRefusesACacheInsideARankFolder()
    {
        QTemporaryDir settings;
        useScratchSettings(settings.path());
        const QString sibling = desktopRanks()[1];
        const QString inside = sibling + QStringLiteral("/at-cache");
        setPreparedCacheChooserForTesting([&] { return inside; });
        auto listing = [](const QString &folder) {
            QStringList all;
            QDirIterator it(folder, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                            QDirIterator::Subdirectories);
            while (it.hasNext())
                all << it.next();
            all.sort();
            return all;
        };
        const QStringList before = listing(m_desktop);
        MainWindow window;
        window.show();
        window.findChild<QAction *>(QStringLiteral("file.preparedCacheFolder"))->trigger();
        window.openPath(m_desktop);
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QCOMPARE(window.findChild<StatusLabel *>()->text(),
                 QStringLiteral("Cluster %1: 4 rank(s) read from their summary files").arg(m_desktop));
        QCOMPARE(window.messageBar()->kind(), MessageBar::Kind::Warning);
        QVERIFY2(window.messageBar()->text().contains(
                     QStringLiteral("the prepared cache folder %1 lies inside the data folder %2")
                         .arg(inside, sibling)),
                 qPrintable(window.messageBar()->text()));
        for (const cluster::Rank &r : window.clusterView()->model()->ranks)
            QVERIFY(r.preparedSummary.isEmpty());
        QSignalSpy loaded(&window, &MainWindow::loadFinished);
        Q_EMIT window.clusterView()->rankOpenRequested(0);
        QVERIFY(loaded.wait(60000));
        QVERIFY(loaded.first().first().toBool());
        QVERIFY(snapshot::pathFor(desktopRanks()[0], PreferredSource::Text, inside).isEmpty());
        QCOMPARE(listing(m_desktop), before);
        window.findChild<QAction *>(QStringLiteral("file.stopPreparedCache"))->trigger();
        setPreparedCacheChooserForTesting({});
    }

    // Another cluster holding copies of ranks 0, 1 and 2 made with their times (cp -a): the identical copies
    // of ranks 1 and 2 are the same folders and take their prepared files; in rank 0's, step_trace_time.csv
    // and kernel_details.csv have one byte changed with size and mtime put back: neither its summary nor its
    // snapshot is taken.
    void changedCopyDoesNotTakeTheOriginals()
    {
        const QString other = m_dir.filePath(QStringLiteral("other/job43/profiling"));
        const QString rank0 = other + QStringLiteral("/rank_0_ascend_pt");
        const QString rank1 = other + QStringLiteral("/rank_1_ascend_pt");
        QVERIFY(copyKeepingTimes(desktopRanks()[0], rank0));
        QVERIFY(copyKeepingTimes(desktopRanks()[1], rank1));
        const QString rank2 = other + QStringLiteral("/rank_2_ascend_pt");
        QVERIFY(copyKeepingTimes(desktopRanks()[2], rank2));
        const QString csv = rank0 + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QByteArray text = csvFile.readAll();
        csvFile.close();
        // The second digit of the first data row's Computing (Device_id,Step,Computing,...).
        const qint64 digit = text.indexOf(',', text.indexOf(',', text.indexOf('\n')) + 1) + 2;
        QVERIFY(text.at(digit) >= '0' && text.at(digit) <= '9');
        QVERIFY(changeOneByteKeepingTimes(csv, digit));

        const cluster::ClusterModel model = cluster::readCluster(other, {m_cache});
        QCOMPARE(model.ranks.size(), std::size_t(3));
        QVERIFY(model.ranks[0].preparedSummary.isEmpty());
        QCOMPARE(model.ranks[1].preparedSummary, cluster::preparedSummaryPath(rank1, m_cache));
        QCOMPARE(model.ranks[1].folder, rank1);
        QCOMPARE(model.ranks[2].preparedSummary, cluster::preparedSummaryPath(rank2, m_cache));
        QCOMPARE(model.warnings.size(), 1);
        QVERIFY2(model.warnings[0].contains(csv + QStringLiteral(" changed since it was prepared")),
                 qPrintable(model.warnings[0]));
        // The numbers are the changed file's, not the original's.
        QVERIFY(model.ranks[0].steps.front().computing !=
                cluster::readCluster(m_desktop).ranks[0].steps.front().computing);

        // The timeline (kernel_details.csv: Qwen3's ranks have no trace_view.json): the first row's Duration.
        const QString kernels = rank0 + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QFile kernelFile(kernels);
        QVERIFY(kernelFile.open(QIODevice::ReadOnly));
        const QByteArray head = kernelFile.read(64 * 1024);
        kernelFile.close();
        QCOMPARE(head.left(head.indexOf('\n')).split(',')[10], QByteArray("Duration(us)"));
        qint64 at = head.indexOf('\n');
        for (int comma = 0; comma < 10; ++comma)
            at = head.indexOf(',', at + 1);
        QVERIFY(at > 0 && head.at(at + 1) >= '0' && head.at(at + 1) <= '9');
        QVERIFY(changeOneByteKeepingTimes(kernels, at + 1));
        LoadControl control;
        const LoadResult copy = loadTrace(rank0, cacheOptions(m_cache), control);
        QVERIFY(copy.model);
        QVERIFY(!copy.fromSnapshot);
        LoadControl sameControl;
        const LoadResult same = loadTrace(rank2, cacheOptions(m_cache), sameControl);
        QVERIFY(same.fromSnapshot); // the identical copy is the same folder
        QVERIFY(same.model->sources().front().path.startsWith(rank2 + QLatin1Char('/')));
    }

    // A rank prepared through a symbolic link (/data -> /mnt/d1/data): its files are recorded by their real
    // paths, under the folder they are checked against, so an identical copy elsewhere still finds the
    // snapshot and a copy whose kernel_details.csv changed does not (before, the files were recorded under
    // the link, compared where they were, and the changed copy took the original's snapshot and files).
    void preparedThroughALink()
    {
        QTemporaryDir cache;
        const QString base = m_dir.filePath(QStringLiteral("linked"));
        const QString real = base + QStringLiteral("/mnt/d1/data");
        QVERIFY(copyKeepingTimes(desktopRanks()[0], real + QStringLiteral("/rank_0_ascend_pt")));
        QVERIFY(QFile::link(real, base + QStringLiteral("/data")));
        const QString viaLink = base + QStringLiteral("/data/rank_0_ascend_pt");
        LoadControl prepareControl;
        const LoadResult prepared = loadTrace(viaLink, cacheOptions(cache.path()), prepareControl);
        QVERIFY(prepared.model && !prepared.fromSnapshot);
        LoadControl againControl;
        QVERIFY(loadTrace(viaLink, cacheOptions(cache.path()), againControl).fromSnapshot);

        const QString same = base + QStringLiteral("/other/same/rank_0_ascend_pt");
        QVERIFY(copyKeepingTimes(real + QStringLiteral("/rank_0_ascend_pt"), same));
        LoadControl sameControl;
        const LoadResult identical = loadTrace(same, cacheOptions(cache.path()), sameControl);
        QVERIFY(identical.fromSnapshot);
        QVERIFY(identical.model->sources().front().path.startsWith(same + QLatin1Char('/')));

        const QString changed = base + QStringLiteral("/other/changed/rank_0_ascend_pt");
        QVERIFY(copyKeepingTimes(real + QStringLiteral("/rank_0_ascend_pt"), changed));
        QFile kernels(changed + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
        QVERIFY(kernels.open(QIODevice::Append));
        QVERIFY(kernels.write("\n") == 1); // rewritten in place: the folders' mtimes stay
        kernels.close();
        LoadControl changedControl;
        const LoadResult copy = loadTrace(changed, cacheOptions(cache.path()), changedControl);
        QVERIFY(copy.model);
        QVERIFY(!copy.fromSnapshot);
        QVERIFY(copy.model->sources().front().path.startsWith(changed + QLatin1Char('/')));
    }
};

QTEST_MAIN(TstClusterPreparePaths)
#include "tst_cluster_prepare_paths.moc"
