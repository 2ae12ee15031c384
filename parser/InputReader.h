#pragma once

// One reader per input kind (JSON timeline, summary CSV tables, profiler database, raw PROF data, ...):
// the load plan (LoadPlan.h) lists, per source, the readers that recognise it, and the loader runs them
// in registration order into one TraceBuilder. A new format is a folder under parser/ with its reader
// plus its declaration below and one line in inputReaders() (InputReader.cpp).

#include "TraceBuilder.h"
#include "TraceLoader.h"
#include "config/CollectionReader.h"
#include "folder/ProfileLayout.h"

#include <QList>
#include <QPair>
#include <QString>

#include <cstddef>
#include <cstdint>
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

class InputReader
{
public:
    virtual ~InputReader() = default;
    // Whether this reader reads something of the source.
    virtual bool recognises(const DataSource &source) const = 0;
    // Bytes read() counts in LoadControl::bytesDone (the progress total is their sum).
    virtual std::uint64_t bytesToRead(const DataSource &source) const = 0;
    virtual ReadStatus read(SourceReading &reading) const = 0;
};

// The reader of each input kind, defined in its folder.
const InputReader &rawDataReader();       // raw/RawDataReader.cpp: PROF_* data slices (FORMATS.md §5)
const InputReader &databaseReader();      // sqlite/DatabaseReader.cpp: profiler databases (§6)
const InputReader &jsonTimelineReader();  // json/JsonTimelineReader.cpp: Chrome-trace timelines (§2)
const InputReader &summaryTablesReader(); // summary/SummaryTablesReader.cpp: kernel table, summary CSVs (§3)

// Every reader, in the order they read a source: timelines first (the summary tables reader runs last).
const std::vector<const InputReader *> &inputReaders();

} // namespace at
