#include "sqlite/DbKernelReader.h"

#include "csv/CsvMetrics.h"

#include <QFileInfo>

#include <algorithm>
#include <unordered_map>

namespace at {

namespace {

qint64 intOr(const QVariant &v, qint64 fallback)
{
    return v.isNull() ? fallback : v.toLongLong();
}

} // namespace

QString csvHeaderOfPmuMetric(const QString &name, double *scale)
{
    *scale = 1.0;
    if (name == QStringLiteral("aic_total_time") || name == QStringLiteral("aiv_total_time")) {
        *scale = 1e-3;
        return name.startsWith(QStringLiteral("aic")) ? QStringLiteral("aicore_time(us)")
                                                      : QStringLiteral("aiv_time(us)");
    }
    if (name.endsWith(QStringLiteral("_time"))) {
        *scale = 1e-3;
        return name + QStringLiteral("(us)");
    }
    return name; // ratios, cycles, rates: same name and unit as in the CSV
}

DbKernelReader::DbKernelReader(DbContext &context) : m_c(context) {}

void DbKernelReader::readSteps()
{
    const QString table = QStringLiteral("STEP_TIME");
    DbSchema &schema = m_c.schema;
    if (!schema.hasTable(table))
        return;
    const QString source = QStringLiteral("STEP_TIME in %1").arg(QFileInfo(m_c.path).fileName());
    schema.forEachRow(
        table,
        schema.select(table,
                      {QStringLiteral("id"), QStringLiteral("startNs:int"), QStringLiteral("endNs:int")},
                      QStringLiteral("ORDER BY startNs")),
        [&](QSqlQuery &q) {
            const Step step{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong()};
            m_steps.push_back(step);
            m_c.builder.addDeclaredStep({m_c.group, step.number, step.begin, step.end, source});
        });
}

qint64 DbKernelReader::stepOf(TimeNs start) const
{
    for (const Step &s : m_steps)
        if (start >= s.begin && start <= s.end)
            return s.number;
    return KernelRecord::kNone;
}

void DbKernelReader::read()
{
    readSteps();
    DbSchema &schema = m_c.schema;
    StringPool &strings = m_c.builder.strings();
    KernelTable &kernels = m_c.builder.kernels();

    // Metrics first: globalTaskId -> (column, value), columns in order of first appearance.
    std::unordered_map<qint64, std::vector<std::pair<int, double>>> metrics;
    const QString pmu = QStringLiteral("TASK_PMU_INFO");
    if (!schema.hasTable(pmu))
        schema.noteMissingTable(pmu); // no AI Core metrics (also the case for Level0 collections)
    else {
        std::unordered_map<StringId, std::pair<int, double>> columnOf; // metric name -> (column, scale)
        std::vector<std::string> bareNames;
        schema.forEachRow(
            pmu,
            schema.select(pmu,
                          {QStringLiteral("globalTaskId"), QStringLiteral("name"), QStringLiteral("value")}),
            [&](QSqlQuery &q) {
                const StringId name = m_c.strings.id(q.value(1));
                auto it = columnOf.find(name);
                if (it == columnOf.end()) {
                    double scale = 1;
                    const QString header = csvHeaderOfPmuMetric(strings.qstring(name), &scale);
                    const MetricColumn split = splitMetricHeader(header.toStdString());
                    KernelMetricColumn column;
                    column.header = header;
                    column.name = QString::fromStdString(split.name);
                    column.core = split.side == CoreSide::Aic   ? QStringLiteral("aic")
                                  : split.side == CoreSide::Aiv ? QStringLiteral("aiv")
                                                                : QString();
                    const std::string_view unit = metricUnitText(split.unit);
                    column.unit = QString::fromUtf8(unit.data(), static_cast<qsizetype>(unit.size()));
                    it = columnOf.emplace(name, std::make_pair(kernels.addColumn(column), scale)).first;
                    m_metricHeaders << header;
                    bareNames.push_back(split.name);
                }
                metrics[q.value(0).toLongLong()].emplace_back(it->second.first,
                                                              q.value(2).toDouble() * it->second.second);
            });
        const MetricGroup group = classifyMetricGroup(bareNames);
        if (group != MetricGroup::None) {
            const std::string_view name = metricGroupName(group);
            m_metricGroup = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
            kernels.setMetricGroup(m_c.group, m_metricGroup);
        }
    }

    struct Pending
    {
        KernelRecord record;
        qint64 globalTaskId;
    };
    std::vector<Pending> pending;
    const QString compute = QStringLiteral("COMPUTE_TASK_INFO");
    if (!schema.hasTable(compute)) {
        schema.noteMissingTable(compute);
    } else {
        const QString sql = schema.select(
            compute, {QStringLiteral("globalTaskId"), QStringLiteral("name"), QStringLiteral("opType"),
                      QStringLiteral("taskType"), QStringLiteral("blockDim|blockNum"),
                      QStringLiteral("inputShapes"), QStringLiteral("inputDataTypes"),
                      QStringLiteral("waitNs?"), QStringLiteral("opState?"), QStringLiteral("mixBlockDim?")});
        schema.forEachRow(compute, sql, [&](QSqlQuery &q) {
            const auto task = m_c.taskByGlobalId.find(q.value(0).toLongLong());
            if (task == m_c.taskByGlobalId.end())
                return;
            const DbTask &t = m_c.tasks[task->second];
            KernelRecord k;
            k.group = m_c.group;
            k.start = t.start; // absolute; build() makes it relative
            k.duration = dbDuration(t.start, t.end);
            k.wait = intOr(q.value(7), 0);
            k.name = m_c.strings.id(q.value(1));
            k.type = m_c.strings.id(q.value(2));
            k.acceleratorCore = m_c.strings.id(q.value(3));
            k.inputShapes = m_c.strings.id(q.value(5));
            k.inputTypes = m_c.strings.id(q.value(6));
            k.streamId = t.streamId;
            k.taskId = t.taskId;
            k.contextId = t.contextId < 0 ? KernelRecord::kNone : t.contextId;
            k.blockDim = intOr(q.value(4), KernelRecord::kNone);
            k.stepId = stepOf(t.start);
            k.opState = m_c.strings.id(q.value(8)); // NULL (no such column) gives no state
            k.mixBlockDim = intOr(q.value(9), KernelRecord::kNone);
            pending.push_back({k, t.globalTaskId});
        });
    }
    // Communication operators are rows of kernel_details.csv too (Accelerator Core "HCCL").
    const QString commOp = QStringLiteral("COMMUNICATION_OP");
    if (schema.hasTable(commOp)) {
        const StringId hccl = strings.intern("HCCL");
        const QString sql = schema.select(commOp, {QStringLiteral("startNs:int"), QStringLiteral("endNs:int"),
                                                   QStringLiteral("opName"), QStringLiteral("opType"),
                                                   QStringLiteral("waitNs?")});
        schema.forEachRow(commOp, sql, [&](QSqlQuery &q) {
            KernelRecord k;
            k.group = m_c.group;
            k.start = q.value(0).toLongLong();
            k.duration = std::max<TimeNs>(0, q.value(1).toLongLong() - k.start);
            k.wait = intOr(q.value(4), 0);
            k.name = m_c.strings.id(q.value(2));
            k.type = m_c.strings.id(q.value(3));
            k.acceleratorCore = hccl;
            k.stepId = stepOf(k.start);
            pending.push_back({k, -1});
        });
    }
    std::stable_sort(pending.begin(), pending.end(),
                     [](const Pending &a, const Pending &b) { return a.record.start < b.record.start; });
    for (const Pending &p : pending) {
        const std::size_t row = kernels.addRow(p.record);
        const auto m = metrics.find(p.globalTaskId);
        if (p.globalTaskId >= 0 && m != metrics.end())
            for (const auto &[column, value] : m->second)
                kernels.setMetric(row, column, value);
        ++m_rows;
    }
}

} // namespace at
