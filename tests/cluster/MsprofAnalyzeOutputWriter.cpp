#include "MsprofAnalyzeOutputWriter.h"

#include "cluster/ClusterModel.h"
#include "cluster/ClusterNumbers.h"
#include "cluster/ClusterReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
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

void writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(text);
}

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readAll(path)).object();
}

// "(0, 2)", "(2,)": the Python repr of a rank tuple, msprof-analyze's key for a rank set.
QString tupleText(const std::vector<int> &ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return ranks.size() == 1 ? QStringLiteral("(%1,)").arg(parts.front())
                             : QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

// ms text → ns exactly, as the reader converts it; and back to ms for a sum written out.
std::int64_t msToNs(const QJsonValue &v)
{
    return parseDecimalToNs(QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest).toStdString(),
                            TimeUnit::Milliseconds)
        .value_or(0);
}

// The writer: the four files of cluster_analysis_output/ from the rank folders of a torch_npu cluster.
class OutputWriter
{
public:
    explicit OutputWriter(const QString &clusterRoot)
    {
        for (const QString &folder : findRankFolders(clusterRoot)) {
            const QDir dir(folder);
            const QString info = dir.entryList({QStringLiteral("profiler_info_*.json")}).value(0);
            const int rank = info.mid(14, info.size() - 19).toInt();
            m_rankFolders[rank] = folder;
            const QJsonObject meta = readJson(dir.filePath(QStringLiteral("profiler_metadata.json")));
            m_args = meta.value(QStringLiteral("distributed_args")).toObject();
            const QJsonObject groups = meta.value(QStringLiteral("parallel_group_info")).toObject();
            for (auto it = groups.begin(); it != groups.end(); ++it) {
                Group &g = m_groups[doubleHash(it.key())];
                g.name = it.value().toObject().value(QStringLiteral("group_name")).toString();
                g.ranks.clear();
                for (const QJsonValue &r :
                     it.value().toObject().value(QStringLiteral("global_ranks")).toArray())
                    g.ranks.push_back(r.toInt());
                std::sort(g.ranks.begin(), g.ranks.end());
            }
        }
    }

    // Writes the four files into folder; false on an error.
    bool write(const QString &folder, bool older = false)
    {
        QDir().mkpath(folder);
        return writeStepTrace(folder + QStringLiteral("/cluster_step_trace_time.csv"), older) &&
               writeCommunication(folder) &&
               writeGroups(folder + QStringLiteral("/communication_group.json"));
    }

private:
    struct Group
    {
        QString name;
        std::vector<int> ranks;
        bool p2p = false;
    };

    QString output(const QString &rankFolder, const char *file) const
    {
        return rankFolder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/") + QLatin1String(file);
    }

    // Rank rows (Index = rank id), the rank files' columns minus Step and Device_id, DP/PP/TP Index by
    // Megatron order; then one stage row per (step, stage): the column-wise maxima, parallel indices NA.
    // older: msprof-analyze's older variant (no Preparing, an empty Step, no parallel indices).
    bool writeStepTrace(const QString &path, bool older)
    {
        QStringList columns;
        std::map<int, std::vector<QStringList>> rows; // rank → its rows' cells (columns order)
        for (const auto &[rank, folder] : m_rankFolders) {
            const QStringList lines = QString::fromUtf8(readAll(output(folder, "step_trace_time.csv")))
                                          .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            const QStringList header = lines.value(0).trimmed().split(QLatin1Char(','));
            for (qsizetype l = 1; l < lines.size(); ++l) {
                const QStringList cells = lines[l].trimmed().split(QLatin1Char(','));
                QStringList row;
                QStringList names;
                for (qsizetype c = 0; c < header.size(); ++c) {
                    if (header[c] == QLatin1String("Device_id") ||
                        (older && header[c] == QLatin1String("Preparing")))
                        continue;
                    names << header[c];
                    row << (older && header[c] == QLatin1String("Step") ? QString() : cells.value(c));
                }
                columns = names;
                rows[rank].push_back(row);
            }
        }
        const qsizetype stepColumn = columns.indexOf(QStringLiteral("Step"));
        QStringList valueColumns = columns;
        valueColumns.removeAt(stepColumn);
        QString text = QStringLiteral("Step,Type,Index,") + valueColumns.join(QLatin1Char(','));
        const int tp = m_args.value(QStringLiteral("tensor_model_parallel_size")).toInt(1);
        const int dp = m_args.value(QStringLiteral("data_parallel_size")).toInt(1);
        if (!older)
            text += QStringLiteral(",DP Index,PP Index,TP Index");
        text += QLatin1Char('\n');
        const auto values = [&](const QStringList &row) {
            QStringList v = row;
            v.removeAt(stepColumn);
            return v.join(QLatin1Char(','));
        };
        for (const auto &[rank, list] : rows)
            for (const QStringList &row : list) {
                text += QStringLiteral("%1,rank,%2,%3").arg(row[stepColumn]).arg(rank).arg(values(row));
                if (!older)
                    text += QStringLiteral(",%1,%2,%3")
                                .arg((rank / tp) % dp)
                                .arg(rank / (tp * dp))
                                .arg(rank % tp);
                text += QLatin1Char('\n');
            }
        // Stages: the ranks with the same place in their pp group (its group_rank).
        std::map<int, std::vector<int>> stages;
        for (const auto &entry : m_groups)
            if (entry.second.name == QLatin1String("pp"))
                for (std::size_t i = 0; i < entry.second.ranks.size(); ++i)
                    stages[static_cast<int>(i)].push_back(entry.second.ranks[i]);
        for (auto &[stage, ranks] : stages) {
            if (older)
                break; // the older variant's stage rows came from older logic: the test writes its own
            std::sort(ranks.begin(), ranks.end());
            ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
            const std::size_t steps = rows[ranks.front()].size();
            for (std::size_t s = 0; s < steps; ++s) {
                QStringList maxima = rows[ranks.front()][s];
                for (int r : ranks)
                    for (qsizetype c = 0; c < maxima.size(); ++c)
                        if (c != stepColumn && rows[r][s][c].toDouble() > maxima[c].toDouble())
                            maxima[c] = rows[r][s][c];
                text += QStringLiteral("%1,stage,\"%2\",%3")
                            .arg(maxima[stepColumn], tupleText(ranks), values(maxima));
                if (!older)
                    text += QStringLiteral(",NA,NA,NA");
                text += QLatin1Char('\n');
            }
        }
        writeFile(path, text.toUtf8());
        return QFileInfo::exists(path);
    }

    // cluster_communication.json and cluster_communication_matrix.json: each rank's ops and links under
    // the rank set of their group, the ops with a per-rank "Total Op Info@<group>" (every time field
    // summed but the start, ratios and bandwidths recomputed), the links with global ranks.
    bool writeCommunication(const QString &folder)
    {
        QJsonObject comm, matrix;
        for (const auto &[rank, rankFolder] : m_rankFolders) {
            const QString rankKey = QString::number(rank);
            const QJsonObject ops = readJson(output(rankFolder, "communication.json"));
            for (auto step = ops.begin(); step != ops.end(); ++step) {
                std::map<QString, QJsonObject> totals; // group → this rank's total
                for (const QString &kind : {QStringLiteral("p2p"), QStringLiteral("collective")}) {
                    const QJsonObject byOp = step.value().toObject().value(kind).toObject();
                    for (auto op = byOp.begin(); op != byOp.end(); ++op) {
                        const QString group = op.key().section(QLatin1Char('@'), -1);
                        if (!op.key().contains(QLatin1Char('@')) || !m_groups.count(group))
                            continue; // the rank file's own "Total Op Info"
                        m_groups[group].p2p = m_groups[group].p2p || kind == QLatin1String("p2p");
                        insert(comm, {tupleText(m_groups[group].ranks), step.key(), op.key(), rankKey},
                               op.value());
                        addToTotal(totals[group], op.value().toObject());
                    }
                }
                for (auto &[group, total] : totals)
                    insert(comm,
                           {tupleText(m_groups[group].ranks), step.key(),
                            QStringLiteral("Total Op Info@") + group, rankKey},
                           finishTotal(total));
            }
            const QJsonObject links = readJson(output(rankFolder, "communication_matrix.json"));
            for (auto step = links.begin(); step != links.end(); ++step)
                for (const QJsonValue &kind : step.value().toObject()) {
                    const QJsonObject byOp = kind.toObject();
                    for (auto op = byOp.begin(); op != byOp.end(); ++op) {
                        const QString group = op.key().section(QLatin1Char('@'), -1);
                        const std::vector<int> &ranks = m_groups[group].ranks;
                        const QJsonObject local = op.value().toObject();
                        for (auto link = local.begin(); link != local.end(); ++link) {
                            const int src = ranks.at(link.key().section(QLatin1Char('-'), 0, 0).toUInt());
                            const int dst = ranks.at(link.key().section(QLatin1Char('-'), 1, 1).toUInt());
                            const QString global = QStringLiteral("%1-%2").arg(src).arg(dst);
                            insert(matrix, {tupleText(ranks), step.key(), op.key(), global}, link.value());
                            if (op.key().section(QLatin1Char('@'), 0, 0).endsWith(QLatin1String("-total")))
                                insert(matrix,
                                       {tupleText(ranks), step.key(),
                                        QStringLiteral("Total Op Info@") + group, global},
                                       link.value()); // one op type per link here: the sum is the link
                        }
                    }
                }
        }
        writeFile(folder + QStringLiteral("/cluster_communication.json"), QJsonDocument(comm).toJson());
        writeFile(folder + QStringLiteral("/cluster_communication_matrix.json"),
                  QJsonDocument(matrix).toJson());
        return true;
    }

    static void insert(QJsonObject &root, const QStringList &keys, const QJsonValue &value)
    {
        if (keys.size() == 1) {
            root.insert(keys.front(), value);
            return;
        }
        QJsonObject child = root.value(keys.front()).toObject();
        insert(child, keys.mid(1), value);
        root.insert(keys.front(), child);
    }

    // Sums in ns (exact), written back as ms.
    static void addToTotal(QJsonObject &total, const QJsonObject &op)
    {
        QJsonObject time = total.value(QStringLiteral("Communication Time Info")).toObject();
        const QJsonObject opTime = op.value(QStringLiteral("Communication Time Info")).toObject();
        for (const char *field : {"Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
                                  "Synchronization Time(ms)", "Idle Time(ms)"})
            time.insert(QLatin1String(field), double(msToNs(time.value(QLatin1String(field))) +
                                                     msToNs(opTime.value(QLatin1String(field)))) /
                                                  1e6);
        total.insert(QStringLiteral("Communication Time Info"), time);
        QJsonObject bandwidth = total.value(QStringLiteral("Communication Bandwidth Info")).toObject();
        const QJsonObject opBandwidth = op.value(QStringLiteral("Communication Bandwidth Info")).toObject();
        for (auto it = opBandwidth.begin(); it != opBandwidth.end(); ++it) {
            QJsonObject t = bandwidth.value(it.key()).toObject();
            const QJsonObject o = it.value().toObject();
            t.insert(QStringLiteral("Transit Size(MB)"),
                     t.value(QStringLiteral("Transit Size(MB)")).toDouble() +
                         o.value(QStringLiteral("Transit Size(MB)")).toDouble());
            t.insert(QStringLiteral("Transit Time(ms)"),
                     double(msToNs(t.value(QStringLiteral("Transit Time(ms)"))) +
                            msToNs(o.value(QStringLiteral("Transit Time(ms)")))) /
                         1e6);
            bandwidth.insert(it.key(), t);
        }
        total.insert(QStringLiteral("Communication Bandwidth Info"), bandwidth);
    }

    static QJsonObject finishTotal(QJsonObject total)
    {
        QJsonObject time = total.value(QStringLiteral("Communication Time Info")).toObject();
        const double wait = time.value(QStringLiteral("Wait Time(ms)")).toDouble();
        const double sync = time.value(QStringLiteral("Synchronization Time(ms)")).toDouble();
        const double transit = time.value(QStringLiteral("Transit Time(ms)")).toDouble();
        time.insert(QStringLiteral("Wait Time Ratio"), wait + transit > 0 ? wait / (wait + transit) : 0.0);
        time.insert(QStringLiteral("Synchronization Time Ratio"),
                    sync + transit > 0 ? sync / (sync + transit) : 0.0);
        total.insert(QStringLiteral("Communication Time Info"), time);
        QJsonObject bandwidth = total.value(QStringLiteral("Communication Bandwidth Info")).toObject();
        for (auto it = bandwidth.begin(); it != bandwidth.end(); ++it) {
            QJsonObject t = it.value().toObject();
            const double ms = t.value(QStringLiteral("Transit Time(ms)")).toDouble();
            t.insert(QStringLiteral("Bandwidth(GB/s)"),
                     ms > 0 ? t.value(QStringLiteral("Transit Size(MB)")).toDouble() / ms : 0.0);
            it.value() = t;
        }
        total.insert(QStringLiteral("Communication Bandwidth Info"), bandwidth);
        return total;
    }

    // {"collective": [[ranks]…], "p2p": [[…]], "comm_group_parallel_info": [{type, rank_set, group_name,
    // group_id, pg_name}]}.
    bool writeGroups(const QString &path)
    {
        QJsonArray collective, p2p, info;
        for (const auto &[hash, g] : m_groups) {
            QJsonArray ranks;
            for (int r : g.ranks)
                ranks.append(r);
            (g.p2p ? p2p : collective).append(ranks);
            info.append(QJsonObject{
                {QStringLiteral("type"), g.p2p ? QStringLiteral("p2p") : QStringLiteral("collective")},
                {QStringLiteral("rank_set"), ranks},
                {QStringLiteral("group_name"), hash},
                {QStringLiteral("group_id"), hash.right(3)},
                {QStringLiteral("pg_name"), g.name}});
        }
        writeFile(path, QJsonDocument(QJsonObject{{QStringLiteral("collective"), collective},
                                                  {QStringLiteral("p2p"), p2p},
                                                  {QStringLiteral("comm_group_parallel_info"), info}})
                            .toJson());
        return QFileInfo::exists(path);
    }

    std::map<int, QString> m_rankFolders;
    std::map<QString, Group> m_groups; // by hash
    QJsonObject m_args;
};

} // namespace

bool writeMsprofAnalyzeOutput(const QString &clusterRoot, const QString &outputFolder, bool older)
{
    return OutputWriter(clusterRoot).write(outputFolder, older);
}

} // namespace at::test
