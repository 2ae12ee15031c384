#include "folder/ProfFolder.h"

#include "folder/ExportFolder.h"
#include "folder/InputFormat.h"
#include "folder/NamePatterns.h"

#include <QCoreApplication>

#include <utility>

namespace at {

using namespace profile_names;

namespace {

struct DeviceDir
{
    int id = 0;
    QString path;
};

QList<DeviceDir> deviceDirs(const FolderListing &prof)
{
    QList<DeviceDir> out; // prof.dirs is in natural order, so device_2 precedes device_10
    for (const QString &name : prof.dirs) {
        if (const auto id = deviceIdFromDirName(name))
            out.append({*id, prof.filePath(name)});
    }
    return out;
}

FolderListing readSub(const QString &base, const QString &relative, QList<Diagnostic> *diagnostics = nullptr)
{
    FolderListing listing = FolderListing::read(base + QLatin1Char('/') + relative);
    if (diagnostics && listing.exists && !listing.readable) {
        diagnostics->append(
            {DiagnosticSeverity::Warning, DiagnosticCode::PermissionDenied, listing.path,
             QCoreApplication::translate("Parser", "Cannot read %1: permission denied.").arg(listing.path)});
    }
    return listing;
}

bool holdsPerIterationJson(const FolderListing &timeline)
{
    for (const QString &name : timeline.files) {
        const auto parsed = parseExportFileName(name);
        if (parsed && parsed->iteration && parsed->extension == QStringLiteral("json"))
            return true;
    }
    return false;
}

bool holdsMasterTimeline(const FolderListing &timeline)
{
    for (const QString &name : timeline.files) {
        if (isMasterTimelineName(name))
            return true;
    }
    return false;
}

QString newestMsprofDb(const FolderListing &prof)
{
    QString best;
    QString bestStamp;
    for (const QString &name : prof.files) {
        if (!isMsprofDbName(name))
            continue;
        const QString stamp = name.mid(7, name.size() - 7 - 3); // msprof_<stamp>.db
        if (best.isEmpty() || compareTimestamps(stamp, bestStamp) > 0) {
            best = prof.filePath(name);
            bestStamp = stamp;
        }
    }
    return best;
}

DataSource baseSource(const FolderListing &prof, ProfileGeneration generation)
{
    DataSource s;
    s.generation = generation;
    s.rootPath = prof.path;
    s.profPath = prof.path;
    return s;
}

void addDataDir(DataSource &s, const QString &dataPath, QList<Diagnostic> &diagnostics)
{
    const FolderListing data = FolderListing::read(dataPath);
    if (!data.exists)
        return;
    if (!data.readable) {
        diagnostics.append(
            {DiagnosticSeverity::Warning, DiagnosticCode::PermissionDenied, dataPath,
             QCoreApplication::translate("Parser", "Cannot read %1: permission denied.").arg(dataPath)});
        return;
    }
    s.rawDataDirs.append(dataPath);
    s.configFiles.append(configFilesIn(data));
}

// host/data first, then device_<id>/data of the given devices.
void addSideData(DataSource &s, const FolderListing &prof, const QList<DeviceDir> &devices,
                 QList<Diagnostic> &diagnostics)
{
    if (prof.hasDir(QStringLiteral("host")))
        addDataDir(s, prof.filePath(QStringLiteral("host/data")), diagnostics);
    for (const DeviceDir &d : devices)
        addDataDir(s, d.path + QStringLiteral("/data"), diagnostics);
    if (devices.size() == 1)
        s.deviceId = devices.front().id;
}

void addSummaryDirs(DataSource &s, const FolderListing &prof, const QList<DeviceDir> &devices,
                    QList<Diagnostic> &diagnostics)
{
    if (prof.hasDir(QStringLiteral("host")))
        appendSummaries(s.summaryFiles, ExportFolderContents::scan(
                                            readSub(prof.path, QStringLiteral("host/summary"), &diagnostics))
                                            .summaries);
    for (const DeviceDir &d : devices)
        appendSummaries(
            s.summaryFiles,
            ExportFolderContents::scan(readSub(d.path, QStringLiteral("summary"), &diagnostics)).summaries);
}

// No exported timeline: fall back to raw data (§1.8 priority 7) or report a result without timeline.
void finishWithoutTimeline(DataSource &s, const DetectOptions &options, QList<Diagnostic> &diagnostics)
{
    if (!s.rawDataDirs.isEmpty()) {
        s.generation = ProfileGeneration::RawOnly;
        s.format = formatOfDataFolder(*options.formats, s.rawDataDirs.front());
        diagnostics.append({DiagnosticSeverity::Warning, DiagnosticCode::RawDataOnly, s.profPath,
                            QCoreApplication::translate(
                                "Parser", "%1 holds raw data only: run `msprof --export=on --output=%1` "
                                          "to export a timeline.")
                                .arg(s.profPath)});
    } else {
        diagnostics.append(
            {DiagnosticSeverity::Warning, DiagnosticCode::NoTimeline, s.profPath,
             QCoreApplication::translate("Parser", "%1 has no timeline and no raw data.").arg(s.profPath)});
    }
}

DataSource collectG3(const FolderListing &prof, const DetectOptions &options, QList<Diagnostic> &diagnostics)
{
    DataSource s = baseSource(prof, ProfileGeneration::G3);
    addSideData(s, prof, deviceDirs(prof), diagnostics);
    const ExportFolderContents out = ExportFolderContents::scan(
        readSub(prof.path, QStringLiteral("mindstudio_profiler_output"), &diagnostics));
    s.summaryFiles = out.summaries;
    s.timelineDatabase = newestMsprofDb(prof);

    const bool useDb =
        !s.timelineDatabase.isEmpty() && (options.preferDatabase || out.masterTimeline.isEmpty());
    if (useDb)
        s.timelineFiles = {s.timelineDatabase};
    else if (!out.masterTimeline.isEmpty())
        s.timelineFiles = out.masterTimeline;
    if (!s.timelineFiles.isEmpty())
        s.format = formatOfFile(*options.formats, s.timelineFiles.front());
    else
        finishWithoutTimeline(s, options, diagnostics);
    return s;
}

DataSource collectG2(const FolderListing &prof, const DetectOptions &options, QList<Diagnostic> &diagnostics)
{
    DataSource s = baseSource(prof, ProfileGeneration::G2);
    const QList<DeviceDir> devices = deviceDirs(prof);
    addSideData(s, prof, devices, diagnostics);
    addSummaryDirs(s, prof, devices, diagnostics);

    // The top-level merged timeline wins; the host/ + device_<id>/ copies are never loaded in addition.
    s.timelineFiles = ExportFolderContents::scan(readSub(prof.path, QStringLiteral("timeline"), &diagnostics))
                          .masterTimeline;
    if (s.timelineFiles.isEmpty()) {
        s.timelineFiles =
            ExportFolderContents::scan(readSub(prof.path, QStringLiteral("host/timeline"), &diagnostics))
                .masterTimeline;
        for (const DeviceDir &d : devices)
            s.timelineFiles.append(
                ExportFolderContents::scan(readSub(d.path, QStringLiteral("timeline"), &diagnostics))
                    .masterTimeline);
    }
    if (s.timelineFiles.isEmpty())
        finishWithoutTimeline(s, options, diagnostics);
    else
        s.format = formatOfFile(*options.formats, s.timelineFiles.front());
    return s;
}

QList<DataSource> collectG1(const FolderListing &prof, const DetectOptions &options,
                            QList<Diagnostic> &diagnostics)
{
    QList<DataSource> sources;
    const QList<DeviceDir> devices = deviceDirs(prof);
    for (const DeviceDir &d : devices) {
        const FolderListing timeline = readSub(d.path, QStringLiteral("timeline"), &diagnostics);
        const ExportFolderContents contents = ExportFolderContents::scan(timeline);
        if (contents.masterTimeline.isEmpty()) {
            if (holdsPerIterationJson(timeline))
                diagnostics.append(
                    {DiagnosticSeverity::Warning, DiagnosticCode::MissingDeviceTimeline, timeline.path,
                     QCoreApplication::translate("Parser",
                                                 "%1 has no msprof_*.json timeline; device %2 is skipped.")
                         .arg(timeline.path)
                         .arg(d.id)});
            continue;
        }
        DataSource s = baseSource(prof, ProfileGeneration::G1);
        s.timelineFiles = contents.masterTimeline;
        s.format = formatOfFile(*options.formats, s.timelineFiles.front());
        s.supplementaryTimelineFiles = contents.supplementaryTimeline;
        addSideData(s, prof, {d}, diagnostics);
        addSummaryDirs(s, prof, {d}, diagnostics);
        sources.append(std::move(s));
    }
    return sources;
}

} // namespace

ProfFolderKind classifyProfFolder(const FolderListing &prof)
{
    const QString name = prof.path.section(QLatin1Char('/'), -1);
    if (!prof.readable || !isProfDirName(name))
        return ProfFolderKind::None;

    if (prof.hasDir(QStringLiteral("mindstudio_profiler_output")) || !newestMsprofDb(prof).isEmpty())
        return ProfFolderKind::G3;
    // §1.7 says "or host/timeline/"; G1 may have host/timeline too (§1.2), so the host copy only marks G2
    // when it holds the msprof*.json that §1.3 lists there.
    if (holdsMasterTimeline(readSub(prof.path, QStringLiteral("timeline"))) ||
        holdsMasterTimeline(readSub(prof.path, QStringLiteral("host/timeline"))))
        return ProfFolderKind::G2;

    const QList<DeviceDir> devices = deviceDirs(prof);
    for (const DeviceDir &d : devices) {
        if (holdsPerIterationJson(readSub(d.path, QStringLiteral("timeline"))))
            return ProfFolderKind::G1;
    }
    bool hasData = readSub(prof.path, QStringLiteral("host")).hasDir(QStringLiteral("data"));
    for (const DeviceDir &d : devices)
        hasData = hasData || FolderListing::read(d.path).hasDir(QStringLiteral("data"));
    return hasData ? ProfFolderKind::RawOnly : ProfFolderKind::None;
}

QList<DataSource> collectProfFolder(const FolderListing &prof, ProfFolderKind kind,
                                    const DetectOptions &options, QList<Diagnostic> &diagnostics)
{
    switch (kind) {
    case ProfFolderKind::G3:
        return {collectG3(prof, options, diagnostics)};
    case ProfFolderKind::G2:
        return {collectG2(prof, options, diagnostics)};
    case ProfFolderKind::G1: {
        QList<DataSource> sources = collectG1(prof, options, diagnostics);
        if (!sources.isEmpty())
            return sources;
        [[fallthrough]]; // per-iteration files but no msprof_* anywhere: treat as raw
    }
    case ProfFolderKind::RawOnly: {
        DataSource s = baseSource(prof, ProfileGeneration::RawOnly);
        addSideData(s, prof, deviceDirs(prof), diagnostics);
        finishWithoutTimeline(s, options, diagnostics);
        return {s};
    }
    case ProfFolderKind::None:
        break;
    }
    return {};
}

} // namespace at
