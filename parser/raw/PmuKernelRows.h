#pragma once

// The Kernels rows of a device's tasks (FORMATS.md §4.2, §5.9): from the AI Core PMU records
// (aicore.data joined FIFO per task on HWTS chips; FFTS context PMU by containing interval on STARS,
// block PMU of a MIX op's other core summed) with the sample.json ratio metrics and pipe times, and
// for ops the host describes but no PMU record reached, from the op info alone.

#include "DeviceContext.h"
#include "HostAssociation.h"
#include "PmuMetrics.h"
#include "RawModelOutput.h"

#include <QString>

#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace at::raw {

class PmuKernelRows
{
public:
    PmuKernelRows(RawModelOutput &out, const HostAssociation &host, StreamControl control)
        : m_out(out), m_host(host), m_stream(control)
    {}
    void addPmuRows(DeviceContext &d, const std::vector<const SliceStreamFiles *> &aicore,
                    const std::vector<const SliceStreamFiles *> &ffts);
    // Tasks the host describes as ops (node_basic_info) that got no PMU row still get a Kernels row.
    void addOpRows(DeviceContext &d);

private:
    QString eventsOf(const DeviceContext &d, bool aiv) const;
    std::vector<int> columnsFor(const PmuMetricCalculator &calc, const QString &core);
    std::vector<int> timeColumnsFor(const PmuMetricCalculator &calc, const QString &core);
    void addKernelRow(DeviceContext &d, std::size_t taskIndex, const QString &core,
                      const std::vector<int> &columns, const std::vector<double> &values, bool isStars,
                      bool pmu = true, const std::vector<int> &timeColumns = {},
                      const std::vector<std::uint64_t> &timeCounters = {});

    // Tasks by (stream, task, subtask), each key's tasks in end order.
    using TaskKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;
    using TaskIndex = std::map<TaskKey, std::vector<std::size_t>>;
    // PMU records that gave no row, for the device's one warning.
    struct PmuDrops
    {
        std::size_t unmatched = 0; // no task with their ids
        std::size_t overflow = 0;  // the overflow flag set
        std::size_t bad = 0;       // a wrong magic
    };
    struct CoreCalculators
    {
        const PmuMetricCalculator &aic;
        const PmuMetricCalculator &aiv;
    };
    // One core's Kernels columns: the ratio metrics and the pipe times.
    struct CoreColumns
    {
        std::vector<int> metrics;
        std::vector<int> times;
    };
    // A MIX op's blocks on one core, summed.
    struct BlockSum
    {
        std::uint64_t cycles = 0;
        std::array<std::uint64_t, 8> pmu{};
        std::size_t blocks = 0;
    };
    // aicore.data (HWTS chips): records joined FIFO to the tasks of their (stream, task).
    void addAicorePmuRows(DeviceContext &d, const std::vector<const SliceStreamFiles *> &aicore,
                          const PmuMetricCalculator &aic, const TaskIndex &byKey, PmuDrops &drops);
    // FFTS PMU (STARS chips): context records by containing interval, block records summed per core.
    void addFftsPmuRows(DeviceContext &d, const std::vector<const SliceStreamFiles *> &ffts,
                        const CoreCalculators &calcs, const TaskIndex &byKey, PmuDrops &drops);
    void warnPmuDrops(const QString &label, const PmuDrops &drops);

    RawModelOutput &m_out;
    const HostAssociation &m_host;
    StreamControl m_stream;
    // Rows of tasks beyond ±2^62 ns (corrupt ticks) left out: reported and reset by addPmuRows, so those
    // of addOpRows are counted in the next device's PMU warning (as the single reader did).
    std::size_t m_pmuOutOfRange = 0;
};

} // namespace at::raw
