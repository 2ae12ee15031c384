#include "ClusterAnalysisDbWriter.h"

#include "cluster/ClusterReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace at::test {

using namespace at::cluster;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readAll(path)).object();
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

// The op keys of a communication.json in file order (an op's first key is its time or, as QJsonDocument
// writes it, its bandwidth; QJsonObject sorts its keys; the reader keeps the
// file's order, and sums made over ops in another order can differ in a double's last digit).
QStringList opKeysInFileOrder(const QString &path)
{
    static const QRegularExpression key(
        QStringLiteral("\"([^\"]+)\"\\s*:\\s*\\{\\s*\"Communication (?:Time|Bandwidth) Info\""));
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
    ClusterDbWriter(const QString &clusterRoot, const QString &path, bool olderNames)
        : m_name(QStringLiteral("writer_%1").arg(++s_count)), m_older(olderNames)
    {
        for (const QString &folder : findRankFolders(clusterRoot)) {
            const QString info = QDir(folder).entryList({QStringLiteral("profiler_info_*.json")}).value(0);
            m_rankFolders[info.mid(14, info.size() - 19).toInt()] = folder;
        }
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
        for (const auto &entry : m_rankFolders) {
            const int rank = entry.first;
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
    QString rankFolder(int rank) const { return m_rankFolders.at(rank); }
    QString outputFile(int rank, const char *name) const
    {
        return rankFolder(rank) + QStringLiteral("/ASCEND_PROFILER_OUTPUT/") + QLatin1String(name);
    }
    // Megatron's order, tp fastest (FORMATS.md §9.3), from distributed_args.
    int argument(const char *name) const { return std::max(1, m_args.value(QLatin1String(name)).toInt(1)); }

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
        for (const auto &entry : m_rankFolders) {
            const int rank = entry.first;
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
        // Stages: the ranks with the same place in their pp group.
        for (const auto &entry : m_groups)
            if (entry.second.name == QLatin1String("pp"))
                for (std::size_t i = 0; i < entry.second.ranks.size(); ++i)
                    m_stageOf[entry.second.ranks[i]] = static_cast<int>(i);
        m_args = readJson(rankFolder(m_rankFolders.begin()->first) +
                          QStringLiteral("/profiler_metadata.json"))[QLatin1String("distributed_args")]
                     .toObject();
    }

    void writeBaseInfo()
    {
        QJsonObject args = m_args;
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
            // Megatron order, tp fastest (FORMATS.md §9.3): dp, pp, tp index.
            const int tp = argument("tensor_model_parallel_size"), dp = argument("data_parallel_size");
            values << (rank / tp) % dp << rank / (tp * dp) << rank % tp;
            exec(QStringLiteral("INSERT INTO ClusterStepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
                 values);
            const auto stageOf = m_stageOf.find(rank);
            auto &stage =
                m_stageMax[{cell(QStringLiteral("Step")), stageOf != m_stageOf.end() ? stageOf->second : 0}];
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
            std::vector<int> ranks;
            for (const auto &[rank, folder] : m_rankFolders)
                if (const auto s = m_stageOf.find(rank);
                    s != m_stageOf.end() ? s->second == key.second : key.second == 0)
                    ranks.push_back(rank);
            QVariantList row{key.first, QStringLiteral("stage"), rankSetText(ranks)};
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
    std::map<int, QString> m_rankFolders; // rank id → folder
    std::map<int, int> m_stageOf;         // rank → its place in its pp group
    QJsonObject m_args;                   // distributed_args of the first rank
};

} // namespace

bool writeClusterAnalysisDb(const QString &clusterRoot, const QString &path, bool olderNames,
                            QStringList *errors)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    ClusterDbWriter writer(clusterRoot, path, olderNames);
    const bool ok = writer.write();
    if (errors)
        *errors = writer.errors();
    return ok;
}

} // namespace at::test
