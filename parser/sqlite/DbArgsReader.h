#pragma once

#include "ReopenableArgsReader.h"
#include "TraceModel.h"

#include <QString>

namespace at {

// Reads a database slice's row again when its details are asked for (like JsonArgsReader re-parses one
// event): the SourceLocation offset holds the table and the rowid. Each call opens its own read-only
// connection, so it works from whatever thread asks; string ids and enums are resolved, and TASK rows
// get their COMPUTE_TASK_INFO / COMMUNICATION_TASK_INFO columns and the arg names of the JSON export
// ("Task Id", "Subtask Id", "Stream Id", "Task Type", "connection_id"). taskIds reads TASK's taskId and
// contextId columns directly (the kernel join's tie-break).
class DbArgsReader : public ReopenableArgsReader
{
public:
    explicit DbArgsReader(QString path) : m_path(std::move(path)) {}
    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override;
    std::optional<TaskIds> taskIds(std::uint64_t offset) const override;
    std::uint8_t snapshotKind() const override { return snapshot_args_kind::kDatabase; }

private:
    QString m_path;
};

} // namespace at
