#pragma once

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

} // namespace at
