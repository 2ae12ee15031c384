// `--summary [--json] PATH...` (the mode's row: app/CommandLine.cpp).
#include "CommandLine.h"

#include "TraceQueries.h"

#include <QTextStream>

namespace at {

int runSummary(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.paths.isEmpty()) {
        err << "ascend-timeline: --summary needs a PATH\n";
        return 2;
    }
    int exitCode = 0;
    for (const QString &path : options.paths) {
        const std::unique_ptr<TraceModel> model = loadForCommand(path, options, err);
        if (!model) {
            exitCode = 1;
            continue;
        }
        const TraceSummary summary = summarize(*model);
        if (options.json)
            out << formatSummaryJson(*model, summary);
        else
            out << "File: " << path << "\n" << formatSummaryText(*model, summary);
        out.flush();
    }
    if (!stdoutWritten(out, err))
        return 1;
    return exitCode;
}

} // namespace at
