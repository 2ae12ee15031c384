#pragma once

#include "sqlite/DbSchema.h"

#include "TraceBuilder.h"

#include <limits>
#include <unordered_map>
#include <vector>

namespace at {

// Tables whose rows become slices; the code and the rowid make a slice's SourceLocation offset, so
// DbArgsReader can read the row again when the details panel asks.
enum class DbTable : std::uint8_t
{
    Task = 1,
    CannApi,
    PytorchApi,
    CommunicationOp,
    CommunicationTask,
    MstxEvents,
    OverlapAnalysis
};

// end - start of a database row, 0 when end is before start and saturated instead of overflowing when
// a corrupt row holds extreme values (found by fuzz_sqlite: int64 signed overflow).
constexpr TimeNs dbDuration(TimeNs start, TimeNs end)
{
    TimeNs duration = 0;
    if (end <= start)
        return 0;
    if (__builtin_sub_overflow(end, start, &duration))
        return std::numeric_limits<TimeNs>::max();
    return duration;
}

constexpr int kDbRowBits = 40;
constexpr std::uint64_t dbRowOffset(DbTable table, qint64 rowid)
{
    return (static_cast<std::uint64_t>(table) << kDbRowBits) |
           (static_cast<std::uint64_t>(rowid) & ((std::uint64_t(1) << kDbRowBits) - 1));
}
QString dbTableName(DbTable table);

// One row of TASK (a device task), kept while the database is read: the kernel table and the flows
// both point at it.
struct DbTask
{
    qint64 rowid = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    qint64 connectionId = -1;
    qint64 globalTaskId = -1;
    qint64 deviceId = 0;
    qint64 streamId = -1;
    qint64 taskId = -1;
    qint64 contextId = -1;
    StringId type = 0;
    int thread = -1;
};

// What the readers of one database share.
struct DbContext
{
    DbSchema &schema;
    DbStrings &strings;
    TraceBuilder &builder;
    int group = 0;
    std::uint32_t source = 0;
    QString path;
    std::vector<DbTask> tasks;
    std::unordered_map<qint64, std::size_t> taskByGlobalId;

    SourceLocation location(DbTable table, qint64 rowid) const
    {
        return makeSourceLocation(source, dbRowOffset(table, rowid));
    }
    StringId intern(const QString &text)
    {
        const QByteArray utf8 = text.toUtf8();
        return builder.strings().intern(
            std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    }
};

} // namespace at
