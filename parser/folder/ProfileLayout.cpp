#include "folder/ProfileLayout.h"

#include <algorithm>

namespace at {

bool DetectedProfile::hasLoadableTimeline() const
{
    return std::any_of(sources.cbegin(), sources.cend(), [](const DataSource &s) { return s.hasTimeline(); });
}

bool DetectedProfile::hasDiagnostic(DiagnosticCode code) const
{
    return std::any_of(diagnostics.cbegin(), diagnostics.cend(),
                       [code](const Diagnostic &d) { return d.code == code; });
}

QList<Diagnostic> DetectedProfile::diagnosticsWith(DiagnosticCode code) const
{
    QList<Diagnostic> out;
    for (const Diagnostic &d : diagnostics) {
        if (d.code == code)
            out.append(d);
    }
    return out;
}

QString generationName(ProfileGeneration generation)
{
    switch (generation) {
    case ProfileGeneration::G1:
        return QStringLiteral("G1");
    case ProfileGeneration::G2:
        return QStringLiteral("G2");
    case ProfileGeneration::G3:
        return QStringLiteral("G3");
    case ProfileGeneration::G4:
        return QStringLiteral("G4");
    case ProfileGeneration::RawOnly:
        return QStringLiteral("raw-only");
    case ProfileGeneration::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

} // namespace at
