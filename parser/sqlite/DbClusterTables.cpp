#include "sqlite/DbClusterTables.h"

#include <QSqlError>
#include <QSqlQuery>

namespace at {

namespace {

std::string text(const QSqlQuery &q, int column)
{
    return q.value(column).toString().toStdString();
}

} // namespace

DbClusterTables::DbClusterTables(const QString &path) : m_db(path) {}

bool DbClusterTables::hasTable(const QString &table) const
{
    return m_db.isOpen() && m_db.tables().contains(table);
}

template <typename F> bool DbClusterTables::query(const QString &sql, F &&perRow)
{
    QSqlQuery q(m_db.database());
    q.setForwardOnly(true);
    if (!q.exec(sql)) {
        m_error = QStringLiteral("%1: %2").arg(m_db.path(), q.lastError().text());
        return false;
    }
    while (q.next())
        perRow(q);
    return true;
}

bool DbClusterTables::readStepTraceTime(const std::function<void(const StepTraceTimeRow &)> &perRow)
{
    const bool hasDevice = m_db.columns(QStringLiteral("StepTraceTime")).contains(QStringLiteral("deviceId"));
    const QString sql =
        QStringLiteral("SELECT step, CAST(computing AS TEXT), CAST(communication_not_overlapped AS TEXT), "
                       "CAST(overlapped AS TEXT), CAST(communication AS TEXT), CAST(free AS TEXT), "
                       "CAST(stage AS TEXT), CAST(bubble AS TEXT), "
                       "CAST(communication_not_overlapped_and_exclude_receive AS TEXT), "
                       "CAST(preparing AS TEXT), %1 FROM StepTraceTime")
            .arg(hasDevice ? QStringLiteral("deviceId") : QStringLiteral("NULL"));
    return query(sql, [&](const QSqlQuery &q) {
        StepTraceTimeRow row;
        row.step = q.value(0).toString();
        for (int c = 0; c < 9; ++c)
            row.times[static_cast<std::size_t>(c)] = text(q, c + 1);
        if (!q.value(10).isNull())
            row.deviceId = q.value(10).toInt();
        perRow(row);
    });
}

bool DbClusterTables::readStepWindows(const std::function<void(const StepWindowRow &)> &perRow)
{
    return query(QStringLiteral("SELECT id, startNs, endNs FROM STEP_TIME ORDER BY startNs"),
                 [&](const QSqlQuery &q) {
                     perRow({q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong()});
                 });
}

bool DbClusterTables::readOverlaps(const std::function<void(const OverlapRow &)> &perRow)
{
    return query(QStringLiteral("SELECT type, startNs, endNs FROM OVERLAP_ANALYSIS"),
                 [&](const QSqlQuery &q) {
                     perRow({q.value(0).toInt(), q.value(1).toLongLong(), q.value(2).toLongLong()});
                 });
}

bool DbClusterTables::readCommTimes(const std::function<void(const CommTimeRow &)> &perRow)
{
    return query(
        QStringLiteral("SELECT hccl_op_name, group_name, CAST(start_timestamp AS TEXT), "
                       "CAST(elapse_time AS TEXT), CAST(transit_time AS TEXT), CAST(wait_time AS TEXT), "
                       "CAST(synchronization_time AS TEXT), CAST(idle_time AS TEXT), step, type "
                       "FROM CommAnalyzerTime"),
        [&](const QSqlQuery &q) {
            perRow({q.value(0).toString(), q.value(1).toString(), text(q, 2), text(q, 3), text(q, 4),
                    text(q, 5), text(q, 6), text(q, 7), q.value(8).toString(), q.value(9).toString()});
        });
}

bool DbClusterTables::readCommBandwidth(const std::function<void(const CommBandwidthRow &)> &perRow)
{
    return query(
        QStringLiteral("SELECT hccl_op_name, group_name, transport_type, transit_size, "
                       "CAST(transit_time AS TEXT), bandwidth, large_packet_ratio, package_size, count, "
                       "CAST(total_duration AS TEXT), step FROM CommAnalyzerBandwidth"),
        [&](const QSqlQuery &q) {
            CommBandwidthRow row;
            row.opName = q.value(0).toString();
            row.group = q.value(1).toString();
            row.transport = q.value(2).toString();
            row.transitSize = q.value(3).toDouble();
            row.transitTime = text(q, 4);
            row.bandwidth = q.value(5).toDouble();
            row.largePacketRatio = q.value(6).toDouble();
            row.packageSize = q.value(7).toDouble();
            row.count = q.value(8).toLongLong();
            row.totalDuration = text(q, 9);
            row.step = q.value(10).toString();
            perRow(row);
        });
}

bool DbClusterTables::readCommMatrix(const std::function<void(const CommMatrixRow &)> &perRow)
{
    return query(
        QStringLiteral("SELECT hccl_op_name, group_name, src_rank, dst_rank, transport_type, transit_size, "
                       "CAST(transit_time AS TEXT), bandwidth, step, op_name FROM CommAnalyzerMatrix"),
        [&](const QSqlQuery &q) {
            CommMatrixRow row;
            row.opKey = q.value(0).toString();
            row.group = q.value(1).toString();
            row.srcRank = q.value(2).toDouble();
            row.dstRank = q.value(3).toDouble();
            row.transport = q.value(4).toString();
            row.transitSize = q.value(5).toDouble();
            row.transitTime = text(q, 6);
            row.bandwidth = q.value(7).toDouble();
            row.step = q.value(8).toString();
            row.opName = q.value(9).toString();
            perRow(row);
        });
}

} // namespace at
