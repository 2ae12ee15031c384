#include "RawArgs.h"

namespace at::raw {

std::vector<std::pair<QString, QString>> RawArgsReader::readArgs(std::uint64_t offset) const
{
    std::vector<std::pair<QString, QString>> out;
    if (offset >= args.size())
        return out;
    const RawSliceArgs &a = args[offset];
    if (!a.device) {
        out.emplace_back(QStringLiteral("Thread Id"), QString::number(a.threadId));
        return out;
    }
    if (a.modelId >= 0) {
        out.emplace_back(QStringLiteral("Model Id"), QString::number(a.modelId));
        out.emplace_back(QStringLiteral("Iteration Id"), QString::number(a.indexId));
        out.emplace_back(QStringLiteral("Start Ticks"), QString::number(a.startTicks));
        out.emplace_back(QStringLiteral("End Ticks"), QString::number(a.endTicks));
        return out;
    }
    out.emplace_back(QStringLiteral("Task Type"), a.taskType);
    out.emplace_back(QStringLiteral("Stream Id"), QString::number(a.stream));
    out.emplace_back(QStringLiteral("Task Id"), QString::number(a.task));
    if (a.subtask >= 0)
        out.emplace_back(QStringLiteral("Subtask Id"), QString::number(a.subtask));
    if (a.batch >= 0)
        out.emplace_back(QStringLiteral("Batch Id"), QString::number(a.batch));
    out.emplace_back(QStringLiteral("Start Ticks"), QString::number(a.startTicks));
    out.emplace_back(QStringLiteral("End Ticks"), QString::number(a.endTicks));
    if (a.computeTime >= 0)
        out.emplace_back(QStringLiteral("Compute Time"), QString::number(a.computeTime));
    if (a.memcpyTime >= 0)
        out.emplace_back(QStringLiteral("Memcpy Time"), QString::number(a.memcpyTime));
    if (a.hostArgs >= 0 && static_cast<std::size_t>(a.hostArgs) < hostArgs.size())
        out.insert(out.end(), hostArgs[std::size_t(a.hostArgs)].begin(),
                   hostArgs[std::size_t(a.hostArgs)].end());
    return out;
}

std::optional<TaskIds> RawArgsReader::taskIds(std::uint64_t offset) const
{
    if (offset >= args.size() || !args[offset].isTask())
        return std::nullopt;
    const RawSliceArgs &a = args[offset];
    return TaskIds{a.task, a.subtask >= 0 ? a.subtask : TaskIds::kNone};
}

} // namespace at::raw
