#pragma once

#include "StringPool.h"
#include "Time.h"

#include <QString>

#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace at {

struct SliceRef;

// One AI Core metric column ("aic_mac_ratio", unit "", core "aic"), from a summary CSV header.
struct KernelMetricColumn
{
    QString header; // as written in the CSV, e.g. "aic_mac_time(us)"
    QString name;   // without core prefix and unit, e.g. "mac_time"
    QString core;   // "aic", "aiv" or empty
    QString unit;   // "us", "GB/s", "KB", "%" or empty
};

// One device kernel row of kernel_details.csv / op_summary_*.csv, joined to its timeline slice.
struct KernelRecord
{
    static constexpr std::int64_t kNone = -1;
    int group = 0;
    std::int32_t thread = -1; // joined slice (thread = -1 when the row could not be joined)
    std::uint32_t slice = 0;
    TimeNs start = 0; // relative to the model origin
    TimeNs duration = 0;
    TimeNs wait = 0;
    StringId name = 0;
    StringId type = 0;
    StringId acceleratorCore = 0;
    StringId inputShapes = 0;
    StringId inputTypes = 0;
    StringId opState = 0; // "OP State": dynamic / static / N/A (0 when the source has no such column)
    std::int64_t streamId = kNone;
    std::int64_t taskId = kNone;
    std::int64_t contextId = kNone;
    std::int64_t blockDim = kNone;
    std::int64_t stepId = kNone;
    std::int64_t mixBlockDim = kNone; // "Mix Block Dim" of MIX_AIC / MIX_AIV kernels
    bool joined() const { return thread >= 0; }
};

// Per-kernel AI Core metrics: rows plus a dense row x column matrix of metric values (NaN where a
// row has no value). Owned by the TraceModel; filled by the summary readers, joined in core.
class KernelTable
{
public:
    const std::vector<KernelMetricColumn> &columns() const { return m_columns; }
    const std::vector<KernelRecord> &rows() const { return m_rows; }
    std::size_t size() const { return m_rows.size(); }
    bool empty() const { return m_rows.empty(); }
    double metric(std::size_t row, std::size_t column) const
    {
        return m_values[row * m_columns.size() + column];
    }
    // Metric group name(s) per source group, e.g. "PipeUtilization".
    // Metric group of one source group's table ("PipeUtilization"), and of all of them together.
    QString metricGroupOf(int group) const;
    QString metricGroup() const;
    std::size_t unjoinedCount() const;
    // Row of the kernel joined to this slice, or -1.
    std::int64_t rowOfSlice(std::int32_t thread, std::uint32_t slice) const;
    int columnIndex(const QString &header) const;

    // Building (used by readers and the join).
    int addColumn(const KernelMetricColumn &column);
    std::size_t addRow(const KernelRecord &record);
    void setMetric(std::size_t row, int column, double value);
    void setMetricGroup(int group, const QString &metricGroup);
    KernelRecord &row(std::size_t index) { return m_rows[index]; }
    void rebuildSliceIndex();

private:
    friend class SnapshotAccess; // parser/snapshot saves and restores the table
    std::vector<KernelMetricColumn> m_columns;
    std::vector<KernelRecord> m_rows;
    std::vector<double> m_values;
    std::vector<QString> m_metricGroups; // per source group
    std::unordered_map<std::uint64_t, std::uint32_t> m_rowBySlice;
};

} // namespace at
