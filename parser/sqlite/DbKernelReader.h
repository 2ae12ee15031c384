#pragma once

#include "sqlite/DbContext.h"

namespace at {

// Fills the KernelTable from COMPUTE_TASK_INFO + TASK (one row per compute task, as kernel_details.csv)
// and COMMUNICATION_OP (the "HCCL" rows of kernel_details.csv), with the TASK_PMU_INFO values as metric
// columns named like the CSV headers (aic_total_time ↔ aicore_time(us), times converted from ns to us),
// and STEP_TIME as declared steps (each kernel gets the step whose window holds its start).
// Runs after DbTimelineReader (needs DbContext::tasks).
class DbKernelReader
{
public:
    explicit DbKernelReader(DbContext &context);
    void read();
    std::size_t rowsRead() const { return m_rows; }
    // The CSV-style header of the metric columns found, in column order, and their group.
    const QStringList &metricHeaders() const { return m_metricHeaders; }
    QString metricGroup() const { return m_metricGroup; }

private:
    struct Step
    {
        qint64 number;
        TimeNs begin, end;
    };
    void readSteps();
    qint64 stepOf(TimeNs start) const;

    DbContext &m_c;
    std::vector<Step> m_steps;
    std::size_t m_rows = 0;
    QStringList m_metricHeaders;
    QString m_metricGroup;
};

// The kernel_details.csv header of a TASK_PMU_INFO metric name, and the factor that converts its value
// to that header's unit: "aic_total_time" → "aicore_time(us)", ×0.001 (the database stores ns).
QString csvHeaderOfPmuMetric(const QString &name, double *scale);

} // namespace at
