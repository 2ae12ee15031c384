#pragma once

#include "sqlite/DbContext.h"

namespace at {

// Counter tables (AICORE_FREQ, HBM, LLC, DDR, NPU_MEM, ACC_PMU, SOC_BANDWIDTH_LEVEL) as counter series
// with the process, counter and series names of the JSON export (FORMATS.md §2.8), values converted to
// the JSON units (bytes → KB, bytes/s → MB/s).
class DbCounterReader
{
public:
    explicit DbCounterReader(DbContext &context);
    void read();
    std::size_t samplesRead() const { return m_samples; }

private:
    int counterProcess(const QString &name, qint64 deviceId);
    void sample(int process, const QString &counter, const QString &series, TimeNs ts, double value);

    DbContext &m_c;
    std::size_t m_samples = 0;
};

} // namespace at
