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

const std::vector<const InputReader *> &inputReaders()
{
    // One line per input kind.
    static const std::vector<const InputReader *> readers{
        &rawDataReader(),           //
        &databaseReader(),          //
        &jsonTimelineReader(),      //
        &kernelRowTimelineReader(), // only for a source without a timeline
        &summaryTablesReader(),     //
    };
    return readers;
}

} // namespace at
