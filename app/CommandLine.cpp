#include "CommandLine.h"

#include "RenderCommands.h"

#include "LoadMemoryGuard.h"
#include "TraceLoader.h"
#include "common/MessageText.h"
#include "common/OutputPath.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QTextStream>

#include <cerrno>
#include <cmath>
#include <cstdio>
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

// ---- How each option stores its value ----

template <bool CommandLineOptions::*Field> QString setSwitch(CommandLineOptions &options, const QString &)
{
    options.*Field = true;
    return {};
}

template <QString CommandLineOptions::*Field>
QString setText(CommandLineOptions &options, const QString &value)
{
    options.*Field = value;
    return {};
}

QString setCompareSteps(CommandLineOptions &options, const QString &value)
{
    if (value.trimmed().isEmpty())
        return QStringLiteral("--compare-steps needs two steps A,B (each N or GROUP:N, e.g. 2,3)");
    options.compareSteps = value;
    return {};
}

QString setPage(CommandLineOptions &options, const QString &value)
{
    const QString page = value.trimmed().toLower();
    if (page != QLatin1String("overview") && page != QLatin1String("timeline") &&
        page != QLatin1String("cluster"))
        return QStringLiteral("--page must be overview, timeline or cluster, not '%1'")
            .arg(printableText(value));
    options.page = page;
    return {};
}

QString setSize(CommandLineOptions &options, const QString &value)
{
    const std::optional<QSize> parsed = parseWindowSize(value);
    if (!parsed)
        return QStringLiteral(
                   "--size must be WIDTHxHEIGHT with each side from 1 to %1 pixels (e.g. 1600x1000), "
                   "not '%2'")
            .arg(kMaxImageSide)
            .arg(printableText(value));
    options.size = *parsed;
    return {};
}

QString setSource(CommandLineOptions &options, const QString &text)
{
    const QString value = text.toLower();
    if (value == QStringLiteral("db"))
        options.load.preferredSource = PreferredSource::Database;
    else if (value == QStringLiteral("raw"))
        options.load.preferredSource = PreferredSource::Raw;
    else if (value != QStringLiteral("text"))
        return QStringLiteral("--source must be 'db', 'text' or 'raw', not '%1'").arg(value);
    return {};
}

QString setNoCache(CommandLineOptions &options, const QString &)
{
    options.load.useSnapshotCache = false;
    options.noCache = true;
    return {};
}

// (After --no-cache, which comes before it in the table.)
QString setCache(CommandLineOptions &options, const QString &dir)
{
    if (options.noCache)
        return QStringLiteral("--cache and --no-cache contradict each other");
    if (dir.trimmed().isEmpty())
        return QStringLiteral("--cache needs a folder");
    // The user's own choice: a symbolic link to the folder is resolved here (the cache writer then refuses
    // links), and an explicit folder turns the cache on even under AT_NO_SNAPSHOT.
    const QFileInfo info(dir);
    options.load.snapshotDirectory =
        info.exists() ? info.canonicalFilePath() : QDir::cleanPath(info.absoluteFilePath());
    options.load.useSnapshotCache = true;
    return {};
}

QString setMemoryLimit(CommandLineOptions &options, const QString &value)
{
    const std::optional<std::uint64_t> bytes = parseByteSize(value);
    if (!bytes)
        return QStringLiteral("--memory-limit must be a size such as 8G or 512M, not '%1'")
            .arg(printableText(value));
    if (*bytes < kMinimumMemoryLimit)
        return QStringLiteral(
                   "--memory-limit must be at least %1 (the viewer itself needs that much), not '%2'")
            .arg(formatByteSize(kMinimumMemoryLimit), printableText(value));
    options.load.memoryLimitBytes = *bytes;
    return {};
}

using O = CommandLineOptions;

} // namespace

// ---- The table ----

namespace {

// The table in two halves, each a function of its own (a table in one function outgrew clang-tidy's
// 150 lines): the modes that look at a profile, then those that export, query or compare.
std::vector<CommandLineMode> inspectionModes()
{
    return {
        {{"summary", nullptr, &setSwitch<&O::summary>},
         {{"json"}},
         "PATH...",
         "print the detected layout, each rank/device with the files used and how it was collected, "
         "processes, threads, event counts by phase, time span and the top 10 slice names by total "
         "duration; with --json the same as JSON, for scripts (exit 1 with the error on stderr for bad "
         "input)",
         false,
         &runSummary},
        {{"advise", nullptr, &setSwitch<&O::advise>},
         {{"json"}},
         "PATH",
         "the performance findings of the Insights panel, most costly first, as text or JSON (check ids: "
         "docs/INSIGHTS.md)",
         false,
         &runAdvise},
        {{"overview", nullptr, &setSwitch<&O::overview>},
         {{"json"}},
         "PATH",
         "per rank and step the parts of the step, what fills each part and the findings with their shares, "
         "as text or JSON (docs/OVERVIEW.md)",
         false,
         &runOverview},
        {{"metrics", nullptr, &setSwitch<&O::metrics>},
         {{"csv"}},
         "PATH",
         "the per-kernel AI Core metric table, joined to the timeline, as CSV (stdout, or written to FILE)",
         false,
         &runMetrics},
        {{"memory", nullptr, &setSwitch<&O::memory>},
         {{"json"}},
         "PATH",
         "per device and memory component the peak (value and time) and the allocations live at the peak, "
         "as text or JSON (docs/MEMORY.md)",
         false,
         &runMemory},
        {{"chart", "NAME", &setText<&O::chart>},
         {{"out", true}, {"size"}},
         "PATH",
         "render a metric chart headlessly: top-kernels[:N], kernel-metrics[:KERNEL], time-by-type, "
         "scatter[:METRIC] (--size: 1600x1000 by default, each side 1 to 8192)",
         true,
         &runChart},
        {{"screenshot", "OUT.png", &setText<&O::screenshotOut>},
         {{"size"},
          {"page"},
          {"dock"},
          {"tab"},
          {"range"},
          {"select"},
          {"compare-steps"},
          {"against"},
          {"match-shapes"}},
         "[PATH]",
         "render exactly what the window shows (offscreen; no PATH: the bundled sample) as an image in the "
         "format of OUT's extension (PNG without one; others are refused): the Overview after a load, "
         "--page the overview, timeline or cluster page, --dock NAME that panel raised (details, kernels, "
         "charts, …; on the timeline unless --page cluster) at the default layout; --tab NAME that tab of "
         "the cluster page (findings, steps, matrix, communication, strategy, pipeline: its stage ranks "
         "loaded first; moe); --range times like 100ms:120ms (plain numbers µs) and --select the first slice "
         "with this name (exact, else "
         "substring) on the timeline; with --compare-steps the compare window of the two steps",
         true,
         &runScreenshot},
    };
}

std::vector<CommandLineMode> outputModes()
{
    return {
        {{"compare-steps", "A,B", &setCompareSteps},
         {{"against"}, {"csv"}, {"kernels-csv"}, {"match-shapes"}},
         "PATH",
         "compare step A of PATH with step B (of OTHER if given) kernel by kernel: step/computing/"
         "communication/free time with deltas and the kernel names with the largest change; --csv writes "
         "the diff by name, --kernels-csv per kernel pair, --match-shapes matches kernels by name and input "
         "shapes. A step is N or GROUP:N",
         false,
         &runCompareSteps},
        {{"export-json", "OUT.json", &setText<&O::exportJson>},
         {{"perfetto"}},
         "PATH",
         "write the loaded timeline (any input: JSON, database, raw data) as Chrome-trace JSON with string "
         "µs "
         "timestamps (3 decimals) and the layer names of the source; --perfetto writes numeric timestamps "
         "relative to the first event and flow ids 1, 2, …",
         false,
         &runExportJson},
        {{"export-csv", "DIR", &setText<&O::exportCsvDir>},
         {},
         "PATH",
         "write the kernel metric table to DIR/kernel_details.csv (the kernel_details.csv column names, RFC "
         "4180 with CRLF line ends, written atomically; DIR is created and must not be inside the data "
         "folder)",
         false,
         &runExportCsv},
        {{"cluster", nullptr, &setSwitch<&O::cluster>},
         {{"ops"}, {"json"}, {"cache"}, {"pipeline"}, {"comm-bound"}},
         "PATH",
         "a folder of rank folders: each rank's step breakdown, peak memory, the findings and one line per "
         "communication op instance (slowest/fastest rank, longest wait), from the summary files (with "
         "--ops: "
         "also every rank's op rows; with --cache DIR: from the summaries prepared there; with --json "
         "--pipeline: also the pipeline view's blocks and bubbles, loading one rank timeline per stage; "
         "with --comm-bound: whether the late rank of the 5 longest ops with a gap was host- or "
         "device-bound, from the two ranks' timelines)",
         false,
         &runCluster},
        {{"prepare", "RANK_DIR", &setText<&O::prepare>},
         {{"cache", true}},
         "",
         "parse one rank folder headlessly and write its snapshot and cluster summary into DIR (one task per "
         "rank, e.g. a Slurm job array); `--cache DIR CLUSTER` then opens it without parsing",
         false,
         &runPrepare},
        {{"query", "SQL", &setText<&O::query>},
         {{"csv"}, {"json"}},
         "PATH",
         "run SQL over the loaded profile (tables, columns and functions: docs/QUERY.md) and print the "
         "result "
         "as a text table, as CSV with a header row (--csv FILE, or --csv - for the standard output) or as "
         "JSON {\"columns\": [...], \"rows\": [[...], ...]} with exact integers; a bad query exits 1 with "
         "SQLite's message and its line and column",
         false,
         &runQuery},
        {{"query-file", "F.sql", &setText<&O::queryFile>},
         {{"csv"}, {"json"}},
         "PATH",
         "the same with the SQL read from F.sql (each statement that returns rows prints its result)",
         false,
         &runQuery},
        {{"sql-shell", nullptr, &setSwitch<&O::sqlShell>},
         {},
         "PATH",
         "an SQL prompt over the loaded profile reading the standard input (statements end with ';'; "
         ".tables, .schema [TABLE], .mode text|csv|json, .history, .quit)",
         false,
         &runSqlShell},
        {{"export-sqlite", "OUT.db", &setText<&O::exportSqlite>},
         {},
         "PATH",
         "write every query table as a plain SQLite database for pandas, DuckDB or Excel (OUT must be "
         "outside "
         "the data folder and no input; written atomically)",
         false,
         &runExportSqlite},
        {{"diff", nullptr, &setSwitch<&O::diff>},
         {{"steps"}, {"match-shapes"}, {"json"}, {"csv"}},
         "BASE NEW",
         "compare two profiles (GPU or NPU, files or folders) by framework op: ops matched in call-tree "
         "order "
         "by name (--match-shapes: and input shapes), each with its host and device time on both sides, the "
         "ops of one side only, the step breakdown and the ops explaining most of the difference; --steps "
         "A,B "
         "compares ProfilerStep#A of BASE with ProfilerStep#B of NEW (default: the whole profiles); --json "
         "prints the whole diff as JSON, --csv writes its rows (docs/DIFF.md)",
         false,
         &runDiff},
    };
}

} // namespace

const std::vector<CommandLineMode> &commandLineModes()
{
    static const std::vector<CommandLineMode> modes = [] {
        std::vector<CommandLineMode> all = inspectionModes();
        for (CommandLineMode &mode : outputModes())
            all.push_back(std::move(mode));
        return all;
    }();
    return modes;
}

const std::vector<CommandLineOption> &modeCommandLineOptions()
{
    static const std::vector<CommandLineOption> options{
        {"json", nullptr, &setSwitch<&O::json>},
        {"csv", "FILE", &setText<&O::csvOut>},
        {"out", "FILE.png", &setText<&O::out>},
        {"size", "WxH", &setSize},
        {"page", "overview|timeline|cluster", &setPage},
        {"dock", "NAME", &setText<&O::dock>},
        {"tab", "NAME", &setText<&O::clusterTab>},
        {"range", "START:END", &setText<&O::range>},
        {"select", "NAME", &setText<&O::select>},
        {"against", "OTHER", &setText<&O::against>},
        {"kernels-csv", "FILE", &setText<&O::kernelsCsvOut>},
        {"match-shapes", nullptr, &setSwitch<&O::matchShapes>},
        {"perfetto", nullptr, &setSwitch<&O::perfetto>},
        {"ops", nullptr, &setSwitch<&O::clusterOps>},
        {"pipeline", nullptr, &setSwitch<&O::clusterPipeline>},
        {"comm-bound", nullptr, &setSwitch<&O::clusterCommBound>},
        {"steps", "A,B", &setText<&O::diffSteps>},
    };
    return options;
}

const std::vector<CommandLineOption> &globalCommandLineOptions()
{
    // --no-cache comes before --cache, which refuses both together.
    static const std::vector<CommandLineOption> options{
        {"theme", "system|light|dark", &setText<&O::theme>,
         "the window's theme (the GUI and --screenshot; default: View ▸ Theme)"},
        {"lang", "en|zh_CN", &setText<&O::language>,
         "the user interface language (the GUI and --screenshot; default: View ▸ Language / 语言, else the "
         "system's); with the other modes it translates their warnings and errors (the reports stay "
         "English)"},
        {"source", "db|text|raw", &setSource,
         "when a result has both a profiler database and the text export (JSON/CSV), load the database or "
         "the text (default text); raw decodes the raw PROF_* slices even when an export exists; works with "
         "every mode above"},
        {"no-cache", nullptr, &setNoCache,
         "neither read nor write the snapshot cache: parse the input every time (the same as "
         "AT_NO_SNAPSHOT=1)"},
        {"cache", "DIR", &setCache,
         "use DIR as the snapshot cache (and the prepared rank summaries) instead of the user's cache "
         "folder; "
         "never trimmed"},
        {"memory-limit", "SIZE", &setMemoryLimit,
         "stop reading when loading would take more memory than SIZE (8G, 512M; default AT_MEMORY_LIMIT, "
         "else "
         "80 % of the RAM): the events read so far are shown with a warning saying where reading stopped, "
         "instead of the system killing the process"},
    };
    return options;
}

namespace {

const CommandLineMode *findMode(const QString &name)
{
    for (const CommandLineMode &mode : commandLineModes())
        if (name == QLatin1String(mode.flag.name))
            return &mode;
    return nullptr;
}

const CommandLineOption *findOption(const QString &name)
{
    if (const CommandLineMode *mode = findMode(name))
        return &mode->flag;
    for (const auto *table : {&modeCommandLineOptions(), &globalCommandLineOptions()})
        for (const CommandLineOption &option : *table)
            if (name == QLatin1String(option.name))
                return &option;
    return nullptr;
}

bool takes(const CommandLineMode &mode, const char *option)
{
    for (const ModeOption &taken : mode.options)
        if (std::strcmp(taken.name, option) == 0)
            return true;
    return false;
}

QString flagName(const char *name)
{
    return QStringLiteral("--") + QLatin1String(name);
}

// "--a", "--a and --b", "--a, --b and --c".
QString listed(const QStringList &flags, const QString &conjunction)
{
    if (flags.size() < 2)
        return flags.join(QString());
    return flags.mid(0, flags.size() - 1).join(QStringLiteral(", ")) + QLatin1Char(' ') + conjunction +
           QLatin1Char(' ') + flags.last();
}

// The one mode of those given: a mode another given mode takes as its option (--compare-steps with
// --screenshot: the compare window) is that mode's option. Null for none; an error for two or more.
const CommandLineMode *selectMode(const std::vector<const CommandLineMode *> &given, QString *error)
{
    std::vector<const CommandLineMode *> modes;
    for (const CommandLineMode *mode : given) {
        bool isOption = false;
        for (const CommandLineMode *other : given)
            isOption = isOption || (other != mode && takes(*other, mode->flag.name));
        if (!isOption)
            modes.push_back(mode);
    }
    if (modes.size() > 1) {
        QStringList flags;
        for (const CommandLineMode *mode : modes)
            flags << flagName(mode->flag.name);
        *error = QStringLiteral("%1 are different modes: give one of them")
                     .arg(listed(flags, QStringLiteral("and")));
        return nullptr;
    }
    return modes.empty() ? nullptr : modes.front();
}

QCommandLineOption parserOption(const CommandLineOption &option)
{
    const QString name = QLatin1String(option.name);
    return option.valueName ? QCommandLineOption(name, QString(), QLatin1String(option.valueName))
                            : QCommandLineOption(name);
}

ParsedCommandLine stop(int exitCode, const QString &error)
{
    ParsedCommandLine result;
    result.exitCode = exitCode;
    result.error = error;
    return result;
}

} // namespace

ParsedCommandLine parseCommandLine(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")});
    const QCommandLineOption version(QStringList{QStringLiteral("v"), QStringLiteral("version")});
    parser.addOption(help);
    parser.addOption(version);
    for (const CommandLineMode &mode : commandLineModes())
        parser.addOption(parserOption(mode.flag));
    for (const auto *table : {&modeCommandLineOptions(), &globalCommandLineOptions()})
        for (const CommandLineOption &option : *table)
            parser.addOption(parserOption(option));
    if (!parser.parse(arguments))
        return stop(1, parser.errorText()); // (exit 1, as QCommandLineParser::process() exits)

    ParsedCommandLine result;
    if (parser.isSet(version) || parser.isSet(help)) {
        result.exitCode = 0;
        result.output = parser.isSet(version) ? QCoreApplication::applicationName() + QLatin1Char(' ') +
                                                    QCoreApplication::applicationVersion() + QLatin1Char('\n')
                                              : commandLineHelp();
        return result;
    }

    std::vector<const CommandLineMode *> given;
    for (const CommandLineMode &mode : commandLineModes())
        if (parser.isSet(QLatin1String(mode.flag.name)))
            given.push_back(&mode);
    QString error;
    result.mode = selectMode(given, &error);
    if (!error.isEmpty())
        return stop(2, error);
    // A mode's option without the mode (or with another mode) is refused rather than ignored.
    for (const CommandLineOption &option : modeCommandLineOptions()) {
        if (!parser.isSet(QLatin1String(option.name)) || (result.mode && takes(*result.mode, option.name)))
            continue;
        if (result.mode)
            return stop(2, QStringLiteral("%1 does not take %2")
                               .arg(flagName(result.mode->flag.name), flagName(option.name)));
        QStringList modes;
        for (const CommandLineMode &mode : commandLineModes())
            if (takes(mode, option.name))
                modes << flagName(mode.flag.name);
        return stop(
            2, QStringLiteral("%1 needs %2").arg(flagName(option.name), listed(modes, QStringLiteral("or"))));
    }

    result.options.paths = parser.positionalArguments();
    auto apply = [&](const CommandLineOption &option) {
        const QString name = QLatin1String(option.name);
        return parser.isSet(name)
                   ? option.apply(result.options, option.valueName ? parser.value(name) : QString())
                   : QString();
    };
    for (const CommandLineMode *mode : given)
        if (const QString problem = apply(mode->flag); !problem.isEmpty())
            return stop(2, problem);
    for (const auto *table : {&modeCommandLineOptions(), &globalCommandLineOptions()})
        for (const CommandLineOption &option : *table)
            if (const QString problem = apply(option); !problem.isEmpty())
                return stop(2, problem);
    return result;
}

CommandLineRuntime commandLineRuntime(const QStringList &arguments)
{
    std::vector<const CommandLineMode *> given;
    bool modeOptionGiven = false; // without its mode the parser refuses it: no display needed for that
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &argument = arguments[i];
        if (argument == QStringLiteral("--"))
            break;
        if (argument == QStringLiteral("-h") || argument == QStringLiteral("-v"))
            return CommandLineRuntime::Headless;
        if (!argument.startsWith(QStringLiteral("--")))
            continue;
        const QString name = argument.mid(2).section(QLatin1Char('='), 0, 0);
        if (name == QStringLiteral("help") || name == QStringLiteral("version"))
            return CommandLineRuntime::Headless;
        const CommandLineOption *option = findOption(name);
        if (option && option->valueName && !argument.contains(QLatin1Char('=')))
            ++i; // its value, whatever it looks like (as the parser takes it)
        if (const CommandLineMode *mode = findMode(name))
            given.push_back(mode);
        for (const CommandLineOption &modeOption : modeCommandLineOptions())
            modeOptionGiven = modeOptionGiven || name == QLatin1String(modeOption.name);
    }
    QString error;
    const CommandLineMode *mode = selectMode(given, &error);
    if (!error.isEmpty())
        return CommandLineRuntime::Headless; // the message needs no display
    if (!mode)
        return modeOptionGiven ? CommandLineRuntime::Headless : CommandLineRuntime::Window;
    return mode->needsWidgets ? CommandLineRuntime::Offscreen : CommandLineRuntime::Headless;
}

// ---- The usage text ----

namespace {

constexpr qsizetype kUsageColumn = 37; // where the descriptions start
constexpr qsizetype kUsageWidth = 110;

// Appends the units to `line` separated by spaces; a unit that would pass kUsageWidth starts a new line at
// `indent`. `atStart`: the line holds no unit yet (no space before the first).
void appendWrapped(QStringList &lines, QString &line, bool atStart, const QStringList &units,
                   const QString &indent)
{
    for (const QString &unit : units) {
        if (!atStart && line.size() + 1 + unit.size() > kUsageWidth) {
            lines << line;
            line = indent;
            atStart = true;
        }
        line += (atStart ? QString() : QStringLiteral(" ")) + unit;
        atStart = false;
    }
}

// "ascend-timeline SYNOPSIS" (its units: an option with its value, a bracketed option, PATH) with the
// description word-wrapped in a column beside it, or below it when the synopsis is long.
QString usageEntry(const QStringList &synopsis, const QString &description)
{
    QStringList lines;
    QString line = QStringLiteral("ascend-timeline");
    appendWrapped(lines, line, false, synopsis, QString(20, QLatin1Char(' ')));
    const QString indent(kUsageColumn, QLatin1Char(' '));
    if (lines.isEmpty() && line.size() <= kUsageColumn - 2) {
        line = line.leftJustified(kUsageColumn);
    } else {
        lines << line;
        line = indent;
    }
    appendWrapped(lines, line, true, description.split(QLatin1Char(' '), Qt::SkipEmptyParts), indent);
    lines << line;
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString valueOf(const CommandLineOption &option)
{
    return option.valueName ? QLatin1Char(' ') + QLatin1String(option.valueName) : QString();
}

QStringList modeSynopsis(const CommandLineMode &mode)
{
    QStringList synopsis{flagName(mode.flag.name) + valueOf(mode.flag)};
    for (const ModeOption &taken : mode.options) {
        const QString option = flagName(taken.name) + valueOf(*findOption(QLatin1String(taken.name)));
        synopsis << (taken.required ? option : QLatin1Char('[') + option + QLatin1Char(']'));
    }
    if (*mode.paths)
        synopsis << QLatin1String(mode.paths);
    return synopsis;
}

} // namespace

QString commandLineUsage()
{
    QString usage =
        usageEntry({QStringLiteral("[PATH...]")},
                   QStringLiteral("open a result folder or a trace file in the window (no PATH: the "
                                  "bundled sample; several paths open several windows)"));
    for (const CommandLineMode &mode : commandLineModes())
        usage += usageEntry(modeSynopsis(mode), QString::fromUtf8(mode.help));
    for (const CommandLineOption &option : globalCommandLineOptions())
        usage += usageEntry({flagName(option.name) + valueOf(option), QStringLiteral("...")},
                            QString::fromUtf8(option.help));
    usage +=
        usageEntry({QStringLiteral("--version | --help")}, QStringLiteral("print the version, or this text"));
    return usage;
}

QString commandLineHelp()
{
    return QStringLiteral(
               "Usage: ascend-timeline [MODE] [OPTIONS] [PATH...]\n"
               "Ascend Timeline: a fast timeline viewer for Huawei Ascend NPU profiling data.\n"
               "Opens Chrome-trace JSON files written by msprof and torch_npu (.json, .json.zst, .json.gz)\n"
               "profiler SQLite databases (msprof_<n>.db, ascend_pytorch_profiler*.db)\n"
               "and whole result folders (PROF_*, *_ascend_pt, a folder of ranks).\n"
               "Give one mode at most; the options from --theme on combine with every mode and with the "
               "window.\n\n") +
           commandLineUsage();
}

// ---- Shared by the modes ----

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

QString resolvedOutputPath(const QString &path)
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

bool isInsideFolder(const QString &path, const QString &folder)
{
    return path == folder ||
           path.startsWith(folder.endsWith(QLatin1Char('/')) ? folder : folder + QLatin1Char('/'));
}

bool outsideDataFolders(const QString &option, const QString &out, const QStringList &paths, QTextStream &err)
{
    const QString target = resolvedOutputPath(out);
    for (const QString &path : paths) {
        const QFileInfo input(path);
        if (!input.exists())
            continue;
        const QString dataFolder = resolvedOutputPath(input.isDir() ? path : input.absolutePath());
        if (isInsideFolder(target, dataFolder)) {
            err << "ascend-timeline: " << option << " " << out << " is inside the data folder " << dataFolder
                << ": choose a path outside it (the profile data is never written to)\n";
            return false;
        }
    }
    return true;
}

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
