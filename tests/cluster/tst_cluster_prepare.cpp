// `ascend-timeline --prepare RANK_DIR --cache DIR` run as a cluster scheduler runs it: one process of the
// real binary per rank, all at once, on copies of the real 4-rank Qwen3 and 2-rank AlexNet clusters. Then the
// desktop side: `--cluster --cache DIR` gives the same numbers from the prepared summaries, the loader
// reopens each rank from its prepared snapshot, and a changed rank file sends the rank back to its files.
#include "AppProcess.h"
#include "AppTestSupport.h"
#include "ClusterTestSupport.h"
#include "TestPaths.h"
#include "TraceLoader.h"
#include "TraceQueries.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "cluster/PreparedSummary.h"
#include "common/MappedFile.h"
#include "snapshot/SnapshotCache.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>
#include <vector>

using namespace at;
using namespace at::test;

class TstClusterPrepare : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_qwen, m_alexnet, m_cache;

    using Run = at_test::AppRun;
    static Run run(const QStringList &args) { return at_test::runApp(args); }

    // The samples are read-only: the rank folders are copied so that a test can change a file.
    static bool copyTree(const QString &from, const QString &to)
    {
        QDirIterator files(from, QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString file = files.next();
            const QString target = to + file.mid(from.size());
            QDir().mkpath(QFileInfo(target).absolutePath());
            if (!QFile::copy(file, target))
                return false;
            QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
        }
        return true;
    }

    // Every file under a folder with its size and mtime: what must not change when a folder is only read.
    static QStringList listing(const QString &folder)
    {
        QStringList entries;
        QDirIterator it(folder, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo info(it.next());
            entries << QStringLiteral("%1 %2 %3")
                           .arg(info.filePath())
                           .arg(info.size())
                           .arg(info.lastModified().toMSecsSinceEpoch());
        }
        entries.sort();
        return entries;
    }

    QStringList allRankFolders() const
    {
        return cluster::findRankFolders(m_qwen) + cluster::findRankFolders(m_alexnet);
    }

    static QJsonObject json(const Run &r)
    {
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        if (error.error != QJsonParseError::NoError)
            qWarning() << "not JSON:" << r.out.left(200) << r.err;
        return root;
    }

    // A summary file is `{"format":N,"sha256":"<hex>","body":BODY}` (PreparedSummary.cpp). These take it
    // apart and sign an edited body again, as someone editing it with care would.
    static QByteArray bodyOf(const QByteArray &file)
    {
        const qsizetype at = file.indexOf(",\"body\":");
        return at < 0 ? QByteArray() : file.mid(at + 8, file.size() - at - 9);
    }
    static QByteArray signedSummary(const QByteArray &body)
    {
        return "{\"format\":" + QByteArray::number(cluster::kPreparedSummaryFormat) + ",\"sha256\":\"" +
               QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex() + "\",\"body\":" + body +
               "}";
    }
    static QByteArray readBytes(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static void replaceFile(const QString &path, const QByteArray &bytes)
    {
        QFile::remove(path);
        writeTextFile(path, bytes);
    }

    static LoadOptions cacheOptions(const QString &dir)
    {
        LoadOptions options;
        options.useSnapshotCache = true;
        options.snapshotDirectory = dir;
        return options;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_qwen = m_dir.filePath(QStringLiteral("qwen3"));
        m_alexnet = m_dir.filePath(QStringLiteral("alexnet"));
        m_cache = m_dir.filePath(QStringLiteral("prepared"));
        QVERIFY(copyTree(qwen3Cluster(), m_qwen));
        QVERIFY(copyTree(alexnetTextCluster(), m_alexnet));
        QCOMPARE(allRankFolders().size(), 6);
    }

    // Six processes at once, one per rank, into one cache folder: each writes its rank's summary and (ranks
    // with a timeline) its snapshot, nothing else, and nothing into the data folders.
    void everyRankPreparedBySeparateProcesses()
    {
        const QStringList before = listing(m_dir.filePath(QStringLiteral("qwen3"))) + listing(m_alexnet);
        std::vector<std::unique_ptr<QProcess>> processes;
        for (const QString &folder : allRankFolders()) {
            auto p = std::make_unique<QProcess>();
            p->setProgram(at::test::appBinary());
            p->setArguments({QStringLiteral("--prepare"), folder, QStringLiteral("--cache"), m_cache});
            p->start();
            processes.push_back(std::move(p));
        }
        for (auto &p : processes) {
            QVERIFY(p->waitForFinished(180000));
            const QString out = QString::fromUtf8(p->readAllStandardOutput());
            QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
                     qPrintable(out + QString::fromUtf8(p->readAllStandardError())));
            QVERIFY2(out.startsWith(QStringLiteral("rank ")), qPrintable(out));
        }
        QCOMPARE(listing(m_qwen) + listing(m_alexnet), before);

        QStringList expected;
        for (const QString &folder : allRankFolders()) {
            const QString summary = cluster::preparedSummaryPath(folder, m_cache);
            QVERIFY2(QFileInfo(summary).isFile(), qPrintable(folder));
            expected << QFileInfo(summary).fileName();
            // Qwen3 ranks 1/3 have summary files only: no timeline, no snapshot.
            const bool summaryOnly = folder.endsWith(QLatin1String("rank_1_ascend_pt")) ||
                                     folder.endsWith(QLatin1String("rank_3_ascend_pt"));
            const QString snap = snapshot::pathFor(folder, PreferredSource::Text, m_cache);
            QCOMPARE(QFileInfo(snap).isFile(), !summaryOnly);
            if (!summaryOnly)
                expected << QFileInfo(snap).fileName();
        }
        // Nothing else: no temporary left behind by the concurrent writers.
        QStringList present = QDir(m_cache).entryList(QDir::Files | QDir::Hidden);
        present.sort();
        expected.sort();
        QCOMPARE(present, expected);
    }

    // (a) The same --cluster JSON with and without the cache, and every rank of the cached run says it came
    // from its prepared summary (rank files not read), the uncached one that it did not.
    void preparedClusterGivesTheSameNumbers()
    {
        for (const QString &root : {m_qwen, m_alexnet}) {
            QJsonObject plain = json(run({QStringLiteral("--cluster"), root, QStringLiteral("--json")}));
            QJsonObject prepared = json(run({QStringLiteral("--cluster"), root, QStringLiteral("--cache"),
                                             m_cache, QStringLiteral("--json")}));
            QJsonArray plainRanks = plain[QStringLiteral("ranks")].toArray();
            QJsonArray preparedRanks = prepared[QStringLiteral("ranks")].toArray();
            QVERIFY(!plainRanks.isEmpty());
            QCOMPARE(preparedRanks.size(), plainRanks.size());
            for (qsizetype i = 0; i < plainRanks.size(); ++i) {
                QJsonObject a = plainRanks[i].toObject();
                QJsonObject b = preparedRanks[i].toObject();
                QVERIFY(a[QStringLiteral("prepared_summary")].isNull());
                const QString summary = b[QStringLiteral("prepared_summary")].toString();
                QCOMPARE(summary,
                         cluster::preparedSummaryPath(a[QStringLiteral("folder")].toString(), m_cache));
                QVERIFY(!a[QStringLiteral("steps")].toArray().isEmpty());
                a.remove(QStringLiteral("prepared_summary"));
                b.remove(QStringLiteral("prepared_summary"));
                plainRanks[i] = a;
                preparedRanks[i] = b;
            }
            plain[QStringLiteral("ranks")] = plainRanks;
            prepared[QStringLiteral("ranks")] = preparedRanks;
            QCOMPARE(prepared, plain);
        }
        // In-process, every file the reader maps (CSV and JSON readers map their files): from files, each
        // rank's summary files; prepared, only the prepared summaries in the cache folder.
        QStringList mapped;
        MappedFile::setMappedHookForTesting([&](const QString &path) { mapped << path; });
        const cluster::ClusterModel fromFiles = cluster::readCluster(m_qwen);
        MappedFile::setMappedHookForTesting({});
        for (const cluster::Rank &r : fromFiles.ranks) {
            QVERIFY(
                mapped.contains(r.folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv")));
            QVERIFY(mapped.contains(r.folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json")));
        }
        QVERIFY(mapped.contains(fromFiles.ranks[0].folder +
                                QStringLiteral("/ASCEND_PROFILER_OUTPUT/memory_record.csv")));
        mapped.clear();
        MappedFile::setMappedHookForTesting([&](const QString &path) { mapped << path; });
        const cluster::ClusterModel model = cluster::readCluster(m_qwen, {m_cache});
        MappedFile::setMappedHookForTesting({});
        QCOMPARE(mapped.size(), 4);
        for (const QString &path : mapped)
            QVERIFY2(path.startsWith(m_cache + QLatin1Char('/')) &&
                         path.endsWith(QLatin1String(".atrank.json")),
                     qPrintable(path));
        QCOMPARE(model.ranks.size(), std::size_t(4));
        for (const cluster::Rank &r : model.ranks)
            QVERIFY2(r.preparedSummary.endsWith(QLatin1String(".atrank.json")), qPrintable(r.folder));
        QCOMPARE(model.ranks[2].stage, 1); // resolved from the prepared groups
        QCOMPARE(model.ranks[2].device, 4);
        QVERIFY(model.warnings.isEmpty());
    }

    // (b) Loading a prepared rank with the cache reopens its snapshot, and it holds the cold load's model.
    void loaderReopensThePreparedSnapshot()
    {
        for (const QString &folder :
             cluster::findRankFolders(m_alexnet) + QStringList{cluster::findRankFolders(m_qwen).first()}) {
            LoadControl control;
            const LoadResult prepared = loadTrace(folder, cacheOptions(m_cache), control);
            QVERIFY2(prepared.model, qPrintable(prepared.error));
            QVERIFY2(prepared.fromSnapshot, qPrintable(folder));
            LoadControl coldControl;
            const LoadResult cold = loadTrace(folder, LoadOptions{}, coldControl);
            QVERIFY(cold.model && !cold.fromSnapshot);
            QCOMPARE(prepared.model->sliceCount(), cold.model->sliceCount());
            QCOMPARE(prepared.model->kernels().size(), cold.model->kernels().size());
            QCOMPARE(formatSummaryJson(*prepared.model, summarize(*prepared.model)),
                     formatSummaryJson(*cold.model, summarize(*cold.model)));
        }
        // The alexnet ranks have full timelines: the snapshot is not an empty model.
        LoadControl control;
        const LoadResult r =
            loadTrace(cluster::findRankFolders(m_alexnet).first(), cacheOptions(m_cache), control);
        QVERIFY(r.model->sliceCount() > 1000);
    }

    // The window given the cache folder (main() passes `--cache DIR` through setLoadOptions) opens the
    // cluster page from the prepared summaries, and a rank opened from it loads (from its snapshot).
    void windowOpensThePreparedCluster()
    {
        QTemporaryDir settings;
        useScratchSettings(settings.path());
        MainWindow window;
        LoadOptions options = environmentLoadOptions();
        options.useSnapshotCache = true;
        options.snapshotDirectory = m_cache;
        window.setLoadOptions(options);
        window.show();
        window.openPath(m_qwen);
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        const cluster::ClusterModel *model = window.clusterView()->model();
        QCOMPARE(model->ranks.size(), std::size_t(4));
        for (const cluster::Rank &r : model->ranks)
            QCOMPARE(r.preparedSummary, cluster::preparedSummaryPath(r.folder, m_cache));
        QSignalSpy loaded(&window, &MainWindow::loadFinished);
        Q_EMIT window.clusterView()->rankOpenRequested(0);
        QVERIFY(loaded.wait(60000));
        QVERIFY(loaded.first().first().toBool());
        QVERIFY(window.model());
    }

    // (c) A changed rank file: the rank's summary (step_trace_time.csv) or snapshot (trace_view.json) is not
    // used; the rank is read from its files, with a warning naming the file; the other ranks stay prepared.
    void changedRankFileInvalidatesIt()
    {
        const QString rank1 = cluster::findRankFolders(m_qwen)[1];
        const QString csv = rank1 + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = file.readAll().split('\n');
        file.close();
        QCOMPARE(lines[0].split(',')[2], QByteArray("Computing"));
        QList<QByteArray> cells = lines[1].split(',');
        cells[2] = "123456.5";
        lines[1] = cells.join(',');
        writeTextFile(csv, lines.join('\n'));

        const QJsonObject root = json(run({QStringLiteral("--cluster"), m_qwen, QStringLiteral("--cache"),
                                           m_cache, QStringLiteral("--json")}));
        const QJsonArray ranks = root[QStringLiteral("ranks")].toArray();
        QCOMPARE(ranks.size(), 4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(ranks[i].toObject()[QStringLiteral("prepared_summary")].isNull(), i == 1);
        QCOMPARE(ranks[1]
                     .toObject()[QStringLiteral("steps")]
                     .toArray()[0]
                     .toObject()[QStringLiteral("computing_us")]
                     .toDouble(),
                 123456.5);
        const QJsonArray warnings = root[QStringLiteral("warnings")].toArray();
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings[0].toString().contains(csv + QStringLiteral(" changed since it was prepared")));

        // A timeline file rewritten (new mtime and ctime, same bytes): its snapshot is stale, the load
        // parses, and writes a fresh snapshot that the next load reopens.
        const QString rank0 = cluster::findRankFolders(m_alexnet).first();
        QDirIterator traces(rank0, {QStringLiteral("trace_view.json")}, QDir::Files,
                            QDirIterator::Subdirectories);
        QVERIFY(traces.hasNext());
        const QString trace = traces.next();
        QFile traceFile(trace);
        QVERIFY(traceFile.open(QIODevice::ReadWrite));
        QVERIFY(traceFile.setFileTime(QDateTime::currentDateTime().addSecs(5),
                                      QFileDevice::FileModificationTime));
        traceFile.close();
        LoadControl stale;
        const LoadResult parsed = loadTrace(rank0, cacheOptions(m_cache), stale);
        QVERIFY(parsed.model);
        QVERIFY(!parsed.fromSnapshot);
        LoadControl fresh;
        QVERIFY(loadTrace(rank0, cacheOptions(m_cache), fresh).fromSnapshot);
        // Its summary did not read trace_view.json: still current.
        QString why;
        QVERIFY(cluster::readPreparedSummary(rank0, m_cache, &why).has_value());
        QVERIFY(why.isEmpty());
    }

    // A damaged, planted or misplaced summary is not used: the rank is read from its files, with the reason.
    void damagedSummaryIsNotUsed()
    {
        QTemporaryDir dir;
        const QStringList ranks = cluster::findRankFolders(m_alexnet);
        auto readWith = [&](const QString &cache) { return cluster::readCluster(m_alexnet, {cache}); };
        const cluster::ClusterModel plain = cluster::readCluster(m_alexnet);
        QString reason;
        for (const QString &rank : ranks)
            QVERIFY2(cluster::writePreparedSummary(cluster::readRankSummary(rank), dir.path(), {}, &reason),
                     qPrintable(reason));
        const QString summary0 = cluster::preparedSummaryPath(ranks[0], dir.path());
        const QString summary1 = cluster::preparedSummaryPath(ranks[1], dir.path());
        QVERIFY(!readWith(dir.path()).ranks[0].preparedSummary.isEmpty());

        auto expectNotUsed = [&](const QString &because) {
            const cluster::ClusterModel model = readWith(dir.path());
            QVERIFY(model.ranks[0].preparedSummary.isEmpty());
            QCOMPARE(model.ranks[1].preparedSummary, summary1);
            QCOMPARE(model.ranks[0].steps.front().computing, plain.ranks[0].steps.front().computing);
            QCOMPARE(model.warnings.size(), 1);
            QVERIFY2(model.warnings[0].contains(because), qPrintable(model.warnings[0]));
            QVERIFY(model.warnings[0].contains(summary0));
        };
        QFile file(summary0);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const QByteArray good = file.readAll();
        QVERIFY(file.resize(good.size() / 2));
        file.close();
        expectNotUsed(QStringLiteral("not valid JSON"));
        QVERIFY(QFile::remove(summary0));
        QVERIFY(QFile::copy(summary1, summary0)); // rank 1's summary under rank 0's name
        expectNotUsed(QStringLiteral("made for another folder"));
        QVERIFY(QFile::remove(summary0));
        writeTextFile(dir.filePath(QStringLiteral("elsewhere.json")), good);
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("elsewhere.json")), summary0));
        expectNotUsed(QStringLiteral("not a regular file"));
        QByteArray older = good;
        older.replace("\"format\":" + QByteArray::number(cluster::kPreparedSummaryFormat), "\"format\":1");
        QVERIFY(QFile::remove(summary0));
        writeTextFile(summary0, older);
        expectNotUsed(QStringLiteral("written by another version"));

        // Nothing prepared in the folder given: said once.
        QTemporaryDir empty;
        const cluster::ClusterModel none = readWith(empty.path());
        QCOMPARE(none.warnings.size(), 1);
        QVERIFY(none.warnings[0].startsWith(QStringLiteral("none of the 2 rank folders is prepared in")));
    }

    // Issue 29 item 4: a summary must prove it describes its folder. Each tampering of the issue, on a copy
    // of the Qwen3 cluster: the tampered rank is read from its files (the true numbers) with one warning
    // naming the summary and why; the untouched summaries of the other ranks are still used.
    void tamperedSummaryIsNotUsed()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("qwen3"));
        const QString cache = dir.filePath(QStringLiteral("cache"));
        QVERIFY(copyTree(qwen3Cluster(), root));
        const QStringList ranks = cluster::findRankFolders(root);
        QCOMPARE(ranks.size(), 4);
        QString reason;
        for (const QString &rank : ranks)
            QVERIFY2(cluster::writePreparedSummary(cluster::readRankSummary(rank), cache, {}, &reason),
                     qPrintable(reason));
        const QString summary0 = cluster::preparedSummaryPath(ranks[0], cache);
        const QByteArray good = readBytes(summary0);
        QVERIFY(!bodyOf(good).isEmpty());
        QCOMPARE(signedSummary(bodyOf(good)), good);

        // Read with the cache: rank 0 from its files and one warning naming summary0 and `because`; the other
        // ranks from their summaries. Returns the model for the numbers.
        auto readExpectingRank0Read = [&](const QString &because) {
            cluster::ClusterModel model = cluster::readCluster(root, {cache});
            [&] {
                QCOMPARE(model.ranks.size(), std::size_t(4));
                QVERIFY(model.ranks[0].preparedSummary.isEmpty());
                for (std::size_t i = 1; i < 4; ++i)
                    QCOMPARE(model.ranks[i].preparedSummary,
                             cluster::preparedSummaryPath(ranks[int(i)], cache));
                QCOMPARE(model.warnings.size(), 1);
                QVERIFY2(model.warnings[0].contains(summary0) && model.warnings[0].contains(because),
                         qPrintable(model.warnings[0]));
            }();
            return model;
        };
        const cluster::ClusterModel plain = cluster::readCluster(root);
        QCOMPARE(plain.ranks.size(), std::size_t(4));
        const std::int64_t trueComputing = plain.ranks[0].steps.front().computing;
        const QByteArray computingText = "\"computing\":\"" + QByteArray::number(trueComputing) + "\"";
        QVERIFY(good.contains(computingText));

        // (b) An edited number: the checksum no longer matches; the true number is shown.
        QByteArray edited = good;
        edited.replace(computingText, "\"computing\":\"" + QByteArray::number(trueComputing / 2) + "\"");
        replaceFile(summary0, edited);
        QCOMPARE(readExpectingRank0Read(QStringLiteral("its checksum does not match its content"))
                     .ranks[0]
                     .steps.front()
                     .computing,
                 trueComputing);
        // Through the command line too: the warning on stderr, the file's number in the JSON.
        const Run cli = run(
            {QStringLiteral("--cluster"), root, QStringLiteral("--cache"), cache, QStringLiteral("--json")});
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.err.contains(QStringLiteral("warning: prepared summary %1").arg(summary0)),
                 qPrintable(cli.err));
        const QJsonObject rank0 = json(cli)[QStringLiteral("ranks")].toArray()[0].toObject();
        QVERIFY(rank0[QStringLiteral("prepared_summary")].isNull());
        QCOMPARE(qint64(std::llround(rank0[QStringLiteral("steps")]
                                         .toArray()[0]
                                         .toObject()[QStringLiteral("computing_us")]
                                         .toDouble() *
                                     1000)),
                 trueComputing);

        // (c) Edited to claim another rank (and signed again): rank 0 no longer disappears behind rank 1.
        QJsonObject body = QJsonDocument::fromJson(bodyOf(good)).object();
        QJsonObject rank = body[QStringLiteral("rank")].toObject();
        QCOMPARE(rank[QStringLiteral("rank")].toInt(), 0);
        rank[QStringLiteral("rank")] = 1;
        body[QStringLiteral("rank")] = rank;
        replaceFile(summary0, signedSummary(QJsonDocument(body).toJson(QJsonDocument::Compact)));
        const cluster::ClusterModel claimed =
            readExpectingRank0Read(QStringLiteral("it claims rank 1 but the folder is rank 0"));
        QCOMPARE(claimed.ranks[0].rank, 0);
        QCOMPARE(claimed.ranks[1].rank, 1);
        QCOMPARE(claimed.ranks[0].folder, plain.ranks[0].folder);

        // (a) Its checked-file list cut (signed again), then step_trace_time.csv changed: the reader decides
        // which files are checked, so the cut list is noticed and the new number is shown.
        body = QJsonDocument::fromJson(bodyOf(good)).object();
        QJsonArray stamps = body[QStringLiteral("stamps")].toArray();
        const QString csvEntry = QStringLiteral("ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
        const qsizetype before = stamps.size();
        for (qsizetype i = stamps.size() - 1; i >= 0; --i)
            if (stamps[i].toObject()[QStringLiteral("path")].toString() != QStringLiteral("."))
                stamps.removeAt(i); // only the folder itself is left
        QVERIFY(before > 5);
        body[QStringLiteral("stamps")] = stamps;
        replaceFile(summary0, signedSummary(QJsonDocument(body).toJson(QJsonDocument::Compact)));
        const QString csv = ranks[0] + QLatin1Char('/') + csvEntry;
        QList<QByteArray> lines = readBytes(csv).split('\n');
        QList<QByteArray> cells = lines[1].split(',');
        cells[2] = "7654.321";
        lines[1] = cells.join(',');
        writeTextFile(csv, lines.join('\n'));
        const cluster::ClusterModel cut = readExpectingRank0Read(QStringLiteral(" is not recorded in it"));
        QCOMPARE(cut.ranks[0].steps.front().computing, std::int64_t(7654321));

        // Untouched (prepared again after the change): used, and the rank's files are not read.
        QVERIFY(cluster::writePreparedSummary(cluster::readRankSummary(ranks[0]), cache, {}, &reason));
        QStringList mapped;
        MappedFile::setMappedHookForTesting([&](const QString &path) { mapped << path; });
        const cluster::ClusterModel prepared = cluster::readCluster(root, {cache});
        MappedFile::setMappedHookForTesting({});
        QVERIFY(prepared.warnings.isEmpty());
        QCOMPARE(prepared.ranks[0].preparedSummary, summary0);
        QCOMPARE(prepared.ranks[0].steps.front().computing, std::int64_t(7654321));
        QCOMPARE(mapped.size(), 4);
        for (const QString &path : mapped)
            QVERIFY2(path.startsWith(cache + QLatin1Char('/')), qPrintable(path));

        // A file the reader looks for that was not there when prepared, there now: not used.
        const QString analysisDb = ranks[0] + QStringLiteral("/ASCEND_PROFILER_OUTPUT/analysis.db");
        QVERIFY(!QFileInfo::exists(analysisDb) || QFile::remove(analysisDb));
        QVERIFY(cluster::writePreparedSummary(cluster::readRankSummary(ranks[0]), cache, {}, &reason));
        QVERIFY(cluster::readCluster(root, {cache}).warnings.isEmpty());
        writeTextFile(analysisDb, "not a database");
        readExpectingRank0Read(QStringLiteral("changed since it was prepared"));
        QVERIFY(QFile::remove(analysisDb));

        // A rank named only inside a file (profiler_info.json's rank_id): its summary's rank cannot be
        // checked against the folder, so --prepare says so and the cluster reads the rank from its files.
        QVERIFY(QFile::rename(ranks[0] + QStringLiteral("/profiler_info_0.json"),
                              ranks[0] + QStringLiteral("/profiler_info.json")));
        const Run unnamed = run({QStringLiteral("--prepare"), ranks[0], QStringLiteral("--cache"), cache});
        QCOMPARE(unnamed.exitCode, 0);
        QVERIFY2(unnamed.err.contains(QStringLiteral("summary cannot be checked")), qPrintable(unnamed.err));
        const QString unnamedSummary = cluster::preparedSummaryPath(ranks[0], cache);
        QVERIFY(QFileInfo::exists(unnamedSummary));
        const cluster::ClusterModel byContent = cluster::readCluster(root, {cache});
        QCOMPARE(byContent.ranks.size(), std::size_t(4));
        QCOMPARE(byContent.ranks[0].rank, 0);
        QVERIFY(byContent.ranks[0].preparedSummary.isEmpty());
        QCOMPARE(byContent.warnings.size(), 1);
        QVERIFY2(byContent.warnings[0].contains(unnamedSummary) &&
                     byContent.warnings[0].contains(QStringLiteral("file names give no rank id")),
                 qPrintable(byContent.warnings[0]));
    }

    // Issue 29 item 5: a --cache folder is the user's. --prepare removes only the writer's own stale
    // temporaries ("<name>.at-tmp-XXXXXX", over an hour old), never a user's file that merely looks alike.
    void prepareKeepsTheUsersFilesInTheCache()
    {
        QTemporaryDir cache;
        QVERIFY(cache.isValid());
        const QDateTime old = QDateTime::currentDateTimeUtc().addSecs(-2 * 3600);
        const QStringList users{QStringLiteral("notes.atsnap.bak"), QStringLiteral("x.atrank.json.old"),
                                QStringLiteral("y.atsnap.backup"), QStringLiteral("z.atsnap.at-tmp-ABCDEF"),
                                QStringLiteral("w.atsnap.at-tmp-abcdefg")};
        const QString ours = QStringLiteral("0000.atsnap.at-tmp-a1b2c3");
        const QString oursYoung = QStringLiteral("0001.atrank.json.at-tmp-zz9900");
        for (const QString &name : users + QStringList{ours, oursYoung}) {
            QFile f(cache.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the user's");
            f.flush();
            if (name != oursYoung)
                QVERIFY(f.setFileTime(old, QFileDevice::FileModificationTime));
            f.close();
        }
        const Run prepared = run({QStringLiteral("--prepare"), cluster::findRankFolders(m_alexnet).first(),
                                  QStringLiteral("--cache"), cache.path()});
        QCOMPARE(prepared.exitCode, 0);
        for (const QString &name : users)
            QVERIFY2(QFileInfo::exists(cache.filePath(name)), qPrintable(name));
        QVERIFY2(!QFileInfo::exists(cache.filePath(ours)), "a stale temporary of the writer stays");
        QVERIFY2(QFileInfo::exists(cache.filePath(oursYoung)), "a live writer's temporary was removed");
        // What --prepare wrote: one snapshot and one summary, with the writer's names.
        QCOMPARE(QDir(cache.path()).entryList({QStringLiteral("*.atsnap")}, QDir::Files).size(), 1);
        QCOMPARE(QDir(cache.path()).entryList({QStringLiteral("*.atrank.json")}, QDir::Files).size(), 1);
    }

    void badUse()
    {
        const QString rank = cluster::findRankFolders(m_alexnet).first();
        const Run noCache = run({QStringLiteral("--prepare"), rank});
        QCOMPARE(noCache.exitCode, 2);
        QVERIFY(noCache.err.contains(QStringLiteral("--cache")));
        // A cache inside the rank folder is refused and nothing is written there.
        const QStringList before = listing(rank);
        const Run inside = run(
            {QStringLiteral("--prepare"), rank, QStringLiteral("--cache"), rank + QStringLiteral("/cache")});
        QCOMPARE(inside.exitCode, 2);
        QVERIFY(inside.err.contains(QStringLiteral("inside the data folder")));
        QCOMPARE(listing(rank), before);
        // Issue 29 item 6: nor inside another rank folder of the same cluster, when preparing or reading it.
        const QString other = cluster::findRankFolders(m_alexnet)[1];
        const QStringList otherBefore = listing(other);
        const Run sibling = run(
            {QStringLiteral("--prepare"), rank, QStringLiteral("--cache"), other + QStringLiteral("/cache")});
        QCOMPARE(sibling.exitCode, 2);
        QVERIFY2(sibling.err.contains(QStringLiteral("inside the data folder")) &&
                     sibling.err.contains(QFileInfo(other).fileName()),
                 qPrintable(sibling.err));
        QCOMPARE(listing(other), otherBefore);
        const Run reading = run({QStringLiteral("--cluster"), m_alexnet, QStringLiteral("--cache"),
                                 other + QStringLiteral("/cache")});
        QCOMPARE(reading.exitCode, 2);
        QVERIFY2(reading.err.contains(QStringLiteral("inside the data folder")), qPrintable(reading.err));
        QCOMPARE(listing(other), otherBefore);
        QTemporaryDir empty;
        const Run notRank =
            run({QStringLiteral("--prepare"), empty.path(), QStringLiteral("--cache"), m_cache});
        QCOMPARE(notRank.exitCode, 1);
        QVERIFY(notRank.err.contains(QStringLiteral("not a rank folder")));
        const Run both = run({QStringLiteral("--prepare"), rank, QStringLiteral("--cache"), m_cache,
                              QStringLiteral("--no-cache")});
        QCOMPARE(both.exitCode, 2);
        // Preparing again an unchanged rank keeps its snapshot.
        const Run again = run({QStringLiteral("--prepare"), cluster::findRankFolders(m_alexnet)[1],
                               QStringLiteral("--cache"), m_cache});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("snapshot (unchanged, kept)"), again.out.constData());
    }
};

QTEST_MAIN(TstClusterPrepare)
#include "tst_cluster_prepare.moc"
