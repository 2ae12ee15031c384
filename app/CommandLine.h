#pragma once

#include "TraceLoader.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTextStream;

namespace at {

namespace cluster {
struct ClusterModel;
}

struct CommandLineOptions
{
    QStringList paths;
    bool summary = false;
    bool json = false;
    bool metrics = false;
    QString csvOut;
    QString screenshotOut;  // --screenshot OUT.png
    QSize size{1600, 1000}; // --size WxH
    QString range;          // --range START:END (relative to the trace start; ns/us/ms/s suffixes)
    QString select;         // --select NAME
    QString page;           // --page overview|timeline|cluster (--screenshot)
    QString dock;           // --dock NAME (--screenshot): a panel id of app/PanelRegistry
    QString clusterTab;     // --tab NAME (--screenshot --page cluster): a tab of the cluster page
    QString chart;          // --chart NAME (with --out)
    QString out;            // --out FILE.png
    QString theme;          // --theme system|light|dark (GUI and --screenshot; else the saved choice)
    // --lang en|zh_CN (GUI and --screenshot; else the saved choice, else the system's). Headless modes:
    // only when given, for their warnings and errors.
    QString language;
    // --source db|text|raw (which export to load when a result has several; default: text), --no-cache,
    // --memory-limit; the window uses the last two.
    LoadOptions load = environmentLoadOptions();
    bool noCache = false; // --no-cache (the window then leaves File ▸ Prepared Cache's folder unused)
    // --compare-steps A,B [--against OTHER] [--csv OUT] [--kernels-csv OUT] [--match-shapes]
    QString compareSteps;
    QString against;
    QString kernelsCsvOut;
    bool matchShapes = false;
    QString exportJson; // --export-json OUT.json [--perfetto]
    bool perfetto = false;
    QString exportCsvDir;    // --export-csv DIR: DIR/kernel_details.csv
    bool advise = false;     // --advise PATH [--json]: the Insights findings (app/AdviseCommand.cpp)
    bool cluster = false;    // --cluster PATH [--ops] [--json] (app/ClusterCommand.cpp)
    bool clusterOps = false; // --ops: the text output adds every rank's communication op rows
    bool clusterPipeline =
        false;             // --pipeline: --cluster --json adds the pipeline view's schedule (loads timelines)
    bool memory = false;   // --memory PATH [--json] (app/MemoryCommand.cpp)
    bool overview = false; // --overview PATH [--json] (app/OverviewCommand.cpp)
    bool clusterCommBound = false; // --comm-bound: host- or device-bound verdicts (app/ClusterCommBound.cpp)
    // --prepare RANK_DIR --cache DIR (app/PrepareCommand.cpp); --cache itself sets load.snapshotDirectory.
    QString prepare;
    // SQL over the loaded profile (app/QueryCommand.cpp, docs/QUERY.md): --query SQL / --query-file F.sql
    // [--csv FILE|-] [--json], --sql-shell, --export-sqlite OUT.db.
    QString query;
    QString queryFile;
    bool sqlShell = false;
    QString exportSqlite;
    bool diff =
        false; // --diff BASE NEW [--steps A,B] [--match-shapes] [--json|--csv OUT] (app/DiffCommand.cpp)
    QString diffSteps; // --steps A,B: ProfilerStep#A of BASE against ProfilerStep#B of NEW
};

// "12.5ms" -> 12500000; plain numbers are microseconds, as in the trace files.
std::optional<qint64> parseTimeWithUnit(const QString &text);

// ---- The command line as a table of modes (app/CommandLine.cpp: commandLineModes()) ----
//
// A mode is one flag (--summary, --export-json OUT.json, ...) that selects what the process does; without
// one the window opens. Each mode lists the options it takes; the global options (--source, --cache,
// --no-cache, --memory-limit, --theme, --lang) combine with every mode and with the window. The parser,
// --help, the README's usage block and main()'s choice between QCoreApplication and QApplication are all
// built from the table.

// Stores an option's value (for a switch: that it was given) in the options. Returns what is wrong with the
// value (without the "ascend-timeline: " prefix), or an empty string.
using ApplyOption = QString (*)(CommandLineOptions &options, const QString &value);

struct CommandLineOption
{
    const char *name;      // "csv" for --csv
    const char *valueName; // "FILE"; nullptr for a switch
    ApplyOption apply;
    // For the global options: the usage entry's description (a mode option is described by its modes).
    const char *help = nullptr;
};

// An option a mode takes; `required` only shapes the usage line (the mode's run checks it).
struct ModeOption
{
    const char *name;
    bool required = false;
};

struct CommandLineMode
{
    CommandLineOption flag;          // the mode's own flag and its value
    std::vector<ModeOption> options; // in usage order; other mode options given with it are an error
    const char *paths;               // the usage line's PATH part: "PATH", "PATH...", "[PATH]" or ""
    const char *help;                // the usage entry's description
    // True: the mode renders with the real widgets (a QApplication on the offscreen platform); false: it runs
    // on a QCoreApplication and needs no display.
    bool needsWidgets;
    int (*run)(const CommandLineOptions &options);
};

const std::vector<CommandLineMode> &commandLineModes();
const std::vector<CommandLineOption> &globalCommandLineOptions();
// Options taken by modes only (each name once, in first-use order).
const std::vector<CommandLineOption> &modeCommandLineOptions();

struct ParsedCommandLine
{
    CommandLineOptions options;
    const CommandLineMode *mode = nullptr; // null: open the window(s)
    // Set when the process ends without running anything: --help / --version (output for stdout, 0) or a
    // command-line error (error for stderr without the "ascend-timeline: " prefix, 1 or 2).
    std::optional<int> exitCode;
    QString output;
    QString error;
};

// Parses the arguments (arguments[0] is the program) against the table. Never exits: --help, --version and
// every error come back in the result.
ParsedCommandLine parseCommandLine(const QStringList &arguments);

// What the process needs, from the raw arguments (main() decides it before a Q*Application exists).
enum class CommandLineRuntime
{
    Headless,  // a mode without widgets, --help, --version or a command-line error: a QCoreApplication
    Offscreen, // a mode that renders with the real widgets: a QApplication on the offscreen platform
    Window,    // no mode: the window(s)
};
CommandLineRuntime commandLineRuntime(const QStringList &arguments);

// The usage block: one entry per mode, then the global options (README.md's "Using it" block is this text,
// tests/app/tst_command_line checks it).
QString commandLineUsage();
// What --help prints: the usage line, the description and commandLineUsage().
QString commandLineHelp();

// `--summary PATH...`: loads headlessly through the same loader and queries as the GUI, prints the
// summary, returns the process exit code (non-zero with the error on stderr for bad input).
int runSummary(const CommandLineOptions &options);

// `--export-csv DIR PATH`: the kernel metric table with kernel_details.csv column names as RFC 4180 CSV in
// DIR/kernel_details.csv (DIR is created; it must not lie inside the data folder; written atomically).
int runExportCsv(const CommandLineOptions &options);

// `--metrics PATH [--csv OUT]`: the joined per-kernel AI Core metric table, as CSV on stdout or
// written to OUT.
int runMetrics(const CommandLineOptions &options);

// `--compare-steps A,B PATH [--against OTHER]`: the step diff (same comparison as the compare
// window) as text, with --csv / --kernels-csv writing the by-name / per-kernel tables. A step is
// its number (first source group having it) or GROUP:NUMBER with the group's index.
int runCompareSteps(const CommandLineOptions &options);

// `--export-json OUT PATH [--perfetto]`: the loaded timeline (any input) as Chrome-trace JSON.
int runExportJson(const CommandLineOptions &options);

// `--memory PATH [--json]`: per device and component the memory peaks and the allocations live at the
// peak (app/MemoryCommand.cpp, docs/MEMORY.md).
int runMemory(const CommandLineOptions &options);

// Shared by the headless modes: loads PATH with the options' source preference (the error goes to
// err; null on failure), and writes a file atomically (QSaveFile; false with the reason on err).
std::unique_ptr<TraceModel> loadForCommand(const QString &path, const CommandLineOptions &options,
                                           QTextStream &err);
// Writes through parser/common/OutputPath (never onto a device/FIFO/socket, never onto one of `inputs`).
bool writeFileAtomically(const QString &path, const QByteArray &data, QTextStream &err,
                         const QStringList &inputs = {});
// Flushes out and stdout; false with a message on err when the standard output could not be written.
bool stdoutWritten(QTextStream &out, QTextStream &err);
// False with a message on err when `out` (the value of `option`) lies inside the folder of one of `paths`.
bool outsideDataFolders(const QString &option, const QString &out, const QStringList &paths,
                        QTextStream &err);
// The absolute path with symbolic links of its existing part resolved (the rest may not exist yet).
QString resolvedOutputPath(const QString &path);
// True when `path` is `folder` or lies below it (both resolved).
bool isInsideFolder(const QString &path, const QString &folder);

// `--advise PATH [--json]`: the performance findings of the Insights panel (docs/INSIGHTS.md), as text or
// as {"findings": [...]} JSON on stdout.
int runAdvise(const CommandLineOptions &options);
// The communication / cluster data of a loaded model's folder for the insight checks: parser/cluster's
// readCluster over the rank folder(s) the model was read from (summary files only: communication.json,
// step_trace_time.csv, profiler_metadata.json). Null for a single file or a folder without rank folders.
// memoryLimitBytes: --memory-limit (ClusterReadOptions::memoryLimitBytes; 0: none).
std::shared_ptr<const cluster::ClusterModel> readCommunicationData(const TraceModel &model,
                                                                   std::uint64_t memoryLimitBytes = 0);
// What --advise and --overview analyse: PATH loaded as a timeline, with the communication data of its rank
// folders (readCommunicationData). A cluster with summary-only ranks has no timeline to load (the window
// shows it as the cluster page): its model is empty and its data the ranks' summary files. False, with the
// error on err, when PATH could not be loaded.
struct AnalysisInput
{
    std::unique_ptr<TraceModel> model;
    std::shared_ptr<const cluster::ClusterModel> cluster;
};
bool loadAnalysisInput(const QString &path, const CommandLineOptions &options, QTextStream &err,
                       AnalysisInput &input);
// The folder readCommunicationData() reads: the common folder of the model's rank folders (empty for a file).
QString communicationDataRoot(const TraceModel &model);
// What readCluster(root) would give, taken from a cluster already read: the cluster itself when root is its
// folder, the one rank when root is one of its rank folders (canonical folders compared); else null.
std::shared_ptr<const cluster::ClusterModel>
communicationDataFrom(const std::shared_ptr<const cluster::ClusterModel> &cluster, const QString &root);
// The Insights panel's reader: communicationDataFrom(cluster, ...) when it covers the model's rank folders
// (the window's cluster page already read them), else readCommunicationData() under memoryLimitBytes.
std::function<std::shared_ptr<const cluster::ClusterModel>(const TraceModel &)>
communicationReader(std::shared_ptr<const cluster::ClusterModel> cluster, std::uint64_t memoryLimitBytes);

// `--overview PATH [--json]`: per rank and step the parts of the step and what fills them, the memory peak
// and the findings with their shares (core/overview, docs/OVERVIEW.md), as text or JSON.
int runOverview(const CommandLineOptions &options);

// `--cluster PATH [--json]`: the cluster's ranks, step breakdowns and findings from the rank folders' summary
// files (docs/CLUSTER.md), as text or JSON.
int runCluster(const CommandLineOptions &options);

// `--prepare RANK_DIR --cache DIR`: parses one rank folder headlessly and writes its snapshot and its cluster
// summary into DIR (docs/CLUSTER.md), so that `--cache DIR` opens the cluster without parsing.
int runPrepare(const CommandLineOptions &options);

// `--query SQL PATH` / `--query-file F.sql PATH` [--csv FILE|-] [--json]: the result of SQL over the loaded
// profile (core/query, docs/QUERY.md) as a text table, CSV or JSON; exit 1 with the position of a bad query.
int runQuery(const CommandLineOptions &options);
// `--sql-shell PATH`: statements read from the standard input, results printed as they come.
int runSqlShell(const CommandLineOptions &options);
// `--export-sqlite OUT.db PATH`: every query table written as a plain SQLite database.
int runExportSqlite(const CommandLineOptions &options);
// `--diff BASE NEW [--steps A,B] [--match-shapes] [--json|--csv OUT]`: the two profiles compared by framework
// op (core/diff, docs/DIFF.md): headline and top rows as text, or the whole diff as JSON / CSV.
int runDiff(const CommandLineOptions &options);

} // namespace at
