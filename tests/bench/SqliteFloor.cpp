#include "SqliteFloor.h"

#include <sqlite3.h>

#include <cstdio>

namespace at::bench {

struct SqliteFloor::Data
{
    std::vector<std::string_view> names;
    std::vector<std::int64_t> durations;
};

namespace {

using Data = SqliteFloor::Data;

struct FloorTable : sqlite3_vtab
{
    const std::vector<std::string_view> *names = nullptr;
    const std::vector<std::int64_t> *durations = nullptr;
};

struct FloorCursor : sqlite3_vtab_cursor
{
    const FloorTable *table = nullptr;
    std::size_t row = 0;
};

int connect(sqlite3 *db, void *aux, int, const char *const *, sqlite3_vtab **out, char **)
{
    const int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(name TEXT, dur INTEGER)");
    if (rc != SQLITE_OK)
        return rc;
    auto *table = new FloorTable;
    *static_cast<sqlite3_vtab *>(table) = sqlite3_vtab{};
    const auto *data = static_cast<const Data *>(aux);
    table->names = &data->names;
    table->durations = &data->durations;
    *out = table;
    return SQLITE_OK;
}

int disconnect(sqlite3_vtab *table)
{
    delete static_cast<FloorTable *>(table);
    return SQLITE_OK;
}

int bestIndex(sqlite3_vtab *, sqlite3_index_info *info)
{
    // The rows are in name order: GROUP BY / ORDER BY name need no sorter (as the slice table's by-name
    // walk).
    if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == 0 && !info->aOrderBy[0].desc)
        info->orderByConsumed = 1;
    info->estimatedCost = 1e6;
    return SQLITE_OK;
}

int open(sqlite3_vtab *table, sqlite3_vtab_cursor **out)
{
    auto *cursor = new FloorCursor;
    *static_cast<sqlite3_vtab_cursor *>(cursor) = sqlite3_vtab_cursor{};
    cursor->table = static_cast<FloorTable *>(table);
    *out = cursor;
    return SQLITE_OK;
}

int close(sqlite3_vtab_cursor *cursor)
{
    delete static_cast<FloorCursor *>(cursor);
    return SQLITE_OK;
}

int filter(sqlite3_vtab_cursor *cursor, int, const char *, int, sqlite3_value **)
{
    static_cast<FloorCursor *>(cursor)->row = 0;
    return SQLITE_OK;
}

int next(sqlite3_vtab_cursor *cursor)
{
    ++static_cast<FloorCursor *>(cursor)->row;
    return SQLITE_OK;
}

int eof(sqlite3_vtab_cursor *cursor)
{
    const auto *c = static_cast<FloorCursor *>(cursor);
    return c->row >= c->table->durations->size() ? 1 : 0;
}

int column(sqlite3_vtab_cursor *cursor, sqlite3_context *context, int column)
{
    const auto *c = static_cast<FloorCursor *>(cursor);
    if (column == 0) {
        const std::string_view name = (*c->table->names)[c->row];
        sqlite3_result_text(context, name.data(), static_cast<int>(name.size()), SQLITE_STATIC);
    } else {
        sqlite3_result_int64(context, (*c->table->durations)[c->row]);
    }
    return SQLITE_OK;
}

int rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *out)
{
    *out = static_cast<sqlite3_int64>(static_cast<FloorCursor *>(cursor)->row);
    return SQLITE_OK;
}

sqlite3_module floorModule()
{
    sqlite3_module m{};
    m.xCreate = &connect;
    m.xConnect = &connect;
    m.xBestIndex = &bestIndex;
    m.xDisconnect = &disconnect;
    m.xDestroy = &disconnect;
    m.xOpen = &open;
    m.xClose = &close;
    m.xFilter = &filter;
    m.xNext = &next;
    m.xEof = &eof;
    m.xColumn = &column;
    m.xRowid = &rowid;
    return m;
}

} // namespace

SqliteFloor::SqliteFloor(std::vector<std::string_view> names, std::vector<std::int64_t> durations)
    : m_data(std::make_unique<Data>(Data{std::move(names), std::move(durations)}))
{
    static const sqlite3_module module = floorModule();
    sqlite3_open(":memory:", &m_db);
    sqlite3_create_module_v2(m_db, "floor_module", &module, m_data.get(), nullptr);
    sqlite3_exec(m_db, "CREATE VIRTUAL TABLE floor USING floor_module", nullptr, nullptr, nullptr);
}

SqliteFloor::~SqliteFloor()
{
    sqlite3_close(m_db);
}

std::int64_t SqliteFloor::run(const char *sql)
{
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(m_db, sql, -1, &statement, nullptr) != SQLITE_OK) {
        std::fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(m_db));
        return -1;
    }
    std::int64_t rows = 0;
    int rc = SQLITE_OK;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW)
        ++rows;
    sqlite3_finalize(statement);
    return rc == SQLITE_DONE ? rows : -1;
}

} // namespace at::bench
