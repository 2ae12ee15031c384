#include "CommandLine.h"

#include "TraceLoader.h"
#include "TraceQueries.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

namespace at {

CommandLineOptions parseCommandLine(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Ascend Timeline: a fast timeline viewer for Huawei Ascend NPU profiling data.\n"
                       "Opens Chrome-trace JSON files written by msprof and torch_npu (.json, .json.zst, .json.gz).\n"
                       "Started without a path it opens a bundled sample profile."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption summary(QStringLiteral("summary"),
                               QStringLiteral("Load PATH headlessly and print processes, threads, event counts by "
                                              "phase, time span and the top 10 slice names by total duration."));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("With --summary: print machine-readable JSON."));
    parser.addOption(summary);
    parser.addOption(json);
    parser.addPositionalArgument(QStringLiteral("path"), QStringLiteral("Trace file(s) to open."),
                                 QStringLiteral("[PATH...]"));
    parser.process(app);

    CommandLineOptions options;
    options.paths = parser.positionalArguments();
    options.summary = parser.isSet(summary);
    options.json = parser.isSet(json);
    return options;
}

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
        LoadControl control;
        LoadResult result = loadTrace(path, control);
        if (!result.model) {
            err << "ascend-timeline: " << result.error << "\n";
            exitCode = 1;
            continue;
        }
        const TraceSummary summary = summarize(*result.model);
        if (options.json) {
            out << formatSummaryJson(*result.model, summary);
        } else {
            out << "File: " << path << "\n" << formatSummaryText(*result.model, summary);
        }
        out.flush();
    }
    return exitCode;
}

} // namespace at
