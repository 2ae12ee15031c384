#include "snapshot/SnapshotArgs.h"

#include "InputReader.h"
#include "ReopenableArgsReader.h"

namespace at::snapshot {

std::optional<ArgsKind> argsKindOf(const EventArgsReader *reader)
{
    if (!reader)
        return kNoArgs;
    const auto *reopenable = dynamic_cast<const ReopenableArgsReader *>(reader);
    if (!reopenable || !inputReaderWithArgsKind(reopenable->snapshotKind()))
        return std::nullopt;
    return reopenable->snapshotKind();
}

bool knownArgsKind(ArgsKind kind)
{
    return kind == kNoArgs || inputReaderWithArgsKind(kind);
}

std::shared_ptr<const EventArgsReader> makeArgsReader(ArgsKind kind, const QString &path)
{
    const InputReader *reader = kind == kNoArgs ? nullptr : inputReaderWithArgsKind(kind);
    return reader ? reader->reopenArgs(path) : nullptr;
}

} // namespace at::snapshot
