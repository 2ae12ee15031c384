#include "folder/ProfileLayoutDetector.h"

#include "folder/ExportFolder.h"
#include "folder/FolderListing.h"
#include "folder/KinetoTraces.h"
#include "folder/NamePatterns.h"
#include "folder/ProfFolder.h"
#include "folder/SingleFile.h"
#include "folder/TorchRootFolder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <deque>

namespace at {

using namespace profile_names;

namespace {

// Levels checked above the chosen folder when nothing is found below it (e.g. PROF_*/device_0/timeline).
constexpr int kEnclosingLevels = 3;

QString folderName(const QString &path)
{
    return path.section(QLatin1Char('/'), -1);
}

QString parentOf(const QString &path)
{
    return QFileInfo(path).absolutePath();
}

QString canonical(const QString &path)
{
    const QString c = QFileInfo(path).canonicalFilePath();
    return c.isEmpty() ? path : c;
}

bool isInside(const QString &path, const QString &folder)
{
    return path.startsWith(folder) && path.size() > folder.size() && path[folder.size()] == QLatin1Char('/');
}

class Search
{
public:
    Search(const DetectOptions &options, DetectedProfile &result) : m_options(options), m_result(result) {}

    void walkDown(const QString &start);
    bool tryEnclosingResult(const QString &start);
    bool tryLooseFiles(const QString &start);
    void reportLimits(const QString &start);
    const QStringList &kinetoTraces() const { return m_kinetoTraces; }

private:
    struct Node
    {
        QString path;
        int depth = 0;
        QStringList ancestors; // canonical paths from the start down to this folder
    };

    bool collectRoot(const FolderListing &listing, bool isStart);
    bool collectReaderFolder(const FolderListing &listing);
    bool collectKinetoTraces(const FolderListing &listing);
    void warn(DiagnosticSeverity severity, DiagnosticCode code, const QString &path, const QString &message)
    {
        m_result.diagnostics.append({severity, code, path, message});
    }

    const DetectOptions &m_options;
    DetectedProfile &m_result;
    int m_foldersVisited = 0;
    bool m_folderLimitHit = false;
    QStringList m_depthLimited; // folders at maxDepth whose subfolders were not searched
    QStringList m_kinetoTraces; // the GPU traces found (their sources' timeline files)
};

// Adds the sources of `listing` when it is a recognised result folder (§1.7 table, first match wins).
bool Search::collectRoot(const FolderListing &listing, bool isStart)
{
    if (isTorchRootFolder(listing)) {
        m_result.sources.append(collectTorchRoot(listing, m_options, m_result.diagnostics));
        return true;
    }
    const ProfFolderKind kind = classifyProfFolder(listing);
    if (kind == ProfFolderKind::None)
        return collectReaderFolder(listing) || collectKinetoTraces(listing);
    m_result.sources.append(collectProfFolder(listing, kind, m_options, m_result.diagnostics));
    if (isStart) {
        const FolderListing parent = FolderListing::read(parentOf(listing.path));
        if (parent.readable && isTorchRootFolder(parent))
            warn(DiagnosticSeverity::Info, DiagnosticCode::EmbeddedProfSelected, listing.path,
                 QCoreApplication::translate(
                     "Parser",
                     "%1 is the msprof data embedded in the torch_npu result %2. Open %2 instead to "
                     "see the Python lanes of trace_view.json.")
                     .arg(folderName(listing.path), parent.path));
    }
    return true;
}

// A folder no Ascend layout claims: a result of some reader's own format (the first reader that says so).
bool Search::collectReaderFolder(const FolderListing &listing)
{
    for (const InputFormat *format : *m_options.formats) {
        DataSource s;
        if (!format->sniffFolder(listing, s))
            continue;
        s.format = format->formatId();
        if (s.rootPath.isEmpty())
            s.rootPath = listing.path;
        m_result.sources.append(std::move(s));
        return true;
    }
    return false;
}

// PyTorch profiler GPU traces (FORMATS.md §10.1): each trace a source the readers claim, its rank from
// distributedInfo when the head holds it (else finish() asks the folder names). A folder named like a rank
// holding one trace (`<run>/rank-0/x.pt.trace.json`) belongs to the run of its parent, as a G4 rank does.
bool Search::collectKinetoTraces(const FolderListing &listing)
{
    const QStringList traces = kinetoTracesIn(listing);
    const bool rankFolder = traces.size() == 1 && rankFromFolderName(folderName(listing.path)).has_value();
    bool found = false;
    for (const QString &trace : traces) {
        const FileClaim claim = sniffSingleFile(*m_options.formats, trace);
        if (!claim.format)
            continue;
        DataSource s = claimedFileSource(trace, claim);
        if (!s.rankId)
            s.rankId = distributedRankInHead(readTraceHead(trace));
        if (rankFolder)
            s.clusterPath = parentOf(listing.path);
        m_kinetoTraces << trace;
        m_result.sources.append(std::move(s));
        found = true;
    }
    return found;
}

void Search::walkDown(const QString &start)
{
    // Breadth-first, so a real folder is reached before deeper links to it, and roots end the descent.
    std::deque<Node> queue{{start, 0, {canonical(start)}}};
    QSet<QString> visited{canonical(start)};
    while (!queue.empty()) {
        const Node node = std::move(queue.front());
        queue.pop_front();
        if (++m_foldersVisited > m_options.maxFolders) {
            m_folderLimitHit = true;
            break;
        }
        const FolderListing listing = FolderListing::read(node.path);
        if (!listing.readable) {
            warn(DiagnosticSeverity::Warning, DiagnosticCode::PermissionDenied, node.path,
                 QCoreApplication::translate("Parser", "Cannot read %1: permission denied.").arg(node.path));
            continue;
        }
        if (collectRoot(listing, node.depth == 0) || listing.dirs.isEmpty())
            continue;
        if (node.depth >= m_options.maxDepth) {
            m_depthLimited.append(node.path);
            continue;
        }
        for (const bool links : {false, true}) {
            for (const QString &name : listing.dirs) {
                const QString child = listing.filePath(name);
                const QFileInfo info(child);
                if (info.isSymLink() != links || (links && !m_options.followSymlinks))
                    continue;
                const QString target = info.canonicalFilePath();
                if (target.isEmpty())
                    continue; // dangling link
                if (node.ancestors.contains(target)) {
                    warn(DiagnosticSeverity::Warning, DiagnosticCode::SymlinkLoop, child,
                         QCoreApplication::translate("Parser", "%1 links back to %2; not followed.")
                             .arg(child, target));
                    continue;
                }
                if (visited.contains(target))
                    continue; // second path to a folder already searched
                visited.insert(target);
                queue.push_back({child, node.depth + 1, node.ancestors + QStringList{target}});
            }
        }
    }
}

void Search::reportLimits(const QString &start)
{
    const auto severity = m_result.sources.isEmpty() ? DiagnosticSeverity::Warning : DiagnosticSeverity::Info;
    if (m_folderLimitHit)
        warn(
            severity, DiagnosticCode::FolderLimit, start,
            QCoreApplication::translate(
                "Parser", "The search stopped after %1 folders below %2. Choose a folder closer to the data.")
                .arg(m_options.maxFolders)
                .arg(start));
    if (!m_depthLimited.isEmpty())
        warn(severity, DiagnosticCode::DepthLimit, m_depthLimited.front(),
             QCoreApplication::translate(
                 "Parser", "Folders more than %1 levels below %2 were not searched (for example inside %3). "
                           "Choose a folder closer to the data.")
                 .arg(m_options.maxDepth)
                 .arg(start, m_depthLimited.front()));
}

// The chosen folder may be part of a result (ASCEND_PROFILER_OUTPUT, PROF_*/device_0/timeline, ...).
// A G4 root above wins over a PROF_* below it, since that PROF_* is embedded.
bool Search::tryEnclosingResult(const QString &start)
{
    QString found;
    QString path = start;
    for (int level = 0; level < kEnclosingLevels; ++level) {
        const QString parent = parentOf(path);
        if (parent == path)
            break;
        path = parent;
        const FolderListing listing = FolderListing::read(path);
        if (!listing.readable)
            break;
        if (isTorchRootFolder(listing)) {
            found = path;
            break;
        }
        if (found.isEmpty() && classifyProfFolder(listing) != ProfFolderKind::None)
            found = path;
    }
    if (found.isEmpty() || !collectRoot(FolderListing::read(found), false))
        return false;
    warn(DiagnosticSeverity::Info, DiagnosticCode::EnclosingFolderUsed, found,
         QCoreApplication::translate("Parser",
                                     "%1 is part of the profiling result %2; the whole result is loaded.")
             .arg(start, found));
    return true;
}

// Last resort: timeline files copied into a plain folder (trace_view.json, msprof*.json, profiler DBs).
bool Search::tryLooseFiles(const QString &start)
{
    const FolderListing listing = FolderListing::read(start);
    const ExportFolderContents contents = ExportFolderContents::scan(listing);
    DataSource s;
    s.rootPath = start;
    s.summaryFiles = contents.summaries;
    s.configFiles = configFilesIn(listing);
    const auto db = std::find_if(listing.files.cbegin(), listing.files.cend(),
                                 [](const QString &n) { return isTorchDbName(n) || isMsprofDbName(n); });
    if (db != listing.files.cend())
        s.timelineDatabase = listing.filePath(*db);

    if (listing.hasFile(QStringLiteral("trace_view.json"))) {
        s.generation = ProfileGeneration::G4;
        s.timelineFiles = {listing.filePath(QStringLiteral("trace_view.json"))};
    } else if (!contents.masterTimeline.isEmpty()) {
        const auto first = parseExportFileName(folderName(contents.masterTimeline.front()));
        s.generation = first && first->iteration ? ProfileGeneration::G1 : ProfileGeneration::G3;
        s.timelineFiles = contents.masterTimeline;
        if (s.generation == ProfileGeneration::G1)
            s.supplementaryTimelineFiles = contents.supplementaryTimeline;
    } else if (!s.timelineDatabase.isEmpty()) {
        s.generation = isMsprofDbName(*db) ? ProfileGeneration::G3 : ProfileGeneration::G4;
        s.timelineFiles = {s.timelineDatabase};
    } else {
        return false;
    }
    s.format = formatOfFile(*m_options.formats, s.timelineFiles.front());
    m_result.sources.append(std::move(s));
    warn(DiagnosticSeverity::Info, DiagnosticCode::LooseFilesUsed, start,
         QCoreApplication::translate(
             "Parser", "%1 is not a recognised result folder; loading the timeline files found in it.")
             .arg(start));
    return true;
}

// Drops a source whose folder lies inside another source's folder (an embedded PROF_* reached through a
// link) or repeats one (same folder and device).
void removeDuplicates(QList<DataSource> &sources)
{
    QStringList roots;
    for (const DataSource &s : sources)
        roots.append(canonical(s.rootPath));
    QList<DataSource> kept;
    for (qsizetype i = 0; i < sources.size(); ++i) {
        bool duplicate = false;
        for (qsizetype j = 0; j < sources.size() && !duplicate; ++j) {
            if (i == j)
                continue;
            duplicate = isInside(roots[i], roots[j]) ||
                        (j < i && roots[i] == roots[j] && sources[i].deviceId == sources[j].deviceId);
        }
        if (!duplicate)
            kept.append(sources[i]);
    }
    sources = kept;
}

// Rank from folder names: the root's own name, then enclosing folders up to the chosen one, but only a
// folder holding a single result root can name a rank ("rank_3/PROF_x" yes, "runs_rank0_and_1/..." no).
std::optional<int> rankFromPathNames(const DataSource &s, const QString &start, const QList<DataSource> &all)
{
    for (QString folder = s.rootPath;; folder = parentOf(folder)) {
        const bool ownFolder = std::none_of(all.cbegin(), all.cend(), [&](const DataSource &o) {
            return o.rootPath != s.rootPath && (o.rootPath == folder || isInside(o.rootPath, folder));
        });
        if (!ownFolder)
            return std::nullopt;
        if (const auto rank = rankFromFolderName(folderName(folder)))
            return rank;
        if (folder == start || !isInside(folder, start))
            return std::nullopt;
    }
}

QString baseLabel(const DataSource &s)
{
    if (s.rankId && s.deviceId)
        return QStringLiteral("Rank %1 / Device %2").arg(*s.rankId).arg(*s.deviceId);
    if (s.rankId)
        return QStringLiteral("Rank %1").arg(*s.rankId);
    if (s.deviceId)
        return QStringLiteral("Device %1").arg(*s.deviceId);
    return folderName(s.rootPath);
}

void finish(DetectedProfile &result, const QString &start)
{
    QList<DataSource> &sources = result.sources;
    removeDuplicates(sources);
    for (DataSource &s : sources) {
        if (!s.rankId)
            s.rankId = rankFromPathNames(s, start, sources);
        if (s.clusterPath.isEmpty())
            s.clusterPath = parentOf(s.rootPath);
    }
    std::stable_sort(sources.begin(), sources.end(), [](const DataSource &a, const DataSource &b) {
        if (const int c = naturalCompare(a.clusterPath, b.clusterPath))
            return c < 0;
        if (a.rankId != b.rankId) // std::optional: unknown ranks sort first
            return a.rankId < b.rankId;
        if (a.deviceId != b.deviceId)
            return a.deviceId < b.deviceId;
        return naturalLess(a.rootPath, b.rootPath);
    });

    QMap<QString, int> labelCount;
    for (DataSource &s : sources)
        labelCount[s.label = baseLabel(s)] += 1;
    const QDir startDir(start);
    for (DataSource &s : sources) {
        if (labelCount.value(s.label) < 2)
            continue;
        QString where = startDir.relativeFilePath(s.rootPath);
        if (where.isEmpty() || where == QStringLiteral(".") || where.startsWith(QStringLiteral("..")))
            where = s.rootPath;
        s.label += QStringLiteral(" (%1)").arg(where);
    }

    QStringList clusters;
    for (const DataSource &s : sources) {
        if (!clusters.contains(s.clusterPath))
            clusters.append(s.clusterPath);
    }
    if (clusters.size() > 1)
        result.diagnostics.append(
            {DiagnosticSeverity::Info, DiagnosticCode::MultipleRuns, start,
             QCoreApplication::translate(
                 "Parser",
                 "Results were found in %1 different folders (%2). They are shown as separate runs and "
                 "are not aligned to one clock.")
                 .arg(clusters.size())
                 .arg(clusters.join(QStringLiteral(", ")))});
}

} // namespace

namespace {

// Two GPU traces of one run that say (distributedInfo, or their folders) they are the same rank: both are
// loaded (the labels tell them apart), and the user learns why the ranks look wrong.
void reportDuplicateKinetoRanks(const QStringList &traces, DetectedProfile &result)
{
    QMap<std::pair<QString, int>, QString> firstOfRank; // (run, rank) → the first trace claiming it
    for (const DataSource &s : std::as_const(result.sources)) {
        if (!s.rankId || s.timelineFiles.isEmpty() || !traces.contains(s.timelineFiles.front()))
            continue;
        const std::pair<QString, int> key{s.clusterPath, *s.rankId};
        const QString &trace = s.timelineFiles.front();
        if (!firstOfRank.contains(key)) {
            firstOfRank.insert(key, trace);
            continue;
        }
        result.diagnostics.append(
            {DiagnosticSeverity::Warning, DiagnosticCode::DuplicateRank, trace,
             QCoreApplication::translate("Parser", "%1 and %2 both claim rank %3; both are loaded.")
                 .arg(firstOfRank.value(key), trace)
                 .arg(*s.rankId)});
    }
}

// One warning per special file, unless a diagnostic already names it (trace_view.json: "has no timeline").
void reportSpecialFiles(const SpecialFileReport &report, DetectedProfile &result)
{
    for (qsizetype i = 0; i < report.messages().size(); ++i) {
        const QString &path = report.paths()[i], &message = report.messages()[i];
        const bool named = std::any_of(result.diagnostics.cbegin(), result.diagnostics.cend(),
                                       [&](const Diagnostic &d) { return d.message.contains(path); });
        if (!named)
            result.diagnostics.append(
                {DiagnosticSeverity::Warning, DiagnosticCode::SpecialFile, path, message});
    }
}

} // namespace

DetectedProfile ProfileLayoutDetector::detect(const QString &path, const InputFormats &formats,
                                              const DetectOptions &givenOptions)
{
    DetectOptions options = givenOptions;
    options.formats = &formats;
    DetectedProfile result;
    const QFileInfo info(path);
    result.inputPath = QDir::cleanPath(info.absoluteFilePath());
    const QString start = result.inputPath;

    if (!info.exists()) {
        result.diagnostics.append({DiagnosticSeverity::Error, DiagnosticCode::NotFound, start,
                                   QCoreApplication::translate("Parser", "%1 does not exist.").arg(start)});
        return result;
    }
    if (!info.isDir()) {
        if (auto source = classifySingleFile(start, formats, result.diagnostics))
            result.sources.append(std::move(*source));
        finish(result, parentOf(start));
        return result;
    }

    if (!FolderListing::read(start).readable) {
        result.diagnostics.append(
            {DiagnosticSeverity::Error, DiagnosticCode::PermissionDenied, start,
             QCoreApplication::translate("Parser", "Cannot read %1: permission denied.").arg(start)});
        return result;
    }

    SpecialFileReport specialFiles; // FIFOs and the like named like a profiler's file: said, never opened
    Search search(options, result);
    search.walkDown(start);
    if (result.sources.isEmpty() && !search.tryEnclosingResult(start))
        search.tryLooseFiles(start);
    search.reportLimits(start);
    reportSpecialFiles(specialFiles, result);
    if (result.sources.isEmpty()) {
        result.diagnostics.append(
            {DiagnosticSeverity::Error, DiagnosticCode::NothingRecognised, start,
             QCoreApplication::translate(
                 "Parser",
                 "No Ascend profiling result was found in %1 (searched up to %2 levels deep). Expected "
                 "a *_ascend_pt folder, a PROF_* folder, trace_view.json or msprof*.json.")
                 .arg(start)
                 .arg(options.maxDepth)});
    }
    finish(result, start);
    reportDuplicateKinetoRanks(search.kinetoTraces(), result);
    return result;
}

} // namespace at
