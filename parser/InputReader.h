#pragma once

// One reader per input kind (JSON timeline, summary CSV tables, profiler database, raw PROF data, ...).
// Each reader recognises and describes its own input: its sniffs (folder/InputFormat.h) tell the folder
// detector which files and folders are its format, its descriptor says what it is (id, display name,
// provenance, snapshot args kind). The load plan (LoadPlan.h) lists, per source, the readers that
// recognise it, and the loader runs them in registration order into one TraceBuilder. A new format is a
// folder under parser/ with its reader and one line in inputReaders() (InputReader.cpp); see "Adding an
// input format" in docs/ARCHITECTURE.md.

#include "SourceProvenance.h"
#include "TraceBuilder.h"
#include "TraceLoader.h"
#include "config/CollectionReader.h"
#include "folder/InputFormat.h"
#include "folder/ProfileLayout.h"

#include <QList>
#include <QPair>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace at {

// What the loader hands each reader of one source, and what the readers leave for the loader.
struct SourceReading
{
    SourceReading(const DataSource &s, int g, TraceBuilder &b, LoadControl &c, const LoadOptions &o)
        : source(s), group(g), builder(b), control(c), options(o)
    {}

    const DataSource &source;
    int group = 0; // the source's SourceGroup in the builder
    TraceBuilder &builder;
    LoadControl &control;
    const LoadOptions &options;
    bool singleFile = false;         // a file opened on its own: a file that cannot be read fails the load
    QStringList rawDataOnlyMessages; // the detector's "not exported: run msprof" naming this source
    std::uint64_t progressBase =
        0; // bytes of the sources and readers before this one (LoadControl::bytesDone)
    std::uint64_t readerBytes = 0; // what the running reader's bytesToRead said (listed once per load)
    CollectionInputs collection;   // what the configuration reader gets once the readers ran
    QList<QPair<QString, QString>> properties; // filled in the collection where the configuration is silent
    SourceProvenance provenance;               // readers add the files they read
    QString failure;                           // set when the source could not be read at all

    // The kernel table, when a timeline reader made its records in the same pass as its slices
    // (summary/KernelRowTimelineReader): the summary tables reader then lists it instead of reading it again.
    struct KernelTableRead
    {
        bool notRead = false; // stopped before its first file
        bool cut = false;     // a stop ended it early
        std::size_t rows = 0; // kernel records made
    };
    std::optional<KernelTableRead> kernelTable;

    // Adds the memory guard's warning: reading `file` stopped `where` ("at byte 123 of 456"), `kept` what
    // was kept ("12 events").
    void warnMemoryStop(const QString &file, const QString &where, const QString &kept);
    // Records a file read as a whole.
    void recordRead(const QString &path);
};

enum class ReadStatus
{
    Done,     // everything recognised was read (problems are warnings)
    Stopped,  // the memory guard stopped reading; what was read is kept
    Cancelled // the user cancelled
};

// What a reader is, for the loader, the layout text and the snapshot.
struct InputReaderDescriptor
{
    QString id;          // stable; DataSource::format names the reader of a source's timeline by it
    QString displayName; // the format, as said to the user ("Chrome-trace JSON", "SQLite database")
    // Which export a source whose timeline it reads used (SourceProvenance::used); None: the reader adds to
    // a timeline (summary tables). A Chrome-trace file opened on its own is TimelineExport::ChromeJson.
    TimelineExport provenance = TimelineExport::None;
    // The byte a snapshot stores for the args reader of its sources (ReopenableArgsReader::snapshotKind()),
    // made again by reopenArgs(); 0: its args are not re-read from the file (never reuse a number).
    std::uint8_t snapshotArgsKind = 0;
    // Its timeline reader makes the source's kernel table itself (a database's COMPUTE_TASK_INFO), so the
    // kernel_details / op_summary CSVs beside it are not read.
    bool makesKernelTable = false;

    bool drawsTimeline() const { return provenance != TimelineExport::None; }
};

class InputReader : public InputFormat
{
public:
    virtual const InputReaderDescriptor &descriptor() const = 0;
    QString formatId() const final { return descriptor().id; }
    // Whether this reader reads something of the source (a timeline reader: source.format is its id).
    virtual bool recognises(const DataSource &source) const { return source.format == descriptor().id; }
    // Bytes read() counts in LoadControl::bytesDone (the progress total is their sum).
    virtual std::uint64_t bytesToRead(const DataSource &source) const = 0;
    virtual ReadStatus read(SourceReading &reading) const = 0;
    // The args reader of a source a snapshot reopened (descriptor().snapshotArgsKind != 0), reading `path`.
    virtual std::shared_ptr<const EventArgsReader> reopenArgs(const QString &path) const
    {
        (void)path;
        return nullptr;
    }
};

// The reader of each input kind, defined in its folder.
const InputReader &rawDataReader();       // raw/RawDataReader.cpp: PROF_* data slices (FORMATS.md §5)
const InputReader &databaseReader();      // sqlite/DatabaseReader.cpp: profiler databases (§6)
const InputReader &jsonTimelineReader();  // json/JsonTimelineReader.cpp: Chrome-trace timelines (§2)
const InputReader &summaryTablesReader(); // summary/SummaryTablesReader.cpp: kernel table, summary CSVs (§3)

// Every reader, in the order they read a source and are asked by the folder detector: timelines first
// (the summary tables reader runs last).
const std::vector<const InputReader *> &inputReaders();
// The same readers as the folder detector sees them (ProfileLayoutDetector::detect).
InputFormats inputFormats();
// The reader whose descriptor has this id / snapshot args kind; null when none.
const InputReader *inputReaderById(const QString &id);
const InputReader *inputReaderWithArgsKind(std::uint8_t kind);
// The reader that reads a source's timeline (source.format), null when it has none.
inline const InputReader *timelineReaderOf(const DataSource &source)
{
    return source.format.isEmpty() ? nullptr : inputReaderById(source.format);
}

// Registers a reader after the built-in ones for as long as it lives (tests: a throw-away format).
class ScopedInputReader
{
public:
    explicit ScopedInputReader(const InputReader &reader);
    ~ScopedInputReader();
    ScopedInputReader(const ScopedInputReader &) = delete;
    ScopedInputReader &operator=(const ScopedInputReader &) = delete;

private:
    const InputReader &m_reader;
};

} // namespace at
