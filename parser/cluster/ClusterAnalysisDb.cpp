#include "cluster/ClusterAnalysisDb.h"

#include "cluster/ClusterValues.h"
#include "cluster/CommunicationFields.h"
#include "sqlite/SqliteConnection.h"
#include "sqlite/SqliteRows.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace at::cluster {

namespace {

// Each kind of table under its current name and the name older msprof-analyze wrote (issue #32).
struct TableNames
{
    const char *current;
    const char *older;
};
constexpr TableNames kStepTable{"ClusterStepTraceTime", nullptr};
constexpr TableNames kTimeTable{"ClusterCommunicationTime", "ClusterCommAnalyzerTime"};
constexpr TableNames kBandwidthTable{"ClusterCommunicationBandwidth", "ClusterCommAnalyzerBandwidth"};
constexpr TableNames kMatrixTable{"ClusterCommunicationMatrix", "ClusterCommAnalyzerMatrix"};
constexpr TableNames kGroupTable{"CommunicationGroupMapping", "CommunicationGroup"};
constexpr TableNames kBaseInfoTable{"ClusterBaseInfo", nullptr};
constexpr TableNames kDeviceTable{"RankDeviceMap", nullptr};

bool hasSqliteMagic(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return file.read(16) == QByteArray("SQLite format 3\0", 16);
}

// The table of a kind present in the database (the current name first); empty when neither is.
QString tableOf(const QStringList &tables, const TableNames &names)
{
    if (tables.contains(QLatin1String(names.current)))
        return QLatin1String(names.current);
    if (names.older && tables.contains(QLatin1String(names.older)))
        return QLatin1String(names.older);
    return {};
}

QString tableNamesText(const TableNames &names)
{
    return names.older
               ? QStringLiteral("%1 / %2").arg(QLatin1String(names.current), QLatin1String(names.older))
               : QLatin1String(names.current);
}

// "step13" (the rank files' key), "13", or empty.
std::int64_t stepOf(const QString &text)
{
    bool ok = false;
    const std::int64_t plain = text.trimmed().toLongLong(&ok);
    return ok ? plain : stepFromKey(text.trimmed());
}

// "(0,2)", "(0, 2)", "(2,)", "[0, 2]" → 0, 2.
std::vector<int> ranksOfSet(const QString &text)
{
    static const QRegularExpression number(QStringLiteral("\\d+"));
    std::vector<int> ranks;
    for (auto it = number.globalMatch(text); it.hasNext();)
        if (const std::optional<int> rank = rankIdFromText(it.next().captured()))
            ranks.push_back(*rank);
    return ranks;
}

// Hashes a std::string key by a string_view of the bytes (lookups without a std::string).
struct TextHash
{
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// An op of ClusterCommunicationTime, as ClusterCommunicationBandwidth's rows name it: rank, step as stored,
// op name, group hash (compared as they are: a text key made of them per row cost two formatted strings).
struct OpKey
{
    int rank = -1;
    QString step, op, group;
    bool operator==(const OpKey &) const = default;
};

size_t qHash(const OpKey &key, size_t seed = 0)
{
    return qHashMulti(seed, key.rank, key.step, key.op, key.group);
}

// A rank id stored as the text "12" or "12.0" (msprof-analyze's matrix writes "0.0"), read without a QString;
// nullopt for any other text, which the caller then reads as before (the same ids: such a text is one that
// QString::toDouble reads as that whole number).
std::optional<int> plainRankText(std::optional<std::string_view> text)
{
    if (!text)
        return std::nullopt;
    const std::string_view digits = text->substr(0, text->find('.'));
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    if (digits.size() < text->size()) {
        const std::string_view fraction = text->substr(digits.size() + 1);
        if (fraction.empty() ||
            !std::all_of(fraction.begin(), fraction.end(), [](char c) { return c == '0'; }))
            return std::nullopt;
    }
    int id = 0;
    for (char c : digits)
        id = id * 10 + (c - '0');
    return id;
}

// The database's tables read one at a time into a ClusterModel.
class DatabaseReader
{
public:
    DatabaseReader(SqliteConnection &db, ClusterModel &model) : m_db(db), m_model(model) {}

    void read()
    {
        readBaseInfo();
        readGroups();
        readDevices();
        readSteps();
        readOps();
        readBandwidth();
        readMatrix();
        checkStages();
        for (auto &[id, rank] : m_ranks) {
            rank.rank = id;
            if (const auto device = m_devices.constFind(id); device != m_devices.constEnd())
                rank.device = device.value();
            rank.filesRead << m_db.path();
            m_model.ranks.push_back(std::move(rank));
        }
    }

private:
    void warn(const QString &text) { m_model.warnings << text; }

    Rank &rank(int id) { return m_ranks[id]; }

    // A TEXT cell as one shared QString per distinct text (op and group names, steps, transports repeat
    // on every rank), looked up by its bytes: no string made per row. Any other storage as text().
    QString interned(const SqliteRow &q, int column)
    {
        const std::optional<std::string_view> bytes = q.storedText(column);
        if (!bytes)
            return q.text(column);
        const auto it = m_texts.find(*bytes);
        if (it != m_texts.end())
            return it->second;
        return m_texts.emplace(std::string(*bytes), q.text(column)).first->second;
    }

    // The step of a step cell ("step13", "13"), read once per distinct text.
    std::int64_t step(const SqliteRow &q, int column)
    {
        const std::optional<std::string_view> bytes = q.storedText(column);
        if (!bytes)
            return stepOf(q.text(column));
        const auto it = m_steps.find(*bytes);
        if (it != m_steps.end())
            return it->second;
        return m_steps.emplace(std::string(*bytes), stepOf(q.text(column))).first->second;
    }

    // Every row of a kind's table with the columns asked for, by position. A missing table is named in a
    // warning when `needed`; a missing column reads as NULL and is named once. False when there is no
    // such table or its query failed (warned).
    bool forEachRow(const TableNames &names, const QStringList &columns, bool needed,
                    const std::function<void(const SqliteRow &)> &perRow)
    {
        const QString table = tableOf(m_db.tables(), names);
        if (table.isEmpty()) {
            if (needed)
                warn(QCoreApplication::translate("Parser", "%1: no %2 table; what it holds is not shown")
                         .arg(m_db.path(), tableNamesText(names)));
            return false;
        }
        const QStringList present = m_db.columns(table);
        QStringList select, missing;
        for (const QString &column : columns) {
            if (present.contains(column)) {
                select << QStringLiteral("\"%1\"").arg(column);
            } else {
                select << QStringLiteral("NULL");
                missing << column;
            }
        }
        if (!missing.isEmpty())
            warn(QCoreApplication::translate("Parser", "%1: table %2 has no column %3; read as empty")
                     .arg(m_db.path(), table, missing.join(QLatin1String(", "))));
        // Through SQLite's API (SqliteRows.h): QSqlQuery made a QVariant of every cell.
        QString error, endError;
        if (!forEachSqliteRow(
                m_db, QStringLiteral("SELECT %1 FROM \"%2\"").arg(select.join(QLatin1String(", ")), table),
                perRow, &error, &endError)) {
            warn(QCoreApplication::translate("Parser", "%1: table %2 could not be read (%3)")
                     .arg(m_db.path(), table, error));
            return false;
        }
        if (!endError.isEmpty())
            warn(QCoreApplication::translate("Parser", "%1: table %2 could not be read to its end (%3)")
                     .arg(m_db.path(), table, endError));
        return true;
    }

    // A REAL that is not finite is read as 0 and counted (a JSON output cannot hold it).
    double finite(double d)
    {
        if (std::isfinite(d))
            return d;
        ++m_nonFinite;
        return 0;
    }

    void readBaseInfo()
    {
        forEachRow(kBaseInfoTable, {QStringLiteral("key"), QStringLiteral("value")}, false,
                   [&](const SqliteRow &q) {
                       if (q.text(0) != QLatin1String("distributed_args"))
                           return;
                       const QJsonObject args = QJsonDocument::fromJson(q.text(1).toUtf8()).object();
                       if (args.isEmpty()) {
                           warn(QCoreApplication::translate(
                                    "Parser", "%1: ClusterBaseInfo distributed_args is not a JSON object")
                                    .arg(m_db.path()));
                           return;
                       }
                       DistributedArgs &d = m_model.distributed;
                       d.present = true;
                       d.tp = args.value(QLatin1String("tensor_model_parallel_size")).toInt(1);
                       d.pp = args.value(QLatin1String("pipeline_model_parallel_size")).toInt(1);
                       d.dp = args.value(QLatin1String("data_parallel_size")).toInt(1);
                       d.cp = args.value(QLatin1String("context_parallel_size")).toInt(1);
                       d.ep = args.value(QLatin1String("expert_model_parallel_size")).toInt(1);
                       d.worldSize = args.value(QLatin1String("world_size")).toInt(0);
                   });
    }

    void readGroups()
    {
        QSet<QString> hashes;
        forEachRow(kGroupTable,
                   {QStringLiteral("type"), QStringLiteral("rank_set"), QStringLiteral("group_name"),
                    QStringLiteral("group_id"), QStringLiteral("pg_name")},
                   true, [&](const SqliteRow &q) {
                       ParallelGroup g;
                       g.hash = q.text(2);
                       g.key = q.text(3);
                       g.name = q.text(4);
                       g.globalRanks = ranksOfSet(q.text(1));
                       std::sort(g.globalRanks.begin(), g.globalRanks.end());
                       m_groupType.insert(g.hash, q.text(0));
                       if (g.hash.isEmpty() || hashes.contains(g.hash))
                           return;
                       hashes.insert(g.hash);
                       m_model.groups.push_back(std::move(g));
                   });
    }

    void readDevices()
    {
        forEachRow(kDeviceTable, {QStringLiteral("rankId"), QStringLiteral("deviceId")}, false,
                   [&](const SqliteRow &q) {
                       bool rankOk = false, deviceOk = false;
                       const int rankId = q.value(0).toInt(&rankOk);
                       const int device = q.value(1).toInt(&deviceOk);
                       if (rankOk && deviceOk && rankId >= 0 && device >= 0)
                           m_devices.insert(rankId, device);
                   });
    }

    // A rank id as stored (INTEGER, TEXT or REAL "0.0"); nullopt (with the row counted) when it is none.
    std::optional<int> rankId(const SqliteRow &row, int column, RejectedRecords &rejected,
                              const std::function<QString()> &where)
    {
        if (row.isInteger(column)) { // the usual storage, read without a text
            const std::int64_t id = row.storedInteger(column);
            if (id >= 0 && id <= INT_MAX)
                return static_cast<int>(id);
        }
        if (const std::optional<int> id = plainRankText(row.storedText(column)))
            return id;
        const QString text = row.text(column).trimmed();
        bool ok = false;
        const double number = text.toDouble(&ok);
        if (ok && number >= 0 && number <= INT_MAX && number == std::floor(number))
            return static_cast<int>(number);
        rejected.reject(ValueProblem::NotANumber, where(), QStringLiteral("rank"), text);
        return std::nullopt;
    }

    // ClusterStepTraceTime: `rank` rows become the ranks' steps; `stage` rows are kept for the check.
    void readSteps()
    {
        // The breakdown columns (µs), in the order of kStepFields.
        static constexpr StepField kColumns[] = {
            {"computing", &RankStep::computing},
            {"communication_not_overlapped", &RankStep::communicationNotOverlapped},
            {"overlapped", &RankStep::overlapped},
            {"communication", &RankStep::communication},
            {"free", &RankStep::free},
            {"stage", &RankStep::stage},
            {"bubble", &RankStep::bubble},
            {"communication_not_overlapped_and_exclude_receive",
             &RankStep::communicationNotOverlappedExcludeReceive},
            {"preparing", &RankStep::preparing},
        };
        QStringList columns{QStringLiteral("step"), QStringLiteral("type"), QStringLiteral("index")};
        for (const StepField &c : kColumns)
            columns << QLatin1String(c.column);
        RejectedRecords rejected(m_db.path(), RecordKind::Row);
        int row = 0;
        forEachRow(kStepTable, columns, true, [&](const SqliteRow &q) {
            ++row;
            const QString type = q.text(1).trimmed();
            const std::function<QString()> where = [row] {
                return QCoreApplication::translate("Parser", "ClusterStepTraceTime row %1").arg(row);
            };
            if (type == QLatin1String("stage")) {
                std::vector<int> ranks = ranksOfSet(q.text(2));
                std::sort(ranks.begin(), ranks.end());
                m_stageRows.insert(ranks);
                return;
            }
            if (type != QLatin1String("rank"))
                return;
            const std::optional<int> id = rankId(q, 2, rejected, where);
            if (!id)
                return;
            RankStep s;
            s.source = BreakdownSource::ClusterAnalysisDatabase;
            s.step = stepOf(q.text(0));
            RecordTimes times(rejected, where);
            std::vector<std::pair<std::string_view, TimeNs>> values;
            for (std::size_t i = 0; i < std::size(kColumns); ++i) {
                const StepField &c = kColumns[i];
                s.*c.member =
                    times.time(q.numberText(static_cast<int>(i) + 3), TimeUnit::Microseconds, c.column);
                values.emplace_back(c.column, s.*c.member);
            }
            if (times.rejected())
                return;
            s.hasPreparing = !q.isNull(static_cast<int>(std::size(kColumns)) + 2);
            if (const auto overflow = m_stepTotals[*id].add(values)) {
                times.reject(ValueProblem::TotalOverflows, *overflow, QString());
                return;
            }
            rank(*id).steps.push_back(s);
        });
        m_model.warnings << rejected.warnings();
    }

    void readOps()
    {
        RejectedRecords rejected(m_db.path(), RecordKind::Op);
        forEachRow(
            kTimeTable,
            {QStringLiteral("step"), QStringLiteral("rank_id"), QStringLiteral("hccl_op_name"),
             QStringLiteral("group_name"), QStringLiteral("start_timestamp"), QStringLiteral("elapsed_time"),
             QStringLiteral("transit_time"), QStringLiteral("wait_time"),
             QStringLiteral("synchronization_time"), QStringLiteral("idle_time"),
             QStringLiteral("synchronization_time_ratio"), QStringLiteral("wait_time_ratio")},
            true, [&](const SqliteRow &q) {
                CommOp op;
                op.name = interned(q, 2);
                op.group = interned(q, 3);
                const std::function<QString()> where = [&op, &q] {
                    return QCoreApplication::translate("Parser", "op %1@%2 of rank %3")
                        .arg(op.name, op.group, q.text(1));
                };
                const std::optional<int> id = rankId(q, 1, rejected, where);
                if (!id)
                    return;
                op.step = step(q, 0);
                op.total = op.name == QLatin1String("Total Op Info");
                const auto type = m_groupType.constFind(op.group);
                op.p2p = type != m_groupType.constEnd() ? type.value() == QLatin1String("p2p")
                                                        : isP2pOpName(op.name);
                RecordTimes times(rejected, where);
                op.startAbsolute =
                    times.time(q.numberText(4), TimeUnit::Microseconds, "start_timestamp", true);
                op.elapse = times.time(q.numberText(5), TimeUnit::Milliseconds, "elapsed_time");
                op.transit = times.time(q.numberText(6), TimeUnit::Milliseconds, "transit_time");
                op.wait = times.time(q.numberText(7), TimeUnit::Milliseconds, "wait_time");
                op.synchronization =
                    times.time(q.numberText(8), TimeUnit::Milliseconds, "synchronization_time");
                op.idle = times.time(q.numberText(9), TimeUnit::Milliseconds, "idle_time");
                op.synchronizationRatio = finite(q.real(10));
                op.waitRatio = finite(q.real(11));
                if (times.rejected())
                    return;
                if (const auto overflow = m_opTotals[*id].add({{"elapsed_time", op.elapse},
                                                               {"transit_time", op.transit},
                                                               {"wait_time", op.wait},
                                                               {"synchronization_time", op.synchronization},
                                                               {"idle_time", op.idle}})) {
                    times.reject(ValueProblem::TotalOverflows, *overflow, QString());
                    return;
                }
                Rank &r = rank(*id);
                m_opIndex[{*id, interned(q, 0), op.name, op.group}] = r.ops.size();
                r.ops.push_back(std::move(op));
            });
        m_model.warnings << rejected.warnings();
    }

    // One row per (op, transport, packet-size bucket): the first row of a transport gives its sums, each
    // row with a count adds a bucket (SDMA rows have package_size 0 and count 0).
    void readBandwidth()
    {
        RejectedRecords rejected(m_db.path(), RecordKind::Row);
        int row = 0;
        forEachRow(
            kBandwidthTable,
            {QStringLiteral("step"), QStringLiteral("rank_id"), QStringLiteral("hccl_op_name"),
             QStringLiteral("group_name"), QStringLiteral("band_type"), QStringLiteral("transit_size"),
             QStringLiteral("transit_time"), QStringLiteral("bandwidth"),
             QStringLiteral("large_packet_ratio"), QStringLiteral("package_size"), QStringLiteral("count"),
             QStringLiteral("total_duration")},
            true, [&](const SqliteRow &q) {
                ++row;
                const std::function<QString()> where = [row] {
                    return QCoreApplication::translate("Parser", "%1 row %2")
                        .arg(QLatin1String(kBandwidthTable.current))
                        .arg(row);
                };
                const std::optional<int> id = rankId(q, 1, rejected, where);
                if (!id)
                    return;
                const auto found = m_opIndex.constFind({*id, interned(q, 0), interned(q, 2), interned(q, 3)});
                if (found == m_opIndex.constEnd())
                    return; // the op itself was not read
                RecordTimes times(rejected, where);
                const TimeNs transitTime =
                    times.time(q.numberText(6), TimeUnit::Milliseconds, "transit_time");
                const TimeNs duration =
                    times.time(q.numberText(11), TimeUnit::Milliseconds, "total_duration");
                if (times.rejected())
                    return;
                CommOp &op = m_ranks[*id].ops[found.value()];
                const QString transport = interned(q, 4);
                auto it = std::find_if(op.bandwidth.begin(), op.bandwidth.end(),
                                       [&](const TransportBandwidth &b) { return b.transport == transport; });
                const std::int64_t count = q.integer(10);
                std::vector<std::pair<std::string_view, TimeNs>> added;
                if (it == op.bandwidth.end())
                    added.emplace_back("transport transit_time", transitTime);
                if (count > 0)
                    added.emplace_back("total_duration", duration);
                if (const auto overflow = m_opTotals[*id].add(added)) {
                    times.reject(ValueProblem::TotalOverflows, *overflow, QString());
                    return;
                }
                if (it == op.bandwidth.end()) {
                    TransportBandwidth b;
                    b.transport = transport;
                    b.sizeMb = finite(q.real(5));
                    b.time = transitTime;
                    if (!q.isNull(7))
                        b.bandwidthGbps = finite(q.real(7));
                    b.largePacketRatio = finite(q.real(8));
                    op.bandwidth.push_back(std::move(b));
                    it = op.bandwidth.end() - 1;
                }
                if (count > 0)
                    it->sizes.push_back({finite(q.real(9)), count, duration});
            });
        m_model.warnings << rejected.warnings();
    }

    // Links with global src/dst; each goes to its src rank (the rank that reported it, as in the rank
    // files), and its group-local ranks are found from the group (as written when the group is unknown).
    void readMatrix()
    {
        QHash<QString, const ParallelGroup *> groups;
        for (const ParallelGroup &g : m_model.groups)
            groups.insert(g.hash, &g);
        RejectedRecords rejected(m_db.path(), RecordKind::Link);
        int row = 0;
        forEachRow(kMatrixTable,
                   {QStringLiteral("step"), QStringLiteral("hccl_op_name"), QStringLiteral("group_name"),
                    QStringLiteral("src_rank"), QStringLiteral("dst_rank"), QStringLiteral("transport_type"),
                    QStringLiteral("transit_size"), QStringLiteral("transit_time"),
                    QStringLiteral("bandwidth"), QStringLiteral("op_name")},
                   true, [&](const SqliteRow &q) {
                       ++row;
                       const std::function<QString()> where = [row] {
                           return QCoreApplication::translate("Parser", "%1 row %2")
                               .arg(QLatin1String(kMatrixTable.current))
                               .arg(row);
                       };
                       const std::optional<int> src = rankId(q, 3, rejected, where);
                       const std::optional<int> dst = src ? rankId(q, 4, rejected, where) : std::nullopt;
                       if (!src || !dst)
                           return;
                       MatrixLink link;
                       link.step = step(q, 0);
                       link.opKey = interned(q, 1);
                       link.group = interned(q, 2);
                       link.src = *src;
                       link.dst = *dst;
                       const ParallelGroup *g = groups.value(link.group, nullptr);
                       const auto local = [g](int global) {
                           if (!g)
                               return global;
                           const auto at = std::find(g->globalRanks.begin(), g->globalRanks.end(), global);
                           return at == g->globalRanks.end() ? global
                                                             : static_cast<int>(at - g->globalRanks.begin());
                       };
                       link.srcLocal = local(link.src);
                       link.dstLocal = local(link.dst);
                       link.transport = interned(q, 5);
                       link.sizeMb = finite(q.real(6));
                       RecordTimes times(rejected, where);
                       link.time = times.time(q.numberText(7), TimeUnit::Milliseconds, "transit_time");
                       link.bandwidthGbps = finite(q.real(8));
                       link.opName = interned(q, 9);
                       if (times.rejected())
                           return;
                       if (const auto overflow = m_linkTotals[link.src].add({{"transit_time", link.time}})) {
                           times.reject(ValueProblem::TotalOverflows, *overflow, QString());
                           return;
                       }
                       rank(link.src).links.push_back(std::move(link));
                   });
        m_model.warnings << rejected.warnings();
        if (m_nonFinite > 0)
            warn(QCoreApplication::translate(
                     "Parser", "%1: %n value(s) that are not finite numbers read as 0", nullptr, m_nonFinite)
                     .arg(m_db.path()));
    }

    // The stage rows' rank sets against the stages of the pp groups (a rank's stage: its index in its pp
    // group, FORMATS.md §9.3): msprof-analyze derives both from the same groups, so a difference means
    // the file was edited or written by another version; the page uses the pp groups.
    void checkStages()
    {
        if (m_stageRows.empty())
            return;
        std::set<std::vector<int>> derived;
        for (const auto &entry : pipelineStages(m_model))
            derived.insert(entry.second);
        if (derived == m_stageRows)
            return;
        const auto text = [](const std::set<std::vector<int>> &sets) {
            QStringList out;
            for (const std::vector<int> &ranks : sets) {
                QStringList ids;
                for (int r : ranks)
                    ids << QString::number(r);
                out << QStringLiteral("(%1)").arg(ids.join(QLatin1Char(',')));
            }
            return out.isEmpty() ? QStringLiteral("-") : out.join(QLatin1Char(' '));
        };
        warn(QCoreApplication::translate("Parser",
                                         "%1: the stage rows of ClusterStepTraceTime name the stages "
                                         "%2, the pp groups give %3; the pp groups are used")
                 .arg(m_db.path(), text(m_stageRows), text(derived)));
    }

    SqliteConnection &m_db;
    ClusterModel &m_model;
    std::map<int, Rank> m_ranks;                                      // by rank id
    QHash<int, int> m_devices;                                        // RankDeviceMap
    QHash<QString, QString> m_groupType;                              // group hash → "collective" / "p2p"
    QHash<OpKey, std::size_t> m_opIndex;                              // → index in its rank's ops
    std::map<int, RankTotals> m_stepTotals, m_opTotals, m_linkTotals; // per rank (ClusterValues.h)
    std::set<std::vector<int>> m_stageRows;
    int m_nonFinite = 0;
    std::unordered_map<std::string, QString, TextHash, std::equal_to<>> m_texts;      // interned()
    std::unordered_map<std::string, std::int64_t, TextHash, std::equal_to<>> m_steps; // step()
};

} // namespace

bool isClusterAnalysisDatabase(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isFile() || !hasSqliteMagic(path))
        return false;
    SqliteConnection db(path);
    if (!db.isOpen())
        return false;
    const QStringList tables = db.tables();
    return !tableOf(tables, kStepTable).isEmpty() || !tableOf(tables, kTimeTable).isEmpty();
}

QString findClusterAnalysisDatabase(const QString &path)
{
    const QFileInfo info(path);
    if (info.isFile()) // by its tables; by its name too, so that a damaged one is named in a warning
        return isClusterAnalysisDatabase(path) || info.fileName() == QLatin1String(kClusterAnalysisDbName)
                   ? info.absoluteFilePath()
                   : QString();
    if (!info.isDir())
        return {};
    const QDir dir(info.absoluteFilePath());
    for (const QString &candidate :
         {dir.filePath(QLatin1String(kClusterAnalysisDbName)),
          dir.filePath(
              QStringLiteral("cluster_analysis_output/%1").arg(QLatin1String(kClusterAnalysisDbName)))})
        if (QFileInfo(candidate).isFile())
            return candidate; // read (and its problems named) even when it is not a database
    return {};
}

QString clusterFolderOfDatabase(const QString &databasePath)
{
    const QDir folder = QFileInfo(databasePath).absoluteDir();
    if (folder.dirName() == QLatin1String("cluster_analysis_output")) {
        QDir above = folder;
        if (above.cdUp())
            return above.absolutePath();
    }
    return folder.absolutePath();
}

bool readClusterAnalysisDatabase(const QString &path, ClusterModel &model)
{
    SqliteConnection db(path);
    if (!db.isOpen()) {
        model.warnings << QCoreApplication::translate("Parser", "%1; not read as msprof-analyze's cluster "
                                                                "database")
                              .arg(db.error());
        return false;
    }
    const QStringList tables = db.tables();
    if (tableOf(tables, kStepTable).isEmpty() && tableOf(tables, kTimeTable).isEmpty()) {
        model.warnings << QCoreApplication::translate(
                              "Parser",
                              "%1: holds neither ClusterStepTraceTime nor ClusterCommunicationTime; not "
                              "an msprof-analyze cluster database")
                              .arg(path);
        return false;
    }
    DatabaseReader(db, model).read();
    return true;
}

} // namespace at::cluster
