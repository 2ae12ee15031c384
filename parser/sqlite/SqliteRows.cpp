#include "sqlite/SqliteRows.h"

#include "sqlite/SqliteConnection.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QLocale>
#include <QSqlDriver>

#include <sqlite3.h>

#include <charconv>
#include <memory>

namespace at {

namespace {

// Qt's own texts for a failed statement, in its "QSQLiteResult" context (translated by Qt's catalogue, as
// QSqlError::text() gives them); passed through variables so that they stay out of ours.
const char *const kQtSqliteContext = "QSQLiteResult";
const char *const kUnableToExecute = "Unable to execute statement";
const char *const kUnableToFetch = "Unable to fetch row";

// QSqlError::text() of QSQLITE's error: SQLite's message, a space, the driver's text.
QString qtSqliteError(sqlite3 *db, const char *driverText)
{
    QString text = QString::fromUtf8(sqlite3_errmsg(db));
    const QString driver = QCoreApplication::translate(kQtSqliteContext, driverText);
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char(' ');
    return text + driver;
}

sqlite3 *nativeHandle(SqliteConnection &db)
{
    const QVariant handle = db.database().driver() ? db.database().driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

} // namespace

bool SqliteRow::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

QVariant SqliteRow::value(int column) const
{
    switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_INTEGER:
        return QVariant(static_cast<qlonglong>(sqlite3_column_int64(m_statement, column)));
    case SQLITE_FLOAT:
        return QVariant(sqlite3_column_double(m_statement, column));
    case SQLITE_NULL:
        return QVariant(QMetaType::fromType<QString>());
    case SQLITE_BLOB: {
        const auto *bytes = static_cast<const char *>(sqlite3_column_blob(m_statement, column));
        return QVariant(QByteArray(bytes, sqlite3_column_bytes(m_statement, column)));
    }
    default:
        return QVariant(text(column));
    }
}

QString SqliteRow::text(int column) const
{
    switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_INTEGER:
        return QString::number(sqlite3_column_int64(m_statement, column));
    case SQLITE_FLOAT:
        return QString::number(sqlite3_column_double(m_statement, column), 'g',
                               QLocale::FloatingPointShortest);
    case SQLITE_NULL:
        return {};
    case SQLITE_BLOB: {
        const auto *bytes = static_cast<const char *>(sqlite3_column_blob(m_statement, column));
        return QString::fromUtf8(bytes, sqlite3_column_bytes(m_statement, column));
    }
    default: {
        const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
        return QString::fromUtf8(bytes, sqlite3_column_bytes(m_statement, column));
    }
    }
}

double SqliteRow::real(int column) const
{
    switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_INTEGER:
        return static_cast<double>(sqlite3_column_int64(m_statement, column));
    case SQLITE_FLOAT:
        return sqlite3_column_double(m_statement, column);
    case SQLITE_NULL:
        return 0;
    default:
        return value(column).toDouble();
    }
}

qint64 SqliteRow::integer(int column) const
{
    return isInteger(column) ? sqlite3_column_int64(m_statement, column) : value(column).toLongLong();
}

std::string SqliteRow::numberText(int column) const
{
    switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_INTEGER:
        return std::to_string(sqlite3_column_int64(m_statement, column));
    case SQLITE_FLOAT: {
        char buffer[64];
        const auto result =
            std::to_chars(buffer, buffer + sizeof buffer, sqlite3_column_double(m_statement, column),
                          std::chars_format::general);
        return std::string(buffer, result.ptr);
    }
    case SQLITE_NULL:
        return {};
    case SQLITE_BLOB: {
        const auto *bytes = static_cast<const char *>(sqlite3_column_blob(m_statement, column));
        return bytes ? std::string(bytes, static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)))
                     : std::string();
    }
    default: {
        const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
        return bytes ? std::string(bytes, static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)))
                     : std::string();
    }
    }
}

std::optional<std::string_view> SqliteRow::storedText(int column) const
{
    if (sqlite3_column_type(m_statement, column) != SQLITE_TEXT)
        return std::nullopt;
    const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    return bytes
               ? std::string_view(bytes, static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)))
               : std::string_view();
}

bool SqliteRow::isInteger(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_INTEGER;
}

std::int64_t SqliteRow::storedInteger(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

bool forEachSqliteRow(SqliteConnection &db, const QString &sql,
                      const std::function<void(const SqliteRow &row)> &perRow, QString *error,
                      QString *endError)
{
    sqlite3 *handle = nativeHandle(db);
    if (!handle) {
        *error = QCoreApplication::translate(kQtSqliteContext, kUnableToExecute);
        return false;
    }
    sqlite3_stmt *raw = nullptr;
    const QByteArray utf8 = sql.toUtf8();
    if (sqlite3_prepare_v2(handle, utf8.constData(), static_cast<int>(utf8.size()), &raw, nullptr) !=
            SQLITE_OK ||
        !raw) {
        *error = qtSqliteError(handle, kUnableToExecute);
        sqlite3_finalize(raw);
        return false;
    }
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> statement(raw, &sqlite3_finalize);
    const SqliteRow row(raw);
    for (bool first = true;; first = false) {
        const int rc = sqlite3_step(raw);
        if (rc == SQLITE_DONE)
            return true;
        if (rc != SQLITE_ROW) {
            (first ? *error : *endError) = qtSqliteError(handle, kUnableToFetch);
            return !first;
        }
        perRow(row);
    }
}

} // namespace at
