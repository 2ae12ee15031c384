#pragma once

// What the folder detector asks the readers (parser/InputReader.h derives from InputFormat): does a file,
// judged by its name and first bytes, or a folder, judged by its listing, hold this reader's input? The
// detector walks folders and knows the Ascend result layouts (which files of a PROF_* or *_ascend_pt
// folder are the timeline); which reader reads a file is always the readers' answer, never the detector's.
// Plain interfaces: at_folder knows no reader, the loader passes them in (inputFormats()).

#include "folder/FolderListing.h"
#include "folder/ProfileLayout.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace at {

// A path offered to the readers.
struct FileSniff
{
    QString path;          // absolute
    QString name;          // its last component
    bool isFolder = false; // a data folder a result layout found (PROF_*/device_N/data), not a file
    // The file's first bytes (up to 1 MiB) on the second pass over a file opened on its own (headRead);
    // only the name may be judged while walking folders (listings only) and on the first pass.
    bool headRead = false;
    QByteArray head;
};

enum class SniffVerdict
{
    NotMine, // not this reader's input
    Mine,    // this reader reads it
    Refused  // this reader knows the name and that it holds no timeline (analysis.db, a summary CSV)
};

struct SniffAnswer
{
    SniffVerdict verdict = SniffVerdict::NotMine;
    QString reason; // Refused: why, as a sentence ending the "PATH is not a timeline: " message
};

class InputFormat
{
public:
    virtual ~InputFormat() = default;
    // The stable id DataSource::format names the reader by ("json", "sqlite", "raw", ...).
    virtual QString formatId() const = 0;
    // A file (or a result's data folder). Mine may fill in what the name tells (`source.generation`,
    // `rankId`, `timelineDatabase`); the caller sets the paths and the format.
    virtual SniffAnswer sniffFile(const FileSniff &file, DataSource &source) const
    {
        (void)file;
        (void)source;
        return {};
    }
    // A folder the walk reached that is no Ascend result folder: true when it is a result of this format,
    // with `source.timelineFiles` (and whatever else it knows) filled in. Listings only, never file reads.
    virtual bool sniffFolder(const FolderListing &folder, DataSource &source) const
    {
        (void)folder;
        (void)source;
        return false;
    }
};

// The readers the detector asks, in the order they are asked (the first Mine wins).
using InputFormats = std::vector<const InputFormat *>; // also DetectOptions::formats

// The format of a file judged by its name alone (a layout's chosen timeline file), or of a data folder;
// empty when no reader claims it.
QString formatOfFile(const InputFormats &formats, const QString &path);
QString formatOfDataFolder(const InputFormats &formats, const QString &path);

// A file opened on its own: first every reader judges the name; when none claims or refuses it and it is a
// regular file, its first MiB is read and every reader judges that.
struct FileClaim
{
    const InputFormat *format = nullptr; // the reader that claimed it; null when none did
    DataSource source;                   // what the claiming reader filled in
    QString refusal;                     // why it is not a timeline (a reader refused it, or none claimed it)
    const InputFormat *refusedBy = nullptr; // the reader that gave `refusal`; null when none did
    bool refusedByName = false;             // a reader refused it by its name (its bytes were not read)
    bool unreadable = false;                // its first bytes could not be read
};
FileClaim sniffSingleFile(const InputFormats &formats, const QString &path);

} // namespace at
