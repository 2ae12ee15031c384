#include "cluster/ClusterReader.h"

#include "CheckedTime.h"
#include "LoadMemoryGuard.h"
#include "cluster/ClusterAnalysisDb.h"
#include "cluster/ClusterNumbers.h"
#include "cluster/ClusterValues.h"
#include "cluster/CommunicationFields.h"
#include "cluster/GpuRankReader.h"
#include "cluster/JsonTree.h"
#include "cluster/MoeLoadReader.h"
#include "cluster/MsprofAnalyzeOutput.h"
#include "cluster/PreparedSummary.h"
#include "csv/CsvReader.h"
#include "csv/CsvValues.h"
#include "memory/MemoryTablesReader.h"
#include "sqlite/DbClusterTables.h"
#include "sqlite/DbMemoryReader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

namespace at::cluster {

namespace {

constexpr int kMaxDepth = 5; // msprof-analyze walks five levels (FORMATS.md §9.1)

bool isRankFolderName(const QString &name)
{
    return name.endsWith(QLatin1String("ascend_pt")) || name.endsWith(QLatin1String("ascend_ms"));
}

// Symbolic links: a link named like a rank folder that leads to a folder is read as that rank folder (a user
// gathering ranks from several places into one cluster folder expects them read) and named in a warning
// with its target; one that leads nowhere is skipped with a warning. Other linked folders are not
// searched (a link back up the tree would be walked again and again) and are not named.
void collectRankFolders(const QDir &dir, int depth, QStringList &out, QStringList *warnings)
{
    if (depth > kMaxDepth)
        return;
    const QFileInfoList entries =
        dir.entryInfoList(QDir::Dirs | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &entry : entries) {
        const bool rankName = isRankFolderName(entry.fileName());
        if (entry.isSymLink()) {
            if (!rankName)
                continue;
            if (entry.isDir()) {
                out << entry.absoluteFilePath();
                if (warnings)
                    *warnings << QCoreApplication::translate(
                                     "Parser", "%1 is a symbolic link to %2; read as a rank folder")
                                     .arg(entry.absoluteFilePath(), entry.symLinkTarget());
            } else if (warnings) {
                *warnings << QCoreApplication::translate(
                                 "Parser", "%1 is a symbolic link to %2, which is not a folder; skipped")
                                 .arg(entry.absoluteFilePath(), entry.symLinkTarget());
            }
            continue;
        }
        if (!entry.isDir())
            continue;
        if (rankName)
            out << entry.absoluteFilePath();
        else if (!entry.fileName().startsWith(QLatin1String("PROF_")))
            collectRankFolders(QDir(entry.absoluteFilePath()), depth + 1, out, warnings);
    }
}

// The rank of a folder: profiler_info_<N>.json's N (what msprof-analyze uses), else the database's
// suffix, else distributed_args.rank, else rank_id inside profiler_info. A rank id beyond int
// (profiler_info_99999999999.json) used to wrap to another rank and push the real one out: the folder's
// rank is then unknown, no other source is asked, and the folder is skipped with `problem`.
struct RankIdentity
{
    int rank = -1;
    QString profilerInfo;
    QString database; // ascend_pytorch_profiler[_<N>].db
    QString problem;  // the rank id written is out of range: the folder is skipped with this
};

QString rankOutOfRange(const QString &file, const QString &id)
{
    return QCoreApplication::translate("Parser", "%1: the rank id %2 is beyond the largest rank id (%3); "
                                                 "folder skipped")
        .arg(file, id)
        .arg(INT_MAX);
}

RankIdentity identify(const QString &folder)
{
    RankIdentity id;
    static const QRegularExpression infoName(QStringLiteral("^profiler_info_(\\d+)\\.json$"));
    static const QRegularExpression dbName(QStringLiteral("^ascend_pytorch_profiler(?:_(\\d+))?\\.db$"));
    for (const QString &name : QDir(folder).entryList({QStringLiteral("profiler_info*.json")}, QDir::Files)) {
        id.profilerInfo = QDir(folder).filePath(name);
        const auto m = infoName.match(name);
        if (m.hasMatch()) {
            const std::optional<int> rank = rankIdFromText(m.captured(1));
            if (!rank)
                id.problem = rankOutOfRange(id.profilerInfo, m.captured(1));
            id.rank = rank.value_or(-1);
            break;
        }
    }
    const QDir output(QDir(folder).filePath(QStringLiteral("ASCEND_PROFILER_OUTPUT")));
    for (const QString &name :
         output.entryList({QStringLiteral("ascend_pytorch_profiler*.db")}, QDir::Files)) {
        const auto m = dbName.match(name);
        if (!m.hasMatch())
            continue;
        id.database = output.filePath(name);
        if (id.rank < 0 && id.problem.isEmpty() && !m.captured(1).isEmpty()) {
            const std::optional<int> rank = rankIdFromText(m.captured(1));
            if (!rank)
                id.problem = rankOutOfRange(id.database, m.captured(1));
            id.rank = rank.value_or(-1);
        }
    }
    return id;
}

// "step13" → 13 for the keys of one file, converted once per step rather than once per op.
class StepKeys
{
public:
    std::int64_t step(const std::string &key)
    {
        if (key != m_key) {
            m_key = key;
            m_step = stepFromKey(QString::fromStdString(key));
        }
        return m_step;
    }

private:
    std::string m_key;
    std::int64_t m_step = kNoStep;
};

} // namespace

class GroupRanksMemo
{
public:
    // The sorted ranks of the list of this key with exactly this text, or null.
    const std::vector<int> *find(const std::string &key, std::string_view text) const
    {
        const auto it = m_lists.find(key);
        return it != m_lists.end() && it->second.text == text ? &it->second.ranks : nullptr;
    }
    // The first text read for a key is the one remembered.
    void remember(const std::string &key, std::string text, const std::vector<int> &ranks)
    {
        m_lists.try_emplace(key, List{std::move(text), ranks});
    }

private:
    struct List
    {
        std::string text;
        std::vector<int> ranks;
    };
    std::unordered_map<std::string, List> m_lists;
};

namespace {

// The global_ranks lists of one profiler_metadata.json: those the memo knows are not converted again.
class GroupRanksFilter
{
public:
    explicit GroupRanksFilter(GroupRanksMemo *memo) : m_memo(memo) {}

    JsonArrayFilter filter()
    {
        if (!m_memo)
            return {};
        return [this](const std::vector<std::string> &keys, std::string_view text) {
            if (keys.size() != 3 || keys[0] != "parallel_group_info" || keys[2] != "global_ranks" ||
                m_texts.count(keys[1]) != 0)
                return false; // a key listed twice: only its first list (the one used) is looked up
            m_texts.emplace(keys[1], std::string(text));
            if (const std::vector<int> *ranks = m_memo->find(keys[1], text)) {
                m_known.emplace(keys[1], ranks);
                return true;
            }
            return false;
        };
    }
    // The memo's sorted ranks for the key's list, or null when the list was converted.
    const std::vector<int> *known(const std::string &key) const
    {
        const auto it = m_known.find(key);
        return it != m_known.end() ? it->second : nullptr;
    }
    void remember(const std::string &key, const std::vector<int> &ranks)
    {
        if (const auto it = m_texts.find(key); m_memo && it != m_texts.end())
            m_memo->remember(key, it->second, ranks);
    }

private:
    GroupRanksMemo *m_memo;
    std::unordered_map<std::string, std::string> m_texts; // the first list of each key in this file
    std::unordered_map<std::string, const std::vector<int> *> m_known;
};

class RankReader
{
public:
    RankReader(RankSummary &summary, std::uint64_t memoryLimitBytes, GroupRanksMemo *memo)
        : m_rank(summary.rank), m_model(summary), m_memoryLimit(memoryLimitBytes), m_memo(memo)
    {}

    void read(const RankIdentity &id)
    {
        const QDir folder(m_rank.folder);
        const QDir output(folder.filePath(QStringLiteral("ASCEND_PROFILER_OUTPUT")));
        m_database = id.database;
        if (!id.profilerInfo.isEmpty())
            readProfilerInfo(id.profilerInfo);
        readMetadata(folder.filePath(QStringLiteral("profiler_metadata.json")));
        const QString analysisDb = output.filePath(QStringLiteral("analysis.db"));
        const bool hasAnalysisDb = QFileInfo::exists(analysisDb);
        if (!readStepTraceCsv(output.filePath(QStringLiteral("step_trace_time.csv"))) && hasAnalysisDb)
            readAnalysisSteps(analysisDb);
        if (m_rank.steps.empty() && !m_database.isEmpty())
            readProfilerDbSteps(m_database);
        if (!readCommunicationJson(output.filePath(QStringLiteral("communication.json"))) && hasAnalysisDb)
            readAnalysisCommunication(analysisDb);
        if (!readMatrixJson(output.filePath(QStringLiteral("communication_matrix.json"))) && hasAnalysisDb)
            readAnalysisMatrix(analysisDb);
        m_rank.hasTimeline = QFileInfo::exists(output.filePath(QStringLiteral("trace_view.json"))) ||
                             !m_database.isEmpty() ||
                             QFileInfo::exists(output.filePath(QStringLiteral("kernel_details.csv")));
        readMemoryPeak(output);
    }

private:
    void warn(const QString &text) { m_model.warnings << text; }
    void noteRead(const QString &path) { m_rank.filesRead << path; }

    void readProfilerInfo(const QString &path)
    {
        JsonNode root;
        QString error;
        if (!readJsonFile(path, root, &error)) {
            warn(error);
            return;
        }
        noteRead(path);
        const long long inside = root["rank_id"].toInt(-1); // "0" string or 0 int: accept both
        if (inside > INT_MAX) {
            warn(QCoreApplication::translate("Parser", "%1: rank_id %2 is beyond the largest rank id (%3); "
                                                       "not used")
                     .arg(path)
                     .arg(inside)
                     .arg(INT_MAX));
        } else if (m_rank.rank < 0 && inside >= 0) {
            m_rank.rank = static_cast<int>(inside);
        }
    }

    void readMetadata(const QString &path)
    {
        if (!QFileInfo::exists(path))
            return;
        JsonNode root;
        QString error;
        GroupRanksFilter lists(m_memo);
        if (!readJsonFile(path, root, &error, lists.filter())) {
            warn(error);
            return;
        }
        noteRead(path);
        const JsonNode &args = root["distributed_args"];
        if (args.isObject()) {
            DistributedArgs &d = m_model.distributed;
            d.present = true;
            d.tp = static_cast<int>(args["tensor_model_parallel_size"].toInt(1));
            d.pp = static_cast<int>(args["pipeline_model_parallel_size"].toInt(1));
            d.dp = static_cast<int>(args["data_parallel_size"].toInt(1));
            d.cp = static_cast<int>(args["context_parallel_size"].toInt(1));
            d.ep = static_cast<int>(args["expert_model_parallel_size"].toInt(1));
            d.worldSize = static_cast<int>(args["world_size"].toInt(0));
            const long long rank = args["rank"].toInt(-1);
            if (rank > INT_MAX)
                warn(QCoreApplication::translate("Parser",
                                                 "%1: distributed_args.rank %2 is beyond the largest "
                                                 "rank id (%3); not used")
                         .arg(path)
                         .arg(rank)
                         .arg(INT_MAX));
            else if (m_rank.rank < 0 && rank >= 0)
                m_rank.rank = static_cast<int>(rank);
            else if (rank >= 0 && rank != m_rank.rank)
                warn(QCoreApplication::translate("Parser",
                                                 "%1: distributed_args.rank is %2 but the folder is rank %3")
                         .arg(path)
                         .arg(rank)
                         .arg(m_rank.rank));
        }
        const JsonNode &groups = root["parallel_group_info"];
        for (const auto &[key, info] : groups.members) {
            const QString qkey = QString::fromStdString(key);
            if (m_groupKeys.contains(qkey))
                continue; // each key once (the first wins); a set, as 100,000 groups made a scan quadratic
            m_groupKeys.insert(qkey);
            ParallelGroup g;
            g.key = qkey;
            g.hash = doubleHash(qkey);
            g.name = info["group_name"].string();
            if (const std::vector<int> *known = lists.known(key)) {
                g.globalRanks = *known;
            } else {
                for (const JsonNode &r : info["global_ranks"].items)
                    g.globalRanks.push_back(static_cast<int>(r.toInt(-1)));
                std::sort(g.globalRanks.begin(), g.globalRanks.end());
                lists.remember(key, g.globalRanks);
            }
            m_model.groups.push_back(std::move(g));
        }
    }

    // step_trace_time.csv (FORMATS.md §9.2), times µs → ns from the decimal text.
    bool readStepTraceCsv(const QString &path)
    {
        if (!QFileInfo::exists(path))
            return false;
        const CsvTable table = CsvReader().readFile(path);
        for (const CsvIssue &issue : table.issues()) {
            // A file that cannot be opened (a FIFO named like the table, say) is named with the reason.
            if (issue.kind == CsvIssue::Kind::FileError && issue.isError()) {
                warn(QCoreApplication::translate("Parser", "%1; step breakdown not read").arg(issue.message));
                return false;
            }
        }
        const int computing = table.column("Computing");
        if (computing < 0 || table.isEmpty()) {
            warn(QCoreApplication::translate("Parser",
                                             "%1: no Computing column or no rows; step breakdown not read")
                     .arg(path));
            return false;
        }
        noteRead(path);
        RejectedRecords rejected(path, RecordKind::Row);
        for (std::size_t row = 0; row < table.rowCount(); ++row) {
            RankStep s;
            s.source = BreakdownSource::StepTraceCsv;
            const QString step = QString::fromUtf8(table.cell(row, "Step")).trimmed();
            bool ok = false;
            s.step = step.toLongLong(&ok);
            if (!ok)
                s.step = kNoStep;
            RecordTimes times(
                rejected, std::function<QString()>([&table, row] {
                    return QCoreApplication::translate("Parser", "line %1").arg(table.rowLine(row));
                }));
            const auto cell = [&](std::string_view column) { return table.cell(row, column); };
            if (!readStepTimes(cell, s, times, m_stepTotals))
                continue;
            const int device = table.columnExact("Device_id");
            if (device >= 0 && m_rank.device < 0) {
                bool deviceOk = false;
                const int d = QString::fromUtf8(table.cell(row, device)).trimmed().toInt(&deviceOk);
                if (deviceOk)
                    m_rank.device = d;
            }
            m_rank.steps.push_back(s);
        }
        m_model.warnings << rejected.warnings();
        return true;
    }

    // After a read of db's tables: a failed query is warned, a successful one notes the file as read.
    bool noteDbRead(const DbClusterTables &db, const QString &path, bool ok)
    {
        if (!ok)
            warn(db.error());
        else if (!m_rank.filesRead.contains(path))
            noteRead(path);
        return ok;
    }

    // analysis.db StepTraceTime (µs; REAL values read as their text).
    void readAnalysisSteps(const QString &path)
    {
        DbClusterTables db(path);
        if (!db.hasTable(QStringLiteral("StepTraceTime")))
            return;
        RejectedRecords rejected(path, RecordKind::Row);
        int row = 0;
        const bool ok = db.readStepTraceTime([&](const StepTraceTimeRow &r) {
            RankStep s;
            s.source = BreakdownSource::Database;
            bool stepOk = false;
            s.step = r.step.toLongLong(&stepOk);
            if (!stepOk)
                s.step = kNoStep;
            // r.times holds the step fields in kStepFields' order.
            const auto cell = [&](std::string_view column) -> std::string_view {
                for (std::size_t i = 0; i < std::size(kStepFields); ++i)
                    if (column == kStepFields[i].column)
                        return r.times[i];
                return {};
            };
            RecordTimes times(
                rejected, std::function<QString()>([at = ++row] {
                    return QCoreApplication::translate("Parser", "StepTraceTime row %1").arg(at);
                }));
            if (!readStepTimes(cell, s, times, m_stepTotals))
                return;
            if (r.deviceId && m_rank.device < 0)
                m_rank.device = *r.deviceId;
            m_rank.steps.push_back(s);
        });
        noteDbRead(db, path, ok);
        m_model.warnings << rejected.warnings();
    }

    // The profiler database's STEP_TIME + OVERLAP_ANALYSIS (type 0 computing, 1 communication, 2 not
    // overlapped, 3 free; FORMATS.md §9.2), events by start in [startNs, endNs].
    void readProfilerDbSteps(const QString &path)
    {
        DbClusterTables db(path);
        if (!db.hasTable(QStringLiteral("STEP_TIME")) || !db.hasTable(QStringLiteral("OVERLAP_ANALYSIS")))
            return;
        struct Window
        {
            std::int64_t id;
            TimeNs begin, end;
            TimeNs first = -1, last = -1;
            RankStep sums;
            QString overflow; // the field whose sum left the profile range: the step is rejected
        };
        RejectedRecords rejected(path, RecordKind::Row);
        std::vector<Window> windows;
        noteDbRead(db, path, db.readStepWindows([&](const StepWindowRow &r) {
            if (!withinProfileRange(r.startNs) || !withinProfileRange(r.endNs)) {
                rejected.reject(ValueProblem::OutOfRange,
                                QCoreApplication::translate("Parser", "STEP_TIME id %1").arg(r.id),
                                QStringLiteral("startNs/endNs"),
                                QStringLiteral("%1/%2").arg(r.startNs).arg(r.endNs));
                return;
            }
            windows.push_back({r.id, r.startNs, r.endNs, -1, -1, {}, {}});
        }));
        int row = 0;
        const bool overlapsRead = db.readOverlaps([&](const OverlapRow &r) {
            ++row;
            const TimeNs start = r.startNs, end = r.endNs;
            if (!withinProfileRange(start) || !withinProfileRange(end) || end < start) {
                rejected.reject(end < start ? ValueProblem::Negative : ValueProblem::OutOfRange,
                                QCoreApplication::translate("Parser", "OVERLAP_ANALYSIS row %1").arg(row),
                                QStringLiteral("startNs/endNs"), QStringLiteral("%1/%2").arg(start).arg(end));
                return;
            }
            for (Window &w : windows) {
                if (start < w.begin || start > w.end)
                    continue;
                const TimeNs d = end - start;
                TimeNs *sum = nullptr;
                const char *field = "";
                switch (r.type) {
                case 0:
                    sum = &w.sums.computing, field = "computing";
                    break;
                case 1:
                    sum = &w.sums.communication, field = "communication";
                    break;
                case 2:
                    sum = &w.sums.communicationNotOverlapped, field = "communication not overlapped";
                    break;
                case 3:
                    sum = &w.sums.free, field = "free";
                    break;
                default:
                    break;
                }
                if (sum) {
                    if (const std::optional<TimeNs> total = checkedAdd(*sum, d))
                        *sum = *total;
                    else if (w.overflow.isEmpty())
                        w.overflow = QString::fromLatin1(field);
                }
                w.first = w.first < 0 ? start : std::min(w.first, start);
                w.last = std::max(w.last, end);
                break;
            }
        });
        noteDbRead(db, path, overlapsRead);
        for (Window &w : windows) {
            if (w.first < 0)
                continue;
            if (!w.overflow.isEmpty()) {
                rejected.reject(
                    ValueProblem::TotalOverflows,
                    QCoreApplication::translate("Parser", "STEP_TIME id %1").arg(w.id), w.overflow,
                    QCoreApplication::translate("Parser", "the sum of its OVERLAP_ANALYSIS rows"));
                continue;
            }
            RankStep s = w.sums;
            s.step = w.id;
            s.source = BreakdownSource::Database;
            s.overlapped = s.communication - s.communicationNotOverlapped;
            s.stage = w.last - w.first;
            s.communicationNotOverlappedExcludeReceive = s.communicationNotOverlapped;
            s.preparing = w.first - w.begin;
            s.hasPreparing = true;
            m_rank.steps.push_back(s);
        }
        m_model.warnings << rejected.warnings();
    }

    // The times an op adds to the rank's totals (what the analyses sum over a rank's ops): its own, and each
    // transport's, with the transport's packet-size buckets summed first (checked).
    static std::optional<std::vector<std::pair<std::string_view, TimeNs>>> opTimes(const CommOp &op,
                                                                                   std::string &overflow)
    {
        std::vector<std::pair<std::string_view, TimeNs>> values{
            {"Elapse Time(ms)", op.elapse},
            {"Transit Time(ms)", op.transit},
            {"Wait Time(ms)", op.wait},
            {"Synchronization Time(ms)", op.synchronization},
            {"Idle Time(ms)", op.idle}};
        TimeNs transports = 0, buckets = 0;
        for (const TransportBandwidth &b : op.bandwidth) {
            std::optional<TimeNs> sum = checkedAdd(transports, b.time);
            for (const PacketBucket &p : b.sizes) {
                const std::optional<TimeNs> bucketSum = sum ? checkedAdd(buckets, p.time) : std::nullopt;
                if (!bucketSum) {
                    overflow = "Size Distribution";
                    return std::nullopt;
                }
                buckets = *bucketSum;
            }
            if (!sum) {
                overflow = "Transit Time(ms)";
                return std::nullopt;
            }
            transports = *sum;
        }
        values.emplace_back("transport Transit Time(ms)", transports);
        values.emplace_back("Size Distribution", buckets);
        return values;
    }

    // Adds op to the rank unless a time broke a rule or would take the rank's totals out of range.
    void keepOp(CommOp &&op, RecordTimes &times)
    {
        if (times.rejected())
            return;
        std::string overflow;
        const auto values = opTimes(op, overflow);
        if (values) {
            if (const auto field = m_opTotals.add(*values))
                overflow = *field;
        }
        if (!overflow.empty()) {
            // The op's own value of the field that overflowed, in ms as the file writes it.
            TimeNs value = 0;
            for (const auto &[field, ns] : values.value_or(decltype(values)::value_type{}))
                if (field == overflow)
                    value = ns;
            times.reject(ValueProblem::TotalOverflows, overflow,
                         QString::number(static_cast<double>(value) / 1e6, 'g', 17));
            return;
        }
        m_rank.ops.push_back(std::move(op));
    }

    // One op of communication.json ("<op>@<group>" → {"Communication Time Info", "Communication Bandwidth
    // Info"}). An op that is not an object (a number, a string) is skipped, as is one with a bad time.
    void readJsonOp(std::int64_t step, std::string_view kind, const std::string &opKey, const JsonNode &info,
                    FiniteNumbers &numbers, RejectedRecords &rejected)
    {
        const QString key = QString::fromStdString(opKey);
        const std::function<QString()> where = [&key] {
            return QCoreApplication::translate("Parser", "op %1").arg(key);
        };
        if (!info.isObject()) {
            const QString value =
                info.type == JsonNode::Type::String
                    ? QStringLiteral("\"%1\"").arg(info.string())
                    : (info.type == JsonNode::Type::Array ? QStringLiteral("an array") : info.string());
            rejected.reject(ValueProblem::NotAnObject, where(), {}, value);
            return;
        }
        RecordTimes times(rejected, where);
        CommOp op;
        op.step = step;
        op.p2p = kind == "p2p";
        const auto [name, group] = splitAtGroup(key);
        op.name = name;
        op.group = m_intern(group);
        op.total = op.name == QLatin1String("Total Op Info");
        readJsonOpValues(info, op, numbers, times, m_intern);
        keepOp(std::move(op), times);
    }

    bool readCommunicationJson(const QString &path)
    {
        if (!QFileInfo::exists(path))
            return false;
        FiniteNumbers numbers(path);
        RejectedRecords rejected(path, RecordKind::Op);
        const std::size_t before = m_rank.ops.size();
        const RankTotals totalsBefore = m_opTotals;
        StepKeys steps;
        const auto perOp = [&](const std::vector<std::string> &keys, const JsonNode &info) {
            readJsonOp(steps.step(keys[0]), keys[1], keys[2], info, numbers, rejected);
        };
        if (!streamUnderLimit(
                path, perOp, [&] { return m_rank.ops.size() - before; },
                QCoreApplication::translate("Parser", "ops"))) {
            m_rank.ops.erase(m_rank.ops.begin() + static_cast<std::ptrdiff_t>(before), m_rank.ops.end());
            m_opTotals = totalsBefore;
            return false;
        }
        m_model.warnings << numbers.warnings() << rejected.warnings();
        return true;
    }

    // communication.json and communication_matrix.json (step → kind → op, FORMATS.md §9.4), read op by op
    // (streamJsonMembers: about the size of what is kept, not 11× the file's size as a whole tree was), under
    // the memory limit (streamUnderMemoryLimit): what was read is kept, with a warning naming the file, where
    // it stopped and how much was kept. False when the file could not be read (warned; the caller drops what
    // perOp kept).
    template <typename PerOp, typename Kept>
    bool streamUnderLimit(const QString &path, PerOp &&perOp, Kept &&kept, const QString &what)
    {
        QString stoppedAt, error;
        if (!streamUnderMemoryLimit(path, 3, 0, m_memoryLimit, perOp, &stoppedAt, &error)) {
            warn(error);
            return false;
        }
        noteRead(path);
        m_model.cutByMemoryLimit = m_model.cutByMemoryLimit || !stoppedAt.isEmpty();
        if (!stoppedAt.isEmpty())
            warn(stoppedReadingWarning(path, stoppedAt, m_memoryLimit, kept(), what));
        return true;
    }

    static double ratio(TimeNs part, TimeNs other)
    {
        return part + other > 0 ? static_cast<double>(part) / static_cast<double>(part + other) : 0.0;
    }

    void readAnalysisCommunication(const QString &path)
    {
        DbClusterTables db(path);
        if (!db.hasTable(QStringLiteral("CommAnalyzerTime")))
            return;
        std::map<std::pair<QString, QString>, std::size_t> index; // (step, op@group) → ops index
        RejectedRecords rejectedOps(path, RecordKind::Op);
        noteDbRead(db, path, db.readCommTimes([&](const CommTimeRow &r) {
            CommOp op;
            op.name = r.opName;
            op.group = r.group;
            op.total = op.name == QLatin1String("Total Op Info");
            RecordTimes times(rejectedOps,
                              QCoreApplication::translate("Parser", "CommAnalyzerTime op %1@%2 (%3)")
                                  .arg(op.name, op.group, r.step));
            op.startAbsolute = times.time(r.start, TimeUnit::Microseconds, "start_timestamp", true);
            op.elapse = times.time(r.elapse, TimeUnit::Milliseconds, "elapse_time");
            op.transit = times.time(r.transit, TimeUnit::Milliseconds, "transit_time");
            op.wait = times.time(r.wait, TimeUnit::Milliseconds, "wait_time");
            op.synchronization =
                times.time(r.synchronization, TimeUnit::Milliseconds, "synchronization_time");
            op.idle = times.time(r.idle, TimeUnit::Milliseconds, "idle_time");
            op.step = stepFromKey(r.step);
            op.p2p = r.type == QLatin1String("p2p");
            op.waitRatio = ratio(op.wait, op.transit);
            op.synchronizationRatio = ratio(op.synchronization, op.transit);
            const std::size_t at = m_rank.ops.size();
            keepOp(std::move(op), times);
            if (m_rank.ops.size() > at)
                index[{r.step, r.opName + QLatin1Char('@') + r.group}] = at;
        }));
        m_model.warnings << rejectedOps.warnings();
        if (!db.hasTable(QStringLiteral("CommAnalyzerBandwidth")))
            return;
        // One row per (op, transport, packet size bucket).
        RejectedRecords rejectedRows(path, RecordKind::Row);
        int row = 0;
        noteDbRead(db, path, db.readCommBandwidth([&](const CommBandwidthRow &r) {
            ++row;
            const auto found = index.find({r.step, r.opName + QLatin1Char('@') + r.group});
            if (found == index.end())
                return;
            RecordTimes times(rejectedRows,
                              QCoreApplication::translate("Parser", "CommAnalyzerBandwidth row %1").arg(row));
            const TimeNs transitTime = times.time(r.transitTime, TimeUnit::Milliseconds, "transit_time");
            const TimeNs duration = times.time(r.totalDuration, TimeUnit::Milliseconds, "total_duration");
            if (times.rejected())
                return;
            CommOp &op = m_rank.ops[found->second];
            auto it = std::find_if(op.bandwidth.begin(), op.bandwidth.end(),
                                   [&](const TransportBandwidth &b) { return b.transport == r.transport; });
            const bool newTransport = it == op.bandwidth.end();
            const bool bucket = r.count > 0;
            std::vector<std::pair<std::string_view, TimeNs>> added;
            if (newTransport)
                added.emplace_back("transport Transit Time(ms)", transitTime);
            if (bucket)
                added.emplace_back("Size Distribution", duration);
            if (const auto overflow = m_opTotals.add(added)) {
                const std::string &text = *overflow == "Size Distribution" ? r.totalDuration : r.transitTime;
                times.reject(ValueProblem::TotalOverflows, *overflow, QString::fromStdString(text));
                return;
            }
            if (newTransport) {
                TransportBandwidth b;
                b.transport = r.transport;
                b.sizeMb = r.transitSize;
                b.time = transitTime;
                b.bandwidthGbps = r.bandwidth;
                b.largePacketRatio = r.largePacketRatio;
                op.bandwidth.push_back(b);
                it = op.bandwidth.end() - 1;
            }
            if (bucket)
                it->sizes.push_back({r.packageSize, r.count, duration});
        }));
        m_model.warnings << rejectedRows.warnings();
    }

    // The rank's peak memory (RankMemoryPeak, FORMATS.md §9.5): memory_record.csv's components, else
    // npu_module_mem.csv's modules, else the profiler database's tables. Summary only: the CSVs are
    // streamed for their maximum, no curve is built.
    void readMemoryPeak(const QDir &output)
    {
        const QString record = output.filePath(QStringLiteral("memory_record.csv"));
        const QString modules = output.filePath(QStringLiteral("npu_module_mem.csv"));
        if (QFileInfo::exists(record))
            m_rank.memoryPeak = scanMemoryCsv(record, false);
        if (!m_rank.memoryPeak && QFileInfo::exists(modules))
            m_rank.memoryPeak = scanMemoryCsv(modules, true);
        if (!m_rank.memoryPeak && !m_database.isEmpty())
            m_rank.memoryPeak = databaseMemoryPeak(m_database);
    }

    // The peak of a memory CSV through the memory reader's "peaks only" mode (parser/memory): the same
    // CSV reading as a rank's load, no curve built.
    std::optional<RankMemoryPeak> scanMemoryCsv(const QString &path, bool modules)
    {
        const ReservedPeakScan scan =
            readReservedPeak(path, modules ? MemoryCurveKind::Module : MemoryCurveKind::Component,
                             [this](const QString &w) { warn(w); });
        if (scan.opened)
            noteRead(path); // with or without a peak: the prepared summary's stamps must cover it
        const int skipped = static_cast<int>(std::min(scan.badRows, static_cast<std::size_t>(INT_MAX)));
        if (skipped > 0)
            warn(QCoreApplication::translate(
                     "Parser",
                     "%1: %n row(s) without a readable time or Total Reserved left out of the peak memory",
                     nullptr, skipped)
                     .arg(path));
        if (!scan.peak)
            return std::nullopt;
        RankMemoryPeak peak;
        peak.bytes = scan.peak->bytes;
        peak.time = scan.peak->time;
        peak.component =
            modules ? QStringLiteral("%1 (module)").arg(scan.peak->component) : scan.peak->component;
        peak.file = path;
        return peak;
    }

    // The database's peak through the database memory reader's "peaks only" mode (parser/sqlite).
    std::optional<RankMemoryPeak> databaseMemoryPeak(const QString &path)
    {
        bool read = false;
        const std::optional<ReservedPeak> peak = readDatabaseReservedPeak(
            path, [this](const QString &w) { warn(w); }, &read);
        if (read && !m_rank.filesRead.contains(path))
            noteRead(path);
        if (!peak)
            return std::nullopt;
        return RankMemoryPeak{peak->bytes, peak->time, peak->component, path};
    }

    static void splitLink(const QString &link, int &src, int &dst)
    {
        const qsizetype dash = link.indexOf(QLatin1Char('-'));
        bool a = false, b = false;
        src = link.left(dash).toInt(&a);
        dst = link.mid(dash + 1).toInt(&b);
        if (dash < 0 || !a || !b)
            src = dst = -1;
    }

    bool readMatrixJson(const QString &path)
    {
        if (!QFileInfo::exists(path))
            return false;
        FiniteNumbers numbers(path);
        RejectedRecords rejected(path, RecordKind::Link);
        const std::size_t before = m_rank.links.size();
        const RankTotals totalsBefore = m_linkTotals;
        StepKeys steps;
        const auto perOp = [&](const std::vector<std::string> &keys, const JsonNode &links) {
            const QString key = QString::fromStdString(keys[2]);
            const auto [opKey, groupText] = splitAtGroup(key);
            const QString group = m_intern(groupText);
            for (const auto &[linkKey, info] : links.members) {
                MatrixLink link;
                link.step = steps.step(keys[0]);
                link.opKey = opKey;
                link.group = group;
                splitLink(QString::fromStdString(linkKey), link.srcLocal, link.dstLocal);
                const std::string &linkBytes = linkKey; // a structured binding cannot be captured (clang)
                RecordTimes times(rejected, std::function<QString()>([&linkBytes, &key] {
                                      return QCoreApplication::translate("Parser", "link %1 of %2")
                                          .arg(QString::fromStdString(linkBytes), key);
                                  }));
                readJsonLinkValues(info, link, numbers, times, m_intern);
                keepLink(std::move(link), times, info["Transit Time(ms)"].string());
            }
        };
        if (!streamUnderLimit(
                path, perOp, [&] { return m_rank.links.size() - before; },
                QCoreApplication::translate("Parser", "links"))) {
            m_rank.links.erase(m_rank.links.begin() + static_cast<std::ptrdiff_t>(before),
                               m_rank.links.end());
            m_linkTotals = totalsBefore;
            return false;
        }
        m_model.warnings << numbers.warnings() << rejected.warnings();
        return true;
    }

    void keepLink(MatrixLink &&link, RecordTimes &times, const QString &valueText)
    {
        if (times.rejected())
            return;
        if (const auto overflow = m_linkTotals.add({{"Transit Time(ms)", link.time}})) {
            times.reject(ValueProblem::TotalOverflows, *overflow, valueText);
            return;
        }
        m_rank.links.push_back(std::move(link));
    }

    void readAnalysisMatrix(const QString &path)
    {
        DbClusterTables db(path);
        if (!db.hasTable(QStringLiteral("CommAnalyzerMatrix")))
            return;
        RejectedRecords rejected(path, RecordKind::Link);
        noteDbRead(db, path, db.readCommMatrix([&](const CommMatrixRow &r) {
            MatrixLink link;
            link.opKey = r.opKey;
            link.group = r.group;
            link.srcLocal = static_cast<int>(r.srcRank);
            link.dstLocal = static_cast<int>(r.dstRank);
            link.transport = r.transport;
            link.sizeMb = r.transitSize;
            RecordTimes times(rejected,
                              QCoreApplication::translate("Parser", "CommAnalyzerMatrix link %1-%2 of %3@%4")
                                  .arg(link.srcLocal)
                                  .arg(link.dstLocal)
                                  .arg(link.opKey, link.group));
            link.time = times.time(r.transitTime, TimeUnit::Milliseconds, "transit_time");
            link.bandwidthGbps = r.bandwidth;
            link.step = stepFromKey(r.step);
            link.opName = r.opName;
            keepLink(std::move(link), times, QString::fromStdString(r.transitTime));
        }));
        m_model.warnings << rejected.warnings();
    }

    Rank &m_rank;
    RankSummary &m_model;            // the rank's share of the cluster: groups, distributed_args, warnings
    RankTotals m_stepTotals;         // the sums of the rank's step fields, kept in range (ClusterValues.h)
    std::uint64_t m_memoryLimit = 0; // 0: none
    StringInterner m_intern;         // group hashes, transport names
    RankTotals m_linkTotals;         // the sum of the rank's link times
    RankTotals m_opTotals;           // the sums of the rank's op times (its "Total Op Info" entries included)
    QSet<QString> m_groupKeys;       // the keys of m_model.groups
    QString m_database;
    GroupRanksMemo *m_memo = nullptr; // shared by the cluster's ranks (null: none)
};

// Global ranks of the matrix links (group-local in the files, FORMATS.md §9.4) and each rank's stage.
void resolveGroups(ClusterModel &model)
{
    // Looked up per rank and per link: built once (100,000 groups made the scans quadratic).
    QHash<int, int> stageOf; // rank → its index in the last "pp" group listing it, as the scan found
    for (const ParallelGroup *pp : model.groupsNamed(QStringLiteral("pp")))
        for (std::size_t i = 0; i < pp->globalRanks.size(); ++i)
            if (const int rank = pp->globalRanks[i];
                std::find(pp->globalRanks.begin(), pp->globalRanks.begin() + static_cast<std::ptrdiff_t>(i),
                          rank) == pp->globalRanks.begin() + static_cast<std::ptrdiff_t>(i))
                stageOf.insert(rank, static_cast<int>(i));
    QHash<QString, const ParallelGroup *> byHash; // the first group of a hash, as groupByHash finds it
    for (const ParallelGroup &g : model.groups)
        if (!byHash.contains(g.hash))
            byHash.insert(g.hash, &g);
    QStringList unknownGroups;
    QSet<QString> unknownSeen;
    for (Rank &r : model.ranks) {
        if (const auto stage = stageOf.constFind(r.rank); stage != stageOf.constEnd())
            r.stage = stage.value();
        for (MatrixLink &link : r.links) {
            const ParallelGroup *g = byHash.value(link.group, nullptr);
            auto global = [&](int local) {
                if (g)
                    return local >= 0 && local < static_cast<int>(g->globalRanks.size())
                               ? g->globalRanks[static_cast<std::size_t>(local)]
                               : -1;
                return local;
            };
            link.src = global(link.srcLocal);
            link.dst = global(link.dstLocal);
            if (!g && !model.groups.empty() && !unknownSeen.contains(link.group)) {
                unknownSeen.insert(link.group);
                unknownGroups << link.group;
            }
        }
    }
    for (const QString &g : unknownGroups)
        model.warnings << QCoreApplication::translate(
                              "Parser",
                              "communication group %1 is not in any parallel_group_info; its matrix "
                              "links keep the ranks as written")
                              .arg(g);
}

// msprof-analyze's cluster_analysis.db (ClusterAnalysisDb.h) as the cluster's source: when it was opened
// itself, or when the rank folders beside it gave no summary of their own (no step and no op). Then its
// ranks replace the folders' ranks, and a rank folder of the same rank id lends its folder, name, timeline
// and peak memory, so its timeline opens on demand. Otherwise the rank folders are read as before and the
// database is not read (docs/CLUSTER.md).
void readClusterDatabase(ClusterModel &model, const QString &database, bool openedItself)
{
    const bool foldersSummarised = std::any_of(model.ranks.begin(), model.ranks.end(), [](const Rank &r) {
        return !r.steps.empty() || !r.ops.empty();
    });
    if (!openedItself && foldersSummarised)
        return;
    ClusterModel fromDatabase;
    if (!readClusterAnalysisDatabase(database, fromDatabase)) {
        model.warnings << fromDatabase.warnings;
        return;
    }
    QHash<int, Rank *> folders;
    for (Rank &r : model.ranks)
        folders.insert(r.rank, &r);
    for (Rank &r : fromDatabase.ranks) {
        Rank *const folder = folders.value(r.rank, nullptr);
        if (!folder)
            continue;
        r.folder = folder->folder;
        r.name = folder->name;
        r.hasTimeline = folder->hasTimeline;
        r.memoryPeak = folder->memoryPeak;
        if (r.device < 0)
            r.device = folder->device;
        r.filesRead << folder->filesRead;
        folders.remove(r.rank);
    }
    for (auto it = folders.cbegin(); it != folders.cend(); ++it)
        fromDatabase.ranks.push_back(std::move(*it.value())); // a rank folder the database does not list
    model.ranks = std::move(fromDatabase.ranks);
    std::sort(model.ranks.begin(), model.ranks.end(),
              [](const Rank &a, const Rank &b) { return a.rank < b.rank; });
    addUnknownGroups(fromDatabase.groups, std::move(model.groups));
    model.groups = std::move(fromDatabase.groups);
    if (fromDatabase.distributed.present)
        model.distributed = fromDatabase.distributed;
    model.warnings << fromDatabase.warnings;
}

} // namespace

QStringList findRankFolders(const QString &path, QStringList *warnings)
{
    QStringList out;
    const QFileInfo info(path);
    if (!info.isDir())
        return out;
    if (isRankFolderName(info.fileName()))
        return {info.absoluteFilePath()};
    collectRankFolders(QDir(info.absoluteFilePath()), 1, out, warnings);
    out.sort();
    return out;
}

bool isClusterFolder(const QString &path)
{
    int ranks = 0;
    const QStringList folders = findRankFolders(path);
    for (const QString &folder : folders) {
        const QDir dir(folder);
        if (dir.exists(QStringLiteral("ASCEND_PROFILER_OUTPUT")) ||
            !dir.entryList({QStringLiteral("profiler_info*.json")}, QDir::Files).isEmpty())
            ++ranks;
    }
    return ranks >= 2 || !findClusterAnalysisDatabase(path).isEmpty() ||
           (folders.isEmpty() &&
            (!findClusterAnalysisOutput(path).isEmpty() || findGpuRankTraces(path).size() >= 2));
}

// Why reading stopped, as memoryStopReason() says it for a timeline, with the cluster's share. That share
// (kClusterReadingShareOfLimit) is smaller than a timeline's (kReadingShareOfLimit): what is made of the ops
// afterwards (`--cluster --json`'s op rows and its JSON text, the page's tables) takes about three times the
// memory of the ops read (measured on a 168 MB communication.json: 60 MiB read → 266 MiB peak), and the
// whole run must stay within the limit.
QString clusterMemoryStopReason(std::uint64_t limitBytes)
{
    return QCoreApplication::translate("Parser",
                                       "memory use reached the limit for reading a cluster's operators "
                                       "(%1, %2 % of the %3 limit: the analyses and their output need "
                                       "the rest; raise it with --memory-limit or AT_MEMORY_LIMIT)")
        .arg(formatByteSize(
            static_cast<std::uint64_t>(kClusterReadingShareOfLimit * static_cast<double>(limitBytes))))
        .arg(qRound(kClusterReadingShareOfLimit * 100))
        .arg(formatByteSize(limitBytes));
}

RankSummary readRankSummary(const QString &folder, std::uint64_t memoryLimitBytes, GroupRanksMemo *memo)
{
    RankSummary summary;
    Rank &rank = summary.rank;
    rank.folder = QFileInfo(folder).absoluteFilePath();
    rank.name = QFileInfo(folder).fileName();
    const RankIdentity id = identify(rank.folder);
    rank.rank = id.rank;
    if (!id.problem.isEmpty()) {
        summary.rankProblem = id.problem; // the folder is skipped: nothing else is read
        return summary;
    }
    RankReader(summary, memoryLimitBytes, memo).read(id);
    return summary;
}

RankInputs rankInputs(const QString &folder)
{
    RankInputs inputs;
    const QString root = QFileInfo(folder).absoluteFilePath();
    const RankIdentity id = identify(root);
    inputs.rank = id.rank;
    const QString output = QStringLiteral("ASCEND_PROFILER_OUTPUT");
    inputs.folders = {QStringLiteral("."), output};
    inputs.files = QDir(root).entryList({QStringLiteral("profiler_info*.json")}, QDir::Files, QDir::Name);
    inputs.files << QStringLiteral("profiler_metadata.json");
    for (const char *name : {"step_trace_time.csv", "analysis.db", "communication.json",
                             "communication_matrix.json", "memory_record.csv", "npu_module_mem.csv"})
        inputs.files << output + QLatin1Char('/') + QLatin1String(name);
    for (const QString &name :
         QDir(QDir(root).filePath(output))
             .entryList({QStringLiteral("ascend_pytorch_profiler*.db")}, QDir::Files, QDir::Name))
        inputs.files << output + QLatin1Char('/') + name;
    return inputs;
}

ClusterModel readCluster(const QString &path, const ClusterReadOptions &options)
{
    ClusterModel model;
    model.root = QFileInfo(path).absoluteFilePath();
    // msprof-analyze's cluster_analysis.db, opened itself or held by the folder: the rank folders are
    // looked for beside it (readClusterDatabase() says which is read).
    const QString database = findClusterAnalysisDatabase(path);
    const bool databaseOpened = !database.isEmpty() && QFileInfo(path).isFile();
    if (databaseOpened)
        model.root = clusterFolderOfDatabase(database);
    const QStringList folders = findRankFolders(model.root, &model.warnings);
    // msprof-analyze's cluster_analysis_output/ (MsprofAnalyzeOutput.h): with no rank folder it is the
    // source; beside rank folders it fills only what they lack (below). A database opened itself is the
    // source.
    const QString analysisOutput = databaseOpened ? QString() : findClusterAnalysisOutput(path);
    if (folders.isEmpty() && !analysisOutput.isEmpty()) {
        ClusterAnalysisOutput output = readClusterAnalysisOutput(analysisOutput, options.memoryLimitBytes);
        output.model.root = model.root;
        output.model.warnings = model.warnings + output.model.warnings;
        model = std::move(output.model);
        resolveGroups(model);
        checkStageRows(output, model);
        return model;
    }
    // No Ascend rank folder: a folder of PyTorch profiler GPU traces, one rank each (GpuRankReader.h).
    if (folders.isEmpty() && database.isEmpty() && readGpuCluster(path, model)) {
        std::sort(model.ranks.begin(), model.ranks.end(),
                  [](const Rank &a, const Rank &b) { return a.rank < b.rank; });
        return model;
    }
    int prepared = 0;
    QSet<QString> groupKeys;         // of model.groups
    QHash<int, QString> rankFolders; // of model.ranks
    GroupRanksMemo groupLists;
    for (const QString &folder : folders) {
        std::optional<RankSummary> summary;
        if (!options.preparedDirectory.isEmpty()) {
            QString why;
            summary = readPreparedSummary(folder, options.preparedDirectory, &why, options.memoryLimitBytes);
            if (!summary && !why.isEmpty())
                model.warnings << why;
            prepared += summary ? 1 : 0;
        }
        if (!summary)
            summary = readRankSummary(folder, options.memoryLimitBytes, &groupLists);
        // Merged in folder order as when each rank was read into the model directly: groups by key (the
        // first rank listing a group wins), the last distributed_args, every warning.
        for (ParallelGroup &g : summary->groups)
            if (!groupKeys.contains(g.key)) {
                groupKeys.insert(g.key);
                model.groups.push_back(std::move(g));
            }
        if (summary->distributed.present)
            model.distributed = summary->distributed;
        model.warnings << summary->warnings;
        Rank &rank = summary->rank;
        if (rank.rank < 0) {
            model.warnings << (!summary->rankProblem.isEmpty()
                                   ? summary->rankProblem
                                   : QCoreApplication::translate(
                                         "Parser",
                                         "%1: no profiler_info_<N>.json or other rank id; folder skipped")
                                         .arg(folder));
            continue;
        }
        if (const auto known = rankFolders.constFind(rank.rank); known != rankFolders.constEnd()) {
            model.warnings << QCoreApplication::translate(
                                  "Parser", "%1: rank %2 is already read from %3; folder skipped")
                                  .arg(folder)
                                  .arg(rank.rank)
                                  .arg(known.value());
            continue;
        }
        rankFolders.insert(rank.rank, rank.folder);
        model.ranks.push_back(std::move(rank));
    }
    // A mistyped cache folder, or one prepared for other data (or data changed since).
    if (!options.preparedDirectory.isEmpty() && prepared == 0 && !folders.isEmpty())
        model.warnings << QCoreApplication::translate(
                              "Parser",
                              "none of the %1 rank folders is prepared in %2; their files were read")
                              .arg(folders.size())
                              .arg(options.preparedDirectory);
    std::sort(model.ranks.begin(), model.ranks.end(),
              [](const Rank &a, const Rank &b) { return a.rank < b.rank; });
    ClusterAnalysisOutput output;
    if (!analysisOutput.isEmpty()) {
        output = readClusterAnalysisOutput(analysisOutput, options.memoryLimitBytes);
        // The model's parts move into the rank folders' model; the stage rows stay to be checked below.
        fillFromClusterAnalysisOutput(model, std::move(output.model));
    }
    if (!database.isEmpty())
        readClusterDatabase(model, database, databaseOpened);
    resolveGroups(model);
    if (!analysisOutput.isEmpty())
        checkStageRows(output, model);
    readMoeLoad(model); // only with an expert-parallel group (MoeLoadReader.h)
    return model;
}

} // namespace at::cluster
