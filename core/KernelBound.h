#pragma once

#include "KernelTable.h"

#include <QString>

namespace at {

// Which pipe bounds a kernel, from its PipeUtilization ratios (README "Bound classification"):
// cube = mac_ratio, vector = vec_ratio, scalar = scalar_ratio, memory = the largest of the MTE1,
// MTE2, MTE3 and fixpipe ratios (aic_/aiv_ prefixed or not). The kernel is bound by the pipe
// with the largest ratio; when even that is below kBusyThreshold no pipe is busy and the kernel
// is latency-bound (launch, synchronisation, tiny shapes). Without PipeUtilization data: Unknown.
enum class KernelBound
{
    Unknown,
    Cube,
    Vector,
    Scalar,
    Memory,
    Latency
};

constexpr double kBusyThreshold = 0.2;

QString kernelBoundName(KernelBound bound); // "cube", "vector", "scalar", "memory (MTE)", "latency", ""

// Column indices of the ratios in one KernelTable, found once by metric name.
class KernelBoundClassifier
{
public:
    explicit KernelBoundClassifier(const KernelTable &table);
    bool hasPipeRatios() const { return m_hasAny; }
    KernelBound classify(std::size_t row) const;

private:
    const KernelTable &m_table;
    std::vector<std::size_t> m_cube, m_vector, m_scalar, m_memory;
    bool m_hasAny = false;
};

} // namespace at
