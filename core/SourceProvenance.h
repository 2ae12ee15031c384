#pragma once

#include <QCoreApplication>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace at {

// Which export of a profiling result a source group's timeline was read from.
enum class TimelineExport : std::uint8_t
{
    None,       // nothing with a timeline (only summary tables were read)
    ChromeJson, // a Chrome-trace file opened on its own
    TextExport, // a result folder's JSON timeline and CSV tables (FORMATS.md §1.8)
    Database,   // a profiler database (ascend_pytorch_profiler*.db, msprof_<n>.db)
    RawData     // PROF_*/{host,device_N}/data slices decoded by the viewer
};

// One input file and the bytes of it that were read: [offset, offset + bytes). A file cut short (memory
// limit, cancel, a file that shrank) has bytes < size.
struct FileRead
{
    QString path;
    std::uint64_t size = 0;
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
    friend bool operator==(const FileRead &, const FileRead &) = default;
};

// Where a source group's data came from, as typed facts: widgets make the display text, the window
// decides from it what File ▸ Reload offers.
struct SourceProvenance
{
    TimelineExport used = TimelineExport::None;
    QString databasePath;        // a profiler database of the same result, whether used or not
    bool hasTextExport = false;  // the JSON/CSV export of the same result exists
    QStringList rawDataDirs;     // PROF_*/{host,device_N}/data folders of the same result
    std::vector<FileRead> reads; // every file read, in reading order

    bool hasDatabase() const { return !databasePath.isEmpty(); }
    bool hasRawData() const { return !rawDataDirs.isEmpty(); }
    // Whether the same result can be read again from an export other than the one used.
    bool hasOtherExport() const
    {
        return (used == TimelineExport::Database && hasTextExport) ||
               ((used == TimelineExport::TextExport || used == TimelineExport::RawData) &&
                (hasDatabase() || (used == TimelineExport::RawData && hasTextExport)));
    }
    friend bool operator==(const SourceProvenance &, const SourceProvenance &) = default;
};

// The rows the Collection panel and --summary show for a source's provenance, in this order: "timeline
// source" (the export used), "raw data" (raw data beside an export) and "other source" (the export
// File ▸ Reload from Other Source switches to). None for a Chrome-trace file opened on its own.
// The display texts' translation context ("SourceProvenance"), as lupdate sees it.
struct ProvenanceText
{
    Q_DECLARE_TR_FUNCTIONS(SourceProvenance)
};

inline QList<QPair<QString, QString>> provenanceRows(const SourceProvenance &provenance)
{
    const QString database =
        ProvenanceText::tr("SQLite database %1").arg(provenance.databasePath.section(QLatin1Char('/'), -1));
    QList<QPair<QString, QString>> rows;
    const QString timelineSource = ProvenanceText::tr("timeline source"),
                  otherSource = ProvenanceText::tr("other source");
    switch (provenance.used) {
    case TimelineExport::None:
    case TimelineExport::ChromeJson:
        return rows;
    case TimelineExport::TextExport:
        rows.append({timelineSource, ProvenanceText::tr("text export")});
        break;
    case TimelineExport::Database:
        rows.append({timelineSource, database});
        break;
    case TimelineExport::RawData:
        rows.append({timelineSource,
                     ProvenanceText::tr("raw data (PROF_*/*/data slices decoded by Ascend Timeline)")});
        if (provenance.hasTextExport || provenance.hasDatabase())
            rows.append(
                {otherSource, provenance.hasTextExport ? ProvenanceText::tr("text export") : database});
        return rows;
    }
    if (provenance.hasRawData())
        rows.append(
            {ProvenanceText::tr("raw data"),
             ProvenanceText::tr(
                 "PROF_*/*/data slices (load them with --source raw or File ▸ Reload from Raw Data)")});
    if (provenance.used == TimelineExport::TextExport && provenance.hasDatabase())
        rows.append({otherSource, database});
    else if (provenance.used == TimelineExport::Database && provenance.hasTextExport)
        rows.append({otherSource, ProvenanceText::tr("text export")});
    return rows;
}

// The value of one of provenanceRows(), empty when there is no such row.
inline QString provenanceRow(const SourceProvenance &provenance, const QString &key)
{
    for (const auto &[rowKey, value] : provenanceRows(provenance))
        if (rowKey == key)
            return value;
    return {};
}

} // namespace at
