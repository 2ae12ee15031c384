#include "QueryEngine.h"

#include "QueryData.h"
#include "QueryTables.h"

#include <QCoreApplication>

#include <sqlite3.h>

#include <cstring>

namespace at::query {

namespace {

// track: the thread and counter tracks in one list.
constexpr const char *kTrackView =
    "CREATE VIEW track AS SELECT 'thread' AS kind, id, process, rank, name FROM thread "
    "UNION ALL SELECT 'counter' AS kind, id, process, rank, name FROM counter_track";

QueryTableInfo trackViewInfo()
{
    QueryTableInfo info;
    info.name = QStringLiteral("track");
    info.view = true;
    info.columns = {{QStringLiteral("kind"), QStringLiteral("TEXT")},
                    {QStringLiteral("id"), QStringLiteral("INTEGER")},
                    {QStringLiteral("process"), QStringLiteral("INTEGER")},
                    {QStringLiteral("rank"), QStringLiteral("INTEGER")},
                    {QStringLiteral("name"), QStringLiteral("TEXT")}};
    return info;
}

QString sqliteMessage(sqlite3 *db)
{
    return QString::fromUtf8(sqlite3_errmsg(db));
}

// 1-based line and column of a character offset.
void locate(const QString &text, int offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (int i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == QLatin1Char('\n')) {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

QueryValue valueOf(sqlite3_stmt *statement, int column)
{
    QueryValue v;
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_INTEGER:
        v.type = QueryValue::Type::Integer;
        v.integer = sqlite3_column_int64(statement, column);
        break;
    case SQLITE_FLOAT:
        v.type = QueryValue::Type::Real;
        v.real = sqlite3_column_double(statement, column);
        break;
    case SQLITE_TEXT: {
        v.type = QueryValue::Type::Text;
        const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement, column));
        v.bytes = QByteArray(text, sqlite3_column_bytes(statement, column));
        break;
    }
    case SQLITE_BLOB: {
        v.type = QueryValue::Type::Blob;
        const auto *blob = static_cast<const char *>(sqlite3_column_blob(statement, column));
        v.bytes = QByteArray(blob, sqlite3_column_bytes(statement, column));
        break;
    }
    default:
        break;
    }
    return v;
}

// A user's query may read and make temporary tables, but not attach files (ATTACH, VACUUM INTO) or drop the
// engine's tables: nothing outside the process is ever written. The engine's own export is let through.
struct Authorizer
{
    bool internal = false;
};

int authorize(void *user, int action, const char *arg1, const char *, const char *database, const char *)
{
    if (static_cast<Authorizer *>(user)->internal)
        return SQLITE_OK;
    switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
    case SQLITE_DROP_VTABLE:
        return SQLITE_DENY;
    case SQLITE_DROP_VIEW:
        return arg1 && std::strcmp(arg1, "track") == 0 && (!database || std::strcmp(database, "main") == 0)
                   ? SQLITE_DENY
                   : SQLITE_OK;
    default:
        return SQLITE_OK;
    }
}

} // namespace

QString QueryTableInfo::createStatement() const
{
    QStringList defs;
    for (const QueryColumnInfo &c : columns)
        defs << (c.type.isEmpty() ? c.name : c.name + QLatin1Char(' ') + c.type);
    return QStringLiteral("CREATE TABLE %1(%2)").arg(name, defs.join(QStringLiteral(", ")));
}

// What the C callbacks point at: kept at a stable address for the engine's lifetime.
struct QueryEngineState
{
    Authorizer authorizer;
    std::vector<std::unique_ptr<QueryTable>> tables;
};

QueryEngine::QueryEngine(const TraceModel &model, std::shared_ptr<const cluster::ClusterModel> cluster)
    : m_data(std::make_unique<QueryData>(model, std::move(cluster))),
      m_state(std::make_unique<QueryEngineState>())
{
    if (sqlite3_open_v2(":memory:", &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        m_error = m_db ? sqliteMessage(m_db)
                       : QCoreApplication::translate("Core", "SQLite could not open an in-memory database");
        sqlite3_close(m_db);
        m_db = nullptr;
        return;
    }
    auto &tables = m_state->tables;
    tables.push_back(makeSliceTable(*m_data));
    tables.push_back(makeArgsTable(*m_data));
    for (auto &t : makeModelTables(*m_data))
        tables.push_back(std::move(t));
    for (auto &t : makeSummaryTables(*m_data))
        tables.push_back(std::move(t));

    int rc = registerQueryFunctions(m_db, *m_data);
    for (const auto &table : tables) {
        if (rc != SQLITE_OK)
            break;
        const QByteArray module = "at_" + table->info().name.toUtf8();
        rc = sqlite3_create_module_v2(m_db, module.constData(), &queryModule(), table.get(), nullptr);
        if (rc == SQLITE_OK)
            rc =
                sqlite3_exec(m_db, "CREATE VIRTUAL TABLE " + table->info().name.toUtf8() + " USING " + module,
                             nullptr, nullptr, nullptr);
        m_tables.push_back(table->info());
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(m_db, kTrackView, nullptr, nullptr, nullptr);
    m_tables.push_back(trackViewInfo());
    if (rc != SQLITE_OK) {
        m_error = sqliteMessage(m_db);
        sqlite3_close(m_db);
        m_db = nullptr;
        return;
    }
    sqlite3_set_authorizer(m_db, &authorize, &m_state->authorizer);
}

QueryEngine::~QueryEngine()
{
    if (m_db)
        sqlite3_close_v2(m_db); // before the tables it refers to
}

bool QueryEngine::isReady() const
{
    return m_db != nullptr;
}

QString QueryEngine::error() const
{
    return m_error;
}

const std::vector<QueryTableInfo> &QueryEngine::tables() const
{
    return m_tables;
}

std::int64_t QueryEngine::sliceId(const SliceRef &ref) const
{
    if (!ref.isValid() || ref.thread >= static_cast<int>(m_data->model().threads().size()))
        return -1;
    return m_data->idOf(ref);
}

SliceRef QueryEngine::sliceOfId(std::int64_t id) const
{
    return m_data->refOf(id);
}

std::size_t QueryEngine::sqliteHeapBytes()
{
    return static_cast<std::size_t>(sqlite3_memory_used());
}

bool QueryEngine::isCompleteStatement(const QString &sql)
{
    return sqlite3_complete(sql.toUtf8().constData()) != 0;
}

std::size_t QueryEngine::memoryBytes() const
{
    std::size_t bytes = m_data->memoryBytes();
    if (m_db) {
        for (int op : {SQLITE_DBSTATUS_CACHE_USED, SQLITE_DBSTATUS_SCHEMA_USED, SQLITE_DBSTATUS_STMT_USED,
                       SQLITE_DBSTATUS_LOOKASIDE_USED}) {
            int current = 0, highwater = 0;
            if (sqlite3_db_status(m_db, op, &current, &highwater, 0) == SQLITE_OK)
                bytes += static_cast<std::size_t>(current);
        }
    }
    return bytes;
}

namespace {

int progressCallback(void *user)
{
    const auto *control = static_cast<const QueryControl *>(user);
    if (control->cancel && control->cancel->load(std::memory_order_relaxed))
        return 1;
    if (control->progress && !control->progress())
        return 1;
    return 0;
}

bool stopRequested(const QueryControl &control)
{
    return progressCallback(const_cast<QueryControl *>(&control)) != 0;
}

} // namespace

void QueryEngine::installControl(const QueryControl *control)
{
    m_control = control;
    if (control && (control->cancel || control->progress))
        sqlite3_progress_handler(m_db, kProgressSteps, &progressCallback,
                                 const_cast<QueryControl *>(control));
    else
        sqlite3_progress_handler(m_db, 0, nullptr, nullptr);
}

QueryOutcome QueryEngine::run(const QString &sql, QueryResultSink &sink, const QueryControl &control)
{
    if (!m_db) {
        QueryOutcome outcome;
        outcome.ok = false;
        outcome.message = m_error;
        return outcome;
    }
    installControl(&control);
    QueryOutcome outcome = runStatements(sql.toUtf8(), sink, control);
    installControl(nullptr);
    if (outcome.offset >= 0)
        locate(sql, outcome.offset, &outcome.line, &outcome.column);
    return outcome;
}

QueryOutcome QueryEngine::runStatements(const QByteArray &utf8, QueryResultSink &sink,
                                        const QueryControl &control)
{
    QueryOutcome outcome;
    const char *const base = utf8.constData();
    const char *at = base;
    const char *const end = base + utf8.size();
    auto fail = [&](const char *statementStart) {
        outcome.ok = false;
        const int rc = sqlite3_errcode(m_db);
        outcome.cancelled = rc == SQLITE_INTERRUPT && stopRequested(control);
        outcome.message = outcome.cancelled ? QCoreApplication::translate("Core", "The query was cancelled.")
                                            : sqliteMessage(m_db);
        const int offset = sqlite3_error_offset(m_db);
        if (offset >= 0 && statementStart) {
            const qsizetype byte = (statementStart - base) + offset;
            outcome.offset = static_cast<int>(QString::fromUtf8(base, byte).size());
        }
    };
    while (at < end) {
        sqlite3_stmt *statement = nullptr;
        const char *tail = nullptr;
        if (sqlite3_prepare_v3(m_db, at, static_cast<int>(end - at), 0, &statement, &tail) != SQLITE_OK) {
            fail(at);
            return outcome;
        }
        at = tail ? tail : end;
        if (!statement)
            continue; // whitespace or a comment
        const int columns = sqlite3_column_count(statement);
        bool keepGoing = true;
        if (columns > 0) {
            QStringList names;
            for (int c = 0; c < columns; ++c)
                names << QString::fromUtf8(sqlite3_column_name(statement, c));
            keepGoing = sink.begin(names);
        }
        std::vector<QueryValue> row(static_cast<std::size_t>(columns));
        int rc = SQLITE_DONE;
        while (keepGoing && (rc = sqlite3_step(statement)) == SQLITE_ROW) {
            for (int c = 0; c < columns; ++c)
                row[static_cast<std::size_t>(c)] = valueOf(statement, c);
            ++outcome.rows;
            keepGoing = sink.row(row);
            if (keepGoing && stopRequested(control)) {
                sqlite3_finalize(statement);
                outcome.ok = false;
                outcome.cancelled = true;
                outcome.message = QCoreApplication::translate("Core", "The query was cancelled.");
                if (columns > 0)
                    sink.end();
                return outcome;
            }
        }
        if (columns > 0)
            sink.end();
        if (keepGoing && rc != SQLITE_DONE) {
            fail(nullptr);
            sqlite3_finalize(statement);
            return outcome;
        }
        sqlite3_finalize(statement);
        if (!keepGoing)
            break;
    }
    return outcome;
}

std::optional<QByteArray> QueryEngine::exportDatabase(QString *error, const QueryControl &control)
{
    if (!m_db) {
        *error = m_error;
        return std::nullopt;
    }
    installControl(&control);
    m_state->authorizer.internal = true;
    auto exec = [this](const QByteArray &sql) {
        return sqlite3_exec(m_db, sql.constData(), nullptr, nullptr, nullptr);
    };
    int rc = exec("ATTACH ':memory:' AS export");
    for (const QueryTableInfo &table : m_tables) {
        if (rc != SQLITE_OK)
            break;
        if (table.view) {
            rc = exec(QByteArray(kTrackView).replace("CREATE VIEW track", "CREATE VIEW export.track"));
            continue;
        }
        const QByteArray name = table.name.toUtf8();
        rc = exec(table.createStatement()
                      .replace(QStringLiteral("CREATE TABLE "), QStringLiteral("CREATE TABLE export."))
                      .toUtf8());
        if (rc == SQLITE_OK)
            rc = exec("INSERT INTO export." + name + " SELECT * FROM main." + name);
    }
    std::optional<QByteArray> bytes;
    if (rc == SQLITE_OK) {
        sqlite3_int64 size = 0;
        if (unsigned char *data = sqlite3_serialize(m_db, "export", &size, 0)) {
            bytes = QByteArray(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
            sqlite3_free(data);
        } else {
            *error = QCoreApplication::translate("Core", "SQLite could not write the database");
        }
    } else {
        *error = rc == SQLITE_INTERRUPT && stopRequested(control)
                     ? QCoreApplication::translate("Core", "The export was cancelled.")
                     : sqliteMessage(m_db);
    }
    installControl(nullptr);
    exec("DETACH export");
    m_state->authorizer.internal = false;
    return bytes;
}

} // namespace at::query
