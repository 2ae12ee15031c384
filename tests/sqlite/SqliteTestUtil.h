#pragma once

#include "TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariant>

namespace at::test {

inline QString torchDbFolder()
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/db/level1/rank0_ascend_pt"));
}
inline QString torchDb()
{
    return torchDbFolder() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
}
inline QString torchTextFolder()
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
}
inline QString msprofDb()
{
    return samplePath(
        QStringLiteral("msinsight_msprof_db_and_misc/server/src/test/test_data/full_db/msprof_0.db"));
}

// The test's own read-only view of a database, to compute expectations independently of parser/sqlite.
class ExpectDb
{
public:
    explicit ExpectDb(const QString &path, bool writable = false)
        : m_name(QStringLiteral("expect_%1").arg(reinterpret_cast<quintptr>(this)))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        if (writable) {
            db.setDatabaseName(path);
        } else {
            db.setDatabaseName(QStringLiteral("file:%1?immutable=1").arg(path));
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
        }
        m_ok = db.open();
    }
    ~ExpectDb()
    {
        QSqlDatabase::database(m_name, false).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    bool ok() const { return m_ok; }
    QVariant value(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (!q.exec(sql) || !q.next()) {
            qWarning("query failed: %s", qPrintable(sql));
            return {};
        }
        return q.value(0);
    }
    bool exec(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        return q.exec(sql);
    }

private:
    QString m_name;
    bool m_ok = false;
};

inline QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// Copies a database into dir (writable, so a stray -journal/-wal could be created there).
inline QString copyInto(const QString &source, const QString &dir, const QString &name = {})
{
    const QString target = QDir(dir).filePath(name.isEmpty() ? QFileInfo(source).fileName() : name);
    QFile::remove(target);
    if (!QFile::copy(source, target))
        return {};
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    return target;
}

inline int processIndex(const TraceModel &model, const QString &name)
{
    for (std::size_t p = 0; p < model.processes().size(); ++p)
        if (model.strings().qstring(model.processes()[p].name) == name)
            return static_cast<int>(p);
    return -1;
}

inline std::size_t slicesOfProcess(const TraceModel &model, const QString &name)
{
    const int p = processIndex(model, name);
    if (p < 0)
        return 0;
    std::size_t n = 0;
    for (int t : model.processes()[static_cast<std::size_t>(p)].threads)
        n += model.threads()[static_cast<std::size_t>(t)].slices.size();
    return n;
}

} // namespace at::test
