#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

class QTemporaryDir;

namespace at {

// A read-only, immutable Qt SQL (QSQLITE) connection to one profiler database (FORMATS.md §6.4: never
// write into user data; immutable also keeps SQLite from creating -journal / -wal files). Each object
// has its own connection name, so loads on several worker threads never share one; the connection is
// removed again when the object goes. Queries made on it must be gone before it is destroyed.
// A database with a non-empty "-wal" next to it has committed rows that immutable=1 would not see: it
// is copied with its -wal into a private temporary folder and that copy is opened read-only (SQLite
// rebuilds the -shm there), so the data folder is still never written to.
class SqliteConnection
{
public:
    explicit SqliteConnection(const QString &path);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection &) = delete;
    SqliteConnection &operator=(const SqliteConnection &) = delete;

    // False when the file could not be opened or is not a readable SQLite database; error() says why.
    bool isOpen() const { return m_open; }
    QString error() const { return m_error; }
    const QString &path() const { return m_path; }
    QSqlDatabase &database() { return m_db; }
    QStringList tables() const { return m_tables; }
    // Column names of a table as PRAGMA table_info reports them (empty when there is no such table).
    QStringList columns(const QString &table);
    // Makes SQLite abandon the running statement (SQLITE_INTERRUPT) once *flag is set, checked every few
    // thousand virtual-machine steps: a query that sorts a large table before its first row can then
    // be cancelled too. nullptr removes the check.
    void interruptWhen(const std::atomic<bool> *flag);

private:
    QString m_path;
    QString m_name;
    std::unique_ptr<QTemporaryDir> m_walCopy; // holds the copy of a database with a -wal
    QSqlDatabase m_db;
    QStringList m_tables;
    QString m_error;
    bool m_open = false;
};

} // namespace at
