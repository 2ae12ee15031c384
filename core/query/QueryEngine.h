#pragma once
// SQL over the loaded model (issue #31, docs/QUERY.md): an in-memory SQLite connection whose tables are
// virtual tables reading the TraceModel (and the cluster data of the same folder) in place, so a query on a
// large trace needs no second copy of it. Results are streamed to a sink row by row; a running query can be
// cancelled. One engine is used from one thread at a time; `cancel` may be raised from any thread.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

struct sqlite3;

namespace at {

class TraceModel;
struct SliceRef;
namespace cluster {
struct ClusterModel;
}

namespace query {

class QueryData;
struct QueryEngineState;

// One cell of a result, as SQLite typed it (integers exact).
struct QueryValue
{
    enum class Type
    {
        Null,
        Integer,
        Real,
        Text,
        Blob
    };
    Type type = Type::Null;
    std::int64_t integer = 0;
    double real = 0;
    QByteArray bytes; // UTF-8 text or the blob
};

// Receives the results of the statements of one run, streamed: begin() once per statement that returns
// columns, then row() for each of its rows. Returning false from either stops the run (not an error).
class QueryResultSink
{
public:
    virtual ~QueryResultSink() = default;
    virtual bool begin(const QStringList &columns) = 0;
    virtual bool row(const std::vector<QueryValue> &values) = 0;
    virtual void end() {}
};

// How a run ended.
struct QueryOutcome
{
    bool ok = true;
    bool cancelled = false;   // the cancel flag or the progress callback stopped it
    QString message;          // SQLite's message (or why the engine refused), empty when ok
    int offset = -1;          // character offset into the SQL of the error, -1 when SQLite did not say
    int line = 0, column = 0; // 1-based position of `offset`, 0 when unknown
    std::int64_t rows = 0;    // rows delivered to the sink
};

// Cancellation and progress of a run: `cancel` is polled by SQLite's progress handler every
// kProgressSteps virtual-machine steps and between rows; `progress` (optional) is called at the same
// points and stops the run when it returns false.
struct QueryControl
{
    const std::atomic_bool *cancel = nullptr;
    std::function<bool()> progress;
};

// Name, declared SQL type and unit/meaning of one column: the schema `.schema` prints and docs/QUERY.md
// lists.
struct QueryColumnInfo
{
    QString name;
    QString type; // INTEGER, REAL, TEXT
};
struct QueryTableInfo
{
    QString name;
    bool view = false;
    std::vector<QueryColumnInfo> columns;
    QString createStatement() const; // "CREATE TABLE slice(id INTEGER, ...)"
};

class QueryEngine
{
public:
    static constexpr int kProgressSteps = 10000;

    // The model must outlive the engine. `cluster` (may be null) is the communication / cluster data of the
    // same folder (comm_op, and the ranks of the step/rank tables that have no timeline).
    explicit QueryEngine(const TraceModel &model, std::shared_ptr<const cluster::ClusterModel> cluster = {});
    ~QueryEngine();
    QueryEngine(const QueryEngine &) = delete;
    QueryEngine &operator=(const QueryEngine &) = delete;

    // False when SQLite could not be set up (then error() says why and run() refuses).
    bool isReady() const;
    QString error() const;

    // Runs every statement of `sql` in order, streaming each result to the sink. Stops at the first error.
    QueryOutcome run(const QString &sql, QueryResultSink &sink, const QueryControl &control = {});

    // The tables and views, in documentation order.
    const std::vector<QueryTableInfo> &tables() const;

    // Writes every table (and the track view) as plain tables into a new SQLite database and returns its
    // bytes (the file format): what --export-sqlite writes. nullopt with *error when it failed or was
    // cancelled.
    std::optional<QByteArray> exportDatabase(QString *error, const QueryControl &control = {});

    // The slice id of the slice tables (dense, ordered by track then row) and back; -1 / invalid when out
    // of range.
    std::int64_t sliceId(const SliceRef &ref) const;
    SliceRef sliceOfId(std::int64_t id) const;

    // True when `sql` ends with a complete statement (sqlite3_complete): what a prompt waits for.
    static bool isCompleteStatement(const QString &sql);

    // Bytes the engine holds beside the model (its indexes, SQLite's own memory).
    std::size_t memoryBytes() const;
    // SQLite's heap in this process (every connection; temp tables included): for benchmarks.
    static std::size_t sqliteHeapBytes();

private:
    QueryOutcome runStatements(const QByteArray &utf8, QueryResultSink &sink, const QueryControl &control);
    void installControl(const QueryControl *control);

    std::unique_ptr<QueryData> m_data;
    std::unique_ptr<QueryEngineState> m_state; // the tables and the authorizer's flag
    sqlite3 *m_db = nullptr;
    QString m_error;
    std::vector<QueryTableInfo> m_tables;
    const QueryControl *m_control = nullptr;
};

} // namespace query
} // namespace at
