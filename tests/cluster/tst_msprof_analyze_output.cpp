// msprof-analyze's text-mode cluster output (cluster_analysis_output/, FORMATS.md §9.1) opened as a cluster.
// The output is generated here from the real Qwen3 4-rank sample with the published layouts (a small writer,
// MsprofAnalyzeOutputWriter.h: rank rows, stage rows as column-wise maxima, ops regrouped by rank set with
// per-rank totals, links in global ranks, communication_group.json) and the model read from it alone is
// compared value by value with the model read from the rank folders it summarises.

#include "AppProcess.h"
#include "AppTestSupport.h"
#include "CheckedTime.h"
#include "ClusterModelComparison.h"
#include "ClusterTestSupport.h"
#include "MsprofAnalyzeOutputWriter.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterNumbers.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterValues.h"
#include "cluster/ClusterView.h"
#include "cluster/MsprofAnalyzeOutput.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace at;
using namespace at::cluster;
using namespace at::test;

namespace {

bool hasWarning(const ClusterModel &model, const QString &part)
{
    return std::any_of(model.warnings.begin(), model.warnings.end(),
                       [&](const QString &w) { return w.contains(part); });
}

// The --cluster --json output without the fields that name where the data came from (see the test).
QJsonObject comparableJson(const QJsonObject &json)
{
    QJsonObject out = at::test::withoutSourceFields(json, {QStringLiteral("device")});
    out.remove(QStringLiteral("warnings"));
    QJsonArray ranks = out.value(QStringLiteral("ranks")).toArray();
    for (auto it = ranks.begin(); it != ranks.end(); ++it) {
        QJsonObject r = it->toObject();
        // Transports by name: they are listed as the ops first name them, and the writer's QJsonObject sorts
        // an op's transports by name where msprof-analyze keeps the rank file's order (RDMA, HCCS, PCIE,
        // ...).
        QJsonArray communication = r.value(QStringLiteral("communication")).toArray();
        for (auto c = communication.begin(); c != communication.end(); ++c) {
            QJsonObject step = c->toObject();
            QJsonArray transports = step.value(QStringLiteral("transports")).toArray();
            std::vector<QJsonObject> byName;
            for (const QJsonValue &t : transports)
                byName.push_back(t.toObject());
            std::sort(byName.begin(), byName.end(), [](const QJsonObject &x, const QJsonObject &y) {
                return x.value(QStringLiteral("transport")).toString() <
                       y.value(QStringLiteral("transport")).toString();
            });
            QJsonArray sorted;
            for (const QJsonObject &t : byName)
                sorted.append(t);
            step.insert(QStringLiteral("transports"), sorted);
            *c = step;
        }
        r.insert(QStringLiteral("communication"), communication);
        *it = r;
    }
    out.insert(QStringLiteral("ranks"), ranks);
    // Keyless, ordered by hash: the rank files list the groups by key, communication_group.json by its own
    // order.
    std::vector<QJsonObject> sorted;
    for (const QJsonValue &g : out.value(QStringLiteral("groups")).toArray()) {
        QJsonObject o = g.toObject();
        o.remove(QStringLiteral("key"));
        sorted.push_back(o);
    }
    std::sort(sorted.begin(), sorted.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(QStringLiteral("hash")).toString() < b.value(QStringLiteral("hash")).toString();
    });
    QJsonArray ordered;
    for (const QJsonObject &g : sorted)
        ordered.append(g);
    out.insert(QStringLiteral("groups"), ordered);
    return out;
}

// The first difference between two JSON values, as a path, for a failure message.
QString firstDifference(const QJsonValue &a, const QJsonValue &b, const QString &path = {})
{
    if (a.isObject() && b.isObject()) {
        const QJsonObject x = a.toObject(), y = b.toObject();
        QStringList keys = x.keys() + y.keys();
        keys.removeDuplicates();
        for (const QString &k : keys)
            if (const QString d = firstDifference(x.value(k), y.value(k), path + QLatin1Char('.') + k);
                !d.isEmpty())
                return d;
        return {};
    }
    if (a.isArray() && b.isArray()) {
        const QJsonArray x = a.toArray(), y = b.toArray();
        if (x.size() != y.size())
            return QStringLiteral("%1: %2 vs %3 items").arg(path).arg(x.size()).arg(y.size());
        for (qsizetype i = 0; i < x.size(); ++i)
            if (const QString d = firstDifference(x[i], y[i], QStringLiteral("%1[%2]").arg(path).arg(i));
                !d.isEmpty())
                return d;
        return {};
    }
    return a == b ? QString()
                  : QStringLiteral("%1: %2 vs %3")
                        .arg(path,
                             QString::fromUtf8(QJsonDocument(QJsonArray{a}).toJson(QJsonDocument::Compact)),
                             QString::fromUtf8(QJsonDocument(QJsonArray{b}).toJson(QJsonDocument::Compact)));
}

} // namespace

class TstMsprofAnalyzeOutput : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings;
    QTemporaryDir m_dir;
    QString m_job; // a folder holding only cluster_analysis_output/, generated from the Qwen3 sample

private slots:
    // A field that comes more than once in one record (an op's transports, its size buckets) adds up within
    // the record: the running total is kept in range with every value counted, and a record whose repeats
    // together overflow is refused whole (each repeat alone used to be checked against the total before the
    // record, and only the last one was kept).
    void repeatedFieldsOfOneRecordAddUp()
    {
        constexpr TimeNs kMax = kProfileTimeLimit - 1; // the largest total in range (core/CheckedTime.h)
        cluster::RankTotals totals;
        QVERIFY(!totals.add({{"transport Transit Time(ms)", 2}, {"transport Transit Time(ms)", 3}}));
        QVERIFY(!totals.add({{"transport Transit Time(ms)", kMax - 6}})); // 5 + kMax - 6 = kMax - 1
        QCOMPARE(totals.add({{"transport Transit Time(ms)", 2}}).value_or(""),
                 std::string("transport Transit Time(ms)"));
        QVERIFY(!totals.add({{"transport Transit Time(ms)", 1}})); // the refused record added nothing

        cluster::RankTotals fresh;
        const TimeNs half = kMax / 2 + 1;
        QCOMPARE(fresh.add({{"Elapse Time(ms)", 1}, {"Size Distribution", half}, {"Size Distribution", half}})
                     .value_or(""),
                 std::string("Size Distribution"));
        QVERIFY(!fresh.add({{"Size Distribution", half}, {"Elapse Time(ms)", kMax}})); // nothing was kept
    }

    void initTestCase()
    {
        useScratchSettings(m_settings.path());
        QVERIFY(m_dir.isValid());
        m_job = m_dir.filePath(QStringLiteral("job"));
        QVERIFY(writeMsprofAnalyzeOutput(qwen3Cluster(), m_job + QStringLiteral("/cluster_analysis_output")));
    }

    // Opened alone (the folder holding it, and the folder itself), the output gives the rank folders' model.
    void generatedOutputMatchesRankFolders()
    {
        const ClusterModel folders = readCluster(qwen3Cluster());
        QCOMPARE(folders.ranks.size(), std::size_t(4));
        for (const QString &path : {m_job, m_job + QStringLiteral("/cluster_analysis_output")}) {
            QVERIFY(isClusterFolder(path));
            const ClusterModel model = readCluster(path);
            QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
            QCOMPARE(model.ranks.size(), folders.ranks.size());
            for (std::size_t i = 0; i < model.ranks.size(); ++i) {
                const Rank &got = model.ranks[i];
                const Rank &want = folders.ranks[i];
                QCOMPARE(got.rank, want.rank);
                QCOMPARE(got.stage, want.stage);
                QVERIFY(got.stage >= 0);
                QVERIFY(!got.hasTimeline);
                QVERIFY(got.folder.isEmpty());
                // Steps (every field, from the same decimal text), ops with every value, links (global ranks
                // as the rank folders resolve them, and the group-local ranks back).
                compareRankContents(
                    got, want,
                    {BreakdownSource::ClusterAnalysisOutput, RankComparison::Transports::AsListed});
                if (QTest::currentTestFailed())
                    return;
                QVERIFY(linksByKey(got).size() > 10);
                const auto wantOps = opsByKey(want, false);
                // Totals: one per (step, group) of the rank, the sum of its ops there.
                std::map<std::pair<std::int64_t, QString>, TimeNs> elapse;
                for (const auto &[key, w] : wantOps)
                    elapse[{std::get<0>(key), std::get<2>(key)}] += w->elapse;
                const auto totals = opsByKey(got, true);
                QCOMPARE(totals.size(), elapse.size());
                for (const auto &[key, sum] : elapse) {
                    const auto t = totals.find({key.first, QStringLiteral("Total Op Info"), key.second});
                    QVERIFY(t != totals.end());
                    QCOMPARE(t->second->elapse, sum);
                    QCOMPARE(t->second->p2p, model.groupByHash(key.second)->name == QLatin1String("pp"));
                }
            }
            // Groups by hash (communication_group.json has no parallel_group_info key: the hash stands in).
            QCOMPARE(model.groups.size(), folders.groups.size());
            for (const ParallelGroup &g : folders.groups) {
                const ParallelGroup *got = model.groupByHash(g.hash);
                QVERIFY(got);
                QCOMPARE(got->name, g.name);
                QCOMPARE(got->globalRanks, g.globalRanks);
                QCOMPARE(got->key, g.hash);
            }
            QVERIFY(model.distributed.present);
            QCOMPARE(model.distributed.tp, folders.distributed.tp);
            QCOMPARE(model.distributed.pp, folders.distributed.pp);
            QCOMPARE(model.distributed.dp, folders.distributed.dp);
            QCOMPARE(model.distributed.worldSize, folders.distributed.worldSize);
            // Comparison groups (the stages of the pp groups) and the findings built on them.
            const auto wantGroups = comparisonGroups(folders), gotGroups = comparisonGroups(model);
            QCOMPARE(gotGroups.size(), wantGroups.size());
            for (std::size_t g = 0; g < gotGroups.size(); ++g) {
                QCOMPARE(gotGroups[g].name, wantGroups[g].name);
                QCOMPARE(gotGroups[g].ranks, wantGroups[g].ranks);
            }
        }
    }

    // The usual layout: cluster_analysis_output/ inside the folder of rank folders. The rank folders are read
    // as always (their folders and timelines kept); the output fills only what a rank lacks: here rank 1 has
    // no step_trace_time.csv, communication.json or analysis.db, so its steps and ops come from the output.
    void besideRankFolders()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("job"));
        QVERIFY(copyTree(qwen3Cluster(), root));
        QVERIFY(writeMsprofAnalyzeOutput(qwen3Cluster(), root + QStringLiteral("/cluster_analysis_output")));
        const QString rank1 = root + QStringLiteral("/rank_1_ascend_pt/ASCEND_PROFILER_OUTPUT/");
        for (const char *file : {"step_trace_time.csv", "communication.json", "analysis.db"})
            QVERIFY(QFile::remove(rank1 + QLatin1String(file)));
        const ClusterModel folders = readCluster(qwen3Cluster());
        const ClusterModel model = readCluster(root);
        QVERIFY2(!hasWarning(model, QStringLiteral("stage row")),
                 qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), std::size_t(4));
        QCOMPARE(model.groups.size(), folders.groups.size()); // the same groups by hash: none added
        for (const Rank &r : model.ranks) {
            const Rank *want = folders.rank(r.rank);
            QVERIFY(want);
            QVERIFY(r.folder.endsWith(QFileInfo(want->folder).fileName()));
            QCOMPARE(r.hasTimeline, want->hasTimeline);
            QCOMPARE(r.stage, want->stage);
            QCOMPARE(r.steps.size(), want->steps.size());
            QCOMPARE(r.steps[0].computing, want->steps[0].computing);
            QCOMPARE(r.steps[0].source,
                     r.rank == 1 ? BreakdownSource::ClusterAnalysisOutput : want->steps[0].source);
            QCOMPARE(opsByKey(r, false).size(), opsByKey(*want, false).size());
            QCOMPARE(linksByKey(r).size(), linksByKey(*want).size());
            const bool fromOutput =
                r.filesRead.join(QLatin1Char('\n')).contains(QStringLiteral("cluster_communication.json"));
            QCOMPARE(fromOutput, r.rank == 1);
        }
        // Its links are its own file's.
        QVERIFY(model.rank(1)->filesRead.contains(
            QDir::cleanPath(rank1 + QStringLiteral("communication_matrix.json"))));
        QVERIFY(!model.rank(1)
                     ->filesRead.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("cluster_communication_matrix")));
    }

    // FORMATS.md §9.1's real stage rows (ranks 0 and 2 of Qwen3, the "(0, 1)" stage row), with the sample's
    // groups: the rows are read exactly, the stage row matches stage 0 of the pp groups and is not flagged
    // (rank 1, which holds its Communication maximum, is not in the file); missing files are named.
    void realStageRowsExample()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("cluster_analysis_output"));
        writeTextFile(out + QStringLiteral("/cluster_step_trace_time.csv"), kStageRowsExample);
        QVERIFY(QFile::copy(m_job + QStringLiteral("/cluster_analysis_output/communication_group.json"),
                            out + QStringLiteral("/communication_group.json")));
        const ClusterModel model = readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(2));
        const Rank *rank0 = model.rank(0);
        const Rank *rank2 = model.rank(2);
        QVERIFY(rank0 && rank2);
        QCOMPARE(rank0->steps.size(), std::size_t(1));
        QCOMPARE(rank0->steps[0].step, 13);
        QCOMPARE(rank0->steps[0].computing, 231290100);
        QCOMPARE(rank0->steps[0].communicationNotOverlapped, 420174260);
        QCOMPARE(rank0->steps[0].preparing, 206250);
        QVERIFY(rank0->steps[0].hasPreparing);
        QCOMPARE(rank2->steps[0].computing, 400448260);
        QCOMPARE(rank2->steps[0].free, 131705280);
        QCOMPARE(rank0->stage, 0);
        QCOMPARE(rank2->stage, 1);
        QVERIFY(model.distributed.present);
        QCOMPARE(model.distributed.pp, 2);
        QVERIFY2(!hasWarning(model, QStringLiteral("stage row")),
                 qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QVERIFY(hasWarning(model, QStringLiteral("cluster_communication.json is missing")));
        QVERIFY(hasWarning(model, QStringLiteral("cluster_communication_matrix.json is missing")));

        // A stage row that is no stage of the pp groups, and one that is not the maximum of its ranks.
        QByteArray changed = kStageRowsExample;
        changed.replace("\"(0, 1)\"", "\"(0, 2)\"");
        changed +=
            "13,rank,1,230904.0,441708.38,0.0,441708.38,137409.87,810022.25,0.0,441708.38,206.25,1,0,0\n"
            "13,stage,\"(0, 1)\",231290.1,441708.38,0.0,441708.38,158558.0,810022.25,0.0,441708.38,999.0,"
            "NA,NA,NA\n";
        writeTextFile(out + QStringLiteral("/cluster_step_trace_time.csv"), changed);
        const ClusterModel flagged = readCluster(dir.path());
        QVERIFY2(hasWarning(flagged, QStringLiteral("line 4: the stage row (0, 2) is not a pipeline stage")),
                 qPrintable(flagged.warnings.join(QLatin1Char('\n'))));
        QVERIFY2(hasWarning(flagged, QStringLiteral("line 6: the stage row (0, 1) is not the maximum of its "
                                                    "ranks' rows in Preparing")),
                 qPrintable(flagged.warnings.join(QLatin1Char('\n'))));
    }

    // The older variant: no Preparing column, an empty Step, no parallel indices, a stage row of all ranks
    // from older stage logic (no pp groups in that file's run: here the groups file is left out).
    void olderVariant()
    {
        QTemporaryDir dir;
        QVERIFY(writeMsprofAnalyzeOutput(qwen3Cluster(), dir.path(), true));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("communication_group.json"))));
        QByteArray csv = readAll(dir.filePath(QStringLiteral("cluster_step_trace_time.csv")));
        QVERIFY(!csv.contains("Preparing"));
        QVERIFY(!csv.contains("DP Index"));
        csv += ",stage,\"(0, 1, 2, 3)\"," + csv.split('\n').at(1).split(',').mid(3).join(',') + '\n';
        writeTextFile(dir.filePath(QStringLiteral("cluster_step_trace_time.csv")), csv);
        const ClusterModel folders = readCluster(qwen3Cluster());
        const ClusterModel model = readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(4));
        for (const Rank &r : model.ranks) {
            QCOMPARE(r.steps.size(), std::size_t(1));
            QCOMPARE(r.steps[0].step, kNoStep);
            QVERIFY(!r.steps[0].hasPreparing);
            QCOMPARE(r.steps[0].preparing, 0);
            QCOMPARE(r.steps[0].computing, folders.rank(r.rank)->steps[0].computing);
            QCOMPARE(r.stage, -1); // no pp group
            QVERIFY(!r.ops.empty());
        }
        QVERIFY(model.groups.empty());
        QVERIFY(!model.distributed.present);
        QVERIFY(hasWarning(model, QStringLiteral("communication_group.json is missing")));
        QVERIFY(hasWarning(model, QStringLiteral("the stage row (0, 1, 2, 3) is not a pipeline stage")));
        // Without the groups the matrix keeps its global ranks as written, and the op totals are collective.
        QVERIFY(!model.rank(0)->links.empty());
        for (const MatrixLink &l : model.rank(0)->links)
            QCOMPARE(l.src, 0);
    }

    // A damaged file: the bad rows and the unreadable file are named (file and line), the rest is kept.
    void malformedFiles()
    {
        QTemporaryDir dir;
        QVERIFY(writeMsprofAnalyzeOutput(qwen3Cluster(), dir.path()));
        const QString csvPath = dir.filePath(QStringLiteral("cluster_step_trace_time.csv"));
        QList<QByteArray> lines = readAll(csvPath).split('\n');
        lines[2] = lines[2].left(lines[2].lastIndexOf(','));          // rank 1: one field short
        lines[3].replace(lines[3].indexOf(",rank,2,") + 8, 3, "abc"); // rank 2: Computing not a number
        writeTextFile(csvPath, lines.join('\n'));
        const QString commPath = dir.filePath(QStringLiteral("cluster_communication.json"));
        const QByteArray comm = readAll(commPath);
        writeTextFile(commPath, comm.left(comm.size() / 2)); // truncated
        const ClusterModel model = readCluster(dir.path());
        const QString warnings = model.warnings.join(QLatin1Char('\n'));
        QVERIFY2(hasWarning(model, csvPath + QStringLiteral(": line 3: the number of fields differs")),
                 qPrintable(warnings));
        QVERIFY2(hasWarning(model, QStringLiteral("line 4")), qPrintable(warnings));
        QVERIFY2(hasWarning(model, commPath), qPrintable(warnings));
        // Ranks 0 and 3 keep their steps; 1 and 2 have none but are still ranks (their links name them).
        QVERIFY(!model.rank(0)->steps.empty());
        QVERIFY(!model.rank(3)->steps.empty());
        QVERIFY(model.rank(1) && model.rank(1)->steps.empty());
        QVERIFY(model.rank(2) && model.rank(2)->steps.empty());
        for (const Rank &r : model.ranks) {
            QVERIFY(r.ops.empty());
            QVERIFY(!r.links.empty());
        }
        QCOMPARE(model.groups.size(), readCluster(qwen3Cluster()).groups.size());
    }

    // --cluster --json on the generated folder: the rank folders' output but for the fields that say where
    // the data came from: root, warnings, each rank's folder, has_timeline, device (the output has no
    // Device_id), peak memory (no memory files), each step's source, each group's key (the hash).
    void clusterJsonMatchesRankFolders()
    {
        const at_test::AppRun fromOutput =
            at_test::runApp({QStringLiteral("--cluster"), m_job, QStringLiteral("--json")});
        QVERIFY2(fromOutput.exitCode == 0, qPrintable(fromOutput.err));
        const at_test::AppRun fromFolders =
            at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")});
        QCOMPARE(fromFolders.exitCode, 0);
        const QJsonObject a = QJsonDocument::fromJson(fromOutput.out).object();
        const QJsonObject b = QJsonDocument::fromJson(fromFolders.out).object();
        QVERIFY(!a.isEmpty());
        QCOMPARE(a.value(QStringLiteral("ranks"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("steps"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("source"))
                     .toString(),
                 QStringLiteral("cluster_step_trace_time.csv"));
        const QString difference = firstDifference(comparableJson(a), comparableJson(b));
        QVERIFY2(difference.isEmpty(), qPrintable(difference));

        // A folder with neither rank folders nor the output still says so.
        QTemporaryDir empty;
        const at_test::AppRun none = at_test::runApp({QStringLiteral("--cluster"), empty.path()});
        QCOMPARE(none.exitCode, 1);
        QVERIFY(none.err.contains(QStringLiteral("no rank folder")));
    }

    // The window opens the generated folder on the cluster page with the 4 ranks.
    void windowOpensItAsCluster()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(m_job);
        QVERIFY(!window.isLoading());
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        ClusterView *view = window.clusterView();
        QVERIFY(view);
        QCOMPARE(view->model()->ranks.size(), std::size_t(4));
        QAbstractItemModel *rows = view->rankTable()->model();
        QCOMPARE(rows->rowCount(), 4);
        QCOMPARE(rows->index(0, 4).data().toString(), QStringLiteral("231.290"));
        QCOMPARE(view->matrixHeatMap()->rowCount(), 4);
        QVERIFY(view->matrixHeatMap()->value(0, 2).has_value()); // the pp link 0 → 2, global from the file
    }

private:
    static inline const QByteArray kStageRowsExample =
        "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
        "Communication(Not Overlapped and Exclude Receive),Preparing,DP Index,PP Index,TP Index\n"
        "13,rank,0,231290.1,420174.26,0.0,420174.26,158558.0,810022.25,0.0,420174.26,206.25,0,0,0\n"
        "13,rank,2,400448.26,277649.66,0.0,277649.66,131705.28,809803.25,0.0,277649.66,189.0,0,1,0\n"
        "13,stage,\"(0, "
        "1)\",231290.1,441708.38,0.0,441708.38,158558.0,810022.25,0.0,441708.38,206.25,NA,NA,NA\n";
};

QTEST_MAIN(TstMsprofAnalyzeOutput)
#include "tst_msprof_analyze_output.moc"
