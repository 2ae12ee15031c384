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

#include <cstdint>
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

    RawModelOutput &m_out;
    const HostAssociation &m_host;
    StreamControl m_stream;
    // Rows of tasks beyond ±2^62 ns (corrupt ticks) left out: reported and reset by addPmuRows, so those
    // of addOpRows are counted in the next device's PMU warning (as the single reader did).
    std::size_t m_pmuOutOfRange = 0;
};

} // namespace at::raw
