#include "CommandLine.h"

#include "common/OutputPath.h"
#include "export/ChromeTraceWriter.h"

#include "LoadMemoryGuard.h"
#include "TraceLoader.h"
#include "TraceQueries.h"
#include "common/MessageText.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace at {

namespace {

// --size: each side of a screenshot or chart image (8192² × 4 bytes = 256 MiB at most).
constexpr int kMaxImageSide = 8192;

std::optional<QSize> parseWindowSize(const QString &text)
{
    const QStringList wh = text.trimmed().split(QLatin1Char('x'));
    if (wh.size() != 2)
        return std::nullopt;
    bool widthOk = false, heightOk = false;
    const int width = wh[0].toInt(&widthOk);
    const int height = wh[1].toInt(&heightOk);
    if (!widthOk || !heightOk || width < 1 || height < 1 || width > kMaxImageSide || height > kMaxImageSide)
        return std::nullopt;
    return QSize(width, height);
}

} // namespace

CommandLineOptions parseCommandLine(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Ascend Timeline: a fast timeline viewer for Huawei Ascend NPU profiling data.\n"
        "Opens Chrome-trace JSON files written by msprof and torch_npu (.json, .json.zst, .json.gz)\n"
        "profiler SQLite databases (msprof_<n>.db, ascend_pytorch_profiler*.db)\n"
        "and whole result folders (PROF_*, *_ascend_pt, a folder of ranks).\n"
        "Started without a path it opens a bundled sample profile."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption summary(
        QStringLiteral("summary"),
        QStringLiteral("Load PATH headlessly and print processes, threads, event counts by "
                       "phase, time span and the top 10 slice names by total duration."));
    QCommandLineOption json(QStringLiteral("json"),
                            QStringLiteral("With --summary: print machine-readable JSON."));
    QCommandLineOption metrics(
        QStringLiteral("metrics"),
        QStringLiteral("Load PATH headlessly and print the per-kernel AI Core metric table "
                       "(joined to the timeline) as CSV."));
    QCommandLineOption csv(
        QStringLiteral("csv"),
        QStringLiteral("With --metrics: write the table to FILE instead (with --compare-steps: the "
                       "diff by kernel name)."),
        QStringLiteral("FILE"));
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render PATH as the window would show it and save it as OUT.png."),
        QStringLiteral("OUT.png"));
    QCommandLineOption size(
        QStringLiteral("size"),
        QStringLiteral("Window size for --screenshot and --chart (default 1600x1000; each "
                       "side 1 to 8192)."),
        QStringLiteral("WxH"));
    QCommandLineOption range(
        QStringLiteral("range"),
        QStringLiteral("Visible range for --screenshot, relative to the trace start, e.g. "
                       "100ms:120ms (plain numbers are µs)."),
        QStringLiteral("START:END"));
    QCommandLineOption select(
        QStringLiteral("select"),
        QStringLiteral("Select the first slice with this name (exact, else substring)."),
        QStringLiteral("NAME"));
    QCommandLineOption chart(QStringLiteral("chart"),
                             QStringLiteral("Render a metric chart headlessly: top-kernels, kernel-metrics, "
                                            "time-by-type, scatter (with --out)."),
                             QStringLiteral("NAME"));
    QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Output image for --chart."),
                           QStringLiteral("FILE.png"));
    QCommandLineOption source(QStringLiteral("source"),
                              QStringLiteral("When a result has both a profiler database and the text export "
                                             "(JSON/CSV): load 'db' or 'text' (default text); 'raw' decodes "
                                             "the raw PROF_* data even when an export exists."),
                              QStringLiteral("db|text|raw"));
    QCommandLineOption compareSteps(
        QStringLiteral("compare-steps"),
        QStringLiteral(
            "Compare step A with step B of PATH (or of --against OTHER) kernel by kernel and print "
            "the diff; a step is N or GROUP:N."),
        QStringLiteral("A,B"));
    QCommandLineOption against(QStringLiteral("against"),
                               QStringLiteral("With --compare-steps: take step B from this other profile."),
                               QStringLiteral("OTHER"));
    QCommandLineOption kernelsCsv(QStringLiteral("kernels-csv"),
                                  QStringLiteral("With --compare-steps: write the per-kernel diff to FILE "
                                                 "(--csv writes the diff by kernel name)."),
                                  QStringLiteral("FILE"));
    QCommandLineOption matchShapes(
        QStringLiteral("match-shapes"),
        QStringLiteral("With --compare-steps: match kernels by name and input shapes."));
    QCommandLineOption exportJson(
        QStringLiteral("export-json"),
        QStringLiteral("Load PATH headlessly and write its timeline as Chrome-trace JSON "
                       "(string µs timestamps with 3 decimals) to OUT.json."),
        QStringLiteral("OUT.json"));
    QCommandLineOption perfetto(
        QStringLiteral("perfetto"),
        QStringLiteral("With --export-json: numeric timestamps relative to the first event "
                       "and sequential flow ids (for Perfetto)."));
    QCommandLineOption noCache(
        QStringLiteral("no-cache"),
        QStringLiteral("Neither read nor write the snapshot cache: parse the input every time "
                       "(the same as AT_NO_SNAPSHOT=1)."));
    QCommandLineOption exportCsv(
        QStringLiteral("export-csv"),
        QStringLiteral("Load PATH headlessly and write its kernel metric table (kernel_details.csv column "
                       "names, RFC 4180) to DIR/kernel_details.csv. DIR must not be inside the data folder."),
        QStringLiteral("DIR"));
    QCommandLineOption memoryLimit(
        QStringLiteral("memory-limit"),
        QStringLiteral("Stop reading when loading would use more memory than SIZE (e.g. 8G, 512M; "
                       "default: AT_MEMORY_LIMIT, else 80% of the RAM) and show what was read."),
        QStringLiteral("SIZE"));
    parser.addOption(memoryLimit);
    QCommandLineOption advise(QStringLiteral("advise"),
                              QStringLiteral("Load PATH headlessly and print the performance findings of the "
                                             "Insights panel, most costly first (with --json: as JSON)."));
    parser.addOption(advise);
    QCommandLineOption cluster(
        QStringLiteral("cluster"),
        QStringLiteral("Read the cluster at PATH (a folder of rank folders) from its summary files and print "
                       "each rank's step breakdown, slow ranks, slow links, waits and the communication ops' "
                       "slowest and "
                       "fastest ranks (with --json: as JSON)."));
    parser.addOption(cluster);
    QCommandLineOption clusterOps(
        QStringLiteral("ops"),
        QStringLiteral("With --cluster: after each op instance's slowest and fastest rank, also print every "
                       "rank's row of every communication op (--json always has them)."));
    parser.addOption(clusterOps);
    QCommandLineOption prepare(
        QStringLiteral("prepare"),
        QStringLiteral("Parse the rank folder RANK_DIR headlessly and write its snapshot and cluster summary "
                       "into the --cache DIR (run once per rank, e.g. by a Slurm job array), so that "
                       "--cache DIR opens the cluster and its ranks without parsing."),
        QStringLiteral("RANK_DIR"));
    parser.addOption(prepare);
    QCommandLineOption cache(
        QStringLiteral("cache"),
        QStringLiteral("Use DIR as the snapshot cache (and, with --cluster or a cluster folder, the prepared "
                       "rank summaries) instead of the user's cache folder; never trimmed."),
        QStringLiteral("DIR"));
    parser.addOption(cache);
    QCommandLineOption memory(
        QStringLiteral("memory"),
        QStringLiteral("Load PATH headlessly and print, per device and memory component, "
                       "the peak (value and time) and the allocations live at the peak "
                       "(with --json: as JSON)."));
    parser.addOption(memory);
    parser.addOption(exportJson);
    parser.addOption(exportCsv);
    parser.addOption(perfetto);
    parser.addOption(noCache);
    parser.addOption(compareSteps);
    parser.addOption(against);
    parser.addOption(kernelsCsv);
    parser.addOption(matchShapes);
    parser.addOption(source);
    parser.addOption(summary);
    parser.addOption(json);
    parser.addOption(metrics);
    parser.addOption(csv);
    parser.addOption(screenshot);
    parser.addOption(size);
    parser.addOption(range);
    parser.addOption(select);
    parser.addOption(chart);
    parser.addOption(out);
    QCommandLineOption theme(QStringLiteral("theme"),
                             QStringLiteral("Window theme: system, light or dark (the GUI and --screenshot; "
                                            "default: the one chosen in View ▸ Theme)."),
                             QStringLiteral("THEME"));
    QCommandLineOption language(
        QStringLiteral("lang"),
        QStringLiteral("User interface language: en or zh_CN (the GUI and --screenshot; default: "
                       "View ▸ Language, else the system's). The other modes print their warnings "
                       "and errors in it; their reports stay English."),
        QStringLiteral("LANG"));
    parser.addOption(theme);
    parser.addOption(language);
    parser.addPositionalArgument(QStringLiteral("path"), QStringLiteral("Trace file(s) to open."),
                                 QStringLiteral("[PATH...]"));
    parser.process(app);

    CommandLineOptions options;
    if (parser.isSet(noCache)) {
        options.load.useSnapshotCache = false;
        options.noCache = true;
    }
    options.paths = parser.positionalArguments();
    options.summary = parser.isSet(summary);
    options.advise = parser.isSet(advise);
    options.exportJson = parser.value(exportJson);
    options.perfetto = parser.isSet(perfetto);
    options.exportCsvDir = parser.value(exportCsv);
    options.cluster = parser.isSet(cluster);
    options.clusterOps = parser.isSet(clusterOps);
    if (options.clusterOps && !options.cluster) {
        QTextStream(stderr) << "ascend-timeline: --ops needs --cluster\n";
        std::exit(2);
    }
    options.prepare = parser.value(prepare);
    if (parser.isSet(cache)) {
        if (parser.isSet(noCache)) {
            QTextStream(stderr) << "ascend-timeline: --cache and --no-cache contradict each other\n";
            std::exit(2);
        }
        const QString dir = parser.value(cache);
        if (dir.trimmed().isEmpty()) {
            QTextStream(stderr) << "ascend-timeline: --cache needs a folder\n";
            std::exit(2);
        }
        // The user's own choice: a symbolic link to the folder is resolved here (the cache writer then
        // refuses links), and an explicit folder turns the cache on even under AT_NO_SNAPSHOT.
        const QFileInfo info(dir);
        options.load.snapshotDirectory =
            info.exists() ? info.canonicalFilePath() : QDir::cleanPath(info.absoluteFilePath());
        options.load.useSnapshotCache = true;
    }
    options.memory = parser.isSet(memory);
    options.json = parser.isSet(json);
    options.metrics = parser.isSet(metrics);
    options.csvOut = parser.value(csv);
    options.screenshotOut = parser.value(screenshot);
    options.range = parser.value(range);
    options.select = parser.value(select);
    options.chart = parser.value(chart);
    options.out = parser.value(out);
    options.theme = parser.value(theme);
    options.language = parser.value(language);
    options.compareSteps = parser.value(compareSteps);
    options.against = parser.value(against);
    options.kernelsCsvOut = parser.value(kernelsCsv);
    options.matchShapes = parser.isSet(matchShapes);
    if (parser.isSet(source)) {
        const QString value = parser.value(source).toLower();
        if (value == QStringLiteral("db"))
            options.load.preferredSource = PreferredSource::Database;
        else if (value == QStringLiteral("raw"))
            options.load.preferredSource = PreferredSource::Raw;
        else if (value != QStringLiteral("text")) {
            QTextStream(stderr) << "ascend-timeline: --source must be 'db', 'text' or 'raw', not '" << value
                                << "'\n";
            std::exit(2);
        }
    }
    if (parser.isSet(memoryLimit)) {
        const std::optional<std::uint64_t> bytes = parseByteSize(parser.value(memoryLimit));
        if (!bytes) {
            QTextStream(stderr) << "ascend-timeline: --memory-limit must be a size such as 8G or 512M, not '"
                                << printableText(parser.value(memoryLimit)) << "'\n";
            std::exit(2);
        }
        if (*bytes < kMinimumMemoryLimit) {
            QTextStream(stderr) << "ascend-timeline: --memory-limit must be at least "
                                << formatByteSize(kMinimumMemoryLimit)
                                << " (the viewer itself needs that much), not '"
                                << printableText(parser.value(memoryLimit)) << "'\n";
            std::exit(2);
        }
        options.load.memoryLimitBytes = *bytes;
    }
    if (parser.isSet(size)) {
        const std::optional<QSize> parsed = parseWindowSize(parser.value(size));
        if (!parsed) {
            QTextStream(stderr) << "ascend-timeline: --size must be WIDTHxHEIGHT with each side from 1 to "
                                << kMaxImageSide << " pixels (e.g. 1600x1000), not '"
                                << printableText(parser.value(size)) << "'\n";
            std::exit(2);
        }
        options.size = *parsed;
    }
    if (parser.isSet(compareSteps) && options.compareSteps.trimmed().isEmpty()) {
        QTextStream(stderr) << "ascend-timeline: --compare-steps needs two steps A,B (each N or GROUP:N, "
                               "e.g. 2,3)\n";
        std::exit(2);
    }
    for (const QString &notice : options.load.notices)
        QTextStream(stderr) << "ascend-timeline: warning: " << notice << "\n";
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

namespace at {

std::unique_ptr<TraceModel> loadForCommand(const QString &path, const CommandLineOptions &options,
                                           QTextStream &err)
{
    LoadControl control;
    LoadResult result = loadTrace(path, options.load, control);
    if (!result.model)
        err << "ascend-timeline: " << printableText(result.error, 4000) << "\n";
    return std::move(result.model);
}

bool writeFileAtomically(const QString &path, const QByteArray &data, QTextStream &err,
                         const QStringList &inputs)
{
    QString error;
    if (!writeOutputFile(path, data, &error, inputs)) {
        err << "ascend-timeline: cannot write " << path << ": " << error << "\n";
        return false;
    }
    return true;
}

bool stdoutWritten(QTextStream &out, QTextStream &err)
{
    out.flush();
    const bool failed = out.status() != QTextStream::Ok || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (failed)
        err << "ascend-timeline: cannot write to the standard output: " << std::strerror(errno) << "\n";
    return !failed;
}

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

namespace {

// The absolute path with symbolic links of its existing part resolved (the rest may not exist yet).
QString resolvedPath(const QString &path)
{
    QString existing = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QString rest;
    while (!QFileInfo::exists(existing) && existing != QStringLiteral("/") && !existing.isEmpty()) {
        rest = QFileInfo(existing).fileName() + (rest.isEmpty() ? QString() : QLatin1Char('/') + rest);
        existing = QFileInfo(existing).absolutePath();
    }
    const QString canonical = QFileInfo(existing).canonicalFilePath();
    const QString base = canonical.isEmpty() ? existing : canonical;
    return rest.isEmpty() ? base : QDir::cleanPath(base + QLatin1Char('/') + rest);
}

bool isInside(const QString &path, const QString &folder)
{
    return path == folder ||
           path.startsWith(folder.endsWith(QLatin1Char('/')) ? folder : folder + QLatin1Char('/'));
}

} // namespace

bool outsideDataFolders(const QString &option, const QString &out, const QStringList &paths, QTextStream &err)
{
    const QString target = resolvedPath(out);
    for (const QString &path : paths) {
        const QFileInfo input(path);
        if (!input.exists())
            continue;
        const QString dataFolder = resolvedPath(input.isDir() ? path : input.absolutePath());
        if (isInside(target, dataFolder)) {
            err << "ascend-timeline: " << option << " " << out << " is inside the data folder " << dataFolder
                << ": choose a path outside it (the profile data is never written to)\n";
            return false;
        }
    }
    return true;
}

int runExportCsv(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --export-csv needs exactly one PATH\n";
        return 2;
    }
    const QString path = options.paths.front();
    const QFileInfo input(path);
    const QString dataFolder = resolvedPath(input.isDir() ? path : input.absolutePath());
    const QString dir = resolvedPath(options.exportCsvDir);
    if (isInside(dir, dataFolder)) {
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

int runHeadless(const CommandLineOptions &options)
{
    if (options.advise)
        return runAdvise(options);
    if (!options.prepare.isEmpty())
        return runPrepare(options);
    if (options.cluster)
        return runCluster(options);
    if (!options.exportJson.isEmpty())
        return runExportJson(options);
    if (!options.exportCsvDir.isEmpty())
        return runExportCsv(options);
    if (!options.compareSteps.isEmpty())
        return runCompareSteps(options);
    if (options.memory)
        return runMemory(options);
    return options.metrics ? runMetrics(options) : runSummary(options);
}

} // namespace at

namespace at {

std::optional<qint64> parseTimeWithUnit(const QString &text)
{
    QString t = text.trimmed();
    double factor = 1000; // µs
    const std::pair<const char *, double> units[] = {
        {"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    for (const auto &[suffix, f] : units) {
        if (t.endsWith(QString::fromUtf8(suffix))) {
            t.chop(QString::fromUtf8(suffix).size());
            factor = f;
            break;
        }
    }
    bool ok = false;
    const double value = t.trimmed().toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return static_cast<qint64>(std::llround(value * factor));
}

} // namespace at
