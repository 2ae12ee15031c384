// msprof-analyze's cluster_analysis.db as a cluster input (issue #32, FORMATS.md §9.1, docs/CLUSTER.md). The
// database is written here, with the published tables and columns, from the real Qwen3 4-rank sample's rank
// files (step_trace_time.csv, communication.json, communication_matrix.json, profiler_metadata.json) read
// with QJsonDocument, not with the reader under test; the model read from it is compared value by value
// with the model the same ranks' folders give. Both table-name sets (ClusterCommunication* and the older
// ClusterCommAnalyzer*), a missing table, a stage row that disagrees with the pp groups, a file that is no
// SQLite database, the rule when rank folders lie beside the database, `--cluster --json`, and the window.
#include "AppProcess.h"
#include "AppTestSupport.h"
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

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readAll(path)).object();
}

QString rankFolder(int rank)
{
    return qwen3Cluster() + QStringLiteral("/rank_%1_ascend_pt").arg(rank);
}

QString outputFile(int rank, const char *name)
{
    return rankFolder(rank) + QStringLiteral("/ASCEND_PROFILER_OUTPUT/") + QLatin1String(name);
}

// msprof-analyze's double_hash (FORMATS.md §9.3), written here again.
QString hashOf(const QString &key)
{
    quint64 h1 = 0, h2 = 0;
    for (QChar c : key) {
        h1 = (h1 * 29 + c.unicode()) % (quint64(1) << 32);
        h2 = (h2 * 131 + c.unicode()) % (quint64(1) << 32);
    }
    return QString::number((h1 << 32) | h2);
}

// The op keys of a communication.json in file order (QJsonObject sorts its keys; the reader keeps the
// file's order, and sums made over ops in another order can differ in a double's last digit).
QStringList opKeysInFileOrder(const QString &path)
{
    static const QRegularExpression key(
        QStringLiteral("\"([^\"]+)\"\\s*:\\s*\\{\\s*\"Communication Time Info\""));
    QStringList keys;
    for (auto it = key.globalMatch(QString::fromUtf8(readAll(path))); it.hasNext();)
        keys << it.next().captured(1);
    return keys;
}

struct Group
{
    QString key, name, type;
    std::vector<int> ranks;
};

// Writes cluster_analysis.db as msprof-analyze does for the Qwen3 ranks (FORMATS.md §9.1).
class ClusterDbWriter
{
public:
    ClusterDbWriter(const QString &path, bool olderNames)
        : m_name(QStringLiteral("writer_%1").arg(++s_count)), m_older(olderNames)
    {
        m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        m_db.setDatabaseName(path);
        m_ok = m_db.open();
    }
    ~ClusterDbWriter()
    {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_name);
    }

    QString timeTable() const
    {
        return m_older ? QStringLiteral("ClusterCommAnalyzerTime")
                       : QStringLiteral("ClusterCommunicationTime");
    }
    QString bandwidthTable() const
    {
        return m_older ? QStringLiteral("ClusterCommAnalyzerBandwidth")
                       : QStringLiteral("ClusterCommunicationBandwidth");
    }
    QString matrixTable() const
    {
        return m_older ? QStringLiteral("ClusterCommAnalyzerMatrix")
                       : QStringLiteral("ClusterCommunicationMatrix");
    }
    QString groupTable() const
    {
        return m_older ? QStringLiteral("CommunicationGroup") : QStringLiteral("CommunicationGroupMapping");
    }

    bool write()
    {
        if (!m_ok)
            return false;
        readGroups();
        m_db.transaction();
        // The older tables carry a rank_set column first (msprof-analyze's TablesConfig).
        const QString rankSet = m_older ? QStringLiteral("rank_set TEXT, ") : QString();
        const bool created =
            exec(QStringLiteral("CREATE TABLE ClusterBaseInfo (key TEXT, value TEXT)")) &&
            exec(QStringLiteral(
                "CREATE TABLE ClusterStepTraceTime (step TEXT, type TEXT, \"index\" TEXT, computing NUMERIC, "
                "communication_not_overlapped NUMERIC, overlapped NUMERIC, communication NUMERIC, free "
                "NUMERIC, "
                "stage NUMERIC, bubble NUMERIC, communication_not_overlapped_and_exclude_receive NUMERIC, "
                "preparing NUMERIC, dp_index INTEGER, pp_index INTEGER, tp_index INTEGER)")) &&
            exec(QStringLiteral("CREATE TABLE %1 (type TEXT, rank_set TEXT, group_name TEXT, group_id TEXT, "
                                "pg_name TEXT)")
                     .arg(groupTable())) &&
            exec(
                QStringLiteral("CREATE TABLE %1 (%2step TEXT, rank_id INTEGER, hccl_op_name TEXT, group_name "
                               "TEXT, start_timestamp NUMERIC, elapsed_time NUMERIC, transit_time NUMERIC, "
                               "wait_time NUMERIC, synchronization_time NUMERIC, idle_time NUMERIC, "
                               "synchronization_time_ratio NUMERIC, wait_time_ratio NUMERIC)")
                    .arg(timeTable(), rankSet)) &&
            exec(
                QStringLiteral("CREATE TABLE %1 (%2step TEXT, rank_id INTEGER, hccl_op_name TEXT, group_name "
                               "TEXT, band_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth "
                               "NUMERIC, large_packet_ratio NUMERIC, package_size NUMERIC, count NUMERIC, "
                               "total_duration NUMERIC)")
                    .arg(bandwidthTable(), rankSet)) &&
            exec(QStringLiteral("CREATE TABLE %1 (%2step TEXT, hccl_op_name TEXT, group_name TEXT, src_rank "
                                "TEXT, dst_rank TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth "
                                "NUMERIC, transport_type TEXT, op_name TEXT)")
                     .arg(matrixTable(), rankSet)) &&
            exec(QStringLiteral("CREATE TABLE RankDeviceMap (rankId INTEGER, deviceId INTEGER, hostUid TEXT, "
                                "profilePath TEXT)"));
        if (!created)
            return false;
        writeBaseInfo();
        for (int rank = 0; rank < 4; ++rank) {
            writeSteps(rank);
            writeOps(rank);
            writeMatrix(rank);
        }
        writeStageRows();
        writeGroups();
        return m_db.commit() && m_errors.isEmpty();
    }

    QStringList errors() const { return m_errors; }

private:
    bool exec(const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery q(m_db);
        q.prepare(sql);
        for (const QVariant &v : values)
            q.addBindValue(v);
        if (!q.exec()) {
            m_errors << sql + QStringLiteral(": ") + q.lastError().text();
            return false;
        }
        return true;
    }

    static QString rankSetText(const std::vector<int> &ranks)
    {
        QStringList ids;
        for (int r : ranks)
            ids << QString::number(r);
        return QStringLiteral("(%1)").arg(ids.join(QLatin1Char(',')));
    }

    // parallel_group_info merged by key over the ranks' metadata (the first rank listing a key wins).
    void readGroups()
    {
        for (int rank = 0; rank < 4; ++rank) {
            const QJsonObject info =
                readJson(rankFolder(rank) +
                         QStringLiteral("/profiler_metadata.json"))[QLatin1String("parallel_group_info")]
                    .toObject();
            for (auto it = info.begin(); it != info.end(); ++it) {
                const QString hash = hashOf(it.key());
                if (m_groups.count(hash))
                    continue;
                Group g;
                g.key = it.key();
                g.name = it.value()[QLatin1String("group_name")].toString();
                for (const QJsonValue &r : it.value()[QLatin1String("global_ranks")].toArray())
                    g.ranks.push_back(r.toInt());
                std::sort(g.ranks.begin(), g.ranks.end());
                m_groups[hash] = g;
            }
        }
    }

    void writeBaseInfo()
    {
        QJsonObject args =
            readJson(rankFolder(0) +
                     QStringLiteral("/profiler_metadata.json"))[QLatin1String("distributed_args")]
                .toObject();
        args.remove(QLatin1String("rank"));
        exec(QStringLiteral("INSERT INTO ClusterBaseInfo VALUES (?, ?)"),
             {QStringLiteral("distributed_args"),
              QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact))});
    }

    static QVariant real(const QString &text) { return text.trimmed().toDouble(); }

    void writeSteps(int rank)
    {
        const QStringList lines = QString::fromUtf8(readAll(outputFile(rank, "step_trace_time.csv")))
                                      .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QStringList header = lines.front().trimmed().split(QLatin1Char(','));
        const QStringList columns{
            QStringLiteral("Computing"),  QStringLiteral("Communication(Not Overlapped)"),
            QStringLiteral("Overlapped"), QStringLiteral("Communication"),
            QStringLiteral("Free"),       QStringLiteral("Stage"),
            QStringLiteral("Bubble"),     QStringLiteral("Communication(Not Overlapped and Exclude Receive)"),
            QStringLiteral("Preparing")};
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].trimmed().split(QLatin1Char(','));
            const auto cell = [&](const QString &column) { return cells.value(header.indexOf(column)); };
            QVariantList values{cell(QStringLiteral("Step")), QStringLiteral("rank"), QString::number(rank)};
            std::vector<double> row;
            for (const QString &c : columns) {
                values << real(cell(c));
                row.push_back(cell(c).toDouble());
            }
            // Megatron order, tp fastest (FORMATS.md §9.3): tp 1, dp 2, pp 2.
            values << rank % 2 << rank / 2 << 0;
            exec(QStringLiteral("INSERT INTO ClusterStepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
                 values);
            auto &stage = m_stageMax[{cell(QStringLiteral("Step")), rank / 2}];
            stage.resize(row.size());
            for (std::size_t c = 0; c < row.size(); ++c)
                stage[c] = std::max(stage[c], row[c]);
            exec(QStringLiteral("INSERT INTO RankDeviceMap VALUES (?, ?, 'host', ?)"),
                 {rank, cell(QStringLiteral("Device_id")).toInt(), rankFolder(rank)});
        }
    }

    // One stage row per (step, stage): the column-wise maximum over the stage's ranks, Index "(0,1)".
    void writeStageRows()
    {
        for (const auto &[key, values] : m_stageMax) {
            const int stage = key.second;
            QVariantList row{key.first, QStringLiteral("stage"), rankSetText({stage * 2, stage * 2 + 1})};
            for (double v : values)
                row << v;
            row << QVariant() << QVariant() << QVariant();
            exec(QStringLiteral("INSERT INTO ClusterStepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
                 row);
        }
    }

    QVariantList prefix(const QString &group) const
    {
        return m_older ? QVariantList{rankSetText(m_groups.at(group).ranks)} : QVariantList{};
    }

    void writeOps(int rank)
    {
        const QString path = outputFile(rank, "communication.json");
        const QJsonObject steps = readJson(path);
        const QStringList order = opKeysInFileOrder(path);
        for (auto step = steps.begin(); step != steps.end(); ++step) {
            for (const QString &kind : {QStringLiteral("collective"), QStringLiteral("p2p")}) {
                const QJsonObject ops = step.value()[kind].toObject();
                // Total Op Info per group, summed over the group's ops as msprof-analyze does.
                std::map<QString, QJsonObject> totals;
                for (const QString &opKey : order) {
                    if (!ops.contains(opKey) || opKey.startsWith(QLatin1String("Total Op Info")))
                        continue;
                    const QString name = opKey.section(QLatin1Char('@'), 0, 0);
                    const QString group = opKey.section(QLatin1Char('@'), 1);
                    m_groups[group].type = kind;
                    const QJsonObject op = ops[opKey].toObject();
                    writeOp(rank, step.key(), name, group, op);
                    addToTotal(totals[group], op);
                }
                for (auto &[group, total] : totals)
                    writeOp(rank, step.key(), QStringLiteral("Total Op Info"), group, finishTotal(total));
            }
        }
    }

    static void addToTotal(QJsonObject &total, const QJsonObject &op)
    {
        QJsonObject time = total[QLatin1String("Communication Time Info")].toObject();
        const QJsonObject opTime = op[QLatin1String("Communication Time Info")].toObject();
        for (const char *f : {"Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
                              "Synchronization Time(ms)", "Idle Time(ms)"})
            time[QLatin1String(f)] = time[QLatin1String(f)].toDouble() + opTime[QLatin1String(f)].toDouble();
        total[QLatin1String("Communication Time Info")] = time;
        QJsonObject bandwidth = total[QLatin1String("Communication Bandwidth Info")].toObject();
        const QJsonObject opBandwidth = op[QLatin1String("Communication Bandwidth Info")].toObject();
        for (auto t = opBandwidth.begin(); t != opBandwidth.end(); ++t) {
            QJsonObject sum = bandwidth[t.key()].toObject();
            const QJsonObject b = t.value().toObject();
            for (const char *f : {"Transit Size(MB)", "Transit Time(ms)"})
                sum[QLatin1String(f)] = sum[QLatin1String(f)].toDouble() + b[QLatin1String(f)].toDouble();
            QJsonObject sizes = sum[QLatin1String("Size Distribution")].toObject();
            const QJsonObject opSizes = b[QLatin1String("Size Distribution")].toObject();
            for (auto s = opSizes.begin(); s != opSizes.end(); ++s) {
                const QJsonArray was = sizes[s.key()].toArray();
                const QJsonArray add = s.value().toArray();
                sizes[s.key()] = QJsonArray{was.at(0).toInt() + add.at(0).toInt(),
                                            was.at(1).toDouble() + add.at(1).toDouble()};
            }
            sum[QLatin1String("Size Distribution")] = sizes;
            bandwidth[t.key()] = sum;
        }
        total[QLatin1String("Communication Bandwidth Info")] = bandwidth;
    }

    static QJsonObject finishTotal(QJsonObject total)
    {
        QJsonObject time = total[QLatin1String("Communication Time Info")].toObject();
        const double transit = time[QLatin1String("Transit Time(ms)")].toDouble();
        const auto ratio = [&](const char *field) {
            const double part = time[QLatin1String(field)].toDouble();
            return part + transit > 0 ? std::round(part / (part + transit) * 1e4) / 1e4 : 0.0;
        };
        time[QLatin1String("Wait Time Ratio")] = ratio("Wait Time(ms)");
        time[QLatin1String("Synchronization Time Ratio")] = ratio("Synchronization Time(ms)");
        total[QLatin1String("Communication Time Info")] = time;
        return total;
    }

    void writeOp(int rank, const QString &step, const QString &name, const QString &group,
                 const QJsonObject &op)
    {
        const QJsonObject time = op[QLatin1String("Communication Time Info")].toObject();
        const auto t = [&](const char *f) { return time[QLatin1String(f)].toVariant(); };
        exec(QStringLiteral("INSERT INTO %1 VALUES (%2?,?,?,?,?,?,?,?,?,?,?,?)")
                 .arg(timeTable(), m_older ? QStringLiteral("?,") : QString()),
             prefix(group) + QVariantList{step, rank, name, group,
                                          time.contains(QLatin1String("Start Timestamp(us)"))
                                              ? t("Start Timestamp(us)")
                                              : QVariant(),
                                          t("Elapse Time(ms)"), t("Transit Time(ms)"), t("Wait Time(ms)"),
                                          t("Synchronization Time(ms)"), t("Idle Time(ms)"),
                                          t("Synchronization Time Ratio"), t("Wait Time Ratio")});
        const QJsonObject bandwidth = op[QLatin1String("Communication Bandwidth Info")].toObject();
        // The transports in the files' order (QJsonObject would sort them).
        for (const char *transport : {"RDMA", "HCCS", "PCIE", "SDMA", "SIO"}) {
            if (!bandwidth.contains(QLatin1String(transport)))
                continue;
            const QJsonObject b = bandwidth[QLatin1String(transport)].toObject();
            const double size = b[QLatin1String("Transit Size(MB)")].toDouble();
            const double ms = b[QLatin1String("Transit Time(ms)")].toDouble();
            const QVariant gbps = b.contains(QLatin1String("Bandwidth(GB/s)"))
                                      ? b[QLatin1String("Bandwidth(GB/s)")].toVariant()
                                      : QVariant(ms > 0 ? size / ms : 0.0);
            const QVariantList common =
                prefix(group) + QVariantList{step,
                                             rank,
                                             name,
                                             group,
                                             QLatin1String(transport),
                                             size,
                                             ms,
                                             gbps,
                                             b[QLatin1String("Large Packet Ratio")].toDouble()};
            const QString insert = QStringLiteral("INSERT INTO %1 VALUES (%2?,?,?,?,?,?,?,?,?,?,?,?)")
                                       .arg(bandwidthTable(), m_older ? QStringLiteral("?,") : QString());
            const QJsonObject sizes = b[QLatin1String("Size Distribution")].toObject();
            if (sizes.isEmpty())
                exec(insert, common + QVariantList{0.0, 0, 0.0});
            for (auto s = sizes.begin(); s != sizes.end(); ++s)
                exec(insert, common + QVariantList{s.key().toDouble(), s.value()[qsizetype(0)].toInt(),
                                                   s.value()[qsizetype(1)].toDouble()});
        }
    }

    void writeMatrix(int rank)
    {
        const QJsonObject steps = readJson(outputFile(rank, "communication_matrix.json"));
        for (auto step = steps.begin(); step != steps.end(); ++step)
            for (const QString &kind : {QStringLiteral("collective"), QStringLiteral("p2p")}) {
                const QJsonObject ops = step.value()[kind].toObject();
                for (auto op = ops.begin(); op != ops.end(); ++op) {
                    const QString group = op.key().section(QLatin1Char('@'), 1);
                    const std::vector<int> &ranks = m_groups.at(group).ranks;
                    const QJsonObject links = op.value().toObject();
                    for (auto link = links.begin(); link != links.end(); ++link) {
                        const int src = ranks.at(link.key().section(QLatin1Char('-'), 0, 0).toInt());
                        const int dst = ranks.at(link.key().section(QLatin1Char('-'), 1).toInt());
                        const QJsonObject l = link.value().toObject();
                        // src_rank / dst_rank: global ranks stored as REAL (msprof-analyze writes "0.0").
                        exec(QStringLiteral("INSERT INTO %1 VALUES (%2?,?,?,?,?,?,?,?,?,?)")
                                 .arg(matrixTable(), m_older ? QStringLiteral("?,") : QString()),
                             prefix(group) + QVariantList{step.key(),
                                                          op.key().section(QLatin1Char('@'), 0, 0), group,
                                                          double(src), double(dst),
                                                          l[QLatin1String("Transit Size(MB)")].toVariant(),
                                                          l[QLatin1String("Transit Time(ms)")].toVariant(),
                                                          l[QLatin1String("Bandwidth(GB/s)")].toVariant(),
                                                          l[QLatin1String("Transport Type")].toString(),
                                                          l[QLatin1String("Op Name")].toString()});
                    }
                }
            }
    }

    // One row per group that carries traffic (msprof-analyze merges the groups seen in the ops with
    // parallel_group_info; a group without ops is not written).
    void writeGroups()
    {
        for (const auto &[hash, g] : m_groups)
            if (!g.type.isEmpty())
                exec(QStringLiteral("INSERT INTO %1 VALUES (?, ?, ?, ?, ?)").arg(groupTable()),
                     {g.type, rankSetText(g.ranks), hash, g.key, g.name});
    }

    static inline int s_count = 0;
    QString m_name;
    bool m_older = false;
    bool m_ok = false;
    QSqlDatabase m_db;
    QStringList m_errors;
    std::map<QString, Group> m_groups; // by hash
    std::map<std::pair<QString, int>, std::vector<double>> m_stageMax;
};

bool writeClusterDb(const QString &path, bool olderNames, QStringList *errors = nullptr)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    ClusterDbWriter writer(path, olderNames);
    const bool ok = writer.write();
    if (errors)
        *errors = writer.errors();
    return ok;
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
