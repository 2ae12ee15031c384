#include "QueryVirtualTable.h"

#include <algorithm>
#include <cmath>

namespace at::query {

namespace {

struct VTab : sqlite3_vtab
{
    QueryTable *table = nullptr;
};

struct VCursor : sqlite3_vtab_cursor
{
    std::unique_ptr<QueryCursor> impl;
};

int xConnect(sqlite3 *db, void *aux, int, const char *const *, sqlite3_vtab **out, char **)
{
    auto *table = static_cast<QueryTable *>(aux);
    const int rc = sqlite3_declare_vtab(db, table->info().createStatement().toUtf8().constData());
    if (rc != SQLITE_OK)
        return rc;
    auto *vtab = new VTab;
    *static_cast<sqlite3_vtab *>(vtab) = sqlite3_vtab{};
    vtab->table = table;
    *out = vtab;
    return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab *vtab)
{
    delete static_cast<VTab *>(vtab);
    return SQLITE_OK;
}

int xBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
    return static_cast<VTab *>(vtab)->table->bestIndex(info);
}

int xOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
    auto *cursor = new VCursor;
    *static_cast<sqlite3_vtab_cursor *>(cursor) = sqlite3_vtab_cursor{};
    cursor->impl = static_cast<VTab *>(vtab)->table->open();
    *out = cursor;
    return SQLITE_OK;
}

int xClose(sqlite3_vtab_cursor *cursor)
{
    delete static_cast<VCursor *>(cursor);
    return SQLITE_OK;
}

int xFilter(sqlite3_vtab_cursor *cursor, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    static_cast<VCursor *>(cursor)->impl->filter(idxNum, idxStr, argc, argv);
    return SQLITE_OK;
}

int xNext(sqlite3_vtab_cursor *cursor)
{
    static_cast<VCursor *>(cursor)->impl->next();
    return SQLITE_OK;
}

int xEof(sqlite3_vtab_cursor *cursor)
{
    return static_cast<VCursor *>(cursor)->impl->eof() ? 1 : 0;
}

int xColumn(sqlite3_vtab_cursor *cursor, sqlite3_context *context, int column)
{
    static_cast<VCursor *>(cursor)->impl->column(context, column);
    return SQLITE_OK;
}

int xRowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid)
{
    *rowid = static_cast<VCursor *>(cursor)->impl->rowid();
    return SQLITE_OK;
}

sqlite3_module makeModule()
{
    sqlite3_module m{};
    m.iVersion = 0;
    m.xCreate = &xConnect; // CREATE VIRTUAL TABLE in the engine's setup; nothing is stored
    m.xConnect = &xConnect;
    m.xBestIndex = &xBestIndex;
    m.xDisconnect = &xDisconnect;
    m.xDestroy = &xDisconnect;
    m.xOpen = &xOpen;
    m.xClose = &xClose;
    m.xFilter = &xFilter;
    m.xNext = &xNext;
    m.xEof = &xEof;
    m.xColumn = &xColumn;
    m.xRowid = &xRowid;
    return m; // read-only: no xUpdate
}

} // namespace

const sqlite3_module &queryModule()
{
    static const sqlite3_module module = makeModule();
    return module;
}

void resultView(sqlite3_context *context, std::string_view text)
{
    sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

void resultText(sqlite3_context *context, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    sqlite3_result_text(context, utf8.constData(), static_cast<int>(utf8.size()), SQLITE_TRANSIENT);
}

void resultReal(sqlite3_context *context, double value)
{
    if (std::isnan(value))
        sqlite3_result_null(context);
    else
        sqlite3_result_double(context, value);
}

int findEquality(sqlite3_index_info *info, int column)
{
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto &c = info->aConstraint[i];
        if (c.usable && c.iColumn == column && c.op == SQLITE_INDEX_CONSTRAINT_EQ)
            return i;
    }
    return -1;
}

NestedRow NestedRows::locate(std::size_t row) const
{
    const auto it = std::upper_bound(m_first.begin(), m_first.end(), row);
    const std::size_t item = static_cast<std::size_t>(it - m_first.begin()) - 1;
    return {item, row - m_first[item]};
}

// ---- ArrayTable ----

class ArrayTable::Cursor : public QueryCursor
{
public:
    explicit Cursor(const ArrayTable &table) : m_table(table) {}
    void filter(int idxNum, const char *, int argc, sqlite3_value **argv) override
    {
        const std::size_t count = m_table.m_rowCount();
        m_row = 0;
        m_end = count;
        if (idxNum == 1 && argc == 1) { // rowid / id = ?
            const int type = sqlite3_value_numeric_type(argv[0]);
            const double value = sqlite3_value_double(argv[0]);
            const sqlite3_int64 row = sqlite3_value_int64(argv[0]);
            const bool integral =
                type == SQLITE_INTEGER || (type == SQLITE_FLOAT && value == std::floor(value));
            if (integral && row >= 0 && static_cast<std::size_t>(row) < count) {
                m_row = static_cast<std::size_t>(row);
                m_end = m_row + 1;
            } else {
                m_end = 0;
            }
        }
    }
    bool eof() const override { return m_row >= m_end; }
    void next() override { ++m_row; }
    sqlite3_int64 rowid() const override { return static_cast<sqlite3_int64>(m_row); }
    void column(sqlite3_context *context, int column) override
    {
        m_table.m_columns[static_cast<std::size_t>(column)].cell(context, m_row);
    }

private:
    const ArrayTable &m_table;
    std::size_t m_row = 0, m_end = 0;
};

ArrayTable::ArrayTable(QString name, std::function<std::size_t()> rowCount, std::vector<Column> columns,
                       int idColumn)
    : m_rowCount(std::move(rowCount)), m_columns(std::move(columns)), m_idColumn(idColumn)
{
    m_info.name = std::move(name);
    for (const Column &c : m_columns)
        m_info.columns.push_back({QString::fromUtf8(c.name), QString::fromUtf8(c.type)});
}

int ArrayTable::bestIndex(sqlite3_index_info *info)
{
    int eq = findEquality(info, -1);
    if (eq < 0 && m_idColumn >= 0)
        eq = findEquality(info, m_idColumn);
    if (eq >= 0) {
        info->idxNum = 1;
        info->aConstraintUsage[eq].argvIndex = 1;
        info->aConstraintUsage[eq].omit = 1;
        info->estimatedCost = 1;
        info->estimatedRows = 1;
        info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
        return SQLITE_OK;
    }
    info->idxNum = 0;
    // A full scan; the row count is not asked here (a derived table would be built just to plan).
    info->estimatedCost = 1000;
    info->estimatedRows = 1000;
    return SQLITE_OK;
}

std::unique_ptr<QueryCursor> ArrayTable::open()
{
    return std::make_unique<Cursor>(*this);
}

} // namespace at::query
