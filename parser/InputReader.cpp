#include "InputReader.h"

#include "raw/RawDataReader.h"
#include "sqlite/DatabaseReader.h"
#include "summary/SummaryTablesReader.h"
#include "json/JsonTimelineReader.h"

#include <QFileInfo>

namespace at {

void SourceReading::warnMemoryStop(const QString &file, const QString &where, const QString &kept)
{
    builder.addWarning(
        QStringLiteral("%1: reading stopped %2 because memory use reached the limit (%3 of %4; "
                       "raise it with --memory-limit or AT_MEMORY_LIMIT); the %5 read before "
                       "were kept")
            .arg(file, where, formatByteSize(privateResidentBytes()),
                 formatByteSize(options.memoryLimitBytes), kept));
}

void SourceReading::recordRead(const QString &path)
{
    const auto size = static_cast<std::uint64_t>(QFileInfo(path).size());
    provenance.reads.push_back({path, size, 0, size});
}

namespace {

template <typename Reader> const InputReader *instance()
{
    static const Reader reader;
    return &reader;
}

} // namespace

const std::vector<const InputReader *> &inputReaders()
{
    // One line per input kind.
    static const std::vector<const InputReader *> readers{
        instance<RawDataReader>(),
        instance<DatabaseReader>(),
        instance<JsonTimelineReader>(),
        instance<SummaryTablesReader>(),
    };
    return readers;
}

} // namespace at
