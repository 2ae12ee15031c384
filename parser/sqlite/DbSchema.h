#pragma once

#include "sqlite/SqliteConnection.h"

#include "StringPool.h"

#include <QHash>
#include <QSqlQuery>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <unordered_map>

namespace at {

// Which tables and columns a profiler database has (PRAGMA table_info), and SELECT statements that ask
// only for what is there: column sets and order drift between versions (FORMATS.md §6.4), so every
// column is selected by name. What a reader wanted but did not find is collected for one warning.
class DbSchema
{
public:
    explicit DbSchema(SqliteConnection &connection);

    SqliteConnection &connection() { return m_connection; }
    bool hasTable(const QString &table) const { return m_tables.contains(table); }
    bool hasColumn(const QString &table, const QString &column);
    // Every column of a table, in table order (empty for a missing table).
    QStringList columns(const QString &table);

    // "SELECT ... FROM table <suffix>". Each wanted entry is a column name, "a|b" (the first that
    // exists, for renames such as blockDim|blockNum), with ":int" to CAST AS INTEGER (TEXT times) and
    // a trailing "?" when its absence is normal and not worth a warning. "rowid" is always there.
    // Missing columns are selected as NULL and noted as "TABLE.column".
    QString select(const QString &table, const QStringList &wanted, const QString &suffix = {});
    // Whether a column of the last select() was found (by its position in `wanted`).
    bool found(int position) const { return m_found.value(position); }

    // Runs a query and calls rowFn for each row; a query error becomes a read problem naming the table.
    // Returns the rows read. Once the cancel flag is set, stops within 1,024 rows and runs no more queries.
    std::size_t forEachRow(const QString &table, const QString &sql,
                           const std::function<void(QSqlQuery &)> &rowFn);

    // Checked between rows, and inside SQLite while a statement runs (SqliteConnection::interruptWhen).
    void setCancelFlag(const std::atomic<bool> *cancel)
    {
        m_cancel = cancel;
        m_connection.interruptWhen(cancel);
    }
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }

    void noteMissingTable(const QString &table) { m_missing << table; }
    QStringList missing() const { return m_missing; }
    QStringList problems() const { return m_problems; }

private:
    SqliteConnection &m_connection;
    QStringList m_tables;
    QHash<QString, QStringList> m_columns;
    QList<bool> m_found;
    QStringList m_missing;
    QStringList m_problems;
    const std::atomic<bool> *m_cancel = nullptr;
};

// STRING_IDS (id -> text) and the ENUM_* tables, resolved into the builder's string pool.
class DbStrings
{
public:
    DbStrings(DbSchema &schema, StringPool &pool);
    // The interned text of a string id; an id with no entry (or no STRING_IDS table) shows as the number.
    StringId id(const QVariant &value);
    QString text(const QVariant &value) { return m_pool.qstring(id(value)); }
    // id -> name of an ENUM_* table (empty when the table is missing).
    static QHash<qint64, QString> enumTable(DbSchema &schema, const QString &table);

private:
    StringPool &m_pool;
    std::unordered_map<qint64, StringId> m_ids;
};

} // namespace at
