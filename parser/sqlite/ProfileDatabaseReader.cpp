#include "sqlite/ProfileDatabaseReader.h"

#include "config/ConfigFiles.h"
#include "sqlite/DbArgsReader.h"
#include "sqlite/DbContext.h"
#include "sqlite/DbCounterReader.h"
#include "sqlite/DbKernelReader.h"
#include "sqlite/DbMemoryReader.h"
#include "sqlite/DbTimelineReader.h"

#include <QCoreApplication>

namespace at {

namespace {

QString utcFromNs(qint64 ns)
{
    return config::utcDateFromMicroseconds(ns /
                                           1000); // the format the configuration files' dates are shown in
}

// NPU_INFO, META_DATA, SESSION_TIME_INFO, HOST_INFO, RANK_DEVICE_MAP → collection properties.
void readCollectionProperties(DbSchema &schema, DatabaseReadInfo &info)
{
    auto add = [&](const QString &key, const QString &value) {
        if (!value.isEmpty())
            info.properties.append({key, value});
    };
    auto first = [&](const QString &table, const QStringList &columns, const QString &suffix = {}) {
        QVariantList values;
        if (!schema.hasTable(table))
            return values;
        schema.forEachRow(table, schema.select(table, columns, suffix + QStringLiteral(" LIMIT 1")),
                          [&](QSqlQuery &q) {
                              for (int i = 0; i < columns.size(); ++i)
                                  values << q.value(i);
                          });
        return values;
    };
    const QVariantList rank =
        first(QStringLiteral("RANK_DEVICE_MAP"), {QStringLiteral("rankId"), QStringLiteral("deviceId")});
    if (rank.size() == 2) {
        add(QStringLiteral("rank"), rank[0].toLongLong() >= 0 ? rank[0].toString() : QString());
        add(QStringLiteral("device"), rank[1].toString());
    }
    const QVariantList host = first(QStringLiteral("HOST_INFO"), {QStringLiteral("hostName")});
    if (!host.isEmpty())
        add(QStringLiteral("hostname"), host[0].toString());
    const QVariantList chip =
        first(QStringLiteral("NPU_INFO"), {QStringLiteral("name")}, QStringLiteral("ORDER BY id DESC"));
    if (!chip.isEmpty())
        add(QStringLiteral("chip"), chip[0].toString());
    const QVariantList session = first(QStringLiteral("SESSION_TIME_INFO"),
                                       {QStringLiteral("startTimeNs:int"), QStringLiteral("endTimeNs:int")});
    if (session.size() == 2) {
        add(QStringLiteral("collection start"), utcFromNs(session[0].toLongLong()));
        add(QStringLiteral("collection end"), utcFromNs(session[1].toLongLong()));
    }
    const QString meta = QStringLiteral("META_DATA");
    if (!schema.hasTable(meta)) {
        schema.noteMissingTable(meta);
    } else {
        schema.forEachRow(meta, schema.select(meta, {QStringLiteral("name"), QStringLiteral("value")}),
                          [&](QSqlQuery &q) {
                              if (q.value(0).toString() == QStringLiteral("SCHEMA_VERSION"))
                                  add(QStringLiteral("database schema"), q.value(1).toString());
                          });
    }
}

} // namespace

bool readProfileDatabase(const QString &path, TraceBuilder &builder, DatabaseReadInfo *info, QString *error,
                         const std::atomic<bool> *cancel)
{
    SqliteConnection connection(path);
    if (!connection.isOpen()) {
        *error = connection.error();
        return false;
    }
    DbSchema schema(connection);
    schema.setCancelFlag(cancel);
    DbStrings strings(schema, builder.strings());
    const std::uint32_t source = builder.addSource(path, std::make_shared<DbArgsReader>(path));
    DbContext context{schema, strings, builder, builder.currentGroup(), source, path, {}, {}};

    DbTimelineReader timeline(context);
    timeline.read();
    DbKernelReader kernels(context);
    kernels.read();
    DbCounterReader counters(context);
    counters.read();
    DbMemoryReader memory(context);
    memory.read();
    readCollectionProperties(schema, *info);

    info->slices = timeline.slicesRead();
    info->kernelRows = kernels.rowsRead();
    info->counterSamples = counters.samplesRead();
    info->metricHeaders = kernels.metricHeaders();
    info->metricGroup = kernels.metricGroup();

    QStringList missing = schema.missing();
    missing.removeDuplicates();
    if (!missing.isEmpty())
        builder.addWarning(QCoreApplication::translate(
                               "Parser",
                               "%1: the database lacks %2 (a schema version this viewer does not know); "
                               "everything else was loaded")
                               .arg(path, missing.join(QStringLiteral(", "))));
    for (const QString &problem : schema.problems())
        builder.addWarning(QStringLiteral("%1: %2").arg(path, problem));
    if (schema.cancelled())
        return true; // the loader reports the cancel (or the memory limit that caused it)
    if (info->slices == 0 && info->counterSamples == 0 && info->kernelRows == 0) {
        *error =
            QCoreApplication::translate(
                "Parser", "%1: the database holds no timeline data (no TASK, CANN_API or PYTORCH_API rows)")
                .arg(path);
        if (!schema.problems().isEmpty())
            *error += QStringLiteral(": ") + schema.problems().join(QStringLiteral("; "));
        return false;
    }
    return true;
}

} // namespace at
