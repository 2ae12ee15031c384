// msprof-analyze's cluster_analysis.db as a cluster input (issue #32, FORMATS.md §9.1, docs/CLUSTER.md). The
// database is written here, with the published tables and columns, from the real Qwen3 4-rank sample's rank
// files (step_trace_time.csv, communication.json, communication_matrix.json, profiler_metadata.json) read
// with QJsonDocument, not with the reader under test; the model read from it is compared value by value
// with the model the same ranks' folders give. Both table-name sets (ClusterCommunication* and the older
// ClusterCommAnalyzer*), a missing table, a stage row that disagrees with the pp groups, a file that is no
// SQLite database, the rule when rank folders lie beside the database, `--cluster --json`, and the window.
#include "AppProcess.h"
#include "AppTestSupport.h"
#include "ClusterAnalysisDbWriter.h"
#include "ClusterModelComparison.h"
#include "ClusterTestSupport.h"

#include "cluster/ClusterAnalysisDb.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

using namespace at;
using namespace at::cluster;
using namespace at::test;

namespace {

bool writeClusterDb(const QString &path, bool olderNames, QStringList *errors = nullptr)
{
    return writeClusterAnalysisDb(qwen3Cluster(), path, olderNames, errors);
}

void execOn(const QString &path, const QString &sql)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("edit"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(sql), qPrintable(q.lastError().text()));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("edit"));
}

// The first column of the first row of sql on the database at path; -1 when it fails.
qlonglong scalar(const QString &path, const QString &sql)
{
    qlonglong value = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("scalar"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                value = q.value(0).toLongLong();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("scalar"));
    return value;
}

// The JSON of `--cluster --json` without what names the source (withoutSourceFields) and the parallel
// groups that carry no traffic (absent from the database); the groups' order.
QJsonObject comparableJson(const QJsonObject &json, const QSet<QString> &groupsWithTraffic)
{
    QJsonObject out = at::test::withoutSourceFields(json);
    // Those with traffic, by hash (the database lists them in its row order, the rank folders by key).
    std::map<QString, QJsonValue> byHash;
    for (const QJsonValue &g : out[QLatin1String("groups")].toArray())
        if (groupsWithTraffic.contains(g[QLatin1String("hash")].toString()))
            byHash[g[QLatin1String("hash")].toString()] = g;
    QJsonArray groups;
    for (const auto &entry : byHash)
        groups << entry.second;
    out[QLatin1String("groups")] = groups;
    return out;
}

} // namespace

class TstClusterAnalysisDb : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private slots:
    void initTestCase() { useScratchSettings(m_settings.path()); }

    // The database alone, in either table-name set, gives the rank folders' model: every rank and step, each
    // op's times and transports, each link (global ranks), the groups that carry traffic, distributed_args.
    void modelEqualsRankFolders_data()
    {
        QTest::addColumn<bool>("olderNames");
        QTest::newRow("ClusterCommunication*") << false;
        QTest::newRow("ClusterCommAnalyzer*") << true;
    }
    void modelEqualsRankFolders()
    {
        QFETCH(bool, olderNames);
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cluster_analysis_output/cluster_analysis.db"));
        QStringList errors;
        QVERIFY2(writeClusterDb(db, olderNames, &errors), qPrintable(errors.join(QLatin1Char('\n'))));
        QVERIFY(isClusterAnalysisDatabase(db));
        QVERIFY(isClusterFolder(dir.path()));
        QCOMPARE(findClusterAnalysisDatabase(dir.path()), db);

        const ClusterModel folders = readCluster(qwen3Cluster());
        for (const QString &path : {db, dir.path()}) {
            const ClusterModel model = readCluster(path);
            QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
            QCOMPARE(QDir(model.root).canonicalPath(), QDir(dir.path()).canonicalPath());
            QCOMPARE(model.ranks.size(), std::size_t(4));
            QVERIFY(model.distributed.present);
            QCOMPARE(model.distributed.pp, folders.distributed.pp);
            QCOMPARE(model.distributed.dp, folders.distributed.dp);
            QCOMPARE(model.distributed.tp, folders.distributed.tp);
            QCOMPARE(model.distributed.worldSize, 4);
            for (std::size_t i = 0; i < 4; ++i) {
                const Rank &r = model.ranks[i];
                const Rank &f = folders.ranks[i];
                QCOMPARE(r.rank, f.rank);
                QCOMPARE(r.device, f.device); // from RankDeviceMap: 0, 1, 4, 5
                QCOMPARE(r.stage, f.stage);
                QVERIFY(r.folder.isEmpty()); // no rank folder beside the database
                QVERIFY(!r.hasTimeline);
                QCOMPARE(r.filesRead, QStringList{db});
                // Steps, ops (value by value, with their transports) and links: those of the rank files.
                compareRankContents(
                    r, f, {BreakdownSource::ClusterAnalysisDatabase, RankComparison::Transports::BySize});
                if (QTest::currentTestFailed())
                    return;
                const auto expected = opsByKey(f, false);
                // Total Op Info: per group in the database (the rank files have one per kind): each the
                // sum of the group's ops to within a nanosecond per op.
                for (const auto &[key, total] : opsByKey(r, true)) {
                    TimeNs elapse = 0;
                    int count = 0;
                    for (const auto &[opKey, op] : expected)
                        if (std::get<0>(opKey) == std::get<0>(key) &&
                            std::get<2>(opKey) == std::get<2>(key)) {
                            elapse += op->elapse;
                            ++count;
                        }
                    QVERIFY(count > 0);
                    QVERIFY2(std::abs(total->elapse - elapse) <= count, qPrintable(std::get<2>(key)));
                }
                // Links (compared above by key): as many as the rank files'.
                QCOMPARE(r.links.size(), f.links.size());
            }
            // Groups: those that carry traffic, each as parallel_group_info says (key, pg name, ranks).
            QVERIFY(model.groups.size() >= 8);
            QVERIFY(model.groups.size() < folders.groups.size()); // tp [0] … carry nothing
            for (const ParallelGroup &g : model.groups) {
                const ParallelGroup *want = folders.groupByHash(g.hash);
                QVERIFY2(want, qPrintable(g.hash));
                QCOMPARE(g.key, want->key);
                QCOMPARE(g.name, want->name);
                QCOMPARE(g.globalRanks, want->globalRanks);
            }
        }
    }

    // A table missing: the warning names it and the rest is read.
    void missingTable()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cluster_analysis.db"));
        QVERIFY(writeClusterDb(db, false));
        execOn(db, QStringLiteral("DROP TABLE ClusterCommunicationMatrix"));
        execOn(db, QStringLiteral("ALTER TABLE ClusterCommunicationTime DROP COLUMN wait_time"));
        const ClusterModel model = readCluster(db);
        QCOMPARE(model.ranks.size(), std::size_t(4));
        const QString warnings = model.warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(
                     db + QStringLiteral(": no ClusterCommunicationMatrix / ClusterCommAnalyzerMatrix "
                                         "table")),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("table ClusterCommunicationTime has no column wait_time")),
                 qPrintable(warnings));
        for (const Rank &r : model.ranks) {
            QCOMPARE(r.steps.size(), std::size_t(1));
            QVERIFY(!r.ops.empty());
            QVERIFY(r.links.empty());
            for (const CommOp &op : r.ops)
                QCOMPARE(op.wait, TimeNs(0));
        }
    }

    // Cells read as QSqlQuery read them whatever their SQLite storage class (the tables are read through
    // SQLite's API, parser/sqlite/SqliteRows.h): rank ids stored as INTEGER, as TEXT "3" and "3.0" (as
    // msprof-analyze writes the matrix's) and as REAL, counts as TEXT give the model of the database as
    // written; a rank id that is no whole number rejects its row with the row and the text named.
    void storageClassesReadAlike()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cluster_analysis.db"));
        QVERIFY(writeClusterDb(db, false));
        const ClusterModel written = readCluster(db);
        QVERIFY2(written.warnings.isEmpty(), qPrintable(written.warnings.join(QLatin1Char('\n'))));
        // A column of no type stores each value as given (an INTEGER column would turn "3" back into 3).
        const auto restore = [&](const char *table, const char *column, const char *as) {
            const QString t = QLatin1String(table), c = QLatin1String(column);
            execOn(db, QStringLiteral("ALTER TABLE %1 ADD COLUMN stored").arg(t));
            execOn(db, QStringLiteral("UPDATE %1 SET stored = CAST(%2 AS %3)").arg(t, c, QLatin1String(as)));
            execOn(db, QStringLiteral("ALTER TABLE %1 DROP COLUMN %2").arg(t, c));
            execOn(db, QStringLiteral("ALTER TABLE %1 RENAME COLUMN stored TO %2").arg(t, c));
        };
        restore("ClusterCommunicationTime", "rank_id", "TEXT");
        restore("ClusterCommunicationBandwidth", "rank_id", "REAL");
        restore("ClusterCommunicationBandwidth", "count", "TEXT");
        execOn(db,
               QStringLiteral("UPDATE ClusterCommunicationMatrix SET src_rank = CAST(CAST(src_rank AS REAL) "
                              "AS INTEGER) || '.0', dst_rank = CAST(CAST(dst_rank AS REAL) AS INTEGER)"));
        execOn(db, QStringLiteral("UPDATE ClusterStepTraceTime SET \"index\" = CAST(\"index\" AS REAL) "
                                  "WHERE type = 'rank'"));
        // The premise: each storage class is there.
        QCOMPARE(
            scalar(db, QStringLiteral("SELECT count(*) FROM ClusterCommunicationTime WHERE typeof(rank_id) "
                                      "<> 'text'")),
            0);
        QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM ClusterCommunicationBandwidth WHERE "
                                           "typeof(rank_id) <> 'real' OR typeof(count) <> 'text'")),
                 0);
        QVERIFY(scalar(db, QStringLiteral("SELECT count(*) FROM ClusterCommunicationMatrix WHERE src_rank "
                                          "LIKE '%.0' AND typeof(src_rank) = 'text'")) > 0);
        const ClusterModel model = readCluster(db);
        QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), written.ranks.size());
        for (std::size_t i = 0; i < model.ranks.size(); ++i) {
            QCOMPARE(model.ranks[i].rank, written.ranks[i].rank);
            compareRankContents(
                model.ranks[i], written.ranks[i],
                {BreakdownSource::ClusterAnalysisDatabase, RankComparison::Transports::BySize});
            if (QTest::currentTestFailed())
                return;
            QCOMPARE(model.ranks[i].ops.size(), written.ranks[i].ops.size());
            QCOMPARE(model.ranks[i].links.size(), written.ranks[i].links.size());
        }

        execOn(db, QStringLiteral("UPDATE ClusterCommunicationTime SET rank_id = '2.5' WHERE rowid = "
                                  "(SELECT min(rowid) FROM ClusterCommunicationTime WHERE rank_id = '2')"));
        const ClusterModel rejected = readCluster(db);
        QCOMPARE(rejected.warnings.size(), 1);
        QVERIFY2(rejected.warnings.first().contains(
                     QStringLiteral(" of rank 2.5: rank is \"2.5\", not a finite number; 1 op(s) like this "
                                    "skipped")),
                 qPrintable(rejected.warnings.first()));
        QCOMPARE(rejected.rank(2)->ops.size(), written.rank(2)->ops.size() - 1);
    }

    // A stage row that names other ranks than the pp groups give: a warning naming both, the pp groups kept.
    void stageRowsDisagree()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cluster_analysis.db"));
        QVERIFY(writeClusterDb(db, false));
        execOn(db, QStringLiteral(
                       "UPDATE ClusterStepTraceTime SET \"index\" = '(0,3)' WHERE \"index\" = '(0,1)'"));
        const ClusterModel model = readCluster(db);
        QCOMPARE(model.warnings.size(), 1);
        QVERIFY2(model.warnings.first().contains(
                     QStringLiteral("stages (0,3) (2,3), the pp groups give (0,1) (2,3)")),
                 qPrintable(model.warnings.first()));
        QCOMPARE(model.ranks[1].stage, 0);
        QCOMPARE(model.ranks[3].stage, 1);
    }

    // Not an SQLite file but named cluster_analysis.db: a message naming the file, no rank, no crash; the
    // window does not take it for a cluster (recognised by its tables, not its name).
    void notADatabase()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cluster_analysis.db"));
        writeTextFile(db, "Step,Type,Index\nthis is not SQLite\n");
        QVERIFY(!isClusterAnalysisDatabase(db));
        const ClusterModel model = readCluster(db);
        QVERIFY(model.ranks.empty());
        QVERIFY2(!model.warnings.isEmpty() && model.warnings.first().startsWith(db),
                 qPrintable(model.warnings.join(QLatin1Char('\n'))));
        const at_test::AppRun run = at_test::runApp({QStringLiteral("--cluster"), db}, 60000);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(db + QStringLiteral(": not a readable SQLite database")),
                 qPrintable(run.err));
        // A profiler database is no cluster database either.
        QVERIFY(!isClusterAnalysisDatabase(level1Rank0Database()));
    }

    // Rank folders beside the database (cluster_analysis_output/ inside the cluster folder). Opened as a
    // folder, the rank folders' own summary files are read as before; the database opened itself is the
    // source, and the rank folders lend their folders and timelines (ranks 0 and 2 have one).
    void rankFoldersBeside()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(qwen3Cluster(), dir.path()));
        const QString db = dir.filePath(QStringLiteral("cluster_analysis_output/cluster_analysis.db"));
        QVERIFY(writeClusterDb(db, false));

        const ClusterModel asFolder = readCluster(dir.path());
        QCOMPARE(asFolder.ranks.size(), std::size_t(4));
        for (const Rank &r : asFolder.ranks)
            QCOMPARE(r.steps.front().source, BreakdownSource::StepTraceCsv);

        const ClusterModel asDatabase = readCluster(db);
        QVERIFY2(asDatabase.warnings.isEmpty(), qPrintable(asDatabase.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(QDir(asDatabase.root).canonicalPath(), QDir(dir.path()).canonicalPath());
        QCOMPARE(asDatabase.ranks.size(), std::size_t(4));
        for (const Rank &r : asDatabase.ranks) {
            QCOMPARE(r.steps.front().source, BreakdownSource::ClusterAnalysisDatabase);
            QCOMPARE(QFileInfo(r.folder).fileName(), QStringLiteral("rank_%1_ascend_pt").arg(r.rank));
            QCOMPARE(r.hasTimeline, r.rank == 0 || r.rank == 2);
            QVERIFY(r.filesRead.contains(db));
        }
        QVERIFY(asDatabase.ranks[0].memoryPeak.has_value());

        // Rank folders without summary files of their own: the database is read for the folder too.
        for (int rank = 0; rank < 4; ++rank)
            for (const char *file :
                 {"step_trace_time.csv", "communication.json", "communication_matrix.json", "analysis.db"})
                QFile::remove(
                    dir.filePath(QStringLiteral("rank_%1_ascend_pt/ASCEND_PROFILER_OUTPUT/").arg(rank) +
                                 QLatin1String(file)));
        const ClusterModel summaryless = readCluster(dir.path());
        QCOMPARE(summaryless.ranks.size(), std::size_t(4));
        for (const Rank &r : summaryless.ranks) {
            QCOMPARE(r.steps.front().source, BreakdownSource::ClusterAnalysisDatabase);
            QVERIFY(!r.ops.empty());
            QVERIFY(!r.folder.isEmpty());
        }
    }

    // `--cluster --json` on the database alone equals the rank folders' output but for what names the
    // source: root, each rank's folder / has_timeline / peak memory, each step's "source"
    // ("cluster_analysis.db" instead of "step_trace_time.csv"), and the groups without traffic.
    void clusterJsonEqualsRankFolders()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cluster_analysis.db"));
        QVERIFY(writeClusterDb(db, false));
        const at_test::AppRun fromDb =
            at_test::runApp({QStringLiteral("--cluster"), db, QStringLiteral("--json")});
        const at_test::AppRun fromFolders =
            at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")});
        QCOMPARE(fromDb.exitCode, 0);
        QCOMPARE(fromFolders.exitCode, 0);
        const QJsonObject a = QJsonDocument::fromJson(fromDb.out).object();
        const QJsonObject b = QJsonDocument::fromJson(fromFolders.out).object();
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QCOMPARE(a[QLatin1String("ranks")][0][QLatin1String("steps")][0][QLatin1String("source")].toString(),
                 QStringLiteral("cluster_analysis.db"));
        QSet<QString> withTraffic;
        for (const QJsonValue &g : a[QLatin1String("groups")].toArray())
            withTraffic.insert(g[QLatin1String("hash")].toString());
        const QJsonObject left = comparableJson(a, withTraffic), right = comparableJson(b, withTraffic);
        for (const QString &key : right.keys())
            QVERIFY2(
                left[key] == right[key],
                qPrintable(
                    key + QStringLiteral(":\n") +
                    QString::fromUtf8(QJsonDocument(QJsonObject{{key, left[key]}}).toJson()).left(3000) +
                    QStringLiteral("\n---\n") +
                    QString::fromUtf8(QJsonDocument(QJsonObject{{key, right[key]}}).toJson()).left(3000)));
        QCOMPARE(left.keys(), right.keys());
    }

    // The window opens the database (as a drop or File ▸ Open would) as a cluster: its Overview, then the
    // cluster page with the four ranks; no timeline is parsed.
    void windowOpensClusterPage()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cluster_analysis.db"));
        QVERIFY(writeClusterDb(db, false));
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        window.openPath(db);
        QVERIFY(!window.isLoading());
        QVERIFY(window.showsOverview());
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QVERIFY(!window.model());
        ClusterView *view = window.clusterView();
        QVERIFY(view);
        QCOMPARE(view->model()->ranks.size(), std::size_t(4));
        QCOMPARE(view->rankTable()->model()->rowCount(), 4);
        QCOMPARE(view->rankTable()->model()->index(0, 4).data().toString(), QStringLiteral("231.290"));
    }
};

QTEST_MAIN(TstClusterAnalysisDb)
#include "tst_cluster_analysis_db.moc"
