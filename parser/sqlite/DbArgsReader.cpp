#include "sqlite/DbArgsReader.h"

#include "sqlite/DbContext.h"
#include "sqlite/SqliteConnection.h"

#include <QSet>
#include <QSqlQuery>
#include <QSqlRecord>

namespace at {

namespace {

// Columns holding STRING_IDS ids, per table (FORMATS.md §6.2).
QSet<QString> stringColumns(const QString &table)
{
    static const QHash<QString, QSet<QString>> columns{
        {QStringLiteral("TASK"), {QStringLiteral("taskType")}},
        {QStringLiteral("COMPUTE_TASK_INFO"),
         {QStringLiteral("name"), QStringLiteral("opType"), QStringLiteral("taskType"),
          QStringLiteral("inputFormats"), QStringLiteral("inputDataTypes"), QStringLiteral("inputShapes"),
          QStringLiteral("outputFormats"), QStringLiteral("outputDataTypes"), QStringLiteral("outputShapes"),
          QStringLiteral("attrInfo"), QStringLiteral("opState"), QStringLiteral("hf32Eligible")}},
        {QStringLiteral("CANN_API"), {QStringLiteral("name")}},
        {QStringLiteral("PYTORCH_API"),
         {QStringLiteral("name"), QStringLiteral("inputDtypes"), QStringLiteral("inputShapes")}},
        {QStringLiteral("COMMUNICATION_OP"),
         {QStringLiteral("opName"), QStringLiteral("groupName"), QStringLiteral("algType"),
          QStringLiteral("opType")}},
        {QStringLiteral("COMMUNICATION_TASK_INFO"),
         {QStringLiteral("name"), QStringLiteral("taskType"), QStringLiteral("groupName")}},
        {QStringLiteral("MSTX_EVENTS"),
         {QStringLiteral("message"), QStringLiteral("category"), QStringLiteral("domainId")}},
    };
    return columns.value(table);
}

// Columns holding ENUM_* ids.
QString enumTableOf(const QString &table, const QString &column)
{
    if (table == QStringLiteral("CANN_API") && column == QStringLiteral("type"))
        return QStringLiteral("ENUM_API_TYPE");
    if (table == QStringLiteral("MSTX_EVENTS") && column == QStringLiteral("eventType"))
        return QStringLiteral("ENUM_MSTX_EVENT_TYPE");
    if (column == QStringLiteral("dataType"))
        return QStringLiteral("ENUM_HCCL_DATA_TYPE");
    if (column == QStringLiteral("linkType"))
        return QStringLiteral("ENUM_HCCL_LINK_TYPE");
    if (column == QStringLiteral("transportType"))
        return QStringLiteral("ENUM_HCCL_TRANSPORT_TYPE");
    if (column == QStringLiteral("rdmaType"))
        return QStringLiteral("ENUM_HCCL_RDMA_TYPE");
    return {};
}

// The arg names of the JSON export for TASK columns, which the details panel shows as for the export.
QString jsonArgName(const QString &table, const QString &column)
{
    if (table != QStringLiteral("TASK"))
        return column;
    static const QHash<QString, QString> names{
        {QStringLiteral("taskId"), QStringLiteral("Task Id")},
        {QStringLiteral("contextId"), QStringLiteral("Subtask Id")},
        {QStringLiteral("streamId"), QStringLiteral("Stream Id")},
        {QStringLiteral("modelId"), QStringLiteral("Model Id")},
        {QStringLiteral("taskType"), QStringLiteral("Task Type")},
        {QStringLiteral("connectionId"), QStringLiteral("connection_id")},
    };
    return names.value(column, column);
}

class RowReader
{
public:
    explicit RowReader(SqliteConnection &c) : m_c(c) {}

    void append(const QString &table, const QString &where, std::vector<std::pair<QString, QString>> &out)
    {
        QSqlQuery q(m_c.database());
        if (!q.exec(QStringLiteral("SELECT * FROM \"%1\" WHERE %2 LIMIT 1").arg(table, where)) || !q.next())
            return;
        const QSqlRecord record = q.record();
        const QSet<QString> strings = stringColumns(table);
        for (int i = 0; i < record.count(); ++i) {
            const QString column = record.fieldName(i);
            if (column == QStringLiteral("depth") || column == QStringLiteral("globalTaskId"))
                continue; // viewer bookkeeping (MindStudio Insight) and the join key
            const QVariant value = q.value(i);
            QString text = value.toString();
            if (!value.isNull() && strings.contains(column))
                text =
                    lookup(QStringLiteral("STRING_IDS"), QStringLiteral("value"), value.toLongLong(), text);
            else if (const QString e = enumTableOf(table, column); !e.isEmpty() && !value.isNull())
                text = lookup(e, QStringLiteral("name"), value.toLongLong(), text);
            out.emplace_back(jsonArgName(table, column), text);
        }
    }
    qint64 integer(const QString &sql)
    {
        QSqlQuery q(m_c.database());
        return q.exec(sql) && q.next() && !q.value(0).isNull() ? q.value(0).toLongLong() : -1;
    }

private:
    QString lookup(const QString &table, const QString &column, qint64 id, const QString &fallback)
    {
        QSqlQuery q(m_c.database());
        if (q.exec(QStringLiteral("SELECT \"%1\" FROM \"%2\" WHERE id = %3").arg(column, table).arg(id)) &&
            q.next())
            return q.value(0).toString();
        return fallback;
    }
    SqliteConnection &m_c;
};

// A column of the first row of a query as an integer; kNone when missing, NULL or not a number.
std::int64_t integerColumn(QSqlQuery &q, const QString &column)
{
    const int index = q.record().indexOf(column);
    bool ok = false;
    const qlonglong value = index < 0 ? 0 : q.value(index).toLongLong(&ok);
    return ok && !q.value(index).isNull() ? value : TaskIds::kNone;
}

} // namespace

std::optional<TaskIds> DbArgsReader::taskIds(std::uint64_t offset) const
{
    const auto table = static_cast<DbTable>(offset >> kDbRowBits);
    const qint64 rowid = static_cast<qint64>(offset & ((std::uint64_t(1) << kDbRowBits) - 1));
    TaskIds ids;
    if (table != DbTable::Task && table != DbTable::CommunicationTask)
        return ids; // not a device task
    SqliteConnection connection(m_path);
    if (!connection.isOpen())
        return std::nullopt;
    // TASK.taskId and TASK.contextId (FORMATS.md §6); a communication task's TASK row shares its
    // globalTaskId.
    const QString where =
        table == DbTable::Task
            ? QStringLiteral("rowid = %1").arg(rowid)
            : QStringLiteral("globalTaskId = (SELECT globalTaskId FROM \"%1\" WHERE rowid = %2)")
                  .arg(dbTableName(table))
                  .arg(rowid);
    QSqlQuery q(connection.database());
    if (!q.exec(QStringLiteral("SELECT * FROM TASK WHERE %1 LIMIT 1").arg(where)) || !q.next())
        return ids;
    ids.taskId = integerColumn(q, QStringLiteral("taskId"));
    ids.subtaskId = integerColumn(q, QStringLiteral("contextId"));
    if (ids.subtaskId == 4294967295LL)
        ids.subtaskId = TaskIds::kNone;
    return ids;
}

std::vector<std::pair<QString, QString>> DbArgsReader::readArgs(std::uint64_t offset) const
{
    std::vector<std::pair<QString, QString>> args;
    const auto table = static_cast<DbTable>(offset >> kDbRowBits);
    const qint64 rowid = static_cast<qint64>(offset & ((std::uint64_t(1) << kDbRowBits) - 1));
    const QString name = dbTableName(table);
    if (name.isEmpty())
        return args;
    SqliteConnection connection(m_path);
    if (!connection.isOpen())
        return args;
    RowReader reader(connection);
    reader.append(name, QStringLiteral("rowid = %1").arg(rowid), args);
    if (table == DbTable::Task || table == DbTable::CommunicationTask) {
        const qint64 taskId = reader.integer(
            QStringLiteral("SELECT globalTaskId FROM \"%1\" WHERE rowid = %2").arg(name).arg(rowid));
        if (taskId >= 0) {
            const QString where = QStringLiteral("globalTaskId = %1").arg(taskId);
            if (table == DbTable::Task) {
                for (const QString &info :
                     {QStringLiteral("COMPUTE_TASK_INFO"), QStringLiteral("COMMUNICATION_TASK_INFO")})
                    if (connection.tables().contains(info))
                        reader.append(info, where, args);
            } else {
                reader.append(QStringLiteral("TASK"), where, args);
            }
        }
    }
    return args;
}

} // namespace at
