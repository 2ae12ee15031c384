#include "KernelBound.h"

#include <cmath>

namespace at {

QString kernelBoundName(KernelBound bound)
{
    switch (bound) {
    case KernelBound::Cube:
        return QStringLiteral("cube");
    case KernelBound::Vector:
        return QStringLiteral("vector");
    case KernelBound::Scalar:
        return QStringLiteral("scalar");
    case KernelBound::Memory:
        return QStringLiteral("memory (MTE)");
    case KernelBound::Latency:
        return QStringLiteral("latency");
    case KernelBound::Unknown:
        break;
    }
    return {};
}

KernelBoundClassifier::KernelBoundClassifier(const KernelTable &table) : m_table(table)
{
    for (std::size_t c = 0; c < table.columns().size(); ++c) {
        const QString &name = table.columns()[c].name;
        std::vector<std::size_t> *target = nullptr;
        if (name == QLatin1String("mac_ratio"))
            target = &m_cube;
        else if (name == QLatin1String("vec_ratio"))
            target = &m_vector;
        else if (name == QLatin1String("scalar_ratio"))
            target = &m_scalar;
        else if (name == QLatin1String("mte1_ratio") || name == QLatin1String("mte2_ratio") ||
                 name == QLatin1String("mte3_ratio") || name == QLatin1String("fixpipe_ratio"))
            target = &m_memory;
        if (target) {
            target->push_back(c);
            m_hasAny = true;
        }
    }
}

KernelBound KernelBoundClassifier::classify(std::size_t row) const
{
    if (!m_hasAny)
        return KernelBound::Unknown;
    auto largest = [&](const std::vector<std::size_t> &columns) {
        double best = -1;
        for (std::size_t c : columns) {
            const double v = m_table.metric(row, c);
            if (!std::isnan(v))
                best = std::max(best, v);
        }
        return best;
    };
    const std::pair<KernelBound, double> pipes[] = {{KernelBound::Cube, largest(m_cube)},
                                                    {KernelBound::Vector, largest(m_vector)},
                                                    {KernelBound::Scalar, largest(m_scalar)},
                                                    {KernelBound::Memory, largest(m_memory)}};
    KernelBound bound = KernelBound::Unknown;
    double best = -1;
    for (const auto &[pipe, ratio] : pipes)
        if (ratio > best) {
            best = ratio;
            bound = pipe;
        }
    if (best < 0)
        return KernelBound::Unknown; // this row has no ratios (e.g. communication)
    return best < kBusyThreshold ? KernelBound::Latency : bound;
}

} // namespace at
