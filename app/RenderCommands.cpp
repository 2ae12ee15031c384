#include "RenderCommands.h"

#include "ChartExport.h"
#include "MainWindow.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TraceQueries.h"

#include "common/OutputPath.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QImageWriter>
#include <QTextStream>

namespace at {

namespace {

// Opens the path in the window and waits for the load to finish; prints the error on failure.
bool openAndWait(MainWindow &window, const QString &path)
{
    bool ok = false;
    QEventLoop loop;
    QObject::connect(&window, &MainWindow::loadFinished, &loop, [&](bool success) {
        ok = success;
        loop.quit();
    });
    window.openPath(path);
    if (window.isLoading())
        loop.exec();
    return ok;
}

SliceRef findByName(const TraceModel &model, const QString &name)
{
    const std::vector<SliceRef> matches = searchSlices(model, name, {true});
    for (const SliceRef &ref : matches)
        if (model.sliceName(ref) == name)
            return ref;
    return matches.empty() ? SliceRef{} : matches.front();
}

} // namespace

int runScreenshot(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    if (options.paths.size() > 1) {
        err << "ascend-timeline: --screenshot takes one PATH (none: the bundled sample)\n";
        return 2;
    }
    if (!outsideDataFolders(QStringLiteral("--screenshot"), options.screenshotOut, options.paths, err))
        return 2;
    MainWindow window;
    window.resize(options.size);
    window.show();
    const QString path =
        options.paths.isEmpty() ? QString::fromLatin1(MainWindow::kBundledSample) : options.paths.first();
    if (!openAndWait(window, path)) {
        err << "ascend-timeline: " << window.lastError() << "\n";
        return 1;
    }
    TimelineView *timeline = window.timeline();
    if (!options.select.isEmpty()) {
        const SliceRef ref = findByName(*window.model(), options.select);
        if (!ref.isValid()) {
            err << "ascend-timeline: no slice named " << options.select << "\n";
            return 1;
        }
        timeline->selectSlice(ref, true);
    }
    if (!options.range.isEmpty()) {
        const QStringList parts = options.range.split(QLatin1Char(':'));
        const auto start = parts.size() == 2 ? parseTimeWithUnit(parts[0]) : std::nullopt;
        const auto end = parts.size() == 2 ? parseTimeWithUnit(parts[1]) : std::nullopt;
        if (!start || !end || *end <= *start) {
            err << "ascend-timeline: --range wants START:END, e.g. 100ms:120ms\n";
            return 2;
        }
        timeline->zoom()->setRange({*start, *end}, false);
    }
    QCoreApplication::processEvents();
    const QImage image = window.grab().toImage();
    // Encoded in memory, then written through OutputPath (never onto a device or an input file).
    QBuffer encoded;
    encoded.open(QIODevice::WriteOnly);
    QByteArray format = QFileInfo(options.screenshotOut).suffix().toLower().toLatin1();
    if (!QImageWriter::supportedImageFormats().contains(format))
        format = "png";
    QString error;
    if (!QImageWriter(&encoded, format).write(image) ||
        !writeOutputFile(options.screenshotOut, encoded.data(), &error,
                         window.model() ? inputFilesOf(*window.model()) : QStringList())) {
        err << "ascend-timeline: cannot write " << options.screenshotOut
            << (error.isEmpty() ? QString() : QStringLiteral(": ") + error) << "\n";
        return 1;
    }
    return 0;
}

int runChart(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    if (options.paths.size() != 1 || options.out.isEmpty()) {
        err << "ascend-timeline: --chart NAME needs --out FILE.png and one PATH (charts: "
            << chartNames().join(QStringLiteral(", ")) << ")\n";
        return 2;
    }
    LoadControl control;
    const LoadResult result = loadTrace(options.paths.first(), options.load, control);
    if (!result.model) {
        err << "ascend-timeline: " << result.error << "\n";
        return 1;
    }
    // Every chart is drawn from the kernel table: without one the image would be an empty frame.
    if (result.model->kernels().empty()) {
        err << "ascend-timeline: " << options.paths.first()
            << ": no kernel table (kernel_details.csv, op_summary_*.csv or a database TASK table) was found, "
               "so there is nothing to chart\n";
        return 1;
    }
    QString error;
    if (!renderChartPng(*result.model, options.chart, options.out, options.size, &error)) {
        err << "ascend-timeline: " << error << "\n";
        return 1;
    }
    return 0;
}

} // namespace at
