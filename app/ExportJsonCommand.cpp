// `--export-json OUT.json [--perfetto] PATH` (the mode's row: app/CommandLine.cpp).
#include "CommandLine.h"

#include "export/ChromeTraceWriter.h"

#include <QTextStream>

namespace at {

int runExportJson(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --export-json needs exactly one PATH\n";
        return 2;
    }
    if (!outsideDataFolders(QStringLiteral("--export-json"), options.exportJson, options.paths, err))
        return 2;
    const std::unique_ptr<TraceModel> model = loadForCommand(options.paths.front(), options, err);
    if (!model)
        return 1;
    ChromeTraceWriteOptions writeOptions;
    writeOptions.perfetto = options.perfetto;
    QString error;
    if (!writeChromeTrace(*model, options.exportJson, writeOptions, &error)) {
        err << "ascend-timeline: " << error << "\n";
        return 1;
    }
    for (const QString &warning : model->warnings())
        err << "warning: " << warning << "\n";
    err << "wrote " << model->sliceCount() << " slices to " << options.exportJson << "\n";
    return 0;
}

} // namespace at
