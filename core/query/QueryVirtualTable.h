#pragma once
// The virtual-table glue (internal to core/query): one sqlite3_module drives every table through the
// QueryTable / QueryCursor interfaces, so a table is a class that plans constraints and walks rows, never a
// copy of the data. ArrayTable is the common case: rows 0..n-1 of a model vector, rowid = row, cells from
// one function per column, with rowid point lookups.

#include "QueryEngine.h"

#include <sqlite3.h>

#include <QString>

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace at::query {

class QueryCursor
{
public:
    virtual ~QueryCursor() = default;
    virtual void filter(int idxNum, const char *idxStr, int argc, sqlite3_value **argv) = 0;
    virtual bool eof() const = 0;
    virtual void next() = 0;
    virtual sqlite3_int64 rowid() const = 0;
    virtual void column(sqlite3_context *context, int column) = 0;
};

class QueryTable
{
public:
    virtual ~QueryTable() = default;
    virtual const QueryTableInfo &info() const = 0;
    // Fills idxNum / argvIndex / costs (sqlite3_index_info); SQLITE_OK or SQLITE_CONSTRAINT.
    virtual int bestIndex(sqlite3_index_info *info) = 0;
    virtual std::unique_ptr<QueryCursor> open() = 0;
};

// The module every table is created with (pAux = its QueryTable, owned by the engine).
const sqlite3_module &queryModule();

// ---- Results ----
void resultView(sqlite3_context *context, std::string_view text); // text that outlives the statement
void resultText(sqlite3_context *context, const QString &text);
void resultReal(sqlite3_context *context, double value); // NaN → NULL
inline void resultInt(sqlite3_context *context, std::int64_t value)
{
    sqlite3_result_int64(context, value);
}

// Finds a usable `column = ?` constraint (column -1: the rowid); its index or -1.
int findEquality(sqlite3_index_info *info, int column);

// A table over rows 0..rowCount()-1 with cells from one function per column; `id`-like first columns and
// the rowid get point lookups (WHERE id = ?).
class ArrayTable : public QueryTable
{
public:
    using Cell = std::function<void(sqlite3_context *, std::size_t row)>;
    struct Column
    {
        const char *name;
        const char *type;
        Cell cell;
    };
    // rowCount is asked at each scan (a derived table builds itself then). When idColumn >= 0, that column's
    // value equals the row number, so `WHERE <column> = ?` is a point lookup too.
    ArrayTable(QString name, std::function<std::size_t()> rowCount, std::vector<Column> columns,
               int idColumn = -1);
    const QueryTableInfo &info() const override { return m_info; }
    int bestIndex(sqlite3_index_info *info) override;
    std::unique_ptr<QueryCursor> open() override;

private:
    class Cursor;
    QueryTableInfo m_info;
    std::function<std::size_t()> m_rowCount;
    std::vector<Column> m_columns;
    int m_idColumn;
};

// Tables of prefix-summed sub-rows (the counter samples of every counter series, the points of every
// memory curve): row r is item `item` (an index into the owner's vector) at position `at`.
struct NestedRow
{
    std::size_t item = 0;
    std::size_t at = 0;
};
class NestedRows
{
public:
    void add(std::size_t count) { m_first.push_back(m_first.back() + count); }
    std::size_t size() const { return m_first.back(); }
    NestedRow locate(std::size_t row) const;

private:
    std::vector<std::size_t> m_first{0};
};

} // namespace at::query
