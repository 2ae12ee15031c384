#pragma once

// Result types of the folder layout detector (FORMATS.md §1). Plain data: no I/O here.

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace at {

// Layout the chosen timeline files come from (FORMATS.md §1.1).
enum class ProfileGeneration
{
    Unknown, // a Chrome trace of unknown origin, opened directly
    G1,      // CANN <= 5.x: PROF_*/device_<id>/timeline/<type>_<dev>_<model>_<iter>.json
    G2,      // CANN 6.x: PROF_*/timeline/msprof*.json
    G3,      // CANN >= 7.0: PROF_*/mindstudio_profiler_output/msprof[_slice_<k>]_<ts>.json or msprof_<ts>.db
    G4,      // torch_npu *_ascend_pt (MindSpore *_ascend_ms): trace_view.json or ascend_pytorch_profiler*.db
    RawOnly  // PROF_* with binary data/ only (not exported yet)
};

// One timeline source: one rank (G4) or one PROF folder / device (G1 has one source per device).
struct DataSource
{
    ProfileGeneration generation = ProfileGeneration::Unknown;
    // The id of the reader that reads its timeline (InputReader's descriptor: "json", "sqlite", "raw", ...),
    // as the readers answered the detector (folder/InputFormat.h); empty: no timeline (summaries only).
    QString format;
    // True when the source is a *_ascend_pt / *_ascend_ms folder. The generation is then G4, or G3 when
    // trace_view.json and the profiler DB are missing and the embedded PROF_* export is used instead.
    bool torchRoot = false;

    QString rootPath;    // recognised folder (G4 root, PROF_*), or the file when one was opened directly
    QString profPath;    // PROF_* folder in use (own or embedded in a G4 root); empty when none
    QString clusterPath; // parent of rootPath: G4 roots sharing it are ranks of one run (§1.8 multi-rank)
    std::optional<int> rankId;
    std::optional<int> deviceId;
    QString label; // "Rank 1 / Device 1", "Device 0", or the folder name; unique within one result

    // Chosen timeline in load order: every slice of the newest export, every G1 iteration.
    QStringList timelineFiles;
    // G1 only: hccl_* and AI CPU timeline files. Load them only when the master msprof file lacks the
    // corresponding process (All Reduce / HCCL, AI CPU), §1.2; the detector cannot see file contents.
    QStringList supplementaryTimelineFiles;
    // CSV type ("op_summary", "kernel_details", "step_trace_time", ...) -> files in load order
    // (slices in slice order, G1 iterations in iteration order, newest export only).
    QMap<QString, QStringList> summaryFiles;
    // Profiler DB that can serve as the timeline (§1.8 priorities 2 and 4), also listed when JSON was chosen
    // so the viewer can offer a switch. Empty when none.
    QString timelineDatabase;
    QStringList otherDatabases; // analysis.db and similar: not timelines
    // sample.json, info.json[.N], start_info[.N], end_info[.N], host_start.log, dev_start.log[.N],
    // profiler_info[_N].json, profiler_metadata.json
    QStringList configFiles;
    QStringList rawDataDirs; // PROF_*/host/data, PROF_*/device_<id>/data when present

    // An exported timeline file (raw data folders are decoded, not exported).
    bool hasTimeline() const { return !format.isEmpty() && !timelineFiles.isEmpty(); }
    QStringList summaries(const QString &type) const { return summaryFiles.value(type); }
};

enum class DiagnosticSeverity
{
    Info,
    Warning,
    Error
};

enum class DiagnosticCode
{
    NotFound,             // the chosen path does not exist
    PermissionDenied,     // a folder or file could not be read
    SymlinkLoop,          // a link points back to one of its ancestors; not followed
    DepthLimit,           // folders deeper than DetectOptions::maxDepth were not searched
    FolderLimit,          // the search stopped after DetectOptions::maxFolders folders
    NothingRecognised,    // no profiling result found at all
    RawDataOnly,          // PROF_* not exported: run msprof --export=on
    UnparsedTorchProfile, // *_ascend_pt not parsed: run torch_npu.profiler.profiler.analyse
    NoTimeline,           // a result without any timeline (summaries only)
    EmbeddedProfFallback, // G4 root without trace_view.json / DB: its embedded PROF_* export is used
    EmbeddedProfSelected, // the chosen PROF_* lies inside a G4 root, whose trace_view.json has Python lanes
    EnclosingFolderUsed,  // the chosen folder is part of a result; the whole result was loaded
    LooseFilesUsed,       // no recognised folder; timeline files found directly in the chosen folder
    NotATimelineFile,     // a file opened directly is not a timeline
    MultipleRuns,         // sources from different runs: they share no clock alignment
    SpecialFile,          // a FIFO, socket, device or dangling link named like a profiler's file: not read
    DuplicateRank,        // two GPU traces of one run claim one rank (distributedInfo or folder name)
    MissingDeviceTimeline // G1 device_<id> without msprof_* timeline
};

struct Diagnostic
{
    DiagnosticSeverity severity = DiagnosticSeverity::Info;
    DiagnosticCode code = DiagnosticCode::NothingRecognised;
    QString path;
    QString message; // complete sentence for the user
};

struct DetectedProfile
{
    QString inputPath; // absolute form of the path given to detect()
    QList<DataSource> sources;
    QList<Diagnostic> diagnostics;

    bool hasLoadableTimeline() const;
    bool hasDiagnostic(DiagnosticCode code) const;
    QList<Diagnostic> diagnosticsWith(DiagnosticCode code) const;
};

struct DetectOptions
{
    int maxDepth = 6;       // folder levels searched below the chosen path (MindStudio Insight stops at 5)
    int maxFolders = 20000; // safety stop when a huge unrelated tree is chosen
    bool preferDatabase = false; // §1.8: choose the profiler DB over JSON when both exist
    bool followSymlinks = true;  // links are followed unless they point back to an ancestor
    // The readers asked (set by ProfileLayoutDetector::detect from its argument).
    const std::vector<const class InputFormat *> *formats = nullptr;
};

// Not named toString: an at::toString overload would hijack QTest's ADL lookup in QCOMPARE.
QString generationName(ProfileGeneration generation); // "G1" ... "G4", "raw-only", "unknown"

} // namespace at
