// `--metrics [--csv FILE] PATH` (the mode's row: app/CommandLine.cpp).
#include "CommandLine.h"

#include "TraceQueries.h"
#include "common/OutputPath.h"

#include <QTextStream>

namespace at {

int runMetrics(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --metrics needs exactly one PATH\n";
        return 2;
    }
    const std::unique_ptr<TraceModel> model = loadForCommand(options.paths.first(), options, err);
    if (!model)
        return 1;
    if (model->kernels().empty()) {
        err << "ascend-timeline: " << options.paths.first()
            << ": no kernel table (kernel_details.csv or op_summary_*.csv) was found\n";
        return 1;
    }
    const QByteArray csv = formatKernelTableCsv(*model);
    if (options.csvOut.isEmpty()) {
        QTextStream out(stdout);
        out << csv;
        return stdoutWritten(out, err) ? 0 : 1;
    }
    if (!writeFileAtomically(options.csvOut, csv, err, inputFilesOf(*model) << options.paths.first()))
        return 1;
    err << "wrote " << model->kernels().size() << " kernels to " << options.csvOut << "\n";
    return 0;
}

} // namespace at
