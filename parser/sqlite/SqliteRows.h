#pragma once
// The rows of one SELECT on a SqliteConnection read through SQLite's own API (sqlite3_step and the
// sqlite3_column_* functions on Qt's connection), for tables of tens of thousands of rows: QSqlQuery turns
// every column of every row into a QVariant (a UTF-16 copy for each text) before the caller asks for one,
// which was a third of reading msprof-analyze's cluster_analysis.db of 1,024 ranks (issue #32). Each
// accessor returns what QSqlQuery::value(column) converted the same way would (QSQLITE's conversions:
// INTEGER → qlonglong, REAL → double, TEXT → QString, BLOB → QByteArray, NULL → a null QString), so a
// reader moved from QSqlQuery reads the same values.

#include <QString>
#include <QVariant>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3_stmt;

namespace at {

class SqliteConnection;

class SqliteRow
{
public:
    explicit SqliteRow(sqlite3_stmt *statement) : m_statement(statement) {}

    bool isNull(int column) const;
    // QSqlQuery::value(column), as QSQLITE makes it.
    QVariant value(int column) const;
    // value(column).toString(): a REAL as its shortest round-trip text, NULL as an empty string.
    QString text(int column) const;
    // value(column).toDouble() and .toLongLong().
    double real(int column) const;
    qint64 integer(int column) const;
    // The stored number as decimal text for an exact parse: a REAL as its shortest round-trip digits
    // (std::to_chars), an INTEGER in decimal, a TEXT as stored (UTF-8); empty for NULL. The same value as
    // text(column) gives, not always the same text (1.5e+06 where Qt writes 1500000, 100000 for Qt's
    // 1e+05): a rejection warning quotes this text. Qt's formatting cost 80 ms at 1,024 ranks.
    std::string numberText(int column) const;
    // The bytes of a value stored as TEXT (UTF-8, valid until the next row); nullopt for another storage.
    std::optional<std::string_view> storedText(int column) const;
    // The value when it is stored as an INTEGER.
    bool isInteger(int column) const;
    std::int64_t storedInteger(int column) const;

private:
    sqlite3_stmt *m_statement;
};

// Runs `sql` on db and calls perRow for each row. False when the statement could not be prepared or its
// first row not read, with *error set to QSqlQuery's text for that failure; true otherwise, with
// *endError set when a later row could not be read (the rows before it were given). Both as
// QSqlError::text() writes them: SQLite's message, then Qt's "Unable to execute statement" / "Unable to
// fetch row".
bool forEachSqliteRow(SqliteConnection &db, const QString &sql,
                      const std::function<void(const SqliteRow &row)> &perRow, QString *error,
                      QString *endError);

} // namespace at
