#include "cluster/MsprofAnalyzeOutput.h"

#include "cluster/ClusterReader.h"
#include "cluster/ClusterValues.h"
#include "cluster/CommunicationFields.h"
#include "cluster/JsonTree.h"
#include "csv/CsvReader.h"
#include "csv/CsvValues.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

namespace at::cluster {

namespace {

const QString kOutputFolder = QStringLiteral("cluster_analysis_output");
const QString kStepTraceFile = QStringLiteral("cluster_step_trace_time.csv");
const QString kCommunicationFile = QStringLiteral("cluster_communication.json");
const QString kMatrixFile = QStringLiteral("cluster_communication_matrix.json");
const QString kGroupFile = QStringLiteral("communication_group.json");
const QString kTotalOpInfo = QStringLiteral("Total Op Info");

// "<src>-<dst>" of a matrix link → the two rank ids (nullopt where a side is not one): plain digits read
// directly, any other text as rankIdFromText reads it.
std::pair<std::optional<int>, std::optional<int>> linkEnds(const std::string &key)
{
    const std::size_t dash = key.find('-');
    const auto plain = [](std::string_view digits) -> std::optional<int> {
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        int id = 0;
        for (char c : digits)
            id = id * 10 + (c - '0');
        return id;
    };
    if (dash != std::string::npos && key.find('-', dash + 1) == std::string::npos) {
        const std::string_view text(key);
        const std::optional<int> src = plain(text.substr(0, dash)), dst = plain(text.substr(dash + 1));
        if (src && dst)
            return {src, dst};
    }
    const QStringList ends = QString::fromStdString(key).split(QLatin1Char('-'));
    if (ends.size() != 2)
        return {std::nullopt, std::nullopt};
    return {rankIdFromText(ends[0]), rankIdFromText(ends[1])};
}

QString text(std::string_view cell)
{
    return QString::fromUtf8(cell.data(), static_cast<qsizetype>(cell.size())).trimmed();
}

// "(0, 1)", "(2,)", "(0,1)" → the rank ids; empty when the text holds none or one out of range.
std::vector<int> ranksOfTuple(const QString &tuple)
{
    static const QRegularExpression digits(QStringLiteral("\\d+"));
    std::vector<int> ranks;
    for (auto it = digits.globalMatch(tuple); it.hasNext();) {
        const std::optional<int> rank = rankIdFromText(it.next().captured());
        if (!rank)
            return {};
        ranks.push_back(*rank);
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

class OutputReader
{
public:
    OutputReader(ClusterAnalysisOutput &out, std::uint64_t memoryLimitBytes)
        : m_out(out), m_model(out.model), m_memoryLimit(memoryLimitBytes)
    {}

    void read(const QDir &folder)
    {
        m_out.stepTraceFile = folder.filePath(kStepTraceFile);
        readStepTrace(m_out.stepTraceFile);
        readGroups(folder.filePath(kGroupFile));
        readCommunication(folder.filePath(kCommunicationFile));
        readMatrix(folder.filePath(kMatrixFile));
        for (auto &entry : m_ranks) {
            Rank &r = entry.second;
            // Ops as a rank's communication.json lists them: per step the p2p ops, then the collective ones,
            // each in time order, the totals last (the file groups them by rank set).
            std::stable_sort(r.ops.begin(), r.ops.end(), [](const CommOp &a, const CommOp &b) {
                return std::tuple(a.step, a.total, !a.p2p, a.startAbsolute) <
                       std::tuple(b.step, b.total, !b.p2p, b.startAbsolute);
            });
            m_model.ranks.push_back(std::move(r));
        }
    }

private:
    void warn(const QString &message) { m_model.warnings << message; }

    Rank &rank(int id)
    {
        Rank &r = m_ranks[id];
        r.rank = id;
        return r;
    }

    static void noteRead(Rank &r, const QString &path)
    {
        if (!r.filesRead.contains(path))
            r.filesRead << path;
    }

    bool missing(const QString &path)
    {
        if (QFileInfo::exists(path))
            return false;
        warn(
            QCoreApplication::translate("Parser", "%1 is missing; the cluster is read without it").arg(path));
        return true;
    }

    // cluster_step_trace_time.csv: `rank` rows (Index = rank id) → the ranks' steps, `stage` rows kept for
    // checkStageRows(). A row whose field count differs from the header is skipped (as MsInsight does).
    void readStepTrace(const QString &path)
    {
        if (missing(path))
            return;
        const CsvTable table = CsvReader().readFile(path);
        for (const CsvIssue &issue : table.issues())
            if (issue.kind == CsvIssue::Kind::FileError && issue.isError()) {
                warn(QCoreApplication::translate("Parser", "%1; step breakdown not read").arg(issue.message));
                return;
            }
        if (table.column("Type") < 0 || table.column("Index") < 0 || table.column("Computing") < 0) {
            warn(QCoreApplication::translate("Parser", "%1: no Type/Index/Computing columns; not read")
                     .arg(path));
            return;
        }
        readParallelIndices(table);
        RejectedRecords rejected(path, RecordKind::Row);
        std::map<int, RankTotals> totals;
        std::vector<std::uint64_t> ragged;
        QStringList badIndex;
        for (std::size_t row = 0; row < table.rowCount(); ++row) {
            if (table.cellCount(row) != table.columnCount()) {
                ragged.push_back(table.rowLine(row));
                continue;
            }
            const QString type = text(table.cell(row, "Type"));
            const QString index = text(table.cell(row, "Index"));
            const std::function<QString()> line = [&table, row] {
                return QCoreApplication::translate("Parser", "line %1").arg(table.rowLine(row));
            };
            RankStep s;
            s.source = BreakdownSource::ClusterAnalysisOutput;
            bool stepOk = false;
            s.step = text(table.cell(row, "Step")).toLongLong(&stepOk);
            if (!stepOk)
                s.step = kNoStep;
            RecordTimes times(rejected, line);
            const auto cell = [&](std::string_view column) { return table.cell(row, column); };
            if (type == QLatin1String("rank")) {
                const std::optional<int> id = rankIdFromText(index);
                if (!id) {
                    badIndex << QStringLiteral("%1 (%2)").arg(line(), index);
                    continue;
                }
                if (readStepTimes(cell, s, times, totals[*id])) {
                    Rank &r = rank(*id);
                    r.steps.push_back(s);
                    noteRead(r, path);
                }
            } else if (type == QLatin1String("stage")) {
                RankTotals unused;
                if (readStepTimes(cell, s, times, unused))
                    m_out.stageRows.push_back(
                        {s.step, ranksOfTuple(index), s, qsizetype(table.rowLine(row))});
            }
        }
        if (!ragged.empty())
            warn(QCoreApplication::translate(
                     "Parser",
                     "%1: line %2: the number of fields differs from the header; %3 row(s) like this skipped")
                     .arg(path)
                     .arg(ragged.front())
                     .arg(ragged.size()));
        if (!badIndex.isEmpty())
            warn(QCoreApplication::translate(
                     "Parser", "%1: %2: a rank row whose Index is not a rank id; %3 row(s) like this skipped")
                     .arg(path, badIndex.front())
                     .arg(badIndex.size()));
        m_model.warnings << rejected.warnings();
    }

    // DP/PP/TP Index of the rank rows (present only when distributed_args was, FORMATS.md §9.1): the sizes
    // as the largest index + 1; cp and ep are not written and stay 1.
    void readParallelIndices(const CsvTable &table)
    {
        const int columns[] = {table.columnExact("DP Index"), table.columnExact("PP Index"),
                               table.columnExact("TP Index")};
        if (std::any_of(std::begin(columns), std::end(columns), [](int c) { return c < 0; }))
            return;
        int largest[3] = {-1, -1, -1};
        int ranks = 0;
        for (std::size_t row = 0; row < table.rowCount(); ++row) {
            if (text(table.cell(row, "Type")) != QLatin1String("rank"))
                continue;
            ++ranks;
            for (int i = 0; i < 3; ++i) {
                bool ok = false;
                const int value = text(table.cell(row, columns[i])).toInt(&ok);
                if (!ok || value < 0)
                    return; // "NA" or damaged: no sizes rather than wrong ones
                largest[i] = std::max(largest[i], value);
            }
        }
        if (ranks == 0)
            return;
        DistributedArgs &d = m_model.distributed;
        d.present = true;
        d.dp = largest[0] + 1;
        d.pp = largest[1] + 1;
        d.tp = largest[2] + 1;
        d.worldSize = d.dp * d.pp * d.tp;
    }

    // communication_group.json: comm_group_parallel_info [{type, rank_set, group_name (the hash),
    // group_id, pg_name}]. rank_set is read from a list or from the tuple text.
    void readGroups(const QString &path)
    {
        if (missing(path))
            return;
        JsonNode root;
        QString error;
        if (!readJsonFile(path, root, &error)) {
            warn(error);
            return;
        }
        const JsonNode &info = root["comm_group_parallel_info"];
        std::vector<const JsonNode *> entries;
        for (const JsonNode &item : info.items)
            entries.push_back(&item);
        for (const JsonMember &member : info.members)
            entries.push_back(&member.second);
        if (entries.empty())
            warn(QCoreApplication::translate(
                     "Parser", "%1: no comm_group_parallel_info; the ranks have no parallel groups")
                     .arg(path));
        int skipped = 0;
        for (const JsonNode *entry : entries) {
            ParallelGroup g;
            g.hash = (*entry)["group_name"].string();
            g.key = g.hash; // the parallel_group_info key is not written: the hash stands for it
            g.name = (*entry)["pg_name"].string();
            const JsonNode &set = (*entry)["rank_set"];
            for (const JsonNode &r : set.items)
                g.globalRanks.push_back(rankIdFromText(r.string()).value_or(-1)); // -1: not a rank id
            if (set.type == JsonNode::Type::String)
                g.globalRanks = ranksOfTuple(set.string());
            std::sort(g.globalRanks.begin(), g.globalRanks.end());
            const bool bad =
                g.hash.isEmpty() || g.globalRanks.empty() ||
                std::any_of(g.globalRanks.begin(), g.globalRanks.end(), [](int r) { return r < 0; });
            if (bad || m_groupHashes.contains(g.hash)) {
                skipped += bad ? 1 : 0;
                continue;
            }
            m_groupHashes.insert(g.hash);
            if ((*entry)["type"].string() == QLatin1String("p2p"))
                m_p2pGroups.insert(g.hash);
            m_model.groups.push_back(std::move(g));
        }
        if (skipped > 0)
            warn(QCoreApplication::translate("Parser",
                                             "%1: %2 group(s) without a group_name or a rank_set skipped")
                     .arg(path)
                     .arg(skipped));
    }

    // Reads path op by op (streamJsonMembers), stopping at the memory limit as a rank's files do
    // (ClusterReadOptions::memoryLimitBytes): what was read is kept, a warning says where it stopped.
    // False when the file is not valid JSON (warned): the caller then drops what perMember kept, as the
    // rank files' reader does.
    template <typename PerMember>
    bool stream(const QString &path, int depth, PerMember &&perMember, const QString &what)
    {
        std::size_t kept = 0;
        QString stoppedAt, error;
        const auto visit = [&](const std::vector<std::string> &keys, const JsonNode &value) {
            kept += perMember(keys, value);
        };
        if (!streamUnderMemoryLimit(path, depth, 1, m_memoryLimit, visit, &stoppedAt, &error)) {
            warn(error);
            return false;
        }
        if (!stoppedAt.isEmpty())
            warn(stoppedReadingWarning(path, stoppedAt, m_memoryLimit, kept, what));
        return true;
    }

    // cluster_communication.json: rank set → step → "<op>@<group>" → rank → the rank's op, as in its own
    // communication.json (FORMATS.md §9.4).
    void readCommunication(const QString &path)
    {
        if (missing(path))
            return;
        FiniteNumbers numbers(path);
        RejectedRecords rejected(path, RecordKind::Op);
        std::map<int, RankTotals> totals;
        std::map<int, std::vector<CommOp>> read; // rank → its ops, kept once the whole file was read
        const bool ok = stream(
            path, 4,
            [&](const std::vector<std::string> &keys, const JsonNode &info) -> std::size_t {
                const QString opKey = QString::fromStdString(keys[2]);
                const std::function<QString()> where = [&opKey, &keys] {
                    return QCoreApplication::translate("Parser", "op %1 of rank %2")
                        .arg(opKey, QString::fromStdString(keys[3]));
                };
                const std::optional<int> id = rankIdFromText(QString::fromStdString(keys[3]));
                if (!id || !info.isObject()) {
                    rejected.reject(ValueProblem::NotAnObject, where(), {}, info.string());
                    return 0;
                }
                RecordTimes times(rejected, where);
                CommOp op = readOp(stepFromKey(QString::fromStdString(keys[1])), opKey, info, numbers, times);
                if (times.rejected())
                    return 0;
                if (const auto overflow = totals[*id].add(opTimes(op))) {
                    times.reject(ValueProblem::TotalOverflows, *overflow, {});
                    return 0;
                }
                read[*id].push_back(std::move(op));
                return 1;
            },
            QCoreApplication::translate("Parser", "ops"));
        for (auto &[id, ops] : read)
            if (ok) {
                Rank &r = rank(id);
                r.ops = std::move(ops);
                noteRead(r, path);
            }
        m_model.warnings << numbers.warnings() << rejected.warnings();
    }

    CommOp readOp(std::int64_t step, const QString &key, const JsonNode &info, FiniteNumbers &numbers,
                  RecordTimes &times)
    {
        CommOp op;
        op.step = step;
        const auto [name, group] = splitAtGroup(key);
        op.name = m_intern(name);
        op.group = m_intern(group);
        op.total = op.name == kTotalOpInfo;
        // A total has no op name to classify: its group's type says whether it sums p2p ops.
        op.p2p = op.total ? m_p2pGroups.contains(op.group) : isP2pOpName(op.name);
        readJsonOpValues(info, op, numbers, times, m_intern);
        return op;
    }

    // The times an op adds to its rank's totals, so that every sum the analyses make stays in range.
    static std::vector<std::pair<std::string_view, TimeNs>> opTimes(const CommOp &op)
    {
        std::vector<std::pair<std::string_view, TimeNs>> values{
            {"Elapse Time(ms)", op.elapse},
            {"Transit Time(ms)", op.transit},
            {"Wait Time(ms)", op.wait},
            {"Synchronization Time(ms)", op.synchronization},
            {"Idle Time(ms)", op.idle}};
        for (const TransportBandwidth &b : op.bandwidth) {
            values.emplace_back("transport Transit Time(ms)", b.time);
            for (const PacketBucket &p : b.sizes)
                values.emplace_back("Size Distribution", p.time);
        }
        return values;
    }

    // cluster_communication_matrix.json: rank set → step → "<type>-<phase>@<group>" → "<src>-<dst>" (global
    // ranks) → link. Each link goes to its source rank, the rank whose communication_matrix.json reported it;
    // its group-local ranks are the global ones' places in the group. "Total Op Info@<group>" repeats the
    // "-total" links summed over op types and is not kept (FORMATS.md §9.1).
    void readMatrix(const QString &path)
    {
        if (missing(path))
            return;
        FiniteNumbers numbers(path);
        RejectedRecords rejected(path, RecordKind::Link);
        std::map<int, RankTotals> totals;
        std::map<int, std::vector<MatrixLink>> read; // source rank → its links, kept once the file was read
        const bool ok = stream(
            path, 3,
            [&](const std::vector<std::string> &keys, const JsonNode &links) -> std::size_t {
                const auto [opKey, group] = splitAtGroup(QString::fromStdString(keys[2]));
                if (opKey == kTotalOpInfo)
                    return 0;
                const ParallelGroup *g = m_model.groupByHash(group);
                // What the op's links share, made once for all of them.
                const std::int64_t step = stepFromKey(QString::fromStdString(keys[1]));
                const QString sharedOpKey = m_intern(opKey), sharedGroup = m_intern(group);
                std::size_t kept = 0;
                for (const auto &[linkKey, info] : links.members) {
                    const std::string &linkBytes = linkKey;
                    RecordTimes times(rejected, std::function<QString()>([&linkBytes, &keys] {
                                          return QCoreApplication::translate("Parser", "link %1 of %2")
                                              .arg(QString::fromStdString(linkBytes),
                                                   QString::fromStdString(keys[2]));
                                      }));
                    const auto [src, dst] = linkEnds(linkKey);
                    if (!src || !dst || !info.isObject()) {
                        times.reject(ValueProblem::NotAnObject, {}, QString::fromStdString(linkKey));
                        continue;
                    }
                    MatrixLink link;
                    link.step = step;
                    link.opKey = sharedOpKey;
                    link.group = sharedGroup;
                    link.src = *src;
                    link.dst = *dst;
                    link.srcLocal = localRank(g, *src);
                    link.dstLocal = localRank(g, *dst);
                    readJsonLinkValues(info, link, numbers, times, m_intern);
                    if (times.rejected())
                        continue;
                    if (const auto overflow = totals[*src].add({{"Transit Time(ms)", link.time}})) {
                        times.reject(ValueProblem::TotalOverflows, *overflow,
                                     info["Transit Time(ms)"].string());
                        continue;
                    }
                    read[*src].push_back(std::move(link));
                    ++kept;
                }
                return kept;
            },
            QCoreApplication::translate("Parser", "links"));
        for (auto &[id, links] : read)
            if (ok) {
                Rank &r = rank(id);
                r.links = std::move(links);
                noteRead(r, path);
            }
        m_model.warnings << numbers.warnings() << rejected.warnings();
    }

    // The place of a global rank in its group (the group-local rank the rank files write); the global rank
    // itself when the group is unknown (resolveGroups then keeps it as written).
    static int localRank(const ParallelGroup *g, int global)
    {
        if (!g)
            return global;
        const auto it = std::find(g->globalRanks.begin(), g->globalRanks.end(), global);
        return it == g->globalRanks.end() ? -1 : static_cast<int>(it - g->globalRanks.begin());
    }

    ClusterAnalysisOutput &m_out;
    ClusterModel &m_model;
    std::uint64_t m_memoryLimit = 0;
    std::map<int, Rank> m_ranks; // ordered by rank id
    QSet<QString> m_groupHashes;
    QSet<QString> m_p2pGroups; // the hashes of the groups of type p2p
    StringInterner m_intern;   // op names, group hashes, transport names
};

QString rankList(const std::vector<int> &ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

} // namespace

QString findClusterAnalysisOutput(const QString &path)
{
    const QDir dir(path);
    if (QFileInfo(dir.filePath(kStepTraceFile)).isFile())
        return QFileInfo(path).absoluteFilePath();
    if (QFileInfo(dir.filePath(kOutputFolder + QLatin1Char('/') + kStepTraceFile)).isFile())
        return QFileInfo(dir.filePath(kOutputFolder)).absoluteFilePath();
    return {};
}

ClusterAnalysisOutput readClusterAnalysisOutput(const QString &outputFolder, std::uint64_t memoryLimitBytes)
{
    ClusterAnalysisOutput out;
    out.model.root = QFileInfo(outputFolder).absoluteFilePath();
    OutputReader(out, memoryLimitBytes).read(QDir(outputFolder));
    return out;
}

void checkStageRows(const ClusterAnalysisOutput &output, ClusterModel &model)
{
    const std::map<int, std::vector<int>> stages = pipelineStages(model);
    for (const ClusterAnalysisOutput::StageRow &row : output.stageRows) {
        const QString where = QStringLiteral("%1: %2").arg(
            output.stepTraceFile, QCoreApplication::translate("Parser", "line %1").arg(row.line));
        const auto stage = std::find_if(stages.begin(), stages.end(),
                                        [&](const auto &entry) { return entry.second == row.ranks; });
        if (stage == stages.end()) {
            model.warnings << QCoreApplication::translate(
                                  "Parser",
                                  "%1: the stage row %2 is not a pipeline stage of the pp groups; the stages "
                                  "come from the pp groups")
                                  .arg(where, rankList(row.ranks));
            continue;
        }
        // Each column is the maximum over the stage's ranks (FORMATS.md §9.1); checked when every rank of
        // the stage has a row of that step.
        std::vector<const RankStep *> rows;
        for (int id : row.ranks)
            if (const Rank *r = model.rank(id))
                for (const RankStep &s : r->steps)
                    if (s.step == row.step)
                        rows.push_back(&s);
        if (rows.size() != row.ranks.size())
            continue;
        QStringList differing;
        for (const StepField &f : kStepFields) {
            TimeNs largest = 0;
            for (const RankStep *s : rows)
                largest = std::max(largest, s->*f.member);
            if (largest != row.values.*f.member &&
                !(f.member == &RankStep::preparing && !row.values.hasPreparing))
                differing << QString::fromLatin1(f.column);
        }
        if (!differing.isEmpty())
            model.warnings << QCoreApplication::translate(
                                  "Parser",
                                  "%1: the stage row %2 is not the maximum of its ranks' rows in %3")
                                  .arg(where, rankList(row.ranks), differing.join(QStringLiteral(", ")));
    }
}

void fillFromClusterAnalysisOutput(ClusterModel &model, ClusterModel &&output)
{
    addUnknownGroups(model.groups, std::move(output.groups));
    if (!model.distributed.present)
        model.distributed = output.distributed;
    for (Rank &from : output.ranks) {
        auto it = std::find_if(model.ranks.begin(), model.ranks.end(),
                               [&](const Rank &r) { return r.rank == from.rank; });
        if (it == model.ranks.end()) {
            model.ranks.push_back(std::move(from));
            continue;
        }
        // Each part as a whole, with the file it came from.
        const auto take = [&](auto &mine, auto &theirs, const QString &file) {
            if (!mine.empty() || theirs.empty())
                return;
            mine = std::move(theirs);
            for (const QString &read : from.filesRead)
                if (read.endsWith(QLatin1Char('/') + file) && !it->filesRead.contains(read))
                    it->filesRead << read;
        };
        take(it->steps, from.steps, kStepTraceFile);
        take(it->ops, from.ops, kCommunicationFile);
        take(it->links, from.links, kMatrixFile);
    }
    std::sort(model.ranks.begin(), model.ranks.end(),
              [](const Rank &a, const Rank &b) { return a.rank < b.rank; });
    model.warnings << output.warnings;
}

} // namespace at::cluster
