#include "InputReader.h"

#include "summary/KernelRowTimelineReader.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace at {

void SourceReading::warnMemoryStop(const QString &file, const QString &where, const QString &kept)
{
    builder.addWarning(QCoreApplication::translate("Parser", "%1: reading stopped %2 because %3; the %4 read "
                                                             "before were kept")
                           .arg(file, where, memoryStopReason(options.memoryLimitBytes), kept));
}

void SourceReading::recordRead(const QString &path)
{
    const auto size = static_cast<std::uint64_t>(QFileInfo(path).size());
    provenance.reads.push_back({path, size, 0, size});
}

namespace {

std::vector<const InputReader *> &registry()
{
    // One line per input kind; the order is the reading order and the order the detector asks them in.
    static std::vector<const InputReader *> readers{
        &rawDataReader(),           //
        &databaseReader(),          //
        &jsonTimelineReader(),      //
        &kernelRowTimelineReader(), // only for a source without a timeline
        &summaryTablesReader(),     //
    };
    return readers;
}

} // namespace

const std::vector<const InputReader *> &inputReaders()
{
    return registry();
}

InputFormats inputFormats()
{
    return {registry().begin(), registry().end()};
}

const InputReader *inputReaderById(const QString &id)
{
    for (const InputReader *reader : registry())
        if (reader->descriptor().id == id)
            return reader;
    return nullptr;
}

const InputReader *inputReaderWithArgsKind(std::uint8_t kind)
{
    for (const InputReader *reader : registry())
        if (kind != 0 && reader->descriptor().snapshotArgsKind == kind)
            return reader;
    return nullptr;
}

// Not while a load runs: the registry is read without a lock.
ScopedInputReader::ScopedInputReader(const InputReader &reader) : m_reader(reader)
{
    registry().push_back(&m_reader);
}

ScopedInputReader::~ScopedInputReader()
{
    std::erase(registry(), &m_reader);
}

} // namespace at
