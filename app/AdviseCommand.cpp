// `ascend-timeline --advise PATH [--json]`: the Insights findings on the command line, computed by the
// same checks over the same model as the Insights panel (core/insights).

#include "CommandLine.h"

#include "FindingJson.h"
#include "InsightChecks.h"

#include <QJsonDocument>
#include <QTextStream>

namespace at {

int runAdvise(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --advise needs exactly one PATH\n";
        return 2;
    }
    const std::unique_ptr<TraceModel> model = loadForCommand(options.paths.first(), options, err);
    if (!model)
        return 1;
    for (const QString &warning : model->warnings())
        err << "warning: " << warning << "\n";
    const InsightContext context(*model);
    const std::vector<Finding> findings = runInsightChecks(*model);
    if (options.json) {
        out << QJsonDocument(findingsToJson(context, findings)).toJson(QJsonDocument::Indented);
        return 0;
    }
    if (findings.empty()) {
        out << "No findings: none of the " << insightChecks().size() << " checks found a problem.\n";
        return 0;
    }
    int index = 0;
    for (const Finding &f : findings) {
        out << ++index << ". [" << severityId(f.severity) << "] " << f.title << "  (" << f.check << ")\n";
        if (f.timeAtStake > 0)
            out << "   time at stake: " << QString::number(static_cast<double>(f.timeAtStake) / 1e6, 'f', 3)
                << " ms (" << QString::number(f.stepPercent, 'f', 1) << " % of the step time)\n";
        else
            out << "   time at stake: none (informational)\n";
        out << "   " << f.explanation << "\n";
        out << "   fix: " << f.fix << "\n";
        const std::size_t shown = std::min<std::size_t>(f.occurrences.size(), 5);
        for (std::size_t i = 0; i < shown; ++i) {
            const FindingOccurrence &o = f.occurrences[i];
            out << "   - rank " << context.rankOfGroup(o.group) << "  " << o.name << "  at "
                << QString::number(static_cast<double>(o.start) / 1000.0, 'f', 3) << " us for "
                << QString::number(static_cast<double>(o.duration) / 1000.0, 'f', 3) << " us\n";
        }
        if (f.occurrences.size() > shown)
            out << "   ... " << (f.occurrences.size() - shown) << " more occurrence(s)\n";
    }
    return 0;
}

} // namespace at
