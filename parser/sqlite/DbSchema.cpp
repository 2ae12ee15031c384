#include "sqlite/DbSchema.h"

#include <QCoreApplication>
#include <QSqlError>

namespace at {

DbSchema::DbSchema(SqliteConnection &connection) : m_connection(connection), m_tables(connection.tables()) {}

bool DbSchema::hasColumn(const QString &table, const QString &column)
{
    if (!hasTable(table))
        return false;
    auto it = m_columns.find(table);
    if (it == m_columns.end())
        it = m_columns.insert(table, m_connection.columns(table));
    return it->contains(column);
}

QStringList DbSchema::columns(const QString &table)
{
    if (!hasTable(table))
        return {};
    auto it = m_columns.find(table);
    if (it == m_columns.end())
        it = m_columns.insert(table, m_connection.columns(table));
    return *it;
}

QString DbSchema::select(const QString &table, const QStringList &wanted, const QString &suffix)
{
    QStringList parts;
    m_found.clear();
    for (QString entry : wanted) {
        const bool optional = entry.endsWith(QLatin1Char('?'));
        if (optional)
            entry.chop(1);
        const bool asInteger = entry.endsWith(QStringLiteral(":int"));
        if (asInteger)
            entry.chop(4);
        QString column;
        for (const QString &candidate : entry.split(QLatin1Char('|'))) {
            if (candidate == QStringLiteral("rowid") || hasColumn(table, candidate)) {
                column = candidate;
                break;
            }
        }
        m_found << !column.isEmpty();
        if (column.isEmpty()) {
            if (!optional)
                m_missing << QStringLiteral("%1.%2").arg(table, entry.section(QLatin1Char('|'), 0, 0));
            parts << QStringLiteral("NULL");
        } else {
            parts << (asInteger ? QStringLiteral("CAST(\"%1\" AS INTEGER)").arg(column)
                                : QStringLiteral("\"%1\"").arg(column));
        }
    }
    return QStringLiteral("SELECT %1 FROM \"%2\" %3").arg(parts.join(QStringLiteral(", ")), table, suffix);
}

std::size_t DbSchema::forEachRow(const QString &table, const QString &sql,
                                 const std::function<void(QSqlQuery &)> &rowFn)
{
    if (cancelled())
        return 0;
    QSqlQuery query(m_connection.database());
    query.setForwardOnly(true);
    if (!query.exec(sql)) {
        m_problems << QCoreApplication::translate("Parser", "%1 could not be read (%2)")
                          .arg(table, query.lastError().text());
        return 0;
    }
    std::size_t rows = 0;
    while (query.next()) {
        rowFn(query);
        if ((++rows & 1023) == 0 && cancelled())
            return rows;
    }
    // A damaged file fails in the middle of a table: keep what came before and say where it stopped.
    if (query.lastError().isValid())
        m_problems << QCoreApplication::translate("Parser", "%1: reading stopped after %2 rows (%3)")
                          .arg(table)
                          .arg(rows)
                          .arg(query.lastError().text());
    return rows;
}

DbStrings::DbStrings(DbSchema &schema, StringPool &pool) : m_pool(pool)
{
    const QString table = QStringLiteral("STRING_IDS");
    if (!schema.hasTable(table)) {
        schema.noteMissingTable(table);
        return;
    }
    schema.forEachRow(
        table, schema.select(table, {QStringLiteral("id"), QStringLiteral("value")}), [&](QSqlQuery &q) {
            const QByteArray utf8 = q.value(1).toString().toUtf8();
            m_ids.emplace(
                q.value(0).toLongLong(),
                m_pool.intern(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size()))));
        });
}

StringId DbStrings::id(const QVariant &value)
{
    if (value.isNull())
        return 0;
    const qint64 key = value.toLongLong();
    const auto it = m_ids.find(key);
    if (it != m_ids.end())
        return it->second;
    const StringId number = m_pool.intern(std::to_string(key));
    m_ids.emplace(key, number);
    return number;
}

QHash<qint64, QString> DbStrings::enumTable(DbSchema &schema, const QString &table)
{
    QHash<qint64, QString> names;
    if (!schema.hasTable(table))
        return names;
    schema.forEachRow(table, schema.select(table, {QStringLiteral("id"), QStringLiteral("name")}),
                      [&](QSqlQuery &q) { names.insert(q.value(0).toLongLong(), q.value(1).toString()); });
    return names;
}

} // namespace at
