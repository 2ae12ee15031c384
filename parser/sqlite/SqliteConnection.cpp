#include "sqlite/SqliteConnection.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QUrl>

#include <sqlite3.h>

#include <atomic>

namespace at {

namespace {

QString uniqueConnectionName()
{
    static std::atomic<unsigned> counter{0};
    return QStringLiteral("at_sqlite_%1").arg(counter.fetch_add(1));
}

} // namespace

SqliteConnection::SqliteConnection(const QString &path) : m_path(path), m_name(uniqueConnectionName())
{
    const QFileInfo info(path);
    if (!info.isFile() || !info.isReadable()) {
        m_error = QCoreApplication::translate("Parser", "%1: cannot read the file").arg(path);
        return;
    }
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        m_error = QCoreApplication::translate(
                      "Parser", "%1: the Qt SQLite driver (QSQLITE, Debian package libqt6sql6-sqlite) is not "
                                "installed")
                      .arg(path);
        return;
    }
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
    // immutable=1: SQLite reads the file as it is, takes no locks and never creates journal files.
    QString opened = info.absoluteFilePath();
    QString mode = QStringLiteral("?mode=ro&immutable=1");
    const QFileInfo wal(opened + QStringLiteral("-wal"));
    if (wal.isFile() && wal.size() > 0) {
        // Committed rows may live only in the -wal: read a private copy of both, WAL included.
        m_walCopy = std::make_unique<QTemporaryDir>();
        const QString copy = m_walCopy->filePath(QStringLiteral("copy.db"));
        if (!m_walCopy->isValid() || !QFile::copy(opened, copy) ||
            !QFile::copy(wal.absoluteFilePath(), copy + QStringLiteral("-wal"))) {
            m_error = QCoreApplication::translate(
                          "Parser", "%1: cannot copy the database and its -wal file to a temporary folder "
                                    "(its committed rows in the -wal could not be read)")
                          .arg(path);
            return;
        }
        opened = copy;
        mode = QStringLiteral("?mode=ro");
    }
    QString uri = QUrl::fromLocalFile(opened).toString(QUrl::FullyEncoded);
    uri += mode;
    m_db.setDatabaseName(uri);
    m_db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
    if (!m_db.open()) {
        m_error = QCoreApplication::translate("Parser", "%1: cannot open the database: %2")
                      .arg(path, m_db.lastError().text());
        return;
    }
    // Opening is lazy: the first query finds out whether this is an SQLite file at all.
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'"))) {
        m_error = QCoreApplication::translate("Parser", "%1: not a readable SQLite database (%2)")
                      .arg(path, query.lastError().text());
        return;
    }
    while (query.next())
        m_tables << query.value(0).toString();
    if (query.lastError().isValid()) {
        m_error = QCoreApplication::translate("Parser", "%1: the database is damaged (%2)")
                      .arg(path, query.lastError().text());
        return;
    }
    if (m_tables.isEmpty()) {
        m_error = QCoreApplication::translate(
                      "Parser", "%1: the database holds no tables (empty, or not an SQLite file)")
                      .arg(path);
        return;
    }
    m_open = true;
}

namespace {

int interruptWhenSet(void *flag)
{
    return static_cast<const std::atomic<bool> *>(flag)->load(std::memory_order_relaxed) ? 1 : 0;
}

} // namespace

void SqliteConnection::interruptWhen(const std::atomic<bool> *flag)
{
    // Qt's QSQLITE driver hands out its sqlite3* (the system libsqlite3 both link to).
    const QVariant handle = m_db.driver() ? m_db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return;
    sqlite3 *db = *static_cast<sqlite3 *const *>(handle.constData());
    if (!db)
        return;
    if (flag)
        sqlite3_progress_handler(db, 4096, &interruptWhenSet,
                                 const_cast<void *>(static_cast<const void *>(flag)));
    else
        sqlite3_progress_handler(db, 0, nullptr, nullptr);
}

SqliteConnection::~SqliteConnection()
{
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    if (QSqlDatabase::contains(m_name))
        QSqlDatabase::removeDatabase(m_name);
}

QStringList SqliteConnection::columns(const QString &table)
{
    QStringList names;
    if (!m_open || !m_tables.contains(table))
        return names;
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("PRAGMA table_info(\"%1\")").arg(table)))
        return names;
    while (query.next())
        names << query.value(1).toString();
    return names;
}

} // namespace at
