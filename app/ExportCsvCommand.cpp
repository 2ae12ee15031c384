// `--export-csv DIR PATH` (the mode's row: app/CommandLine.cpp).
#include "CommandLine.h"

#include "TraceQueries.h"
#include "common/OutputPath.h"

#include <QDir>
#include <QFileInfo>
#include <QTextStream>

namespace at {

int runExportCsv(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --export-csv needs exactly one PATH\n";
        return 2;
    }
    const QString path = options.paths.front();
    const QFileInfo input(path);
    const QString dataFolder = resolvedOutputPath(input.isDir() ? path : input.absolutePath());
    const QString dir = resolvedOutputPath(options.exportCsvDir);
    if (isInsideFolder(dir, dataFolder)) {
        err << "ascend-timeline: --export-csv " << options.exportCsvDir << " is inside the data folder "
            << dataFolder << ": choose a directory outside it (the profile data is never written to)\n";
        return 2;
    }
    const std::unique_ptr<TraceModel> model = loadForCommand(path, options, err);
    if (!model)
        return 1;
    if (model->kernels().empty()) {
        err << "ascend-timeline: " << path
            << ": no kernel table (kernel_details.csv, op_summary_*.csv, a profiler database or raw PMU "
               "records) was found\n";
        return 1;
    }
    if (!QDir().mkpath(dir)) {
        err << "ascend-timeline: cannot create " << dir << "\n";
        return 1;
    }
    const QString out = QDir(dir).filePath(QStringLiteral("kernel_details.csv"));
    if (!writeFileAtomically(out, formatKernelDetailsCsv(*model), err, inputFilesOf(*model)))
        return 1;
    for (const QString &warning : model->warnings())
        err << "warning: " << warning << "\n";
    err << "wrote " << model->kernels().size() << " kernels to " << out << "\n";
    return 0;
}

} // namespace at
