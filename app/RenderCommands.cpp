#include "RenderCommands.h"

#include "ChartExport.h"
#include "CompareWindow.h"
#include "MainWindow.h"
#include "Steps.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TraceQueries.h"
#include "cluster/ClusterView.h"

#include "common/OutputPath.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImageWriter>
#include <QTextStream>

namespace at {

namespace {

bool hasClusterPage(const MainWindow &window)
{
    return window.clusterController()->view() && window.clusterController()->view()->model();
}

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
    return ok || hasClusterPage(window); // a cluster folder shows its pages without loading a timeline
}

// The Overview is computed after the load, off the GUI thread: a picture waits for it.
void waitForOverview(MainWindow &window)
{
    if (window.overviewIsReady())
        return;
    QEventLoop loop;
    QObject::connect(&window, &MainWindow::overviewReady, &loop, &QEventLoop::quit);
    loop.exec();
}

// --page and --dock: the page to render (the Overview, the first page after a load, when neither they nor
// --range / --select ask for another) and the dock raised on it. An error for a page the data has not or a
// dock that does not exist; empty when it is shown.
QString showPageAndDock(const CommandLineOptions &options, MainWindow &window, const QString &path)
{
    const bool onTimeline = !options.range.isEmpty() || !options.select.isEmpty();
    QString page = options.page;
    if (page.isEmpty())
        page =
            onTimeline || (!options.dock.isEmpty()) ? QStringLiteral("timeline") : QStringLiteral("overview");
    if (onTimeline && page != QLatin1String("timeline"))
        return QStringLiteral("--range and --select show the timeline, not the %1 page").arg(page);
    if (!options.dock.isEmpty() && page == QLatin1String("overview"))
        return QStringLiteral(
            "--dock shows a panel beside the timeline or the cluster page, not the Overview");
    if (!options.dock.isEmpty() && !window.panelIds().contains(options.dock))
        return QStringLiteral("--dock %1: no such panel (the panels are: %2)")
            .arg(options.dock, window.panelIds().join(QStringLiteral(", ")));
    QString clusterTab; // --page cluster:TAB
    if (page.startsWith(QLatin1String("cluster:"))) {
        clusterTab = page.mid(8);
        page = QStringLiteral("cluster");
    }
    if (page == QLatin1String("timeline")) {
        if (!window.model())
            return QStringLiteral("%1 is a cluster read from its summary files: it has no timeline page")
                .arg(path);
        window.showTimelinePage();
    } else if (page == QLatin1String("cluster")) {
        if (hasClusterPage(window) || (window.model() && !window.clusterRoot().isEmpty()))
            window.showClusterPage();
        else
            return QStringLiteral("%1 is not a cluster folder: it has no cluster page").arg(path);
        if (!clusterTab.isEmpty() && !window.clusterView()->showTab(clusterTab))
            return QStringLiteral("--page cluster:%1: no such tab of the cluster page").arg(clusterTab);
    } else {
        window.showOverviewPage();
    }
    if (!options.dock.isEmpty())
        window.raisePanel(options.dock);
    return {};
}

SliceRef findByName(const TraceModel &model, const QString &name)
{
    const std::vector<SliceRef> matches = searchSlices(model, name, {true});
    for (const SliceRef &ref : matches)
        if (model.sliceName(ref) == name)
            return ref;
    return matches.empty() ? SliceRef{} : matches.front();
}

// The offscreen platform plugin (which --screenshot uses) implements neither propagateSizeHints() nor
// raise(): its base class warns "This plugin does not support propagateSizeHints()" whenever a shown
// window's minimum size changes (the docks and the layout settle while the trace loads) and "... raise()"
// when a dock comes forward. Both are normal steps of laying out a window and harmless without a
// display, so while rendering these two messages are dropped; every other message passes through.
class OffscreenNoiseFilter
{
public:
    OffscreenNoiseFilter()
    {
        if (QGuiApplication::platformName() == QLatin1String("offscreen"))
            s_previous = qInstallMessageHandler(&OffscreenNoiseFilter::handle);
        m_installed = QGuiApplication::platformName() == QLatin1String("offscreen");
    }
    ~OffscreenNoiseFilter()
    {
        if (m_installed)
            qInstallMessageHandler(s_previous);
    }
    OffscreenNoiseFilter(const OffscreenNoiseFilter &) = delete;
    OffscreenNoiseFilter &operator=(const OffscreenNoiseFilter &) = delete;

    static bool isNoise(const QString &message)
    {
        return message == QLatin1String("This plugin does not support propagateSizeHints()") ||
               message == QLatin1String("This plugin does not support raise()");
    }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        if (type == QtWarningMsg && isNoise(message))
            return;
        if (s_previous)
            s_previous(type, context, message);
    }

    static inline QtMessageHandler s_previous = nullptr;
    bool m_installed = false;
};

// The image format --screenshot writes OUT in: its extension's, PNG when it has none; empty when Qt cannot
// write that extension (refused rather than silently written as PNG).
QByteArray screenshotFormat(const QString &out)
{
    const QByteArray suffix = QFileInfo(out).suffix().toLower().toLatin1();
    if (suffix.isEmpty())
        return "png";
    return QImageWriter::supportedImageFormats().contains(suffix) ? suffix : QByteArray();
}

QString writableFormats()
{
    QStringList formats;
    for (const QByteArray &format : QImageWriter::supportedImageFormats())
        formats << QString::fromLatin1(format);
    return formats.join(QStringLiteral(", "));
}

// "N" (the first group with step N) or "GROUP:N", as --compare-steps takes them; index into steps or -1.
int stepOfSpec(const TraceModel &model, const QString &spec)
{
    const QStringList parts = spec.trimmed().split(QLatin1Char(':'));
    bool ok = false;
    const qint64 number = parts.last().toLongLong(&ok);
    if (!ok || parts.size() > 2)
        return -1;
    int group = -1;
    if (parts.size() == 2 && (group = parts.first().toInt(&ok), !ok))
        return -1;
    return findStep(model.steps(), number, group);
}

// --screenshot with --compare-steps A,B [--against OTHER]: the compare window of the two steps.
int renderCompareWindow(const CommandLineOptions &options, MainWindow &window, QTextStream &err)
{
    const QStringList specs = options.compareSteps.split(QLatin1Char(','));
    MainWindow other;
    MainWindow *comparisonWindow = &window;
    if (!options.against.isEmpty()) {
        if (!openAndWait(other, options.against)) {
            err << "ascend-timeline: " << other.lastError() << "\n";
            return 1;
        }
        comparisonWindow = &other;
    }
    const int a = specs.size() == 2 ? stepOfSpec(*window.model(), specs[0]) : -1;
    const int b = specs.size() == 2 ? stepOfSpec(*comparisonWindow->model(), specs[1]) : -1;
    if (a < 0 || b < 0) {
        err << "ascend-timeline: --compare-steps wants two steps A,B of the profile (N or GROUP:N)\n";
        return 2;
    }
    // The labels the compare dialog would show ("trace_view.json · Rank 0 / Device 0 · ProfilerStep#50").
    StepChoice base{window.sharedModel(), a, QString()};
    StepChoice comparison{comparisonWindow->sharedModel(), b, QString()};
    for (const StepChoice &choice : window.stepChoices()) {
        if (choice.model == base.model && choice.step == a)
            base.label = choice.label;
        if (choice.model == comparison.model && choice.step == b)
            comparison.label = choice.label;
    }
    CompareWindow *compare = window.compareSteps(base, comparison, options.matchShapes);
    if (!compare) {
        err << "ascend-timeline: cannot compare these steps\n";
        return 1;
    }
    compare->resize(options.size);
    compare->show();
    QCoreApplication::processEvents();
    const QImage image = compare->grab().toImage();
    delete compare;
    if (!image.save(options.screenshotOut)) {
        err << "ascend-timeline: cannot write " << options.screenshotOut << "\n";
        return 1;
    }
    return 0;
}

} // namespace

int runScreenshot(const CommandLineOptions &options)
{
    const OffscreenNoiseFilter quiet;
    QTextStream err(stderr);
    if (options.paths.size() > 1) {
        err << "ascend-timeline: --screenshot takes one PATH (none: the bundled sample)\n";
        return 2;
    }
    const QByteArray format = screenshotFormat(options.screenshotOut);
    if (format.isEmpty()) {
        err << "ascend-timeline: "
            << QCoreApplication::translate("CommandLine",
                                           "--screenshot %1: cannot write .%2 images (the formats are: %3)")
                   .arg(options.screenshotOut, QFileInfo(options.screenshotOut).suffix(), writableFormats())
            << "\n";
        return 2;
    }
    if (!outsideDataFolders(QStringLiteral("--screenshot"), options.screenshotOut, options.paths, err))
        return 2;
    MainWindow window;
    window.setLoadOptions(options.load); // as the window of the same command line: --cache, --no-cache, ...
    window.setSavedCacheFolderUsed(!options.noCache);
    window.resize(options.size);
    window.show();
    const QString path =
        options.paths.isEmpty() ? QString::fromLatin1(MainWindow::kBundledSample) : options.paths.first();
    if (!openAndWait(window, path)) {
        err << "ascend-timeline: " << window.lastError() << "\n";
        return 1;
    }
    if (!window.model() && (!options.select.isEmpty() || !options.range.isEmpty())) {
        err << "ascend-timeline: --select and --range need a timeline, " << path << " is a cluster\n";
        return 2;
    }
    if (!options.compareSteps.isEmpty())
        return renderCompareWindow(options, window, err);
    waitForOverview(window);
    if (const QString error = showPageAndDock(options, window, path); !error.isEmpty()) {
        err << "ascend-timeline: " << error << "\n";
        return 2;
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
    // The page and dock settle (layouts, the dock areas' sizes, the charts' first draw).
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    const QImage image = window.grab().toImage();
    // Encoded in memory, then written through OutputPath (never onto a device or an input file).
    QBuffer encoded;
    encoded.open(QIODevice::WriteOnly);
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
