// The slice and args tables: every slice of every thread track read in place from its SliceTable.
// Constraints the model can answer without a scan: id = ? (a point lookup: the id is the track's first id
// plus the row), ts ranges (per depth a binary search on the sorted starts), name = ? (one StringPool
// lookup, then a compare of 4-byte ids instead of text) and track = ?.
#include "QueryTables.h"

#include "QueryData.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <limits>

namespace at::query {

namespace {

enum SliceColumn
{
    Id,
    Ts,
    Dur,
    SelfTime,
    Name,
    Category,
    Depth,
    Parent,
    Track,
    Rank,
    Args,
};

QueryTableInfo sliceInfo()
{
    QueryTableInfo info;
    info.name = QStringLiteral("slice");
    for (const char *column :
         {"id INTEGER", "ts INTEGER", "dur INTEGER", "self_time INTEGER", "name TEXT", "category TEXT",
          "depth INTEGER", "parent INTEGER", "track INTEGER", "rank INTEGER", "args TEXT"}) {
        const QStringList parts = QString::fromLatin1(column).split(QLatin1Char(' '));
        info.columns.push_back({parts[0], parts[1]});
    }
    return info;
}

constexpr TimeNs kMinTime = std::numeric_limits<TimeNs>::min();
constexpr TimeNs kMaxTime = std::numeric_limits<TimeNs>::max();

// A bound from a constraint value, widened so that the set it selects is never smaller than the exact one
// (SQLite checks the constraint again: omit stays 0 for ts).
std::optional<double> numericValue(sqlite3_value *value)
{
    const int type = sqlite3_value_numeric_type(value);
    if (type != SQLITE_INTEGER && type != SQLITE_FLOAT)
        return std::nullopt;
    return sqlite3_value_double(value);
}

TimeNs floorTime(double v)
{
    if (v <= -9.2e18)
        return kMinTime;
    if (v >= 9.2e18)
        return kMaxTime;
    return static_cast<TimeNs>(std::floor(v));
}

TimeNs ceilTime(double v)
{
    if (v <= -9.2e18)
        return kMinTime;
    if (v >= 9.2e18)
        return kMaxTime;
    return static_cast<TimeNs>(std::ceil(v));
}

QString argsJson(const TraceModel &model, SliceRef ref)
{
    QJsonObject object;
    for (const auto &[key, value] : model.sliceArgs(ref))
        object.insert(key, value);
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

class SliceCursor : public QueryCursor
{
public:
    explicit SliceCursor(QueryData &data) : m_data(data), m_model(data.model()) {}

    void filter(int, const char *idxStr, int argc, sqlite3_value **argv) override
    {
        m_tsLo = kMinTime;
        m_tsHi = kMaxTime;
        m_name = kAnyName;
        m_threadBegin = 0;
        m_threadEnd = static_cast<int>(m_model.threads().size());
        m_single = false;
        m_done = false;
        m_byName = false;
        std::string_view ops = idxStr ? std::string_view(idxStr) : std::string_view();
        const bool grouped = !ops.empty() && ops.front() == 'G';
        if (grouped)
            ops.remove_prefix(1);
        for (int i = 0; i < argc && static_cast<std::size_t>(i) < ops.size(); ++i)
            applyConstraint(ops[static_cast<std::size_t>(i)], argv[i]);
        if (m_done || m_single)
            return;
        if ((grouped || m_name != kAnyName) && !m_data.idsByName().empty()) {
            // Rows name by name (the order GROUP BY name needs), or only the rows of the one name asked for.
            m_byName = true;
            m_thread = -1;
            const QueryData::NameRange range = m_name != kAnyName
                                                   ? m_data.rangeOfName(m_name)
                                                   : QueryData::NameRange{0, m_data.idsByName().size()};
            m_position = range.begin;
            m_positionEnd = range.end;
            m_groupEnd = 0;
            settleByName();
            return;
        }
        m_thread = m_threadBegin - 1;
        m_depth = 0;
        m_index = m_depthEnd = 0;
        advanceTrack();
    }

    bool eof() const override { return m_done; }

    void next() override
    {
        if (m_single) {
            m_done = true;
            return;
        }
        if (m_byName) {
            ++m_position;
            settleByName();
            return;
        }
        ++m_index;
        settle();
    }

    sqlite3_int64 rowid() const override { return m_data.firstId(m_thread) + m_index; }

    void column(sqlite3_context *context, int column) override
    {
        const SliceTable &table = this->table();
        const SliceRef ref{m_thread, m_index};
        switch (column) {
        case Id:
            resultInt(context, rowid());
            break;
        case Ts:
            resultInt(context, table.start(m_index));
            break;
        case Dur:
            resultInt(context, table.duration(m_index));
            break;
        case SelfTime:
            resultInt(context, m_model.selfTime(ref));
            break;
        case Name:
            resultView(context, m_byName ? groupName() : m_model.strings().view(table.name(m_index)));
            break;
        case Category:
            resultView(context, m_model.strings().view(table.category(m_index)));
            break;
        case Depth:
            resultInt(context, m_byName ? table.depthOf(m_index) : m_depth);
            break;
        case Parent:
            if (table.parent(m_index) >= 0)
                resultInt(context, m_data.firstId(m_thread) + table.parent(m_index));
            else
                sqlite3_result_null(context);
            break;
        case Track:
            resultInt(context, m_thread);
            break;
        case Rank: {
            const int process = m_model.threads()[static_cast<std::size_t>(m_thread)].process;
            resultInt(context,
                      m_data.rankOfGroup(m_model.processes()[static_cast<std::size_t>(process)].group));
            break;
        }
        case Args:
            resultText(context, argsJson(m_model, ref));
            break;
        default:
            sqlite3_result_null(context);
        }
    }

private:
    static constexpr StringId kAnyName = ~StringId(0) - 1;

    const SliceTable &table() const { return m_model.threads()[static_cast<std::size_t>(m_thread)].slices; }

    // The name of the by-name walk's current row: every row of a name range has it, so the name is looked up
    // once a range (one random read of the slice's name less per row; GROUP BY name reads it every row).
    std::string_view groupName()
    {
        if (m_position >= m_groupEnd) {
            const StringId name = table().name(m_index);
            m_groupEnd = m_data.rangeOfName(name).end;
            m_groupName = m_model.strings().view(name);
        }
        return m_groupName;
    }

    void applyConstraint(char op, sqlite3_value *value)
    {
        switch (op) {
        case 'i': { // id = ?
            const std::optional<double> v = numericValue(value);
            const SliceRef ref =
                v && *v == std::floor(*v) ? m_data.refOf(static_cast<std::int64_t>(*v)) : SliceRef{};
            if (!ref.isValid()) {
                m_done = true;
                return;
            }
            m_single = true;
            m_thread = ref.thread;
            m_index = ref.index;
            m_depth = table().depthOf(ref.index);
            break;
        }
        case 't': { // track = ?
            const std::optional<double> v = numericValue(value);
            if (!v || *v != std::floor(*v) || *v < 0 || *v >= static_cast<double>(m_model.threads().size())) {
                m_done = true;
                return;
            }
            m_threadBegin = std::max(m_threadBegin, static_cast<int>(*v));
            m_threadEnd = std::min(m_threadEnd, static_cast<int>(*v) + 1);
            break;
        }
        case 'n': { // name = ?
            if (sqlite3_value_type(value) != SQLITE_TEXT)
                return; // SQLite compares it itself
            const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(value));
            const StringId id = m_model.strings().find(
                std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(value))));
            if (id == StringPool::kNotFound || (m_name != kAnyName && m_name != id))
                m_done = true;
            m_name = id;
            break;
        }
        case '>': // ts > ? or ts >= ?: starts from the floor
            if (const std::optional<double> v = numericValue(value))
                m_tsLo = std::max(m_tsLo, floorTime(*v));
            break;
        case '<':
            if (const std::optional<double> v = numericValue(value))
                m_tsHi = std::min(m_tsHi, ceilTime(*v));
            break;
        case '=':
            if (const std::optional<double> v = numericValue(value)) {
                m_tsLo = std::max(m_tsLo, floorTime(*v));
                m_tsHi = std::min(m_tsHi, ceilTime(*v));
            }
            break;
        default:
            break;
        }
        if (m_single && !m_done) {
            // A point lookup still honours the other constraints (SQLite omits only the id's).
            const bool inTrack = m_thread >= m_threadBegin && m_thread < m_threadEnd;
            const TimeNs start = table().start(m_index);
            const bool inTime = start >= m_tsLo && start <= m_tsHi;
            const bool named = m_name == kAnyName || table().name(m_index) == m_name;
            if (!inTrack || !inTime || !named)
                m_done = true;
        }
    }

    // From m_position, the first slice of the by-name order inside the track and time bounds.
    void settleByName()
    {
        const std::vector<std::uint32_t> &ids = m_data.idsByName();
        const bool allTracks =
            m_threadBegin == 0 && m_threadEnd == static_cast<int>(m_model.threads().size());
        const bool allTimes = m_tsLo == kMinTime && m_tsHi == kMaxTime;
        for (; m_position < m_positionEnd; ++m_position) {
            const std::int64_t id = ids[m_position];
            // Ids ascend within a name, so the track is usually the previous row's: skip the search then.
            if (m_thread >= 0 && m_thread < static_cast<int>(m_model.threads().size()) &&
                id >= m_data.firstId(m_thread) && id < m_data.firstId(m_thread + 1)) {
                m_index = static_cast<std::uint32_t>(id - m_data.firstId(m_thread));
            } else {
                const SliceRef ref = m_data.refOf(id);
                m_thread = ref.thread;
                m_index = ref.index;
            }
            if (!allTracks && (m_thread < m_threadBegin || m_thread >= m_threadEnd))
                continue;
            if (!allTimes) {
                const TimeNs start = table().start(m_index);
                if (start < m_tsLo || start > m_tsHi)
                    continue;
            }
            return;
        }
        m_done = true;
    }

    // Moves to the next track with slices and positions at its first depth.
    void advanceTrack()
    {
        while (++m_thread < m_threadEnd) {
            if (table().empty())
                continue;
            m_depth = -1;
            if (enterNextDepth())
                return;
        }
        m_done = true;
    }

    // Positions at the first candidate row of the next depth of this track; false when none is left.
    bool enterNextDepth()
    {
        const SliceTable &t = table();
        while (++m_depth < t.depthCount()) {
            const auto [first, last] = t.depthRange(m_depth);
            m_index = m_tsLo == kMinTime ? first : t.firstStartingAtOrAfter(m_depth, m_tsLo);
            m_depthEnd = last;
            if (findMatch())
                return true;
        }
        return false;
    }

    // From m_index, the first row of this depth matching the name and upper time bound.
    bool findMatch()
    {
        const SliceTable &t = table();
        const std::vector<StringId> &names = t.names();
        for (; m_index < m_depthEnd; ++m_index) {
            if (t.start(m_index) > m_tsHi)
                return false;
            if (m_name == kAnyName || names[m_index] == m_name)
                return true;
        }
        return false;
    }

    void settle()
    {
        if (findMatch())
            return;
        if (enterNextDepth())
            return;
        advanceTrack();
    }

    QueryData &m_data;
    const TraceModel &m_model;
    int m_thread = 0, m_threadBegin = 0, m_threadEnd = 0;
    int m_depth = 0;
    std::uint32_t m_index = 0, m_depthEnd = 0;
    TimeNs m_tsLo = kMinTime, m_tsHi = kMaxTime;
    StringId m_name = kAnyName;
    bool m_single = false, m_done = true;
    bool m_byName = false; // walking QueryData::idsByName() over [m_position, m_positionEnd)
    std::size_t m_position = 0, m_positionEnd = 0;
    std::size_t m_groupEnd = 0; // the end of the name range of m_groupName (0: none yet)
    std::string_view m_groupName;
};

class SliceTableImpl : public QueryTable
{
public:
    explicit SliceTableImpl(QueryData &data) : m_data(data), m_info(sliceInfo()) {}
    const QueryTableInfo &info() const override { return m_info; }

    int bestIndex(sqlite3_index_info *info) override
    {
        std::string ops;
        int argv = 0;
        double cost = static_cast<double>(std::max<std::int64_t>(1, m_data.sliceCount()));
        auto use = [&](int constraint, char op, bool omit) {
            info->aConstraintUsage[constraint].argvIndex = ++argv;
            info->aConstraintUsage[constraint].omit = omit ? 1 : 0;
            ops.push_back(op);
        };
        bool point = false;
        for (int i = 0; i < info->nConstraint; ++i) {
            const auto &c = info->aConstraint[i];
            if (!c.usable)
                continue;
            const bool isId = c.iColumn == -1 || c.iColumn == Id;
            if (isId && c.op == SQLITE_INDEX_CONSTRAINT_EQ && !point) {
                use(i, 'i', true);
                point = true;
            } else if (c.iColumn == Track && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
                use(i, 't', false);
                cost /= 20;
            } else if (c.iColumn == Name && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
                use(i, 'n', false);
                cost /= 50;
            } else if (c.iColumn == Ts) {
                if (c.op == SQLITE_INDEX_CONSTRAINT_GT || c.op == SQLITE_INDEX_CONSTRAINT_GE) {
                    use(i, '>', false);
                    cost /= 4;
                } else if (c.op == SQLITE_INDEX_CONSTRAINT_LT || c.op == SQLITE_INDEX_CONSTRAINT_LE) {
                    use(i, '<', false);
                    cost /= 4;
                } else if (c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
                    use(i, '=', false);
                    cost /= 100;
                }
            }
        }
        if (point) {
            cost = 1;
            info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
        } else if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == Name && !info->aOrderBy[0].desc &&
                   m_data.sliceCount() < std::int64_t(1) << 32) {
            // GROUP BY name or ORDER BY name (a COLLATE other than BINARY never reaches here): the by-name
            // walk gives the rows in name order, so SQLite aggregates as they stream, with no sorter.
            info->orderByConsumed = 1;
            ops.insert(ops.begin(), 'G');
        }
        info->idxNum = static_cast<int>(ops.size());
        // (Only 'G' has no argument: ops[i] describes argv[i] once it is stripped.)
        info->idxStr = sqlite3_mprintf("%s", ops.c_str());
        info->needToFreeIdxStr = 1;
        info->estimatedCost = std::max(1.0, cost);
        info->estimatedRows = static_cast<sqlite3_int64>(std::max(1.0, cost));
        return SQLITE_OK;
    }

    std::unique_ptr<QueryCursor> open() override { return std::make_unique<SliceCursor>(m_data); }

private:
    QueryData &m_data;
    QueryTableInfo m_info;
};

// args: one row per (slice, key), re-read through the model's args reader (the slice's source file). With
// slice_id = ? only that slice is read; a scan reads every slice's args (slow on a large trace).
class ArgsCursor : public QueryCursor
{
public:
    explicit ArgsCursor(QueryData &data) : m_data(data) {}
    void filter(int idxNum, const char *, int argc, sqlite3_value **argv) override
    {
        m_id = 0;
        m_end = m_data.sliceCount();
        if (idxNum == 1 && argc == 1) {
            const std::optional<double> v = numericValue(argv[0]);
            const bool valid =
                v && *v == std::floor(*v) && m_data.refOf(static_cast<std::int64_t>(*v)).isValid();
            m_id = valid ? static_cast<std::int64_t>(*v) : 0;
            m_end = valid ? m_id + 1 : 0;
        }
        m_args.clear();
        m_at = 0;
        --m_id;
        loadNext();
    }
    bool eof() const override { return m_id >= m_end; }
    void next() override
    {
        if (++m_at >= m_args.size())
            loadNext();
    }
    sqlite3_int64 rowid() const override { return (m_id << 16) | static_cast<sqlite3_int64>(m_at & 0xFFFF); }
    void column(sqlite3_context *context, int column) override
    {
        if (column == 0)
            resultInt(context, m_id);
        else
            resultText(context, column == 1 ? m_args[m_at].first : m_args[m_at].second);
    }

private:
    void loadNext()
    {
        m_at = 0;
        m_args.clear();
        while (m_args.empty() && ++m_id < m_end)
            m_args = m_data.model().sliceArgs(m_data.refOf(m_id));
    }

    QueryData &m_data;
    std::int64_t m_id = 0, m_end = 0;
    std::vector<std::pair<QString, QString>> m_args;
    std::size_t m_at = 0;
};

class ArgsTable : public QueryTable
{
public:
    explicit ArgsTable(QueryData &data) : m_data(data)
    {
        m_info.name = QStringLiteral("args");
        m_info.columns = {{QStringLiteral("slice_id"), QStringLiteral("INTEGER")},
                          {QStringLiteral("key"), QStringLiteral("TEXT")},
                          {QStringLiteral("value"), QStringLiteral("TEXT")}};
    }
    const QueryTableInfo &info() const override { return m_info; }
    int bestIndex(sqlite3_index_info *info) override
    {
        const int eq = findEquality(info, 0);
        info->idxNum = eq >= 0 ? 1 : 0;
        if (eq >= 0) {
            info->aConstraintUsage[eq].argvIndex = 1;
            info->aConstraintUsage[eq].omit = 1;
        }
        // Reading args parses the event again: make a scan look as costly as it is.
        info->estimatedCost = eq >= 0 ? 10 : 1e9;
        info->estimatedRows = eq >= 0 ? 10 : 1000000;
        return SQLITE_OK;
    }
    std::unique_ptr<QueryCursor> open() override { return std::make_unique<ArgsCursor>(m_data); }

private:
    QueryData &m_data;
    QueryTableInfo m_info;
};

} // namespace

std::unique_ptr<QueryTable> makeSliceTable(QueryData &data)
{
    return std::make_unique<SliceTableImpl>(data);
}

std::unique_ptr<QueryTable> makeArgsTable(QueryData &data)
{
    return std::make_unique<ArgsTable>(data);
}

} // namespace at::query
