#include "sqlite/DbMemoryReader.h"

#include "MemoryLanes.h"
#include "sqlite/SqliteConnection.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <map>
#include <tuple>

namespace at {

namespace {

constexpr TimeNs kTimeLimit = TimeNs(1) << 62;

std::int64_t bytesOrNone(const QVariant &v)
{
    return v.isNull() ? kNoBytes : v.toLongLong();
}

// NULL (and 0, which MsInsight reads the same way) is "no time"; so is a time the model cannot hold.
TimeNs timeOrNone(const QVariant &v)
{
    if (v.isNull())
        return kNoTime;
    const qint64 t = v.toLongLong();
    return t == 0 || t <= -kTimeLimit || t >= kTimeLimit ? kNoTime : t;
}

} // namespace

void DbMemoryReader::read()
{
    DbSchema &schema = m_c.schema;
    MemoryProfile &profile = m_c.builder.memory();
    const std::size_t firstCurve = profile.curves.size();
    std::map<std::tuple<int, QString, qint64>, std::size_t> index;
    auto curve = [&](MemoryCurveKind kind, const QString &component, qint64 device) -> MemoryCurve & {
        const auto key = std::make_tuple(static_cast<int>(kind), component, device);
        auto it = index.find(key);
        if (it == index.end()) {
            MemoryCurve c;
            c.group = m_c.group;
            c.device = device;
            c.component = component;
            c.kind = kind;
            profile.curves.push_back(std::move(c));
            it = index.emplace(key, profile.curves.size() - 1).first;
        }
        return profile.curves[it->second];
    };
    std::map<QString, std::size_t> skipped; // table -> rows without a usable time
    auto add = [&](MemoryCurve &c, TimeNs t, std::int64_t allocated, std::int64_t reserved,
                   std::int64_t active) {
        c.times.push_back(t);
        c.allocated.push_back(allocated);
        c.reserved.push_back(reserved);
        c.active.push_back(active);
        ++m_rows;
    };
    const QString device = QStringLiteral("deviceId?");

    if (schema.hasTable(QStringLiteral("MEMORY_RECORD")))
        schema.forEachRow(QStringLiteral("MEMORY_RECORD"),
                          schema.select(QStringLiteral("MEMORY_RECORD"),
                                        {QStringLiteral("component"), QStringLiteral("timestamp:int"),
                                         QStringLiteral("totalAllocated"), QStringLiteral("totalReserved"),
                                         QStringLiteral("totalActive"), device}),
                          [&](QSqlQuery &q) {
                              const TimeNs t = timeOrNone(q.value(1));
                              if (t == kNoTime) {
                                  ++skipped[QStringLiteral("MEMORY_RECORD")];
                                  return;
                              }
                              add(curve(MemoryCurveKind::Component, m_c.strings.text(q.value(0)),
                                        q.value(5).isNull() ? -1 : q.value(5).toLongLong()),
                                  t, bytesOrNone(q.value(2)), bytesOrNone(q.value(3)),
                                  bytesOrNone(q.value(4)));
                          });
    // MsInsight's APP curve of a database: NPU_MEM type 'app', hbm + ddr.
    if (schema.hasTable(QStringLiteral("NPU_MEM")))
        schema.forEachRow(QStringLiteral("NPU_MEM"),
                          schema.select(QStringLiteral("NPU_MEM"),
                                        {QStringLiteral("type"), QStringLiteral("timestampNs:int"),
                                         QStringLiteral("ddr"), QStringLiteral("hbm"), device}),
                          [&](QSqlQuery &q) {
                              if (m_c.strings.text(q.value(0)).toLower() != QStringLiteral("app"))
                                  return;
                              const TimeNs t = timeOrNone(q.value(1));
                              if (t == kNoTime) {
                                  ++skipped[QStringLiteral("NPU_MEM")];
                                  return;
                              }
                              add(curve(MemoryCurveKind::Component, QStringLiteral("APP"),
                                        q.value(4).isNull() ? -1 : q.value(4).toLongLong()),
                                  t, kNoBytes, q.value(2).toLongLong() + q.value(3).toLongLong(), kNoBytes);
                          });
    if (schema.hasTable(QStringLiteral("NPU_MODULE_MEM"))) {
        const QHash<qint64, QString> modules = DbStrings::enumTable(schema, QStringLiteral("ENUM_MODULE"));
        schema.forEachRow(
            QStringLiteral("NPU_MODULE_MEM"),
            schema.select(QStringLiteral("NPU_MODULE_MEM"),
                          {QStringLiteral("moduleId"), QStringLiteral("timestampNs:int"),
                           QStringLiteral("totalReserved"), device}),
            [&](QSqlQuery &q) {
                const TimeNs t = timeOrNone(q.value(1));
                if (t == kNoTime) {
                    ++skipped[QStringLiteral("NPU_MODULE_MEM")];
                    return;
                }
                const qint64 id = q.value(0).toLongLong();
                const QString name = modules.value(id, QString::number(id));
                std::int64_t reserved = bytesOrNone(q.value(2));
                if (reserved != kNoBytes && reserved < 0)
                    reserved = kNoBytes; // -1: only releases seen
                add(curve(MemoryCurveKind::Module, name, q.value(3).isNull() ? -1 : q.value(3).toLongLong()),
                    t, kNoBytes, reserved, kNoBytes);
            });
    }
    if (schema.hasTable(QStringLiteral("OP_MEMORY")))
        schema.forEachRow(
            QStringLiteral("OP_MEMORY"),
            schema.select(QStringLiteral("OP_MEMORY"),
                          {QStringLiteral("name"), QStringLiteral("size"),
                           QStringLiteral("allocationTime:int"), QStringLiteral("releaseTime:int"),
                           QStringLiteral("activeReleaseTime:int"),
                           QStringLiteral("allocationTotalAllocated"),
                           QStringLiteral("allocationTotalReserved"), QStringLiteral("allocationTotalActive"),
                           QStringLiteral("releaseTotalAllocated"), QStringLiteral("releaseTotalReserved"),
                           QStringLiteral("releaseTotalActive"), QStringLiteral("streamPtr"), device}),
            [&](QSqlQuery &q) {
                MemoryAllocation a;
                a.group = m_c.group;
                a.name = q.value(0).isNull() ? 0 : m_c.strings.id(q.value(0));
                a.bytes = q.value(1).toLongLong();
                a.allocation = timeOrNone(q.value(2));
                a.release = timeOrNone(q.value(3));
                a.activeRelease = timeOrNone(q.value(4));
                a.allocationAllocated = bytesOrNone(q.value(5));
                a.allocationReserved = bytesOrNone(q.value(6));
                a.allocationActive = bytesOrNone(q.value(7));
                a.releaseAllocated = bytesOrNone(q.value(8));
                a.releaseReserved = bytesOrNone(q.value(9));
                a.releaseActive = bytesOrNone(q.value(10));
                if (!q.value(11).isNull())
                    a.stream = m_c.intern(q.value(11).toString());
                a.device = q.value(12).isNull() ? -1 : q.value(12).toLongLong();
                profile.allocations.push_back(a);
                ++m_rows;
            });
    for (const auto &[table, rows] : skipped)
        m_c.builder.addWarning(
            QCoreApplication::translate("Parser", "%1: %2 rows of %3 have no usable time and were skipped")
                .arg(QFileInfo(m_c.path).fileName())
                .arg(rows)
                .arg(table));
    sortMemoryCurves(profile, firstCurve);
    addMemoryCounterLanes(m_c.builder, firstCurve);
}

std::optional<ReservedPeak>
readDatabaseReservedPeak(const QString &path, const std::function<void(const QString &)> &warn, bool *read)
{
    *read = false;
    SqliteConnection db(path);
    if (!db.isOpen())
        return std::nullopt;
    const QStringList tables = db.tables();
    std::optional<ReservedPeak> peak;
    // Each query returns its table's largest value first (then the earliest time): one row.
    auto query = [&](const QString &sql, const QString &component) {
        QSqlQuery q(db.database());
        q.setForwardOnly(true);
        if (!q.exec(sql)) {
            warn(QStringLiteral("%1: %2").arg(path, q.lastError().text()));
            return;
        }
        *read = true;
        while (q.next()) {
            if (q.value(1).isNull() || q.value(2).isNull())
                continue;
            const std::int64_t bytes = q.value(1).toLongLong();
            const TimeNs time = q.value(2).toLongLong();
            if (peak && (bytes < peak->bytes || (bytes == peak->bytes && time >= peak->time)))
                continue;
            peak = ReservedPeak{bytes, time, component.isEmpty() ? q.value(0).toString() : component};
        }
    };
    if (tables.contains(QStringLiteral("MEMORY_RECORD")))
        query(QStringLiteral(
                  "SELECT s.value, m.totalReserved, CAST(m.timestamp AS INTEGER) FROM MEMORY_RECORD m "
                  "LEFT JOIN STRING_IDS s ON s.id = m.component WHERE m.totalReserved IS NOT NULL "
                  "ORDER BY m.totalReserved DESC, CAST(m.timestamp AS INTEGER) LIMIT 1"),
              {});
    if (tables.contains(QStringLiteral("NPU_MEM")))
        query(QStringLiteral("SELECT 'APP', CAST(n.hbm + n.ddr AS INTEGER) AS total, "
                             "CAST(n.timestampNs AS INTEGER) AS t FROM NPU_MEM n "
                             "JOIN STRING_IDS s ON s.id = n.type WHERE lower(s.value) = 'app' "
                             "ORDER BY total DESC, t LIMIT 1"),
              QStringLiteral("APP"));
    if (!peak && tables.contains(QStringLiteral("NPU_MODULE_MEM")) &&
        tables.contains(QStringLiteral("ENUM_MODULE")))
        query(QStringLiteral("SELECT e.name || ' (module)', CAST(m.totalReserved AS INTEGER) AS total, "
                             "CAST(m.timestampNs AS INTEGER) AS t FROM NPU_MODULE_MEM m "
                             "LEFT JOIN ENUM_MODULE e ON e.id = m.moduleId WHERE m.totalReserved >= 0 "
                             "ORDER BY total DESC, t LIMIT 1"),
              {});
    return peak;
}

} // namespace at
