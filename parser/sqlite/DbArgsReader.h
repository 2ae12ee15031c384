#pragma once

#include "TraceModel.h"

#include <QString>

namespace at {

// Reads a database slice's row again when its details are asked for (like JsonArgsReader re-parses one
// event): the SourceLocation offset holds the table and the rowid. Each call opens its own read-only
// connection, so it works from whatever thread asks; string ids and enums are resolved, and TASK rows
// get their COMPUTE_TASK_INFO / COMMUNICATION_TASK_INFO columns and the JSON arg names ("Task Id",
// "Subtask Id", "Stream Id", "Task Type", "connection_id") that the kernel join reads.
class DbArgsReader : public EventArgsReader
{
public:
    explicit DbArgsReader(QString path) : m_path(std::move(path)) {}
    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override;

private:
    QString m_path;
};

} // namespace at
